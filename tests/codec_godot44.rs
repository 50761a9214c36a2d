//! Godot 4.4.1: the engine's typed-Dictionary fixtures decode and re-encode byte for byte, and
//! containers typed by a class or script are written as the engine writes them without objects.

mod common;
use common::*;
use gdvariant::{decode, encode, DecodeOptions, Dialect, EncodeOptions, Variant, Version};

const G43: Version = Version::new(4, 3, 0);
const G441: Version = Version::new(4, 4, 1);

fn decode_at(f: &Fixture, version: Version) -> Variant {
    let options = DecodeOptions {
        version: Some(version),
        allow_objects: f.bool("full_objects"),
        ..Default::default()
    };
    let (value, used) =
        decode(&f.bytes, Dialect::Godot4, &options).unwrap_or_else(|e| panic!("{}: {e}", f.name));
    assert_eq!(used, f.bytes.len(), "{}", f.name);
    value
}

fn encode_at(v: &Variant, version: Version, full_objects: bool) -> Vec<u8> {
    let options = EncodeOptions {
        version: Some(version),
        full_objects,
        ..Default::default()
    };
    encode(v, Dialect::Godot4, &options).expect("encodes")
}

#[test]
fn every_godot441_fixture_round_trips_exactly() {
    let fixtures = load("godot4.4");
    assert_eq!(fixtures.len(), 20, "the Godot 4.4.1 corpus has 20 fixtures");
    let mut bad = Mismatches::default();
    for f in &fixtures {
        let value = decode_at(f, G441);
        let again = encode_at(&value, G441, f.bool("full_objects"));
        if again != f.expected {
            bad.push(
                &f.name,
                format!("want {}\n  got  {}", hex(&f.expected), hex(&again)),
            );
        }
    }
    bad.check(fixtures.len());
}

/// `typed_node_empty_full` (`Array[Node]` by `var_to_bytes_with_objects`) written by us
/// without full objects must be the engine's `typed_node_empty` (`var_to_bytes` of the same
/// Array), and so on for each pair the engines wrote both ways.
#[test]
fn class_and_script_types_go_out_as_encoded_object_as_id_without_objects() {
    let pairs = [
        ("godot4", G43, "typed_node_empty_full", "typed_node_empty"),
        (
            "godot4",
            G43,
            "typed_object_class_full",
            "typed_object_class",
        ),
        (
            "godot4.4",
            G441,
            "v44_node_int_empty_full",
            "v44_node_int_empty",
        ),
        ("godot4.4", G441, "v44_item_empty_full", "v44_item_empty"),
    ];
    for (dir, version, full, bare) in pairs {
        let fixtures = load(dir);
        let find = |name: &str| fixtures.iter().find(|f| f.name == name).expect(name);
        let (full, bare) = (find(full), find(bare));
        let value = decode_at(full, version);
        assert!(gdvariant::needs_full_objects(&value), "{}", full.name);
        assert_eq!(
            hex(&encode_at(&value, version, false)),
            hex(&bare.expected),
            "{} without full objects",
            full.name
        );
        assert_eq!(
            hex(&encode_at(&value, version, true)),
            hex(&full.expected),
            "{} with full objects",
            full.name
        );
        // What the engine wrote without objects needs no flag to come back the same.
        assert!(!gdvariant::needs_full_objects(&decode_at(bare, version)));
    }
}
