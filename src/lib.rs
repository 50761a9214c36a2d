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
pub mod decode;
pub mod dialect;
pub mod encode;
pub mod error;
pub mod explain;
pub mod framing;
#[rustfmt::skip]
pub mod generated;
pub mod guess;
#[cfg(feature = "json")]
pub mod json;
pub mod layout;
pub mod math;
pub mod migrate;
pub mod quirks;
#[cfg(feature = "serde")]
pub mod serde;
mod stack;
pub mod text;
pub mod variant;
pub mod version;

pub use borrowed::{decode_borrowed, PackedRef, VariantRef};
pub use convert::{FromVariant, FromVariantError, ToVariant, TypedArrayElement};
pub use decode::decode;
pub use dialect::{DecodeOptions, Dialect, EncodeOptions, Limits};
pub use encode::{encode, encode_into, encoded_len};
pub use error::{DecodeError, EncodeError};
/// `#[derive(GodotVariant)]`: implements [`ToVariant`] and [`FromVariant`]; see [`convert`].
pub use gdvariant_derive::GodotVariant;
pub use generated::kinds::Kind;
pub use math::*;
pub use text::{from_text, to_text, to_text_exact, TextError};
pub use variant::*;
pub use version::Version;

/// The README's Rust examples, compiled and run as doc-tests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;
