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

/// `text` is what serde_json writes for `json::Json(v)` (the definition of the form), and
/// `append_json` appends exactly that.
fn written_as_serde_writes(v: &Variant) {
    let serde = serde_json::to_string(&json::Json(v)).unwrap();
    assert_eq!(json::to_json_string(v), serde, "{v:?}");
    let mut appended = b"x".to_vec();
    json::append_json(&mut appended, v);
    assert_eq!(appended[1..], *serde.as_bytes(), "append_json of {v:?}");
}

/// The hand-written JSON text against serde_json's on the edges of each of its shortcuts:
/// every escape at every place in a string (short and long), strings that are not Unicode,
/// U+2028, integers and ids at every digit count and at ±2^53, reals whole and not, NaNs
/// and infinities in both widths, and each kind of value.
#[test]
fn the_hand_written_json_text_is_serde_json_text_at_the_edges() {
    use gdvariant::math::*;
    use gdvariant::{Array, Dictionary, FullObject, GString, NodePath, Object, Signal, StringName};
    let mut strings: Vec<GString> = ["", "a", "GDSAVE", "res://maps/level_01.tscn", "é日😀"]
        .into_iter()
        .map(GString::from)
        .collect();
    for special in (0u8..0x20).map(char::from).chain([
        '"', '\\', '/', '\x7f', '\u{2028}', '\u{2029}', 'é', '\u{feff}',
    ]) {
        for len in [1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40] {
            for at in 0..len {
                let s: String = (0..len)
                    .map(|i| if i == at { special } else { 'a' })
                    .collect();
                strings.push(s.into());
            }
        }
        strings.push(String::from(special).repeat(3).into());
    }
    let not_unicode = [
        GString::from_code_points([0xd800]).unwrap(),
        GString::from_code_points([b'"' as u32, 0xdfff, 0x0a]).unwrap(),
        GString::from_code_points([0x110000, 0x41]).unwrap(),
    ];
    assert!(not_unicode.iter().all(|s| !s.is_unicode()));
    strings.extend(not_unicode);

    let mut values: Vec<Variant> = Vec::new();
    for s in &strings {
        values.push(Variant::String(s.clone()));
        values.push(Variant::StringName(StringName(s.clone())));
    }
    values.push(Variant::PackedStringArray(strings.clone()));
    values.push(Variant::NodePath(Box::new(NodePath {
        names: strings[..40].to_vec(),
        subnames: strings[strings.len() - 3..].to_vec(),
        absolute: true,
    })));
    let texts: Vec<String> = strings
        .iter()
        .filter_map(|s| s.as_unicode())
        .map(String::from)
        .collect();
    for t in &texts[..60] {
        values.push(Variant::Signal(Signal {
            name: t.clone(),
            object: 7,
        }));
        values.push(Variant::Object(Object::Full(Box::new(FullObject {
            class: t.clone(),
            properties: vec![(t.clone(), Variant::Nil)],
        }))));
    }

    let mut ints = vec![0i64, i64::MIN, i64::MAX, i64::MIN + 1];
    let mut p = 1i64;
    for _ in 0..19 {
        ints.extend([p - 1, p, p + 1, 2 * p, 9 * p]);
        p = p.saturating_mul(10);
    }
    for e in [31, 32, 52, 53, 62] {
        ints.extend([(1i64 << e) - 1, 1 << e, (1 << e) + 1]);
    }
    let ints: Vec<i64> = ints.iter().flat_map(|&i| [i, i.wrapping_neg()]).collect();
    for &i in &ints {
        values.push(Variant::Int(i));
        values.push(Variant::Rid(i as u64));
        values.push(Variant::Object(Object::Id(i as u64)));
        values.push(Variant::Signal(Signal {
            name: "s".into(),
            object: i as u64,
        }));
    }
    values.push(Variant::PackedInt64Array(ints.clone()));
    values.push(Variant::PackedInt32Array(
        ints.iter().map(|&i| i as i32).collect(),
    ));

    let mut reals = vec![
        0.0,
        1.0,
        0.5,
        0.1,
        1234.5678,
        1.0 / 3.0,
        1e15,
        1e15 - 1.0,
        1e16,
        1e17,
        1e-7,
        9007199254740993.0,
        9.223372036854776e18,
        1.8446744073709552e19,
        f64::MAX,
        f64::MIN_POSITIVE,
        f64::from_bits(1),
        f64::INFINITY,
        f64::from_bits(0x7ff8_0000_0000_0000),
        f64::from_bits(0x7ff0_0000_0000_0001),
        f64::from_bits(0x7ff4_0000_dead_beef),
    ];
    reals.extend(ints.iter().map(|&i| i as f64));
    let reals: Vec<f64> = reals.iter().flat_map(|&x| [x, -x]).collect();
    for &x in &reals {
        values.push(Variant::Float(x));
    }
    let reals32: Vec<f32> = reals
        .iter()
        .map(|&x| x as f32)
        .chain([f32::from_bits(0x7f80_0001), f32::from_bits(0xff81_2345)])
        .collect();
    values.push(Variant::PackedFloat64Array(reals.clone()));
    values.push(Variant::PackedFloat32Array(reals32.clone()));
    for w in reals.windows(4) {
        let (a, b, c, d) = (w[0], w[1], w[2], w[3]);
        values.push(Variant::Vector2(Vector2::new(a, b)));
        values.push(Variant::Vector3(Vector3::new(a, b, c)));
        values.push(Variant::Vector4(Vector4::new(a, b, c, d)));
        values.push(Variant::Rect2(Rect2::new(
            Vector2::new(a, b),
            Vector2::new(c, d),
        )));
        values.push(Variant::Plane(Plane::new(Vector3::new(a, b, c), d)));
        values.push(Variant::Quaternion(Quaternion::new(a, b, c, d)));
        let v3 = Vector3::new(a, b, c);
        values.push(Variant::Aabb(Box::new(Aabb::new(v3, v3))));
        values.push(Variant::Basis(Box::new(Basis::new([v3; 3]))));
        values.push(Variant::Transform2D(Box::new(Transform2D::new(
            Vector2::new(a, b),
            Vector2::new(c, d),
            Vector2::new(d, a),
        ))));
        values.push(Variant::Transform3D(Box::new(Transform3D::new(
            Basis::new([v3; 3]),
            v3,
        ))));
        let v4 = Vector4::new(a, b, c, d);
        values.push(Variant::Projection(Box::new(Projection::new([v4; 4]))));
        values.push(Variant::PackedVector2Array(vec![Vector2::new(a, b); 2]));
        values.push(Variant::PackedVector3Array(vec![v3; 2]));
        values.push(Variant::PackedVector4Array(vec![v4; 2]));
    }
    for w in reals32.windows(4) {
        let c = Color::new(w[0], w[1], w[2], w[3]);
        values.push(Variant::Color(c));
        values.push(Variant::PackedColorArray(vec![c; 2]));
    }
    for w in ints.windows(4) {
        let [a, b, c, d] = [w[0], w[1], w[2], w[3]].map(|i| i as i32);
        values.push(Variant::Vector2i(Vector2i::new(a, b)));
        values.push(Variant::Vector3i(Vector3i::new(a, b, c)));
        values.push(Variant::Vector4i(Vector4i::new(a, b, c, d)));
        values.push(Variant::Rect2i(Rect2i::new(
            Vector2i::new(a, b),
            Vector2i::new(c, d),
        )));
    }
    values.extend([
        Variant::Nil,
        Variant::Callable,
        Variant::Bool(true),
        Variant::Bool(false),
        Variant::Object(Object::Null),
        Variant::PackedByteArray((0..=255).collect()),
        Variant::PackedByteArray(vec![]),
    ]);
    let mut d = Dictionary::new();
    for (i, v) in values.iter().enumerate().take(50) {
        d.insert(Variant::Int(i as i64), v.clone());
    }
    values.push(Variant::Dictionary(d));
    values.push(Variant::Array(Array::typed(
        gdvariant::ElementType::Builtin(gdvariant::Kind::Vector2),
        vec![Variant::Vector2(Vector2::new(1.0, 2.0))],
    )));
    for v in &values {
        written_as_serde_writes(v);
    }
    written_as_serde_writes(&Variant::Array(Array::new(values)));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

    /// Generated values of both engines: the hand-written text is serde_json's.
    #[test]
    fn generated_values_are_written_as_serde_writes(
        v in proptest::prop_oneof![textgen::godot3_value(), textgen::godot4_value()]
    ) {
        written_as_serde_writes(&v);
    }
}
