//! Godot 4.7: its wire is 4.6.3's, so engine-made Godot 4 bytes read and write the same at 4.7.x, NodePath padding is zero, `guess` names 4.7.2, and engine mode uses 4.7's class list.
//!
//! What the 4.7 engine writes: `core/io/marshalls.cpp` encode_variant took one change between
//! 4.6 and 4.7, godotengine/godot PR #116105 (merged for 4.7-dev in February 2026, cherry-picked
//! to 4.6.3), which zeroes the padding after each NodePath name; before it the NodePath case
//! skipped the padding with `buf += pad + utf8.length()` and left whatever the buffer held
//! (marshalls.cpp, encode_variant, case NODE_PATH, as in the fork xianofantasia/Go at
//! 3a405fc028d7fa5c3a764aadd483f95ae4370baa). Every other case, the header flags, the typed
//! container headers (`_encode_container_type_header`) and `_encode_string`'s zeroed padding
//! are the 4.4 to 4.6 code unchanged.

mod common;
use common::*;
use gdvariant::guess::{eras, guess};
use gdvariant::{
    decode, encode, from_text, to_text, DecodeOptions, Dialect, EncodeOptions, NodePath, Variant,
    Version,
};

const G463: Version = Version::new(4, 6, 3);
const G470: Version = Version::new(4, 7, 0);
const G472: Version = Version::new(4, 7, 2);

fn decode_at(bytes: &[u8], version: Version, allow_objects: bool) -> Option<Variant> {
    let options = DecodeOptions {
        version: Some(version),
        allow_objects,
        ..Default::default()
    };
    decode(bytes, Dialect::Godot4, &options)
        .ok()
        .map(|(v, _)| v)
}

fn encode_at(v: &Variant, version: Version, full_objects: bool) -> Option<Vec<u8>> {
    let options = EncodeOptions {
        version: Some(version),
        full_objects,
        ..Default::default()
    };
    encode(v, Dialect::Godot4, &options).ok()
}

#[test]
fn engine_made_godot4_bytes_read_and_write_at_4_7_as_at_4_6_3() {
    let mut checked = 0;
    let mut bad = Mismatches::default();
    let mut fixtures = load("godot4");
    fixtures.extend(load("godot4.4"));
    let total = fixtures.len();
    for f in &fixtures {
        let objects = f.bool("full_objects");
        let Some(at_463) = decode_at(&f.bytes, G463, objects) else {
            continue;
        };
        // Values hold NaNs, so the readings are compared by what they write.
        let old = encode_at(&at_463, G463, objects);
        for v in [G470, G472] {
            let new =
                decode_at(&f.bytes, v, objects).and_then(|at_47| encode_at(&at_47, v, objects));
            if new != old {
                bad.push(
                    &f.name,
                    format!("{v} reads and writes {new:?}, 4.6.3 {old:?}"),
                );
            }
        }
        checked += 1;
    }
    bad.check(total);
    assert!(checked > 250, "{checked} of {total}");
}

#[test]
fn a_nodepath_is_written_with_zeroed_padding() {
    // ^"/root/ab:c": header NODE_PATH (22); name count with the new-format bit 0x80000000;
    // one subname; flags 1 (absolute); then each name as a length and its UTF-8, padded to 4
    // with zeros (marshalls.cpp encode_variant case NODE_PATH, zeroed since PR #116105).
    let value = Variant::NodePath(Box::new(NodePath {
        names: vec!["root".into(), "ab".into()],
        subnames: vec!["c".into()],
        absolute: true,
    }));
    let mut bytes = Vec::new();
    for word in [22u32, 0x8000_0002, 1, 1, 4] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    bytes.extend_from_slice(b"root");
    bytes.extend_from_slice(&2u32.to_le_bytes());
    bytes.extend_from_slice(b"ab\0\0");
    bytes.extend_from_slice(&1u32.to_le_bytes());
    bytes.extend_from_slice(b"c\0\0\0");
    for v in [G470, G472] {
        assert_eq!(
            encode_at(&value, v, false).as_deref(),
            Some(&bytes[..]),
            "{v}"
        );
        assert_eq!(decode_at(&bytes, v, false).as_ref(), Some(&value), "{v}");
    }
}

#[test]
fn guess_names_4_7_2_as_the_end_of_the_newest_godot4_era() {
    let newest = *eras(Dialect::Godot4).last().expect("eras");
    assert_eq!((newest.first, newest.last), (Version::new(4, 4, 0), G472));
    assert_eq!(newest.to_string(), "Godot 4 4.4–4.7.2");
    // A typed Dictionary that a 4.4.1 engine wrote: only the 4.4 era reads it.
    let f = load("godot4.4")
        .into_iter()
        .find(|f| f.name.starts_with("v44_int_vec3"))
        .expect("fixture");
    let g = guess(&f.bytes, None);
    assert_eq!(g.best.era, newest, "{g}");
}

#[test]
fn engine_mode_knows_the_classes_4_7_added() {
    // A full object (OBJECT, 24, without the as-id flag) of `AreaLight3D` with no properties.
    // It is new in 4.7 and instantiable (spec/classes/godot4.7.yaml, from 4.7-stable's
    // extension_api.json); decode_variant refuses a class it cannot instantiate
    // (marshalls.cpp decode_variant case OBJECT, `ClassDB::can_instantiate`).
    let mut bytes = Vec::new();
    for word in [24u32, 11] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    bytes.extend_from_slice(b"AreaLight3D\0");
    bytes.extend_from_slice(&0u32.to_le_bytes());
    let strict = |version| DecodeOptions {
        version: Some(version),
        allow_objects: true,
        engine_strict: true,
        ..Default::default()
    };
    assert!(decode(&bytes, Dialect::Godot4, &strict(G463)).is_err());
    for v in [G470, G472] {
        let (value, used) = decode(&bytes, Dialect::Godot4, &strict(v)).unwrap();
        assert_eq!(used, bytes.len(), "{v}");
        assert!(matches!(value, Variant::Object(_)), "{v}: {value:?}");
    }
}

/// Property values as a Godot 4.7.2 editor saved them (github.com/GabrielMEH/godot-4.7.2-CIAM,
/// assets/scenes/point.tscn and assets/scenes/leveldata/level_01.tres at 54972e81481a;
/// project.godot lists the feature "4.7"). The reals are 4.5+'s Grisu2 digits, as a 32-bit
/// float's where the value survives narrowing (`78.23043`, not `%lg`'s `78.2304`).
const SAVED_BY_4_7_2: [&str; 9] = [
    "Vector2(0.75, 0.75)",
    "Rect2(512, 256, 256, 256)",
    "PackedStringArray(\"sprite\", \"collision_shape\", \"timer_ring\")",
    "NodePath(\"Sprite2D\")",
    "5.0",
    "\"nível 1\"",
    "78.23043",
    "Color(0.1422376, 0.1422376, 0.1422376, 1)",
    "Color(0.17752063, 1, 0.15802121, 1)",
];

#[test]
fn the_text_form_reads_and_writes_what_a_4_7_2_scene_holds() {
    let v472: gdvariant::Version = "4.7.2".parse().unwrap();
    for text in SAVED_BY_4_7_2 {
        let value = from_text(text, Dialect::Godot4).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(
            gdvariant::text::to_text_version(&value, Dialect::Godot4, v472),
            text
        );
    }
    // Godot 4.4 and before print six significant digits.
    let radius = from_text("78.23043", Dialect::Godot4).unwrap();
    assert_eq!(to_text(&radius, Dialect::Godot4), "78.2304");
}

/// A resource holding property lines a 4.7.2 editor saved: it is read as Godot 4.5+'s
/// writer (Grisu2 reals) and written back byte for byte; an edit is written as 4.5+ does.
#[test]
fn a_4_5_resource_is_written_back_with_its_reals() {
    use gdvariant::resource::{Encoding, ResourceFile, TextWriter};
    let text = "[gd_resource type=\"Resource\" format=3]\n\n[resource]\nradius = 78.23043\n\
                tint = Color(0.17752063, 1, 0.15802121, 1)\nscale = Vector2(0.75, 0.75)\n";
    let mut file = ResourceFile::read(text.as_bytes()).unwrap();
    assert!(matches!(
        file.encoding,
        Encoding::Text {
            writer: TextWriter::Godot45,
            ..
        }
    ));
    assert_eq!(file.write().unwrap(), text.as_bytes());
    file.main
        .set("radius", gdvariant::Variant::Float(1.0 / 3.0));
    let out = String::from_utf8(file.write().unwrap()).unwrap();
    assert!(out.contains("radius = 0.3333333333333333\n"), "{out}");
    // The same lines in %lg's digits are an older engine's file, and stay so.
    let old = text
        .replace("78.23043", "78.2304")
        .replace("0.17752063", "0.177521")
        .replace("0.15802121", "0.158021");
    let file = ResourceFile::read(old.as_bytes()).unwrap();
    assert!(matches!(
        file.encoding,
        Encoding::Text {
            writer: TextWriter::Godot43,
            ..
        }
    ));
    assert_eq!(file.write().unwrap(), old.as_bytes());
}
