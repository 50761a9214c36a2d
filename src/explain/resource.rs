//! `explain` of resource files: a `.res` (`RSRC`) field by field at absolute offsets, a
//! `.tres`/`.tscn` section by section with line numbers.
//!
//! The `.res` walk follows core/io/resource_format_binary.cpp (`ResourceLoaderBinary::open`
//! for the header and tables, `parse_variant` for property values). Which header and
//! external-resource fields a format version has, and the format-dependent rules of the
//! property encoding, come from the generated tables of spec/resource_binary.yaml.

use super::format::{hex_preview, quote};
use super::Line;
use crate::error::ResourceError;
use crate::generated::kinds::Kind;
use crate::variant::layout::{FixedLayout, Scalar};
use crate::variant::value::with_fixed;
use crate::variant::Variant;
use std::fmt;

/// The header and external entry fields per format, and the rules (spec/resource_binary.yaml).
use crate::resource::layout;
/// Type ids per format (spec/resource_binary.yaml), the `.res` reader's own table.
use crate::resource::type_tables as tables;

/// The deepest nesting walked (the engines' `MAX_RECURSION_DEPTH`).
const MAX_DEPTH: usize = 1024;

/// The explanation of a `.res` file: its lines, in the order walked (each resource at the
/// offset the internal table gives), and the error that stopped the walk, if any.
#[derive(Debug)]
pub struct ResourceExplanation {
    /// The fields.
    pub lines: Vec<Line>,
    /// Why the walk stopped before the end, if it did.
    pub error: Option<ResourceError>,
}

impl fmt::Display for ResourceExplanation {
    /// The dump, as [`Explanation`](super::Explanation)'s, then the error (if any).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::write_lines(f, &self.lines)?;
        match &self.error {
            None => writeln!(f, "every byte explained"),
            Some(ResourceError::Binary { offset, message }) => {
                writeln!(f, "{offset:08x} error: {message}")
            }
            Some(e) => writeln!(f, "error: {e}"),
        }
    }
}

/// Explains a `.res` file (`RSRC`), every field at its absolute offset; at most
/// `max_elements` elements of one array are listed one by one.
pub fn explain_resource(bytes: &[u8], max_elements: usize) -> ResourceExplanation {
    walk(bytes, max_elements, 0)
}

/// Explains the resource inside a compressed `.res` (`RSCC`): `plain` is its decompressed
/// stream, which starts after the `RSRC` magic; the lines count offsets from that magic put
/// back in front (so the stored resource offsets, which count in the stream, point 4 bytes
/// further on).
pub fn explain_compressed_resource(plain: &[u8], max_elements: usize) -> ResourceExplanation {
    let mut whole = b"RSRC".to_vec();
    whole.extend_from_slice(plain);
    walk(&whole, max_elements, 4)
}

fn walk(bytes: &[u8], max_elements: usize, shift: usize) -> ResourceExplanation {
    let mut w = Walk {
        b: bytes,
        at: 0,
        lines: Vec::new(),
        // Until the header's format field is read, only the fields every format has apply.
        format: 1,
        flags: 0,
        real64: false,
        strings: Vec::new(),
        max_elements,
        hidden: 0,
        shift,
    };
    let error = w.file().err();
    ResourceExplanation {
        lines: w.lines,
        error,
    }
}

/// Explains a `.tres`/`.tscn` text: each section header and property with its line number.
pub fn explain_resource_text(text: &str) -> String {
    let mut out = String::from("line  section / property\n");
    let mut sections = 0;
    let mut properties = 0;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('[') && t.ends_with(']') {
            sections += 1;
            out.push_str(&format!("{:>4}  {t}\n", i + 1));
        } else if let Some((key, value)) = t.split_once(" = ").filter(|_| !t.starts_with(';')) {
            // A property starts a line with `name = `; continuation lines of a long value
            // (arrays and dictionaries over several lines) are not listed.
            if !key.contains([' ', '"', '{', '}', ',']) {
                properties += 1;
                let mut v = value.to_string();
                if v.chars().count() > 60 {
                    v = v.chars().take(60).collect::<String>() + "…";
                }
                out.push_str(&format!("{:>4}    {key} = {v}\n", i + 1));
            }
        }
    }
    out.push_str(&format!(
        "{sections} section(s), {properties} property line(s)\n"
    ));
    out
}

struct Walk<'a> {
    b: &'a [u8],
    at: usize,
    lines: Vec<Line>,
    format: u32,
    flags: u32,
    real64: bool,
    strings: Vec<String>,
    max_elements: usize,
    /// Above 0 while walking array elements past `max_elements` (read, not listed).
    hidden: usize,
    /// What the stored resource offsets lack: 4 inside a compressed file, whose stream (and
    /// its positions) starts after the magic.
    shift: usize,
}

use crate::resource::binary_error as err;

impl<'a> Walk<'a> {
    fn line(&mut self, at: usize, depth: usize, field: &str, value: String, what: &str) {
        if self.hidden > 0 {
            return;
        }
        self.lines.push(Line {
            offset: at,
            len: self.at - at,
            depth,
            field: field.into(),
            value,
            description: what.into(),
        });
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8], ResourceError> {
        let s = self
            .at
            .checked_add(n)
            .and_then(|end| self.b.get(self.at..end))
            .ok_or_else(|| {
                let left = self.b.len().saturating_sub(self.at);
                err(self.at, format!("{n} bytes needed, {left} left"))
            })?;
        self.at += n;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32, ResourceError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    fn u64(&mut self) -> Result<u64, ResourceError> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }
    /// A u32 on its own line; `what` starts with `u32:` so that a reader knows the bytes.
    fn u32_line(&mut self, depth: usize, field: &str, what: &str) -> Result<u32, ResourceError> {
        let at = self.at;
        let v = self.u32()?;
        self.line(at, depth, field, v.to_string(), &format!("u32: {what}"));
        Ok(v)
    }
    /// A count of items of at least `each` bytes, refused when the rest cannot hold them.
    fn count_line(
        &mut self,
        depth: usize,
        field: &str,
        each: usize,
    ) -> Result<usize, ResourceError> {
        let at = self.at;
        let n = self.u32_line(depth, field, "how many follow")? as usize;
        if n.saturating_mul(each) > self.b.len() - self.at {
            return Err(err(
                at,
                format!("count {n} is larger than the rest of the file"),
            ));
        }
        Ok(n)
    }
    /// `get_unicode_string`: a length counting the final NUL, then UTF-8.
    fn string(&mut self, depth: usize, field: &str, what: &str) -> Result<String, ResourceError> {
        let len = self.u32_line(
            depth,
            &format!("{field} length"),
            "bytes that follow, the final NUL counted",
        )?;
        let at = self.at;
        let raw = self.take(len as usize)?;
        let text = raw.split(|&c| c == 0).next().unwrap_or_default();
        let text = String::from_utf8(text.to_vec()).map_err(|_| err(at, "string is not UTF-8"))?;
        self.line(
            at,
            depth,
            field,
            quote(&text),
            &format!("UTF-8 + NUL: {what}"),
        );
        Ok(text)
    }

    fn file(&mut self) -> Result<(), ResourceError> {
        self.header()?;
        let n = self.count_line(0, "string table", 4)?;
        for i in 0..n {
            let s = self.string(1, &format!("[{i}]"), "a property name")?;
            self.strings.push(s);
        }
        let n = self.count_line(0, "external resources", 8)?;
        for i in 0..n {
            let at = self.at;
            self.line(
                at,
                1,
                &format!("[{i}]"),
                String::new(),
                "an external resource",
            );
            for f in layout::EXTERNAL {
                if f.present(self.format, self.flags) {
                    self.field(2, f)?;
                }
            }
        }
        let n = self.count_line(0, "internal resources", 12)?;
        let mut table = Vec::with_capacity(n);
        for i in 0..n {
            let path = self.string(
                1,
                &format!("[{i}] path"),
                "local://… for a built-in resource",
            )?;
            let at = self.at;
            let offset = self.u64()?;
            self.line(
                at,
                1,
                &format!("[{i}] offset"),
                format!("{offset:#x}"),
                "u64: where the resource starts",
            );
            table.push((path, offset, at));
        }
        let mut end = self.at;
        for (i, (path, offset, at)) in table.into_iter().enumerate() {
            let offset = offset.saturating_add(self.shift as u64);
            if offset as usize >= self.b.len() {
                return Err(err(
                    at,
                    format!("resource offset {offset:#x} is past the end"),
                ));
            }
            self.at = offset as usize;
            self.resource(i, &path)?;
            end = end.max(self.at);
        }
        self.at = end;
        let rest = &self.b[end..];
        if rest == b"RSRC" {
            self.at += 4;
            self.line(
                end,
                0,
                "end magic",
                "RSRC".into(),
                "the engine ends the file with the magic again",
            );
        } else if !rest.is_empty() {
            self.at = self.b.len();
            self.line(
                end,
                0,
                "trailing bytes",
                hex_preview(rest),
                "after the last resource",
            );
        }
        Ok(())
    }

    fn header(&mut self) -> Result<(), ResourceError> {
        for f in layout::HEADER {
            if !f.present(self.format, self.flags) {
                continue;
            }
            let v = self.field(0, f)?;
            match f.name {
                "magic" if v != u64::from(u32::from_le_bytes(*b"RSRC")) => {
                    return Err(err(0, "not an RSRC file"));
                }
                "big endian" if v != 0 => {
                    return Err(err(4, "big-endian resource files are not explained"));
                }
                "real64" => self.real64 |= v != 0,
                "format version" if v > u64::from(tables::NEWEST_FORMAT) => {
                    return Err(err(self.at - 4, format!("format {v} is newer than known")));
                }
                "format version" => self.format = v as u32,
                "flags" => {
                    self.flags = v as u32;
                    // FORMAT_FLAG_REAL_T_IS_DOUBLE
                    self.real64 |= v & 4 != 0;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// One field of the spec's layout; its value when it is a number.
    fn field(&mut self, depth: usize, f: &layout::Field) -> Result<u64, ResourceError> {
        let mut last = 0;
        for i in 0..f.count {
            let name = if f.count > 1 {
                format!("{} [{i}]", f.name)
            } else {
                f.name.to_string()
            };
            let at = self.at;
            last = match f.ty {
                "magic" => {
                    let m = self.take(4)?;
                    let v = u32::from_le_bytes(m.try_into().unwrap());
                    self.line(at, depth, &name, String::from_utf8_lossy(m).into(), f.what);
                    u64::from(v)
                }
                "u32" => u64::from(self.u32_line(depth, &name, f.what)?),
                "u64" => {
                    let v = self.u64()?;
                    self.line(at, depth, &name, v.to_string(), &format!("u64: {}", f.what));
                    v
                }
                _ => {
                    self.string(depth, &name, f.what)?;
                    0
                }
            };
        }
        Ok(last)
    }

    fn resource(&mut self, i: usize, path: &str) -> Result<(), ResourceError> {
        let at = self.at;
        self.line(
            at,
            0,
            &format!("resource {i}"),
            quote(path),
            "at the offset of the internal table",
        );
        self.string(1, "class", "its class")?;
        let n = self.count_line(1, "properties", 8)?;
        for _ in 0..n {
            let at = self.at;
            let name = self.name()?;
            self.line(
                at,
                1,
                "name",
                name,
                "u32: string table index (top bit: inline string)",
            );
            self.value(2, "", 0)?;
        }
        Ok(())
    }

    /// `_get_string`: a string table index, or an inline string with the top bit set.
    fn name(&mut self) -> Result<String, ResourceError> {
        let at = self.at;
        let id = self.u32()?;
        if id & 0x8000_0000 != 0 {
            let raw = self.take((id & 0x7fff_ffff) as usize)?;
            let raw = raw.split(|&c| c == 0).next().unwrap_or_default();
            return Ok(format!("inline {}", quote(&String::from_utf8_lossy(raw))));
        }
        let s = self.strings.get(id as usize).ok_or_else(|| {
            err(
                at,
                format!(
                    "string index {id} out of range (table of {})",
                    self.strings.len()
                ),
            )
        })?;
        Ok(format!("{id} → {}", quote(s)))
    }

    /// The kind of type id `id` in this file's format, and whether it is the 64-bit form.
    /// One value: its type id line, then its payload indented below.
    fn value(&mut self, depth: usize, label: &str, nest: usize) -> Result<(), ResourceError> {
        let at = self.at;
        if nest > MAX_DEPTH {
            return Err(err(at, format!("nesting deeper than {MAX_DEPTH}")));
        }
        let id = self.u32()?;
        let (kind, long) = crate::resource::type_at(id, self.format, at)?;
        let field = if label.is_empty() {
            "type".to_string()
        } else {
            format!("{label} type")
        };
        let form = if long { " 64-bit" } else { "" };
        self.line(
            at,
            depth,
            &field,
            format!("{}{form} (id {id})", kind.name()),
            "u32: type id",
        );
        let d = depth + 1;
        let wide = self.real64;
        let at = self.at;
        if let Some(size) = with_fixed!(kind, T => Some(T::size(wide)), _ => None) {
            let raw = self.take(size)?;
            let (v, stored) = with_fixed!(kind, T => (T::read(raw, wide).into_variant(), storage::<T>(wide)), _ => (Variant::Nil, ""));
            self.line(at, d, "value", v.to_string(), stored);
            return Ok(());
        }
        use Kind as K;
        match (kind, long) {
            (K::Nil | K::Callable | K::Signal, _) => {}
            (K::Bool, _) => {
                self.u32_line(d, "value", "0 false, else true")?;
            }
            (K::Int, false) => self.int32(d, "value")?,
            (K::Int, true) => self.int64(d, "value")?,
            (K::Float, false) if !wide => self.float32(d, "value")?,
            (K::Float, _) => self.float64(d, "value")?,
            (K::String | K::StringName, _) => {
                self.string(d, "text", "the text")?;
            }
            (K::NodePath, _) => {
                let names = u16::from_le_bytes(self.take(2)?.try_into().unwrap());
                self.line(at, d, "names", names.to_string(), "u16: how many names");
                let at = self.at;
                let sub = u16::from_le_bytes(self.take(2)?.try_into().unwrap());
                let value = format!(
                    "{} ({})",
                    sub & 0x7fff,
                    if sub & 0x8000 != 0 {
                        "absolute"
                    } else {
                        "relative"
                    }
                );
                self.line(
                    at,
                    d,
                    "subnames",
                    value,
                    "u16: how many subnames; top bit: absolute",
                );
                let extra = usize::from(layout::NODEPATH_PROPERTY.holds(self.format));
                for i in 0..usize::from(names) + usize::from(sub & 0x7fff) + extra {
                    let at = self.at;
                    let name = self.name()?;
                    self.line(
                        at,
                        d,
                        &format!("[{i}]"),
                        name,
                        "u32: string table index (top bit: inline string)",
                    );
                }
            }
            (K::Rid, _) => {
                self.u32_line(d, "value", "the RID")?;
            }
            (K::Object, _) => self.object(d)?,
            (K::Dictionary, _) => {
                let n = self.count_line(d, "count", 8)? & 0x7fff_ffff;
                self.elements(d, n, |w, i| {
                    w.value(d, &format!("[{i}] key"), nest + 1)?;
                    w.value(d, &format!("[{i}] value"), nest + 1)
                })?;
            }
            (K::Array, _) => {
                let n = self.count_line(d, "count", 4)? & 0x7fff_ffff;
                self.elements(d, n, |w, i| w.value(d, &format!("[{i}]"), nest + 1))?;
            }
            (K::PackedByteArray, _) => {
                let n = self.count_line(d, "count", 1)?;
                let at = self.at;
                let raw = self.take(n)?;
                if n > 0 {
                    self.line(at, d, "bytes", hex_preview(raw), "the bytes");
                }
                let at = self.at;
                self.take((4 - n % 4) % 4)?;
                if self.at > at {
                    self.line(
                        at,
                        d,
                        "pad",
                        "padding".into(),
                        "zero padding to a multiple of 4",
                    );
                }
            }
            (K::PackedInt32Array, _) => self.packed(d, 4, |w, i| w.int32(d, &format!("[{i}]")))?,
            (K::PackedInt64Array, _) => self.packed(d, 8, |w, i| w.int64(d, &format!("[{i}]")))?,
            (K::PackedFloat32Array, _) => {
                self.packed(d, 4, |w, i| w.float32(d, &format!("[{i}]")))?
            }
            (K::PackedFloat64Array, _) => {
                self.packed(d, 8, |w, i| w.float64(d, &format!("[{i}]")))?
            }
            (K::PackedStringArray, _) => self.packed(d, 4, |w, i| {
                w.string(d, &format!("[{i}]"), "an element").map(|_| ())
            })?,
            (K::PackedVector2Array, _) => self.packed_fixed::<crate::math::Vector2>(d, wide)?,
            (K::PackedVector3Array, _) => self.packed_fixed::<crate::math::Vector3>(d, wide)?,
            (K::PackedVector4Array, _) => self.packed_fixed::<crate::math::Vector4>(d, wide)?,
            (K::PackedColorArray, _) => self.packed_fixed::<crate::math::Color>(d, false)?,
            (other, _) => return Err(err(at, format!("type {id} ({other:?}) is not read"))),
        }
        Ok(())
    }

    fn int32(&mut self, d: usize, field: &str) -> Result<(), ResourceError> {
        let at = self.at;
        let v = self.u32()? as i32;
        self.line(at, d, field, v.to_string(), "i32");
        Ok(())
    }
    fn int64(&mut self, d: usize, field: &str) -> Result<(), ResourceError> {
        let at = self.at;
        let v = self.u64()? as i64;
        self.line(at, d, field, v.to_string(), "i64");
        Ok(())
    }
    fn float32(&mut self, d: usize, field: &str) -> Result<(), ResourceError> {
        let at = self.at;
        let v = f32::from_bits(self.u32()?);
        self.line(at, d, field, format!("{v:?}"), "f32");
        Ok(())
    }
    fn float64(&mut self, d: usize, field: &str) -> Result<(), ResourceError> {
        let at = self.at;
        let v = f64::from_bits(self.u64()?);
        self.line(at, d, field, format!("{v:?}"), "f64");
        Ok(())
    }

    /// `n` elements: each walked, the first `max_elements` listed, one line for the rest.
    fn elements(
        &mut self,
        d: usize,
        n: usize,
        mut one: impl FnMut(&mut Self, usize) -> Result<(), ResourceError>,
    ) -> Result<(), ResourceError> {
        let mut hidden_from = None;
        for i in 0..n {
            if i == self.max_elements {
                hidden_from = Some(self.at);
                self.hidden += 1;
            }
            one(self, i)?;
        }
        if let Some(from) = hidden_from {
            self.hidden -= 1;
            let more = n - self.max_elements;
            self.line(
                from,
                d,
                "…",
                format!("{more} more element(s)"),
                "not listed (--all lists them)",
            );
        }
        Ok(())
    }

    fn packed(
        &mut self,
        d: usize,
        each: usize,
        one: impl FnMut(&mut Self, usize) -> Result<(), ResourceError>,
    ) -> Result<(), ResourceError> {
        let n = self.count_line(d, "count", each)?;
        self.elements(d, n, one)
    }

    fn packed_fixed<T: FixedLayout>(&mut self, d: usize, wide: bool) -> Result<(), ResourceError> {
        let reals = storage::<T>(wide);
        self.packed(d, T::size(wide), |w, i| {
            let at = w.at;
            let raw = w.take(T::size(wide))?;
            let v = T::read(raw, wide).into_variant();
            w.line(at, d, &format!("[{i}]"), v.to_string(), reals);
            Ok(())
        })
    }

    /// An object property: a reference to another resource (0 none, 1 external by path,
    /// 2 internal, 3 external by index).
    fn object(&mut self, d: usize) -> Result<(), ResourceError> {
        let at = self.at;
        let k = self.u32()?;
        let what = match k {
            0 => "none",
            1 => "external resource by type and path",
            2 => "internal resource",
            3 => "external resource by index",
            _ => return Err(err(at, format!("object kind {k} is not read"))),
        };
        self.line(
            at,
            d,
            "kind",
            format!("{k} ({what})"),
            "u32: how the object is stored",
        );
        match k {
            1 => {
                self.string(d, "type", "its class")?;
                self.string(d, "path", "its path")?;
            }
            2 if layout::SUB_RESOURCE_BY_POSITION.holds(self.format) => {
                self.u32_line(d, "index", "position in the internal resource table")?;
            }
            2 => {
                self.u32_line(d, "index", "the resource's local number (local://N)")?;
            }
            3 => {
                self.u32_line(d, "index", "position in the external resource table")?;
            }
            _ => {}
        }
        Ok(())
    }
}

/// How a fixed kind's scalars are stored: `i32`s, `f32`s or reals of the file's width.
fn storage<T: FixedLayout>(wide: bool) -> &'static str {
    let comps = T::COMPONENTS;
    if comps.iter().all(|c| matches!(c.scalar, Scalar::I32)) {
        "i32 components"
    } else if comps.iter().any(|c| matches!(c.scalar, Scalar::Real)) {
        if wide {
            "f64 components (64-bit reals)"
        } else {
            "f32 components"
        }
    } else {
        "f32 components"
    }
}
