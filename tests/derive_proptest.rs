//! Property tests: any value of a derived type (and of the same type through serde) survives
//! value → Variant → bytes (Godot 3 and Godot 4) → Variant → value unchanged.

use gdvariant::math::Vector2;
use gdvariant::{
    decode, encode, DecodeOptions, Dialect, EncodeOptions, FromVariant, GodotVariant, ToVariant,
    Version,
};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(GodotVariant, Serialize, Deserialize, Debug, Clone, PartialEq)]
enum Class {
    Warrior,
    Rogue = 4,
    Mage,
}

#[derive(GodotVariant, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[godot(tag = "kind")]
enum Action {
    Idle,
    Say(String),
    Move { to: Vector2, run: bool },
    Trade(i64, Option<String>),
}

#[derive(GodotVariant, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Item {
    id: u32,
    name: String,
    weight: f32,
}

#[derive(GodotVariant, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[godot(rename_all = "camelCase")]
struct Player {
    player_name: String,
    hp: i64,
    level: u8,
    speed: f64,
    pos: Vector2,
    guild: Option<String>,
    class: Class,
    last_action: Action,
    scores: Vec<i32>,
    bitmap: Vec<u8>,
    tags: Vec<String>,
    items: Vec<Item>,
    #[godot(array)]
    history: Vec<i64>,
    pair: (i16, bool),
}

fn f32_real() -> impl Strategy<Value = f64> {
    // Reals that a single-precision engine stores exactly (any f32 but NaN, which breaks ==).
    any::<f32>()
        .prop_filter("not NaN", |x| !x.is_nan())
        .prop_map(f64::from)
}

fn vector2() -> impl Strategy<Value = Vector2> {
    (f32_real(), f32_real()).prop_map(|(x, y)| Vector2::new(x, y))
}

fn class() -> impl Strategy<Value = Class> {
    prop_oneof![Just(Class::Warrior), Just(Class::Rogue), Just(Class::Mage)]
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        Just(Action::Idle),
        ".*".prop_map(Action::Say),
        (vector2(), any::<bool>()).prop_map(|(to, run)| Action::Move { to, run }),
        (any::<i64>(), proptest::option::of("[a-z]{0,5}")).prop_map(|(n, s)| Action::Trade(n, s)),
    ]
}

fn item() -> impl Strategy<Value = Item> {
    (
        any::<u32>(),
        ".*",
        any::<f32>().prop_filter("not NaN", |x| !x.is_nan()),
    )
        .prop_map(|(id, name, weight)| Item { id, name, weight })
}

fn player() -> impl Strategy<Value = Player> {
    (
        (
            ".*",
            any::<i64>(),
            any::<u8>(),
            any::<f64>().prop_filter("not NaN", |x| !x.is_nan()),
            vector2(),
            proptest::option::of(".*"),
            class(),
        ),
        (
            action(),
            proptest::collection::vec(any::<i32>(), 0..8),
            proptest::collection::vec(any::<u8>(), 0..9),
            proptest::collection::vec(".*", 0..4),
            proptest::collection::vec(item(), 0..4),
            proptest::collection::vec(any::<i64>(), 0..4),
            (any::<i16>(), any::<bool>()),
        ),
    )
        .prop_map(
            |(
                (player_name, hp, level, speed, pos, guild, class),
                (last_action, scores, bitmap, tags, items, history, pair),
            )| Player {
                player_name,
                hp,
                level,
                speed,
                pos,
                guild,
                class,
                last_action,
                scores,
                bitmap,
                tags,
                items,
                history,
                pair,
            },
        )
}

/// Strings the engines change on decode (a leading BOM is dropped, a NUL ends the string)
/// are kept apart: their loss is the engine's rule, tested in the codec's own tests.
fn engine_safe(p: &Player) -> bool {
    let ok = |s: &str| !s.starts_with('\u{feff}') && !s.contains('\0');
    ok(&p.player_name)
        && p.guild.as_deref().into_iter().all(ok)
        && p.tags.iter().all(|t| ok(t))
        && p.items.iter().all(|i| ok(&i.name))
        && match &p.last_action {
            Action::Say(s) => ok(s),
            Action::Trade(_, Some(s)) => ok(s),
            _ => true,
        }
}

fn through_bytes(v: &gdvariant::Variant, dialect: Dialect) -> gdvariant::Variant {
    let version = match dialect {
        Dialect::Godot4 => Some(Version::new(4, 3, 0)),
        _ => None,
    };
    let bytes = encode(
        v,
        dialect,
        &EncodeOptions {
            version,
            ..Default::default()
        },
    )
    .expect("encodes");
    let (back, used) = decode(
        &bytes,
        dialect,
        &DecodeOptions {
            version,
            ..Default::default()
        },
    )
    .expect("decodes");
    assert_eq!(used, bytes.len());
    back
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn derived_values_survive_godot4_bytes(p in player().prop_filter("engine-safe strings", engine_safe)) {
        let back = Player::from_variant(&through_bytes(&p.to_variant(), Dialect::Godot4)).unwrap();
        prop_assert_eq!(back, p);
    }

    #[test]
    fn derived_values_survive_godot3_bytes(p in player().prop_filter("engine-safe strings", engine_safe)) {
        // Godot 3 has no PackedInt64Array: `history` is marked `array`, and everything else
        // maps to Godot 3 types.
        let back = Player::from_variant(&through_bytes(&p.to_variant(), Dialect::Godot3)).unwrap();
        prop_assert_eq!(back, p);
    }

    #[test]
    fn serde_values_survive_godot3_bytes(p in player().prop_filter("engine-safe strings", engine_safe)) {
        let bytes = gdvariant::serde::to_vec(&p, &gdvariant::Format::godot3()).unwrap();
        let back: Player = gdvariant::serde::from_slice(&bytes, &gdvariant::Format::godot3()).unwrap();
        prop_assert_eq!(back, p);
    }

    #[test]
    fn from_variant_never_panics_on_decoded_garbage(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        if let Ok((v, _)) = decode(&bytes, Dialect::Godot4, &DecodeOptions::default()) {
            let _ = Player::from_variant(&v);
            let _ = Vec::<Action>::from_variant(&v);
            let _ = gdvariant::serde::from_variant::<Player>(&v);
        }
    }
}
