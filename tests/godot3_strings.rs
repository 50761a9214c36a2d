//! Godot 3 strings that are not Unicode (lone UTF-16 surrogates, code points above U+10FFFF),
//! which Godot 3.2.3 keeps: they survive decode and encode, the borrowed decoder, the exact
//! text and the JSON form unchanged, checked against the engine's own bytes.

mod common;
#[path = "support/godot3.rs"]
mod godot3;

use common::{load, unhex};
use gdvariant::json::{from_json, to_json};
use gdvariant::{
    decode, decode_borrowed, encode, from_text, to_text_exact, DecodeOptions, Dialect,
    EncodeOptions, GString, NodePath, Variant, Version,
};

fn g3() -> DecodeOptions {
    DecodeOptions {
        version: Some(Version::new(3, 2, 3)),
        ..DecodeOptions::default()
    }
}

/// Every way out and back in: encode, borrowed decode, exact text, JSON.
fn round_trips(v: &Variant, bytes: &[u8]) {
    let (owned, used) = decode(bytes, Dialect::Godot3, &g3()).unwrap();
    assert_eq!(used, bytes.len());
    assert_eq!(&owned, v, "decode");
    let (borrowed, _) = decode_borrowed(bytes, Dialect::Godot3, &g3()).unwrap();
    assert_eq!(&borrowed.to_owned(), v, "borrowed");
    assert_eq!(&borrowed.into_owned(), v, "borrowed, into_owned");
    let again = encode(v, Dialect::Godot3, &EncodeOptions::default()).unwrap();
    assert_eq!(again, bytes, "encode");
    let text = to_text_exact(v, Dialect::Godot3);
    assert_eq!(
        &from_text(&text, Dialect::Godot3).unwrap(),
        v,
        "exact text {text}"
    );
    let json = to_json(v);
    assert_eq!(&from_json(&json).unwrap(), v, "JSON {json}");
    // The streaming JSON reader, from the text.
    let json_text = gdvariant::json::to_json_string(v);
    let streamed = gdvariant::json::from_json_str(&json_text).unwrap();
    assert_eq!(&streamed, v, "JSON text {json_text}");
}

/// The Godot 3.2.3 corpus's strings that are not Unicode: the engine re-encoded each to its
/// own input bytes, and so do we.
#[test]
fn the_engines_surrogates_and_wide_code_points_survive() {
    let names = [
        "utf8_surrogate_high",
        "utf8_surrogate_low",
        "utf8_surrogate_pair",
        "utf8_above_max",
        "utf8_5_byte",
    ];
    let cases = load("godot3/malformed");
    for name in names {
        let c = cases.iter().find(|c| c.name == name).expect(name);
        assert!(c.bool("ok"), "{name}: the engine accepts it");
        let engine = unhex(c.str("reencoded_hex"));
        let (v, _) = decode(&c.bytes, Dialect::Godot3, &g3()).unwrap();
        let s = v.as_gstring().unwrap();
        assert!(!s.is_unicode(), "{name}");
        assert_eq!(format!("{s:?}"), c.str("text"), "{name}: the code points");
        round_trips(&v, &engine);
        // Godot 4 refuses such bytes, so they are not written for it.
        assert!(encode(&v, Dialect::Godot4, &EncodeOptions::default()).is_err());
    }
}

/// Values that hold such strings everywhere a Godot 3 string goes.
fn wide_values() -> Vec<Variant> {
    let wide = |points: &[u32]| GString::from_code_points(points.iter().copied()).unwrap();
    let lone = wide(&[0x61, 0xd800]);
    let pair = wide(&[0xd83d, 0xde00]);
    let far = wide(&[0x110000, 0x7fff_ffff]);
    let mut dict = gdvariant::Dictionary::new();
    // Keys that a `str` shows alike are different keys to the engine.
    dict.insert(Variant::String(lone.clone()), 1.into());
    dict.insert(Variant::from("a\u{fffd}"), 2.into());
    dict.insert(Variant::String(far.clone()), Variant::String(pair.clone()));
    vec![
        Variant::String(lone.clone()),
        Variant::String(far.clone()),
        Variant::PackedStringArray(vec![lone.clone(), "plain".into(), pair.clone()]),
        Variant::NodePath(Box::new(NodePath {
            names: vec!["root".into(), lone.clone()],
            subnames: vec![far.clone()],
            absolute: true,
        })),
        Variant::Array(gdvariant::Array::new(vec![
            Variant::String(pair.clone()),
            Variant::Int(3),
        ])),
        Variant::Dictionary(dict),
    ]
}

#[test]
fn such_strings_survive_in_every_place_a_string_goes() {
    for v in wide_values() {
        let bytes = encode(&v, Dialect::Godot3, &EncodeOptions::default()).unwrap();
        round_trips(&v, &bytes);
    }
}

/// The same values handed to the real Godot 3.2.3: it reads our bytes and writes them back
/// unchanged (so it keeps every code point, and the two keys apart).
#[test]
fn godot3_reads_and_writes_back_our_bytes() {
    let Some(engine) = godot3::engine() else {
        return;
    };
    let blobs: Vec<(Vec<u8>, bool)> = wide_values()
        .iter()
        .map(|v| {
            (
                encode(v, Dialect::Godot3, &EncodeOptions::default()).unwrap(),
                false,
            )
        })
        .collect();
    let replies = engine.bytes2var(&blobs);
    for ((ours, _), reply) in blobs.iter().zip(replies) {
        match reply {
            godot3::Reply::Ok { bytes, .. } => {
                assert_eq!(common::hex(&bytes), common::hex(ours), "engine re-encoding")
            }
            godot3::Reply::Err(e) => panic!("the engine refused {}: {e}", common::hex(ours)),
        }
    }
}

/// Migrating such a value to Godot 4 gives its text, with U+FFFD, and says so.
#[test]
fn migrating_to_godot4_gives_the_text_and_reports_it() {
    use gdvariant::migrate::{migrate, Target};
    let from = Target::new(Dialect::Godot3, Some(Version::new(3, 2, 3)));
    let to = Target::new(Dialect::Godot4, Some(Version::new(4, 3, 0)));
    for v in wide_values() {
        let (out, report) = migrate(&v, from, to);
        assert!(!report.is_exact(), "{v:?}");
        let bytes = encode(&out, Dialect::Godot4, &EncodeOptions::default()).unwrap();
        let (back, _) = decode(&bytes, Dialect::Godot4, &DecodeOptions::default()).unwrap();
        assert_eq!(back, out);
        assert!(gdvariant::to_text(&out, Dialect::Godot4).contains('\u{fffd}'));
    }
}
