//! The lossless JSON form: every engine-made fixture goes to JSON and back to the same bytes.

mod common;
use common::*;
use gdvariant::{decode, encode, json, DecodeOptions, Dialect, EncodeOptions, Variant, Version};

const G43: Version = Version::new(4, 3, 0);

/// Decode (keeping every byte), print as JSON text, parse it back, encode: the engine's bytes.
#[test]
fn every_godot4_fixture_survives_json_text_exactly() {
    let fixtures = load("godot4");
    let mut bad = Mismatches::default();
    for f in &fixtures {
        let full = f.bool("full_objects");
        let dopts = DecodeOptions {
            version: Some(G43),
            allow_objects: full,
            keep_leading_bom: true,
            ..Default::default()
        };
        let (value, _) = decode(&f.bytes, Dialect::Godot4, &dopts).expect("fixture decodes");
        let text = json::to_json(&value).to_string();
        let back = match json::from_json_str(&text) {
            Ok(v) => v,
            Err(e) => {
                bad.push(&f.name, format!("JSON does not read back: {e}\n  {text}"));
                continue;
            }
        };
        if !back.same(&value) {
            bad.push(&f.name, format!("value changed through JSON\n  {text}"));
            continue;
        }
        let eopts = EncodeOptions {
            version: Some(G43),
            full_objects: full,
            ..Default::default()
        };
        match encode(&back, Dialect::Godot4, &eopts) {
            Ok(b) if b == f.expected => {}
            Ok(b) => bad.push(&f.name, format!("bytes differ: {}", hex(&b))),
            Err(e) => bad.push(&f.name, format!("encode: {e}")),
        }
    }
    bad.check(fixtures.len());
}

/// The awkward reals: signed zero, infinities, NaNs with payloads, in both widths.
#[test]
fn awkward_reals_keep_their_bits() {
    let f64s = [
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::from_bits(0x7ff8_0000_0000_0000),
        f64::from_bits(0xfff8_0000_0000_0000),
        f64::from_bits(0x7ff0_0000_0000_0001),
        f64::from_bits(0xfff4_0000_dead_beef),
        f64::MIN_POSITIVE,
        f64::from_bits(1),
        f64::MAX,
        0.1,
        1.0 / 3.0,
    ];
    let f32s = [
        0.0f32,
        -0.0,
        f32::INFINITY,
        f32::from_bits(0x7fc0_0000),
        f32::from_bits(0xffc0_0000),
        f32::from_bits(0x7f80_0001),
        f32::from_bits(0xff81_2345),
        f32::from_bits(1),
        f32::MAX,
        0.1,
    ];
    let v = Variant::Array(gdvariant::Array::new(vec![
        Variant::PackedFloat64Array(f64s.to_vec()),
        Variant::PackedFloat32Array(f32s.to_vec()),
        Variant::Array(gdvariant::Array::new(
            f64s.iter().map(|f| Variant::Float(*f)).collect(),
        )),
    ]));
    let text = json::to_json(&v).to_string();
    let back = json::from_json_str(&text).unwrap();
    assert!(back.same(&v), "{text}");
}

/// 64-bit integers beyond 2^53 are strings, so that jq (which uses doubles) keeps them.
#[test]
fn big_integers_are_strings_and_read_back() {
    for i in [i64::MIN, i64::MAX, (1 << 53) + 1, -(1 << 53) - 1] {
        let j = json::to_json(&Variant::Int(i));
        assert_eq!(j["value"], serde_json::Value::from(i.to_string()));
        assert_eq!(json::from_json(&j).unwrap(), Variant::Int(i));
    }
    let j = json::to_json(&Variant::Int(1 << 53));
    assert!(j["value"].is_number());
    // jq prints -0.0 as -0: it must still read back as a negative zero.
    let v = json::from_json_str(r#"{"type":"Float","value":-0}"#).unwrap();
    assert!(v.same(&Variant::Float(-0.0)));
}

/// Errors say where in the document and what was expected.
#[test]
fn errors_name_the_path() {
    let e = json::from_json_str(
        r#"{"type":"Array","value":[{"type":"Int","value":1},{"type":"Vector2","value":[1]}]}"#,
    )
    .unwrap_err();
    assert_eq!(e.path, "$.value[1].value");
    assert!(e.message.contains("2 reals"), "{e}");
    let e = json::from_json_str(r#"{"type":"Int2","value":1}"#).unwrap_err();
    assert!(e.to_string().contains("unknown type `Int2`"), "{e}");
}

/// A value as deep as the decoder accepts (1024 containers) goes to JSON text and back on an
/// ordinary test thread; deeper JSON is refused with a message, not a stack overflow.
#[test]
fn deep_values_fit_and_deeper_json_is_refused() {
    let mut v = Variant::Nil;
    for _ in 0..1024 {
        v = Variant::Array(gdvariant::Array::new(vec![v]));
    }
    let text = json::to_json_string(&v);
    let back = json::from_json_str(&text).unwrap();
    // (Compared through JSON: `Variant::same` itself recurses.)
    assert_eq!(json::to_json_string(&back), text);
    let from_stream = json::read_values(text.as_bytes()).next().unwrap().unwrap();
    assert_eq!(json::to_json_string(&from_stream), text);
    let deep = "[".repeat(100_000);
    let e = json::from_json_str(&deep).unwrap_err();
    assert!(e.message.contains("nested"), "{e}");
    let e = json::read_values(deep.as_bytes())
        .next()
        .unwrap()
        .unwrap_err();
    assert!(e.message.contains("deeper than"), "{e}");
}

/// `decode --format json` writes the JSON text by hand (`json::append_json`, for speed); it
/// must be byte for byte what serde_json writes for the one definition of the form
/// (`json::Json`), on every value the engines made (Godot 3.2.3 and Godot 4.3 fixtures:
/// strings with every escape, NaN payloads, typed containers, full objects, math types).
#[test]
fn the_hand_written_json_text_is_serde_json_text() {
    let mut bad = Mismatches::default();
    let mut total = 0;
    for (dir, dialect, version) in [
        ("godot3", Dialect::Godot3, Version::new(3, 2, 3)),
        ("godot4", Dialect::Godot4, G43),
    ] {
        for f in load(dir) {
            let dopts = DecodeOptions {
                version: Some(version),
                allow_objects: f.bool("full_objects"),
                keep_leading_bom: true,
                ..Default::default()
            };
            let (value, _) =
                decode(&f.bytes, dialect, &dopts).unwrap_or_else(|e| panic!("{}: {e}", f.name));
            total += 1;
            let ours = json::to_json_string(&value);
            let serde = serde_json::to_string(&json::Json(&value)).unwrap();
            if ours != serde {
                bad.push(&f.name, format!("\n  ours:  {ours}\n  serde: {serde}"));
            }
            let mut appended = b"x".to_vec();
            json::append_json(&mut appended, &value);
            if appended[1..] != *serde.as_bytes() {
                bad.push(&f.name, "append_json differs from to_json_string");
            }
        }
    }
    assert!(total > 500, "only {total} fixtures");
    bad.check(total);
}
