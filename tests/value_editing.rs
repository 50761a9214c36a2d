//! Reading and editing a `Variant` in place, as comfortably as a `serde_json::Value`: indexing,
//! `get`/`get_mut`, JSON pointers, `as_*_mut`, the Dictionary and Array editing API (with the
//! key index of big dictionaries staying right through removals), `Display` and `From`.

use gdvariant::{
    decode, encode, from_text, to_text, to_text_exact, Array, DecodeOptions, Dialect, Dictionary,
    ElementType, EncodeOptions, GString, Kind, StringName, Variant,
};
use indexmap::IndexMap;
use std::collections::{BTreeMap, HashMap};

fn text(s: &str) -> Variant {
    from_text(s, Dialect::Godot4).unwrap()
}

fn game() -> Variant {
    text(
        r#"{"players": [{"name": "Ada", "hp": 3}, {"name": "Bo", "hp": 5}],
            &"level": 2, 7: "seven", 1.0: "float one",
            "inventory": {"ids": Array[int]([1, 2])}}"#,
    )
}

#[test]
fn index_reads_and_gives_nil_when_absent() {
    let v = game();
    assert_eq!(v["players"][1]["name"].as_str(), Some("Bo"));
    // A StringName key answers a &str index (the `get_str` rule).
    assert_eq!(v["level"], Variant::Int(2));
    // Any key by &Variant, with the engine's key rule: 1 and 1.0 differ.
    assert_eq!(v[&Variant::Int(7)].as_str(), Some("seven"));
    assert_eq!(v[&Variant::Float(1.0)].as_str(), Some("float one"));
    assert!(v[&Variant::Int(1)].is_nil());
    // An owned String and an owned Variant index too.
    assert_eq!(v[String::from("level")], Variant::Int(2));
    assert_eq!(v[Variant::Int(7)], Variant::from("seven"));
    // Missing, out of bounds, or the wrong kind of container: Nil.
    assert!(v["nobody"].is_nil());
    assert!(v["players"][9].is_nil());
    assert!(v["players"]["name"].is_nil());
    assert!(v[0].is_nil());
    assert!(v["level"]["x"][3].is_nil());
    // Packed arrays are not indexed (their elements are not Variants).
    assert!(Variant::PackedInt32Array(vec![1])[0].is_nil());
}

#[test]
fn index_mut_inserts_keys_and_builds_from_nil() {
    let mut v = game();
    v["players"][0]["hp"] = 4.into();
    assert_eq!(v["players"][0]["hp"], Variant::Int(4));
    // A StringName key is updated in place, not shadowed by a new String key.
    v["level"] = 3.into();
    let d = v.as_dictionary().unwrap();
    assert_eq!(
        d.get(&Variant::StringName(StringName::from("level"))),
        Some(&Variant::Int(3))
    );
    assert!(!d.contains_key(&Variant::from("level")));
    // A new key is a String key, appended, holding Nil until assigned.
    let before = d.len();
    let _ = &mut v["new"];
    assert_eq!(v.as_dictionary().unwrap().len(), before + 1);
    let (last_key, last_value) = v.as_dictionary().unwrap().iter().next_back().unwrap();
    assert_eq!(
        (last_key, last_value),
        (&Variant::from("new"), &Variant::Nil)
    );
    // By &Variant.
    v[&Variant::Int(8)] = "eight".into();
    assert_eq!(v.pointer("/8"), Some(&Variant::from("eight")));
    // Nil becomes a Dictionary, level by level.
    let mut n = Variant::Nil;
    n["a"]["b"] = 1.into();
    n[&Variant::Int(2)]["c"] = true.into();
    assert_eq!(
        n.to_string(),
        "{\n2: {\n\"c\": true\n},\n\"a\": {\n\"b\": 1\n}\n}"
    );
}

#[test]
#[should_panic(expected = "cannot index a value of type Int with the key \"x\"")]
fn index_mut_by_key_panics_on_a_non_container() {
    let mut v = Variant::Int(1);
    v["x"] = 2.into();
}

#[test]
#[should_panic(expected = "cannot index an Array of 2 elements with 2: out of bounds")]
fn index_mut_by_number_panics_out_of_bounds() {
    let mut v = Variant::Array(Array::new(vec![1.into(), 2.into()]));
    v[2] = 3.into();
}

#[test]
#[should_panic(expected = "cannot index a value of type Dictionary with the number 0")]
fn index_mut_by_number_panics_on_a_dictionary() {
    let mut v = Variant::Dictionary(Dictionary::new());
    v[0] = 3.into();
}

#[test]
fn get_and_get_mut_give_options() {
    let mut v = game();
    assert_eq!(v.get("level"), Some(&Variant::Int(2)));
    assert_eq!(v.get("missing"), None);
    assert_eq!(v.get(0), None);
    assert_eq!(
        v.get(Variant::Int(7)).and_then(Variant::as_str),
        Some("seven")
    );
    let players = v.get_mut("players").unwrap();
    assert!(players.get_mut(5).is_none());
    *players.get_mut(0).unwrap().get_mut("name").unwrap() = "Cy".into();
    assert_eq!(v["players"][0]["name"].as_str(), Some("Cy"));
    // get_mut inserts nothing.
    let len = v.as_dictionary().unwrap().len();
    assert!(v.get_mut("absent").is_none());
    assert_eq!(v.as_dictionary().unwrap().len(), len);
}

#[test]
fn pointer_follows_rfc_6901() {
    let v = text(
        r#"{"a/b": 1, "m~n": 2, "~1": 3, "": 4, "arr": [10, [20, 21]], 5: "int five",
            "5": "string five", -3: "minus three", &"sn": {"x": null}}"#,
    );
    assert_eq!(v.pointer(""), Some(&v));
    assert_eq!(v.pointer("/a~1b"), Some(&Variant::Int(1)));
    assert_eq!(v.pointer("/m~0n"), Some(&Variant::Int(2)));
    // `~01` is `~1` (not `/`): `~1` is replaced first.
    assert_eq!(v.pointer("/~01"), Some(&Variant::Int(3)));
    assert_eq!(v.pointer("/"), Some(&Variant::Int(4)));
    assert_eq!(v.pointer("/arr/1/0"), Some(&Variant::Int(20)));
    assert_eq!(v.pointer("/arr/01"), None); // no leading zeros
    assert_eq!(v.pointer("/arr/+1"), None);
    assert_eq!(v.pointer("/arr/2"), None);
    assert_eq!(v.pointer("/arr/x"), None);
    // A String key of the text first, then an int key.
    assert_eq!(
        v.pointer("/5").and_then(Variant::as_str),
        Some("string five")
    );
    assert_eq!(
        v.pointer("/-3").and_then(Variant::as_str),
        Some("minus three")
    );
    assert_eq!(v.pointer("/-03"), None);
    // StringName keys, and a null value found (Some(Nil), not None).
    assert_eq!(v.pointer("/sn/x"), Some(&Variant::Nil));
    assert_eq!(v.pointer("/sn/y"), None);
    // Through a non-container, or without a leading slash: nothing.
    assert_eq!(v.pointer("/a~1b/0"), None);
    assert_eq!(v.pointer("arr"), None);

    let mut v = v;
    *v.pointer_mut("/arr/1/1").unwrap() = "changed".into();
    assert_eq!(v["arr"][1][1], Variant::from("changed"));
    *v.pointer_mut("/m~0n").unwrap() = Variant::Nil;
    assert!(v.get("m~n").unwrap().is_nil());
    assert!(v.pointer_mut("/nothing/here").is_none());
    assert!(v.pointer_mut("nothing").is_none());
}

#[test]
fn as_mut_accessors() {
    let mut v = game();
    *v["level"].as_int_mut().unwrap() += 1;
    assert_eq!(v["level"].as_int(), Some(3));
    v["players"][0]["name"].as_string_mut().unwrap().push('!');
    assert_eq!(v["players"][0]["name"].as_str(), Some("Ada!"));
    v["players"].as_array_mut().unwrap().items.pop();
    assert_eq!(v["players"].as_array().unwrap().len(), 1);
    v.as_dictionary_mut().unwrap().remove(&Variant::Int(7));
    assert!(v[&Variant::Int(7)].is_nil());

    let mut f = Variant::Float(1.5);
    *f.as_float_mut().unwrap() *= 2.0;
    assert_eq!(f, Variant::Float(3.0));
    assert!(Variant::Int(1).as_float_mut().is_none()); // as_float reads it; it holds no f64
    let mut b = Variant::Bool(false);
    *b.as_bool_mut().unwrap() = true;
    assert_eq!(b.as_bool(), Some(true));
    // A StringName is read by as_str but is not a String to change.
    let mut sn = Variant::StringName(StringName::from("n"));
    assert_eq!(sn.as_str(), Some("n"));
    assert!(sn.as_string_mut().is_none());
    assert!(b.as_int_mut().is_none() && b.as_array_mut().is_none());
    assert!(b.as_dictionary_mut().is_none() && b.as_string_mut().is_none());
    assert!(f.as_bool_mut().is_none());
}

/// The nested typed array of the users' report, edited in place: one line each, the element
/// type kept.
#[test]
fn edit_a_nested_typed_array_in_place() {
    let mut v = game();
    v["inventory"]["ids"].as_array_mut().unwrap().push(3);
    v["inventory"]["ids"][0] = 10.into();
    *v["inventory"]["ids"][1].as_int_mut().unwrap() *= 10;

    let ids = v["inventory"]["ids"].as_array().unwrap();
    assert_eq!(ids.element_type(), Some(&ElementType::Builtin(Kind::Int)));
    assert_eq!(
        ids.items,
        [Variant::Int(10), Variant::Int(20), Variant::Int(3)]
    );
    // And the bytes carry it.
    let bytes = encode(&v, Dialect::Godot4, &EncodeOptions::default()).unwrap();
    let (back, _) = decode(&bytes, Dialect::Godot4, &DecodeOptions::default()).unwrap();
    assert_eq!(back, v);
}

#[test]
fn dictionary_editing() {
    let mut d: Dictionary = (0..5)
        .map(|i| (Variant::Int(i), Variant::Int(i * 10)))
        .collect();
    d.insert("name".into(), "Ada".into());
    d.insert(Variant::StringName(StringName::from("tag")), 1.into());

    *d.get_mut(&Variant::Int(2)).unwrap() = Variant::Int(-2);
    assert_eq!(d.get(&Variant::Int(2)), Some(&Variant::Int(-2)));
    assert!(d.get_mut(&Variant::Float(2.0)).is_none());
    *d.get_str_mut("tag").unwrap() = 2.into();
    d.get_str_mut("name")
        .unwrap()
        .as_string_mut()
        .unwrap()
        .push('!');
    assert_eq!(d.get_str("tag"), Some(&Variant::Int(2)));
    assert_eq!(d.get_str("name").and_then(Variant::as_str), Some("Ada!"));
    assert!(d.get_str_mut("nope").is_none());

    assert!(d.contains_key(&Variant::Int(4)));
    assert!(!d.contains_key(&Variant::Float(4.0)));
    assert_eq!(d.remove(&Variant::Int(1)), Some(Variant::Int(10)));
    assert_eq!(d.remove(&Variant::Int(1)), None);
    assert_eq!(
        d.remove_entry(&"name".into()),
        Some(("name".into(), "Ada!".into()))
    );
    let keys: Vec<Variant> = d.keys().cloned().collect();
    let tag = Variant::StringName(StringName::from("tag"));
    assert_eq!(keys, [0.into(), 2.into(), 3.into(), 4.into(), tag.clone()]);
    let values: Vec<&Variant> = d.values().collect();
    assert_eq!(values[1], &Variant::Int(-2));
    assert_eq!(d.iter().len(), 5);
    assert_eq!(d.iter().next(), Some((&0.into(), &0.into())));

    for (k, v) in d.iter_mut() {
        if let Some(i) = k.as_int() {
            *v = Variant::Int(i + 100);
        }
    }
    for (_, v) in &mut d {
        *v.as_int_mut().unwrap() += 1;
    }
    let sum: i64 = (&d).into_iter().filter_map(|(_, v)| v.as_int()).sum();
    assert_eq!(sum, 101 + 103 + 104 + 105 + 3);
    for v in d.values_mut() {
        *v = Variant::Nil;
    }
    assert!(d.values().all(Variant::is_nil));

    // Extend keeps a present key's place and takes its new value.
    d.extend([(Variant::Int(0), "zero".into()), ("late".into(), 1.into())]);
    assert_eq!(d.iter().next(), Some((&0.into(), &"zero".into())));
    assert_eq!(d.keys().next_back(), Some(&"late".into()));

    d.retain(|k, v| {
        *v = true.into();
        k.as_int().is_some()
    });
    assert_eq!(d.len(), 4);
    assert!(d.values().all(|v| v == &Variant::Bool(true)));

    let owned: Vec<(Variant, Variant)> = d.clone().into_iter().collect();
    assert_eq!(owned.len(), 4);
    assert_eq!(owned[0].0, Variant::Int(0));

    d.set_typed(Some(gdvariant::DictionaryType {
        key: Some(ElementType::Builtin(Kind::Int)),
        value: None,
    }));
    d.clear();
    assert!(d.is_empty());
    assert!(d.typed().is_some(), "clear keeps the types");
    d.insert(1.into(), 1.into());
    assert_eq!(d.get(&1.into()), Some(&1.into()));
}

/// The keys of the index test: ints, floats (one NaN), Strings and StringNames of one text.
fn key(i: usize) -> Variant {
    match i % 5 {
        0 => Variant::Int(i as i64),
        1 => Variant::Float(i as f64),
        2 => Variant::from(format!("k{i}")),
        3 => Variant::StringName(StringName::from(format!("k{}", i - 1).as_str())),
        _ if i == 4 => Variant::Float(f64::NAN),
        _ => Variant::Float(-(i as f64)),
    }
}

/// The engine's key rule, written out: a scan of the entries in order.
fn scan<'d>(d: &'d Dictionary, k: &Variant) -> Option<&'d Variant> {
    let same = |a: &Variant| match (a, k) {
        (Variant::Float(x), Variant::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
        _ => a == k,
    };
    d.iter().find(|(a, _)| same(a)).map(|(_, v)| v)
}

fn scan_str<'d>(d: &'d Dictionary, text: &str) -> Option<&'d Variant> {
    d.iter()
        .find(|(k, _)| k.as_str() == Some(text))
        .map(|(_, v)| v)
}

/// Removals move the later entries up; the key index of a big dictionary must follow, through
/// every mix of removals, re-inserts, `retain` and the drop below the indexing size. Checked
/// against a scan with the rule written out, and the order against a model.
#[test]
fn the_key_index_stays_right_through_removals() {
    let n = 100;
    let mut d = Dictionary::new();
    let mut model: Vec<(Variant, Variant)> = Vec::new();
    let same = |a: &Variant, b: &Variant| match (a, b) {
        (Variant::Float(x), Variant::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
        _ => a == b,
    };
    for i in 0..n {
        d.insert(key(i), Variant::Int(i as i64));
        model.push((key(i), Variant::Int(i as i64)));
    }
    assert_eq!(d.len(), n);
    let check = |d: &Dictionary, model: &[(Variant, Variant)]| {
        let one = |a: Option<&Variant>, b: Option<&Variant>| match (a, b) {
            (Some(a), Some(b)) => std::ptr::eq(a, b),
            (None, None) => true,
            _ => false,
        };
        for i in 0..n + 5 {
            let k = key(i);
            assert!(one(d.get(&k), scan(d, &k)), "get {k:?}");
            assert_eq!(d.contains_key(&k), scan(d, &k).is_some());
            let text = format!("k{i}");
            assert!(one(d.get_str(&text), scan_str(d, &text)), "get_str {text}");
        }
        assert_eq!(d.len(), model.len());
        assert!(d
            .iter()
            .zip(model)
            .all(|((k, v), (mk, mv))| k.same(mk) && v.same(mv)));
    };
    check(&d, &model);
    // Remove from the front, the middle and the end, in a scrambled order.
    let mut removed = Vec::new();
    for step in 0..60 {
        let i = (step * 37 + 11) % n;
        let k = key(i);
        let expected = scan(&d, &k).cloned();
        assert_eq!(d.remove(&k), expected, "removing {k:?}");
        if expected.is_some() {
            removed.push(i);
            model.retain(|(mk, _)| !same(mk, &k));
        }
        check(&d, &model);
        // Every fifth step, put one back: at the end.
        if step % 5 == 4 {
            let back = removed.remove(0);
            d.insert(key(back), Variant::from("back"));
            model.push((key(back), Variant::from("back")));
            check(&d, &model);
        }
    }
    d.retain(|k, _| !matches!(k, Variant::Float(_)));
    model.retain(|(k, _)| !matches!(k, Variant::Float(_)));
    check(&d, &model);
    // Below the indexing size and back above it.
    while d.len() > 3 {
        let first = d.keys().next().unwrap().clone();
        d.remove(&first);
        model.remove(0);
        check(&d, &model);
    }
    for i in 0..n {
        d.insert(key(i), Variant::Nil);
        match model.iter_mut().find(|(mk, _)| same(mk, &key(i))) {
            Some(entry) => entry.1 = Variant::Nil,
            None => model.push((key(i), Variant::Nil)),
        }
    }
    check(&d, &model);
}

#[test]
fn array_editing() {
    let mut a = Array::default();
    assert!(a.is_empty());
    a.push(1);
    a.push("two");
    a.push(Variant::Nil);
    assert_eq!(a.len(), 3);
    assert_eq!(a[1], Variant::from("two"));
    a[2] = 3.5.into();
    for x in &mut a {
        if let Some(i) = x.as_int_mut() {
            *i += 1;
        }
    }
    for x in a.iter_mut() {
        if let Some(f) = x.as_float_mut() {
            *f += 1.0;
        }
    }
    let seen: Vec<&Variant> = a.iter().collect();
    assert_eq!(
        seen,
        [&Variant::Int(2), &"two".into(), &Variant::Float(4.5)]
    );
    assert_eq!((&a).into_iter().count(), 3);
    a.extend([Variant::Int(9)]);
    let collected: Array = a.clone().into_iter().rev().collect();
    assert_eq!(collected.items[0], Variant::Int(9));
    assert_eq!(collected.element_type(), None);
    assert_eq!(Array::from(vec![Variant::Int(1)]).items, [Variant::Int(1)]);
    assert_eq!(Variant::from(vec![Variant::Int(1)])[0], Variant::Int(1));
}

#[test]
#[should_panic]
fn array_index_panics_out_of_bounds() {
    let a = Array::default();
    let _ = &a[0];
}

#[test]
fn display_is_godot4_text() {
    let v = game();
    assert_eq!(v.to_string(), to_text(&v, Dialect::Godot4));
    assert_eq!(format!("{v:#}"), to_text_exact(&v, Dialect::Godot4));
    assert_eq!(Variant::Float(0.1).to_string(), "0.1");
    assert_eq!(
        format!("{:#}", Variant::Float(1.0 / 3.0)),
        "0.3333333333333333"
    );
    assert_eq!(Variant::from("a\"b").to_string(), "\"a\\\"b\"");
}

#[test]
fn from_literals() {
    assert_eq!(Variant::from(1u8), Variant::Int(1));
    assert_eq!(Variant::from(u16::MAX), Variant::Int(65535));
    assert_eq!(Variant::from(u32::MAX), Variant::Int(4294967295));
    assert_eq!(Variant::from(-1i8), Variant::Int(-1));
    assert_eq!(Variant::from(-2i16), Variant::Int(-2));
    assert_eq!(Variant::from(0.5f32), Variant::Float(0.5));
    let s = String::from("s");
    assert_eq!(Variant::from(&s), Variant::from("s"));
    assert_eq!(Variant::from(GString::from("g")), Variant::from("g"));
    assert_eq!(Variant::from(()), Variant::Nil);
    assert_eq!(Variant::from(None::<u8>), Variant::Nil);
    assert_eq!(Variant::from(Some(3u8)), Variant::Int(3));
    assert_eq!(
        Variant::from(vec![Variant::Int(1), "x".into()]),
        Variant::Array(Array::new(vec![1.into(), "x".into()]))
    );

    let sorted = Variant::from(BTreeMap::from([("b", 2), ("a", 1)]));
    let keys: Vec<_> = sorted.as_dictionary().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["a".into(), "b".into()] as [Variant; 2]);
    let ordered = Variant::from(IndexMap::from([("b", Some(2)), ("a", None)]));
    let entries: Vec<_> = ordered.as_dictionary().unwrap().iter().collect();
    assert_eq!(
        entries,
        [(&"b".into(), &2.into()), (&"a".into(), &Variant::Nil)]
    );
    let hashed = Variant::from(HashMap::from([(1u8, "one"), (2, "two")]));
    assert_eq!(hashed[&Variant::Int(2)], Variant::from("two"));
    assert_eq!(hashed.as_dictionary().unwrap().len(), 2);
}
