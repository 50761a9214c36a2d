//! The engine's own unit-test vectors (reference §8: Godot 4's `test_marshalls.h`,
//! `test_variant_utility.h`, and bytes users observed from real engines).

mod common;
use common::unhex;
use gdvariant::*;

fn g4(v: Version) -> (DecodeOptions, EncodeOptions) {
    (
        DecodeOptions {
            version: Some(v),
            ..Default::default()
        },
        EncodeOptions {
            version: Some(v),
            ..Default::default()
        },
    )
}

/// Decodes `hex`, checks value and `used`, and re-encodes to the same bytes.
fn both_ways(hex: &str, want: &Variant, dialect: Dialect, version: Version) {
    let bytes = unhex(hex);
    let (d, e) = g4(version);
    let (v, used) = decode(&bytes, dialect, &d).unwrap_or_else(|err| panic!("{hex}: {err}"));
    assert!(v.same(want), "{hex}: decoded {v:?}, want {want:?}");
    assert_eq!(used, bytes.len(), "{hex}: used");
    assert_eq!(encode(want, dialect, &e).unwrap(), bytes, "{hex}: encode");
}

const V43: Version = Version::new(4, 3, 0);
const V44: Version = Version::new(4, 4, 0);

#[test]
fn test_marshalls_scalars() {
    // #14/#21 NIL, #15/#22 INT, #16/#23 INT with FLAG_64, #17/#24 FLOAT, #18/#25 double.
    both_ways("00000000", &Variant::Nil, Dialect::Godot4, V43);
    both_ways(
        "0200000078563412",
        &Variant::Int(0x12345678),
        Dialect::Godot4,
        V43,
    );
    both_ways(
        "02000100efcdab89674523f1",
        &Variant::Int(0x0f123456789abcdef_u64 as i64),
        Dialect::Godot4,
        V43,
    );
    both_ways(
        "030000000000203e",
        &Variant::Float(0.15625),
        Dialect::Godot4,
        V43,
    );
    both_ways(
        "03000100555555555555d53f",
        &Variant::Float(0.333_333_333_333_333_3),
        Dialect::Godot4,
        V43,
    );
}

#[test]
fn test_marshalls_invalid_data() {
    // #19: one byte is not enough for a header; #20: type 0xff is past VARIANT_MAX.
    let (d, _) = g4(V43);
    let e = decode(&[0], Dialect::Godot4, &d).unwrap_err();
    assert!(
        matches!(e, DecodeError::UnexpectedEof { offset: 0, .. }),
        "{e}"
    );
    let e = decode(&unhex("ff000000"), Dialect::Godot4, &d).unwrap_err();
    assert!(
        matches!(
            e,
            DecodeError::UnknownType {
                offset: 0,
                tag: 255,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(e.engine_error(), "ERR_INVALID_DATA");
}

#[test]
fn test_marshalls_typed_array_and_dictionary() {
    // #26/#27: Array[int] = [0x0f123456789abcdef] (4.3+).
    let big = Variant::Int(0x0f123456789abcdef_u64 as i64);
    let arr = Variant::Array(Array::typed(
        ElementType::Builtin(Kind::Int),
        vec![big.clone()],
    ));
    both_ways(
        "1c000100020000000100000002000100efcdab89674523f1",
        &arr,
        Dialect::Godot4,
        V43,
    );
    // #28/#29: Dictionary[int, int] (4.4+): key and value kinds BUILTIN in bits 16-19.
    let mut d = Dictionary::new();
    d.insert(big.clone(), big.clone());
    d.set_typed(Some(DictionaryType {
        key: Some(ElementType::Builtin(Kind::Int)),
        value: Some(ElementType::Builtin(Kind::Int)),
    }));
    both_ways(
        "1b000500020000000200000001000000 02000100efcdab89674523f1 02000100efcdab89674523f1",
        &Variant::Dictionary(d.clone()),
        Dialect::Godot4,
        V44,
    );
    // Before 4.4 the typed dictionary cannot be written; before 4.3 neither can the array.
    let (_, e42) = g4(Version::new(4, 2, 0));
    let (_, e43) = g4(V43);
    assert!(matches!(
        encode(&Variant::Dictionary(d), Dialect::Godot4, &e43),
        Err(EncodeError::Unsupported { .. })
    ));
    assert!(matches!(
        encode(&arr, Dialect::Godot4, &e42),
        Err(EncodeError::Unsupported { .. })
    ));
}

#[test]
fn variant_utility_float_array() {
    // #30/#31: [1.2, 3.4, 5.600000000001], each float needs FLAG_64.
    let v = Variant::Array(Array::new(vec![
        1.2.into(),
        3.4.into(),
        5.600000000001.into(),
    ]));
    both_ways(
        "1c00000003000000 03000100333333333333f33f 030001003333333333330b40 03000100cc6a666666661640",
        &v,
        Dialect::Godot4,
        V43,
    );
}

#[test]
fn variant_utility_object_as_id() {
    // #32: [42, <Resource>, true] without objects: the object is OBJECT|FLAG + u64 id.
    let bytes =
        unhex("1c00000003000000 020000002a000000 18000100 5400005800000080 0100000001000000");
    let (d, e) = g4(V43);
    let (v, used) = decode(&bytes, Dialect::Godot4, &d).unwrap();
    assert_eq!(used, bytes.len());
    let Variant::Array(a) = &v else {
        panic!("{v:?}")
    };
    assert_eq!(
        a.items[1],
        Variant::Object(Object::Id(0x8000_0000_5800_0054))
    );
    assert_eq!(encode(&v, Dialect::Godot4, &e).unwrap(), bytes);
}

/// #33-#35: a full Resource object with `var_to_bytes_with_objects`.
#[test]
fn variant_utility_full_object() {
    let mut hex = String::from("1c00000003000000020000002a00000018000000");
    hex += "08000000";
    hex += &common::hex(b"Resource");
    hex += "04000000";
    hex += "17000000";
    hex += &common::hex(b"resource_local_to_scene");
    hex += "00";
    hex += "0100000000000000";
    hex += "0d000000";
    hex += &common::hex(b"resource_name");
    hex += "000000";
    hex += "0400000000000000";
    hex += "06000000";
    hex += &common::hex(b"script");
    hex += "0000";
    hex += "00000000";
    hex += "10000000";
    hex += &common::hex(b"metadata/example");
    hex += "0300010077be9f1a2fdd5e40";
    hex += "0100000001000000";
    let bytes = unhex(&hex);
    assert_eq!(bytes.len(), 156);
    // #34: without allow_objects the engine refuses (ERR_UNAUTHORIZED) at the object's header.
    let e = decode(&bytes, Dialect::Godot4, &DecodeOptions::default()).unwrap_err();
    assert!(
        matches!(e, DecodeError::ObjectNotAllowed { offset: 16, .. }),
        "{e}"
    );
    assert_eq!(e.engine_error(), "ERR_UNAUTHORIZED");
    // #35: with it, the object comes back as data and re-encodes exactly.
    let d = DecodeOptions {
        allow_objects: true,
        ..Default::default()
    };
    let (v, used) = decode(&bytes, Dialect::Godot4, &d).unwrap();
    assert_eq!(used, 156);
    let Variant::Array(a) = &v else { panic!() };
    let Variant::Object(Object::Full(o)) = &a.items[1] else {
        panic!("{:?}", a.items[1])
    };
    assert_eq!(o.class, "Resource");
    let names: Vec<&str> = o.properties.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "resource_local_to_scene",
            "resource_name",
            "script",
            "metadata/example"
        ]
    );
    assert_eq!(o.properties[3].1, Variant::Float(123.456));
    let e = EncodeOptions {
        full_objects: true,
        ..Default::default()
    };
    assert_eq!(encode(&v, Dialect::Godot4, &e).unwrap(), bytes);
    // Without full_objects a full object has no instance id to send: a clear error.
    let err = encode(&v, Dialect::Godot4, &EncodeOptions::default()).unwrap_err();
    assert!(
        matches!(err, EncodeError::FullObjectNeedsFlag { .. }),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "full object of class `Resource` needs full_objects (at value[1])"
    );
}

#[test]
fn observed_rid_and_string_and_nodepath() {
    // #36 (4.4): var_to_bytes(rid_from_int64(13)).
    both_ways(
        "170000000d00000000000000",
        &Variant::Rid(13),
        Dialect::Godot4,
        V44,
    );
    // #39 (3.0+): put_var("asd") payload after its 4-byte prefix.
    both_ways(
        "0400000003000000617364 00",
        &Variant::from("asd"),
        Dialect::Godot3,
        Version::new(3, 2, 3),
    );
    // #40 (3.2.3): NodePath("Path2D/PathFollow2D/Sprite:position:x") with the engine's
    // uninitialised padding (`??`, here 30 41 / 55 aa / 01 02 03): the decoder ignores it and
    // our encoder writes zeros, which is what the issue reporter expected.
    let engine = format!(
        "0f000000 03000080 02000000 00000000 06000000{}3041 0c000000{} 06000000{}55aa 08000000{} 01000000{}010203",
        common::hex(b"Path2D"),
        common::hex(b"PathFollow2D"),
        common::hex(b"Sprite"),
        common::hex(b"position"),
        common::hex(b"x")
    );
    let bytes = unhex(&engine);
    let want = Variant::NodePath(Box::new(NodePath::parse(
        "Path2D/PathFollow2D/Sprite:position:x",
    )));
    let (v, used) = decode(&bytes, Dialect::Godot3, &DecodeOptions::default()).unwrap();
    assert_eq!((v.clone(), used), (want, bytes.len()));
    let zeroed = encode(&v, Dialect::Godot3, &EncodeOptions::default()).unwrap();
    assert_eq!(zeroed.len(), bytes.len());
    let masked: Vec<u8> = bytes
        .iter()
        .zip(&zeroed)
        .map(|(a, b)| if b == &0 && a != &0 { 0 } else { *a })
        .collect();
    assert_eq!(zeroed, masked, "only padding bytes differ");
}
