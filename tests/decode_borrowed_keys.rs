//! Borrowed decoding of dictionaries: a repeated key caught wherever it sits, keys the engine's reading makes equal kept as one, and limits on records, with the same verdicts as `decode`.

mod common;
#[path = "../benches/common/workloads.rs"]
mod workloads;
use common::*;
use gdvariant::*;

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
