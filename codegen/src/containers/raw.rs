//! The serde shapes of `spec/containers.yaml`, as written.

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawContainers {
    pub encrypted: RawEncrypted,
    pub compressed: RawCompressed,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawEncrypted {
    pub magic: String,
    pub padding: u32,
    pub layouts: Vec<RawLayout>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawLayout {
    pub name: String,
    pub versions: String,
    pub cipher: String,
    pub source: String,
    pub fields: Vec<RawField>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawField {
    pub name: String,
    pub size: u32,
    #[serde(default)]
    pub value: Option<u32>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCompressed {
    pub magic: String,
    pub versions: String,
    pub default_block_size: u32,
    pub source: String,
    pub fields: Vec<RawField>,
    pub modes: Vec<RawMode>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMode {
    pub id: u32,
    pub name: String,
    pub writes: bool,
}
