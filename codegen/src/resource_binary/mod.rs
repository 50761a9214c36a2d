//! The binary resource encoding's family (`spec/resource_binary.yaml`): raw serde shape,
//! checked model, and the lowering to rows; `emit` turns the rows into the generated table.

pub mod emit;

use std::collections::BTreeMap;
use std::path::Path;

/// Where the family's spec lives, relative to the workspace root.
pub const SPEC_FILE: &str = "spec/resource_binary.yaml";

/// The file as written (raw serde shape).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawResourceBinary {
    formats: BTreeMap<u32, RawFormat>,
    types: BTreeMap<String, RawType>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFormat {
    engine: String,
    change: String,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawType {
    id: u32,
    since: Option<u32>,
    wide: Option<u32>,
}

/// One format version.
pub struct Format {
    /// The version number in the header.
    pub version: u32,
    /// The first engine that writes it.
    pub engine: String,
    /// What it changed.
    pub change: String,
}

/// One kind's ids.
pub struct TypeRow {
    /// The kind's name (spec/common.yaml).
    pub kind: String,
    /// Its id.
    pub id: u32,
    /// The first format that has it.
    pub since: u32,
    /// The id of its 64-bit form, if any.
    pub wide: Option<u32>,
}

/// The checked family.
pub struct ResourceBinary {
    /// Format versions, ascending.
    pub formats: Vec<Format>,
    /// Kinds sorted by id.
    pub types: Vec<TypeRow>,
}

/// Reads and checks the family; every error at once, with where.
pub fn load(root: &Path) -> anyhow::Result<ResourceBinary> {
    let text = std::fs::read_to_string(root.join(SPEC_FILE))?;
    let raw: RawResourceBinary = serde_yaml::from_str(&text)
        .map_err(|e| anyhow::anyhow!("error: {e}\n  --> {SPEC_FILE}"))?;
    let mut errors = Vec::new();
    let newest = raw.formats.keys().copied().max().unwrap_or(0);
    let mut seen: BTreeMap<u32, String> = BTreeMap::new();
    let mut types = Vec::new();
    for (kind, t) in raw.types {
        for id in [Some(t.id), t.wide].into_iter().flatten() {
            if let Some(other) = seen.insert(id, kind.clone()) {
                errors.push(format!(
                    "error: id {id} of `{kind}` is also `{other}`'s\n  --> {SPEC_FILE}: types.{kind}"
                ));
            }
        }
        let since = t.since.unwrap_or(1);
        if !raw.formats.contains_key(&since) {
            errors.push(format!(
                "error: `since: {since}` is no format of `formats` (newest {newest})\n  --> {SPEC_FILE}: types.{kind}"
            ));
        }
        types.push(TypeRow {
            kind,
            id: t.id,
            since,
            wide: t.wide,
        });
    }
    if !errors.is_empty() {
        anyhow::bail!("{}", errors.join("\n"));
    }
    types.sort_by_key(|t| t.id);
    let formats = raw
        .formats
        .into_iter()
        .map(|(version, f)| Format {
            version,
            engine: f.engine,
            change: f.change,
        })
        .collect();
    Ok(ResourceBinary { formats, types })
}
