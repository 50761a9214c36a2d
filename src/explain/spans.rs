//! Where each value of a decoded input lies: the byte span of every value, item, entry and
//! packed element, from the same driver run that builds the value.
//!
//! An editor that shows the bytes beside the values needs both at once: which bytes a value
//! came from (to highlight them) and which value a byte belongs to (to select it). The
//! decoder's driver reports every value as it reads it (`decode::Observe`); this observer
//! keeps the spans, so they agree with the decoder by construction, as `explain`'s do.

use crate::decode::{DecodeOptions, Decoder, Observe, Slot, Text};
use crate::dialect::Dialect;
use crate::error::DecodeError;
use crate::generated::kinds::{FieldName, Kind};
use crate::quirks::FLAG_64;
use crate::variant::layout::read_u32;
use crate::variant::Variant;
use std::ops::Range;

/// One value's place in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueSpan {
    /// Its bytes, header included (absolute offsets).
    pub bytes: Range<usize>,
    /// Its kind, as its header says.
    pub kind: Kind,
    /// Whether its header has the 64-bit flag (a 64-bit int, a double float, double reals).
    pub wide: bool,
    /// Its contained values, as node ids of the same [`ValueSpans`]: an Array's items; a
    /// Dictionary's keys and values alternately (key of entry `i` at `2i`, value at `2i + 1`).
    children: Vec<u32>,
    /// A packed array's elements: where the first starts and how many bytes each takes
    /// (fixed-size elements), or each element's own span (strings).
    elements: Elements,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Elements {
    None,
    Stride {
        first: usize,
        count: usize,
        end: usize,
    },
    Each(Vec<Range<usize>>),
}

/// The spans of one decoded value and of every value inside it (node 0 is the value itself).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ValueSpans {
    nodes: Vec<ValueSpan>,
}

impl ValueSpans {
    /// Node `id` (0 is the outermost value).
    pub fn node(&self, id: usize) -> Option<&ValueSpan> {
        self.nodes.get(id)
    }

    /// Item `i` of an Array node, or the value of entry `i` of a Dictionary node.
    pub fn child(&self, id: usize, i: usize) -> Option<usize> {
        let n = self.nodes.get(id)?;
        let at = if n.kind == Kind::Dictionary {
            i.checked_mul(2)?.checked_add(1)?
        } else {
            i
        };
        n.children.get(at).map(|&c| c as usize)
    }

    /// The key of entry `i` of a Dictionary node.
    pub fn key(&self, id: usize, i: usize) -> Option<usize> {
        let n = self.nodes.get(id)?;
        (n.kind == Kind::Dictionary)
            .then(|| n.children.get(i.checked_mul(2)?).map(|&c| c as usize))
            .flatten()
    }

    /// The bytes of element `i` of a packed-array node.
    pub fn element(&self, id: usize, i: usize) -> Option<Range<usize>> {
        match &self.nodes.get(id)?.elements {
            Elements::None => None,
            Elements::Each(v) => v.get(i).cloned(),
            Elements::Stride { first, count, end } => {
                if i >= *count {
                    return None;
                }
                let stride = (end - first) / count;
                Some(first + i * stride..first + (i + 1) * stride)
            }
        }
    }

    /// The bytes of entry `i` of a Dictionary node (its key to the end of its value), or of
    /// child `i` of any other node: item or packed element.
    pub fn part(&self, id: usize, i: usize) -> Option<Range<usize>> {
        let n = self.nodes.get(id)?;
        if let Some(r) = self.element(id, i) {
            return Some(r);
        }
        let value = &self.nodes.get(self.child(id, i)?)?.bytes;
        match n.kind {
            Kind::Dictionary => Some(self.nodes.get(self.key(id, i)?)?.bytes.start..value.end),
            _ => Some(value.clone()),
        }
    }

    /// The positions from node 0 down to the innermost part that holds byte `offset`: item or
    /// entry indices, the last possibly a packed element's (a Dictionary entry's key counts as
    /// its entry).
    pub fn path_at(&self, offset: usize) -> Vec<usize> {
        let mut path = Vec::new();
        let mut id = 0;
        loop {
            let Some(n) = self.nodes.get(id) else {
                return path;
            };
            let parts = match &n.elements {
                Elements::Each(v) => v.len(),
                Elements::Stride { count, .. } => *count,
                Elements::None if n.kind == Kind::Dictionary => n.children.len() / 2,
                Elements::None => n.children.len(),
            };
            // Parts lie in byte order: the first that ends past `offset` is the one.
            let (mut lo, mut hi) = (0, parts);
            while lo < hi {
                let mid = (lo + hi) / 2;
                match self.part(id, mid) {
                    Some(r) if r.end <= offset => lo = mid + 1,
                    _ => hi = mid,
                }
            }
            match self.part(id, lo) {
                Some(r) if r.contains(&offset) => path.push(lo),
                _ => return path,
            }
            match self.child(id, lo) {
                Some(c) if !matches!(n.elements, Elements::Stride { .. } | Elements::Each(_)) => {
                    id = c
                }
                _ => return path,
            }
        }
    }
}

/// Decodes the value at `start` of `bytes` (which must end where the value may end: a frame's
/// end, or the input's) and reports where each part of it lies.
///
/// Returns the value, where it ends, and its spans; errors are the decoder's own.
///
/// ```
/// use gdvariant::explain::decode_with_spans;
/// use gdvariant::{encode, DecodeOptions, Dialect, Variant};
/// let array = Variant::from(vec![Variant::Int(1), Variant::Int(2)]);
/// let bytes = encode(&array, Dialect::Godot4, &Default::default()).unwrap();
/// let options = DecodeOptions::default();
/// let (value, end, spans) = decode_with_spans(&bytes, 0, Dialect::Godot4, &options)?;
/// assert_eq!((value, end), (array, 24));
/// assert_eq!(spans.part(0, 1), Some(16..24)); // the second item: header and payload
/// assert_eq!(spans.path_at(20), [1]);
/// # Ok::<(), gdvariant::DecodeError>(())
/// ```
pub fn decode_with_spans(
    bytes: &[u8],
    start: usize,
    dialect: Dialect,
    options: &DecodeOptions,
) -> Result<(Variant, usize, ValueSpans), DecodeError> {
    let mut recorder = Recorder {
        bytes,
        spans: ValueSpans::default(),
        open: Vec::new(),
        slot: None,
    };
    let mut d = Decoder::observed(bytes, start, dialect, options, &mut recorder);
    let value = d.run::<Variant>()?;
    let end = d.pos;
    Ok((value, end, recorder.spans))
}

/// The observer: opens a node at each header, closes it at its end.
struct Recorder<'a> {
    bytes: &'a [u8],
    spans: ValueSpans,
    /// Nodes being read, outermost first.
    open: Vec<usize>,
    /// Where the next value goes in the innermost open node.
    slot: Option<Slot>,
}

impl Observe for Recorder<'_> {
    fn value(&mut self, _at: usize, slot: Slot) {
        self.slot = Some(slot);
    }

    fn header(&mut self, at: usize, header: u32, kind: Kind) {
        let id = self.spans.nodes.len();
        // Only items, keys and values are parts of their container; a Pandemonium typed
        // array's class name and an Object's properties are not addressed by position.
        if let (Some(&parent), Some(Slot::Item | Slot::Key | Slot::Value)) =
            (self.open.last(), self.slot)
        {
            self.spans.nodes[parent].children.push(id as u32);
        }
        self.slot = None;
        self.spans.nodes.push(ValueSpan {
            bytes: at..at,
            kind,
            wide: header & FLAG_64 != 0,
            children: Vec::new(),
            elements: Elements::None,
        });
        self.open.push(id);
    }

    fn field(&mut self, at: usize, _len: usize, id: FieldName) {
        let Some(&open) = self.open.last() else {
            return;
        };
        let node = &mut self.spans.nodes[open];
        if id == FieldName::Count && node.kind.is_packed() {
            let count = read_u32(self.bytes, at) as usize;
            node.elements = if node.kind == Kind::PackedStringArray {
                Elements::Each(Vec::new())
            } else {
                Elements::Stride {
                    first: at + 4,
                    count,
                    end: at + 4,
                }
            };
        } else if id == FieldName::Data {
            // PackedByteArray: the data, without its padding.
            if let Elements::Stride { end, .. } = &mut node.elements {
                *end = at + _len;
            }
        }
    }

    fn text(&mut self, at: usize, end: usize, text: Text) {
        if let (Text::Item(_), Some(&open)) = (text, self.open.last()) {
            if let Elements::Each(v) = &mut self.spans.nodes[open].elements {
                v.push(at..end);
            }
        }
    }

    fn end(&mut self, end: usize) {
        let Some(id) = self.open.pop() else {
            return;
        };
        let node = &mut self.spans.nodes[id];
        node.bytes.end = end;
        if let Elements::Stride {
            first,
            count,
            end: e,
            ..
        } = &mut node.elements
        {
            // Fixed-size elements fill the rest of the value (no padding after them).
            if *e == *first && *count > 0 && node.kind != Kind::PackedByteArray {
                *e = end;
            }
            if *count == 0 {
                *e = *first;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_and_paths_of_a_dictionary_with_packed_arrays() {
        let v = crate::from_text(
            r#"{"a": [1, "xy"], "b": PackedInt32Array(7, 8, 9), "c": PackedStringArray("p", "qqqqq")}"#,
            Dialect::Godot4,
        )
        .unwrap();
        let bytes = crate::encode(&v, Dialect::Godot4, &Default::default()).unwrap();
        let (back, end, s) =
            decode_with_spans(&bytes, 0, Dialect::Godot4, &DecodeOptions::default()).unwrap();
        assert!(back.same(&v));
        assert_eq!(end, bytes.len());
        assert_eq!(s.node(0).unwrap().bytes, 0..bytes.len());
        // Entry "b" holds PackedInt32Array(7, 8, 9): element 1 is the 8.
        let b = s.child(0, 1).unwrap();
        let r = s.element(b, 1).unwrap();
        assert_eq!(&bytes[r.clone()], &8i32.to_le_bytes());
        assert_eq!(s.path_at(r.start), vec![1, 1]);
        // The string "qqqqq" of entry "c": its length, text and padding.
        let c = s.child(0, 2).unwrap();
        let q = s.element(c, 1).unwrap();
        // Godot 4 counts the terminating zero in the length.
        assert_eq!(&bytes[q.start..q.start + 10], b"\x06\0\0\0qqqqq\0");
        assert_eq!(s.path_at(q.start + 5), vec![2, 1]);
        // The key "a" belongs to entry 0; the item "xy" is [0, 1].
        let ka = s.node(s.key(0, 0).unwrap()).unwrap().bytes.clone();
        assert_eq!(s.path_at(ka.start), vec![0]);
        let xy = s.node(s.child(s.child(0, 0).unwrap(), 1).unwrap()).unwrap();
        assert_eq!(s.path_at(xy.bytes.start + 8), vec![0, 1]);
    }
}
