//! Serde shapes of the YAML spec files, exactly as written; `lower` turns them into the checked model.

use serde::Deserialize;
use std::collections::BTreeMap;

/// `spec/common.yaml`: the union of kinds and the feature names.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCommon {
    pub kinds: Vec<RawKind>,
    pub features: Vec<RawFeatureDecl>,
}

/// One entry of `kinds:`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawKind {
    pub name: String,
    pub description: String,
    /// The struct of a fixed layout (its components are the wire fields' accessors).
    #[serde(default)]
    pub fields: Option<Vec<RawStructField>>,
    /// The fixed kind whose values a packed array holds.
    #[serde(default)]
    pub packed: Option<String>,
    /// Whether a Rust `Vec` of the element converts to this packed array (default yes).
    #[serde(default)]
    pub rust_vec: Option<bool>,
    /// The nearest kind for a migration target without this one.
    #[serde(default)]
    pub migrate: Option<String>,
    /// Older constructor names the text parser also reads.
    #[serde(default)]
    pub text_aliases: Vec<String>,
    /// The payload type in `Variant` of a kind that is not fixed or packed: a Rust type, `none`
    /// (a unit variant) or `absent` (no variant: the kind decodes to another).
    #[serde(default)]
    pub model: Option<String>,
    /// The payload type in `VariantRef<'a>`.
    #[serde(default)]
    pub model_ref: Option<String>,
}

/// One field of a fixed layout's struct.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStructField {
    pub name: String,
    /// `real`, `i32`, `f32`, a fixed kind, or `[Kind; N]`.
    #[serde(rename = "type")]
    pub ty: String,
    #[serde(default)]
    pub description: String,
    /// The value a text form may leave out (a trailing component only).
    #[serde(default)]
    pub text_default: Option<f64>,
}

/// One entry of `features:` in `common.yaml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFeatureDecl {
    pub name: String,
    pub description: String,
}

/// A `docs:` note: one string or a list of them.
#[derive(Debug, Deserialize, Default, Clone)]
#[serde(untagged)]
pub enum RawDocs {
    #[default]
    None,
    One(String),
    Many(Vec<String>),
}

impl RawDocs {
    /// The notes as a list.
    pub fn into_vec(self) -> Vec<String> {
        match self {
            RawDocs::None => Vec::new(),
            RawDocs::One(s) => vec![s],
            RawDocs::Many(v) => v,
        }
    }
}

/// A dialect file: `spec/godot3.yaml`, `spec/godot4.yaml`, `spec/pandemonium.yaml`, or a documentation revision.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDialect {
    pub dialect: String,
    pub title: String,
    #[serde(default)]
    pub source: String,
    /// A transcription of an official documentation page rather than the engine's behaviour.
    #[serde(default)]
    pub documentation: bool,
    pub oldest: String,
    pub newest: String,
    /// `padded` (`Vector2( 1, 2 )`) or `tight` (`Vector2(1, 2)`); documentation revisions omit it.
    #[serde(default)]
    pub text_spacing: Option<String>,
    pub eras: Vec<RawEra>,
    pub header: RawHeader,
    #[serde(default)]
    pub flags: Vec<RawFlag>,
    #[serde(default)]
    pub features: Vec<RawFeatureUse>,
    #[serde(default)]
    pub docs: RawDocs,
    pub types: BTreeMap<String, RawType>,
}

/// One type table: from `since` until the next era.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEra {
    pub since: String,
    pub count: u32,
    #[serde(default)]
    pub description: String,
}

/// The 4-byte header.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawHeader {
    pub type_mask: u32,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub docs: RawDocs,
}

/// A header flag: bits 16 and up, whose meaning depends on the type.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFlag {
    pub name: String,
    #[serde(default)]
    pub engine_name: String,
    /// First and last bit, inclusive.
    pub bits: [u32; 2],
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub docs: RawDocs,
}

/// A feature that holds for `since..until`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFeatureUse {
    pub feature: String,
    pub since: String,
    #[serde(default)]
    pub until: Option<String>,
    #[serde(default)]
    pub source: String,
}

/// One Variant type of a dialect, keyed by its `Kind` name.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawType {
    /// The dialect's own name (`REAL`, `POOL_INT_ARRAY`).
    pub name: String,
    /// The text form's constructor name (`Quat`, `PoolIntArray`), when it is not the kind's.
    #[serde(default)]
    pub text: Option<String>,
    /// This type's constructor spacing, when it is not the dialect's.
    #[serde(default)]
    pub text_spacing: Option<String>,
    pub ids: Vec<RawId>,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub flags: Vec<RawTypeFlag>,
    pub fields: Vec<RawField>,
    #[serde(default)]
    pub docs: RawDocs,
}

/// The id a type has from `since` on (until the next entry).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawId {
    pub since: String,
    pub id: u32,
    /// The dialect's name in this range, when it differs from the type's `name`.
    #[serde(default)]
    pub name: Option<String>,
}

/// A header flag a type uses, from `since` on.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTypeFlag {
    pub flag: String,
    pub since: String,
    #[serde(default)]
    pub description: String,
}

/// A scalar that YAML may give as a number or as an expression string (`8+length`, `pad4(length)`).
#[derive(Debug, Deserialize, Clone)]
#[serde(untagged)]
pub enum RawExpr {
    Int(i64),
    Text(String),
}

/// One row of a layout table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawField {
    pub name: String,
    pub offset: RawExpr,
    pub len: RawExpr,
    #[serde(rename = "type")]
    pub ty: String,
    #[serde(default)]
    pub description: String,
    /// Path of the `crate::math` field this bytes go to (`rows[0].y`).
    #[serde(default)]
    pub accessor: Option<String>,
    /// How many repetitions (`repeat`, `variant`).
    #[serde(default)]
    pub count: Option<RawExpr>,
    #[serde(default)]
    pub since: Option<String>,
    #[serde(default)]
    pub until: Option<String>,
    /// Header flag condition: `FLAG` or `!FLAG`.
    #[serde(default)]
    pub when: Option<String>,
    /// The FLAG_64 form of this field.
    #[serde(default)]
    pub wide: Option<RawWide>,
    /// Fields of one repetition, offsets from the repetition's start.
    #[serde(default)]
    pub element: Vec<RawField>,
    #[serde(default)]
    pub docs: RawDocs,
}

/// Offset and length (and optionally type) of a field in the FLAG_64 form.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWide {
    pub offset: RawExpr,
    pub len: RawExpr,
    #[serde(default, rename = "type")]
    pub ty: Option<String>,
}
