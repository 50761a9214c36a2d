//! serde types through `gdvariant::serde`, checked against real Godot 4.3 bytes, plus the
//! shapes serde gives enums, options and maps, and interop with other formats.

mod common;
use common::*;
use gdvariant::math::{Color, Transform3D, Vector2, Vector3};
use gdvariant::serde::{from_slice, from_variant, to_variant, to_vec};
use gdvariant::{DecodeOptions, Dialect, Format, GodotVariant, Variant, Version};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

const G43: Version = Version::new(4, 3, 0);

fn fixture(name: &str) -> Fixture {
    load("godot4")
        .into_iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no Godot 4 fixture `{name}`"))
}

/// Bare Godot 4.3 values, as the fixtures were made.
fn g43() -> Format {
    Format::godot4().version(G43)
}

fn dopts() -> DecodeOptions {
    DecodeOptions {
        version: Some(G43),
        ..Default::default()
    }
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Player {
    id: i64,
    name: String,
    pos: Vector2,
    hp: f64,
}

#[test]
fn serde_players_match_the_engine_bytes() {
    let f = fixture("big_players");
    let players: Vec<Player> = from_slice(&f.bytes, &g43()).unwrap();
    assert_eq!(players.len(), 100);
    assert_eq!(players[7].pos, Vector2::new(7.0, 14.0));
    let bytes = to_vec(&players, &g43()).unwrap();
    assert_eq!(hex(&bytes), hex(&f.bytes));
}

/// `G.game_state()` read with serde: Packed arrays arrive as sequences, a NodePath as its
/// text, math types unchanged.
#[derive(Deserialize, Debug)]
struct GameState {
    version: u8,
    seed: i64,
    time: f64,
    players: Vec<Player>,
    spawn: Vec<Vector3>,
    flags: Vec<u8>,
    scores: Vec<i32>,
    names: Vec<String>,
    tint: Color,
    camera: Transform3D,
    path: String,
    nested: Variant,
    #[serde(default)]
    absent: Option<i32>,
}

#[test]
fn serde_reads_the_engine_game_state() {
    let f = fixture("game_state");
    let s: GameState = from_slice(&f.bytes, &g43()).unwrap();
    assert_eq!((s.version, s.seed), (3, 1234567890123));
    assert_eq!(s.time, 1234.5678);
    assert_eq!(s.players[19].name, "player_19");
    assert_eq!(s.spawn[1], Vector3::new(-4.0, 0.0, 2.5));
    assert_eq!(s.flags, [1, 0, 1, 1, 0]);
    assert_eq!(s.scores, [10, 20, -5]);
    assert_eq!(s.names, ["alpha", "beta", "gamma"]);
    assert_eq!(s.tint.a, 0.8);
    assert_eq!(s.camera.origin, Vector3::new(0.0, 10.0, -5.0));
    assert_eq!(s.path, "/root/Game/World:transform");
    assert!(matches!(s.nested, Variant::Dictionary(_)));
    assert_eq!(s.absent, None);
}

/// `{"name": "x", "hp": 100, "alive": true}`: serde's internally tagged enum reads it, and
/// writes the same bytes back (tag first, as the engine's insertion order has it).
#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(tag = "name")]
enum Unit {
    #[serde(rename = "x")]
    X { hp: i64, alive: bool },
}

#[test]
fn serde_internally_tagged_enum_matches_the_engine() {
    let f = fixture("dict_str_keys");
    let u: Unit = from_slice(&f.bytes, &g43()).unwrap();
    assert_eq!(
        u,
        Unit::X {
            hp: 100,
            alive: true
        }
    );
    assert_eq!(hex(&to_vec(&u, &g43()).unwrap()), hex(&f.bytes));
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Command {
    Idle,
    Say(String),
    Move { to: Vector2, run: bool },
    Pair(i32, i32),
}

#[test]
fn serde_enum_shapes() {
    let s = |c: &Command| to_variant(c).unwrap();
    assert_eq!(s(&Command::Idle), Variant::String("Idle".into()));
    let say = s(&Command::Say("hi".into()));
    let Variant::Dictionary(d) = &say else {
        panic!("{say:?}")
    };
    assert_eq!(d.get_str("Say"), Some(&Variant::String("hi".into())));
    for c in [
        Command::Idle,
        Command::Say("hi".into()),
        Command::Move {
            to: Vector2::new(1.0, -2.0),
            run: true,
        },
        Command::Pair(3, -4),
    ] {
        let back: Command = from_variant(&to_variant(&c).unwrap()).unwrap();
        assert_eq!(back, c);
    }
    // An Int is read as the variant index, as GDScript enums are sent.
    assert_eq!(
        from_variant::<Command>(&Variant::Int(0)).unwrap(),
        Command::Idle
    );
}

#[test]
fn serde_maps_options_and_errors() {
    let mut m = BTreeMap::new();
    m.insert("b".to_string(), Some(2_i64));
    m.insert("a".to_string(), None);
    let v = to_variant(&m).unwrap();
    let back: BTreeMap<String, Option<i64>> = from_variant(&v).unwrap();
    assert_eq!(back, m);
    assert!(to_variant(&u64::MAX).is_err(), "Godot ints are i64");
    let err = from_variant::<Player>(&Variant::Int(3)).unwrap_err();
    assert!(err.to_string().contains("struct Player"), "{err}");
}

/// A `GodotVariant` type inside a serde type, and Variants through JSON.
#[derive(GodotVariant, Debug, PartialEq, Clone, Copy)]
enum Class {
    Warrior,
    Mage = 5,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Hero {
    #[serde(with = "gdvariant::serde::as_variant")]
    class: Class,
    level: u8,
}

#[test]
fn godot_variant_fields_inside_serde_types() {
    let h = Hero {
        class: Class::Mage,
        level: 3,
    };
    let v = to_variant(&h).unwrap();
    let Variant::Dictionary(d) = &v else {
        panic!("{v:?}")
    };
    assert_eq!(d.get_str("class"), Some(&Variant::Int(5)));
    assert_eq!(from_variant::<Hero>(&v).unwrap(), h);
    // Through JSON the same types are plain structures.
    let json = serde_json::to_string(&h).unwrap();
    assert_eq!(json, r#"{"class":5,"level":3}"#);
    assert_eq!(serde_json::from_str::<Hero>(&json).unwrap(), h);
    let p = Player {
        id: 1,
        name: "a".into(),
        pos: Vector2::new(0.5, 2.0),
        hp: 1.0,
    };
    let json = serde_json::to_string(&p).unwrap();
    assert_eq!(
        json,
        r#"{"id":1,"name":"a","pos":{"x":0.5,"y":2.0},"hp":1.0}"#
    );
    assert_eq!(serde_json::from_str::<Player>(&json).unwrap(), p);
}

#[test]
fn every_godot4_fixture_value_survives_serde_as_a_variant() {
    // A `Variant` passed through `to_variant`/`from_variant` must come back bit for bit.
    let mut bad = Mismatches::default();
    let all = load("godot4");
    for f in &all {
        let opts = DecodeOptions {
            allow_objects: f.bool("full_objects"),
            keep_leading_bom: true,
            ..dopts()
        };
        let (v, _) = gdvariant::decode(&f.bytes, Dialect::Godot4, &opts).unwrap();
        let through = to_variant(&v).unwrap();
        let back: Variant = from_variant(&through).unwrap();
        if !back.same(&v) {
            bad.push(&f.name, "changed");
        }
    }
    bad.check(all.len());
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Roster {
    players: Vec<Member>,
    by_name: BTreeMap<String, Member>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Member {
    name: String,
    level: i64,
    score: u64,
    last: Option<Action>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Action {
    Move { x: i64 },
    Say(String),
}

fn member(i: i64) -> Member {
    Member {
        name: format!("p{i}"),
        level: i,
        score: 0,
        last: None,
    }
}

fn roster() -> Roster {
    Roster {
        players: (0..5).map(member).collect(),
        by_name: [("ann".to_string(), member(9))].into_iter().collect(),
    }
}

/// Replaces the Dictionary value at `path` (keys, or indices for Arrays) with `value`.
fn set_at(v: &mut Variant, path: &[&str], value: Variant) {
    let Some((first, rest)) = path.split_first() else {
        *v = value;
        return;
    };
    let next = match v {
        Variant::Array(a) => &mut a.items[first.parse::<usize>().unwrap()],
        Variant::Dictionary(d) => {
            let mut entries = d.entries().to_vec();
            let slot = entries
                .iter_mut()
                .find(|(k, _)| *k == Variant::from(*first))
                .unwrap_or_else(|| panic!("no key {first}"));
            set_at(&mut slot.1, rest, value);
            *d = entries.into_iter().collect();
            return;
        }
        other => panic!("cannot go into {other:?}"),
    };
    set_at(next, rest, value);
}

#[test]
fn serde_errors_name_the_path_to_the_bad_value() {
    let good = to_variant(&roster()).unwrap();
    let cases: [(&[&str], Variant, &str); 4] = [
        (
            &["players", "3", "level"],
            "level_01".into(),
            r#"players[3].level: invalid type: string "level_01", expected i64"#,
        ),
        (
            &["by_name", "ann", "name"],
            7.into(),
            r#"by_name["ann"].name: invalid type: integer `7`, expected a string"#,
        ),
        (
            &["players", "1", "last"],
            {
                let mut d = gdvariant::Dictionary::new();
                let mut inner = gdvariant::Dictionary::new();
                inner.insert("x".into(), 1.5.into());
                d.insert("Move".into(), Variant::Dictionary(inner));
                Variant::Dictionary(d)
            },
            "players[1].last.Move.x: invalid type: floating point `1.5`, expected i64",
        ),
        (
            &["players", "0"],
            Variant::Int(3),
            "players[0]: invalid type: integer `3`, expected struct Member",
        ),
    ];
    for (path, bad, expected) in cases {
        let mut v = good.clone();
        set_at(&mut v, path, bad);
        let err = from_variant::<Roster>(&v).unwrap_err();
        assert_eq!(err.to_string(), expected);
        // The same through bytes.
        let bytes = gdvariant::to_vec(&v, &g43()).unwrap();
        let err = from_slice::<Roster>(&bytes, &g43()).unwrap_err();
        assert_eq!(err.to_string(), expected);
    }
    let err = from_variant::<Roster>(&Variant::Int(1)).unwrap_err();
    assert_eq!(err.path(), "");
}

#[test]
fn serde_serialization_errors_name_the_path_too() {
    let mut r = roster();
    r.players[2].score = u64::MAX;
    let err = to_variant(&r).unwrap_err();
    assert_eq!(
        err.to_string(),
        "players[2].score: 18446744073709551615 does not fit a Godot int (i64)"
    );
    assert_eq!(err.path(), "players[2].score");
    assert!(matches!(err.inner(), gdvariant::serde::Error::Message(_)));
    let mut r = roster();
    r.by_name.get_mut("ann").unwrap().score = u64::MAX;
    let err = to_vec(&r, &g43()).unwrap_err();
    let gdvariant::Error::Serde(err) = err else {
        panic!("not a serde error: {err}")
    };
    assert_eq!(err.path(), r#"by_name["ann"].score"#);
}
