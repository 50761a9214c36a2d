//! `spec/containers.yaml` read and checked into the model; every error at once.

use super::model::{Containers, EncryptedLayout};
use super::raw::{RawContainers, RawField};
use super::CONTAINERS_FILE;
use std::path::Path;

fn magic(text: &str, at: &str, errors: &mut Vec<String>) -> [u8; 4] {
    match <[u8; 4]>::try_from(text.as_bytes()) {
        Ok(m) => m,
        Err(_) => {
            errors.push(format!(
                "error: a magic is 4 bytes, not `{text}`\n  --> {CONTAINERS_FILE}: {at}"
            ));
            [0; 4]
        }
    }
}

/// (name, offset, size) of each field; the first must be the 4-byte magic.
fn offsets(fields: &[RawField], at: &str, errors: &mut Vec<String>) -> Vec<(String, u32, u32)> {
    if fields.first().map(|f| (f.name.as_str(), f.size)) != Some(("magic", 4)) {
        errors.push(format!("error: the first field must be `magic`, 4 bytes\n  --> {CONTAINERS_FILE}: {at}.fields[0]"));
    }
    let mut offset = 0;
    fields
        .iter()
        .map(|f| {
            let here = offset;
            offset += f.size;
            (f.name.clone(), here, f.size)
        })
        .collect()
}

/// Reads and checks `spec/containers.yaml` under `root`.
pub fn load_containers(root: &Path) -> anyhow::Result<Containers> {
    let text = std::fs::read_to_string(root.join(CONTAINERS_FILE))?;
    let raw: RawContainers = serde_yaml::from_str(&text)
        .map_err(|e| anyhow::anyhow!("error: {e}\n  --> {CONTAINERS_FILE}"))?;
    let mut errors = Vec::new();
    let mut layouts = Vec::new();
    for (i, l) in raw.encrypted.layouts.iter().enumerate() {
        let at = format!("encrypted.layouts[{i}]");
        let fields = offsets(&l.fields, &at, &mut errors);
        let find = |name: &str| fields.iter().find(|f| f.0 == name);
        let cfb = match l.cipher.as_str() {
            "aes-256-ecb" => false,
            "aes-256-cfb128" => true,
            c => {
                errors.push(format!("error: unknown cipher `{c}` (aes-256-ecb, aes-256-cfb128)\n  --> {CONTAINERS_FILE}: {at}.cipher"));
                false
            }
        };
        let (Some(md5), Some(length)) = (find("md5"), find("length")) else {
            errors.push(format!(
                "error: a layout needs `md5` and `length`\n  --> {CONTAINERS_FILE}: {at}.fields"
            ));
            continue;
        };
        if (md5.2, length.2) != (16, 8) {
            errors.push(format!(
                "error: `md5` is 16 bytes and `length` 8\n  --> {CONTAINERS_FILE}: {at}.fields"
            ));
        }
        let iv = find("iv").map(|f| f.1);
        if cfb != iv.is_some() {
            errors.push(format!(
                "error: CFB needs an `iv` field and ECB has none\n  --> {CONTAINERS_FILE}: {at}"
            ));
        }
        let mode = find("mode").map(|f| {
            (
                f.1,
                l.fields
                    .iter()
                    .find(|r| r.name == "mode")
                    .and_then(|r| r.value)
                    .unwrap_or(0),
            )
        });
        layouts.push(EncryptedLayout {
            name: l.name.clone(),
            versions: l.versions.clone(),
            cfb,
            source: l.source.clone(),
            header_len: fields.last().map_or(0, |f| f.1 + f.2),
            mode,
            md5: md5.1,
            length: length.1,
            iv,
        });
    }
    let encrypted_magic = magic(&raw.encrypted.magic, "encrypted.magic", &mut errors);
    let compressed_magic = magic(&raw.compressed.magic, "compressed.magic", &mut errors);
    let compressed_fields = offsets(&raw.compressed.fields, "compressed", &mut errors);
    let expected = ["magic", "mode", "block_size", "length"];
    if compressed_fields.iter().map(|f| f.0.as_str()).ne(expected)
        || compressed_fields.iter().any(|f| f.2 != 4)
    {
        errors.push(format!("error: the compressed header is `magic`, `mode`, `block_size`, `length`, 4 bytes each\n  --> {CONTAINERS_FILE}: compressed.fields"));
    }
    for (i, m) in raw.compressed.modes.iter().enumerate() {
        if m.id as usize != i {
            errors.push(format!("error: modes are listed by id from 0; `{}` is {}\n  --> {CONTAINERS_FILE}: compressed.modes[{i}]", m.name, m.id));
        }
    }
    if !errors.is_empty() {
        anyhow::bail!("{}", errors.join("\n"));
    }
    Ok(Containers {
        encrypted_magic,
        padding: raw.encrypted.padding,
        layouts,
        compressed_magic,
        compressed_versions: raw.compressed.versions,
        compressed_source: raw.compressed.source,
        default_block_size: raw.compressed.default_block_size,
        compressed_fields,
        modes: raw
            .compressed
            .modes
            .into_iter()
            .map(|m| (m.id, m.name, m.writes))
            .collect(),
    })
}
