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

/// Both decoders on the same bytes: the same verdict, the same value, the same `used`.
fn agree(bytes: &[u8], dialect: Dialect, o: &DecodeOptions) -> Result<(), String> {
    match (
        decode(bytes, dialect, o),
        decode_borrowed(bytes, dialect, o),
    ) {
        (Ok((owned, used)), Ok((borrowed, used_b))) => {
            if used != used_b {
                return Err(format!("used {used} vs borrowed {used_b}"));
            }
            if !borrowed.to_owned().same(&owned) {
                return Err(format!("to_owned differs:\n  {owned:?}\n  {borrowed:?}"));
            }
            if !borrowed.clone().into_owned().same(&owned) {
                return Err("into_owned differs".into());
            }
            if borrowed.kind() != owned.kind() {
                return Err("kind differs".into());
            }
            // The views read element by element give the same value as the owned decoder.
            if !walk(&borrowed).same(&owned) {
                return Err(format!(
                    "walking the views differs:\n  {owned:?}\n  {borrowed:?}"
                ));
            }
            Ok(())
        }
        (Err(a), Err(b)) if a == b => Ok(()),
        (a, b) => Err(format!(
            "verdicts differ: owned {:?}, borrowed {:?}",
            a.map(|x| x.1),
            b.map(|x| x.1)
        )),
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

fn inside(part: &[u8], whole: &[u8]) -> bool {
    let (p, w) = (part.as_ptr() as usize, whole.as_ptr() as usize);
    p >= w && p + part.len() <= w + whole.len()
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

/// A repeated key is caught wherever the two sit in a small or indexed dictionary, alone, in
/// an array after a dictionary of the same size, and around or inside another dictionary with
/// the same key names (the fast scan keeps a small dictionary's keys in a row per depth, in
/// the slot of the count of entries after each): debug builds check the scan's verdict against
/// the driver's, and the views against the built values.
#[test]
fn repeated_keys_are_caught_in_every_slot() {
    let text = |out: &mut Vec<u8>, s: &str| {
        out.extend([4, 0, 0, 0]);
        out.extend((s.len() as u32).to_le_bytes());
        out.extend(s.as_bytes());
        out.resize(out.len().next_multiple_of(4), 0);
    };
    let int = |out: &mut Vec<u8>, v: u32| {
        out.extend([2, 0, 0, 0]);
        out.extend(v.to_le_bytes());
    };
    // A dictionary of `n` entries `k0`… whose entry `j` repeats the key of entry `i`, and whose
    // entry `inner` (if any) holds `child` as its value.
    let dict = |n: usize, repeat: Option<(usize, usize)>, inner: Option<(usize, &[u8])>| {
        let mut out = vec![27, 0, 0, 0];
        out.extend((n as u32).to_le_bytes());
        for e in 0..n {
            let k = match repeat {
                Some((i, j)) if e == j => i,
                _ => e,
            };
            text(&mut out, &format!("k{k}"));
            match inner {
                Some((at, child)) if at == e => out.extend(child),
                _ => int(&mut out, e as u32),
            }
        }
        out
    };
    let o = DecodeOptions::default();
    let check = |bytes: &[u8], repeated: bool, what: &str| {
        agree(bytes, Dialect::Godot4, &o).unwrap_or_else(|e| panic!("{what}: {e}"));
        let (v, _) = decode_borrowed(bytes, Dialect::Godot4, &o).unwrap();
        let lazy = match &v {
            VariantRef::Dictionary(d) => d.is_lazy(),
            VariantRef::Array(a) => a.is_lazy(),
            _ => panic!("{what}: {v:?}"),
        };
        assert_eq!(lazy, !repeated, "{what}");
    };
    for n in [2, 3, 15, 16, 17] {
        let clean = dict(n, None, None);
        for i in 0..n {
            for j in i + 1..n {
                let what = format!("n={n} key {j} repeats key {i}");
                let dup = dict(n, Some((i, j)), None);
                check(&dup, true, &what);
                let mut array = vec![28, 0, 0, 0, 2, 0, 0, 0];
                array.extend(&clean);
                array.extend(&dup);
                check(&array, true, &format!("{what}, in an array"));
                let child = dict(n, Some((i, j)), None);
                let around = dict(3, None, Some((1, &child)));
                check(&around, true, &format!("{what}, inside a dictionary"));
                let around = dict(n, Some((i, j)), Some((i, &clean)));
                check(&around, true, &format!("{what}, around a dictionary"));
            }
            let around = dict(n, None, Some((i, &clean)));
            check(&around, false, &format!("n={n} around a dictionary at {i}"));
        }
    }
}

/// The fast scan checks a dictionary whose keys are spelled as those of the last dictionary of
/// as many entries at its depth by comparing their bytes, and reuses that one's verdict: a
/// repeat is still caught when a later dictionary repeats a key after keys spelled the same,
/// spells a key with other bytes of the same length or of another kind, has another count,
/// or has its keys checked around a child container (debug builds also check each verdict
/// against the driver's).
#[test]
fn dictionaries_spelled_like_the_last_one_still_catch_repeats() {
    /// A key: String, StringName or INT (wide when it does not fit 32 bits).
    #[derive(Clone, Copy)]
    enum K {
        S(&'static str),
        N(&'static str),
        I(i64),
    }
    use K::{I, N, S};
    fn key(out: &mut Vec<u8>, k: K) {
        match k {
            S(s) | N(s) => {
                // STRING and STRING_NAME in Godot 4.
                out.extend(if let S(_) = k {
                    [4, 0, 0, 0]
                } else {
                    [21, 0, 0, 0]
                });
                out.extend((s.len() as u32).to_le_bytes());
                out.extend(s.as_bytes());
                out.resize(out.len().next_multiple_of(4), 0);
            }
            I(v) => match i32::try_from(v) {
                Ok(v) => {
                    out.extend([2, 0, 0, 0]);
                    out.extend(v.to_le_bytes());
                }
                Err(_) => {
                    out.extend([2, 0, 1, 0]);
                    out.extend(v.to_le_bytes());
                }
            },
        }
    }
    /// A dictionary of these keys, each with the value INT 7 or the bytes given.
    fn dict(entries: &[(K, Option<&[u8]>)]) -> Vec<u8> {
        let mut out = vec![27, 0, 0, 0];
        out.extend((entries.len() as u32).to_le_bytes());
        for &(k, v) in entries {
            key(&mut out, k);
            out.extend(v.unwrap_or(&[2, 0, 0, 0, 7, 0, 0, 0]));
        }
        out
    }
    /// A dictionary of these keys, each with the value INT 7.
    fn keys(ks: &[K]) -> Vec<u8> {
        dict(&ks.iter().map(|&k| (k, None)).collect::<Vec<_>>())
    }
    fn array(items: &[Vec<u8>]) -> Vec<u8> {
        let mut out = vec![28, 0, 0, 0];
        out.extend((items.len() as u32).to_le_bytes());
        out.extend(items.concat());
        out
    }
    let o = DecodeOptions::default();
    // `repeated`: whether some dictionary repeats a key (None: the driver's rule decides, as
    // for a String and a StringName of the same text).
    let check = |bytes: &[u8], repeated: Option<bool>, what: &str| {
        agree(bytes, Dialect::Godot4, &o).unwrap_or_else(|e| panic!("{what}: {e}"));
        let (v, _) = decode_borrowed(bytes, Dialect::Godot4, &o).unwrap();
        let lazy = match &v {
            VariantRef::Dictionary(d) => d.is_lazy(),
            VariantRef::Array(a) => a.is_lazy(),
            _ => panic!("{what}: {v:?}"),
        };
        if let Some(repeated) = repeated {
            assert_eq!(lazy, !repeated, "{what}");
        }
    };
    // STRING_NAME is 21.
    let (name, _) = decode(&keys(&[N("a")])[8..20], Dialect::Godot4, &o).unwrap();
    assert_eq!(name.kind(), Kind::StringName);

    let abcd = keys(&[S("a"), S("b"), S("c"), S("d")]);
    // What each case is, its dictionaries, and whether one repeats a key.
    type Case = (&'static str, Vec<Vec<u8>>, Option<bool>);
    let cases: Vec<Case> = vec![
        (
            "the same keys again",
            vec![abcd.clone(), abcd.clone()],
            Some(false),
        ),
        (
            "a key spelled otherwise repeats one spelled the same",
            vec![
                abcd.clone(),
                abcd.clone(),
                keys(&[S("a"), S("b"), S("a"), S("d")]),
            ],
            Some(true),
        ),
        (
            "a last key repeats the first",
            vec![abcd.clone(), keys(&[S("a"), S("b"), S("c"), S("a")])],
            Some(true),
        ),
        (
            "other bytes of the same length",
            vec![keys(&[S("ab"), S("cd")]), keys(&[S("ab"), S("ab")])],
            Some(true),
        ),
        (
            "other bytes of the same length, no repeat",
            vec![keys(&[S("ab"), S("cd")]), keys(&[S("ab"), S("ce")])],
            Some(false),
        ),
        (
            "longer text keys",
            vec![
                keys(&[S("position"), S("velocity_x")]),
                keys(&[S("position"), S("position")]),
            ],
            Some(true),
        ),
        (
            "INT keys",
            vec![keys(&[I(1), I(2)]), keys(&[I(1), I(1)])],
            Some(true),
        ),
        (
            "wide INT keys",
            vec![
                keys(&[I(1 << 40), I(2 << 40)]),
                keys(&[I(1 << 40), I(1 << 40)]),
            ],
            Some(true),
        ),
        (
            "wide INT keys differing in the high half",
            vec![
                keys(&[I(1 << 40), I(2 << 40)]),
                keys(&[I(1 << 40), I(1 << 41)]),
            ],
            Some(false),
        ),
        (
            "an INT where a String was",
            vec![keys(&[I(5), S("b")]), keys(&[I(5), I(5)])],
            Some(true),
        ),
        (
            "a String where an INT was",
            vec![keys(&[S("a"), I(2)]), keys(&[S("a"), S("a")])],
            Some(true),
        ),
        (
            "a StringName where a String was",
            vec![keys(&[S("a"), S("b")]), keys(&[S("a"), N("a")])],
            None,
        ),
        (
            "a String where a StringName was",
            vec![keys(&[N("a"), N("b")]), keys(&[N("a"), S("a")])],
            None,
        ),
        (
            "a StringName of another text where a String was",
            vec![keys(&[S("a"), S("b")]), keys(&[S("a"), N("b")])],
            Some(false),
        ),
        (
            // The slot of the first key of four was last filled by a dictionary of four.
            "a count other than the last one's",
            vec![
                keys(&[S("x"), S("a"), S("b"), S("c")]),
                keys(&[S("x"), S("y"), S("z")]),
                keys(&[S("x"), S("x"), S("y"), S("z")]),
            ],
            Some(true),
        ),
        (
            "fewer keys",
            vec![abcd.clone(), keys(&[S("b"), S("b"), S("d")])],
            Some(true),
        ),
        (
            "an empty dictionary between",
            vec![
                abcd.clone(),
                keys(&[]),
                keys(&[S("a"), S("b"), S("c"), S("c")]),
            ],
            Some(true),
        ),
    ];
    for (what, dicts, repeated) in &cases {
        check(&array(dicts), *repeated, what);
        // The same at depth 3, each in a dictionary of one entry.
        let wrapped: Vec<Vec<u8>> = dicts.iter().map(|d| dict(&[(S("w"), Some(d))])).collect();
        check(&array(&wrapped), *repeated, &format!("{what}, wrapped"));
    }

    // Keys checked around a child container: a dictionary that stops matching before one
    // keeps checking every key after it.
    let pq = keys(&[S("p"), S("q")]);
    let last = dict(&[
        (S("a"), None),
        (S("b"), None),
        (S("c"), Some(&pq)),
        (S("d"), None),
    ]);
    let again = dict(&[
        (S("a"), None),
        (S("d"), None),
        (S("c"), Some(&pq)),
        (S("d"), None),
    ]);
    check(
        &array(&[last.clone(), again]),
        Some(true),
        "a repeat after a child",
    );
    let fine = dict(&[
        (S("a"), None),
        (S("e"), None),
        (S("c"), Some(&pq)),
        (S("d"), None),
    ]);
    check(
        &array(&[last.clone(), fine]),
        Some(false),
        "a child between",
    );

    // Nesting that changes between dictionaries: each depth compares with its own last.
    let ab = keys(&[S("a"), S("b")]);
    let aa = keys(&[S("a"), S("a")]);
    let xy = keys(&[S("x"), S("y")]);
    let inner = |d: &[u8]| dict(&[(S("a"), Some(d)), (S("b"), None)]);
    for (what, items, repeated) in [
        (
            "same shape, one deeper",
            vec![ab.clone(), inner(&ab)],
            false,
        ),
        (
            "a repeat one deeper",
            vec![ab.clone(), inner(&ab), inner(&aa)],
            true,
        ),
        (
            "a repeat back at the top",
            vec![inner(&ab), ab.clone(), aa.clone()],
            true,
        ),
        (
            "a repeat after a deeper one",
            vec![ab.clone(), inner(&ab), aa.clone()],
            true,
        ),
        (
            "a repeat around other keys",
            vec![dict(&[(S("a"), Some(&xy)), (S("a"), None)])],
            true,
        ),
        (
            "a repeat around other keys, after the same keys",
            vec![ab.clone(), dict(&[(S("a"), Some(&xy)), (S("a"), None)])],
            true,
        ),
        (
            "a repeat around",
            vec![inner(&ab), dict(&[(S("a"), Some(&ab)), (S("a"), None)])],
            true,
        ),
    ] {
        check(&array(&items), Some(repeated), what);
    }
}

/// Limits hold for dictionaries in an array, which the fast scan fills without a round of its
/// driving loop: an array of records one level too deep, or of one element too many, gets the
/// driver's error.
#[test]
fn limits_hold_for_records_in_an_array() {
    let w3 = encode(&workloads::w3(), Dialect::Godot4, &EncodeOptions::default()).unwrap();
    // Three records of W3, nested one deeper in an array of one.
    let records = |nest: bool| {
        let (v, _) = decode(&w3, Dialect::Godot4, &DecodeOptions::default()).unwrap();
        let Variant::Array(a) = v else { panic!() };
        let three = Variant::Array(a.iter().take(3).cloned().collect());
        let v = if nest {
            Variant::Array([three].into_iter().collect())
        } else {
            three
        };
        encode(&v, Dialect::Godot4, &EncodeOptions::default()).unwrap()
    };
    for nest in [false, true] {
        let bytes = records(nest);
        for max_depth in 0..5 {
            for max_elements in [0, 3, 4, 14, 15, 16, 100] {
                let o = DecodeOptions {
                    limits: Limits {
                        max_depth,
                        max_elements,
                    },
                    ..Default::default()
                };
                agree(&bytes, Dialect::Godot4, &o).unwrap_or_else(|e| {
                    panic!("nest {nest}, depth {max_depth}, elements {max_elements}: {e}")
                });
            }
        }
    }
}

/// Keys that the engine's string reading makes equal (it stops at a NUL) are the same key
/// whether their text came through unchanged or rewritten: the views never show both.
#[test]
fn keys_made_equal_by_the_engines_reading_are_one_key() {
    for (dialect, name) in [
        (Dialect::Godot3, false),
        (Dialect::Godot4, false),
        (Dialect::Godot4, true),
    ] {
        let key = |s: &str| {
            if name {
                Variant::StringName(StringName(s.into()))
            } else {
                Variant::from(s)
            }
        };
        let d: Dictionary = [(key("ab"), Variant::Int(1)), (key("abXc"), Variant::Int(2))]
            .into_iter()
            .collect();
        let mut bytes =
            encode(&Variant::Dictionary(d), dialect, &EncodeOptions::default()).unwrap();
        let x = bytes.iter().position(|&b| b == b'X').unwrap();
        bytes[x] = 0;
        let o = DecodeOptions::default();
        agree(&bytes, dialect, &o).unwrap_or_else(|e| panic!("{dialect} {name}: {e}"));
        let (owned, _) = decode(&bytes, dialect, &o).unwrap();
        assert_eq!(
            owned.as_dictionary().map(Dictionary::len),
            Some(1),
            "{owned:?}"
        );
    }
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
