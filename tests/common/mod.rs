//! Shared helpers of the integration tests: fixture manifests, hex, and mismatch reports.
#![allow(dead_code)]

pub mod guess;
pub mod text;
pub mod textgen;

use std::path::{Path, PathBuf};

/// The repository's `tests/fixtures` folder.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// One line of a `manifest.jsonl`, with the bytes of its fixture loaded.
#[derive(Debug, Clone)]
pub struct Fixture {
    pub name: String,
    pub json: serde_json::Value,
    /// The engine's bytes, exactly as written (NodePath padding may hold garbage).
    pub bytes: Vec<u8>,
    /// What a clean encoder writes: `NAME.zeroed.bin` when it exists, else the bytes.
    pub expected: Vec<u8>,
}

impl Fixture {
    pub fn str(&self, key: &str) -> &str {
        self.json.get(key).and_then(|v| v.as_str()).unwrap_or("")
    }
    pub fn bool(&self, key: &str) -> bool {
        self.json
            .get(key)
            .and_then(|v| v.as_bool())
            .unwrap_or(false)
    }
}

/// Loads every fixture of `dir` (relative to tests/fixtures) listed in its manifest.
pub fn load(dir: &str) -> Vec<Fixture> {
    let dir = fixtures().join(dir);
    let text = std::fs::read_to_string(dir.join("manifest.jsonl"))
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let json: serde_json::Value =
                serde_json::from_str(line).expect("manifest line is JSON");
            let name = json["name"].as_str().expect("name").to_string();
            let bytes = match std::fs::read(dir.join(format!("{name}.bin"))) {
                Ok(b) => b,
                Err(_) => unhex(json["hex"].as_str().expect("hex")),
            };
            let zeroed = dir.join(format!("{name}.zeroed.bin"));
            let expected = std::fs::read(&zeroed).unwrap_or_else(|_| bytes.clone());
            Fixture {
                name,
                json,
                bytes,
                expected,
            }
        })
        .collect()
}

pub fn unhex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Collects failures so that one run reports every fixture that is wrong, not just the first.
#[derive(Default)]
pub struct Mismatches(Vec<String>);

impl Mismatches {
    pub fn push(&mut self, name: &str, what: impl std::fmt::Display) {
        self.0.push(format!("{name}: {what}"));
    }
    pub fn check(self, total: usize) {
        assert!(
            self.0.is_empty(),
            "{} of {total} failed:\n{}",
            self.0.len(),
            self.0.join("\n")
        );
    }
}

/// The owned value, built only through the views' public reading API (`iter`, `len`,
/// `typed`), not through `to_owned`, which takes the owned decoder's path.
pub fn walk(v: &gdvariant::VariantRef<'_>) -> gdvariant::Variant {
    use gdvariant::{Array, Dictionary, Variant, VariantRef};
    match v {
        VariantRef::Array(a) => {
            let items: Vec<Variant> = a.iter().map(|x| walk(&x)).collect();
            assert_eq!(items.len(), a.len(), "an array view reads len() elements");
            Variant::Array(Array {
                items,
                typed: a.typed.clone(),
            })
        }
        VariantRef::Dictionary(d) => {
            let mut out: Dictionary = d.iter().map(|(k, v)| (walk(&k), walk(&v))).collect();
            assert_eq!(out.len(), d.len(), "a dictionary view has unique keys");
            out.set_typed(d.typed().cloned());
            Variant::Dictionary(out)
        }
        other => other.to_owned(),
    }
}

/// Both decoders on the same bytes: the same verdict, the same value, the same `used`.
pub fn agree(
    bytes: &[u8],
    dialect: gdvariant::Dialect,
    o: &gdvariant::DecodeOptions,
) -> Result<(), String> {
    match (
        gdvariant::decode(bytes, dialect, o),
        gdvariant::decode_borrowed(bytes, dialect, o),
    ) {
        (Ok((owned, used)), Ok((borrowed, used_b))) => {
            if used != used_b {
                return Err(format!("used {used} vs borrowed {used_b}"));
            }
            if !borrowed.to_owned().same(&owned) {
                return Err(format!("to_owned differs:\n  {owned:?}\n  {borrowed:?}"));
            }
            if !borrowed.clone().into_owned().same(&owned) {
                return Err("into_owned differs".into());
            }
            if borrowed.kind() != owned.kind() {
                return Err("kind differs".into());
            }
            // The views read element by element give the same value as the owned decoder.
            if !walk(&borrowed).same(&owned) {
                return Err(format!(
                    "walking the views differs:\n  {owned:?}\n  {borrowed:?}"
                ));
            }
            Ok(())
        }
        (Err(a), Err(b)) if a == b => Ok(()),
        (a, b) => Err(format!(
            "verdicts differ: owned {:?}, borrowed {:?}",
            a.map(|x| x.1),
            b.map(|x| x.1)
        )),
    }
}

pub fn inside(part: &[u8], whole: &[u8]) -> bool {
    let (p, w) = (part.as_ptr() as usize, whole.as_ptr() as usize);
    p >= w && p + part.len() <= w + whole.len()
}
