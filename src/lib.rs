//! gdvariant: Godot's binary Variant serialization, byte-exact for Godot 3, Godot 4 and Pandemonium.
#![deny(missing_docs)]

pub mod borrowed;
pub mod decode;
pub mod dialect;
pub mod encode;
pub mod error;
#[rustfmt::skip]
pub mod generated;
pub mod layout;
pub mod math;
pub mod quirks;
pub mod variant;
pub mod version;

pub use borrowed::{decode_borrowed, PackedRef, VariantRef};
pub use decode::decode;
pub use dialect::{DecodeOptions, Dialect, EncodeOptions, Limits};
pub use encode::{encode, encode_into, encoded_len};
pub use error::{DecodeError, EncodeError};
pub use generated::kinds::Kind;
pub use math::*;
pub use variant::*;
pub use version::Version;
