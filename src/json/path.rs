//! The jq-style path of a place in a JSON document (`$.value[2][1]`), kept as segments and spelled out only when an error needs it.
//!
//! Readers push a segment for every element they enter; spelling `[i]` there (a `format!`
//! per element) was a tenth of the time of reading a big Dictionary, for errors that are
//! almost never made.

use std::borrow::Cow;
use std::fmt::{self, Write};

/// One step of a [`Path`].
pub(super) enum Seg {
    /// Spelled as given: `$`, `.value`, `[0]`.
    Lit(&'static str),
    /// An element of an array: `[i]`.
    Index(usize),
    /// A key of an object: `.name`.
    Field(Cow<'static, str>),
}

impl From<&'static str> for Seg {
    fn from(s: &'static str) -> Seg {
        Seg::Lit(s)
    }
}

impl From<usize> for Seg {
    fn from(i: usize) -> Seg {
        Seg::Index(i)
    }
}

impl fmt::Display for Seg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seg::Lit(s) => f.write_str(s),
            Seg::Index(i) => write!(f, "[{i}]"),
            Seg::Field(name) => write!(f, ".{name}"),
        }
    }
}

/// Where a reader is, from the document's root `$`.
#[derive(Default)]
pub(super) struct Path(Vec<Seg>);

impl Path {
    /// The root of a document, `$`.
    pub(super) fn root() -> Path {
        Path(vec![Seg::Lit("$")])
    }

    pub(super) fn push(&mut self, seg: Seg) {
        self.0.push(seg);
    }

    pub(super) fn pop(&mut self) -> Option<Seg> {
        self.0.pop()
    }

    /// The path as errors print it.
    pub(super) fn spelled(&self) -> String {
        let mut s = String::new();
        for seg in &self.0 {
            let _ = write!(s, "{seg}");
        }
        s
    }
}
