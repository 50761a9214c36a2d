//! The format-change drill: a new Godot version that adds a fixed-layout type and a packed array
//! of it is a spec edit and `cargo codegen`, with no hand-written file touched.
//!
//! In a copy of the workspace, spec/common.yaml and spec/godot4.yaml get a Godot "4.8" with
//! `Aabbi` (an integer AABB, which Godot could plausibly add beside `Rect2i`) as type 39 and
//! `PackedAabbiArray` as type 40. `cargo codegen` regenerates; then a test written into the copy
//! round-trips a value of each through bytes (checked against bytes written out by hand from
//! the new spec entry), text, JSON and `explain`, and checks that Godot 4.7 refuses them. The
//! docs/adding-a-type.md walks through the same edit.
//!
//! The resource spec family takes part too: spec/resource_binary.yaml gets a `.res` format 7
//! ("since 4.8") that stores `Aabbi` as type 54, and the same test writes and reads a `.res` of
//! that format through `ResourceFile`, again with no hand-written change.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What the drill adds to spec/common.yaml's `kinds:` (appended to the list).
const COMMON_KINDS: &str = r#"
  - {name: Aabbi, description: "An axis-aligned box of 32-bit integers",
     fields: [{name: position, type: Vector3i, description: "minimum corner"}, {name: size, type: Vector3i, description: "extent"}]}
  - {name: PackedAabbiArray, packed: Aabbi, description: "Packed integer boxes"}
"#;

/// The new era of spec/godot4.yaml.
const GODOT4_ERA: &str = r#"  - since: "4.8"
    count: 41
    description: "AABBI and PACKED_AABBI_ARRAY appended as ids 39 and 40 (the drill)"
"#;

/// The new types of spec/godot4.yaml.
const GODOT4_TYPES: &str = r#"
  Aabbi:
    name: AABBI
    ids: [{since: "4.8", id: 39}]
    description: "An axis-aligned box of 32-bit integers"
    fields:
      - {name: position.x, offset: 4, len: 4, type: i32, accessor: position.x, description: "Position X"}
      - {name: position.y, offset: 8, len: 4, type: i32, accessor: position.y, description: "Position Y"}
      - {name: position.z, offset: 12, len: 4, type: i32, accessor: position.z, description: "Position Z"}
      - {name: size.x, offset: 16, len: 4, type: i32, accessor: size.x, description: "Size X"}
      - {name: size.y, offset: 20, len: 4, type: i32, accessor: size.y, description: "Size Y"}
      - {name: size.z, offset: 24, len: 4, type: i32, accessor: size.z, description: "Size Z"}

  PackedAabbiArray:
    name: PACKED_AABBI_ARRAY
    ids: [{since: "4.8", id: 40}]
    description: "Integer boxes"
    fields:
      - {name: count, offset: 4, len: 4, type: u32, description: "Array length (elements)"}
      - name: elements
        offset: 8
        len: count*24
        type: repeat
        count: count
        description: "The elements, one after the other"
        element:
          - {name: position.x, offset: 0, len: 4, type: i32, description: Position X}
          - {name: position.y, offset: 4, len: 4, type: i32, description: Position Y}
          - {name: position.z, offset: 8, len: 4, type: i32, description: Position Z}
          - {name: size.x, offset: 12, len: 4, type: i32, description: Size X}
          - {name: size.y, offset: 16, len: 4, type: i32, description: Size Y}
          - {name: size.z, offset: 20, len: 4, type: i32, description: Size Z}
"#;

/// What the drill adds to spec/resource_binary.yaml: a format 7 and its new type.
const RESOURCE_FORMAT: &str = "  7: {engine: \"4.8\", change: \"AABBI (the drill)\"}\n";
const RESOURCE_TYPE: &str = "  Aabbi: {id: 54, since: 7}\n";

/// The test the drill runs inside the edited copy: it names the new types, as a user would.
const DRILL_TEST: &str = r##"
use gdvariant::explain::{explain, ExplainOptions};
use gdvariant::json::{from_json, to_json};
use gdvariant::math::{Aabbi, Vector3i};
use gdvariant::{decode, encode, from_text, to_text, DecodeOptions, Dialect, EncodeOptions, Kind, Variant, Version};

fn d48_again() -> DecodeOptions {
    DecodeOptions { version: Some(Version::new(4, 8, 0)), ..Default::default() }
}

fn le(words: &[i32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn the_new_types_round_trip_everywhere() {
    let a = Aabbi::new(Vector3i::new(1, -2, 3), Vector3i::new(4, 5, 6));
    let b = Aabbi::new(Vector3i::new(-7, 8, 9), Vector3i::new(10, 11, 12));
    let cases = [
        (Variant::from(a), le(&[39, 1, -2, 3, 4, 5, 6]), "Aabbi(1, -2, 3, 4, 5, 6)"),
        (
            Variant::PackedAabbiArray(vec![a, b]),
            le(&[40, 2, 1, -2, 3, 4, 5, 6, -7, 8, 9, 10, 11, 12]),
            "PackedAabbiArray(1, -2, 3, 4, 5, 6, -7, 8, 9, 10, 11, 12)",
        ),
    ];
    let v48 = EncodeOptions { version: Some(Version::new(4, 8, 0)), ..Default::default() };
    let d48 = DecodeOptions { version: Some(Version::new(4, 8, 0)), ..Default::default() };
    for (value, bytes, text) in cases {
        // Bytes, as the new spec entry lays them out.
        assert_eq!(encode(&value, Dialect::Godot4, &v48).unwrap(), bytes);
        assert_eq!(decode(&bytes, Dialect::Godot4, &d48).unwrap(), (value.clone(), bytes.len()));
        // Text form, both ways.
        assert_eq!(to_text(&value, Dialect::Godot4), text);
        assert_eq!(from_text(text, Dialect::Godot4).unwrap(), value);
        // JSON, both ways.
        let json = to_json(&value);
        assert_eq!(from_json(&json).unwrap(), value, "{json}");
        // explain names every field from the spec, and reads to the end.
        let mut o = ExplainOptions::new(Dialect::Godot4);
        o.decode = d48.clone();
        let e = explain(&bytes, &o);
        let dump = e.to_string();
        assert!(e.error.is_none(), "{dump}");
        assert!(dump.contains("AABBI"), "{dump}");
        // Godot 4.7 has neither type.
        let v47 = EncodeOptions { version: Some(Version::new(4, 7, 2)), ..Default::default() };
        assert!(encode(&value, Dialect::Godot4, &v47).is_err());
        let d47 = DecodeOptions { version: Some(Version::new(4, 7, 2)), ..Default::default() };
        assert!(decode(&bytes, Dialect::Godot4, &d47).is_err());
    }
    assert_eq!(to_json(&Variant::from(a)).to_string(),
        r#"{"type":"Aabbi","value":{"position":[1,-2,3],"size":[4,5,6]}}"#);
    let one = le(&[39, 1, -2, 3, 4, 5, 6]);
    let mut o = ExplainOptions::new(Dialect::Godot4);
    o.decode = d48_again();
    let dump = explain(&one, &o).to_string();
    assert!(dump.contains("size.z") && dump.contains("Position X"), "{dump}");
    assert!(Kind::Aabbi.is_fixed());
    assert_eq!(Kind::PackedAabbiArray.packed_element(), Some(Kind::Aabbi));
}

#[test]
fn a_new_res_format_reads_and_writes() {
    use gdvariant::resource::{binary_formats, BinaryHeader, Encoding, Resource, ResourceFile};
    assert_eq!(binary_formats().last().map(|f| (f.0, f.1)), Some((7, "4.8")));
    let a = Aabbi::new(Vector3i::new(1, -2, 3), Vector3i::new(4, 5, 6));
    let header = |format| BinaryHeader {
        major: 4, minor: 8, format, real64: false, import_metadata_offset: 0, flags: 3,
        uid: u64::MAX, strings: Vec::new(), big_endian: false, compressed: None,
    };
    let file = ResourceFile {
        class: "Resource".into(),
        script_class: None,
        encoding: Encoding::Binary(header(7)),
        ext_resources: Vec::new(),
        sub_resources: Vec::new(),
        main: Resource {
            class: "Resource".into(),
            id: Variant::String("Resource_main".into()),
            properties: vec![("box".into(), Variant::from(a))],
        },
        scene: Vec::new(),
    };
    let bytes = file.write().unwrap();
    // The header names format 7 (after RSRC, the byte order, real64, 4, 8).
    assert_eq!(&bytes[..24], [&b"RSRC"[..], &le(&[0, 0, 4, 8, 7])].concat());
    // The property: type 54, then the six ints, as the spec entry says.
    let want = le(&[54, 1, -2, 3, 4, 5, 6]);
    assert!(bytes.windows(want.len()).any(|w| w == want), "{bytes:?}");
    let back = ResourceFile::read(&bytes).unwrap();
    assert_eq!(back.main, file.main);
    assert_eq!(back.write().unwrap(), bytes);
    // Format 6 has no Aabbi, and a format 8 file is newer than known.
    let mut old = file.clone();
    old.encoding = Encoding::Binary(header(6));
    assert!(old.write().is_err());
    let mut newer = bytes.clone();
    newer[20] = 8;
    assert!(ResourceFile::read(&newer).is_err());
}
"##;

/// What the drill copies: the workspace without its tests, fixtures and build output.
const COPIED: [&str; 11] = [
    "Cargo.toml",
    "Cargo.lock",
    ".cargo",
    "src",
    "codegen",
    "derive",
    "spec",
    "docs",
    "benches",
    // A workspace member (the Python package): the manifest lists it.
    "python",
    // Cargo.toml names some examples (their features), so the manifest needs them.
    "examples",
];

fn copy_dir(from: &Path, to: &Path) {
    if from.is_file() {
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::copy(from, to).expect("copy file");
        return;
    }
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read dir") {
        let e = e.expect("dir entry");
        copy_dir(&e.path(), &to.join(e.file_name()));
    }
}

/// Every file under `dir` with its bytes, by path relative to `root`.
fn files(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
    for e in std::fs::read_dir(dir).expect("read dir") {
        let p = e.expect("dir entry").path();
        if p.is_dir() {
            files(root, &p, out);
        } else {
            let rel = p.strip_prefix(root).expect("under root").to_path_buf();
            out.push((rel, std::fs::read(&p).expect("read file")));
        }
    }
}

/// The hand-written files: everything but the spec and what `cargo codegen` writes.
fn hand_written(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut all = Vec::new();
    for top in ["src", "codegen", "derive", "benches"] {
        files(root, &root.join(top), &mut all);
    }
    all.retain(|(p, _)| !p.starts_with("src/generated"));
    all.sort();
    all
}

fn insert_after(text: &str, anchor: &str, what: &str) -> String {
    let at = text
        .find(anchor)
        .unwrap_or_else(|| panic!("`{anchor}` not in the spec"))
        + anchor.len();
    format!("{}{}{}", &text[..at], what, &text[at..])
}

fn cargo(dir: &Path, target: &Path, args: &[&str]) {
    let out = Command::new(env!("CARGO"))
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo {args:?} failed in the drill workspace:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_new_type_is_a_spec_edit_and_a_regenerate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("format-drill");
    let ws = tmp.join("workspace");
    let _ = std::fs::remove_dir_all(&ws);
    for item in COPIED {
        copy_dir(&root.join(item), &ws.join(item));
    }
    let before = hand_written(&ws);

    // The spec edit: the kinds, the new Godot 4 version, its era and its types.
    let common_path = ws.join("spec/common.yaml");
    let common = std::fs::read_to_string(&common_path).expect("common.yaml");
    let common = insert_after(
        &common,
        "description: \"A packed typed Array (Pandemonium 5.x)\"}",
        COMMON_KINDS,
    );
    std::fs::write(&common_path, common).expect("write common.yaml");
    let g4_path = ws.join("spec/godot4.yaml");
    let g4 = std::fs::read_to_string(&g4_path).expect("godot4.yaml");
    let newest = g4
        .lines()
        .find(|l| l.starts_with("newest:"))
        .expect("newest")
        .to_string();
    let g4 = g4.replacen(&newest, "newest: \"4.8\"", 1);
    let g4 = insert_after(
        &g4,
        "PACKED_VECTOR4_ARRAY appended as id 38 (PR #85474)\"\n",
        GODOT4_ERA,
    );
    let g4 = format!("{g4}{GODOT4_TYPES}");
    std::fs::write(&g4_path, g4).expect("write godot4.yaml");
    let res_path = ws.join("spec/resource_binary.yaml");
    let res = std::fs::read_to_string(&res_path).expect("resource_binary.yaml");
    let res = insert_after(&res, "change: \"PackedVector4Array\"}\n", RESOURCE_FORMAT);
    let res = insert_after(
        &res,
        "PackedVector4Array: {id: 53, since: 6}\n",
        RESOURCE_TYPE,
    );
    std::fs::write(&res_path, res).expect("write resource_binary.yaml");

    // Regenerate, then run a test of the new types against the regenerated library.
    let target = tmp.join("target");
    cargo(
        &ws,
        &target,
        &["run", "--quiet", "-p", "gdvariant-codegen", "--"],
    );
    std::fs::create_dir_all(ws.join("tests")).expect("mkdir tests");
    std::fs::write(
        ws.join("tests/drill.rs"),
        format!("//! The drill's own test.\n{DRILL_TEST}"),
    )
    .expect("write drill test");
    cargo(&ws, &target, &["test", "--quiet", "--test", "drill"]);
    // Both tests ran (a filter or a cfg could leave one out silently).
    let listed = Command::new(env!("CARGO"))
        .args(["test", "--quiet", "--test", "drill", "--", "--list"])
        .current_dir(&ws)
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .expect("cargo runs");
    let listed = String::from_utf8_lossy(&listed.stdout);
    assert!(
        listed.contains("a_new_res_format_reads_and_writes: test"),
        "{listed}"
    );

    // And nothing hand-written changed.
    let after = hand_written(&ws);
    let changed: Vec<&PathBuf> = before
        .iter()
        .zip(&after)
        .filter(|(a, b)| a != b)
        .map(|(a, _)| &a.0)
        .collect();
    assert!(
        before.len() == after.len() && changed.is_empty(),
        "the drill changed hand-written files: {changed:?}"
    );
}
