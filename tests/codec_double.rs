//! Double-precision builds (Godot 4 `precision=double`): vectors derived from the engine source
//! (reference §3.5: math types write `real_t` and set FLAG_64; Color and integer vectors never
//! change; 4.0/4.1 wrote Vector4/Projection without the flag), and the single-precision checks.

mod common;
use common::unhex;
use gdvariant::math::*;
use gdvariant::*;

fn dbl(v: Version) -> EncodeOptions {
    EncodeOptions {
        version: Some(v),
        double_precision: true,
        ..Default::default()
    }
}

fn f64s(xs: &[f64]) -> String {
    xs.iter().map(|x| common::hex(&x.to_le_bytes())).collect()
}

#[test]
fn math_types_go_out_as_flagged_doubles() {
    let v = Version::new(4, 3, 0);
    let cases: Vec<(Variant, &str, Vec<f64>)> = vec![
        (
            Variant::Vector2(Vector2::new(1.5, -2.0)),
            "05000100",
            vec![1.5, -2.0],
        ),
        (
            Variant::Vector3(Vector3::new(0.1, 0.2, 0.3)),
            "09000100",
            vec![0.1, 0.2, 0.3],
        ),
        (
            Variant::Vector4(Vector4::new(1.0, 2.0, 3.0, 0.1)),
            "0c000100",
            vec![1.0, 2.0, 3.0, 0.1],
        ),
        (
            Variant::Quaternion(Quaternion::new(0.0, 0.0, 0.0, 1.0)),
            "0f000100",
            vec![0.0, 0.0, 0.0, 1.0],
        ),
        (
            Variant::Plane(Plane::new(Vector3::new(0.0, 1.0, 0.0), 0.1)),
            "0e000100",
            vec![0.0, 1.0, 0.0, 0.1],
        ),
        (
            Variant::Rect2(Rect2::new(Vector2::new(1.0, 2.0), Vector2::new(3.0, 0.7))),
            "07000100",
            vec![1.0, 2.0, 3.0, 0.7],
        ),
        (
            Variant::Transform2D(Box::new(Transform2D::IDENTITY)),
            "0b000100",
            vec![1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
        ),
        (
            Variant::PackedVector2Array(vec![Vector2::new(0.1, 0.2)]),
            "23000100 01000000",
            vec![0.1, 0.2],
        ),
    ];
    for (value, head, reals) in cases {
        let want = unhex(&format!("{head}{}", f64s(&reals)));
        assert_eq!(
            encode(&value, Dialect::Godot4, &dbl(v)).unwrap(),
            want,
            "{value:?}"
        );
        // Any 4.x decoder honours the flag, whatever its own build.
        let (back, used) = decode(&want, Dialect::Godot4, &DecodeOptions::default()).unwrap();
        assert!(back.same(&value) && used == want.len(), "{value:?}");
    }
    // Color and integer vectors are never wide.
    let c = Variant::Color(Color::new(1.0, 0.5, 0.25, 1.0));
    assert_eq!(
        encode(&c, Dialect::Godot4, &dbl(v)).unwrap(),
        unhex("14000000 0000803f 0000003f 0000803e 0000803f")
    );
    let i = Variant::Vector2i(Vector2i::new(1, 2));
    assert_eq!(
        encode(&i, Dialect::Godot4, &dbl(v)).unwrap(),
        unhex("06000000 01000000 02000000")
    );
}

#[test]
fn godot4_0_and_4_1_did_not_flag_vector4_and_projection() {
    // PR #83202 (4.2) added FLAG_64 for Vector4 and Projection; before it a double build wrote
    // them without the flag, which no decoder reads back correctly. We follow the tables: such
    // a value goes out as flagless floats for 4.0/4.1 (what a decoder of that version reads).
    let v4 = Variant::Vector4(Vector4::new(1.0, 2.0, 3.0, 4.0));
    let old = encode(&v4, Dialect::Godot4, &dbl(Version::new(4, 1, 0))).unwrap();
    assert_eq!(old, unhex("0c000000 0000803f 00000040 00004040 00008040"));
    let new = encode(&v4, Dialect::Godot4, &dbl(Version::new(4, 2, 0))).unwrap();
    assert_eq!(
        new,
        unhex(&format!("0c000100{}", f64s(&[1.0, 2.0, 3.0, 4.0])))
    );
}

#[test]
fn godot3_and_pandemonium_have_no_double_marshalling() {
    // 3.x writes math types with 4-byte floats whatever real_t is (marshalls.cpp uses
    // encode_float), so a double-precision request is refused rather than half-honoured.
    let v = Variant::Vector2(Vector2::new(1.0, 2.0));
    for d in [Dialect::Godot3, Dialect::Pandemonium] {
        let e = EncodeOptions {
            double_precision: true,
            ..Default::default()
        };
        assert!(
            matches!(encode(&v, d, &e), Err(EncodeError::Unsupported { .. })),
            "{d}"
        );
    }
    // And a Godot 3 decoder ignores FLAG_64 on math types: it reads floats.
    let bytes = unhex("05000100 0000803f 00000040");
    let (back, used) = decode(&bytes, Dialect::Godot3, &DecodeOptions::default()).unwrap();
    assert_eq!((back, used), (v, 12));
}

#[test]
fn single_precision_refuses_to_round_silently() {
    let v = Variant::Vector2(Vector2::new(0.1, 2.0));
    let e = encode(
        &Variant::Array(Array::new(vec![v.clone()])),
        Dialect::Godot4,
        &EncodeOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "real 0.1 does not fit single precision (at value[0]); set round_reals or double_precision"
    );
    let rounded = EncodeOptions {
        round_reals: true,
        ..Default::default()
    };
    assert_eq!(
        encode(&v, Dialect::Godot4, &rounded).unwrap(),
        unhex("05000000 cdcccc3d 00000040")
    );
    // FLOAT itself is never a problem: it goes out as a double when it must (all dialects).
    assert_eq!(
        encode(
            &Variant::Float(0.1),
            Dialect::Godot3,
            &EncodeOptions::default()
        )
        .unwrap(),
        unhex("03000100 9a9999999999b93f")
    );
}

#[test]
fn nan_payloads_survive_single_precision() {
    // A signalling NaN with a payload, as f32 bits: decoding widens it and encoding gives the
    // same bits back (hardware conversion would quiet it).
    let bytes = unhex("05000000 0100807f 0000c0ff");
    let (v, _) = decode(&bytes, Dialect::Godot4, &DecodeOptions::default()).unwrap();
    assert_eq!(
        encode(&v, Dialect::Godot4, &EncodeOptions::default()).unwrap(),
        bytes
    );
}
