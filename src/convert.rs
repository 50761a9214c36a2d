//! `ToVariant` / `FromVariant`: Rust values to and from [`Variant`], for hand-written code
//! and for `#[derive(GodotVariant)]`.
//!
//! # The derive
//!
//! ```
//! use gdvariant::{decode, encode, DecodeOptions, Dialect, EncodeOptions};
//! use gdvariant::math::Vector2;
//! use gdvariant::{FromVariant, GodotVariant, ToVariant};
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
//! # What the derive writes
//!
//! | Rust | Variant |
//! |---|---|
//! | `struct S { a: A, b: B }` | Dictionary `{"a": …, "b": …}`, String keys in declaration order (StringName keys are accepted too) |
//! | `#[godot(object = "Class")] struct S { … }` | a full Object of that class whose properties are the fields, in order (`var_to_bytes_with_objects`, [`EncodeOptions::full_objects`](crate::EncodeOptions)); `#[godot(object)]` takes the struct's name as the class |
//! | `struct S(A, B)` | Array `[…, …]` of exactly that length |
//! | `struct S(A)` | transparent: whatever `A` writes |
//! | `struct S;` | Nil |
//! | `enum E { A, B = 5 }` (no fields) | Int: the discriminant, explicit or implicit (like a GDScript enum); `#[godot(as_string)]`: the variant name as a String |
//! | `enum E { A, B(X), C(X, Y), D { x: X } }` | Dictionary with a tag: `{"type": "A"}`, `{"type": "B", "value": x}`, `{"type": "C", "value": [x, y]}`, `{"type": "D", "x": x}` |
//!
//! Generic types get `T: ToVariant` / `T: FromVariant` bounds on every type parameter.
//!
//! # Attributes
//!
//! On the struct or enum:
//!
//! | attribute | effect |
//! |---|---|
//! | `rename_all = "…"` | renames every field (struct) or variant (enum): `lowercase`, `UPPERCASE`, `PascalCase`, `camelCase`, `snake_case`, `SCREAMING_SNAKE_CASE`, `kebab-case`, `SCREAMING-KEBAB-CASE` |
//! | `deny_unknown_fields` | a key that is not a field is an error (`unknown key `mana``); by default unknown keys are ignored |
//! | `default` / `default = "path"` | a missing field takes its value from `Default::default()` (or `path()`) of the whole struct |
//! | `object` / `object = "Class"` | write and read a full Object of that class instead of a Dictionary |
//! | `as_string` | a field-less enum is written as its variant name (a String) instead of an Int |
//! | `tag = "key"` | the tag key of an enum with data (default `"type"`) |
//! | `content = "key"` | the key of tuple and newtype variant content (default `"value"`) |
//! | `crate = "path"` | the path of this crate, when it is re-exported under another name |
//!
//! On a field:
//!
//! | attribute | effect |
//! |---|---|
//! | `rename = "key"` | the Dictionary key (or property name) of the field |
//! | `alias = "old"` (repeatable) | another key accepted when reading (a renamed field's old name); writing uses the primary key; if both are present, the later entry wins. An alias that is another field's key or alias is a compile error on the alias |
//! | `flatten` | the field is a struct with named fields (deriving `GodotVariant`) whose fields are written into, and read from, this struct's Dictionary, as serde's `flatten`; on a struct only, not with `rename`, `alias`, `skip`, `default`, `with`, `array`, `typed_array` |
//! | `skip` | not written; `Default::default()` when read (conflicts with `default` and `with`) |
//! | `default` / `default = "path"` | a missing key gives `Default::default()` (or `path()`) instead of an error |
//! | `with = "module"` | convert with `module::to_variant(&T) -> Variant` and `module::from_variant(&Variant) -> Result<T, FromVariantError>` |
//! | `array` | write a `Vec` as an untyped Array even if its element type has a Packed array (needed for `Vec<i64>`/`Vec<f64>` in Godot 3) |
//! | `typed_array` | write a `Vec` as a typed Array (`Array[int]`; Godot 4.3+; the element type comes from [`TypedArrayElement`]) |
//!
//! On a variant: `rename = "name"` (the tag value or String; not for enums written as Int).
//!
//! A flattened struct's keys may collide with the parent's (or another flattened struct's):
//! the derive sees one type at a time, so this is not a compile error. Such a key is written
//! once, in the place of its first field, with the value of the field declared later (as
//! `dict[key] = value` twice would); when read, every field with that key gets the value.
//! `deny_unknown_fields` on the parent knows the flattened keys; on the flattened struct it
//! has no effect there (the parent's keys are not unknown to it).
//!
//! Mistakes are compile errors on the offending token, all reported at once:
//! `conflicting: both `skip` and `default` on field `hp``, `unknown attribute `renamed` on a
//! field: expected one of …`, ``duplicate key `hp`: field `health` has the same key as field `hp` ``.
//!
//! # Missing keys, unknown keys, errors
//!
//! A missing key is `None` for an `Option` field (and `Nil` for a `Variant` field), the
//! default for a `default` field, and otherwise a [`FromVariantError`] (`missing key `hp``).
//! Unknown keys are ignored unless `deny_unknown_fields`. Every error carries the path from
//! the root value: `players[3].pos: expected Vector2, found String`,
//! `hp: int 4294967296 out of range for i32`, `type: unknown variant "jump", expected one of "move", "say"`.
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
//! | `HashMap`, `BTreeMap`, `IndexMap` | Dictionary: `BTreeMap` and `IndexMap` in their order; `HashMap` (whose iteration order changes from run to run) sorted in the engine's key order, as Godot 4's `var_to_str` prints keys, so the same map gives the same bytes every run | Dictionary |
//! | tuples (up to 12) | Array | Array of exactly that length |
//! | `()` | Nil | Nil |
//! | `Variant`, `Dictionary`, `Array`, `Object`, `Signal` | as is | as is (a missing key is Nil for `Variant`) |
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

#[cfg(feature = "serde")]
pub use crate::error::PathSegment;
pub use error::{FromVariantError, FromVariantErrorKind};

use crate::generated::kinds::Kind;
use crate::variant::{Array, ElementType, Variant};

/// Converts a Rust value into a [`Variant`]. Implemented for the standard types listed in the
/// [module docs](self) and by `#[derive(GodotVariant)]`.
pub trait ToVariant {
    /// The value as a Variant.
    fn to_variant(&self) -> Variant;

    /// The value as a Variant, borrowed where it already is one (a `Variant` is not cloned):
    /// what [`to_vec`](crate::to_vec) and [`to_writer`](crate::to_writer) encode.
    fn as_variant(&self) -> std::borrow::Cow<'_, Variant> {
        std::borrow::Cow::Owned(self.to_variant())
    }

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
