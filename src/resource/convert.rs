//! Converting resource files: `.tres` ↔ `.res` of one engine (what `ResourceSaver.save`
//! does with either extension) and Godot 3 → Godot 4 saves, with a report of what changed
//! and what the target cannot hold.

use super::{uid, BinaryHeader, Encoding, Resource, ResourceFile, TextWriter};
use crate::dialect::Dialect;
use crate::migrate::{migrate_in_place, Report, Target};
use crate::text::{reference_of, resource_reference};
use crate::variant::Variant;

/// Godot 3 resource classes that Godot 4 renamed (the engine's project converter,
/// editor/project_converter_3_to_4 `class_renames`, the resource ones).
const CLASS_RENAMES: &[(&str, &str)] = &[
    ("DynamicFont", "FontFile"),
    ("DynamicFontData", "FontFile"),
    ("GradientTexture", "GradientTexture1D"),
    ("ParticlesMaterial", "ParticleProcessMaterial"),
    ("SpatialMaterial", "StandardMaterial3D"),
    ("StreamTexture", "CompressedTexture2D"),
    ("Texture", "Texture2D"),
    ("TextureArray", "Texture2DArray"),
    ("CubeMesh", "BoxMesh"),
    ("PoolByteArray", "PackedByteArray"),
];

/// One class renamed by a migration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassRename {
    /// The Godot 3 name.
    pub from: String,
    /// The Godot 4 name.
    pub to: String,
}

/// What [`ResourceFile::migrate_to_godot4`] did: classes renamed, and the values report of
/// [`crate::migrate`] (losses with their paths, `main.stats["k"]`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Migration {
    /// Each class renamed, once per section.
    pub renamed: Vec<ClassRename>,
    /// The values' report.
    pub values: Report,
}

fn rename(class: &mut String, out: &mut Vec<ClassRename>) {
    if let Some((from, to)) = CLASS_RENAMES.iter().find(|(f, _)| f == class) {
        out.push(ClassRename {
            from: from.to_string(),
            to: to.to_string(),
        });
        *class = to.to_string();
    }
}

/// Rewrites every reference in `v` with `map`.
fn map_references(v: &mut Variant, map: &dyn Fn(&str, &Variant) -> Variant) {
    if let Some((class, id)) = reference_of(v) {
        let class = class.to_string();
        let id = map(&class, id);
        *v = resource_reference(&class, id);
        return;
    }
    match v {
        Variant::Array(a) => a.items.iter_mut().for_each(|x| map_references(x, map)),
        // A reference is never a key (a resource is not hashed by id in a save).
        Variant::Dictionary(d) => d.values_mut().for_each(|x| map_references(x, map)),
        _ => {}
    }
}

impl ResourceFile {
    /// Whether the file is Godot 3's (text `format=2` and below, binary engine major 3).
    pub fn is_godot3(&self) -> bool {
        match &self.encoding {
            Encoding::Text { format, .. } => *format < 3,
            Encoding::Binary(h) => h.major < 4,
        }
    }

    /// The same resources as a `.res` saved by engine `major.minor` (what
    /// `ResourceSaver.save` writes for a `.res` path); a binary file is returned as is.
    /// The string table is rebuilt in property order, so the bytes differ from the engine's
    /// where its table also lists properties left at their defaults; the engine reads both.
    pub fn to_binary(&self, major: u32, minor: u32) -> ResourceFile {
        let mut out = self.clone();
        let Encoding::Text { uid: text_uid, .. } = &self.encoding else {
            return out;
        };
        let godot3 = self.is_godot3();
        out.encoding = Encoding::Binary(BinaryHeader {
            major,
            minor,
            // resource_format_binary.cpp, FORMAT_VERSION: 3 in Godot 3, 5 in 4.0–4.2, 6 since.
            format: match (godot3, minor) {
                (true, _) => 3,
                (false, m) if m < 3 => 5,
                _ => 6,
            },
            real64: false,
            import_metadata_offset: 0,
            // FORMAT_FLAG_NAMED_SCENE_IDS | FORMAT_FLAG_UIDS, as `save` sets them.
            flags: if godot3 { 0 } else { 3 },
            big_endian: false,
            compressed: None,
            uid: text_uid
                .as_deref()
                .and_then(uid::text_to_id)
                .unwrap_or(u64::MAX),
            strings: Vec::new(),
        });
        // The binary file gives the main resource an id too.
        out.main.id = if godot3 {
            let last = self
                .sub_resources
                .iter()
                .filter_map(|r| match r.id {
                    Variant::Int(n) => Some(n),
                    _ => None,
                })
                .max()
                .unwrap_or(0);
            Variant::Int(last + 1)
        } else {
            Variant::String(format!("{}_main", self.main.class).into())
        };
        out
    }

    /// The same resources as a `.tres` (what `ResourceSaver.save` writes for a `.tres`
    /// path); a text file is returned as is.
    pub fn to_text(&self) -> ResourceFile {
        let mut out = self.clone();
        let Encoding::Binary(h) = &self.encoding else {
            return out;
        };
        out.encoding = Encoding::Text {
            format: if h.major < 4 { 2 } else { 3 },
            uid: ((h.uid as i64) >= 0 && h.format >= 4).then(|| uid::id_to_text(h.uid)),
            load_steps: true,
            writer: TextWriter::of_engine(h.major, h.minor),
        };
        out.main.id = Variant::Nil;
        out
    }

    /// A Godot 3 resource file as Godot 4 saves it, in the same encoding: text `format=3`
    /// or binary format 6 of 4.3, string ids, resource classes renamed, values migrated
    /// with [`crate::migrate`]. Scripts are referred to by path and not converted.
    pub fn migrate_to_godot4(&self) -> (ResourceFile, Migration) {
        let mut out = self.clone();
        let mut report = Migration::default();
        if !self.is_godot3() {
            return (out, report);
        }
        let sub_class: Vec<(Variant, String)> = self
            .sub_resources
            .iter()
            .map(|r| (r.id.clone(), r.class.clone()))
            .collect();
        let new_sub_id = move |id: &Variant| -> Variant {
            let class = sub_class
                .iter()
                .find(|(i, _)| i == id)
                .map_or("Resource", |(_, c)| c.as_str());
            let n = match id {
                Variant::Int(n) => n.to_string(),
                other => crate::text::to_text(other, Dialect::Godot4),
            };
            Variant::String(format!("{class}_{n}").into())
        };
        let to_string_id = |id: &Variant| match id {
            Variant::Int(n) => Variant::String(n.to_string().into()),
            other => other.clone(),
        };
        let map = |class: &str, id: &Variant| {
            if class == "SubResource" {
                new_sub_id(id)
            } else {
                to_string_id(id)
            }
        };
        for e in &mut out.ext_resources {
            e.id = to_string_id(&e.id);
            rename(&mut e.class, &mut report.renamed);
        }
        let from = Target::new(Dialect::Godot3, None);
        let to = Target::new(Dialect::Godot4, None);
        let sections = out.sub_resources.iter_mut().chain([&mut out.main]);
        for r in sections {
            if r.id != Variant::Nil && sub_class_has(&self.sub_resources, &r.id) {
                r.id = new_sub_id(&r.id);
            }
            rename(&mut r.class, &mut report.renamed);
            migrate_properties(r, &map, from, to, &mut report.values);
        }
        rename(&mut out.class, &mut Vec::new());
        out.encoding = match &out.encoding {
            Encoding::Text { uid, .. } => Encoding::Text {
                format: 3,
                uid: uid.clone(),
                load_steps: true,
                writer: TextWriter::default(),
            },
            Encoding::Binary(h) => Encoding::Binary(BinaryHeader {
                major: 4,
                minor: 3,
                format: 6,
                flags: 3,
                uid: u64::MAX,
                strings: Vec::new(),
                ..h.clone()
            }),
        };
        if let Encoding::Binary(_) = out.encoding {
            out.main.id = Variant::String(format!("{}_main", out.main.class).into());
        }
        (out, report)
    }
}

fn sub_class_has(subs: &[Resource], id: &Variant) -> bool {
    subs.iter().any(|r| &r.id == id)
}

fn migrate_properties(
    r: &mut Resource,
    map: &dyn Fn(&str, &Variant) -> Variant,
    from: Target,
    to: Target,
    report: &mut Report,
) {
    for (name, value) in &mut r.properties {
        map_references(value, map);
        let mut one = migrate_in_place(value, from, to);
        for loss in &mut one.losses {
            loss.path = format!("{name}{}", loss.path);
        }
        report.merge(one);
    }
}
