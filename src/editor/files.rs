//! Resource files (`.tres`, `.res`) and ConfigFile text in the editor: each opens as one
//! value, its model, which the page shows and edits like any save, and is written back in
//! its own format on saving.
//!
//! A resource file's model is [`ResourceFile::to_variant`] (`main.properties` holds the main
//! resource's properties); a ConfigFile's is `{section: {key: value}}`. The model is held as
//! its Godot 4 bytes (so that the frame machinery, undo and the byte view work unchanged);
//! saving reads it back and writes the file: a resource file in its encoding with every
//! header field, a ConfigFile with only the changed entries rewritten (comments and the other
//! lines kept as they were).

use super::EditorError;
use crate::resource::ResourceFile;
use crate::text::ConfigFile;
use crate::variant::{Dictionary, Variant};
use crate::{encode, DecodeOptions, Dialect, EncodeOptions};

/// The dialect of the model's bytes.
pub(super) const MODEL_DIALECT: Dialect = Dialect::Godot4;

fn refused(e: impl std::fmt::Display) -> EditorError {
    EditorError::Refused(e.to_string())
}

fn model_bytes(model: &Variant) -> Result<Vec<u8>, EditorError> {
    let options = EncodeOptions {
        // Resource references are objects of class SubResource / ExtResource.
        full_objects: true,
        ..EncodeOptions::default()
    };
    encode(model, MODEL_DIALECT, &options).map_err(refused)
}

fn model_of(bytes: &[u8]) -> Result<Variant, EditorError> {
    let options = DecodeOptions {
        allow_objects: true,
        keep_leading_bom: true,
        ..DecodeOptions::default()
    };
    crate::decode(bytes, MODEL_DIALECT, &options)
        .map(|(v, _)| v)
        .map_err(refused)
}

/// A file edited as its model: what it is, and what writing it back needs.
#[derive(Clone, Debug)]
pub enum FileModel {
    /// A resource file, written back from its model.
    Resource,
    /// ConfigFile text in `dialect`'s text form, as it was read.
    Config {
        /// The text form of its values.
        dialect: Dialect,
        /// The text as read.
        text: String,
    },
}

/// The model's bytes of `file` when it is a resource file (`RSRC`, `[gd_resource`,
/// `[gd_scene`) or ConfigFile text (`[section]` lines that read as one); `None` otherwise.
pub(super) fn unwrap(file: &[u8]) -> Result<Option<(FileModel, Vec<u8>)>, EditorError> {
    if file.starts_with(b"RSRC")
        || file.starts_with(b"[gd_resource")
        || file.starts_with(b"[gd_scene")
    {
        let res = ResourceFile::read(file).map_err(refused)?;
        return Ok(Some((FileModel::Resource, model_bytes(&res.to_variant())?)));
    }
    let Ok(text) = std::str::from_utf8(file) else {
        return Ok(None);
    };
    let first = text.trim_start_matches('\u{feff}').trim_start();
    if !(first.starts_with('[') || first.starts_with(';')) {
        return Ok(None);
    }
    // Godot 3's text form spells packed arrays `Pool…Array` and pads parentheses; without
    // either the text reads as Godot 4's.
    let godot3 = text.contains("PoolStringArray(")
        || text.contains("PoolIntArray(")
        || text.contains("PoolRealArray(")
        || text.contains("( ");
    let dialect = if godot3 {
        Dialect::Godot3
    } else {
        Dialect::Godot4
    };
    let Ok(cfg) = ConfigFile::parse(text, dialect) else {
        return Ok(None);
    };
    let mut model = Dictionary::new();
    let mut sections: Vec<&str> = Vec::new();
    if cfg.entries("").next().is_some() {
        sections.push("");
    }
    sections.extend(cfg.sections());
    for section in sections {
        let entries: Dictionary = cfg
            .entries(section)
            .map(|(k, v)| (Variant::from(k), v.clone()))
            .collect();
        model.insert(section.into(), Variant::Dictionary(entries));
    }
    let container = FileModel::Config {
        dialect,
        text: text.to_string(),
    };
    Ok(Some((container, model_bytes(&Variant::Dictionary(model))?)))
}

/// The file's bytes for the model's bytes `payload`.
pub(super) fn wrap(kind: &FileModel, payload: &[u8]) -> Result<Vec<u8>, EditorError> {
    let model = model_of(payload)?;
    match kind {
        FileModel::Resource => ResourceFile::from_variant(&model)
            .and_then(|f| f.write())
            .map_err(refused),
        FileModel::Config { dialect, text } => {
            let mut cfg = ConfigFile::parse(text, *dialect).map_err(refused)?;
            let Variant::Dictionary(sections) = model else {
                return Err(refused("a ConfigFile is a Dictionary of sections"));
            };
            for (section, entries) in sections.entries() {
                let (Variant::String(section), Variant::Dictionary(entries)) = (section, entries)
                else {
                    return Err(refused("each section is a String key with a Dictionary"));
                };
                for (key, value) in entries.entries() {
                    let Variant::String(key) = key else {
                        return Err(refused(format!("[{section}]: keys are Strings")));
                    };
                    let (section, key) = (section.to_string(), key.to_string());
                    if cfg.get(&section, &key).is_some_and(|old| old.same(value)) {
                        continue;
                    }
                    cfg.set(&section, &key, value.clone());
                }
            }
            Ok(cfg.to_text().into_bytes())
        }
    }
}
