//! `#[godot(flatten)]`, `#[godot(alias = "...")]` and the deterministic order of `HashMap`
//! fields: what they write, what they accept, and what happens at the edges (key collisions
//! across flattened types, aliases and primary names both present).

use gdvariant::{
    encode, Dialect, Dictionary, EncodeOptions, FromVariant, GodotVariant, ToVariant, Variant,
};
use std::collections::{BTreeMap, HashMap};

fn dict(entries: &[(&str, Variant)]) -> Variant {
    let mut d = Dictionary::new();
    for (k, v) in entries {
        d.insert((*k).into(), v.clone());
    }
    Variant::Dictionary(d)
}

fn get<'a>(v: &'a Variant, key: &str) -> Option<&'a Variant> {
    match v {
        Variant::Dictionary(d) => d.get_str(key),
        _ => None,
    }
}

fn keys(v: &Variant) -> Vec<String> {
    match v {
        Variant::Dictionary(d) => d
            .entries()
            .iter()
            .map(|(k, _)| match k {
                Variant::String(s) => s.to_string(),
                other => format!("{other:?}"),
            })
            .collect(),
        other => panic!("not a Dictionary: {other:?}"),
    }
}

#[derive(GodotVariant, Debug, PartialEq, Default)]
struct Stats {
    hp: i64,
    #[godot(default)]
    mana: i64,
}

#[derive(GodotVariant, Debug, PartialEq)]
#[godot(deny_unknown_fields)]
struct Player {
    name: String,
    #[godot(flatten)]
    stats: Stats,
    level: i64,
}

#[test]
fn flatten_writes_the_inner_fields_in_place() {
    let p = Player {
        name: "ann".into(),
        stats: Stats { hp: 90, mana: 5 },
        level: 2,
    };
    let v = p.to_variant();
    assert_eq!(keys(&v), ["name", "hp", "mana", "level"]);
    assert_eq!(Player::from_variant(&v).unwrap(), p);
}

#[test]
fn flatten_reads_the_inner_fields_and_knows_their_keys_for_deny_unknown_fields() {
    let v = dict(&[
        ("level", 3.into()),
        ("hp", 7.into()),
        ("name", "bob".into()),
    ]);
    let p = Player::from_variant(&v).unwrap();
    assert_eq!(p.stats, Stats { hp: 7, mana: 0 });
    let with_extra = dict(&[
        ("level", 3.into()),
        ("hp", 7.into()),
        ("name", "bob".into()),
        ("gold", 1.into()),
    ]);
    assert_eq!(
        Player::from_variant(&with_extra).unwrap_err().to_string(),
        "unknown key `gold`"
    );
}

#[test]
fn flattened_errors_name_the_key_at_the_parents_level() {
    let v = dict(&[
        ("name", "bob".into()),
        ("hp", "lots".into()),
        ("level", 1.into()),
    ]);
    let err =
        Vec::<Player>::from_variant(&Variant::Array(gdvariant::Array::new(vec![v]))).unwrap_err();
    assert_eq!(err.to_string(), "[0].hp: expected Int, found String");
    let missing = dict(&[("name", "bob".into()), ("level", 1.into())]);
    assert_eq!(
        Player::from_variant(&missing).unwrap_err().to_string(),
        "missing key `hp`"
    );
}

#[derive(GodotVariant, Debug, PartialEq)]
struct Inner {
    id: i64,
    note: String,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct Middle {
    #[godot(flatten)]
    inner: Inner,
    depth: i64,
}

/// Shares `id` with the flattened `Middle` (through `Inner`): the derive cannot see it.
#[derive(GodotVariant, Debug, PartialEq)]
struct Outer {
    id: i64,
    #[godot(flatten)]
    middle: Middle,
}

#[test]
fn a_key_written_twice_keeps_its_first_place_and_the_later_value() {
    let o = Outer {
        id: 1,
        middle: Middle {
            inner: Inner {
                id: 2,
                note: "n".into(),
            },
            depth: 3,
        },
    };
    let v = o.to_variant();
    assert_eq!(keys(&v), ["id", "note", "depth"]);
    assert_eq!(get(&v, "id"), Some(&Variant::Int(2)));
    // Reading gives the one value to both fields.
    let back = Outer::from_variant(&v).unwrap();
    assert_eq!((back.id, back.middle.inner.id), (2, 2));
}

#[derive(GodotVariant, Debug, PartialEq)]
#[godot(rename_all = "camelCase")]
struct Save {
    #[godot(alias = "hp", alias = "health")]
    hit_points: i64,
    #[godot(rename = "lvl", alias = "level")]
    level: i64,
}

#[test]
fn aliases_are_read_and_the_primary_name_is_written() {
    let old = dict(&[("health", 5.into()), ("level", 2.into())]);
    let s = Save::from_variant(&old).unwrap();
    assert_eq!(
        s,
        Save {
            hit_points: 5,
            level: 2
        }
    );
    assert_eq!(keys(&s.to_variant()), ["hitPoints", "lvl"]);
    let older = dict(&[("hp", 6.into()), ("lvl", 1.into())]);
    assert_eq!(Save::from_variant(&older).unwrap().hit_points, 6);
    // Both present: the later entry wins, as a repeated key would.
    let both = dict(&[("hitPoints", 1.into()), ("hp", 9.into()), ("lvl", 1.into())]);
    assert_eq!(Save::from_variant(&both).unwrap().hit_points, 9);
    let err = Save::from_variant(&dict(&[("hp", "x".into()), ("lvl", 1.into())])).unwrap_err();
    // The path names the field's primary key whichever name was read.
    assert_eq!(err.to_string(), "hitPoints: expected Int, found String");
}

#[derive(GodotVariant, Debug, PartialEq)]
struct Inventory {
    counts: HashMap<String, i64>,
    by_id: HashMap<i64, String>,
}

fn inventory(order: &[usize]) -> Inventory {
    let names = [
        "sword", "axe", "bow", "shield", "potion", "arrow", "helm", "ring",
    ];
    let mut counts = HashMap::new();
    let mut by_id = HashMap::new();
    for &i in order {
        counts.insert(names[i].to_string(), i as i64);
        by_id.insert(100 - i as i64, names[i].to_string());
    }
    Inventory { counts, by_id }
}

#[test]
fn hash_map_fields_give_the_same_bytes_every_time() {
    let opts = EncodeOptions::default();
    let a = inventory(&[0, 1, 2, 3, 4, 5, 6, 7]);
    let b = inventory(&[7, 6, 5, 4, 3, 2, 1, 0]);
    let bytes = |inv: &Inventory| encode(&inv.to_variant(), Dialect::Godot4, &opts).unwrap();
    // Each HashMap has its own random hasher state, so iteration orders differ.
    let first = bytes(&a);
    for _ in 0..8 {
        assert_eq!(bytes(&a), first);
        assert_eq!(bytes(&b), first);
        assert_eq!(bytes(&inventory(&[3, 1, 4, 0, 5, 2, 6, 7])), first);
    }
    // The engine's key order: strings by code point, ints ascending.
    let v = a.to_variant();
    let counts = get(&v, "counts").unwrap();
    let sorted: BTreeMap<String, i64> = a.counts.clone().into_iter().collect();
    assert_eq!(keys(counts), sorted.keys().cloned().collect::<Vec<_>>());
    let ids = keys(get(&v, "by_id").unwrap());
    assert_eq!(ids.first().map(String::as_str), Some("Int(93)"));
    assert_eq!(Inventory::from_variant(&v).unwrap(), a);
}

#[test]
fn hash_map_keys_the_engine_does_not_order_still_give_one_order() {
    // Arrays as keys: Godot 4 has no `<` for them, so they tie in the engine's order.
    let make = |order: &[i64]| {
        let mut m: HashMap<Vec<String>, i64> = HashMap::new();
        for &i in order {
            m.insert(vec![format!("k{i}")], i);
        }
        m.to_variant()
    };
    let first = make(&[1, 2, 3, 4, 5, 6]);
    for order in [[6, 5, 4, 3, 2, 1], [3, 1, 2, 6, 4, 5]] {
        assert_eq!(make(&order), first);
    }
}

#[derive(GodotVariant, Debug, PartialEq)]
struct Meta<T> {
    page: i64,
    cursor: Option<T>,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct Page<T> {
    items: Vec<T>,
    #[godot(flatten)]
    meta: Meta<String>,
}

#[test]
fn generic_structs_flatten_and_are_flattened() {
    let p = Page {
        items: vec![true, false],
        meta: Meta {
            page: 2,
            cursor: Some("c".to_string()),
        },
    };
    let v = p.to_variant();
    assert_eq!(keys(&v), ["items", "page", "cursor"]);
    assert_eq!(Page::<bool>::from_variant(&v).unwrap(), p);
}
