//! Writing `.res` files as `ResourceFormatSaverBinaryInstance::save` and `write_variant`
//! do (core/io/resource_format_binary.cpp).

use super::binary::{id_of, FLAG_REAL_T_IS_DOUBLE, RESERVED_FIELDS};
use super::{BinaryHeader, Resource, ResourceError, ResourceFile};
use crate::generated::kinds::Kind;
use crate::text::reference_of;
use crate::variant::layout::{fits_f32, FixedLayout};
use crate::variant::value::with_fixed;
use crate::variant::Variant;

struct Writer<'a> {
    out: Vec<u8>,
    wide: bool,
    godot4: bool,
    format: u32,
    strings: Vec<String>,
    file: &'a ResourceFile,
}

impl Writer<'_> {
    fn u32(&mut self, v: u32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    /// `save_unicode_string`: the length counts a final NUL, which is written.
    fn string(&mut self, s: &str) {
        self.u32(s.len() as u32 + 1);
        self.out.extend_from_slice(s.as_bytes());
        self.out.push(0);
    }
    fn string_index(&mut self, s: &str) -> u32 {
        match self.strings.iter().position(|x| x == s) {
            Some(i) => i as u32,
            None => {
                self.strings.push(s.to_string());
                self.strings.len() as u32 - 1
            }
        }
    }

    fn reference(&mut self, class: &str, id: &Variant) -> Result<(), ResourceError> {
        // Godot 3 refers to a sub-resource by its own number (`local://N`).
        if let (false, Variant::Int(n)) = (self.godot4, id) {
            if class == "SubResource" {
                self.tag(Kind::Object, false)?;
                self.u32(2);
                self.u32(*n as u32);
                return Ok(());
            }
        }
        let (kind, index) = if class == "ExtResource" {
            (3, self.file.ext_resources.iter().position(|e| &e.id == id))
        } else {
            (2, self.file.sub_resources.iter().position(|r| &r.id == id))
        };
        let index = index.ok_or_else(|| {
            ResourceError::Unsupported(format!("{class}({id:?}) refers to no section of the file"))
        })?;
        self.tag(Kind::Object, false)?;
        self.u32(kind);
        self.u32(index as u32);
        Ok(())
    }

    fn variant(&mut self, v: &Variant) -> Result<(), ResourceError> {
        if let Some((class, id)) = reference_of(v) {
            return self.reference(class, id);
        }
        let kind = v.kind();
        let wide = self.wide;
        if v.as_fixed().is_some() {
            self.tag(kind, false)?;
            with_fixed!(kind, T => T::from_value(v).expect("kind checked").write(wide, &mut self.out), _ => {});
            return Ok(());
        }
        match v {
            Variant::Nil => self.u32(1),
            Variant::Bool(b) => {
                self.tag(Kind::Bool, false)?;
                self.u32(u32::from(*b));
            }
            Variant::Int(i) if i32::try_from(*i).is_ok() => {
                self.tag(Kind::Int, false)?;
                self.u32(*i as i32 as u32);
            }
            Variant::Int(i) => {
                self.tag(Kind::Int, true)?;
                self.u64(*i as u64);
            }
            // A double is written as VARIANT_FLOAT when f32 holds it (`write_variant`).
            Variant::Float(f) if fits_f32(*f) && !self.wide => {
                self.tag(Kind::Float, false)?;
                self.u32((*f as f32).to_bits());
            }
            Variant::Float(f) => {
                self.tag(Kind::Float, true)?;
                self.u64(f.to_bits());
            }
            Variant::String(s) => {
                self.tag(Kind::String, false)?;
                self.string(s);
            }
            Variant::StringName(s) => {
                self.tag(Kind::StringName, false)?;
                self.string(&s.0);
            }
            Variant::NodePath(p) => {
                self.tag(Kind::NodePath, false)?;
                self.out
                    .extend_from_slice(&(p.names.len() as u16).to_le_bytes());
                let sub = p.subnames.len() as u16 | if p.absolute { 0x8000 } else { 0 };
                self.out.extend_from_slice(&sub.to_le_bytes());
                // Names in the string table by index, others inline with the top bit set.
                for name in p.names.iter().chain(&p.subnames) {
                    match self.strings.iter().position(|x| x == name.as_str()) {
                        Some(i) => self.u32(i as u32),
                        None => {
                            self.u32((name.len() as u32 + 1) | 0x8000_0000);
                            self.out.extend_from_slice(name.as_bytes());
                            self.out.push(0);
                        }
                    }
                }
            }
            Variant::Rid(r) => {
                self.tag(Kind::Rid, false)?;
                self.u32(*r as u32);
            }
            Variant::Object(_) => {
                self.tag(Kind::Object, false)?;
                self.u32(0);
            }
            Variant::Callable => self.u32(42),
            Variant::Signal(_) => self.u32(43),
            Variant::Dictionary(d) => {
                self.tag(Kind::Dictionary, false)?;
                self.u32(d.len() as u32);
                for (k, v) in d.iter() {
                    self.variant(k)?;
                    self.variant(v)?;
                }
            }
            Variant::Array(a) => {
                self.tag(Kind::Array, false)?;
                self.u32(a.items.len() as u32);
                for item in &a.items {
                    self.variant(item)?;
                }
            }
            Variant::PackedByteArray(b) => {
                self.tag(Kind::PackedByteArray, false)?;
                self.u32(b.len() as u32);
                self.out.extend_from_slice(b);
                self.out.resize(self.out.len() + (4 - b.len() % 4) % 4, 0);
            }
            Variant::PackedInt32Array(a) => {
                self.tag(Kind::PackedInt32Array, false)?;
                self.u32(a.len() as u32);
                a.iter().for_each(|x| self.u32(*x as u32));
            }
            Variant::PackedInt64Array(a) => {
                self.tag(Kind::PackedInt64Array, false)?;
                self.u32(a.len() as u32);
                a.iter().for_each(|x| self.u64(*x as u64));
            }
            Variant::PackedFloat32Array(a) => {
                self.tag(Kind::PackedFloat32Array, false)?;
                self.u32(a.len() as u32);
                a.iter().for_each(|x| self.u32(x.to_bits()));
            }
            Variant::PackedFloat64Array(a) => {
                self.tag(Kind::PackedFloat64Array, false)?;
                self.u32(a.len() as u32);
                a.iter().for_each(|x| self.u64(x.to_bits()));
            }
            Variant::PackedStringArray(a) => {
                self.tag(Kind::PackedStringArray, false)?;
                self.u32(a.len() as u32);
                a.iter().for_each(|s| self.string(s));
            }
            Variant::PackedVector2Array(a) => {
                self.packed(Kind::PackedVector2Array, a, self.wide)?
            }
            Variant::PackedVector3Array(a) => {
                self.packed(Kind::PackedVector3Array, a, self.wide)?
            }
            Variant::PackedColorArray(a) => self.packed(Kind::PackedColorArray, a, false)?,
            Variant::PackedVector4Array(a) => {
                self.packed(Kind::PackedVector4Array, a, self.wide)?
            }
            other => {
                return Err(ResourceError::Unsupported(format!(
                    "a {:?} cannot be stored in a binary resource",
                    other.kind()
                )))
            }
        }
        Ok(())
    }

    /// Writes the type id of `kind` (its 64-bit form's with `wide`), refused when the
    /// file's format has no such type.
    fn tag(&mut self, kind: Kind, wide: bool) -> Result<(), ResourceError> {
        let (id, wide_id) = id_of(kind, self.format).ok_or_else(|| {
            ResourceError::Unsupported(format!(
                "a {kind:?} cannot be stored in a format {} binary resource",
                self.format
            ))
        })?;
        self.u32(if wide { wide_id } else { id });
        Ok(())
    }

    fn packed<T: FixedLayout>(
        &mut self,
        kind: Kind,
        a: &[T],
        wide: bool,
    ) -> Result<(), ResourceError> {
        self.tag(kind, false)?;
        self.u32(a.len() as u32);
        a.iter().for_each(|x| x.write(wide, &mut self.out));
        Ok(())
    }
}

/// Writes a `.res` file with header `h`.
pub(super) fn write(file: &ResourceFile, h: &BinaryHeader) -> Result<Vec<u8>, ResourceError> {
    let mut w = Writer {
        out: b"RSRC".to_vec(),
        wide: h.real64 || h.flags & FLAG_REAL_T_IS_DOUBLE != 0,
        godot4: h.format >= 4,
        format: h.format,
        strings: h.strings.clone(),
        file,
    };
    let all: Vec<&Resource> = file.sub_resources.iter().chain([&file.main]).collect();
    // The names the properties need, in the order the engine meets them.
    for r in &all {
        for (name, _) in &r.properties {
            w.string_index(name);
        }
    }
    w.u32(0);
    w.u32(u32::from(h.real64));
    w.u32(h.major);
    w.u32(h.minor);
    w.u32(h.format);
    w.string(&file.class);
    w.u64(h.import_metadata_offset);
    if h.format >= 4 {
        let mut flags = h.flags & !super::binary::FLAG_HAS_SCRIPT_CLASS;
        if file.script_class.is_some() {
            flags |= super::binary::FLAG_HAS_SCRIPT_CLASS;
        }
        w.u32(flags);
        w.u64(h.uid);
        if let Some(sc) = &file.script_class {
            w.string(sc);
        }
        w.out.resize(w.out.len() + RESERVED_FIELDS * 4, 0);
    } else {
        w.out.resize(w.out.len() + 14 * 4, 0);
    }
    let strings = w.strings.clone();
    w.u32(strings.len() as u32);
    strings.iter().for_each(|s| w.string(s));
    w.u32(file.ext_resources.len() as u32);
    let uids = h.format >= 4 && h.flags & 2 != 0;
    for e in &file.ext_resources {
        w.string(&e.class);
        w.string(&e.path);
        if uids {
            w.u64(
                e.uid
                    .as_deref()
                    .and_then(super::uid::text_to_id)
                    .unwrap_or(u64::MAX),
            );
        }
    }
    w.u32(all.len() as u32);
    let mut slots = Vec::with_capacity(all.len());
    for r in &all {
        let id = match &r.id {
            Variant::String(s) if s.contains("://") => s.to_string(),
            Variant::String(s) => format!("local://{s}"),
            Variant::Int(n) => format!("local://{n}"),
            other => format!(
                "local://{}",
                crate::text::to_text(other, crate::Dialect::Godot4)
            ),
        };
        w.string(&id);
        slots.push(w.out.len());
        w.u64(0);
    }
    for (r, slot) in all.iter().zip(slots) {
        let at = w.out.len() as u64;
        w.out[slot..slot + 8].copy_from_slice(&at.to_le_bytes());
        w.string(&r.class);
        w.u32(r.properties.len() as u32);
        for (name, value) in &r.properties {
            let i = w.string_index(name);
            w.u32(i);
            w.variant(value)?;
        }
    }
    w.out.extend_from_slice(b"RSRC");
    Ok(w.out)
}
