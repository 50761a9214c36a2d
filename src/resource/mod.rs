//! Resource files as the engine saves them (`ResourceSaver.save`): `.tres` text and `.res`
//! binary, read into one editable model and written back as the engine writes them.
//!
//! A [`ResourceFile`] is a header, the external resources it refers to, its built-in
//! sub-resources and the main resource, each with a class and ordered properties held as
//! [`Variant`]s. A property that refers to another resource holds a reference
//! ([`text::resource_reference`](crate::text::resource_reference)), never a copy: an object
//! of class `ExtResource` or `SubResource` whose one property `id` is the section's id.
//! Scenes (`.tscn`, `.scn`) read and write the same way; a `.tscn`'s node and connection
//! sections are kept as written ([`ResourceFile::scene`]).
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
/// The type id tables and the file layout, shared with `explain`'s walk of a `.res`.
pub(crate) use binary::{err as binary_error, layout, tables as type_tables, type_at};
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
        /// Which engines' text writer wrote the file, so that it is written back as they do.
        writer: TextWriter,
    },
    /// `.res` (`RSRC`).
    Binary(BinaryHeader),
}

/// The engines' `.tres` writers, as far as the text they write differs (the file does not
/// say which engine saved it; [`ResourceFile::read`] tells them apart by what they wrote).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum TextWriter {
    /// Godot 3 (`format=2`).
    Godot3,
    /// Godot 4.0 to 4.2: always `format=3`, reals in six significant digits (`%lg`).
    Godot40,
    /// Godot 4.3 and 4.4: `format=4` with base64 byte arrays when a PackedByteArray is
    /// over 64 bytes or a PackedVector4Array is saved, else `format=3`; six digits.
    #[default]
    Godot43,
    /// Godot 4.5 and later: the format as 4.3 picks it, reals in Grisu2's shortest digits.
    Godot45,
}

impl TextWriter {
    /// The writer of Godot `major.minor`.
    pub fn of_engine(major: u32, minor: u32) -> TextWriter {
        match (major, minor) {
            (..=3, _) => TextWriter::Godot3,
            (4, ..=2) => TextWriter::Godot40,
            (4, 3..=4) => TextWriter::Godot43,
            _ => TextWriter::Godot45,
        }
    }

    /// Its name in the model of [`ResourceFile::to_variant`] (`godot4.5`, …).
    pub fn name(self) -> &'static str {
        match self {
            TextWriter::Godot3 => "godot3",
            TextWriter::Godot40 => "godot4.0",
            TextWriter::Godot43 => "godot4.3",
            TextWriter::Godot45 => "godot4.5",
        }
    }

    /// The writer named `name` ([`TextWriter::name`]).
    pub fn from_name(name: &str) -> Option<TextWriter> {
        [
            TextWriter::Godot3,
            TextWriter::Godot40,
            TextWriter::Godot43,
            TextWriter::Godot45,
        ]
        .into_iter()
        .find(|w| w.name() == name)
    }
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
    /// Saved with `FLAG_SAVE_BIG_ENDIAN`: every field after the first is big-endian.
    pub big_endian: bool,
    /// Saved with `FLAG_COMPRESS` (`RSCC`): how the stream was compressed, so that it is
    /// written back the same way.
    pub compressed: Option<Compressed>,
}

/// How an `RSCC` file's `FileAccessCompressed` stream is set up
/// (core/io/file_access_compressed.cpp, `configure`): resource_format_binary.cpp's `save`
/// keeps the defaults, Zstd (mode 2) in blocks of 4,096 bytes, in 3.x and 4.x alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Compressed {
    /// The `Compression::Mode` id (0 FastLZ, 1 Deflate, 2 Zstd, 3 GZIP).
    pub mode: u32,
    /// The plain block size.
    pub block_size: u32,
}

impl Default for Compressed {
    fn default() -> Self {
        Compressed {
            mode: 2,
            block_size: 4096,
        }
    }
}

/// The magic of a compressed `.res`: `ResourceFormatSaverBinaryInstance::save` configures
/// its `FileAccessCompressed` with it (resource_format_binary.cpp, `FLAG_COMPRESS`) and
/// writes no `RSRC` inside; `ResourceLoaderBinary::open` reads the rest with
/// `open_after_magic`. The stream still ends with `RSRC` (then `RSCC` after the blocks).
pub const COMPRESSED_MAGIC: &[u8; 4] = b"RSCC";

/// The default bound on the plain data a compressed `.res` may claim: 64 MiB.
pub const DEFAULT_DECOMPRESSION_BOUND: u64 = 64 << 20;

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

/// The `RSCC` file of `body`, a `.res` without its `RSRC` magic.
#[cfg(feature = "containers")]
fn compress(body: &[u8], c: Compressed) -> Result<Vec<u8>, ResourceError> {
    use crate::container::{compressed, Mode};
    let mode = Mode::from_id(c.mode).ok_or_else(|| {
        ResourceError::Unsupported(format!("compression mode {} is unknown", c.mode))
    })?;
    compressed::write_with_magic(body, mode, c.block_size, COMPRESSED_MAGIC)
        .map_err(|e| ResourceError::Unsupported(format!("compressed resource: {e}")))
}

#[cfg(not(feature = "containers"))]
fn compress(_: &[u8], _: Compressed) -> Result<Vec<u8>, ResourceError> {
    Err(ResourceError::Unsupported(
        "writing a compressed resource (RSCC) needs feature `containers`".into(),
    ))
}

/// `what` of Godot `major.minor`, format `format` for the `.res` `bytes` (with its magic).
fn describe_binary(bytes: &[u8], what: &str) -> Option<String> {
    let big_endian = bytes.get(4..8)? != [0, 0, 0, 0];
    let word = |at: usize| -> Option<u32> {
        let b: [u8; 4] = bytes.get(at..at + 4)?.try_into().ok()?;
        Some(if big_endian {
            u32::from_be_bytes(b)
        } else {
            u32::from_le_bytes(b)
        })
    };
    let order = if big_endian { ", big-endian" } else { "" };
    Some(format!(
        "{what}{order}) of Godot {}.{}, format {}",
        word(12)?,
        word(16)?,
        word(20)?
    ))
}

/// A decompressor for `RSCC` files (see [`ResourceFile::read_with`]).
pub type Decompress<'a> = dyn Fn(&[u8]) -> Result<Vec<u8>, ResourceError> + 'a;

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
    /// A `.tscn`'s `[node]`, `[connection]` and `[editable]` sections, in file order
    /// (empty in other files; a `.scn` keeps its nodes in the main resource's `_bundled`).
    pub scene: Vec<SceneSection>,
}

/// A section of a `.tscn` that is no resource, kept as written: `[node …]`,
/// `[connection …]`, `[editable …]` (scene/resources/resource_format_text.cpp, `save` of a
/// `PackedScene`), with the properties after it.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneSection {
    /// The tag's text between `[` and `]` (`node name="Root" type="Node2D"`).
    pub tag: String,
    /// Whether a blank line comes before it (Godot 3 writes none before a connection).
    pub blank_before: bool,
    /// The properties, in order.
    pub properties: Vec<(String, Variant)>,
}

impl ResourceFile {
    /// Reads a `.tres` or `.res` file (told apart by the `RSRC` magic). A compressed
    /// `RSCC` file is decompressed with feature `containers` (up to
    /// [`DEFAULT_DECOMPRESSION_BOUND`], see [`ResourceFile::read_bounded`]); without it, it
    /// is refused with [`ResourceError::Unsupported`]: read it with
    /// [`ResourceFile::read_with`].
    pub fn read(bytes: &[u8]) -> Result<ResourceFile, ResourceError> {
        Self::read_bounded(bytes, DEFAULT_DECOMPRESSION_BOUND)
    }

    /// [`ResourceFile::read`], refusing an `RSCC` file whose plain data claims more than
    /// `bound` bytes before taking the memory.
    pub fn read_bounded(bytes: &[u8], bound: u64) -> Result<ResourceFile, ResourceError> {
        #[cfg(feature = "containers")]
        {
            Self::read_with(bytes, &move |rest: &[u8]| {
                let mut stream = COMPRESSED_MAGIC.to_vec();
                stream.extend_from_slice(rest);
                crate::container::compressed::read_with_magic(&stream, COMPRESSED_MAGIC, bound)
                    .map_err(|e| ResourceError::Unsupported(format!("compressed resource: {e}")))
            })
        }
        #[cfg(not(feature = "containers"))]
        {
            let _ = bound;
            Self::read_with(bytes, &|_: &[u8]| {
                Err(ResourceError::Unsupported(
                    "compressed resource files (RSCC) need feature `containers` or a \
                     decompressor: see ResourceFile::read_with"
                        .into(),
                ))
            })
        }
    }

    /// [`ResourceFile::read`], with `decompress` for `RSCC` files: it is given the bytes
    /// after the `RSCC` magic (a `FileAccessCompressed` stream,
    /// core/io/file_access_compressed.cpp) and returns what they hold, the `.res` without
    /// its `RSRC` magic (resource_format_binary.cpp, `ResourceLoaderBinary::open`). The
    /// decompressor bounds what it allocates by the stream's declared size.
    pub fn read_with(
        bytes: &[u8],
        decompress: &Decompress<'_>,
    ) -> Result<ResourceFile, ResourceError> {
        match bytes.get(..4) {
            Some(b"RSRC") => binary::read(bytes, 0),
            Some(b"RSCC") => {
                let word = |at: usize| -> Result<u32, ResourceError> {
                    bytes
                        .get(at..at + 4)
                        .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")))
                        .ok_or_else(|| ResourceError::Binary {
                            offset: at,
                            message: "the compressed header is cut short".into(),
                        })
                };
                let compressed = Compressed {
                    mode: word(4)?,
                    block_size: word(8)?,
                };
                let mut inner = b"RSRC".to_vec();
                inner.extend(decompress(&bytes[4..])?);
                let mut file = binary::read(&inner, 4).map_err(|e| match e {
                    ResourceError::Binary { offset, message } => ResourceError::Binary {
                        offset: offset.saturating_sub(4),
                        message: format!("{message}, in the decompressed data"),
                    },
                    other => other,
                })?;
                if let Encoding::Binary(h) = &mut file.encoding {
                    h.compressed = Some(compressed);
                }
                Ok(file)
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
            Encoding::Binary(h) => {
                let plain = binary_write::write(self, h)?;
                match h.compressed {
                    None => Ok(plain),
                    Some(c) => compress(&plain[4..], c),
                }
            }
        }
    }

    /// What the file is, in a few words (`.res (RSRC) of Godot 4.3, format 6`), or `None`
    /// when `bytes` start like no resource file.
    pub fn describe(bytes: &[u8]) -> Option<String> {
        match bytes.get(..4)? {
            b"RSRC" => describe_binary(bytes, ".res (RSRC"),
            b"RSCC" => {
                let mode = bytes
                    .get(4..8)
                    .map(|b| u32::from_le_bytes(b.try_into().unwrap()));
                #[cfg(feature = "containers")]
                if let Ok(body) = crate::container::compressed::read_with_magic(
                    bytes,
                    COMPRESSED_MAGIC,
                    DEFAULT_DECOMPRESSION_BOUND,
                ) {
                    let name = mode
                        .and_then(crate::container::Mode::from_id)
                        .map_or("unknown mode".into(), |m| m.to_string());
                    let mut inner = b"RSRC".to_vec();
                    inner.extend(body);
                    return describe_binary(&inner, &format!(".res compressed (RSCC, {name}"));
                }
                let _ = mode;
                Some(".res compressed (RSCC, FileAccessCompressed)".into())
            }
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
