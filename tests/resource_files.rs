//! Resource files (`.tres`, `.res`) saved by the engines: read, written back byte for
//! byte, edited, and refused clearly when corrupt.

use gdvariant::resource::ResourceFile;
use gdvariant::text::reference_of;
use gdvariant::Variant;
use std::path::Path;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/resource")
            .join(name),
    )
    .unwrap()
}

#[test]
fn engine_files_round_trip_byte_for_byte() {
    for name in [
        "godot4.3/save.tres",
        "godot4.3/save.res",
        "godot4.3/ext.tres",
    ] {
        let bytes = fixture(name);
        let file = ResourceFile::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = file.write().unwrap();
        assert!(
            back == bytes,
            "{name}:\n{}\n---\n{}",
            String::from_utf8_lossy(&back),
            String::from_utf8_lossy(&bytes)
        );
    }
}

#[test]
fn text_and_binary_hold_the_same_values() {
    let text = ResourceFile::read(&fixture("godot4.3/save.tres")).unwrap();
    let binary = ResourceFile::read(&fixture("godot4.3/save.res")).unwrap();
    assert_eq!(text.main.get("hp"), Some(&Variant::Int(90)));
    assert_eq!(binary.main.get("hp"), Some(&Variant::Int(90)));
    assert_eq!(text.main.get("big"), binary.main.get("big"));
    // The text sorts a Dictionary's keys (as the engine prints it); the binary keeps the
    // insertion order.
    let len = |f: &ResourceFile| match f.main.get("stats") {
        Some(Variant::Dictionary(d)) => d.len(),
        _ => 0,
    };
    assert_eq!((len(&text), len(&binary)), (2, 2));
    let (class, _) = reference_of(text.main.get("child").unwrap()).unwrap();
    assert_eq!(class, "SubResource");
    let (class, _) = reference_of(binary.main.get("ext").unwrap()).unwrap();
    assert_eq!(class, "ExtResource");
}

#[test]
fn truncated_and_corrupt_files_are_refused_with_offsets() {
    let bytes = fixture("godot4.3/save.res");
    for cut in (0..bytes.len()).step_by(7) {
        let _ = ResourceFile::read(&bytes[..cut]);
    }
    let mut bad = bytes.clone();
    for i in (4..bad.len()).step_by(13) {
        bad[i] ^= 0xff;
        let _ = ResourceFile::read(&bad);
    }
    let err = ResourceFile::read(&bytes[..40]).unwrap_err();
    assert!(err.to_string().contains("at offset"), "{err}");
    let text = fixture("godot4.3/save.tres");
    for cut in 0..text.len() {
        let _ = ResourceFile::read(&text[..cut]);
    }
}

#[test]
fn typed_access_fills_a_derived_struct() {
    #[derive(gdvariant::GodotVariant, Debug, PartialEq)]
    struct Save {
        name: String,
        hp: i64,
        tags: Vec<String>,
    }
    for name in [
        "godot4.3/save.tres",
        "godot4.3/save.res",
        "godot3.2/save.res",
    ] {
        let file = ResourceFile::read(&fixture(name)).unwrap();
        let save: Save = file
            .main
            .to_typed()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(save.hp, 90);
        assert_eq!(save.tags, ["a", "b"]);
    }
}

/// Random edits of every fixture (a fixed-seed generator): each is read or refused, never a
/// panic, and what is read writes back.
#[test]
fn mutated_files_never_panic() {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for name in [
        "godot4.3/save.res",
        "godot4.3/save.tres",
        "godot3.2/save.res",
        "godot3.2/save.tres",
    ] {
        let bytes = fixture(name);
        for _ in 0..3000 {
            let mut b = bytes.clone();
            for _ in 0..1 + next() % 4 {
                let i = (next() as usize) % b.len();
                b[i] = next() as u8;
            }
            if let Ok(file) = ResourceFile::read(&b) {
                let _ = file.write();
            }
        }
    }
}

/// A fuzz finding: a section attribute that is no plain string (here a StringName holding a
/// line break) was read, then written between quotes as the engine writes attributes, and
/// the result did not read back. Such a file is refused when read.
#[test]
fn attributes_that_cannot_be_quoted_are_refused() {
    for text in [
        "[gd_resource type=\"Resource\" format=3]\n\n[ext_resource type=&\"X\" path=\"p\" id=\"1\"]\n\n[resource]\n",
        "[gd_resource type=\"Resource\" format=3]\n\n[sub_resource type=&\"a\nb\" id=\"x\"]\n\n[resource]\n",
    ] {
        let err = ResourceFile::read(text.as_bytes()).unwrap_err();
        assert!(err.to_string().contains("quote or a line break"), "{err}");
    }
    let file = ResourceFile::read(&fixture("godot4.3/save.tres")).unwrap();
    assert!(ResourceFile::read(&file.write().unwrap()).is_ok());
}

/// A fuzz finding: a property named twice in a section; the engine's loader sets it twice
/// (the last value wins, in the first one's place), and so does the reader.
#[test]
fn a_property_named_twice_keeps_its_last_value() {
    let text =
        "[gd_resource type=\"Resource\" format=3]\n\n[resource]\nhp = 1\nname = \"a\"\nhp = 2\n";
    let file = ResourceFile::read(text.as_bytes()).unwrap();
    assert_eq!(
        file.main.properties,
        [
            ("hp".to_string(), Variant::Int(2)),
            ("name".to_string(), Variant::from("a"))
        ]
    );
    let model = ResourceFile::from_variant(&file.to_variant()).unwrap();
    assert_eq!(model.write().unwrap(), file.write().unwrap());
}
