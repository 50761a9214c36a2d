//! Untrusted input: no panic, no unbounded allocation or recursion, objects refused, errors at offsets.

mod common;
use gdvariant::*;
use proptest::prelude::*;

fn all_targets() -> Vec<(Dialect, Version)> {
    vec![
        (Dialect::Godot3, Version::new(3, 2, 3)),
        (Dialect::Godot4, Version::new(4, 2, 0)),
        (Dialect::Godot4, Version::new(4, 3, 0)),
        (Dialect::Godot4, Version::new(4, 6, 3)),
        (Dialect::Pandemonium, Version::new(3, 7, 0)),
        (Dialect::Pandemonium, Version::new(4, 0, 0)),
        (Dialect::Pandemonium, Version::new(5, 2, 0)),
    ]
}

fn decode_everywhere(bytes: &[u8]) {
    for (dialect, version) in all_targets() {
        for allow_objects in [false, true] {
            let o = DecodeOptions {
                version: Some(version),
                allow_objects,
                ..Default::default()
            };
            match decode(bytes, dialect, &o) {
                Ok((_, used)) => assert!(used <= bytes.len()),
                Err(e) => assert!(
                    e.offset() <= bytes.len(),
                    "{e} past the end ({})",
                    bytes.len()
                ),
            }
        }
    }
}

/// Small headers and counts, so random bytes reach deep into the decoder.
fn plausible_bytes() -> impl Strategy<Value = Vec<u8>> {
    let word = prop_oneof![
        (0u32..45).prop_map(|t| t.to_le_bytes().to_vec()),
        (0u32..45).prop_map(|t| (t | 1 << 16).to_le_bytes().to_vec()),
        (0u32..45).prop_map(|t| (t | 3 << 16).to_le_bytes().to_vec()),
        (0u32..6).prop_map(|n| n.to_le_bytes().to_vec()),
        any::<u32>().prop_map(|n| n.to_le_bytes().to_vec()),
        proptest::collection::vec(any::<u8>(), 1..4),
    ];
    proptest::collection::vec(word, 0..40).prop_map(|w| w.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        decode_everywhere(&bytes);
    }

    #[test]
    fn plausible_bytes_never_panic(bytes in plausible_bytes()) {
        decode_everywhere(&bytes);
    }
}

/// Every truncation and every single-byte change of every engine-made fixture is handled.
#[test]
fn mutated_fixtures_never_panic() {
    for f in common::load("godot4") {
        let b = &f.bytes;
        if b.len() > 600 {
            continue;
        }
        for cut in 0..b.len() {
            decode_everywhere(&b[..cut]);
        }
        for i in 0..b.len().min(64) {
            let mut m = b.clone();
            m[i] ^= 0xFF;
            decode_everywhere(&m);
        }
    }
}

#[test]
fn a_truncated_value_is_an_error_at_the_cut() {
    // Vector3 needs 12 payload bytes; 8 are there.
    let bytes = common::unhex("09000000 0000803f 00000040");
    let e = decode(&bytes, Dialect::Godot4, &DecodeOptions::default()).unwrap_err();
    assert_eq!(
        e,
        DecodeError::UnexpectedEof {
            offset: 4,
            needed: 4,
            dialect: Dialect::Godot4
        }
    );
    assert_eq!(
        e.to_string(),
        "unexpected end of input: 4 more bytes needed in Godot 4 data (at offset 0x4)"
    );
    // A string whose length runs past the end: the length field's offset is reported.
    let bytes = common::unhex("1c000000 01000000 04000000 ff000000 6162");
    let e = decode(&bytes, Dialect::Godot4, &DecodeOptions::default()).unwrap_err();
    assert!(
        matches!(
            e,
            DecodeError::StringOutOfBounds {
                offset: 12,
                len: 255,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(e.engine_error(), "ERR_FILE_EOF");
}

#[test]
fn lying_counts_cost_nothing() {
    // An Array, a Dictionary, packed arrays and a NodePath that claim 2^31-1 elements.
    for hex in [
        "1c000000 ffffff7f 00000000",
        "1b000000 ffffff7f",
        "1d000000 ffffff7f",
        "20000000 ffffff7f",
        "22000000 ffffff7f 00000000",
        "16000000 ffffffff ffffffff 00000000",
    ] {
        let bytes = common::unhex(hex);
        assert!(
            decode(&bytes, Dialect::Godot4, &DecodeOptions::default()).is_err(),
            "{hex}"
        );
    }
}

fn nested_arrays(depth: usize) -> Vec<u8> {
    let mut b = Vec::new();
    for _ in 0..depth {
        b.extend_from_slice(&[0x1c, 0, 0, 0, 1, 0, 0, 0]);
    }
    b.extend_from_slice(&[0, 0, 0, 0]);
    b
}

#[test]
fn nesting_is_bounded_like_the_engine() {
    // The engine accepts depth 1024 (`p_depth > MAX_RECURSION_DEPTH` fails) and refuses 1025.
    let ok = nested_arrays(1024);
    let (v, _) = decode(&ok, Dialect::Godot4, &DecodeOptions::default()).unwrap();
    // The encoder recurses; 1024 levels fit a test thread's 2 MiB stack even unoptimised.
    assert_eq!(
        encode(&v, Dialect::Godot4, &EncodeOptions::default()).unwrap(),
        ok
    );
    let deep = nested_arrays(1025);
    let e = decode(&deep, Dialect::Godot4, &DecodeOptions::default()).unwrap_err();
    assert!(
        matches!(
            e,
            DecodeError::TooDeep {
                limit: 1024,
                offset: 8200,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(e.engine_error(), "ERR_OUT_OF_MEMORY");
}

#[test]
fn deep_input_cannot_overflow_the_stack() {
    // Far deeper than any thread stack could recurse; the decoder is iterative. (Dropping the
    // value recurses, so it is decoded and dropped on a thread with room for that.)
    let bytes = nested_arrays(200_000);
    let o = DecodeOptions {
        limits: Limits {
            max_depth: 1_000_000,
            ..Limits::default()
        },
        ..Default::default()
    };
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let (_, used) = decode(&bytes, Dialect::Godot4, &o).unwrap();
            assert_eq!(used, bytes.len());
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn objects_are_refused_unless_allowed_even_nested() {
    // [ Object(class "Node", 0 properties) ] with full_objects.
    let bytes = common::unhex("1c000000 01000000 18000000 04000000 4e6f6465 00000000");
    let e = decode(&bytes, Dialect::Godot4, &DecodeOptions::default()).unwrap_err();
    assert_eq!(
        e,
        DecodeError::ObjectNotAllowed {
            offset: 8,
            dialect: Dialect::Godot4
        }
    );
    let o = DecodeOptions {
        allow_objects: true,
        ..Default::default()
    };
    let (v, _) = decode(&bytes, Dialect::Godot4, &o).unwrap();
    let Variant::Array(a) = v else { panic!() };
    assert!(matches!(&a.items[0], Variant::Object(Object::Full(f)) if f.class == "Node"));
    // Instance ids are data, not objects: always accepted.
    let id = common::unhex("18000100 2a00000000000000");
    assert_eq!(
        decode(&id, Dialect::Godot4, &DecodeOptions::default())
            .unwrap()
            .0,
        Variant::Object(Object::Id(42))
    );
}

#[test]
fn element_limit_bounds_total_work() {
    let o = DecodeOptions {
        limits: Limits {
            max_elements: 3,
            ..Limits::default()
        },
        ..Default::default()
    };
    let bytes = common::unhex("1e000000 04000000 01000000 02000000 03000000 04000000");
    let e = decode(&bytes, Dialect::Godot4, &o).unwrap_err();
    assert!(
        matches!(
            e,
            DecodeError::TooManyElements {
                offset: 4,
                limit: 3,
                ..
            }
        ),
        "{e}"
    );
}
