//! The error of the serde route: a serde message, or the codec's own error, with the path to
//! where in the value it happened.

use crate::convert::PathSegment;
use crate::error::{DecodeError, EncodeError};
use crate::variant::Variant;
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
    #[error("{}: {error}", crate::convert::path_text(path.iter().rev()))]
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

    /// One map entry further in: `.name` for a String key of a struct, else `[key]`.
    pub(crate) fn at_entry(self, key: &Variant, is_struct: bool) -> Error {
        match key {
            Variant::String(s) if is_struct => self.in_field(s),
            Variant::StringName(s) if is_struct => self.in_field(&s.0),
            _ => self.at(PathSegment::key(key)),
        }
    }

    /// The path to the error as text (`players[3].level`); empty at the root value.
    pub fn path(&self) -> String {
        match self {
            Error::At { path, .. } => crate::convert::path_text(path.iter().rev()),
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
