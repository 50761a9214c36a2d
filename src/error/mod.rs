//! Errors of decoding and encoding, with the byte offset and the dialect.

/// The path to a place inside a value, as conversion and serde errors give it.
mod path;
/// The error of the serde route (`gdvariant::serde::Error`): here, below both the serde
/// module and the typed calls, which each name it.
#[cfg(feature = "serde")]
mod serde;
pub(crate) use self::path::path_text;
pub use self::path::PathSegment;
#[cfg(feature = "serde")]
pub use self::serde::Error as SerdeError;
#[cfg(feature = "containers")]
mod container;
#[cfg(feature = "containers")]
pub use self::container::ContainerError;

mod resource;
pub use self::resource::ResourceError;

use crate::dialect::Dialect;
use crate::generated::kinds::Kind;
use crate::version::Version;

/// Why bytes could not be decoded. Every variant carries the absolute byte offset of the
/// field that failed.
///
/// ```
/// use gdvariant::{decode, DecodeError, DecodeOptions, Dialect};
/// // A String that claims 200 bytes where 3 follow.
/// let bytes = [4, 0, 0, 0, 200, 0, 0, 0, b'a', b'b', b'c', 0];
/// let err = decode(&bytes, Dialect::Godot4, &DecodeOptions::default()).unwrap_err();
/// assert_eq!(err.offset(), 4); // the length field
/// assert_eq!(err.engine_error(), "ERR_FILE_EOF"); // what the engine's decode_variant returns
/// assert!(matches!(err, DecodeError::StringOutOfBounds { .. }));
/// println!("{err}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The input ends inside a value.
    #[error("unexpected end of input: {needed} more bytes needed in {dialect} data (at offset {offset:#x})")]
    UnexpectedEof {
        /// Where the missing field starts.
        offset: usize,
        /// How many bytes were missing.
        needed: usize,
        /// The dialect being decoded.
        dialect: Dialect,
    },
    /// The header's type id is not a type of this dialect and version.
    #[error("unknown type {tag} in {dialect} {version} data (at offset {offset:#x})")]
    UnknownType {
        /// Offset of the header.
        offset: usize,
        /// The type id (header & 0xFF).
        tag: u32,
        /// The dialect.
        dialect: Dialect,
        /// The engine version.
        version: Version,
    },
    /// A length or count is negative or larger than the remaining input.
    #[error("length {len} out of bounds ({remaining} bytes remain) in {dialect} data (at offset {offset:#x})")]
    LengthOutOfBounds {
        /// Offset of the length field.
        offset: usize,
        /// The length as read.
        len: u32,
        /// Bytes left after the field.
        remaining: usize,
        /// The dialect.
        dialect: Dialect,
    },
    /// A string's length is negative or runs past the end of the input (padding included):
    /// the engine's `_decode_string` answers `ERR_FILE_EOF` here, not `ERR_INVALID_DATA`.
    #[error("string length {len} out of bounds ({remaining} bytes remain) in {dialect} data (at offset {offset:#x})")]
    StringOutOfBounds {
        /// Offset of the length field.
        offset: usize,
        /// The length as read.
        len: u32,
        /// Bytes left after the field.
        remaining: usize,
        /// The dialect.
        dialect: Dialect,
    },
    /// A string is not valid UTF-8.
    #[error("invalid UTF-8 in a string in {dialect} data (at offset {offset:#x})")]
    InvalidUtf8 {
        /// Offset of the first bad byte.
        offset: usize,
        /// The dialect.
        dialect: Dialect,
    },
    /// A NodePath in the pre-3.0 format (bit 31 of its first word clear), which no engine reads.
    #[error("NodePath in the obsolete old format in {dialect} data (at offset {offset:#x})")]
    OldNodePath {
        /// Offset of the NodePath's first word.
        offset: usize,
        /// The dialect.
        dialect: Dialect,
    },
    /// A full object, while `allow_objects` is off (the engine's `ERR_UNAUTHORIZED`).
    #[error("full object refused (set allow_objects to decode objects as data) in {dialect} data (at offset {offset:#x})")]
    ObjectNotAllowed {
        /// Offset of the object's header.
        offset: usize,
        /// The dialect.
        dialect: Dialect,
    },
    /// Typed-container type data that names no valid type.
    #[error("invalid container element type {tag} in {dialect} data (at offset {offset:#x})")]
    InvalidElementType {
        /// Offset of the type field.
        offset: usize,
        /// The value read.
        tag: u32,
        /// The dialect.
        dialect: Dialect,
    },
    /// Nesting deeper than `limits.max_depth` (the engine's "Variant is too deep").
    #[error("nesting deeper than {limit} in {dialect} data (at offset {offset:#x})")]
    TooDeep {
        /// Offset of the value that went too deep.
        offset: usize,
        /// The limit.
        limit: usize,
        /// The dialect.
        dialect: Dialect,
    },
    /// Bytes that decode as data but that the engine of this dialect and version refuses: only
    /// with [`DecodeOptions::engine_strict`](crate::DecodeOptions::engine_strict).
    #[error("engine verdict: {refusal} in {dialect} data (at offset {offset:#x})")]
    EngineRefuses {
        /// Offset of the class name, the property value or the script path refused.
        offset: usize,
        /// What the engine refuses.
        refusal: EngineRefusal,
        /// The dialect.
        dialect: Dialect,
    },
    /// More elements in total than `limits.max_elements`.
    #[error("more than {limit} elements in {dialect} data (at offset {offset:#x})")]
    TooManyElements {
        /// Offset of the count that went over.
        offset: usize,
        /// The limit.
        limit: usize,
        /// The dialect.
        dialect: Dialect,
    },
}

impl DecodeError {
    /// The absolute byte offset of the failure.
    pub fn offset(&self) -> usize {
        match self {
            DecodeError::UnexpectedEof { offset, .. }
            | DecodeError::UnknownType { offset, .. }
            | DecodeError::LengthOutOfBounds { offset, .. }
            | DecodeError::StringOutOfBounds { offset, .. }
            | DecodeError::InvalidUtf8 { offset, .. }
            | DecodeError::OldNodePath { offset, .. }
            | DecodeError::ObjectNotAllowed { offset, .. }
            | DecodeError::InvalidElementType { offset, .. }
            | DecodeError::TooDeep { offset, .. }
            | DecodeError::EngineRefuses { offset, .. }
            | DecodeError::TooManyElements { offset, .. } => *offset,
        }
    }

    /// The error code the engine's `decode_variant` returns for the same input.
    pub fn engine_error(&self) -> &'static str {
        match self {
            DecodeError::UnexpectedEof { .. }
            | DecodeError::UnknownType { .. }
            | DecodeError::LengthOutOfBounds { .. }
            | DecodeError::InvalidUtf8 { .. }
            | DecodeError::OldNodePath { .. }
            | DecodeError::InvalidElementType { .. } => "ERR_INVALID_DATA",
            DecodeError::ObjectNotAllowed { .. } => "ERR_UNAUTHORIZED",
            // Godot 3.2.3's ClassDB::instance is null for such a class: ERR_UNAVAILABLE.
            DecodeError::EngineRefuses {
                refusal: EngineRefusal::UnknownClass(_) | EngineRefusal::AbstractClass(_),
                dialect: Dialect::Godot3,
                ..
            } => "ERR_UNAVAILABLE",
            DecodeError::EngineRefuses { .. } => "ERR_INVALID_DATA",
            DecodeError::StringOutOfBounds { .. } => "ERR_FILE_EOF",
            DecodeError::TooDeep { .. } | DecodeError::TooManyElements { .. } => {
                "ERR_OUT_OF_MEMORY"
            }
        }
    }

    /// The same error with its offset moved by `by` bytes (for values inside a framed stream).
    pub fn shifted(mut self, by: usize) -> DecodeError {
        match &mut self {
            DecodeError::UnexpectedEof { offset, .. }
            | DecodeError::UnknownType { offset, .. }
            | DecodeError::LengthOutOfBounds { offset, .. }
            | DecodeError::StringOutOfBounds { offset, .. }
            | DecodeError::InvalidUtf8 { offset, .. }
            | DecodeError::OldNodePath { offset, .. }
            | DecodeError::ObjectNotAllowed { offset, .. }
            | DecodeError::InvalidElementType { offset, .. }
            | DecodeError::TooDeep { offset, .. }
            | DecodeError::EngineRefuses { offset, .. }
            | DecodeError::TooManyElements { offset, .. } => *offset += by,
        }
        self
    }
}

/// What the engine-verdict mode refuses. Every refusal is the engine's `ERR_INVALID_DATA`,
/// except Godot 3's for a class, which is `ERR_UNAVAILABLE` (see [`DecodeError::engine_error`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EngineRefusal {
    /// A full object whose class the engine does not have.
    UnknownClass(String),
    /// A full object whose class the engine has but a game cannot instantiate (abstract,
    /// editor-only).
    AbstractClass(String),
    /// A full object's `script` property that is neither Nil nor a String.
    ScriptNotString,
    /// A script path (an object's `script`, a script-typed container's type) that is empty,
    /// outside `res://`, or climbs out of it with `..`.
    BadScriptPath(String),
    /// A script path that is not among the caller's `DecodeOptions::existing_scripts`.
    MissingScript(String),
}

impl std::fmt::Display for EngineRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineRefusal::UnknownClass(c) => write!(f, "the engine has no class `{c}`"),
            EngineRefusal::AbstractClass(c) => {
                write!(f, "the engine cannot instantiate class `{c}`")
            }
            EngineRefusal::ScriptNotString => {
                write!(f, "the `script` property is not a String script path")
            }
            EngineRefusal::BadScriptPath(p) => write!(
                f,
                "script path {p:?} is empty, outside res:// or climbs out of it"
            ),
            EngineRefusal::MissingScript(p) => write!(f, "script {p:?} does not exist"),
        }
    }
}

/// Why a value could not be encoded for a dialect and version.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// The dialect (at that version) has no such type.
    #[error("{kind:?} cannot be written in {dialect} {version} (at {path})")]
    Unrepresentable {
        /// The type.
        kind: Kind,
        /// The dialect.
        dialect: Dialect,
        /// The version.
        version: Version,
        /// Where in the value (`[2].pos`).
        path: String,
    },
    /// A feature of the value (typed containers, a RID id, …) that the target cannot carry.
    #[error("{what} cannot be written in {dialect} {version} (at {path})")]
    Unsupported {
        /// What is missing.
        what: String,
        /// The dialect.
        dialect: Dialect,
        /// The version.
        version: Version,
        /// Where in the value.
        path: String,
    },
    /// A real that does not survive single precision (set `round_reals` or `double_precision`).
    #[error("real {value} does not fit single precision (at {path}); set round_reals or double_precision")]
    InexactReal {
        /// The value.
        value: f64,
        /// Where in the value.
        path: String,
    },
    /// A full object without `full_objects`.
    #[error("full object of class `{class}` needs full_objects (at {path})")]
    FullObjectNeedsFlag {
        /// The class.
        class: String,
        /// Where in the value.
        path: String,
    },
    /// Nesting deeper than the limit (the engine's "Potential infinite recursion").
    #[error("nesting deeper than {limit} (at {path})")]
    TooDeep {
        /// The limit.
        limit: usize,
        /// Where in the value.
        path: String,
    },
    /// A string, array or count longer than the format's 31-bit lengths.
    #[error("length {len} exceeds the format's limit (at {path})")]
    TooLong {
        /// The length.
        len: usize,
        /// Where in the value.
        path: String,
    },
}
