//! The path to a place inside a value (`players[3].pos`), as the errors of conversion and serde give it.

use std::borrow::Cow;

/// One step of a [`FromVariantError`](crate::FromVariantError)'s path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathSegment {
    /// A struct field or object property (`.pos`).
    Field(Cow<'static, str>),
    /// An array element (`[3]`).
    Index(usize),
    /// A map entry, by the key's text (`["sword"]`).
    Key(String),
}

/// Segments, outermost first, as text (`players[3].pos`): the one spelling of a path for the
/// derive's errors and serde's.
pub(crate) fn path_text<'a>(segments: impl Iterator<Item = &'a PathSegment>) -> String {
    let mut out = String::new();
    for seg in segments {
        match seg {
            PathSegment::Field(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            PathSegment::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
            PathSegment::Key(k) => {
                out.push('[');
                out.push_str(k);
                out.push(']');
            }
        }
    }
    out
}
