//! Godot 4: every fixture made by a real Godot 4.3 engine decodes and re-encodes byte for byte.

mod common;
use common::*;
use gdvariant::{decode, encode, DecodeOptions, Dialect, EncodeOptions, Version};

const G43: Version = Version::new(4, 3, 0);

#[test]
fn every_godot43_fixture_round_trips_exactly() {
    let fixtures = load("godot4");
    assert_eq!(fixtures.len(), 266, "the Godot 4.3 corpus has 266 fixtures");
    let mut bad = Mismatches::default();
    for f in &fixtures {
        let full = f.bool("full_objects");
        // Keep BOMs so every byte comes back (see the test below for the engine's own behaviour).
        let dopts = DecodeOptions {
            version: Some(G43),
            allow_objects: full,
            keep_leading_bom: true,
            ..Default::default()
        };
        let (value, used) = match decode(&f.bytes, Dialect::Godot4, &dopts) {
            Ok(x) => x,
            Err(e) => {
                bad.push(&f.name, format!("decode: {e}"));
                continue;
            }
        };
        if used != f.bytes.len() {
            bad.push(&f.name, format!("used {used} of {}", f.bytes.len()));
        }
        let eopts = EncodeOptions {
            version: Some(G43),
            full_objects: full,
            ..Default::default()
        };
        match encode(&value, Dialect::Godot4, &eopts) {
            Ok(b) if b == f.expected => {}
            Ok(b) => bad.push(
                &f.name,
                format!(
                    "re-encode differs\n  want {}\n  got  {}",
                    hex(&f.expected),
                    hex(&b)
                ),
            ),
            Err(e) => bad.push(&f.name, format!("encode: {e}")),
        }
    }
    bad.check(fixtures.len());
}

/// The engine drops a leading BOM when it decodes a string (the fixtures record its decoded
/// text); `keep_leading_bom` keeps it, so the value re-encodes exactly.
#[test]
fn leading_bom_is_dropped_like_the_engine_or_kept_on_request() {
    for f in load("godot4")
        .iter()
        .filter(|f| f.name.contains("leading_bom"))
    {
        let engine = DecodeOptions {
            version: Some(G43),
            ..Default::default()
        };
        let (v, _) = decode(&f.bytes, Dialect::Godot4, &engine).unwrap();
        let dropped = encode(&v, Dialect::Godot4, &EncodeOptions::default()).unwrap();
        assert!(dropped.len() < f.bytes.len(), "{}: BOM not dropped", f.name);
        assert!(
            !f.str("decoded_text").contains('\u{feff}'),
            "{}: the engine dropped it",
            f.name
        );
        let keep = DecodeOptions {
            keep_leading_bom: true,
            ..engine
        };
        let (v, _) = decode(&f.bytes, Dialect::Godot4, &keep).unwrap();
        assert_eq!(
            encode(&v, Dialect::Godot4, &EncodeOptions::default()).unwrap(),
            f.bytes,
            "{}",
            f.name
        );
    }
}

/// Godot 4.3 and 4.4.1 refuse a String whose bytes are not valid UTF-8 (`_decode_string`:
/// `parse_utf8(...) != OK` → ERR_INVALID_DATA; seen by tests/differential_engines.rs): a lone
/// surrogate, a 5-byte form, an overlong form. Godot 3 reads them leniently (its own rule).
#[test]
fn godot4_refuses_invalid_utf8_from_4_3() {
    use gdvariant::{decode, DecodeError, DecodeOptions, Dialect, Version};
    let strings: [&[u8]; 3] = [
        &[4, 0, 0, 0, 3, 0, 0, 0, 0xed, 0xa0, 0x80, 0],
        &[
            4, 0, 0, 0, 5, 0, 0, 0, 0xf8, 0x88, 0x80, 0x80, 0x80, 0, 0, 0,
        ],
        &[4, 0, 0, 0, 2, 0, 0, 0, 0xc1, 0x81, 0, 0],
    ];
    for bytes in strings {
        for v in [Version::new(4, 3, 0), Version::new(4, 4, 1)] {
            let options = DecodeOptions {
                version: Some(v),
                ..DecodeOptions::default()
            };
            let err = decode(bytes, Dialect::Godot4, &options).unwrap_err();
            assert!(
                matches!(err, DecodeError::InvalidUtf8 { offset: 8, .. }),
                "{v}: {err}"
            );
        }
    }
    // Godot 3 keeps a surrogate, and so do we (its text shows U+FFFD); Godot 4 cannot be
    // sent it.
    let g3 = decode(strings[0], Dialect::Godot3, &DecodeOptions::default())
        .unwrap()
        .0;
    assert_eq!(g3.as_str(), Some("\u{fffd}"));
    let s = g3.as_gstring().unwrap();
    assert!(!s.is_unicode());
    assert_eq!(s.code_points().collect::<Vec<_>>(), [0xd800]);
    let err = gdvariant::encode(&g3, Dialect::Godot4, &Default::default()).unwrap_err();
    assert!(err.to_string().contains("not Unicode"), "{err}");
}

/// An Array (4.3+) or a Dictionary side (4.4+) typed by the builtin NIL is untyped in the
/// engine (`set_typed(NIL)` validates nothing and is written back untyped), and so it is here.
#[test]
fn a_container_typed_nil_is_untyped() {
    use gdvariant::{decode, DecodeOptions, Dialect, ElementType, Kind, Variant};
    // Array, builtin element type NIL, no elements.
    let array = [28, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let (v, _) = decode(&array, Dialect::Godot4, &DecodeOptions::default()).unwrap();
    assert_eq!(v.as_array().map(|a| a.typed.is_none()), Some(true), "{v:?}");
    // Dictionary[Nil, int]: the key side untyped, the value side int.
    let dict = [27, 0, 5, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0];
    let (v, _) = decode(&dict, Dialect::Godot4, &DecodeOptions::default()).unwrap();
    let Variant::Dictionary(d) = &v else {
        panic!("{v:?}")
    };
    let t = d.typed().expect("the value side stays typed");
    assert_eq!(
        (t.key.as_ref(), t.value.as_ref()),
        (None, Some(&ElementType::Builtin(Kind::Int)))
    );
}

/// Counts the engines read in 32 bits: a NodePath's name and subname counts add up wrapping
/// (`uint32_t total = namecount + subnamecount`), and a full object's property count is an
/// `int32_t`, so one with bit 31 set is no properties (core/io/marshalls.cpp:587 and 671,
/// 4.3-stable). The NodePath inputs are the differential test's repros (the engines read them
/// as empty NodePaths); `tests/differential_engines.rs` checks the NodePaths live.
#[test]
fn counts_wrap_as_in_the_engine() {
    use gdvariant::{Object, Variant};
    let decode_hex = |dialect, h: &str, allow_objects| {
        let options = DecodeOptions {
            allow_objects,
            ..Default::default()
        };
        decode(&unhex(h), dialect, &options)
    };
    let empty = Variant::NodePath(Box::default());
    // 0x7fffffff names + 0x80000001 subnames is 0 strings.
    let (v, used) = decode_hex(Dialect::Godot4, "16000000ffffffff0100008000000000", false).unwrap();
    assert_eq!((v, used), (empty.clone(), 16));
    // Godot 3: 1 name + 0xffffffff subnames.
    let (v, _) = decode_hex(Dialect::Godot3, "0f00000001000080ffffffff00000000", false).unwrap();
    assert_eq!(v, empty);
    // 2 names + 0xffffffff subnames, wrapped to 1 string: a name.
    let (v, _) = decode_hex(
        Dialect::Godot4,
        "1600000002000080ffffffff000000000100000061000000",
        false,
    )
    .unwrap();
    let Variant::NodePath(p) = v else { panic!() };
    assert_eq!((p.names.len(), p.subnames.len()), (1, 0));
    // Object "Node" with the property count -1: a Node without properties, 16 bytes used.
    let (v, used) = decode_hex(Dialect::Godot4, "18000000040000004e6f6465ffffffff", true).unwrap();
    let Variant::Object(Object::Full(o)) = v else {
        panic!()
    };
    assert_eq!(
        (o.class.as_str(), o.properties.len(), used),
        ("Node", 0, 16)
    );
}
