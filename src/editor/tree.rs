//! Values as the page's tree: a node is addressed by positions (frame, then item or entry
//! indices), its children are listed a page at a time, and edits change one node.
//!
//! Positions rather than keys address nodes because every Dictionary key is then reachable
//! (a Vector2 key has no pointer segment) and a million-element array is paged by index.

use super::container::Container;
use super::document::{Decoded, Document};
use super::EditorError;
use crate::generated::kinds::Kind;
use crate::variant::value::packed_from;
use crate::variant::{ElementType, GString};
use crate::{json, text, Dialect, Variant};
use serde::Serialize;
use std::ops::Range;

/// Most children listed by one request.
pub const MAX_PAGE: usize = 1000;
/// Largest JSON form of a value sent to the page for editing in place.
const MAX_JSON: usize = 64 << 10;
/// Longest summary of a value sent to the page.
const SUMMARY_CHARS: usize = 160;

/// One node as the page shows it.
#[derive(Serialize, Debug)]
pub struct NodeInfo {
    /// Its position in its parent.
    pub index: usize,
    /// Its key (a Dictionary entry's key, as text), `[i]` for an item, `frame i` for a frame.
    pub label: String,
    /// The pointer segment of its key (`None` for a key no pointer can name).
    pub segment: Option<String>,
    /// Its type (`Int`, `Dictionary`, …).
    pub kind: &'static str,
    /// Its width on the wire, for numbers (`64` for a 64-bit int or a double).
    pub bits: Option<u8>,
    /// For an element of a packed array of numbers: the elements' width, which a new value
    /// must fit (`8` is unsigned).
    pub element_bits: Option<u8>,
    /// Children, for a container (items, entries, packed elements).
    pub count: Option<usize>,
    /// The value in the engine's text form, shortened.
    pub summary: String,
    /// The value in the lossless JSON form, for a value the page edits in place.
    pub json: Option<serde_json::Value>,
    /// A typed container's element type (`int`, `Node`, …).
    pub element: Option<String>,
    /// Its bytes in the file (for a Dictionary entry: from its key to the end of its value).
    pub bytes: Option<Range<usize>>,
    /// Why it could not be read (a frame that does not decode).
    pub error: Option<String>,
}

/// Children `from..from + count` of the node at `path` (empty: the frames).
pub fn children(
    doc: &mut Document,
    path: &[usize],
    from: usize,
    count: usize,
) -> Result<(usize, Vec<NodeInfo>), EditorError> {
    let count = count.min(MAX_PAGE);
    let dialect = doc.reading.dialect;
    let Some((&frame, rest)) = path.split_first() else {
        let total = doc.frames().len();
        let mut out = Vec::new();
        for i in from..total.min(from.saturating_add(count)) {
            let label = match doc.container {
                Container::DebuggerRecording => format!("packet {i}"),
                _ => format!("frame {i}"),
            };
            out.push(match doc.frame(i) {
                Ok(d) => info(
                    i,
                    label,
                    None,
                    &d.value,
                    place(&d, Some(0), d.spans.node(0).map(|n| n.bytes.clone())),
                    dialect,
                ),
                Err(e) => NodeInfo {
                    index: i,
                    label,
                    segment: None,
                    kind: "Error",
                    bits: None,
                    element_bits: None,
                    count: None,
                    summary: String::new(),
                    json: None,
                    element: None,
                    bytes: Some(doc.frames()[i].clone()),
                    error: Some(e.to_string()),
                },
            });
        }
        return Ok((total, out));
    };
    let d = doc.frame(frame)?;
    let (v, id) = walk(&d, rest)?;
    let total = container_len(v).ok_or(EditorError::NoSuchNode)?;
    let mut out = Vec::new();
    for i in from..total.min(from.saturating_add(count)) {
        let bytes = id.and_then(|id| d.spans.part(id, i));
        let child = id.and_then(|id| d.spans.child(id, i));
        match v {
            Variant::Dictionary(dict) => {
                let (k, value) = &dict.entries()[i];
                let label = shortened(k, dialect, SUMMARY_CHARS);
                out.push(info(
                    i,
                    label,
                    segment(k),
                    value,
                    place(&d, child, bytes.clone()),
                    dialect,
                ));
            }
            Variant::Array(a) => {
                let value = &a.items[i];
                out.push(info(
                    i,
                    format!("[{i}]"),
                    Some(i.to_string()),
                    value,
                    place(&d, child, bytes.clone()),
                    dialect,
                ));
            }
            _ => {
                let e = packed_element(v, i).ok_or(EditorError::NoSuchNode)?;
                let mut n = info(
                    i,
                    format!("[{i}]"),
                    Some(i.to_string()),
                    &e,
                    (bytes, false),
                    dialect,
                );
                n.element_bits = element_bits(v.kind());
                n.bits = n.element_bits;
                out.push(n);
            }
        }
    }
    Ok((total, out))
}

/// The node at `path` itself (at least a frame).
pub fn node(doc: &mut Document, path: &[usize]) -> Result<NodeInfo, EditorError> {
    let (&last, parent) = path.split_last().ok_or(EditorError::NoSuchNode)?;
    let (_, mut v) = children(doc, parent, last, 1)?;
    v.pop().ok_or(EditorError::NoSuchNode)
}

/// The pointer (RFC 6901, as `Variant::pointer` reads it) of the node at `path` inside its
/// frame, or `None` when a key on the way has no pointer segment.
pub fn pointer(doc: &mut Document, path: &[usize]) -> Result<Option<String>, EditorError> {
    let mut out = String::new();
    for n in 1..path.len() {
        let (_, mut v) = children(doc, &path[..n], path[n], 1)?;
        match v.pop().and_then(|i| i.segment) {
            Some(s) => {
                out.push('/');
                out.push_str(&s.replace('~', "~0").replace('/', "~1"));
            }
            None => return Ok(None),
        }
    }
    Ok(Some(out))
}

fn info(
    index: usize,
    label: String,
    segment: Option<String>,
    v: &Variant,
    (bytes, wide): (Option<Range<usize>>, bool),
    dialect: Dialect,
) -> NodeInfo {
    let count = container_len(v);
    let leaf = count.is_none() && !matches!(v, Variant::Object(_));
    let summary = match v {
        // A container's first few items or keys: enough to tell messages or records apart
        // without writing out a large value.
        Variant::Array(a) => preview(a.items.iter(), dialect),
        Variant::Dictionary(d) => preview(d.keys(), dialect),
        _ if count.is_some() => String::new(),
        _ => shortened(v, dialect, SUMMARY_CHARS),
    };
    let element = match v {
        Variant::Array(a) => a.element_type().map(element_name),
        Variant::Dictionary(d) => d.typed().map(|t| {
            let name = |e: &Option<ElementType>| e.as_ref().map_or("Variant".into(), element_name);
            format!("{}, {}", name(&t.key), name(&t.value))
        }),
        _ => None,
    };
    let bits = match v.kind() {
        Kind::Int | Kind::Float => Some(if wide { 64 } else { 32 }),
        _ => None,
    };
    NodeInfo {
        index,
        label,
        segment,
        kind: v.kind().name(),
        bits,
        element_bits: None,
        count,
        summary,
        // A long string's JSON stays on the server: the page edits it with `replace`.
        json: leaf
            .then(|| json::to_json(v))
            .filter(|j| j.to_string().len() <= MAX_JSON),
        element,
        bytes,
        error: None,
    }
}

/// A node's bytes, and whether its header has the 64-bit flag.
fn place(
    d: &Decoded,
    id: Option<usize>,
    bytes: Option<Range<usize>>,
) -> (Option<Range<usize>>, bool) {
    let wide = id.and_then(|id| d.spans.node(id)).is_some_and(|n| n.wide);
    (bytes, wide)
}

fn preview<'a>(items: impl Iterator<Item = &'a Variant>, dialect: Dialect) -> String {
    let shown: Vec<String> = items
        .take(3)
        .map(|x| match container_len(x) {
            Some(n) => format!("{}({n})", x.kind().name()),
            None => shortened(x, dialect, 40),
        })
        .collect();
    shown.join(", ")
}

fn element_name(e: &ElementType) -> String {
    match e {
        ElementType::Builtin(k) => k.name().to_string(),
        ElementType::Class(c) => c.clone(),
        ElementType::Script(s) => s.clone(),
    }
}

/// `v` in the engine's text form, cut at `chars` characters: a hostile file's million-character
/// key or value cannot swell the page's answers.
pub(super) fn shortened(v: &Variant, dialect: Dialect, chars: usize) -> String {
    let t = text::to_text(v, dialect);
    match t.char_indices().nth(chars) {
        Some((at, _)) => format!("{}…", &t[..at]),
        None => t,
    }
}

/// Longest key that has a pointer segment (a longer one is shown shortened, without a path).
const SEGMENT_CHARS: usize = 1024;

/// The pointer segment of a Dictionary key: a String, StringName or int key has one.
fn segment(key: &Variant) -> Option<String> {
    match key {
        Variant::String(s) | Variant::StringName(crate::StringName(s))
            if s.len() > SEGMENT_CHARS =>
        {
            None
        }
        Variant::String(s) | Variant::StringName(crate::StringName(s)) => Some(s.to_string()),
        Variant::Int(i) => Some(i.to_string()),
        _ => None,
    }
}

/// The value at positions `rest` of a frame, and its span node (`None` below a packed array).
fn walk<'d>(d: &'d Decoded, rest: &[usize]) -> Result<(&'d Variant, Option<usize>), EditorError> {
    let mut v = &d.value;
    let mut id = Some(0);
    for &p in rest {
        v = match v {
            Variant::Array(a) => a.items.get(p),
            Variant::Dictionary(dict) => dict.entries().get(p).map(|(_, v)| v),
            _ => None,
        }
        .ok_or(EditorError::NoSuchNode)?;
        id = id.and_then(|id| d.spans.child(id, p));
    }
    Ok((v, id))
}

fn walk_mut<'v>(mut v: &'v mut Variant, rest: &[usize]) -> Result<&'v mut Variant, EditorError> {
    for &p in rest {
        v = match v {
            Variant::Array(a) => a.items.get_mut(p),
            Variant::Dictionary(dict) => dict.values_mut().nth(p),
            _ => None,
        }
        .ok_or(EditorError::NoSuchNode)?;
    }
    Ok(v)
}

/// Children of a container: items, entries or packed elements.
fn container_len(v: &Variant) -> Option<usize> {
    Some(match v {
        Variant::Array(a) => a.len(),
        Variant::Dictionary(d) => d.len(),
        Variant::PackedByteArray(x) => x.len(),
        Variant::PackedInt32Array(x) => x.len(),
        Variant::PackedInt64Array(x) => x.len(),
        Variant::PackedFloat32Array(x) => x.len(),
        Variant::PackedFloat64Array(x) => x.len(),
        Variant::PackedStringArray(x) => x.len(),
        _ => v.as_packed()?.len(),
    })
}

/// Element widths of the number arrays, which their inputs must respect.
fn element_bits(kind: Kind) -> Option<u8> {
    match kind {
        Kind::PackedByteArray => Some(8),
        Kind::PackedInt32Array | Kind::PackedFloat32Array => Some(32),
        Kind::PackedInt64Array | Kind::PackedFloat64Array => Some(64),
        _ => None,
    }
}

/// Element `i` of a packed array, as a value of its own.
fn packed_element(v: &Variant, i: usize) -> Option<Variant> {
    Some(match v {
        Variant::PackedByteArray(x) => Variant::Int(*x.get(i)? as i64),
        Variant::PackedInt32Array(x) => Variant::Int(*x.get(i)? as i64),
        Variant::PackedInt64Array(x) => Variant::Int(*x.get(i)?),
        Variant::PackedFloat32Array(x) => Variant::Float(*x.get(i)? as f64),
        Variant::PackedFloat64Array(x) => Variant::Float(*x.get(i)?),
        Variant::PackedStringArray(x) => Variant::String(x.get(i)?.clone()),
        _ => v.as_packed()?.element_variant(i)?,
    })
}

/// One change to a frame, as the page asks for it.
pub enum Edit {
    /// The node at `path` becomes `value`.
    Set { path: Vec<usize>, value: Variant },
    /// `value` (under `key`, in a Dictionary) goes into the container at `path`, at `at`
    /// (the end when past it).
    Insert {
        path: Vec<usize>,
        at: usize,
        key: Option<Variant>,
        value: Variant,
    },
    /// The node at `path` leaves its container.
    Remove { path: Vec<usize> },
}

/// Applies `edit` to its frame, if the result can be written: the reason otherwise.
pub fn apply(doc: &mut Document, edit: Edit) -> Result<usize, EditorError> {
    let path = match &edit {
        Edit::Set { path, .. } | Edit::Insert { path, .. } | Edit::Remove { path } => path.clone(),
    };
    let (&frame, rest) = path.split_first().ok_or(EditorError::NoSuchNode)?;
    let mut value = doc.frame(frame)?.value.clone();
    let refuse = |m: String| EditorError::Refused(m);
    match edit {
        Edit::Set { value: new, .. } => match rest.split_last() {
            None => value = new,
            Some((&last, parent)) => {
                let c = walk_mut(&mut value, parent)?;
                match c {
                    Variant::Array(a) => {
                        fits(a.element_type(), &new).map_err(refuse)?;
                        *a.items.get_mut(last).ok_or(EditorError::NoSuchNode)? = new;
                    }
                    Variant::Dictionary(d) => {
                        fits(d.typed().and_then(|t| t.value.as_ref()), &new).map_err(refuse)?;
                        *d.values_mut().nth(last).ok_or(EditorError::NoSuchNode)? = new;
                    }
                    _ => change_packed(c, last, Change::Set(new)).map_err(refuse)?,
                }
            }
        },
        Edit::Insert {
            at,
            key,
            value: new,
            ..
        } => {
            let c = walk_mut(&mut value, rest)?;
            match c {
                Variant::Array(a) => {
                    fits(a.element_type(), &new).map_err(refuse)?;
                    let at = at.min(a.items.len());
                    a.items.insert(at, new);
                }
                Variant::Dictionary(d) => {
                    let key = key.ok_or_else(|| refuse("a Dictionary entry needs a key".into()))?;
                    fits(d.typed().and_then(|t| t.key.as_ref()), &key).map_err(refuse)?;
                    fits(d.typed().and_then(|t| t.value.as_ref()), &new).map_err(refuse)?;
                    if d.contains_key(&key) {
                        return Err(refuse(format!(
                            "the key {} is there already",
                            text::to_text(&key, doc.reading.dialect)
                        )));
                    }
                    d.insert(key, new);
                }
                _ => change_packed(c, at, Change::Insert(new)).map_err(refuse)?,
            }
        }
        Edit::Remove { .. } => {
            let (&last, parent) = rest
                .split_last()
                .ok_or_else(|| refuse("a frame cannot be removed".into()))?;
            let c = walk_mut(&mut value, parent)?;
            match c {
                Variant::Array(a) if last < a.items.len() => {
                    a.items.remove(last);
                }
                Variant::Dictionary(d) if last < d.len() => {
                    let key = d.entries()[last].0.clone();
                    d.remove(&key);
                }
                _ => change_packed(c, last, Change::Remove).map_err(refuse)?,
            }
        }
    }
    doc.replace(frame, &value)?;
    Ok(frame)
}

/// Whether a typed container of `element` can hold `v`: the engine drops (or refuses) what
/// does not match, so the editor refuses it at once.
fn fits(element: Option<&ElementType>, v: &Variant) -> Result<(), String> {
    match element {
        None => Ok(()),
        Some(ElementType::Builtin(Kind::Nil)) => Ok(()),
        Some(ElementType::Builtin(k)) if *k == v.kind() => Ok(()),
        Some(ElementType::Class(_) | ElementType::Script(_))
            if v.kind() == Kind::Object || v.is_nil() =>
        {
            Ok(())
        }
        Some(e) => Err(format!(
            "this container holds {} only, not {}",
            element_name(e),
            v.kind().name()
        )),
    }
}

enum Change {
    Set(Variant),
    Insert(Variant),
    Remove,
}

/// Sets, inserts or removes element `i` of a packed array, if the element fits its type.
fn change_packed(v: &mut Variant, i: usize, change: Change) -> Result<(), String> {
    fn int_in<T: TryFrom<i64>>(e: &Variant, name: &str) -> Result<T, String> {
        let n = e
            .as_int()
            .ok_or_else(|| format!("{name} holds integers, not {}", e.kind().name()))?;
        T::try_from(n).map_err(|_| format!("{n} does not fit an element of {name}"))
    }
    fn real(e: &Variant, name: &str) -> Result<f64, String> {
        match e {
            Variant::Float(f) => Ok(*f),
            Variant::Int(i) => Ok(*i as f64),
            _ => Err(format!("{name} holds floats, not {}", e.kind().name())),
        }
    }
    fn edit<T>(
        x: &mut Vec<T>,
        i: usize,
        change: Change,
        conv: impl Fn(&Variant) -> Result<T, String>,
    ) -> Result<(), String> {
        match change {
            Change::Set(e) => *x.get_mut(i).ok_or("no such element")? = conv(&e)?,
            Change::Insert(e) => {
                let e = conv(&e)?;
                x.insert(i.min(x.len()), e);
            }
            Change::Remove if i < x.len() => {
                x.remove(i);
            }
            Change::Remove => return Err("no such element".into()),
        }
        Ok(())
    }
    let name = v.kind().name();
    match v {
        Variant::PackedByteArray(x) => edit(x, i, change, |e| int_in::<u8>(e, name)),
        Variant::PackedInt32Array(x) => edit(x, i, change, |e| int_in::<i32>(e, name)),
        Variant::PackedInt64Array(x) => edit(x, i, change, |e| int_in::<i64>(e, name)),
        Variant::PackedFloat32Array(x) => edit(x, i, change, |e| real(e, name).map(|f| f as f32)),
        Variant::PackedFloat64Array(x) => edit(x, i, change, |e| real(e, name)),
        Variant::PackedStringArray(x) => edit(x, i, change, |e| match e {
            Variant::String(s) | Variant::StringName(crate::StringName(s)) => {
                Ok::<GString, String>(s.clone())
            }
            _ => Err(format!("{name} holds strings, not {}", e.kind().name())),
        }),
        _ => {
            // Arrays of a fixed layout, by their components: the generated tables know them.
            let p = v
                .as_packed()
                .ok_or_else(|| format!("{name} has no children to change"))?;
            let (kind, element, per) = (p.kind(), p.element(), p.components().len());
            let mut comps = p.values();
            let len = p.len();
            let new_comps = |e: &Variant| -> Result<Vec<f64>, String> {
                match e.as_fixed() {
                    Some(f) if f.kind() == element => Ok(f.values()),
                    _ => Err(format!(
                        "{name} holds {}, not {}",
                        element.name(),
                        e.kind().name()
                    )),
                }
            };
            let len = match change {
                Change::Set(e) if i < len => {
                    comps.splice(i * per..(i + 1) * per, new_comps(&e)?);
                    len
                }
                Change::Insert(e) => {
                    let at = i.min(len) * per;
                    comps.splice(at..at, new_comps(&e)?);
                    len + 1
                }
                Change::Remove if i < len => {
                    comps.drain(i * per..(i + 1) * per);
                    len - 1
                }
                _ => return Err("no such element".into()),
            };
            *v = packed_from(kind, len, &mut |j| comps[j]).ok_or("not a packed array")?;
            Ok(())
        }
    }
}
