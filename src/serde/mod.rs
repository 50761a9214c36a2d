//! serde support: a Serializer into [`Variant`] and a Deserializer out of it, plus byte-level
//! helpers, so `#[derive(Serialize, Deserialize)]` types travel as Godot Variants.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use gdvariant::math::Vector2;
//! use gdvariant::Format;
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Player { name: String, hp: i64, pos: Vector2, tags: Vec<String> }
//!
//! let p = Player { name: "ann".into(), hp: 90, pos: Vector2::new(3.0, 4.0), tags: vec!["a".into()] };
//! let bytes = gdvariant::serde::to_vec(&p, &Format::godot3())?;
//! let back: Player = gdvariant::serde::from_slice(&bytes, &Format::godot3())?;
//! assert_eq!(back, p);
//! # Ok::<(), gdvariant::Error>(())
//! ```
//!
//! # serde or `#[derive(GodotVariant)]`?
//!
//! Both map a struct to a Dictionary with String keys in declaration order. They differ:
//!
//! | | `#[derive(GodotVariant)]` | serde |
//! |---|---|---|
//! | `Vec<i32>`, `Vec<u8>`, `Vec<Vector2>`, … | the Packed array (or `#[godot(array)]` / `#[godot(typed_array)]`) | always an Array (serde sees a sequence); a Packed array is still *read* |
//! | unit-only enums | int (GDScript style), or String with `as_string` | String (the variant name); an Int is read as the variant index |
//! | enums with data | `{"type": "Move", ...fields}` (tag key configurable) | `{"Move": {...}}` (serde's external tagging; `#[serde(tag = "type")]` works too) |
//! | full Objects, typed Arrays, StringName, NodePath | yes (`object`, `typed_array`, the types) | only through `Variant`/math-type fields or [`as_variant`] |
//! | missing `Option` key | `None` | `None` |
//! | errors | path + mismatch (`players[3].pos: expected Vector2, found String`) | path + serde's message (`players[3].level: invalid type: string "level_01", expected i64`), reading and writing; [`Error::path`] |
//! | existing serde types, `#[serde(...)]` attributes, other formats | no | yes |
//!
//! Pick the derive for types that mirror Godot data (byte-exact with the engine, Packed arrays,
//! enums as ints, objects); pick serde for types that already derive serde and must also go
//! to JSON or other formats. [`as_variant`] lets a serde type hold a `GodotVariant` field.
//!
//! `Variant` and the math types implement `Serialize`/`Deserialize`: through this module they
//! are carried unchanged (a `Vector2` stays a Vector2); through other formats they are plain
//! structures (`{"x": 3.0, "y": 4.0}`, a Dictionary as a map, a Packed array as a sequence).
//!
//! Note: `use gdvariant::*` brings this module in as `serde`, which then clashes with the
//! `serde` crate (error E0659 where `serde::…` is written); write `::serde::Serialize` there, or
//! import gdvariant's names one by one.

mod de;
mod entry;
mod io;
mod ser;
mod types;

pub use io::{from_reader, from_slice, from_slice_partial, to_vec, to_writer};

pub use crate::error::SerdeError as Error;
pub use de::VariantDeserializer;
pub use ser::VariantSerializer;

use crate::variant::Variant;

/// `value` as a Variant.
pub fn to_variant<T: ::serde::Serialize + ?Sized>(value: &T) -> Result<Variant, Error> {
    let _active = types::Active::enter();
    value.serialize(VariantSerializer)
}

/// A `T` read from a Variant.
pub fn from_variant<T: ::serde::de::DeserializeOwned>(variant: &Variant) -> Result<T, Error> {
    let _active = types::Active::enter();
    T::deserialize(VariantDeserializer::new(variant.clone()))
}

/// `#[serde(with = "gdvariant::serde::as_variant")]`: a field whose type implements
/// [`ToVariant`](crate::ToVariant) / [`FromVariant`](crate::FromVariant) (a
/// `#[derive(GodotVariant)]` type) inside a serde type.
pub mod as_variant {
    use crate::variant::Variant;
    use crate::{FromVariant, ToVariant};

    /// Serializes through [`ToVariant`].
    pub fn serialize<T: ToVariant, S: ::serde::Serializer>(
        value: &T,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        ::serde::Serialize::serialize(&value.to_variant(), serializer)
    }

    /// Deserializes through [`FromVariant`].
    pub fn deserialize<'de, T: FromVariant, D: ::serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<T, D::Error> {
        let v: Variant = ::serde::Deserialize::deserialize(deserializer)?;
        T::from_variant(&v).map_err(<D::Error as ::serde::de::Error>::custom)
    }
}
