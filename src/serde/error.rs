//! The error of the serde route: a serde message, or the codec's own error.

use crate::error::{DecodeError, EncodeError};
use std::fmt::Display;

/// Why a value could not go through `gdvariant::serde`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A message from serde or from a `Serialize`/`Deserialize` impl.
    #[error("{0}")]
    Message(String),
    /// The Variant could not be encoded.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// The bytes could not be decoded.
    #[error(transparent)]
    Decode(#[from] DecodeError),
}

impl ::serde::ser::Error for Error {
    fn custom<T: Display>(msg: T) -> Error {
        Error::Message(msg.to_string())
    }
}

impl ::serde::de::Error for Error {
    fn custom<T: Display>(msg: T) -> Error {
        Error::Message(msg.to_string())
    }
}
