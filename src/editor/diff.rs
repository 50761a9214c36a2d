//! Two files compared value by value: what changed, was added or was removed, by path.
//!
//! Dictionaries are matched by key (an entry that moved is not a change), arrays by index,
//! frames by their order. The walk is bounded: it stops after a number of differences or of
//! values looked at, and says so.

use super::document::Document;
use super::tree::shortened;
use super::EditorError;
use crate::{Dialect, Variant};
use serde::Serialize;

/// Most differences one comparison lists.
const MAX_DIFFERENCES: usize = 1000;
/// Most values one comparison looks at.
const BUDGET: usize = 2_000_000;
/// Longest text of a value in a difference.
const SHOWN: usize = 120;

/// One difference.
#[derive(Serialize, Debug, PartialEq)]
pub struct Difference {
    /// Where, readably: `frame 1 /settings/audio/music`.
    pub at: String,
    /// The node's path in the first file, if it is there.
    pub a: Option<Vec<usize>>,
    /// The node's path in the second file, if it is there.
    pub b: Option<Vec<usize>>,
    /// The value in the first file (text form, shortened).
    pub before: Option<String>,
    /// The value in the second file.
    pub after: Option<String>,
}

/// Every difference found, and whether the comparison stopped early.
#[derive(Serialize, Debug)]
pub struct Diff {
    /// The differences, in the first file's order.
    pub differences: Vec<Difference>,
    /// Whether there may be more.
    pub truncated: bool,
}

/// A pair of values to compare, with where each is.
struct Pair<'v> {
    a: Option<(&'v Variant, Vec<usize>)>,
    b: Option<(&'v Variant, Vec<usize>)>,
    at: String,
}

/// Compares `a` with `b`.
pub fn diff(a: &mut Document, b: &mut Document) -> Result<Diff, EditorError> {
    let dialect = a.reading.dialect;
    let mut out = Diff {
        differences: Vec::new(),
        truncated: false,
    };
    let mut seen = 0;
    let frames = a.frames().len().max(b.frames().len());
    for f in 0..frames {
        let va = (f < a.frames().len()).then(|| a.frame(f)).transpose()?;
        let vb = (f < b.frames().len()).then(|| b.frame(f)).transpose()?;
        let mut stack = vec![Pair {
            a: va.as_ref().map(|d| (&d.value, vec![f])),
            b: vb.as_ref().map(|d| (&d.value, vec![f])),
            at: format!("frame {f} "),
        }];
        // Depth first, without recursion: a deep value cannot overflow the stack.
        while let Some(p) = stack.pop() {
            seen += 1;
            if out.differences.len() >= MAX_DIFFERENCES || seen > BUDGET {
                out.truncated = true;
                return Ok(out);
            }
            let mut kids = Vec::new();
            match (&p.a, &p.b) {
                (Some((Variant::Dictionary(x), pa)), Some((Variant::Dictionary(y), pb))) => {
                    for (i, (k, v)) in x.entries().iter().enumerate() {
                        let other = y.position(k).map(|j| (&y.entries()[j].1, with(pb, j)));
                        kids.push(Pair {
                            a: Some((v, with(pa, i))),
                            b: other,
                            at: format!("{}/{}", p.at, key_text(k, dialect)),
                        });
                    }
                    for (j, (k, v)) in y.entries().iter().enumerate() {
                        if !x.contains_key(k) {
                            kids.push(Pair {
                                a: None,
                                b: Some((v, with(pb, j))),
                                at: format!("{}/{}", p.at, key_text(k, dialect)),
                            });
                        }
                    }
                }
                (Some((Variant::Array(x), pa)), Some((Variant::Array(y), pb)))
                    if x.element_type() == y.element_type() =>
                {
                    for i in 0..x.len().max(y.len()) {
                        kids.push(Pair {
                            a: x.items.get(i).map(|v| (v, with(pa, i))),
                            b: y.items.get(i).map(|v| (v, with(pb, i))),
                            at: format!("{}/{i}", p.at),
                        });
                    }
                }
                (Some((x, _)), Some((y, _))) if x.same(y) => {}
                _ => {
                    out.differences.push(Difference {
                        at: p.at.trim_end().to_string(),
                        a: p.a.as_ref().map(|(_, path)| path.clone()),
                        b: p.b.as_ref().map(|(_, path)| path.clone()),
                        before: p.a.as_ref().map(|(v, _)| shortened(v, dialect, SHOWN)),
                        after: p.b.as_ref().map(|(v, _)| shortened(v, dialect, SHOWN)),
                    });
                }
            }
            stack.extend(kids.into_iter().rev());
        }
    }
    Ok(out)
}

fn with(path: &[usize], i: usize) -> Vec<usize> {
    let mut p = path.to_vec();
    p.push(i);
    p
}

/// A key as a path segment: a string as itself, anything else in its text form.
fn key_text(k: &Variant, dialect: Dialect) -> String {
    match k {
        Variant::String(s) | Variant::StringName(crate::StringName(s)) if s.len() <= SHOWN => {
            s.to_string()
        }
        _ => shortened(k, dialect, SHOWN),
    }
}
