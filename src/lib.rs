//! gdvariant: Godot's binary Variant serialization, byte-exact for Godot 3, Godot 4 and Pandemonium.
#![deny(missing_docs)]

// Lets `#[derive(GodotVariant)]` output (which names `::gdvariant`) compile inside this crate too.
extern crate self as gdvariant;

pub mod borrowed;
#[cfg(feature = "codec")]
pub mod codec;
pub mod convert;
#[cfg(feature = "debugger")]
pub mod debugger;
mod decode;
mod dialect;
mod encode;
mod error;
pub mod explain;
pub mod framing;
// Generated from the spec: complete tables, some of whose entries only some builds use.
#[rustfmt::skip]
#[allow(dead_code)]
mod generated;
pub mod guess;
#[cfg(feature = "json")]
pub mod json;
pub mod math;
pub mod migrate;
mod quirks;
#[cfg(feature = "serde")]
pub mod serde;
#[cfg(feature = "json")]
mod stack;
pub mod text;
mod variant;
mod version;

pub use borrowed::{decode_borrowed, VariantRef};
pub use convert::{FromVariant, FromVariantError, ToVariant, TypedArrayElement};
pub use decode::{decode, DecodeOptions, Limits};
pub use dialect::Dialect;
pub use encode::{encode, encode_into, encoded_len, EncodeOptions};
pub use error::{DecodeError, EncodeError};
/// `#[derive(GodotVariant)]`: implements [`ToVariant`] and [`FromVariant`]; see [`convert`].
pub use gdvariant_derive::GodotVariant;
pub use generated::kinds::{Feature, FieldInfo, Kind, TypeInfo};
pub use text::{from_text, to_text, to_text_exact, TextError};
pub use variant::packed::{PackedElement, PackedRef};
pub use variant::{
    Array, ArrayType, Dictionary, DictionaryType, ElementType, FullObject, GString, NodePath,
    Object, Signal, StringName, Variant, VariantIndex,
};
pub use version::{ParseVersionError, Version};

/// The README's Rust examples, compiled and run as doc-tests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;
