//! `Dictionary` keeps the engine's key rule once it indexes its keys (16 entries and more):
//! the same answers as a plain scan, in constant time per insert.

use gdvariant::math::Vector2;
use gdvariant::{Dictionary, StringName, Variant};

/// The keys of the test: ints, floats with the rule's edge cases, text and math values.
fn key(i: usize) -> Variant {
    match i % 7 {
        0 => Variant::Int((i / 7) as i64),
        // `1` and `1.0` are different keys.
        1 => Variant::Float((i / 7) as f64),
        2 => Variant::String(format!("k{}", i / 7).into()),
        3 => Variant::StringName(StringName::from(format!("k{}", i / 7).as_str())),
        4 => Variant::from(Vector2::new((i / 7) as f64, 0.5)),
        // Every NaN is one key; so are 0.0 and -0.0.
        5 => Variant::Float(if i & 1 == 0 { f64::NAN } else { -f64::NAN }),
        _ => Variant::Float(if i & 1 == 0 { 0.0 } else { -0.0 }),
    }
}

/// Entries equal bit for bit (NaN keys are not `==` to themselves).
fn same_entry(a: &(Variant, Variant), b: &(Variant, Variant)) -> bool {
    a.0.same(&b.0) && a.1.same(&b.1)
}

#[test]
fn the_index_gives_the_scan_answers() {
    let n = 20_000;
    let mut d = Dictionary::new();
    // A reference model: a scan with the documented rule, written out here.
    let same = |a: &Variant, b: &Variant| match (a, b) {
        (Variant::Float(x), Variant::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
        _ => a == b,
    };
    let mut model: Vec<(Variant, Variant)> = Vec::new();
    for i in 0..n {
        // Every key twice: the second value replaces the first, in place.
        for round in 0..2 {
            let (k, v) = (key(i), Variant::Int((i * 10 + round) as i64));
            d.insert(k.clone(), v.clone());
            match model.iter_mut().find(|(m, _)| same(m, &k)) {
                Some(slot) => slot.1 = v,
                None => model.push((k, v)),
            }
            if i % 997 == 0 {
                let bad = d
                    .entries()
                    .iter()
                    .zip(&model)
                    .position(|(a, b)| !same_entry(a, b));
                assert!(
                    bad.is_none() && d.len() == model.len(),
                    "after key {i}: first difference at {bad:?}: {:?} vs {:?}",
                    bad.map(|b| &d.entries()[b]),
                    bad.map(|b| &model[b])
                );
            }
        }
    }
    assert_eq!(d.len(), model.len());
    assert!(d
        .entries()
        .iter()
        .zip(&model)
        .all(|(a, b)| same_entry(a, b)));
    for (k, v) in &model {
        assert_eq!(d.get(k), Some(v), "{k:?}");
    }
    assert_eq!(d.get(&Variant::Int(-1)), None);
    // Text keys of both kinds by their text.
    assert_eq!(d.get_str("k3"), d.get(&Variant::String("k3".into())));
    assert!(d.get_str("k5").is_some() && d.get_str("nope").is_none());
    // A name key alone is found by its text too (through the index, not a scan).
    d.insert(Variant::StringName("only_a_name".into()), Variant::Int(7));
    assert_eq!(d.get_str("only_a_name"), Some(&Variant::Int(7)));
    // The NaN and zero keys collapsed to one entry each.
    let nans = d
        .entries()
        .iter()
        .filter(|(k, _)| matches!(k, Variant::Float(x) if x.is_nan()))
        .count();
    assert_eq!(nans, 1);
}

#[test]
fn collecting_a_large_dictionary_is_linear() {
    // 200,000 distinct keys: quadratic insertion would take minutes here.
    let d: Dictionary = (0..200_000i64)
        .map(|i| (Variant::Int(i), Variant::Int(-i)))
        .collect();
    assert_eq!(d.len(), 200_000);
    assert_eq!(d.get(&Variant::Int(123_456)), Some(&Variant::Int(-123_456)));
}

#[test]
fn text_keys_of_every_length_are_found_by_their_text() {
    // Texts up to 15 bytes are hashed as one word, longer ones in two parts: every length
    // across that line, as a String and as a StringName (different keys of one text), in an
    // indexed dictionary built by insertion and one decoded from bytes (the decoder's index).
    let text = |n: usize| "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ"[..n].to_string();
    let mut d = Dictionary::new();
    for n in 0..=40 {
        d.insert(Variant::String(text(n).into()), Variant::Int(n as i64));
        d.insert(
            Variant::StringName(StringName::from(text(n).as_str())),
            Variant::Int(-(n as i64)),
        );
    }
    assert_eq!(d.len(), 82);
    let bytes = gdvariant::encode(
        &Variant::Dictionary(d.clone()),
        gdvariant::Dialect::Godot4,
        &Default::default(),
    )
    .expect("encodes");
    let (decoded, _) = gdvariant::decode(&bytes, gdvariant::Dialect::Godot4, &Default::default())
        .expect("decodes");
    let Variant::Dictionary(decoded) = decoded else {
        panic!("not a Dictionary: {decoded:?}")
    };
    for d in [&d, &decoded] {
        assert_eq!(d.len(), 82);
        for n in 0..=40 {
            let s = Variant::String(text(n).into());
            let name = Variant::StringName(StringName::from(text(n).as_str()));
            assert_eq!(d.get(&s), Some(&Variant::Int(n as i64)), "{n}");
            assert_eq!(d.get(&name), Some(&Variant::Int(-(n as i64))), "{n}");
            // The String is the first entry of its text.
            assert_eq!(d.get_str(&text(n)), Some(&Variant::Int(n as i64)), "{n}");
        }
    }
}
