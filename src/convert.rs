//! `ToVariant` / `FromVariant`: Rust values to and from [`Variant`], for hand-written code
//! and for `#[derive(GodotVariant)]`.
//!
//! # The derive
//!
//! ```
//! use gdvariant::{decode, encode, DecodeOptions, Dialect, EncodeOptions};
//! use gdvariant::{FromVariant, GodotVariant, ToVariant, Vector2};
//!
//! #[derive(GodotVariant, Debug, PartialEq)]
//! struct Player {
//!     name: String,
//!     hp: i64,
//!     pos: Vector2,
//!     #[godot(default)]
//!     level: u8,
//!     guild: Option<String>,
//! }
//!
//! #[derive(GodotVariant, Debug, PartialEq)]
//! enum Class {
//!     Warrior,     // 0, like a GDScript enum
//!     Mage = 5,
//! }
//!
//! let ann = Player { name: "ann".into(), hp: 90, pos: Vector2::new(3.0, 4.0), level: 2, guild: None };
//! // {"name": "ann", "hp": 90, "pos": Vector2(3, 4), "level": 2, "guild": null}
//! let bytes = encode(&ann.to_variant(), Dialect::Godot3, &EncodeOptions::default())?;
//! let (value, _) = decode(&bytes, Dialect::Godot3, &DecodeOptions::default())?;
//! assert_eq!(Player::from_variant(&value)?, ann);
//! assert_eq!(Class::Mage.to_variant(), gdvariant::Variant::Int(5));
//!
//! // Errors name the path: a list of players whose second `pos` is a String.
//! let bad = gdvariant::Variant::Array(gdvariant::Array::new(vec![
//!     ann.to_variant(),
//!     {
//!         let mut d = gdvariant::Dictionary::new();
//!         d.insert("name".into(), "bob".into());
//!         d.insert("hp".into(), 7.into());
//!         d.insert("pos".into(), "3,4".into());
//!         gdvariant::Variant::Dictionary(d)
//!     },
//! ]));
//! let err = Vec::<Player>::from_variant(&bad).unwrap_err();
//! assert_eq!(err.to_string(), "[1].pos: expected Vector2, found String");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What converts to what
//!
//! | Rust | Variant written | Variant accepted |
//! |---|---|---|
//! | `bool` | Bool | Bool |
//! | `i8` … `i64`, `u8` … `u64`, `isize`, `usize` | Int | Int that fits (else an out-of-range error); `u64`/`usize` above `i64::MAX` wrap, as the engine's `Variant(uint64_t)` does |
//! | `f64` | Float | Float of either wire width; Int that `f64` holds exactly |
//! | `f32` | Float | Float, rounded to the nearest `f32` (what a `float`-typed engine property stores); Int that `f32` holds exactly |
//! | `String`, `&str`, `Cow<str>` | String | String or StringName |
//! | `StringName` | StringName | StringName or String |
//! | `NodePath` | NodePath | NodePath, or a String in path syntax |
//! | math types (`Vector2` … `Projection`, `Color`) | the same type | the same type |
//! | `Option<T>` | Nil for `None` | Nil (or a null Object) as `None`; a missing key is `None` |
//! | `Vec<T>`, `[T; N]`, `&[T]` | PackedByteArray / PackedInt32Array / PackedInt64Array / PackedFloat32Array / PackedFloat64Array / PackedStringArray / PackedVector2Array / PackedVector3Array / PackedColorArray / PackedVector4Array for `u8`, `i32`, `i64`, `f32`, `f64`, `String`, `Vector2`, `Vector3`, `Color`, `Vector4`; Array otherwise | an Array (typed or not) or any Packed array whose elements convert |
//! | `HashMap`, `BTreeMap`, `IndexMap` | Dictionary (in the map's iteration order: only `BTreeMap` and `IndexMap` give the same bytes every run) | Dictionary |
//! | tuples (up to 12) | Array | Array of exactly that length |
//! | `()` | Nil | Nil |
//! | `Variant`, `Dictionary`, `Array`, `Object`, `Signal` | as is | as is |
//!
//! An integer field does not accept a Float (that would silently drop the fraction); a float
//! field accepts an Int because GDScript code and JSON often write `100` where `100.0` is
//! meant. Such a value does not re-encode to the same bytes (an Int header becomes a Float one).
//!
//! Vectors of `i64`/`f64` become `PackedInt64Array`/`PackedFloat64Array`, which Godot 3 and
//! Pandemonium lack; for them, mark the field `#[godot(array)]` (a plain Array).

mod collections;
mod error;
#[doc(hidden)]
pub mod private;
mod scalar;

pub use error::{FromVariantError, FromVariantErrorKind, PathSegment};

use crate::generated::kinds::Kind;
use crate::variant::{Array, ElementType, Variant};

/// Converts a Rust value into a [`Variant`]. Implemented for the standard types listed in the
/// [module docs](self) and by `#[derive(GodotVariant)]`.
pub trait ToVariant {
    /// The value as a Variant.
    fn to_variant(&self) -> Variant;

    /// How a `Vec<Self>` is written: an Array by default; the element types that have a Packed
    /// array override this.
    #[doc(hidden)]
    fn __vec_to_variant(items: &[Self]) -> Variant
    where
        Self: Sized,
    {
        array_of(items)
    }

    /// The kind `__vec_to_variant` writes (for typed arrays of vectors).
    #[doc(hidden)]
    fn __vec_kind() -> Kind
    where
        Self: Sized,
    {
        Kind::Array
    }
}

/// Converts a [`Variant`] into a Rust value. Implemented for the standard types listed in the
/// [module docs](self) and by `#[derive(GodotVariant)]`.
pub trait FromVariant: Sized {
    /// The Rust value of `variant`, or where and why it does not fit.
    fn from_variant(variant: &Variant) -> Result<Self, FromVariantError>;

    /// How a `Vec<Self>` is read: an Array or any Packed array, element by element; element
    /// types with a Packed array take theirs without converting.
    #[doc(hidden)]
    fn __vec_from_variant(variant: &Variant) -> Result<Vec<Self>, FromVariantError> {
        private::vec_from_elements(variant)
    }

    /// The value of a Dictionary key that is absent: `Some(None)` for `Option`, else `None`
    /// (a missing key is then an error).
    #[doc(hidden)]
    fn __from_missing() -> Option<Self> {
        None
    }
}

/// A type whose values all have one Godot type, so a `Vec` of it can be written as a typed
/// Array (`Array[int]`, Godot 4.3+): see `#[godot(typed_array)]` and [`to_typed_array`].
pub trait TypedArrayElement {
    /// The element type of the typed Array.
    fn element_type() -> ElementType;
}

/// An untyped Array of the items, whatever their type (`#[godot(array)]`).
pub fn array_of<T: ToVariant>(items: &[T]) -> Variant {
    Variant::Array(Array::new(
        items.iter().map(ToVariant::to_variant).collect(),
    ))
}

/// A typed Array (`Array[T]`, Godot 4.3+) of the items (`#[godot(typed_array)]`).
///
/// Encoding it for Godot 3 or a Godot 4 older than 4.3 fails with
/// [`EncodeError::Unsupported`](crate::EncodeError::Unsupported), since those engines have no typed Arrays on the wire.
pub fn to_typed_array<T: ToVariant + TypedArrayElement>(items: &[T]) -> Variant {
    Variant::Array(Array::typed(
        T::element_type(),
        items.iter().map(ToVariant::to_variant).collect(),
    ))
}
