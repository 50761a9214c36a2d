//! The explainer: the decoder driver's reports (`decode::Observe`) turned into annotated lines.
//!
//! Lines are labelled and described from the spec's generated layout tables.

use super::format::{field_value, hex_preview, packed_items, quote, short};
use super::Line;
use crate::decode::{DecodeOptions, Observe, Slot, Text};
use crate::dialect::Dialect;
use crate::generated::kinds::{FieldInfo, FieldName, Kind};
use crate::quirks;
use crate::variant::layout::{read_u32, read_u64};
use crate::version::Version;

/// A value being read: what its header said, and how far its fields have been reported.
struct Node {
    at: usize,
    header: u32,
    kind: Kind,
    depth: usize,
    /// Elements, from its count field.
    count: usize,
    /// Elements (or properties) met so far.
    index: usize,
    /// Whether any field of it was reported (a value without fields is laid out from the
    /// spec's table when it ends).
    reported: bool,
}

/// The observer `explain` runs the driver with.
pub(super) struct Explainer<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) dialect: Dialect,
    pub(super) version: Version,
    pub(super) decode: &'a DecodeOptions,
    pub(super) max_elements: usize,
    pub(super) lines: Vec<Line>,
    /// The values being read, outermost first.
    stack: Vec<Node>,
    /// The label of the next value (set by `value`, taken by `header`).
    label: Option<String>,
    /// While the elements of a container past `max_elements` go by: the container's place in
    /// `stack`, and where its first unlisted element starts. Nothing is listed meanwhile.
    hidden: Option<(usize, usize)>,
}

impl Observe for Explainer<'_> {
    const NOTES: bool = true;
    /// What the engine would refuse, where default decoding reads on: a note line (with
    /// `engine_strict` the decoder stops there with the error instead).
    fn refusal(&mut self, at: usize, refusal: &crate::error::EngineRefusal) {
        let code = crate::DecodeError::EngineRefuses {
            offset: at,
            refusal: refusal.clone(),
            dialect: self.dialect,
        }
        .engine_error();
        let depth = self.stack.len();
        self.line(
            at,
            0,
            depth,
            "note",
            format!("engine refuses ({code})"),
            format!("{refusal}: the engine's decoder fails here; decoding reads on (--engine-strict refuses it)"),
        );
    }
    fn value(&mut self, at: usize, slot: Slot) {
        let max = self.max_elements;
        let depth = self.stack.len();
        let Some(top) = self.stack.last_mut() else {
            return;
        };
        let i = top.index;
        let label = match slot {
            Slot::Item => format!("[{i}]"),
            Slot::Key => format!("[{i}] key"),
            Slot::Value => format!("[{i}] value"),
            Slot::Property => format!("property[{i}] value"),
            Slot::ClassName => "class_name".to_string(),
        };
        if matches!(slot, Slot::Item | Slot::Value | Slot::Property) {
            top.index += 1;
        }
        // Arrays and dictionaries list `max_elements` elements; an Object all its properties.
        if matches!(slot, Slot::Item | Slot::Key) && i >= max && self.hidden.is_none() {
            self.hidden = Some((depth - 1, at));
        }
        self.label = Some(label);
    }

    fn header(&mut self, at: usize, header: u32, kind: Kind) {
        let depth = self.stack.last().map_or(0, |n| n.depth + 1);
        let field = match self.label.take() {
            Some(label) => format!("{label} header"),
            None => "header".to_string(),
        };
        let tag = header & quirks::TYPE_MASK;
        let flags = header & !quirks::TYPE_MASK;
        let flag64 = header & quirks::FLAG_64 != 0;
        let mut what = self.type_name(kind, tag);
        if flags != 0 {
            what.push_str(&format!(" flags {flags:#010x}"));
            if flag64 && kind == Kind::Object {
                what.push_str(" (OBJECT_AS_ID)");
            } else if flag64 && self.wide_kind(kind) {
                what.push_str(" (FLAG_64)");
            }
        }
        let desc = self
            .dialect
            .type_info(self.version, kind)
            .map(|t| t.description.to_string())
            .unwrap_or_default();
        self.line(at, 4, depth, field, what, desc);
        self.stack.push(Node {
            at,
            header,
            kind,
            depth,
            count: 0,
            index: 0,
            reported: false,
        });
    }

    fn field(&mut self, at: usize, len: usize, id: FieldName) {
        let Some(node) = self.stack.last_mut() else {
            return;
        };
        node.reported = true;
        let (kind, d) = (node.kind, node.depth + 1);
        let raw = &self.bytes[at.min(self.bytes.len())..(at + len).min(self.bytes.len())];
        let u = if raw.len() >= 4 { read_u32(raw, 0) } else { 0 };
        let value = match id {
            FieldName::Count | FieldName::PropertyCount => {
                let (n, text) = self.count_value(kind, id, u);
                if let Some(node) = self.stack.last_mut() {
                    node.count = n;
                }
                text
            }
            FieldName::NameCount => format!(
                "{} (| {:#x})",
                u & !quirks::NODEPATH_NEW_FORMAT,
                quirks::NODEPATH_NEW_FORMAT
            ),
            FieldName::Flags => {
                let mut v = format!("{u:#x}");
                if u & quirks::NODEPATH_ABSOLUTE != 0 {
                    v.push_str(" absolute");
                }
                if u & quirks::NODEPATH_OBSOLETE_PROPERTY != 0 {
                    v.push_str(" +1 subname (obsolete property flag)");
                }
                v
            }
            FieldName::ElementType | FieldName::KeyType | FieldName::ValueType => {
                // Pandemonium's typed arrays give the type alone; Godot 4's type data says
                // which of its forms this is.
                let tag = u & quirks::COUNT_MASK;
                let name = match self.dialect.kind_of(self.version, tag) {
                    Some(k) => self.type_name(k, tag),
                    None => tag.to_string(),
                };
                let line = if matches!(kind, Kind::TypedArray | Kind::PackedTypedArray) {
                    name
                } else {
                    format!("BUILTIN: {name}")
                };
                return self.line(at, len, d, id.name(), line, "the element type");
            }
            FieldName::InstanceId | FieldName::ObjectId if raw.len() == 8 => {
                read_u64(raw, 0).to_string()
            }
            // An empty byte array has no data to show.
            FieldName::Data if raw.is_empty() => return,
            FieldName::Data => hex_preview(raw),
            _ => match self.spec_field(kind, id) {
                Some(f) => field_value(raw, f.ty),
                None => hex_preview(raw),
            },
        };
        let desc = self.describe(kind, id);
        self.line(at, len, d, id.name(), value, desc);
    }

    fn text(&mut self, at: usize, end: usize, text: Text) {
        let depth = self.stack.len();
        let Some(node) = self.stack.last_mut() else {
            return;
        };
        node.reported = true;
        let (kind, d, index) = (node.kind, node.depth + 1, node.index);
        use FieldName::{ClassName, ClassNameLength, ClassNamePad, Data, Length, Name, NameLength};
        use FieldName::{NamePad, Pad};
        let plain = [Length, Data, Pad];
        let (prefix, kind, parts) = match text {
            Text::Plain => (String::new(), kind, plain),
            Text::Field(ClassName) => (
                "class_name".to_string(),
                kind,
                [ClassNameLength, ClassName, ClassNamePad],
            ),
            Text::Field(Name) => ("name".to_string(), kind, [NameLength, Name, NamePad]),
            // The class or script of typed-container data: a plain string.
            Text::Field(other) => (other.name().to_string(), Kind::String, plain),
            Text::Name(i) => (format!("names[{i}]"), kind, plain),
            Text::Subname(i) => (format!("subnames[{i}]"), kind, plain),
            Text::Item(i) => {
                if i >= self.max_elements && self.hidden.is_none() {
                    self.hidden = Some((depth - 1, at));
                }
                (format!("[{i}]"), kind, plain)
            }
            Text::PropertyName => (
                format!("property[{index}] name"),
                kind,
                [NameLength, Name, NamePad],
            ),
        };
        let label = |part: &str| {
            if prefix.is_empty() {
                part.to_string()
            } else {
                format!("{prefix} {part}")
            }
        };
        let n = self
            .bytes
            .get(at..at + 4)
            .map_or(0, |b| read_u32(b, 0) as usize);
        let data_end = (at + 4 + n).min(end);
        let desc = self.describe(kind, parts[0]);
        self.line(at, 4, d, label("length"), n.to_string(), desc);
        let data = &self.bytes[(at + 4).min(data_end)..data_end];
        if !data.is_empty() {
            let mut v = match quirks::engine_string(data, true, false) {
                Ok(s) => quote(&s),
                Err(_) => hex_preview(data),
            };
            if data.last() == Some(&0) {
                v.push_str(" + NUL");
            }
            let desc = self.describe(kind, parts[1]);
            self.line(at + 4, data.len(), d, label("data"), v, desc);
        }
        self.padding(data_end, end, d, kind, &label("pad"), parts[2]);
    }

    fn end(&mut self, end: usize) {
        let Some(node) = self.stack.pop() else {
            return;
        };
        let d = node.depth + 1;
        if let Some((place, from)) = self.hidden {
            if place == self.stack.len() {
                self.hidden = None;
                let more = node.count.saturating_sub(self.max_elements);
                self.elided(from, end, d, more);
            }
            return;
        }
        if is_packed(node.kind) {
            self.packed_elements(&node, end);
        } else if node.kind == Kind::PackedByteArray {
            // The padding is counted but need not be all there (see the decoder).
            let from = (node.at + 8 + node.count).min(end);
            self.padding(from, end, d, node.kind, "pad", FieldName::Pad);
        } else if !node.reported {
            self.fixed_fields(&node, end);
        }
    }
}

impl<'a> Explainer<'a> {
    pub(super) fn new(
        bytes: &'a [u8],
        dialect: Dialect,
        decode: &'a DecodeOptions,
        max_elements: usize,
    ) -> Explainer<'a> {
        Explainer {
            bytes,
            dialect,
            version: decode.version.unwrap_or_else(|| dialect.newest()),
            decode,
            max_elements,
            lines: Vec::new(),
            stack: Vec::new(),
            label: None,
            hidden: None,
        }
    }

    /// A line, unless the elements it belongs to are not listed.
    pub(super) fn line(
        &mut self,
        offset: usize,
        len: usize,
        depth: usize,
        field: impl Into<String>,
        value: impl Into<String>,
        description: impl Into<String>,
    ) {
        if self.hidden.is_some() {
            return;
        }
        self.lines.push(Line {
            offset,
            len,
            depth,
            field: field.into(),
            value: value.into(),
            description: description.into(),
        });
    }

    /// `Dictionary (DICTIONARY, id 27)`: our name, the engine's enum name, the id.
    fn type_name(&self, kind: Kind, id: u32) -> String {
        match self.dialect.type_info(self.version, kind) {
            Some(t) if !t.name.is_empty() && t.name != kind.name() => {
                format!("{} ({}, id {id})", kind.name(), t.name)
            }
            _ => format!("{} (id {id})", kind.name()),
        }
    }

    /// Whether FLAG_64 widens `kind` (INT, FLOAT, and the math types where the spec says so).
    fn wide_kind(&self, kind: Kind) -> bool {
        matches!(kind, Kind::Int | Kind::Float) || self.dialect.flag64_reals(self.version, kind)
    }

    fn spec_field(&self, kind: Kind, id: FieldName) -> Option<&'static FieldInfo> {
        self.dialect.type_info(self.version, kind)?.field(id, false)
    }

    /// The spec's description of field `id` of `kind`. A field the spec's table of `kind`
    /// lacks fails every debug build and so the test suite, rather than leaving the
    /// description silently empty.
    fn describe(&self, kind: Kind, id: FieldName) -> String {
        let info = self.dialect.type_info(self.version, kind);
        let found = self.spec_field(kind, id);
        debug_assert!(
            found.is_some() || info.is_none_or(|t| t.fields.is_empty()),
            "explain describes field `{}` of {kind:?}, which the {} spec does not have",
            id.name(),
            self.dialect
        );
        found.map(|f| f.description.to_string()).unwrap_or_default()
    }

    /// A count as the decoder reads it: the elements it stands for, and how to show it.
    fn count_value(&self, kind: Kind, id: FieldName, raw: u32) -> (usize, String) {
        match kind {
            // A negative count is an empty array, as the decoder reads it.
            Kind::PackedStringArray => {
                let n = (raw as i32).max(0) as usize;
                (n, n.to_string())
            }
            Kind::Object if id == FieldName::PropertyCount => {
                let n = quirks::property_count(raw);
                let text = if raw != n {
                    format!("{n} (read as the negative {}: no properties)", raw as i32)
                } else {
                    n.to_string()
                };
                (n as usize, text)
            }
            Kind::Array
            | Kind::Dictionary
            | Kind::Object
            | Kind::TypedArray
            | Kind::PackedTypedArray => {
                let n = quirks::container_count(raw);
                let text = if raw != n && id == FieldName::Count {
                    format!("{n} (bit 31 set, ignored)")
                } else {
                    n.to_string()
                };
                (n as usize, text)
            }
            _ => (raw as usize, raw.to_string()),
        }
    }

    fn padding(&mut self, from: usize, to: usize, d: usize, kind: Kind, name: &str, id: FieldName) {
        if to > from {
            let raw = &self.bytes[from..to];
            let v = if raw.iter().all(|&b| b == 0) {
                "padding (zero)".to_string()
            } else {
                format!("padding {} (not zero)", hex_preview(raw))
            };
            let desc = self.describe(kind, id);
            self.line(from, to - from, d, name, v, desc);
        }
    }

    fn elided(&mut self, from: usize, to: usize, d: usize, more: usize) {
        if more > 0 {
            let v = format!("{more} more elements");
            self.line(from, to - from, d, "…", v, String::new());
        }
    }

    /// The value at `node` as the decoder reads it (a leaf the driver has accepted).
    fn leaf_value(&self, node: &Node, end: usize) -> Option<crate::Variant> {
        let mut opts = self.decode.clone();
        opts.limits.max_depth = 0;
        opts.version = Some(self.version);
        crate::decode(&self.bytes[node.at..end], self.dialect, &opts)
            .ok()
            .map(|(v, _)| v)
    }

    /// The elements of a fixed-stride packed array, up to `max_elements`.
    fn packed_elements(&mut self, node: &Node, end: usize) {
        let (d, count) = (node.depth + 1, node.count);
        let first = node.at + 8;
        let stride = end.saturating_sub(first).checked_div(count).unwrap_or(0);
        let shown = count.min(self.max_elements);
        let items = self
            .leaf_value(node, end)
            .map(|v| packed_items(&v, shown))
            .unwrap_or_default();
        for (i, item) in items.into_iter().enumerate() {
            self.line(first + i * stride, stride, d, format!("[{i}]"), item, "");
        }
        self.elided(first + shown * stride, end, d, count - shown);
    }

    /// The fields of a fixed-size value (numbers, math types, Color, RID), from the spec's
    /// table; without a table, the payload as one line.
    fn fixed_fields(&mut self, node: &Node, end: usize) {
        let (at, kind, d) = (node.at, node.kind, node.depth + 1);
        let wide = node.header & quirks::FLAG_64 != 0 && self.wide_kind(kind);
        let fields = match self.dialect.type_info(self.version, kind) {
            Some(t) if wide && !t.wide_fields.is_empty() => t.wide_fields,
            Some(t) => t.fields,
            None => &[],
        };
        let usable: Vec<&FieldInfo> = fields
            .iter()
            .filter(|f| f.offset >= 4 && f.len > 0 && at + (f.offset + f.len) as usize <= end)
            .collect();
        if usable.is_empty() {
            if end > at + 4 {
                let v = self.leaf_value(node, end).map(|v| short(&v));
                let v = v.unwrap_or_else(|| hex_preview(&self.bytes[at + 4..end]));
                self.line(at + 4, end - at - 4, d, "payload", v, "");
            }
            return;
        }
        for f in usable {
            let o = at + f.offset as usize;
            let raw = &self.bytes[o..o + f.len as usize];
            self.line(
                o,
                f.len as usize,
                d,
                f.name,
                field_value(raw, f.ty),
                f.description,
            );
        }
    }

    /// The values still open when the driver stopped (with an error): forgotten, so that the
    /// next frame starts clean.
    pub(super) fn reset(&mut self) {
        self.stack.clear();
        self.label = None;
        self.hidden = None;
    }
}

/// Whether `kind` is a packed array of fixed-stride elements (listed one a line).
fn is_packed(kind: Kind) -> bool {
    kind.packed_element().is_some()
        || matches!(
            kind,
            Kind::PackedInt32Array
                | Kind::PackedInt64Array
                | Kind::PackedFloat32Array
                | Kind::PackedFloat64Array
        )
}
