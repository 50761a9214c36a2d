//! Pandemonium: vectors derived by hand from its source, per version (no Pandemonium engine runs here).
//!
//! Type ids from `core/variant.h` / `core/variant/variant.h` at tags v3.5.0, v3.8.0 and v5.0.0
//! (reference §1.3); payloads follow its `core/io/marshalls.cpp` (Godot 3.5 rules plus the extra
//! types, §7). Each vector is decoded, checked, and re-encoded to the same bytes.

mod common;
use common::unhex;
use gdvariant::math::*;
use gdvariant::*;

const P37: Version = Version::new(3, 7, 0);
const P38: Version = Version::new(3, 8, 0);
const P5: Version = Version::new(5, 2, 0);

fn check(version: Version, hex: &str, want: &Variant) {
    let bytes = unhex(hex);
    let d = DecodeOptions {
        version: Some(version),
        ..Default::default()
    };
    let (v, used) =
        decode(&bytes, Dialect::Pandemonium, &d).unwrap_or_else(|e| panic!("{version} {hex}: {e}"));
    assert!(v.same(want), "{version} {hex}: got {v:?}");
    assert_eq!(used, bytes.len());
    let e = EncodeOptions {
        version: Some(version),
        ..Default::default()
    };
    assert_eq!(
        common::hex(&encode(want, Dialect::Pandemonium, &e).unwrap()),
        common::hex(&bytes),
        "{version}"
    );
}

#[test]
fn the_three_enums_number_types_differently() {
    let v2 = Variant::Vector2(Vector2::new(1.0, 2.0));
    check(P37, "05000000 0000803f 00000040", &v2); // VECTOR2 = 5 in 3.5-3.7
    check(P38, "07000000 0000803f 00000040", &v2); // 7 from 3.8 (reordered, commit e71e3ed)
    check(P5, "07000000 0000803f 00000040", &v2);
    let v2i = Variant::Vector2i(Vector2i::new(-1, 3));
    check(P37, "06000000 ffffffff 03000000", &v2i);
    check(P38, "08000000 ffffffff 03000000", &v2i);
    let sn = Variant::StringName(StringName::from("ab"));
    check(P37, "15000000 02000000 61620000", &sn); // STRING_NAME = 21
    check(P38, "18000000 02000000 61620000", &sn); // 24
    let d = Variant::Dictionary(Dictionary::new());
    check(P37, "16000000 00000000", &d); // DICTIONARY = 22
    check(P38, "19000000 00000000", &d); // 25
    check(P5, "19000000 00000000", &d);
    let a = Variant::Array(Array::new(vec![]));
    check(P37, "17000000 00000000", &a); // ARRAY = 23
    check(P38, "1a000000 00000000", &a); // 26
    let c = Variant::PackedColorArray(vec![]);
    check(P37, "20000000 00000000", &c); // POOL_COLOR_ARRAY = 32
    check(P38, "25000000 00000000", &c); // 37
    check(P5, "27000000 00000000", &c); // 39: TYPED_ARRAY and PACKED_TYPED_ARRAY were inserted at 27, 28
    let b = Variant::PackedByteArray(vec![7]);
    check(P38, "1b000000 01000000 07000000", &b); // POOL_BYTE_ARRAY = 27
    check(P5, "1d000000 01000000 07000000", &b); // 29
}

#[test]
fn extra_types() {
    check(
        P38,
        "0b000000 0000803f 00000040 00004040 00008040",
        &Variant::Vector4(Vector4::new(1.0, 2.0, 3.0, 4.0)),
    );
    check(
        P38,
        "0c000000 01000000 02000000 03000000 04000000",
        &Variant::Vector4i(Vector4i::new(1, 2, 3, 4)),
    );
    check(
        P37,
        "08000000 01000000 02000000 03000000 04000000",
        &Variant::Rect2i(Rect2i::new(Vector2i::new(1, 2), Vector2i::new(3, 4))),
    );
    check(
        P37,
        "1d000000 01000000 05000000 06000000",
        &Variant::PackedVector2iArray(vec![Vector2i::new(5, 6)]),
    );
    check(
        P38,
        "22000000 01000000 01000000 02000000 03000000",
        &Variant::PackedVector3iArray(vec![Vector3i::new(1, 2, 3)]),
    );
    check(
        P38,
        "24000000 01000000 01000000 02000000 03000000 04000000",
        &Variant::PackedVector4iArray(vec![Vector4i::new(1, 2, 3, 4)]),
    );
    let mut proj = String::from("13000000");
    for i in 0..16 {
        proj += &common::hex(&(i as f32).to_le_bytes());
    }
    let p = Projection {
        columns: [0, 1, 2, 3].map(|c| {
            Vector4::new(
                f64::from(4 * c),
                f64::from(4 * c + 1),
                f64::from(4 * c + 2),
                f64::from(4 * c + 3),
            )
        }),
    };
    check(P38, &proj, &Variant::Projection(Box::new(p)));
    // RID: header only in every Pandemonium version; Godot 4-only types are refused.
    check(P38, "16000000", &Variant::Rid(0));
    let e = EncodeOptions {
        version: Some(P38),
        ..Default::default()
    };
    assert!(matches!(
        encode(&Variant::Callable, Dialect::Pandemonium, &e),
        Err(EncodeError::Unrepresentable { .. })
    ));
    assert!(matches!(
        encode(&Variant::PackedInt64Array(vec![]), Dialect::Pandemonium, &e),
        Err(EncodeError::Unrepresentable { .. })
    ));
    assert!(matches!(
        encode(
            &Variant::Vector4(Vector4::default()),
            Dialect::Pandemonium,
            &EncodeOptions {
                version: Some(P37),
                ..e.clone()
            }
        ),
        Err(EncodeError::Unrepresentable { .. })
    ));
}

#[test]
fn typed_arrays_of_5x() {
    // TYPED_ARRAY (27): u32 element type, u32 count, elements.
    let ints = Variant::Array(Array::typed(
        ElementType::Builtin(Kind::Int),
        vec![Variant::Int(5)],
    ));
    check(P5, "1b000000 02000000 01000000 02000000 05000000", &ints);
    // PACKED_TYPED_ARRAY (28) has the same layout.
    let mut packed = Array::typed(ElementType::Builtin(Kind::Float), vec![]);
    packed.typed.as_mut().unwrap().pandemonium_packed = true;
    check(P5, "1c000000 03000000 00000000", &Variant::Array(packed));
    // Objects by class: the class name is a whole encoded StringName (24) before the count.
    let nodes = Variant::Array(Array::typed(ElementType::Class("Node".into()), vec![]));
    check(
        P5,
        "1b000000 17000000 18000000 04000000 4e6f6465 00000000",
        &nodes,
    );
    // Objects as ids: OBJECT_AS_ID set, no class name.
    let ids = Variant::Array(Array::typed(ElementType::Builtin(Kind::Object), vec![]));
    check(P5, "1b000100 17000000 00000000", &ids);
    // Before 5.0 there are no typed arrays.
    let e = EncodeOptions {
        version: Some(P38),
        ..Default::default()
    };
    assert!(matches!(
        encode(&ints, Dialect::Pandemonium, &e),
        Err(EncodeError::Unsupported { .. })
    ));
}

/// The same bytes mean different things in Pandemonium and Godot 4 (id clash, reference §1.3).
#[test]
fn ids_clash_with_godot4() {
    let bytes = unhex("16000000");
    let (p, _) = decode(
        &bytes,
        Dialect::Pandemonium,
        &DecodeOptions {
            version: Some(P38),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(p, Variant::Rid(0));
    // In Godot 4, 22 is NODE_PATH, which needs 12 more bytes.
    assert!(decode(&bytes, Dialect::Godot4, &DecodeOptions::default()).is_err());
}
