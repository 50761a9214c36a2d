//! Finding nodes by key or value text, frame after frame, within a bounded amount of work per
//! request (the page asks again from where the last answer stopped).

use super::document::Document;
use super::EditorError;
use crate::{text, Variant};
use serde::Serialize;

/// Most matches one request returns.
const MATCHES: usize = 100;
/// Most values one request looks at.
const BUDGET: usize = 200_000;

/// What one search request found.
#[derive(Serialize)]
pub struct Found {
    /// Each match's path (frame first).
    pub matches: Vec<Vec<usize>>,
    /// The frame to search from next, when the search stopped before the end.
    pub next_frame: Option<usize>,
}

/// Nodes whose key or value (as text) contains `query` (ignoring case), from frame `from`.
pub fn search(doc: &mut Document, query: &str, from: usize) -> Result<Found, EditorError> {
    let q = query.to_lowercase();
    let dialect = doc.reading.dialect;
    let hit = |v: &Variant| match v {
        Variant::String(s) | Variant::StringName(crate::StringName(s)) => {
            s.to_string().to_lowercase().contains(&q)
        }
        Variant::Array(_) | Variant::Dictionary(_) => false,
        v if v.as_packed().is_some() => false,
        v => text::to_text(v, dialect).to_lowercase().contains(&q),
    };
    let mut found = Found {
        matches: Vec::new(),
        next_frame: None,
    };
    let mut seen = 0;
    for f in from..doc.frames().len() {
        if found.matches.len() >= MATCHES || seen >= BUDGET {
            found.next_frame = Some(f);
            break;
        }
        let Ok(d) = doc.frame(f) else { continue };
        // Depth first, without recursion: a deep value cannot overflow the stack.
        let mut stack: Vec<(Vec<usize>, &Variant)> = vec![(vec![f], &d.value)];
        while let Some((path, v)) = stack.pop() {
            seen += 1;
            let mut kids: Vec<(Vec<usize>, &Variant, bool)> = Vec::new();
            match v {
                Variant::Array(a) => {
                    for (i, x) in a.items.iter().enumerate() {
                        kids.push((with(&path, i), x, false));
                    }
                }
                Variant::Dictionary(dict) => {
                    for (i, (k, x)) in dict.iter().enumerate() {
                        kids.push((with(&path, i), x, hit(k)));
                    }
                }
                _ => {}
            }
            if path.len() > 1 && hit(v) && found.matches.len() < MATCHES {
                found.matches.push(path.clone());
            }
            for (p, x, key_hit) in kids.into_iter().rev() {
                if key_hit && found.matches.len() < MATCHES {
                    found.matches.push(p.clone());
                }
                stack.push((p, x));
            }
        }
    }
    Ok(found)
}

fn with(path: &[usize], i: usize) -> Vec<usize> {
    let mut p = path.to_vec();
    p.push(i);
    p
}
