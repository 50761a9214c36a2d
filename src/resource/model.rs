//! A resource file as one Variant (a Dictionary) and back: the form `gdvariant decode`
//! prints (text or lossless JSON), `encode` reads and the Python package hands out. It
//! holds every header field, so an unedited engine file writes back byte for byte.

use super::{
    BinaryHeader, Compressed, Encoding, ExtResource, Resource, ResourceError, ResourceFile,
    SceneSection, TextWriter,
};
use crate::variant::{Array, Dictionary, Variant};

fn dict(entries: Vec<(&str, Variant)>) -> Variant {
    Variant::Dictionary(
        entries
            .into_iter()
            .map(|(k, v)| (Variant::from(k), v))
            .collect(),
    )
}

fn opt(s: &Option<String>) -> Variant {
    s.as_deref().map_or(Variant::Nil, Variant::from)
}

fn properties(list: &[(String, Variant)]) -> Variant {
    Variant::Dictionary(
        list.iter()
            .map(|(k, v)| (Variant::from(k.as_str()), v.clone()))
            .collect::<Dictionary>(),
    )
}

fn resource(r: &Resource) -> Variant {
    dict(vec![
        ("class", r.class.as_str().into()),
        ("id", r.id.clone()),
        ("properties", properties(&r.properties)),
    ])
}

impl ResourceFile {
    /// The file as a Dictionary: `class`, `script_class`, `encoding` (`kind` `"text"` with
    /// `format`, `uid`, `load_steps`, or `"binary"` with `major`, `minor`, `format`,
    /// `real64`, `import_metadata_offset`, `flags`, `uid`, the `strings` table,
    /// `big_endian` and `compressed`: null or `mode` and `block_size`), `ext_resources`
    /// (each `class`, `path`, `uid`, `id`), `sub_resources` and `main` (each `class`, `id`,
    /// and `properties` name → value in file order), and `scene` (a `.tscn`'s sections,
    /// each `tag`, `blank_before` and `properties`).
    ///
    /// ```
    /// use gdvariant::resource::ResourceFile;
    /// let text = "[gd_resource type=\"Resource\" format=3]\n\n[resource]\nhp = 90\n";
    /// let file = ResourceFile::read(text.as_bytes())?;
    /// let model = file.to_variant();
    /// assert_eq!(ResourceFile::from_variant(&model)?.write()?, text.as_bytes());
    /// # Ok::<(), gdvariant::resource::ResourceError>(())
    /// ```
    pub fn to_variant(&self) -> Variant {
        let encoding = match &self.encoding {
            Encoding::Text {
                format,
                uid,
                load_steps,
                writer,
            } => dict(vec![
                ("kind", "text".into()),
                ("format", (*format).into()),
                ("uid", opt(uid)),
                ("load_steps", (*load_steps).into()),
                ("writer", writer.name().into()),
            ]),
            Encoding::Binary(h) => dict(vec![
                ("kind", "binary".into()),
                ("major", h.major.into()),
                ("minor", h.minor.into()),
                ("format", h.format.into()),
                ("real64", h.real64.into()),
                // u64 fields as the int of the same bits (the engine's own `int` view).
                (
                    "import_metadata_offset",
                    Variant::Int(h.import_metadata_offset as i64),
                ),
                ("flags", h.flags.into()),
                ("uid", Variant::Int(h.uid as i64)),
                (
                    "strings",
                    Variant::PackedStringArray(
                        h.strings.iter().map(|s| s.as_str().into()).collect(),
                    ),
                ),
                ("big_endian", h.big_endian.into()),
                (
                    "compressed",
                    h.compressed.map_or(Variant::Nil, |c| {
                        dict(vec![
                            ("mode", c.mode.into()),
                            ("block_size", c.block_size.into()),
                        ])
                    }),
                ),
            ]),
        };
        let ext: Vec<Variant> = self
            .ext_resources
            .iter()
            .map(|e| {
                dict(vec![
                    ("class", e.class.as_str().into()),
                    ("path", e.path.as_str().into()),
                    ("uid", opt(&e.uid)),
                    ("id", e.id.clone()),
                ])
            })
            .collect();
        dict(vec![
            ("class", self.class.as_str().into()),
            ("script_class", opt(&self.script_class)),
            ("encoding", encoding),
            ("ext_resources", Variant::Array(Array::new(ext))),
            (
                "sub_resources",
                Variant::Array(Array::new(
                    self.sub_resources.iter().map(resource).collect(),
                )),
            ),
            ("main", resource(&self.main)),
            (
                "scene",
                Variant::Array(Array::new(
                    self.scene
                        .iter()
                        .map(|section| {
                            dict(vec![
                                ("tag", section.tag.as_str().into()),
                                ("blank_before", section.blank_before.into()),
                                ("properties", properties(&section.properties)),
                            ])
                        })
                        .collect(),
                )),
            ),
        ])
    }

    /// The file from the Dictionary of [`ResourceFile::to_variant`] (as edited); a missing
    /// or mistyped field is refused with its name.
    pub fn from_variant(v: &Variant) -> Result<ResourceFile, ResourceError> {
        let f = Fields(v, "file");
        let e = Fields(f.get("encoding")?, "encoding");
        let encoding = match e.string("kind")?.as_str() {
            "text" => Encoding::Text {
                format: e.u32("format")?,
                uid: e.opt_string("uid")?,
                load_steps: e.bool("load_steps")?,
                // Absent in models made before the field: the format's usual writer.
                writer: match e.get("writer") {
                    Err(_) => TextWriter::default(),
                    Ok(_) => TextWriter::from_name(&e.string("writer")?).ok_or_else(|| {
                        bad("encoding.writer", "godot3, godot4.0, godot4.3 or godot4.5")
                    })?,
                },
            },
            "binary" => Encoding::Binary(BinaryHeader {
                major: e.u32("major")?,
                minor: e.u32("minor")?,
                format: e.u32("format")?,
                real64: e.bool("real64")?,
                import_metadata_offset: e.int("import_metadata_offset")? as u64,
                flags: e.u32("flags")?,
                uid: e.int("uid")? as u64,
                strings: match e.get("strings")? {
                    Variant::PackedStringArray(s) => s.iter().map(|s| s.to_string()).collect(),
                    _ => return Err(bad("encoding.strings", "a PackedStringArray")),
                },
                // Absent in models made before these fields: a plain file.
                big_endian: match e.get("big_endian") {
                    Err(_) => false,
                    Ok(_) => e.bool("big_endian")?,
                },
                compressed: match e.get("compressed") {
                    Err(_) | Ok(Variant::Nil) => None,
                    Ok(c) => {
                        let c = Fields(c, "encoding.compressed");
                        Some(Compressed {
                            mode: c.u32("mode")?,
                            block_size: c.u32("block_size")?,
                        })
                    }
                },
            }),
            other => {
                return Err(bad(
                    "encoding.kind",
                    &format!("\"text\" or \"binary\", not {other:?}"),
                ))
            }
        };
        let mut ext_resources = Vec::new();
        for (i, x) in f.array("ext_resources")?.iter().enumerate() {
            let x = Fields(x, "ext_resources[]");
            ext_resources.push(ExtResource {
                class: x.string("class")?,
                path: x.string("path")?,
                uid: x.opt_string("uid")?,
                id: x
                    .get("id")
                    .map_err(|_| bad(&format!("ext_resources[{i}].id"), "present"))?
                    .clone(),
            });
        }
        let sub_resources = f
            .array("sub_resources")?
            .iter()
            .map(|r| read_resource(r, "sub_resources[]"))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ResourceFile {
            class: f.string("class")?,
            script_class: f.opt_string("script_class")?,
            encoding,
            ext_resources,
            sub_resources,
            main: read_resource(f.get("main")?, "main")?,
            scene: match f.get("scene") {
                Err(_) => Vec::new(),
                Ok(_) => f
                    .array("scene")?
                    .iter()
                    .map(|x| {
                        let x = Fields(x, "scene[]");
                        Ok(SceneSection {
                            tag: x.string("tag")?,
                            blank_before: x.bool("blank_before")?,
                            properties: read_properties(x.get("properties")?, "scene[]")?,
                        })
                    })
                    .collect::<Result<Vec<_>, ResourceError>>()?,
            },
        })
    }
}

fn read_properties(v: &Variant, at: &str) -> Result<Vec<(String, Variant)>, ResourceError> {
    let Variant::Dictionary(props) = v else {
        return Err(bad(&format!("{at}.properties"), "a Dictionary"));
    };
    let mut properties = Vec::with_capacity(props.len());
    for (k, v) in props.entries() {
        let name = match k {
            Variant::String(s) => s.to_string(),
            Variant::StringName(s) => s.0.to_string(),
            _ => return Err(bad(&format!("{at}.properties"), "String keys")),
        };
        properties.push((name, v.clone()));
    }
    Ok(properties)
}

fn read_resource(v: &Variant, at: &str) -> Result<Resource, ResourceError> {
    let r = Fields(v, at);
    Ok(Resource {
        class: r.string("class")?,
        id: r.get("id")?.clone(),
        properties: read_properties(r.get("properties")?, at)?,
    })
}

fn bad(field: &str, want: &str) -> ResourceError {
    ResourceError::Unsupported(format!("resource model: `{field}` must be {want}"))
}

/// The named fields of one Dictionary of the model; `.1` says where it is, for errors.
struct Fields<'a>(&'a Variant, &'a str);

impl<'a> Fields<'a> {
    fn get(&self, name: &str) -> Result<&'a Variant, ResourceError> {
        match self.0 {
            Variant::Dictionary(d) => d
                .get_str(name)
                .ok_or_else(|| bad(&format!("{}.{name}", self.1), "present")),
            _ => Err(bad(self.1, "a Dictionary")),
        }
    }
    fn string(&self, name: &str) -> Result<String, ResourceError> {
        match self.get(name)? {
            Variant::String(s) => Ok(s.to_string()),
            Variant::StringName(s) => Ok(s.0.to_string()),
            _ => Err(bad(&format!("{}.{name}", self.1), "a String")),
        }
    }
    fn opt_string(&self, name: &str) -> Result<Option<String>, ResourceError> {
        match self.get(name) {
            Ok(Variant::Nil) | Err(_) => Ok(None),
            Ok(_) => self.string(name).map(Some),
        }
    }
    fn int(&self, name: &str) -> Result<i64, ResourceError> {
        match self.get(name)? {
            Variant::Int(n) => Ok(*n),
            _ => Err(bad(&format!("{}.{name}", self.1), "an int")),
        }
    }
    fn u32(&self, name: &str) -> Result<u32, ResourceError> {
        u32::try_from(self.int(name)?).map_err(|_| bad(&format!("{}.{name}", self.1), "a u32"))
    }
    fn bool(&self, name: &str) -> Result<bool, ResourceError> {
        match self.get(name)? {
            Variant::Bool(b) => Ok(*b),
            _ => Err(bad(&format!("{}.{name}", self.1), "a bool")),
        }
    }
    fn array(&self, name: &str) -> Result<&'a [Variant], ResourceError> {
        match self.get(name)? {
            Variant::Array(a) => Ok(&a.items),
            _ => Err(bad(&format!("{}.{name}", self.1), "an Array")),
        }
    }
}
