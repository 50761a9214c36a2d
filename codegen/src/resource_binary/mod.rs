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
    header: Vec<Field>,
    external: Vec<Field>,
    rules: BTreeMap<String, RawRule>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    since: Option<u32>,
    until: Option<u32>,
    what: String,
}

/// One field of the header or of an external resource entry, as `explain` walks it.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Field {
    /// What the field is called.
    pub name: String,
    /// How it is stored: `magic`, `u32`, `u64` or `string`.
    #[serde(rename = "type")]
    pub ty: String,
    /// How many times it repeats (reserved words), 1 when absent.
    pub count: Option<u32>,
    /// The first format that has it.
    pub since: Option<u32>,
    /// The last format that has it.
    pub until: Option<u32>,
    /// The FORMAT_FLAG_* bit without which it is absent.
    pub flag: Option<u32>,
    /// What it holds.
    pub what: String,
}

/// A rule of the property encoding that holds for a range of formats.
pub struct Rule {
    /// Its name (the generated constant is its upper-case form).
    pub name: String,
    /// The first format it holds in.
    pub since: u32,
    /// The last format it holds in.
    pub until: u32,
    /// What it says.
    pub what: String,
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
    /// The header's fields, in file order.
    pub header: Vec<Field>,
    /// An external resource entry's fields, in file order.
    pub external: Vec<Field>,
    /// The format-dependent rules of the property encoding.
    pub rules: Vec<Rule>,
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
    for (section, fields) in [("header", &raw.header), ("external", &raw.external)] {
        for f in fields {
            if !["magic", "u32", "u64", "string"].contains(&f.ty.as_str()) {
                errors.push(format!(
                    "error: type `{}` is none of magic, u32, u64, string\n  --> {SPEC_FILE}: {section}.{}",
                    f.ty, f.name
                ));
            }
            for v in [f.since, f.until].into_iter().flatten() {
                if !raw.formats.contains_key(&v) {
                    errors.push(format!(
                        "error: format {v} is no format of `formats`\n  --> {SPEC_FILE}: {section}.{}",
                        f.name
                    ));
                }
            }
        }
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
    let rules = raw
        .rules
        .into_iter()
        .map(|(name, r)| Rule {
            name,
            since: r.since.unwrap_or(1),
            until: r.until.unwrap_or(newest),
            what: r.what,
        })
        .collect();
    Ok(ResourceBinary {
        formats,
        types,
        header: raw.header,
        external: raw.external,
        rules,
    })
}
