//! Duplicate dictionary keys: the last value wins at the first key's position, as Godot 3.2.3's
//! `bytes2var` does, in small dictionaries (linear check) and big ones (hash index), owned and
//! borrowed alike.

mod common;
use gdvariant::math::*;
use gdvariant::*;
use proptest::prelude::*;
use std::process::Command;

/// Dictionary bytes with `pairs` in order, duplicates and all (no encoder writes those).
fn raw_dictionary(dialect: Dialect, pairs: &[(Variant, Variant)]) -> Vec<u8> {
    let header: u32 = match dialect {
        Dialect::Godot4 => 27,
        _ => 18,
    };
    let mut out = Vec::new();
    out.extend_from_slice(&header.to_le_bytes());
    out.extend_from_slice(&(pairs.len() as u32).to_le_bytes());
    let o = EncodeOptions::default();
    for (k, v) in pairs {
        encode_into(&mut out, k, dialect, &o).unwrap();
        encode_into(&mut out, v, dialect, &o).unwrap();
    }
    out
}

/// What the engine's `Dictionary::operator[]=` makes of the pairs: `Dictionary::insert`.
fn model(pairs: &[(Variant, Variant)]) -> Variant {
    Variant::Dictionary(pairs.iter().cloned().collect())
}

fn decoded_both(bytes: &[u8], dialect: Dialect) -> (Variant, Variant) {
    let o = DecodeOptions::default();
    let (owned, used) = decode(bytes, dialect, &o).unwrap();
    assert_eq!(used, bytes.len());
    let (borrowed, _) = decode_borrowed(bytes, dialect, &o).unwrap();
    // The views, read element by element, hold what the owned decoder made.
    assert!(
        common::walk(&borrowed).same(&owned),
        "{owned:?} vs {borrowed:?}"
    );
    (owned, borrowed.to_owned())
}

fn key() -> impl Strategy<Value = Variant> {
    prop_oneof![
        (0i64..12).prop_map(Variant::Int),
        (0u8..12).prop_map(|i| Variant::String(format!("k{i}").into())),
        (0u8..4).prop_map(|i| Variant::Float(f64::from(i))),
        Just(Variant::Float(f64::NAN)),
        Just(Variant::Float(-0.0)),
        (0u8..3).prop_map(|i| Variant::Vector2(Vector2 {
            x: f64::from(i),
            y: 1.0
        })),
        Just(Variant::Nil),
        any::<bool>().prop_map(Variant::Bool),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]
    /// Up to 60 entries drawn from a few dozen keys: many duplicates, small and big dictionaries.
    #[test]
    fn duplicates_resolve_like_the_engines_insert(
        pairs in proptest::collection::vec((key(), (0i64..1000).prop_map(Variant::Int)), 0..60)
    ) {
        for dialect in [Dialect::Godot3, Dialect::Godot4] {
            let bytes = raw_dictionary(dialect, &pairs);
            let (owned, borrowed) = decoded_both(&bytes, dialect);
            let want = model(&pairs);
            prop_assert!(owned.same(&want), "{dialect}: {owned:?}\nwant {want:?}");
            prop_assert!(borrowed.same(&want), "{dialect} borrowed: {borrowed:?}");
        }
    }
}

/// The real engine on the same bytes: `var2bytes(bytes2var(input))` equals our re-encoding.
#[test]
fn duplicates_resolve_like_godot_3_2_3() {
    let found = Command::new("sh")
        .args(["-c", "command -v godot3-server"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "godot3-server is missing (CI=true)"
        );
        eprintln!("skipped: godot3-server is not installed");
        return;
    }
    let s = |x: &str| Variant::String(x.into());
    let i = Variant::Int;
    let mut cases: Vec<Vec<(Variant, Variant)>> = vec![
        vec![(s("a"), i(1)), (s("b"), i(2)), (s("a"), i(3))],
        vec![
            (i(1), s("int")),
            (Variant::Float(1.0), s("float")),
            (i(1), s("int again")),
        ],
        vec![
            (s("hp"), i(1)),
            (s("id"), i(2)),
            (s("hp"), i(3)),
            (s("hp"), i(4)),
        ],
    ];
    // Big enough for the hash index, with duplicates before and after it is built.
    let mut big: Vec<(Variant, Variant)> = (0..40).map(|n| (i(n % 23), i(n))).collect();
    big.extend((0..10).map(|n| (s(&format!("k{}", n % 4)), i(100 + n))));
    cases.push(big);

    let dir = std::env::temp_dir().join(format!("gdvariant-dupkeys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (n, pairs) in cases.iter().enumerate() {
        std::fs::write(
            dir.join(format!("in{n}.bin")),
            raw_dictionary(Dialect::Godot3, pairs),
        )
        .unwrap();
    }
    let script = dir.join("roundtrip.gd");
    std::fs::write(
        &script,
        format!(
            "extends SceneTree\nfunc _init():\n\tfor n in range({}):\n\t\tvar f = File.new()\n\t\tf.open(\"{d}/in%d.bin\" % n, File.READ)\n\t\tvar b = f.get_buffer(f.get_len())\n\t\tf.close()\n\t\tvar g = File.new()\n\t\tg.open(\"{d}/out%d.bin\" % n, File.WRITE)\n\t\tg.store_buffer(var2bytes(bytes2var(b)))\n\t\tg.close()\n\tquit()\n",
            cases.len(),
            d = dir.display()
        ),
    )
    .unwrap();
    let out = Command::new("godot3-server")
        .arg("-s")
        .arg(&script)
        .current_dir(&dir)
        .env("LANG", "en")
        .output()
        .expect("run godot3-server");
    for (n, pairs) in cases.iter().enumerate() {
        let engine = std::fs::read(dir.join(format!("out{n}.bin")))
            .unwrap_or_else(|e| panic!("case {n}: {e}\n{}", String::from_utf8_lossy(&out.stderr)));
        let input = raw_dictionary(Dialect::Godot3, pairs);
        let (owned, borrowed) = decoded_both(&input, Dialect::Godot3);
        let o = EncodeOptions::default();
        assert_eq!(
            encode(&owned, Dialect::Godot3, &o).unwrap(),
            engine,
            "case {n}"
        );
        assert_eq!(
            encode(&borrowed, Dialect::Godot3, &o).unwrap(),
            engine,
            "case {n}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
