//! The error of the serde route: a serde message, or the codec's own error, with the path to
//! where in the value it happened.

use super::path::{path_text, PathSegment};
use super::{DecodeError, EncodeError};
use std::fmt::Display;

/// Why a value could not go through `gdvariant::serde`.
///
/// An error inside the value says where, as the derive's errors do:
/// `players[3].level: invalid type: string "level_01", expected i64` (struct fields as
/// `.name`, elements as `[3]`, map entries by key as `["sword"]`).
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
    /// An error inside the value: `error` (never itself `At`) at `path`.
    #[error("{}: {error}", path_text(path.iter().rev()))]
    At {
        /// Path segments, innermost first (pushed while the error travels outwards).
        path: Vec<PathSegment>,
        /// What went wrong there.
        error: Box<Error>,
    },
}

impl Error {
    /// The same error, one step further in (`segment` is prepended to the path).
    pub(crate) fn at(self, segment: PathSegment) -> Error {
        match self {
            Error::At { mut path, error } => {
                path.push(segment);
                Error::At { path, error }
            }
            other => Error::At {
                path: vec![segment],
                error: Box::new(other),
            },
        }
    }

    /// One field further in: `.name`.
    pub(crate) fn in_field(self, name: &str) -> Error {
        self.at(PathSegment::Field(name.to_string().into()))
    }

    /// The path to the error as text (`players[3].level`); empty at the root value.
    pub fn path(&self) -> String {
        match self {
            Error::At { path, .. } => path_text(path.iter().rev()),
            _ => String::new(),
        }
    }

    /// The error without its path.
    pub fn inner(&self) -> &Error {
        match self {
            Error::At { error, .. } => error,
            other => other,
        }
    }
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
