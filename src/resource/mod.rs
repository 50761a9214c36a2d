//! Resource files as the engine saves them (`ResourceSaver.save`): `.tres` text and `.res`
//! binary, read into one editable model and written back as the engine writes them.
//!
//! A [`ResourceFile`] is a header, the external resources it refers to, its built-in
//! sub-resources and the main resource, each with a class and ordered properties held as
//! [`Variant`]s. A property that refers to another resource holds a reference
//! ([`text::resource_reference`](crate::text::resource_reference)), never a copy: an object
//! of class `ExtResource` or `SubResource` whose one property `id` is the section's id.
//!
//! ```no_run
//! use gdvariant::resource::ResourceFile;
//! use gdvariant::Variant;
//!
//! let bytes = std::fs::read("save.tres")?;
//! let mut file = ResourceFile::read(&bytes)?;
//! file.main.set("hp", Variant::Int(100));
//! std::fs::write("save.tres", file.write()?)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod binary;
mod binary_write;
mod convert;
mod model;
mod tres;
pub mod uid;

pub use convert::{ClassRename, Migration};

pub use crate::error::ResourceError;
use crate::variant::Variant;

/// The `.res` format versions known: (version, the first engine that writes it, what it
/// changed), from spec/resource_binary.yaml.
///
/// ```
/// let newest = gdvariant::resource::binary_formats().last().unwrap();
/// assert_eq!((newest.0, newest.1), (6, "4.3"));
/// ```
pub fn binary_formats() -> &'static [(u32, &'static str, &'static str)] {
    binary::formats()
}

/// Which of the engine's two resource encodings a file is in, with what that encoding's
/// header holds beyond the class.
#[derive(Clone, Debug, PartialEq)]
pub enum Encoding {
    /// `.tres` (`[gd_resource …]`): `format=2` is Godot 3, `format=3` Godot 4.
    Text {
        /// The `format=` of the header.
        format: u32,
        /// The header's `uid="uid://…"`, if any.
        uid: Option<String>,
        /// Whether the header carries `load_steps=` (the engine writes it when more than
        /// one resource is saved); its value is recomputed on writing.
        load_steps: bool,
    },
    /// `.res` (`RSRC`).
    Binary(BinaryHeader),
}

/// The fields of a `.res` header (core/io/resource_format_binary.cpp, `open` and `save`).
#[derive(Clone, Debug, PartialEq)]
pub struct BinaryHeader {
    /// The engine major version that saved it (3 or 4).
    pub major: u32,
    /// The engine minor version.
    pub minor: u32,
    /// The binary format version (Godot 3: 1–3, Godot 4.0–4.2: 4–5, 4.3+: 6).
    pub format: u32,
    /// Reals are 64-bit (`use_real64`, or `FORMAT_FLAG_REAL_T_IS_DOUBLE` in Godot 4).
    pub real64: bool,
    /// The import metadata offset (0 in saves).
    pub import_metadata_offset: u64,
    /// The `FORMAT_FLAG_*` bits (Godot 4; 0 in Godot 3).
    pub flags: u32,
    /// The file's UID (`u64::MAX`, the engine's `INVALID_ID`, for none).
    pub uid: u64,
    /// The string table as read, kept so that writing the file back gives the same bytes;
    /// names a written file needs that are missing are appended.
    pub strings: Vec<String>,
}

/// An `[ext_resource]`: a resource in another file, referred to by `id`.
#[derive(Clone, Debug, PartialEq)]
pub struct ExtResource {
    /// The class (`Script`, `Texture2D`, …).
    pub class: String,
    /// The `res://` path.
    pub path: String,
    /// The `uid://…` text, if the file records one.
    pub uid: Option<String>,
    /// The id references use: a string in Godot 4 text, an int in Godot 3 text.
    pub id: Variant,
}

/// A resource saved in the file: a sub-resource or the main one.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Resource {
    /// The class (`Resource`, `Curve`, …).
    pub class: String,
    /// The id references use (empty for the main resource of a text file).
    pub id: Variant,
    /// The stored properties, in the engine's order (`script` first when there is one).
    pub properties: Vec<(String, Variant)>,
}

impl Resource {
    /// The value of property `name`, if stored.
    pub fn get(&self, name: &str) -> Option<&Variant> {
        self.properties
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }

    /// The properties as a Dictionary of name → value (String keys), in their order.
    pub fn to_dictionary(&self) -> Variant {
        let mut d = crate::variant::Dictionary::new();
        for (name, value) in &self.properties {
            d.insert(Variant::String(name.as_str().into()), value.clone());
        }
        Variant::Dictionary(d)
    }

    /// A `#[derive(GodotVariant)]` type filled from the properties (its fields by name; the
    /// properties it does not name are ignored as the derive ignores extra keys).
    ///
    /// ```
    /// use gdvariant::resource::Resource;
    /// use gdvariant::{GodotVariant, Variant};
    ///
    /// #[derive(GodotVariant, Debug, PartialEq)]
    /// struct Save { name: String, hp: i64 }
    ///
    /// let r = Resource {
    ///     class: "Resource".into(),
    ///     id: Variant::Nil,
    ///     properties: vec![("name".into(), "ann".into()), ("hp".into(), Variant::Int(90))],
    /// };
    /// assert_eq!(r.to_typed::<Save>()?, Save { name: "ann".into(), hp: 90 });
    /// # Ok::<(), gdvariant::FromVariantError>(())
    /// ```
    pub fn to_typed<T: crate::FromVariant>(&self) -> Result<T, crate::FromVariantError> {
        T::from_variant(&self.to_dictionary())
    }

    /// Sets the properties a `#[derive(GodotVariant)]` value holds (its fields by name, each
    /// in place when stored, else appended); the properties it does not name are kept. A
    /// String set where a StringName is stored stays a StringName.
    /// `T` must convert to a Dictionary (a struct), else nothing is set and `false` returned.
    ///
    /// ```
    /// use gdvariant::resource::Resource;
    /// use gdvariant::{GodotVariant, Variant};
    ///
    /// #[derive(GodotVariant)]
    /// struct Save { hp: i64 }
    ///
    /// let mut r = Resource::default();
    /// r.set("name", "ann".into());
    /// assert!(r.set_typed(&Save { hp: 90 }));
    /// assert_eq!(r.get("hp"), Some(&Variant::Int(90)));
    /// assert_eq!(r.get("name"), Some(&"ann".into()));
    /// ```
    pub fn set_typed<T: crate::ToVariant>(&mut self, value: &T) -> bool {
        let Variant::Dictionary(d) = value.to_variant() else {
            return false;
        };
        for (k, v) in d.into_entries() {
            let name = match k {
                Variant::String(s) => s.to_string(),
                Variant::StringName(s) => s.0.to_string(),
                other => crate::text::to_text(&other, crate::dialect::Dialect::Godot4),
            };
            // A Rust `String` field stands for a String or a StringName: the stored kind stays.
            let v = match (self.get(&name), v) {
                (Some(Variant::StringName(_)), Variant::String(s)) => {
                    Variant::StringName(crate::variant::StringName(s))
                }
                (_, v) => v,
            };
            self.set(&name, v);
        }
        true
    }

    /// Sets property `name`, in place when stored, else appended (the engine writes a
    /// property left at its default not at all, so a new one goes last).
    pub fn set(&mut self, name: &str, value: Variant) {
        match self.properties.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value,
            None => self.properties.push((name.to_string(), value)),
        }
    }
}

/// A decompressor for `RSCC` files (see [`ResourceFile::read_with`]).
pub type Decompress = dyn Fn(&[u8]) -> Result<Vec<u8>, ResourceError>;

/// A resource file: header, external resources, sub-resources and the main resource.
#[derive(Clone, Debug, PartialEq)]
pub struct ResourceFile {
    /// The main resource's class as the header gives it.
    pub class: String,
    /// The script's global class name (`script_class=`), if the header records one.
    pub script_class: Option<String>,
    /// The encoding and its header fields.
    pub encoding: Encoding,
    /// The external resources, in file order.
    pub ext_resources: Vec<ExtResource>,
    /// The built-in sub-resources, in file order (each before those that refer to it).
    pub sub_resources: Vec<Resource>,
    /// The main resource.
    pub main: Resource,
}

impl ResourceFile {
    /// Reads a `.tres` or `.res` file (told apart by the `RSRC` magic). A compressed
    /// `RSCC` file is refused with [`ResourceError::Unsupported`]: read it with
    /// [`ResourceFile::read_with`].
    pub fn read(bytes: &[u8]) -> Result<ResourceFile, ResourceError> {
        Self::read_with(bytes, &|_: &[u8]| {
            Err(ResourceError::Unsupported(
                "compressed resource files (RSCC) need a decompressor: see ResourceFile::read_with"
                    .into(),
            ))
        })
    }

    /// [`ResourceFile::read`], with `decompress` for `RSCC` files: it is given the bytes
    /// after the `RSCC` magic (a `FileAccessCompressed` stream,
    /// core/io/file_access_compressed.cpp) and returns what they hold, the `.res` without
    /// its `RSRC` magic (resource_format_binary.cpp, `ResourceLoaderBinary::open`). The
    /// decompressor bounds what it allocates by the stream's declared size.
    pub fn read_with(bytes: &[u8], decompress: &Decompress) -> Result<ResourceFile, ResourceError> {
        match bytes.get(..4) {
            Some(b"RSRC") => binary::read(bytes),
            Some(b"RSCC") => {
                let mut inner = b"RSRC".to_vec();
                inner.extend(decompress(&bytes[4..])?);
                binary::read(&inner)
            }
            _ => {
                let text = std::str::from_utf8(bytes).map_err(|e| ResourceError::Binary {
                    offset: e.valid_up_to(),
                    message: "neither RSRC nor UTF-8 text".into(),
                })?;
                tres::read(text)
            }
        }
    }

    /// Writes the file in its encoding, as the engine writes it.
    pub fn write(&self) -> Result<Vec<u8>, ResourceError> {
        match &self.encoding {
            Encoding::Text { .. } => Ok(tres::write(self).into_bytes()),
            Encoding::Binary(h) => binary_write::write(self, h),
        }
    }

    /// What the file is, in a few words (`.res (RSRC) of Godot 4.3, format 6`), or `None`
    /// when `bytes` start like no resource file.
    pub fn describe(bytes: &[u8]) -> Option<String> {
        let word = |at: usize| -> Option<u32> {
            Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
        };
        match bytes.get(..4)? {
            b"RSRC" => Some(format!(
                ".res (RSRC) of Godot {}.{}, format {}",
                word(12)?,
                word(16)?,
                word(20)?
            )),
            b"RSCC" => Some(".res compressed (RSCC, FileAccessCompressed)".into()),
            b"[gd_" => {
                let line = std::str::from_utf8(&bytes[..bytes.len().min(300)]).ok()?;
                let line = line.lines().next()?;
                let format = line.split("format=").nth(1)?.split([' ', ']']).next()?;
                let kind = if line.starts_with("[gd_scene") {
                    ".tscn"
                } else {
                    ".tres"
                };
                let engine = match format {
                    "1" => "Godot 2",
                    "2" => "Godot 3",
                    "3" => "Godot 4",
                    _ => "an unknown engine",
                };
                Some(format!("{kind} text, format {format} ({engine})"))
            }
            _ => None,
        }
    }

    /// The sub-resource with id `id`.
    pub fn sub_resource(&self, id: &Variant) -> Option<&Resource> {
        self.sub_resources.iter().find(|r| &r.id == id)
    }
}
