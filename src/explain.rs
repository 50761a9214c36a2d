//! An annotated dump of encoded bytes: every field at its offset, with its length, value and
//! the spec's description; nested values indented; a malformed input shown up to the bad byte.
//!
//! The decoder stays the judge: every leaf value is read by [`crate::decode()`] itself, and any
//! failure is reported with the decoder's own error (so `explain` and `decode` always agree on
//! where and why bytes are bad). This walker adds only what the decoder does not expose: where
//! each field sits. Containers (Array, Dictionary, full Object) are walked here, following the
//! same rules through the same constants and string reader as the decoder (`quirks.rs`).
//! Field names and descriptions come from the generated tables ([`Dialect::type_info`]).

use crate::decode::DecodeOptions;
use crate::dialect::Dialect;
use crate::error::DecodeError;
use crate::framing::{FrameError, Framing};
use crate::generated::kinds::{Feature, FieldInfo, Kind};
use crate::quirks;
use crate::variant::layout::Scalar;
use crate::variant::layout::{read_u32, read_u64};
use crate::variant::Variant;
use crate::version::Version;
use std::fmt;

/// What to explain and how much.
#[derive(Clone, Debug)]
pub struct ExplainOptions {
    /// The dialect of the bytes.
    pub dialect: Dialect,
    /// Decoding options (version, objects, limits).
    pub decode: DecodeOptions,
    /// How values are framed in the input.
    pub framing: Framing,
    /// Most elements of one array (packed or not) listed one by one; the rest are summarised
    /// in one line. `usize::MAX` lists everything.
    pub max_elements: usize,
}

impl ExplainOptions {
    /// Options for `dialect` at its newest version, bare values, 16 elements per array.
    pub fn new(dialect: Dialect) -> ExplainOptions {
        ExplainOptions {
            dialect,
            decode: DecodeOptions {
                keep_leading_bom: true,
                ..DecodeOptions::default()
            },
            framing: Framing::Bare,
            max_elements: 16,
        }
    }
}

/// One annotated field.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// Absolute offset of the field.
    pub offset: usize,
    /// Bytes of the field.
    pub len: usize,
    /// Nesting level (0 for a top-level value's own fields).
    pub depth: usize,
    /// The field's name (`header`, `length`, `[3]`, `key`, …).
    pub field: String,
    /// What the bytes hold, readably.
    pub value: String,
    /// The spec's description of the field (may be empty).
    pub description: String,
}

/// The explanation of a whole input: its lines and, for malformed input, the error that
/// stopped the walk.
#[derive(Debug)]
pub struct Explanation {
    /// The fields, in byte order.
    pub lines: Vec<Line>,
    /// Why the walk stopped before the end, if it did.
    pub error: Option<FrameError>,
    /// How many values (frames) were explained completely.
    pub values: usize,
}

/// Deepest nesting the walker follows (it recurses once per level), whatever the limits say.
const MAX_WALK_DEPTH: usize = 4096;

/// Explains `bytes`, which hold values framed as `options.framing` says.
pub fn explain(bytes: &[u8], options: &ExplainOptions) -> Explanation {
    let mut options = options.clone();
    let limits = &mut options.decode.limits;
    limits.max_depth = limits.max_depth.min(MAX_WALK_DEPTH);
    let depth = limits.max_depth;
    crate::stack::with_stack_for(depth, move || walk(bytes, &options))
}

fn walk(bytes: &[u8], options: &ExplainOptions) -> Explanation {
    let mut w = Walker {
        bytes,
        dialect: options.dialect,
        version: options
            .decode
            .version
            .unwrap_or_else(|| options.dialect.newest()),
        options,
        lines: Vec::new(),
    };
    let mut pos = 0;
    let mut values = 0;
    let error = loop {
        if pos >= bytes.len() {
            break None;
        }
        match w.frame(pos) {
            Ok(end) => {
                values += 1;
                pos = end;
            }
            Err(e) => break Some(e),
        }
    };
    Explanation {
        lines: w.lines,
        error,
        values,
    }
}

struct Walker<'a> {
    bytes: &'a [u8],
    dialect: Dialect,
    version: Version,
    options: &'a ExplainOptions,
    lines: Vec<Line>,
}

/// The walk stops: the decoder's error is already known, or is fetched by [`Walker::judge`].
type Walk<T> = Result<T, FrameError>;

impl Walker<'_> {
    fn line(
        &mut self,
        offset: usize,
        len: usize,
        depth: usize,
        field: impl Into<String>,
        value: impl Into<String>,
        description: impl Into<String>,
    ) {
        self.lines.push(Line {
            offset,
            len,
            depth,
            field: field.into(),
            value: value.into(),
            description: description.into(),
        });
    }

    /// One frame at `at`: its prefix, then its value. Returns where the next frame starts.
    fn frame(&mut self, at: usize) -> Walk<usize> {
        let framing = self.options.framing;
        let (start, end) = match framing {
            Framing::Bare => (at, self.bytes.len()),
            _ => {
                let rest = self.bytes.len() - at;
                if rest < 4 {
                    return Err(FrameError::Truncated {
                        offset: at,
                        needed: 4 - rest,
                    });
                }
                let b = [
                    self.bytes[at],
                    self.bytes[at + 1],
                    self.bytes[at + 2],
                    self.bytes[at + 3],
                ];
                let big = matches!(framing, Framing::StoreVar { big_endian: true });
                let len = if big {
                    u32::from_be_bytes(b)
                } else {
                    u32::from_le_bytes(b)
                } as usize;
                self.line(
                    at,
                    4,
                    0,
                    "frame length",
                    len.to_string(),
                    format!(
                        "{framing}: u32 {} length of the value that follows",
                        if big { "big-endian" } else { "little-endian" }
                    ),
                );
                if rest - 4 < len {
                    return Err(FrameError::Truncated {
                        offset: at,
                        needed: len - (rest - 4),
                    });
                }
                (at + 4, at + 4 + len)
            }
        };
        // The value may not read past its frame: walk a view that ends there.
        let whole = self.bytes;
        self.bytes = &whole[..end];
        let r = self.value(start, start, 0, "");
        self.bytes = whole;
        let used_end = r?;
        let used_end = used_end.min(end);
        if framing != Framing::Bare && used_end < end {
            self.line(
                used_end,
                end - used_end,
                0,
                "trailing bytes",
                hex_preview(&self.bytes[used_end..end]),
                "inside the frame but not part of the value; the engine ignores them",
            );
            return Ok(end);
        }
        Ok(if framing == Framing::Bare {
            used_end
        } else {
            end
        })
    }

    /// The decoder's verdict on the value at `value_at` (of the frame at `frame_at`): its
    /// error, shifted to an absolute offset. Called when the walk cannot go on.
    fn judge(&self, frame_at: usize, value_at: usize, depth: usize) -> FrameError {
        let mut opts = self.options.decode.clone();
        opts.limits.max_depth = opts.limits.max_depth.saturating_sub(depth);
        let _ = frame_at;
        match crate::decode(&self.bytes[value_at..], self.dialect, &opts) {
            Err(e) => FrameError::Decode(e.shifted(value_at)),
            // The walker and the decoder disagree; say so rather than guess.
            Ok(_) => FrameError::Decode(DecodeError::UnexpectedEof {
                offset: value_at,
                needed: 0,
                dialect: self.dialect,
            }),
        }
    }

    fn u32_at(&self, at: usize) -> Option<u32> {
        (at + 4 <= self.bytes.len()).then(|| read_u32(self.bytes, at))
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

    fn type_description(&self, kind: Kind) -> String {
        self.dialect
            .type_info(self.version, kind)
            .map(|t| t.description.to_string())
            .unwrap_or_default()
    }

    /// The spec's fields of `kind` (the 64-bit layout when `wide`).
    fn fields(&self, kind: Kind, wide: bool) -> &'static [FieldInfo] {
        match self.dialect.type_info(self.version, kind) {
            Some(t) if wide && !t.wide_fields.is_empty() => t.wide_fields,
            Some(t) => t.fields,
            None => &[],
        }
    }

    /// The spec's description of the field called `name` of `kind`. A name the spec does not
    /// have (a field renamed in the YAML) fails every debug build and so the test suite,
    /// rather than leaving the description silently empty.
    fn describe(&self, kind: Kind, name: &str) -> String {
        let fields = self.fields(kind, false);
        // A top-level field, or one of a repetition's (a NodePath name's `length`).
        let found = fields
            .iter()
            .chain(fields.iter().flat_map(|f| f.element))
            .find(|f| f.name == name);
        debug_assert!(
            found.is_some() || fields.is_empty(),
            "explain asks for field `{name}` of {kind:?}, which the {} spec does not have",
            self.dialect
        );
        found.map(|f| f.description.to_string()).unwrap_or_default()
    }

    /// One value at `at`, inside the frame at `frame_at`; returns its end.
    fn value(&mut self, frame_at: usize, at: usize, depth: usize, label: &str) -> Walk<usize> {
        if depth > self.options.decode.limits.max_depth {
            return Err(self.judge(frame_at, at, depth));
        }
        let Some(header) = self.u32_at(at) else {
            return Err(self.judge(frame_at, at, depth));
        };
        let tag = header & quirks::TYPE_MASK;
        let Some(kind) = self.dialect.kind_of(self.version, tag) else {
            return Err(self.judge(frame_at, at, depth));
        };
        let flags = header & !quirks::TYPE_MASK;
        let flag64 = header & quirks::FLAG_64 != 0;
        let mut what = self.type_name(kind, tag);
        if flags != 0 {
            what.push_str(&format!(" flags {flags:#010x}"));
            if flag64 && matches!(kind, Kind::Object) {
                what.push_str(" (OBJECT_AS_ID)");
            } else if flag64 && (wide_kind(self.dialect, self.version, kind)) {
                what.push_str(" (FLAG_64)");
            }
        }
        let field = if label.is_empty() {
            "header".to_string()
        } else {
            format!("{label} header")
        };
        let desc = self.type_description(kind);
        self.line(at, 4, depth, field, what, desc);
        match kind {
            Kind::Array => self.array(frame_at, at, header, depth),
            Kind::Dictionary => self.dictionary(frame_at, at, header, depth),
            Kind::Object if !flag64 => self.full_object(frame_at, at, depth),
            Kind::TypedArray | Kind::PackedTypedArray => {
                self.pandemonium_typed_array(frame_at, at, flag64, depth)
            }
            _ => self.leaf(frame_at, at, kind, flag64, depth),
        }
    }

    /// A value without nested values: the decoder reads it, this lays out its fields.
    fn leaf(
        &mut self,
        frame_at: usize,
        at: usize,
        kind: Kind,
        flag64: bool,
        depth: usize,
    ) -> Walk<usize> {
        let mut opts = self.options.decode.clone();
        opts.limits.max_depth = 0;
        let (value, used) = match crate::decode(&self.bytes[at..], self.dialect, &opts) {
            Ok(x) => x,
            Err(_) => return Err(self.judge(frame_at, at, depth)),
        };
        let end = (at + used).min(self.bytes.len());
        let d = depth + 1;
        let p = at + 4;
        let wide = flag64 && wide_kind(self.dialect, self.version, kind);
        match &value {
            Variant::Nil | Variant::Callable => {}
            Variant::String(_) | Variant::StringName(_) => {
                self.string_fields(p, d, kind, "");
            }
            Variant::NodePath(np) => {
                let first = read_u32(self.bytes, p);
                self.line(
                    p,
                    4,
                    d,
                    "name_count",
                    format!(
                        "{} (| {:#x})",
                        first & !quirks::NODEPATH_NEW_FORMAT,
                        quirks::NODEPATH_NEW_FORMAT
                    ),
                    self.describe(kind, "name_count"),
                );
                let sub = read_u32(self.bytes, p + 4);
                self.line(
                    p + 4,
                    4,
                    d,
                    "subname_count",
                    sub.to_string(),
                    self.describe(kind, "subname_count"),
                );
                let flags = read_u32(self.bytes, p + 8);
                let mut fv = format!("{flags:#x}");
                if flags & quirks::NODEPATH_ABSOLUTE != 0 {
                    fv.push_str(" absolute");
                }
                if flags & quirks::NODEPATH_OBSOLETE_PROPERTY != 0 {
                    fv.push_str(" +1 subname (obsolete property flag)");
                }
                self.line(p + 8, 4, d, "flags", fv, self.describe(kind, "flags"));
                let mut q = p + 12;
                for i in 0..np.names.len() {
                    q = self.string_fields(q, d, kind, &format!("names[{i}]"));
                }
                for i in 0..np.subnames.len() {
                    q = self.string_fields(q, d, kind, &format!("subnames[{i}]"));
                }
            }
            Variant::Signal(_) => {
                let q = self.string_fields(p, d, kind, "name");
                self.line(
                    q,
                    8,
                    d,
                    "object_id",
                    read_u64(self.bytes, q).to_string(),
                    self.describe(kind, "object_id"),
                );
            }
            Variant::Object(_) => {
                // The instance-id form (the full form is walked as a container).
                self.line(
                    p,
                    8,
                    d,
                    "instance_id",
                    read_u64(self.bytes, p).to_string(),
                    self.describe(kind, "instance_id"),
                );
            }
            Variant::PackedByteArray(b) => {
                self.line(
                    p,
                    4,
                    d,
                    "count",
                    b.len().to_string(),
                    self.describe(kind, "count"),
                );
                if !b.is_empty() {
                    self.line(
                        p + 4,
                        b.len(),
                        d,
                        "data",
                        hex_preview(b),
                        self.describe(kind, "data"),
                    );
                }
                self.padding(p + 4 + b.len(), end, d, kind, "pad", "pad");
            }
            Variant::PackedStringArray(items) => {
                self.line(
                    p,
                    4,
                    d,
                    "count",
                    items.len().to_string(),
                    self.describe(kind, "count"),
                );
                let mut q = p + 4;
                let shown = items.len().min(self.options.max_elements);
                for i in 0..shown {
                    q = self.string_fields(q, d, kind, &format!("[{i}]"));
                }
                self.elided(q, end, d, items.len() - shown);
            }
            v if is_packed(kind) => {
                let count = read_u32(self.bytes, p) as usize;
                self.line(
                    p,
                    4,
                    d,
                    "count",
                    count.to_string(),
                    self.describe(kind, "count"),
                );
                let stride = (end - p - 4).checked_div(count).unwrap_or(0);
                let shown = count.min(self.options.max_elements);
                let items = packed_items(v);
                for (i, item) in items.iter().take(shown).enumerate() {
                    self.line(
                        p + 4 + i * stride,
                        stride,
                        d,
                        format!("[{i}]"),
                        item.clone(),
                        String::new(),
                    );
                }
                self.elided(p + 4 + shown * stride, end, d, count - shown);
            }
            _ => self.fixed_fields(at, end, kind, wide, d, &value),
        }
        Ok(end)
    }

    /// The fields of a fixed-size value (numbers, math types, Color, RID), from the spec's
    /// table; without a table, the payload as one line.
    fn fixed_fields(
        &mut self,
        at: usize,
        end: usize,
        kind: Kind,
        wide: bool,
        d: usize,
        value: &Variant,
    ) {
        let fields = self.fields(kind, wide);
        let usable: Vec<&FieldInfo> = fields
            .iter()
            .filter(|f| f.offset >= 4 && at + (f.offset + f.len) as usize <= end && f.len > 0)
            .collect();
        if usable.is_empty() {
            if end > at + 4 {
                self.line(
                    at + 4,
                    end - at - 4,
                    d,
                    "payload",
                    short(value),
                    String::new(),
                );
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
                field_value(raw, f.ty, wide),
                f.description,
            );
        }
    }

    /// A length-prefixed string at `at` (length, data, padding); returns its end. The decoder
    /// has already accepted these bytes.
    fn string_fields(&mut self, at: usize, d: usize, kind: Kind, name: &str) -> usize {
        let n = read_u32(self.bytes, at) as usize;
        let prefix = if name.is_empty() {
            String::new()
        } else {
            format!("{name} ")
        };
        // The spec names the parts of a named string `class_name_length`, `class_name`,
        // `class_name_pad` (or `name_…`), and of a plain one `length`, `data`, `pad`.
        let last = name.rsplit(' ').next().unwrap_or("");
        let base = if matches!(last, "class_name" | "name") {
            last
        } else {
            ""
        };
        let spec = |part: &str| match (base, part) {
            ("", p) => p.to_string(),
            (b, "data") => b.to_string(),
            (b, p) => format!("{b}_{p}"),
        };
        self.line(
            at,
            4,
            d,
            format!("{prefix}length"),
            n.to_string(),
            self.describe(kind, &spec("length")),
        );
        let data = &self.bytes[at + 4..(at + 4 + n).min(self.bytes.len())];
        if n > 0 {
            let text = match quirks::engine_string(data, true) {
                Ok(s) => quote(&s),
                Err(_) => hex_preview(data),
            };
            let text = if data.last() == Some(&0) {
                format!("{text} + NUL")
            } else {
                text
            };
            self.line(
                at + 4,
                n,
                d,
                format!("{prefix}data"),
                text,
                self.describe(kind, &spec("data")),
            );
        }
        let end = (at + 4 + n + quirks::pad4(n)).min(self.bytes.len());
        self.padding(
            at + 4 + n,
            end,
            d,
            kind,
            &format!("{prefix}pad"),
            &spec("pad"),
        );
        end
    }

    fn padding(&mut self, from: usize, to: usize, d: usize, kind: Kind, name: &str, spec: &str) {
        if to > from {
            let raw = &self.bytes[from..to];
            let v = if raw.iter().all(|&b| b == 0) {
                "padding (zero)".to_string()
            } else {
                format!("padding {} (not zero)", hex_preview(raw))
            };
            let desc = self.describe(kind, spec);
            self.line(from, to - from, d, name, v, desc);
        }
    }

    fn elided(&mut self, from: usize, to: usize, d: usize, more: usize) {
        if more > 0 {
            self.line(
                from,
                to - from,
                d,
                "…",
                format!("{more} more elements"),
                String::new(),
            );
        }
    }

    /// Typed-container type data for one side; returns where it ends.
    fn element_type(
        &mut self,
        frame_at: usize,
        value_at: usize,
        at: usize,
        container_kind: u32,
        d: usize,
        name: &str,
    ) -> Walk<usize> {
        let kind_name = match container_kind {
            quirks::KIND_NONE => return Ok(at),
            quirks::KIND_BUILTIN => "BUILTIN",
            quirks::KIND_CLASS_NAME => "CLASS_NAME",
            _ => "SCRIPT",
        };
        if container_kind == quirks::KIND_BUILTIN {
            let Some(id) = self.u32_at(at) else {
                return Err(self.judge(frame_at, value_at, d - 1));
            };
            let Some(k) = self.dialect.kind_of(self.version, id) else {
                return Err(self.judge(frame_at, value_at, d - 1));
            };
            self.line(
                at,
                4,
                d,
                name,
                format!("{kind_name}: {}", self.type_name(k, id)),
                "the element type",
            );
            return Ok(at + 4);
        }
        self.checked_string(frame_at, value_at, at, d, Kind::String, name, d - 1)
    }

    /// A string inside a container walked here: checked by the same rules as the decoder
    /// (`_decode_string`), or the decoder's error.
    #[allow(clippy::too_many_arguments)]
    fn checked_string(
        &mut self,
        frame_at: usize,
        value_at: usize,
        at: usize,
        d: usize,
        kind: Kind,
        name: &str,
        value_depth: usize,
    ) -> Walk<usize> {
        let Some(n) = self.u32_at(at) else {
            return Err(self.judge(frame_at, value_at, value_depth));
        };
        let n = n as i32;
        let fits = n >= 0 && {
            let n = n as usize;
            at + 4 + n + quirks::pad4(n) <= self.bytes.len()
                && quirks::engine_string(&self.bytes[at + 4..at + 4 + n], true).is_ok()
        };
        if !fits {
            return Err(self.judge(frame_at, value_at, value_depth));
        }
        Ok(self.string_fields(at, d, kind, name))
    }

    fn count_line(&mut self, at: usize, d: usize, kind: Kind) -> Option<u32> {
        let raw = self.u32_at(at)?;
        let n = raw & quirks::COUNT_MASK;
        let v = if raw != n {
            format!("{n} (bit 31 set, ignored)")
        } else {
            n.to_string()
        };
        self.line(at, 4, d, "count", v, self.describe(kind, "count"));
        Some(n)
    }

    /// Elements `0..n` from `at`; lists at most `max_elements`, then skips the rest using the
    /// decoder to find where the container ends.
    fn elements(
        &mut self,
        frame_at: usize,
        value_at: usize,
        mut at: usize,
        n: u32,
        d: usize,
        pairs: bool,
    ) -> Walk<usize> {
        let shown = (n as usize).min(self.options.max_elements);
        for i in 0..shown {
            if pairs {
                at = self.value(frame_at, at, d, &format!("[{i}] key"))?;
                at = self.value(frame_at, at, d, &format!("[{i}] value"))?;
            } else {
                at = self.value(frame_at, at, d, &format!("[{i}]"))?;
            }
        }
        if shown < n as usize {
            let mut opts = self.options.decode.clone();
            opts.limits.max_depth = opts.limits.max_depth.saturating_sub(d - 1);
            let end = match crate::decode(&self.bytes[value_at..], self.dialect, &opts) {
                Ok((_, used)) => value_at + used,
                Err(e) => return Err(FrameError::Decode(e.shifted(value_at))),
            };
            self.elided(at, end, d, n as usize - shown);
            at = end;
        }
        Ok(at)
    }

    fn array(&mut self, frame_at: usize, at: usize, header: u32, depth: usize) -> Walk<usize> {
        let d = depth + 1;
        let mut p = at + 4;
        if self.dialect.has_feature(self.version, Feature::TypedArray) {
            let k = quirks::container_kind(header, quirks::TYPED_ARRAY);
            p = self.element_type(frame_at, at, p, k, d, "element_type")?;
        }
        let Some(n) = self.count_line(p, d, Kind::Array) else {
            return Err(self.judge(frame_at, at, depth));
        };
        self.elements(frame_at, at, p + 4, n, d, false)
    }

    fn dictionary(&mut self, frame_at: usize, at: usize, header: u32, depth: usize) -> Walk<usize> {
        let d = depth + 1;
        let mut p = at + 4;
        if self
            .dialect
            .has_feature(self.version, Feature::TypedDictionary)
        {
            let k = quirks::container_kind(header, quirks::TYPED_KEY);
            let v = quirks::container_kind(header, quirks::TYPED_VALUE);
            p = self.element_type(frame_at, at, p, k, d, "key_type")?;
            p = self.element_type(frame_at, at, p, v, d, "value_type")?;
        }
        let Some(n) = self.count_line(p, d, Kind::Dictionary) else {
            return Err(self.judge(frame_at, at, depth));
        };
        self.elements(frame_at, at, p + 4, n, d, true)
    }

    fn full_object(&mut self, frame_at: usize, at: usize, depth: usize) -> Walk<usize> {
        if !self.options.decode.allow_objects {
            return Err(self.judge(frame_at, at, depth));
        }
        let d = depth + 1;
        let p = self.checked_string(frame_at, at, at + 4, d, Kind::Object, "class_name", depth)?;
        if p == at + 8 {
            // An empty class name is a null object; nothing follows.
            return Ok(p);
        }
        let Some(n) = self.u32_at(p) else {
            return Err(self.judge(frame_at, at, depth));
        };
        let n = n & quirks::COUNT_MASK;
        self.line(
            p,
            4,
            d,
            "property_count",
            n.to_string(),
            self.describe(Kind::Object, "property_count"),
        );
        let mut q = p + 4;
        for i in 0..n {
            q = self.checked_string(
                frame_at,
                at,
                q,
                d,
                Kind::Object,
                &format!("property[{i}] name"),
                depth,
            )?;
            q = self.value(frame_at, q, d, &format!("property[{i}] value"))?;
        }
        Ok(q)
    }

    fn pandemonium_typed_array(
        &mut self,
        frame_at: usize,
        at: usize,
        as_id: bool,
        depth: usize,
    ) -> Walk<usize> {
        let d = depth + 1;
        let p = at + 4;
        let Some(raw) = self.u32_at(p) else {
            return Err(self.judge(frame_at, at, depth));
        };
        let id = raw & quirks::COUNT_MASK;
        let Some(k) = self.dialect.kind_of(self.version, id) else {
            return Err(self.judge(frame_at, at, depth));
        };
        self.line(
            p,
            4,
            d,
            "element_type",
            self.type_name(k, id),
            "the element type",
        );
        let mut q = p + 4;
        if k == Kind::Object && !as_id {
            q = self.value(frame_at, q, d, "class_name")?;
        }
        let Some(n) = self.count_line(q, d, Kind::Array) else {
            return Err(self.judge(frame_at, at, depth));
        };
        self.elements(frame_at, at, q + 4, n, d, false)
    }
}

/// Whether FLAG_64 widens `kind` (INT, FLOAT, and the math types where the spec says so).
fn wide_kind(dialect: Dialect, version: Version, kind: Kind) -> bool {
    matches!(kind, Kind::Int | Kind::Float) || dialect.flag64_reals(version, kind)
}

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

/// The elements of a fixed-stride packed array, each printed readably.
fn packed_items(v: &Variant) -> Vec<String> {
    fn each<T>(x: &[T], f: impl Fn(&T) -> String) -> Vec<String> {
        x.iter().map(f).collect()
    }
    match v {
        Variant::PackedInt32Array(x) => each(x, |v| v.to_string()),
        Variant::PackedInt64Array(x) => each(x, |v| v.to_string()),
        Variant::PackedFloat32Array(x) => each(x, |v| real(f64::from(*v))),
        Variant::PackedFloat64Array(x) => each(x, |v| real(*v)),
        // Packed arrays of math values: `(x, y, …)` per element, from the spec's components.
        other => match other.as_packed() {
            Some(p) => {
                let comps = p.components();
                p.values()
                    .chunks(comps.len().max(1))
                    .map(|e| {
                        let parts: Vec<String> = e
                            .iter()
                            .zip(comps)
                            .map(|(x, c)| match c.scalar {
                                Scalar::I32 => (*x as i32).to_string(),
                                _ => real(*x),
                            })
                            .collect();
                        format!("({})", parts.join(", "))
                    })
                    .collect()
            }
            None => Vec::new(),
        },
    }
}

/// A real, shortest form that reads back to the same value (`{}` of Rust).
fn real(v: f64) -> String {
    if v.is_nan() {
        format!("nan ({:#x})", v.to_bits())
    } else {
        format!("{v:?}")
    }
}

/// A value in a few characters, for a payload line.
fn short(v: &Variant) -> String {
    match v {
        Variant::Bool(b) => b.to_string(),
        Variant::Int(i) => i.to_string(),
        Variant::Float(f) => real(*f),
        Variant::Rid(r) => format!("RID {r}"),
        other => format!("{other:?}"),
    }
}

/// A field's bytes as its spec type says (`u32`, `i32`, `f32`, `f64`, `real`, …).
fn field_value(raw: &[u8], ty: &str, wide: bool) -> String {
    let u32v = || (raw.len() >= 4).then(|| read_u32(raw, 0));
    let u64v = || (raw.len() >= 8).then(|| read_u64(raw, 0));
    let s = match (ty, raw.len()) {
        ("u32", 4) => u32v().map(|v| v.to_string()),
        ("i32", 4) => u32v().map(|v| (v as i32).to_string()),
        ("i32" | "i64", 8) | ("i64", _) => u64v().map(|v| (v as i64).to_string()),
        ("u64", 8) => u64v().map(|v| v.to_string()),
        ("f32" | "real" | "f64", 4) => {
            u32v().map(|v| real(crate::variant::layout::real_from_f32_bits(v)))
        }
        ("f32" | "real" | "f64", 8) => u64v().map(|v| real(f64::from_bits(v))),
        _ => None,
    };
    let _ = wide;
    s.unwrap_or_else(|| hex_preview(raw))
}

fn quote(s: &str) -> String {
    const MAX: usize = 60;
    let mut out = String::from("\"");
    for (i, c) in s.chars().enumerate() {
        if i == MAX {
            out.push_str("\"…");
            return out;
        }
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\u{feff}' => out.push_str("\\ufeff"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn hex_preview(b: &[u8]) -> String {
    const MAX: usize = 16;
    let mut s: Vec<String> = b.iter().take(MAX).map(|x| format!("{x:02x}")).collect();
    if b.len() > MAX {
        s.push(format!("… ({} bytes)", b.len()));
    }
    s.join(" ")
}

impl fmt::Display for Explanation {
    /// The dump: `offset  len  field  value  description`, one field a line, nested values
    /// indented two spaces a level, then the error (if any) at its offset.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = |l: &Line| format!("{}{}", "  ".repeat(l.depth), l.field);
        let lw = self
            .lines
            .iter()
            .map(|l| label(l).chars().count())
            .max()
            .unwrap_or(5)
            .clamp(5, 36);
        let vw = self
            .lines
            .iter()
            .map(|l| l.value.chars().count())
            .max()
            .unwrap_or(5)
            .clamp(5, 44);
        writeln!(f, "{:<8} {:>5}  {:<lw$}  value", "offset", "len", "field")?;
        for l in &self.lines {
            let row = format!(
                "{:08x} {:>5}  {:<lw$}  {:<vw$}  {}",
                l.offset,
                l.len,
                label(l),
                l.value,
                l.description
            );
            writeln!(f, "{}", row.trim_end())?;
        }
        match &self.error {
            None => writeln!(f, "{} value(s), every byte explained", self.values),
            Some(e) => writeln!(f, "{:08x} error: {e}", e.offset()),
        }
    }
}
