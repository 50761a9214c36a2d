//! `.res` files (`RSRC`): the header, string table, external and internal resource tables,
//! and properties in the binary resource encoding (core/io/resource_format_binary.cpp,
//! `ResourceLoaderBinary::open` / `parse_variant` and `ResourceFormatSaverBinaryInstance::
//! save` / `write_variant`, Godot 3.x and 4.x).

use super::{BinaryHeader, Encoding, ExtResource, Resource, ResourceError, ResourceFile};
use crate::generated::kinds::Kind;
use crate::text::resource_reference;
use crate::variant::layout::{FixedLayout, PackedLayout};
use crate::variant::value::{with_fixed, with_packed};
use crate::variant::{Array, Dictionary, GString, NodePath, StringName, Variant};

/// `ResourceFormatSaverBinaryInstance::RESERVED_FIELDS` (resource_format_binary.h).
pub(super) const RESERVED_FIELDS: usize = 11;
/// `FORMAT_FLAG_REAL_T_IS_DOUBLE` and `FORMAT_FLAG_HAS_SCRIPT_CLASS` (Godot 4).
pub(super) const FLAG_REAL_T_IS_DOUBLE: u32 = 4;
pub(super) const FLAG_HAS_SCRIPT_CLASS: u32 = 8;
/// The deepest nesting read (the engines' `MAX_RECURSION_DEPTH`).
const MAX_DEPTH: usize = 1024;

/// The binary resource encoding's type ids, generated from spec/resource_binary.yaml.
#[rustfmt::skip]
#[path = "../generated/resource_binary.rs"]
pub(crate) mod tables;
/// The header and external entry fields per format, and the rules (spec/resource_binary.yaml).
#[rustfmt::skip]
#[path = "../generated/resource_layout.rs"]
pub(crate) mod layout;

/// [`kind_of`], or the error of an unknown type id read at `at`.
pub(crate) fn type_at(id: u32, format: u32, at: usize) -> Result<(Kind, bool), ResourceError> {
    kind_of(id, format).ok_or_else(|| {
        err(
            at,
            format!("unknown binary resource type {id} in format {format}"),
        )
    })
}

/// The kind of type id `id` in format `format`, and whether the id is its 64-bit form.
fn kind_of(id: u32, format: u32) -> Option<(Kind, bool)> {
    tables::TYPES.iter().find_map(|&(kind, i, since, wide)| {
        if format < since {
            None
        } else if i == id {
            Some((kind, false))
        } else if wide == Some(id) && layout::WIDE_NUMBERS.holds(format) {
            Some((kind, true))
        } else {
            None
        }
    })
}

/// The type id of `kind` in format `format`, and the id of its 64-bit form.
pub(super) fn id_of(kind: Kind, format: u32) -> Option<(u32, u32)> {
    tables::TYPES
        .iter()
        .find(|&&(k, _, since, _)| k == kind && format >= since)
        .map(|&(_, id, _, wide)| (id, wide.unwrap_or(id)))
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
    real64: bool,
    /// Fields after the first are big-endian (`FLAG_SAVE_BIG_ENDIAN`).
    be: bool,
    format: u32,
    strings: Vec<String>,
    ext_ids: Vec<Variant>,
    sub_ids: Vec<Variant>,
}

pub(crate) fn err(offset: usize, message: impl Into<String>) -> ResourceError {
    ResourceError::Binary {
        offset,
        message: message.into(),
    }
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], ResourceError> {
        let s = self
            .at
            .checked_add(n)
            .and_then(|end| self.b.get(self.at..end))
            .ok_or_else(|| {
                err(
                    self.at,
                    format!(
                        "{n} bytes needed, {} left",
                        self.b.len() - self.at.min(self.b.len())
                    ),
                )
            })?;
        self.at += n;
        Ok(s)
    }
    /// `N` bytes as a little-endian number's bytes, whatever the file's byte order.
    fn word<const N: usize>(&mut self) -> Result<[u8; N], ResourceError> {
        let mut b: [u8; N] = self.take(N)?.try_into().unwrap();
        if self.be {
            b.reverse();
        }
        Ok(b)
    }
    fn u32(&mut self) -> Result<u32, ResourceError> {
        Ok(u32::from_le_bytes(self.word()?))
    }
    fn u64(&mut self) -> Result<u64, ResourceError> {
        Ok(u64::from_le_bytes(self.word()?))
    }
    fn u16(&mut self) -> Result<u16, ResourceError> {
        Ok(u16::from_le_bytes(self.word()?))
    }
    /// A count of items of at least `each` bytes, refused when the rest cannot hold them
    /// (so that a corrupt count allocates nothing).
    fn count(&mut self, each: usize) -> Result<usize, ResourceError> {
        let at = self.at;
        let n = self.u32()? as usize;
        if n.saturating_mul(each) > self.b.len() - self.at {
            return Err(err(
                at,
                format!("count {n} is larger than the rest of the file"),
            ));
        }
        Ok(n)
    }
    /// `get_unicode_string`: a length counting the final NUL, then UTF-8.
    fn string(&mut self) -> Result<String, ResourceError> {
        let at = self.at;
        let len = self.u32()? as usize;
        let raw = self.take(len)?;
        let raw = raw.split(|&c| c == 0).next().unwrap_or_default();
        String::from_utf8(raw.to_vec()).map_err(|_| err(at, "string is not UTF-8"))
    }
    /// `_get_string`: a string table index, or an inline string with the top bit set.
    fn table_string(&mut self) -> Result<String, ResourceError> {
        let at = self.at;
        let id = self.u32()?;
        if id & 0x8000_0000 != 0 {
            let raw = self.take((id & 0x7fff_ffff) as usize)?;
            let raw = raw.split(|&c| c == 0).next().unwrap_or_default();
            return String::from_utf8(raw.to_vec()).map_err(|_| err(at, "string is not UTF-8"));
        }
        self.strings.get(id as usize).cloned().ok_or_else(|| {
            err(
                at,
                format!(
                    "string index {id} out of range (table of {})",
                    self.strings.len()
                ),
            )
        })
    }
    fn padding(&mut self, len: usize) -> Result<(), ResourceError> {
        self.take((4 - len % 4) % 4).map(|_| ())
    }
    fn fixed<T: FixedLayout>(&mut self, wide: bool) -> Result<T, ResourceError> {
        let raw = self.take(T::size(wide))?;
        if self.be {
            let mut le = raw.to_vec();
            swap_words(&mut le, word_size::<T>(wide));
            return Ok(T::read(&le, wide));
        }
        Ok(T::read(raw, wide))
    }
    fn packed<T: PackedLayout>(&mut self, wide: bool) -> Result<Variant, ResourceError> {
        let n = self.count(T::size(wide))?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(self.fixed::<T>(wide)?);
        }
        Ok(T::pack(v))
    }

    fn variant(&mut self, depth: usize) -> Result<Variant, ResourceError> {
        let at = self.at;
        if depth > MAX_DEPTH {
            return Err(err(at, format!("nesting deeper than {MAX_DEPTH}")));
        }
        let id = self.u32()?;
        let wide = self.real64;
        let (kind, long) = type_at(id, self.format, at)?;
        if let Some(v) =
            with_fixed!(kind, T => Some(self.fixed::<T>(wide)?.into_variant()), _ => None)
        {
            return Ok(v);
        }
        // A packed array of a fixed type is its count, then each element as that type is
        // stored on its own (a Color's floats stay 32-bit in a 64-bit file, as its layout
        // says).
        if let Some(v) = with_packed!(kind, T => Some(self.packed::<T>(wide)?), _ => None) {
            return Ok(v);
        }
        use Kind as K;
        Ok(match (kind, long) {
            (K::Nil, _) => Variant::Nil,
            (K::Bool, _) => Variant::Bool(self.u32()? != 0),
            (K::Int, false) => Variant::Int(i64::from(self.u32()? as i32)),
            (K::Int, true) => Variant::Int(self.u64()? as i64),
            (K::Float, false) if wide => Variant::Float(f64::from_bits(self.u64()?)),
            (K::Float, false) => Variant::Float(f64::from(f32::from_bits(self.u32()?))),
            (K::Float, true) => Variant::Float(f64::from_bits(self.u64()?)),
            (K::String, _) => Variant::String(self.string()?.into()),
            (K::StringName, _) => Variant::StringName(StringName(self.string()?.into())),
            (K::NodePath, _) => {
                let names = self.u16()? as usize;
                let sub = self.u16()?;
                let absolute = sub & 0x8000 != 0;
                // Before format 3 a NodePath had a property name after its subnames.
                let subs = (sub & 0x7fff) as usize + usize::from(self.format < 3);
                let mut path = NodePath {
                    absolute,
                    ..Default::default()
                };
                for _ in 0..names {
                    path.names.push(self.table_string()?.into());
                }
                for _ in 0..subs {
                    path.subnames.push(self.table_string()?.into());
                }
                Variant::NodePath(Box::new(path))
            }
            (K::Rid, _) => Variant::Rid(u64::from(self.u32()?)),
            (K::Object, _) => {
                let kind_at = self.at;
                match self.u32()? {
                    0 => Variant::Nil,
                    // Godot 3 (before format 4) writes the sub-resource's own number (its
                    // `local://N`), Godot 4 its position in the table.
                    2 if self.format < 4 => {
                        resource_reference("SubResource", Variant::Int(i64::from(self.u32()?)))
                    }
                    2 => {
                        let i = self.u32()? as usize;
                        let id = self.sub_ids.get(i).cloned().ok_or_else(|| {
                            err(kind_at + 4, format!("internal resource {i} out of range"))
                        })?;
                        resource_reference("SubResource", id)
                    }
                    3 => {
                        let i = self.u32()? as usize;
                        let id = self.ext_ids.get(i).cloned().ok_or_else(|| {
                            err(kind_at + 4, format!("external resource {i} out of range"))
                        })?;
                        resource_reference("ExtResource", id)
                    }
                    k => return Err(err(kind_at, format!("object kind {k} is not read"))),
                }
            }
            (K::Callable, _) => Variant::Callable,
            (K::Signal, _) => Variant::Signal(Default::default()),
            (K::Dictionary, _) => {
                let n = self.count(8)? & 0x7fff_ffff;
                let mut d = Dictionary::new();
                for _ in 0..n {
                    let k = self.variant(depth + 1)?;
                    let v = self.variant(depth + 1)?;
                    d.insert(k, v);
                }
                Variant::Dictionary(d)
            }
            (K::Array, _) => {
                let n = self.count(4)? & 0x7fff_ffff;
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    items.push(self.variant(depth + 1)?);
                }
                Variant::Array(Array::new(items))
            }
            (K::PackedByteArray, _) => {
                let n = self.count(1)?;
                let v = self.take(n)?.to_vec();
                self.padding(n)?;
                Variant::PackedByteArray(v)
            }
            (K::PackedInt32Array, _) => {
                let n = self.count(4)?;
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    v.push(self.u32()? as i32);
                }
                Variant::PackedInt32Array(v)
            }
            (K::PackedInt64Array, _) => {
                let n = self.count(8)?;
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    v.push(self.u64()? as i64);
                }
                Variant::PackedInt64Array(v)
            }
            (K::PackedFloat32Array, _) => {
                let n = self.count(4)?;
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    v.push(f32::from_bits(self.u32()?));
                }
                Variant::PackedFloat32Array(v)
            }
            (K::PackedFloat64Array, _) => {
                let n = self.count(8)?;
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    v.push(f64::from_bits(self.u64()?));
                }
                Variant::PackedFloat64Array(v)
            }
            (K::PackedStringArray, _) => {
                let n = self.count(4)?;
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    v.push(GString::from(self.string()?));
                }
                Variant::PackedStringArray(v)
            }
            (other, _) => return Err(err(at, format!("type {id} ({other:?}) is not read"))),
        })
    }
}

/// The id a `.res` gives internal resource `path`: `local://Resource_x` → `"Resource_x"`
/// (Godot 4), `local://2` → `2` (Godot 3, whose text ids are ints too).
pub(super) fn sub_id(path: &str, format: u32) -> Variant {
    let id = path.strip_prefix("local://").unwrap_or(path);
    match id.parse::<i64>() {
        Ok(n) if format < 4 => Variant::Int(n),
        _ => Variant::String(id.into()),
    }
}

/// The id of external resource `i` (from 0): `"1"`… in Godot 4, `1`… in Godot 3.
pub(super) fn ext_id(i: usize, format: u32) -> Variant {
    if format < 4 {
        Variant::Int(i as i64 + 1)
    } else {
        Variant::String((i + 1).to_string().into())
    }
}

/// The size of the scalars `T` is made of: 8 for reals in a 64-bit file, else 4 (every
/// fixed type is one scalar type throughout).
pub(super) fn word_size<T: FixedLayout>(wide: bool) -> usize {
    if wide && T::size(true) != T::size(false) {
        8
    } else {
        4
    }
}

/// Reverses the byte order of each `word`-byte scalar of `b` in place.
pub(super) fn swap_words(b: &mut [u8], word: usize) {
    b.chunks_exact_mut(word).for_each(<[u8]>::reverse);
}

/// Reads a `.res` file: `b` opens with its 4-byte magic, and the resource offsets it
/// stores count from `shift` bytes in (4 in a compressed file, whose stream starts after
/// the magic).
pub(super) fn read(b: &[u8], shift: usize) -> Result<ResourceFile, ResourceError> {
    let mut r = Reader {
        b,
        at: 4,
        real64: false,
        be: false,
        format: 0,
        strings: Vec::new(),
        ext_ids: Vec::new(),
        sub_ids: Vec::new(),
    };
    // The flag is written before the file turns big-endian (`save`: `store_32(1)` then
    // `set_big_endian(true)`), so it is little-endian either way; the engine reads any
    // non-zero value as big-endian (`ResourceLoaderBinary::open`).
    let big_endian = match r.u32()? {
        0 => false,
        1 => true,
        other => {
            return Err(err(
                4,
                format!("big-endian flag {other} is neither 0 nor 1"),
            ))
        }
    };
    r.be = big_endian;
    let real64 = r.u32()? != 0;
    let major = r.u32()?;
    let minor = r.u32()?;
    let format = r.u32()?;
    if major > 4 || format > tables::NEWEST_FORMAT {
        return Err(err(
            12,
            format!("engine {major}.{minor}, format {format}: newer than known"),
        ));
    }
    r.format = format;
    let class = r.string()?;
    let import_metadata_offset = r.u64()?;
    // Godot 3 has 14 reserved fields after the import offset; Godot 4 (format 4+) puts the
    // flags and UID in the first three and a script class after them when flagged.
    let (mut flags, mut uid, mut script_class) = (0, u64::MAX, None);
    if format >= 4 {
        flags = r.u32()?;
        uid = r.u64()?;
        if flags & FLAG_HAS_SCRIPT_CLASS != 0 {
            script_class = Some(r.string()?);
        }
        r.take(RESERVED_FIELDS * 4)?;
    } else {
        r.take(14 * 4)?;
    }
    r.real64 = real64 || flags & FLAG_REAL_T_IS_DOUBLE != 0;
    let n = r.count(4)?;
    let mut strings = Vec::with_capacity(n);
    for _ in 0..n {
        strings.push(r.string()?);
    }
    r.strings = strings.clone();
    let uids = format >= 4 && flags & 2 != 0;
    let n = r.count(8)?;
    let mut ext_resources = Vec::with_capacity(n);
    for i in 0..n {
        let class = r.string()?;
        let path = r.string()?;
        let ext_uid = if uids { Some(r.u64()?) } else { None };
        ext_resources.push(ExtResource {
            class,
            path,
            uid: ext_uid
                .filter(|&u| (u as i64) >= 0)
                .map(super::uid::id_to_text),
            id: ext_id(i, format),
        });
    }
    r.ext_ids = ext_resources.iter().map(|e| e.id.clone()).collect();
    let n = r.count(12)?;
    let mut table = Vec::with_capacity(n);
    for _ in 0..n {
        let path = r.string()?;
        let at = r.at;
        table.push((path, r.u64()?, at));
    }
    if table.is_empty() {
        return Err(err(r.at, "no internal resources"));
    }
    r.sub_ids = table.iter().map(|(p, _, _)| sub_id(p, format)).collect();
    let mut resources = Vec::with_capacity(table.len());
    for (path, offset, at) in &table {
        let offset = &offset.saturating_add(shift as u64);
        if *offset >= b.len() as u64 {
            return Err(err(
                *at,
                format!("resource offset {offset:#x} is past the end"),
            ));
        }
        r.at = *offset as usize;
        let class = r.string()?;
        let n = r.count(8)?;
        let mut properties = Vec::with_capacity(n);
        for _ in 0..n {
            let name = r.table_string()?;
            let value = r.variant(0)?;
            super::tres::set_property(&mut properties, name, value);
        }
        resources.push(Resource {
            class,
            id: sub_id(path, format),
            properties,
        });
    }
    let main = resources.pop().expect("checked non-empty");
    Ok(ResourceFile {
        class,
        script_class,
        encoding: Encoding::Binary(BinaryHeader {
            major,
            minor,
            format,
            real64,
            import_metadata_offset,
            flags,
            uid,
            strings,
            big_endian,
            compressed: None,
        }),
        ext_resources,
        sub_resources: resources,
        main,
        scene: Vec::new(),
    })
}

/// The binary format versions known (spec/resource_binary.yaml): version, the first engine
/// that writes it, and what it changed.
pub(super) fn formats() -> &'static [(u32, &'static str, &'static str)] {
    tables::FORMATS
}
