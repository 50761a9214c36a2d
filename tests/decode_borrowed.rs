//! Borrowed decoding: the same values, `used` and errors (with offsets) as `decode` on engine
//! bytes and on every mutation of them, with text and packed arrays pointing into the input.

mod common;
#[path = "../benches/common/workloads.rs"]
mod workloads;
use common::*;
use gdvariant::borrowed::{ArrayRef, ObjectRef, PackedRef};
use gdvariant::math::*;
use gdvariant::*;
use proptest::prelude::*;

const G43: Version = Version::new(4, 3, 0);

fn options(allow_objects: bool, version: Option<Version>) -> DecodeOptions {
    DecodeOptions {
        version,
        allow_objects,
        keep_leading_bom: true,
        ..Default::default()
    }
}

fn engine_corpora() -> Vec<(Dialect, Option<Version>, Fixture)> {
    let mut all: Vec<_> = load("godot4")
        .into_iter()
        .map(|f| (Dialect::Godot4, Some(G43), f))
        .collect();
    // The Godot 3.2.3 corpora: values, game data, and malformed inputs with the engine's
    // verdicts (the richest source of errors to agree on).
    for dir in ["godot3", "godot3/game", "godot3/malformed"] {
        if fixtures().join(dir).join("manifest.jsonl").exists() {
            let g323 = Some(Version::new(3, 2, 3));
            all.extend(load(dir).into_iter().map(|f| (Dialect::Godot3, g323, f)));
        }
    }
    all
}

#[test]
fn every_engine_fixture_decodes_the_same_borrowed() {
    let corpora = engine_corpora();
    assert!(
        corpora.len() >= 266 + 274 + 133,
        "the engine corpora are there"
    );
    let mut bad = Mismatches::default();
    for (dialect, version, f) in &corpora {
        let o = options(f.bool("full_objects") || f.bool("allow_objects"), *version);
        if let Err(e) = agree(&f.bytes, *dialect, &o) {
            bad.push(&f.name, e);
        }
    }
    bad.check(corpora.len());
}

/// Every truncation and every single-byte change of every engine fixture: malformed input gets
/// the same error at the same offset from both decoders (they are one driver).
#[test]
fn truncated_and_mutated_fixtures_get_the_same_verdict() {
    let mut bad = Mismatches::default();
    let mut cases = 0;
    for (dialect, version, f) in engine_corpora() {
        let o = options(true, version);
        for cut in 0..f.bytes.len().min(512) {
            cases += 1;
            if let Err(e) = agree(&f.bytes[..cut], dialect, &o) {
                bad.push(&format!("{} cut at {cut}", f.name), e);
            }
        }
        let mut b = f.bytes.clone();
        for i in 0..b.len().min(256) {
            for flip in [0x01u8, 0x80, 0xff] {
                b[i] ^= flip;
                cases += 1;
                if let Err(e) = agree(&b, dialect, &o) {
                    bad.push(&format!("{} byte {i} ^ {flip:#x}", f.name), e);
                }
                b[i] ^= flip;
            }
        }
    }
    bad.check(cases);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]
    /// Random bytes in every dialect: one verdict.
    #[test]
    fn random_bytes_get_the_same_verdict(bytes in proptest::collection::vec(any::<u8>(), 0..128)) {
        for dialect in Dialect::ALL {
            for allow in [false, true] {
                if let Err(e) = agree(&bytes, dialect, &options(allow, None)) {
                    prop_assert!(false, "{dialect}: {e}");
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]
    /// Random trees of every type (nested and deep arrays and dictionaries, typed arrays,
    /// all leaf types): the views agree with `decode` element by element, in both dialects.
    #[test]
    fn random_trees_read_the_same_through_the_views(
        g3 in common::textgen::godot3_value(),
        g4 in common::textgen::godot4_value(),
    ) {
        for (value, dialect) in [(g3, Dialect::Godot3), (g4, Dialect::Godot4)] {
            let eo = EncodeOptions { round_reals: true, ..Default::default() };
            let bytes = encode(&value, dialect, &eo);
            prop_assert!(bytes.is_ok(), "{dialect}: {bytes:?}");
            let bytes = bytes.unwrap_or_default();
            let o = options(false, None);
            if let Err(e) = agree(&bytes, dialect, &o) {
                prop_assert!(false, "{dialect}: {e}");
            }
        }
    }
}

/// Text and packed arrays are views of the input, not copies.
#[test]
fn strings_names_and_packed_arrays_point_into_the_input() {
    let mut checked = 0;
    for f in load("godot4") {
        let (v, _) = decode_borrowed(&f.bytes, Dialect::Godot4, &options(true, Some(G43)))
            .expect("engine bytes decode");
        match &v {
            VariantRef::String(s) | VariantRef::StringName(s)
                if matches!(s, StrRef::Borrowed(_)) =>
            {
                assert!(inside(s.as_bytes(), &f.bytes), "{}", f.name);
                checked += 1;
            }
            VariantRef::PackedByteArray(b) => {
                assert!(inside(b, &f.bytes), "{}", f.name);
                checked += 1;
            }
            VariantRef::PackedFloat32Array(p) => {
                assert!(inside(p.as_bytes(), &f.bytes), "{}", f.name);
                checked += 1;
            }
            VariantRef::PackedStringArray(items) => {
                for s in items {
                    assert!(inside(s.as_bytes(), &f.bytes), "{}", f.name);
                }
                checked += 1;
            }
            _ => {}
        }
    }
    assert!(
        checked > 10,
        "only {checked} fixtures had text or packed data"
    );
    // A bigger PackedByteArray than any fixture: still one slice of the input.
    let big = encode(
        &Variant::PackedByteArray(vec![7; 1 << 20]),
        Dialect::Godot3,
        &EncodeOptions::default(),
    )
    .unwrap();
    let (v, used) = decode_borrowed(&big, Dialect::Godot3, &DecodeOptions::default()).unwrap();
    assert_eq!(used, big.len());
    let VariantRef::PackedByteArray(b) = v else {
        panic!("{v:?}")
    };
    assert_eq!(b.as_ptr(), big[8..].as_ptr());
    assert_eq!(b.len(), 1 << 20);
}

/// `PackedRef` reads the elements the engine wrote, and gives a slice when aligned.
#[test]
fn packed_views_read_the_engine_elements() {
    let mut seen = 0;
    for f in load("godot4") {
        let o = options(true, Some(G43));
        let (owned, _) = decode(&f.bytes, Dialect::Godot4, &o).unwrap();
        let (borrowed, _) = decode_borrowed(&f.bytes, Dialect::Godot4, &o).unwrap();
        match (&owned, &borrowed) {
            (Variant::PackedInt32Array(want), VariantRef::PackedInt32Array(p)) => {
                check_view(want, p);
                seen += 1;
            }
            (Variant::PackedInt64Array(want), VariantRef::PackedInt64Array(p)) => {
                check_view(want, p);
                seen += 1;
            }
            (Variant::PackedFloat64Array(want), VariantRef::PackedFloat64Array(p)) => {
                check_view(want, p);
                seen += 1;
            }
            // `same`: bitwise, as the fixtures hold NaNs.
            (Variant::PackedVector2Array(_), VariantRef::PackedVector2Array(p)) => {
                assert!(
                    Variant::PackedVector2Array(p.to_vec()).same(&owned),
                    "{}",
                    f.name
                );
                let iterated = p.iter().collect::<Vec<_>>();
                assert!(
                    Variant::PackedVector2Array(iterated).same(&owned),
                    "{}",
                    f.name
                );
                assert_eq!(p.get(p.len()), None);
                seen += 1;
            }
            (Variant::PackedColorArray(_), VariantRef::PackedColorArray(p)) => {
                assert!(
                    Variant::PackedColorArray(p.to_vec()).same(&owned),
                    "{}",
                    f.name
                );
                seen += 1;
            }
            (Variant::Object(Object::Id(id)), VariantRef::Object(ObjectRef::Id(id2))) => {
                assert_eq!(id, id2);
            }
            _ => {}
        }
    }
    assert!(seen >= 5, "packed fixtures seen: {seen}");
}

fn check_view<T>(want: &[T], p: &PackedRef<'_, T>)
where
    T: gdvariant::borrowed::PackedElement + bytemuck::Pod,
{
    // Bits, not `==`: the fixtures hold NaNs.
    let bits = |v: &[T]| bytemuck::cast_slice::<T, u8>(v).to_vec();
    assert_eq!(p.len(), want.len());
    assert_eq!(bits(&p.to_vec()), bits(want));
    for (i, w) in want.iter().enumerate() {
        assert_eq!(bits(&[p.get(i).expect("in range")]), bits(&[*w]));
    }
    assert!(p.get(want.len()).is_none());
    // The view is a slice of the input exactly when the input happens to be aligned for T.
    let aligned = p
        .as_bytes()
        .as_ptr()
        .align_offset(std::mem::align_of::<T>())
        == 0;
    assert_eq!(
        p.as_slice().is_some(),
        aligned && cfg!(target_endian = "little")
    );
    if let Some(s) = p.as_slice() {
        assert_eq!(bits(s), bits(want));
    }
}

/// Containers are views of the input: W3 decodes to an array view whose dictionaries are
/// views too, and reading one of them gives the engine's values with text pointing into the
/// input. Input with a repeated key gets built containers instead, with the engine's rule.
#[test]
fn containers_are_views_unless_a_key_repeats() {
    let w3 = encode(&workloads::w3(), Dialect::Godot3, &EncodeOptions::default()).unwrap();
    let (v, used) = decode_borrowed(&w3, Dialect::Godot3, &DecodeOptions::default()).unwrap();
    assert_eq!(used, w3.len());
    let VariantRef::Array(a) = &v else {
        panic!("{v:?}")
    };
    assert!(a.is_lazy());
    assert_eq!(a.len(), 100_000);
    let Some(VariantRef::Dictionary(d)) = a.get(12_345) else {
        panic!("element 12345 is a dictionary")
    };
    assert!(d.is_lazy());
    assert_eq!(d.len(), 4);
    assert_eq!(d.get_str("id"), Some(VariantRef::Int(12_345)));
    let Some(VariantRef::String(name)) = d.get_str("name") else {
        panic!("{d:?}")
    };
    assert_eq!(name, "player_12345");
    assert!(inside(name.as_bytes(), &w3));
    assert_eq!(
        d.get_str("pos"),
        Some(VariantRef::Vector2(Vector2 {
            x: 12_345.0,
            y: 24_690.0
        }))
    );
    assert_eq!(d.get_str("missing"), None);
    assert_eq!(a.iter().len(), 100_000);
    assert_eq!(
        a.iter().filter(|x| x.kind() == Kind::Dictionary).count(),
        100_000
    );

    // {"a": 1, "b": 2, "a": 3} as Godot 4 writes it by hand: the engine keeps {"a": 3, "b": 2}.
    let mut bytes = vec![27, 0, 0, 0, 3, 0, 0, 0];
    for (k, v) in [(b'a', 1u8), (b'b', 2), (b'a', 3)] {
        bytes.extend([4, 0, 0, 0, 1, 0, 0, 0, k, 0, 0, 0, 2, 0, 0, 0, v, 0, 0, 0]);
    }
    let o = DecodeOptions::default();
    let (v, _) = decode_borrowed(&bytes, Dialect::Godot4, &o).unwrap();
    let VariantRef::Dictionary(d) = &v else {
        panic!("{v:?}")
    };
    assert!(!d.is_lazy());
    assert_eq!(d.len(), 2);
    assert_eq!(d.get_str("a"), Some(VariantRef::Int(3)));
    assert_eq!(v.to_owned(), decode(&bytes, Dialect::Godot4, &o).unwrap().0);
}

/// A view equals the same elements built (`==`, `Debug`), and `get`, `to_vec` and
/// `into_entries` read what `iter` reads.
#[test]
fn views_compare_and_collect_like_built_values() {
    let o = DecodeOptions {
        version: Some(G43),
        allow_objects: true,
        keep_leading_bom: true,
        ..Default::default()
    };
    let mut views = 0;
    for f in load("godot4") {
        let (v, _) = decode_borrowed(&f.bytes, Dialect::Godot4, &o).expect("engine bytes decode");
        match &v {
            VariantRef::Array(a) if a.is_lazy() => {
                let built = ArrayRef::new(a.to_vec(), a.typed.clone());
                assert!(!built.is_lazy());
                // `==` is IEEE's for reals (NaN is not equal to itself), as for `Variant`.
                if !format!("{a:?}").contains("NaN") {
                    assert_eq!(a, &built, "{}", f.name);
                }
                assert_eq!(format!("{a:?}"), format!("{built:?}"), "{}", f.name);
                for (i, x) in a.iter().enumerate() {
                    assert_eq!(
                        format!("{:?}", a.get(i)),
                        format!("{:?}", Some(x)),
                        "{}",
                        f.name
                    );
                }
                assert_eq!(a.get(a.len()), None);
                views += 1;
            }
            VariantRef::Dictionary(d) if d.is_lazy() => {
                let entries = d.to_vec();
                assert_eq!(entries.len(), d.len(), "{}", f.name);
                assert_eq!(d.clone().into_entries(), entries, "{}", f.name);
                for (k, x) in &entries {
                    if let VariantRef::String(s) = k {
                        let got = d.get_str(s);
                        assert_eq!(format!("{got:?}"), format!("{:?}", Some(x)), "{}", f.name);
                    }
                }
                views += 1;
            }
            _ => {}
        }
    }
    assert!(views > 10, "only {views} fixtures were containers");
}
