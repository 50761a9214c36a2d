//! The decoder's fast path (`src/decode/quick.rs`) against the driver it stands in for: on the
//! engines' own bytes it reads every value the driver reads (but the very deep), and builds
//! the same value from the same number of bytes; where it gives up, the driver still judges.

use gdvariant::{decode, decoders_apart, DecodeOptions, Dialect, Limits, Variant};
use std::path::{Path, PathBuf};

/// Engine-made values, one per file, with the dialect that wrote them.
fn fixtures() -> Vec<(PathBuf, Dialect)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut out = Vec::new();
    for (dir, dialect) in [
        ("godot3", Dialect::Godot3),
        ("godot4", Dialect::Godot4),
        ("godot4.4", Dialect::Godot4),
    ] {
        for e in std::fs::read_dir(root.join(dir)).expect("fixtures dir") {
            let p = e.expect("dir entry").path();
            if p.extension().and_then(|x| x.to_str()) == Some("bin") {
                out.push((p, dialect));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Both ways over `bytes`: the fast path's value, when it read one, is the driver's.
fn agree(name: &str, bytes: &[u8], dialect: Dialect, options: &DecodeOptions) -> bool {
    let (quick, driven) = decoders_apart(bytes, dialect, options);
    let Some((q, qused)) = quick else {
        return false;
    };
    let (v, used) = driven.unwrap_or_else(|e| panic!("{name}: fast path read, driver: {e}"));
    assert!(q.same(&v) && qused == used, "{name}: {q:?} / {v:?}");
    true
}

#[test]
fn the_fast_path_reads_every_engine_fixture_as_the_driver_does() {
    let mut taken = 0;
    for (path, dialect) in fixtures() {
        let name = path.display().to_string();
        let bytes = std::fs::read(&path).expect("fixture");
        for allow_objects in [false, true] {
            let options = DecodeOptions {
                allow_objects,
                ..DecodeOptions::default()
            };
            let took = agree(&name, &bytes, dialect, &options);
            // It gives up only on what the driver refuses.
            if decode(&bytes, dialect, &options).is_ok() {
                assert!(took, "{name}: the fast path gave up");
            }
            taken += usize::from(took);
        }
    }
    assert!(taken > 500, "only {taken} fixtures read");
}

/// `n` Arrays, each holding the next, around an Int.
fn nested(n: usize) -> Vec<u8> {
    let mut b = Vec::new();
    for _ in 0..n {
        b.extend([28, 0, 0, 0, 1, 0, 0, 0]);
    }
    b.extend([2, 0, 0, 0, 7, 0, 0, 0]);
    b
}

#[test]
fn deep_input_goes_on_in_the_driver_and_the_limit_is_its_error() {
    let o = DecodeOptions::default();
    // Past the fast path's own depth, the driver fills the inner containers: still one read.
    for n in [16, 17, 33, 200, 1024] {
        assert!(
            agree(&n.to_string(), &nested(n), Dialect::Godot4, &o),
            "{n}"
        );
    }
    assert!(!agree("1025", &nested(1025), Dialect::Godot4, &o));
    let e = decode(&nested(1025), Dialect::Godot4, &o).unwrap_err();
    assert_eq!(e.offset(), 1025 * 8, "{e}");
    // Past the caller's limit: the driver's error, with its offset.
    let shallow = DecodeOptions {
        limits: Limits {
            max_depth: 3,
            max_elements: usize::MAX,
        },
        ..DecodeOptions::default()
    };
    assert!(!agree("limit", &nested(5), Dialect::Godot4, &shallow));
    let e = decode(&nested(5), Dialect::Godot4, &shallow).unwrap_err();
    assert_eq!(e.offset(), 32, "{e}");
}

/// A Dictionary of `keys` (Ints) with `i` as the value of entry `i`.
fn dict(keys: &[i32]) -> Vec<u8> {
    let mut b = vec![27, 0, 0, 0];
    b.extend((keys.len() as u32).to_le_bytes());
    for (i, k) in keys.iter().enumerate() {
        b.extend([2, 0, 0, 0]);
        b.extend(k.to_le_bytes());
        b.extend([2, 0, 0, 0]);
        b.extend((i as i32).to_le_bytes());
    }
    b
}

#[test]
fn repeated_keys_keep_the_engines_rule_small_and_big() {
    let o = DecodeOptions::default();
    for keys in [
        vec![1, 2, 1],
        vec![5, 5, 5, 5],
        (0..40).chain([3, 39, 0]).collect::<Vec<_>>(),
    ] {
        let bytes = dict(&keys);
        assert!(agree("dict", &bytes, Dialect::Godot4, &o));
        let (v, _) = decode(&bytes, Dialect::Godot4, &o).expect("decodes");
        let Variant::Dictionary(d) = v else {
            panic!("{v:?}")
        };
        // Last value wins, first position kept.
        let mut unique = keys.clone();
        unique.dedup();
        unique.sort();
        unique.dedup();
        assert_eq!(d.len(), unique.len());
        let last = keys.iter().rposition(|&k| k == keys[0]).expect("present");
        assert_eq!(d.entries()[0].1, Variant::Int(last as i64));
    }
}

#[test]
fn errors_are_the_drivers_at_every_cut() {
    let o = DecodeOptions::default();
    let bytes = dict(&[1, 2, 3]);
    for cut in 0..bytes.len() {
        let (quick, driven) = decoders_apart(&bytes[..cut], Dialect::Godot4, &o);
        assert!(quick.is_none(), "cut {cut}");
        let e = driven.expect_err("truncated");
        assert_eq!(decode(&bytes[..cut], Dialect::Godot4, &o), Err(e));
    }
}

/// A String as the engine writes it (length, bytes, zero padding to 4).
fn string(b: &mut Vec<u8>, text: &[u8]) {
    b.extend([4, 0, 0, 0]);
    b.extend((text.len() as u32).to_le_bytes());
    b.extend(text);
    b.resize(b.len() + (4 - text.len() % 4) % 4, 0);
}

/// String keys, the fast path's own (plain text, its key bit taken from the input) mixed with
/// keys it leaves to `one` (text the engine's reading changes, a StringName, an Int): equal
/// keys merge by the engine's rule whichever way each was read, and keys that only look
/// alike stay apart.
#[test]
fn string_keys_read_plain_or_not_merge_by_the_engines_rule() {
    let o = DecodeOptions::default();
    /// A key: raw String bytes, or a StringName or Int written apart.
    enum K<'a> {
        S(&'a [u8]),
        Name(&'a [u8]),
        Int(i32),
    }
    /// The keys of a dictionary, and the entries expected (key, index of the winning value).
    type Case<'a> = (Vec<K<'a>>, Vec<(Variant, i64)>);
    let cases: Vec<Case> = vec![
        // The engine stops a string at its NUL: "a\0b" is "a", the key read plain before.
        (
            vec![K::S(b"a"), K::S(b"a\0b"), K::S(b"b")],
            vec![("a".into(), 1), ("b".into(), 2)],
        ),
        // The other way round: the slow key first, the plain one replaces its value.
        (
            vec![K::S(b"id\0"), K::S(b"x"), K::S(b"id")],
            vec![("id".into(), 2), ("x".into(), 1)],
        ),
        // A leading BOM is dropped by the engine's reading (not plain ASCII either).
        (
            vec![K::S(b"hp"), K::S(b"\xef\xbb\xbfhp")],
            vec![("hp".into(), 1)],
        ),
        // Repeats among plain keys of every length kept inline and one past it.
        (
            vec![
                K::S(b"name"),
                K::S(b"pos"),
                K::S(b"a_key_of_24_bytes_long__"),
                K::S(b"a_key_of_25_bytes_long___"),
                K::S(b"pos"),
                K::S(b"a_key_of_24_bytes_long__"),
                K::S(b"a_key_of_25_bytes_long___"),
                K::S(b""),
                K::S(b""),
            ],
            vec![
                ("name".into(), 0),
                ("pos".into(), 4),
                ("a_key_of_24_bytes_long__".into(), 5),
                ("a_key_of_25_bytes_long___".into(), 6),
                ("".into(), 8),
            ],
        ),
        // Alike but not equal: a StringName and an Int are other keys than the String.
        (
            vec![K::S(b"k"), K::Name(b"k"), K::Int(1), K::S(b"1"), K::S(b"k")],
            vec![
                ("k".into(), 4),
                (Variant::StringName("k".into()), 1),
                (Variant::Int(1), 2),
                ("1".into(), 3),
            ],
        ),
    ];
    for (keys, want) in cases {
        let mut b = vec![27, 0, 0, 0];
        b.extend((keys.len() as u32).to_le_bytes());
        for (i, k) in keys.iter().enumerate() {
            match k {
                K::S(t) => string(&mut b, t),
                K::Name(t) => {
                    string(&mut b, t);
                    let at = b.len() - 8 - t.len().next_multiple_of(4);
                    b[at] = 21; // STRING_NAME
                }
                K::Int(x) => {
                    b.extend([2, 0, 0, 0]);
                    b.extend(x.to_le_bytes());
                }
            }
            b.extend([2, 0, 0, 0]);
            b.extend((i as i32).to_le_bytes());
        }
        assert!(agree("string keys", &b, Dialect::Godot4, &o));
        let (v, used) = decode(&b, Dialect::Godot4, &o).expect("decodes");
        assert_eq!(used, b.len());
        let Variant::Dictionary(d) = v else {
            panic!("{v:?}")
        };
        let got: Vec<(Variant, Variant)> = d.entries().to_vec();
        let want: Vec<(Variant, Variant)> = want
            .into_iter()
            .map(|(k, i)| (k, Variant::Int(i)))
            .collect();
        assert_eq!(got, want);
    }
}

/// Strings of every length the owned result keeps inline (each length its own copy in
/// `GString::copied`) and a few past it keep their text exactly, as values, keys, and
/// StringNames, read by the fast path and by the driver.
#[test]
fn strings_of_every_inline_length_keep_their_text() {
    let o = DecodeOptions::default();
    for n in 0..=40usize {
        let text: String = (0..n)
            .map(|i| char::from(b'a' + (i * 7 % 26) as u8))
            .collect();
        let mut b = vec![27, 0, 0, 0, 2, 0, 0, 0];
        string(&mut b, text.as_bytes());
        string(&mut b, text.as_bytes());
        string(&mut b, b"name");
        string(&mut b, text.as_bytes());
        let at = b.len() - 8 - n.next_multiple_of(4);
        b[at] = 21; // the value a StringName
        assert!(agree(&text, &b, Dialect::Godot4, &o), "{n}");
        let (v, _) = decode(&b, Dialect::Godot4, &o).expect("decodes");
        let Variant::Dictionary(d) = v else {
            panic!("{v:?}")
        };
        let want = [
            (Variant::from(text.as_str()), Variant::from(text.as_str())),
            (
                Variant::from("name"),
                Variant::StringName(text.as_str().into()),
            ),
        ];
        assert_eq!(d.entries(), &want[..], "{n}");
        let Variant::String(s) = &d.entries()[0].0 else {
            panic!()
        };
        assert_eq!(s.as_str(), text);
        assert_eq!(s.len(), n);
    }
}
