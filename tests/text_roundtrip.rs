//! Round trips of the text form on random values, offline: `to_text_exact` reads back to the
//! same value bit for bit in every dialect (keys in their order), and `to_text` does wherever it loses nothing (by the named
//! loss rules of tests/common/text.rs). Honours PROPTEST_CASES and PROPTEST_RNG_SEED.

mod common;
use common::text::text_losses;
use common::textgen::{godot3_value, godot4_value};
use gdvariant::*;
use proptest::prelude::*;

/// Equality as the text can carry it: every NaN is alike, Dictionary keys in any order,
/// a null Object is Nil (the engines send it as Nil), a Signal is empty (printed `Signal()`).
fn same_as_text(a: &Variant, b: &Variant) -> bool {
    use Variant::*;
    let f = |x: f64, y: f64| (x.is_nan() && y.is_nan()) || x.to_bits() == y.to_bits();
    let f32s = |x: f32, y: f32| f(f64::from(x), f64::from(y));
    match (a, b) {
        (Float(x), Float(y)) => f(*x, *y),
        (Object(gdvariant::Object::Null), Nil) | (Nil, Object(gdvariant::Object::Null)) => true,
        (Signal(_), Signal(_)) => true,
        (Array(x), Array(y)) => {
            x.typed == y.typed
                && x.items.len() == y.items.len()
                && x.items
                    .iter()
                    .zip(&y.items)
                    .all(|(p, q)| same_as_text(p, q))
        }
        (Dictionary(x), Dictionary(y)) => {
            x.typed() == y.typed()
                && x.len() == y.len()
                && x.entries().iter().all(|(k, v)| {
                    y.entries()
                        .iter()
                        .any(|(k2, v2)| same_as_text(k, k2) && same_as_text(v, v2))
                })
        }
        (PackedFloat32Array(x), PackedFloat32Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| f32s(*p, *q))
        }
        (PackedFloat64Array(x), PackedFloat64Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| f(*p, *q))
        }
        (Color(x), Color(y)) => {
            f32s(x.r, y.r) && f32s(x.g, y.g) && f32s(x.b, y.b) && f32s(x.a, y.a)
        }
        (PackedColorArray(x), PackedColorArray(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(p, q)| same_as_text(&Color(*p), &Color(*q)))
        }
        // Math types: compare their text, which prints every component exactly (NaNs alike).
        _ if a.kind() == b.kind() => {
            a == b || to_text_exact(a, Dialect::Godot4) == to_text_exact(b, Dialect::Godot4)
        }
        _ => false,
    }
}

fn check(v: &Variant, d: Dialect) -> Result<(), TestCaseError> {
    let exact = to_text_exact(v, d);
    let back =
        from_text(&exact, d).map_err(|e| TestCaseError::fail(format!("{d}: {e}\n{exact}")))?;
    // The exact form keeps everything: keys in their order, Signals, every bit.
    prop_assert!(
        v.same(&back),
        "{d}: exact text does not read back\n{exact}\n{back:?}"
    );
    if text_losses(v, d).is_empty() {
        let text = to_text(v, d);
        let back =
            from_text(&text, d).map_err(|e| TestCaseError::fail(format!("{d}: {e}\n{text}")))?;
        prop_assert!(
            same_as_text(v, &back),
            "{d}: lossless text does not read back\n{text}"
        );
    }
    Ok(())
}

proptest! {
    #[test]
    fn godot3_and_pandemonium_text_reads_back(v in godot3_value()) {
        // Godot 3 RIDs print nothing; an exact text keeps them.
        check(&v, Dialect::Godot3)?;
        check(&v, Dialect::Pandemonium)?;
    }

    #[test]
    fn godot4_text_reads_back(v in godot4_value()) {
        check(&v, Dialect::Godot4)?;
    }
}

/// What the exact text used to lose (issue 14): a Dictionary's insertion order (Godot 3.2.3's
/// `player_reordered` fixture sends `pos, hp, name`), a Signal's name and object, and
/// Pandemonium 5's packed typed arrays (`1c000000 03000000 …`, from its source).
#[test]
fn exact_text_keeps_key_order_signals_and_packed_typed_arrays() {
    let g3 = common::load("godot3/game");
    let f = g3.iter().find(|f| f.name == "player_reordered").unwrap();
    let (v, _) = decode(&f.bytes, Dialect::Godot3, &DecodeOptions::default()).unwrap();
    let text = to_text_exact(&v, Dialect::Godot3);
    assert!(text.find("\"pos\"") < text.find("\"hp\""), "{text}");
    let back = from_text(&text, Dialect::Godot3).unwrap();
    assert!(back.same(&v));
    let again = encode(&back, Dialect::Godot3, &EncodeOptions::default()).unwrap();
    assert_eq!(
        again, f.bytes,
        "the engine's bytes again, key order and all"
    );
    // The plain text sorts keys, as the engine's var2str does.
    assert!(
        to_text(&v, Dialect::Godot3).find("\"hp\"") < to_text(&v, Dialect::Godot3).find("\"pos\"")
    );

    let signal = Variant::Signal(Signal {
        name: "hit \"me\"".into(),
        object: 1234,
    });
    let text = to_text_exact(&signal, Dialect::Godot4);
    assert_eq!(text, r#"Signal(&"hit \"me\"", 1234)"#);
    assert_eq!(from_text(&text, Dialect::Godot4).unwrap(), signal);
    assert_eq!(to_text(&signal, Dialect::Godot4), "Signal()");

    let options = DecodeOptions {
        version: Some(Version::new(5, 2, 0)),
        ..Default::default()
    };
    let bytes = common::unhex("1c000000030000000200000003000000000000c003000000000000f03f");
    let (packed, _) = decode(&bytes, Dialect::Pandemonium, &options).unwrap();
    let text = to_text_exact(&packed, Dialect::Pandemonium);
    assert!(text.starts_with("PackedTypedArray[float]("), "{text}");
    assert!(from_text(&text, Dialect::Pandemonium)
        .unwrap()
        .same(&packed));
}

/// Arrays and Dictionaries nested `depth` deep, the innermost holding an int.
fn nested(depth: usize, dictionary: bool) -> Variant {
    let mut v = Variant::Int(7);
    for _ in 0..depth {
        v = if dictionary {
            let mut d = Dictionary::new();
            d.insert(Variant::Int(0), v);
            Variant::Dictionary(d)
        } else {
            Variant::Array(Array::from(vec![v]))
        };
    }
    v
}

/// The exact text writes every level the decoder accepts, and the parser reads them all back:
/// a value nested 1,000 deep used to come back 102 levels deep (Godot 4's writer stops at its
/// `MAX_RECURSION` of 100, which only the engine's text should copy). The deepest value the
/// decoder accepts with the default limits reads back too; one level more is refused by both.
#[test]
fn exact_text_keeps_every_level_the_decoder_accepts() {
    // The encoder, equality and drop recurse once per level: a debug build's frames are large.
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(deep_values_read_back)
        .expect("spawn")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

fn deep_values_read_back() {
    let options = DecodeOptions::default();
    for dictionary in [false, true] {
        for d in Dialect::ALL {
            let v = nested(1000, dictionary);
            let text = to_text_exact(&v, d);
            let back = from_text(&text, d).unwrap_or_else(|e| panic!("{d}: {e}"));
            assert!(back.same(&v), "{d}: 1000 levels do not read back");
        }
        // The engine's own text prints depths 0 to 100, then an empty container (Godot 4
        // only): 102 levels, as the fuzzer's 853-deep Array came back.
        let plain = to_text(&nested(1000, dictionary), Dialect::Godot4);
        let opener = if dictionary { '{' } else { '[' };
        assert_eq!(plain.matches(opener).count(), 102, "{dictionary}");
        // The decoder's deepest: one level more than its limit is refused.
        let mut deepest = None;
        for depth in [options.limits.max_depth, options.limits.max_depth + 1] {
            let v = nested(depth, dictionary);
            let deeper = EncodeOptions {
                max_depth: Some(depth),
                ..Default::default()
            };
            let bytes = encode(&v, Dialect::Godot4, &deeper).unwrap();
            if decode(&bytes, Dialect::Godot4, &options).is_ok() {
                deepest = Some(depth);
            }
        }
        let deepest = deepest.expect("the decoder accepts its limit");
        let v = nested(deepest, dictionary);
        let back = from_text(&to_text_exact(&v, Dialect::Godot4), Dialect::Godot4)
            .unwrap_or_else(|e| panic!("{deepest} levels: {e}"));
        assert!(back.same(&v), "{deepest} levels do not read back");
        let deeper = to_text_exact(&nested(deepest + 1, dictionary), Dialect::Godot4);
        let err = from_text(&deeper, Dialect::Godot4).expect_err("the parser reads deeper");
        assert!(err.message.contains("nesting deeper than 1024"), "{err}");
        // An empty container at the decoder's deepest level is accepted by both.
        let mut v = if dictionary {
            Variant::Dictionary(Dictionary::new())
        } else {
            Variant::Array(Array::new(Vec::new()))
        };
        for _ in 0..deepest {
            v = Variant::Array(Array::from(vec![v]));
        }
        let bytes = encode(&v, Dialect::Godot4, &EncodeOptions::default()).unwrap();
        decode(&bytes, Dialect::Godot4, &options).expect("the decoder's deepest container");
        let back = from_text(&to_text_exact(&v, Dialect::Godot4), Dialect::Godot4).unwrap();
        assert!(back.same(&v), "an empty container {deepest} deep");
    }
    // An object sent by id at the deepest level is one leaf in the bytes but an object with
    // two properties in text (`Object(EncodedObjectAsID,"object_id":…)`): it reads back too
    // (a fuzzer's Godot 3 input of nested Arrays ending in one did not).
    for d in Dialect::ALL {
        let mut v = Variant::Object(Object::Id(0x71b));
        for _ in 0..options.limits.max_depth {
            v = Variant::Array(Array::from(vec![v]));
        }
        let bytes = encode(&v, d, &EncodeOptions::default()).unwrap();
        decode(&bytes, d, &options).unwrap_or_else(|e| panic!("{d}: {e}"));
        let back = from_text(&to_text_exact(&v, d), d).unwrap_or_else(|e| panic!("{d}: {e}"));
        assert!(back.same(&v), "{d}: an object by id at the deepest level");
    }
}
