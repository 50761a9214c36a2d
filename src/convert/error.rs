//! `FromVariantError`: why a `Variant` did not convert to a Rust type, and where in the value.

use crate::error::{path_text, PathSegment};
use crate::generated::kinds::Kind;
use crate::variant::Variant;
use std::borrow::Cow;
use std::fmt;

/// Why a [`Variant`] could not be converted by [`FromVariant`](crate::FromVariant), with the
/// path to the offending part of the value.
///
/// It displays as `path: what`, for example `players[3].pos: expected Vector2, found String`
/// (the path is left out when the root value itself is wrong).
#[derive(Clone, Debug, PartialEq)]
pub struct FromVariantError {
    /// Path segments, innermost first (segments are pushed while the error travels outwards).
    path: Vec<PathSegment>,
    kind: FromVariantErrorKind,
}

/// What went wrong, without the path.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum FromVariantErrorKind {
    /// The value has another type than the one expected (`expected Vector2, found String`).
    TypeMismatch {
        /// What was expected, in Godot's words (`int`, `Vector2`, `Array`, `Dictionary`).
        expected: Cow<'static, str>,
        /// The type found.
        found: Kind,
    },
    /// An integer that does not fit the Rust integer type.
    OutOfRange {
        /// The value found.
        value: i64,
        /// The Rust type (`u8`).
        target: &'static str,
    },
    /// A Dictionary (or object) lacks a key that has no default.
    MissingField(Cow<'static, str>),
    /// A key that the type does not know, with `#[godot(deny_unknown_fields)]`.
    UnknownField(String),
    /// A value that names no variant of an enum.
    UnknownVariant {
        /// The value found (`7`, `"Jump"`).
        found: String,
        /// The enum's variants as they appear on the wire (`Mage = 5` for an int enum).
        expected: Vec<String>,
    },
    /// An Array with the wrong number of elements for a tuple.
    WrongLength {
        /// Elements expected.
        expected: usize,
        /// Elements found.
        found: usize,
    },
    /// A full object of another class.
    WrongClass {
        /// The class expected.
        expected: Cow<'static, str>,
        /// The class found.
        found: String,
    },
    /// A message from a hand-written conversion (`#[godot(with = ...)]`, serde).
    Custom(String),
}

impl FromVariantError {
    /// An error without a path yet.
    pub fn new(kind: FromVariantErrorKind) -> FromVariantError {
        FromVariantError {
            path: Vec::new(),
            kind,
        }
    }

    /// `expected {expected}, found {the kind of found}`.
    pub fn mismatch(expected: impl Into<Cow<'static, str>>, found: &Variant) -> FromVariantError {
        FromVariantError::new(FromVariantErrorKind::TypeMismatch {
            expected: expected.into(),
            found: found.kind(),
        })
    }

    /// A free-form message.
    pub fn custom(message: impl fmt::Display) -> FromVariantError {
        FromVariantError::new(FromVariantErrorKind::Custom(message.to_string()))
    }

    /// A missing key `name`.
    pub fn missing_field(name: impl Into<Cow<'static, str>>) -> FromVariantError {
        FromVariantError::new(FromVariantErrorKind::MissingField(name.into()))
    }

    /// The same error, one field further in (`.name` is prepended to the path).
    pub fn in_field(mut self, name: impl Into<Cow<'static, str>>) -> FromVariantError {
        self.path.push(PathSegment::Field(name.into()));
        self
    }

    /// The same error, one array element further in (`[index]` is prepended to the path).
    pub fn at_index(mut self, index: usize) -> FromVariantError {
        self.path.push(PathSegment::Index(index));
        self
    }

    /// The same error, one map entry further in (`[key]` is prepended to the path).
    pub fn at_key(mut self, key: &Variant) -> FromVariantError {
        self.path.push(PathSegment::key(key));
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> &FromVariantErrorKind {
        &self.kind
    }

    /// The path segments, outermost first.
    pub fn segments(&self) -> impl Iterator<Item = &PathSegment> {
        self.path.iter().rev()
    }

    /// The path as text (`players[3].pos`); empty for the root value.
    pub fn path(&self) -> String {
        path_text(self.segments())
    }
}

impl PathSegment {
    /// The segment of a map entry, by its key's text (`["sword"]`, `[&"id"]`, `[3]`).
    pub(crate) fn key(key: &Variant) -> PathSegment {
        PathSegment::Key(match key {
            Variant::String(s) => format!("{s:?}"),
            Variant::StringName(s) => format!("&{:?}", s.0),
            Variant::Int(i) => i.to_string(),
            other => format!("<{}>", other.kind().name()),
        })
    }
}

impl fmt::Display for FromVariantErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FromVariantErrorKind::TypeMismatch { expected, found } => {
                write!(f, "expected {expected}, found {}", found.name())
            }
            FromVariantErrorKind::OutOfRange { value, target } => {
                write!(f, "int {value} out of range for {target}")
            }
            FromVariantErrorKind::MissingField(name) => write!(f, "missing key `{name}`"),
            FromVariantErrorKind::UnknownField(name) => write!(f, "unknown key `{name}`"),
            FromVariantErrorKind::UnknownVariant { found, expected } => {
                write!(f, "unknown variant {found}, expected one of ")?;
                for (i, e) in expected.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{e}")?;
                }
                Ok(())
            }
            FromVariantErrorKind::WrongLength { expected, found } => {
                write!(f, "expected an Array of {expected} elements, found {found}")
            }
            FromVariantErrorKind::WrongClass { expected, found } => {
                write!(
                    f,
                    "expected an object of class `{expected}`, found `{found}`"
                )
            }
            FromVariantErrorKind::Custom(message) => f.write_str(message),
        }
    }
}

impl fmt::Display for FromVariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.kind)
        } else {
            write!(f, "{}: {}", self.path(), self.kind)
        }
    }
}

impl std::error::Error for FromVariantError {}
