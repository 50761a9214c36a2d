//! Derived types against the real Godot 3.2.3 engine: the `game/` corpus (player dicts, lists,
//! enums as ints, inventories, tagged messages, scripted objects) decodes into Rust types and
//! re-encodes byte for byte; wrong data gives the documented errors; and bytes made from Rust
//! values are read back by the live engine.

mod common;
#[path = "support/godot3.rs"]
mod godot3;

use common::*;
use gdvariant::math::{Color, Transform2D, Transform3D, Vector2, Vector3};
use gdvariant::{
    decode, encode, DecodeOptions, Dialect, EncodeOptions, FromVariant, GodotVariant, NodePath,
    ToVariant, Variant,
};
use indexmap::IndexMap;
use std::collections::{BTreeMap, HashMap};

fn game(name: &str) -> Fixture {
    load("godot3/game")
        .into_iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no Godot 3 game fixture `{name}`"))
}

fn decode_g3(f: &Fixture) -> Variant {
    let opts = DecodeOptions {
        allow_objects: f.bool("full_objects"),
        ..Default::default()
    };
    decode(&f.bytes, Dialect::Godot3, &opts)
        .unwrap_or_else(|e| panic!("{}: {e}", f.name))
        .0
}

fn encode_g3(v: &Variant, full_objects: bool) -> Vec<u8> {
    let opts = EncodeOptions {
        full_objects,
        ..Default::default()
    };
    encode(v, Dialect::Godot3, &opts).expect("encodes for Godot 3")
}

fn from<T: FromVariant>(name: &str) -> Result<T, String> {
    T::from_variant(&decode_g3(&game(name))).map_err(|e| e.to_string())
}

/// Decodes the engine's bytes into `T`, converts back, and compares with the engine's bytes.
fn round_trip<T: FromVariant + ToVariant>(name: &str) -> T {
    let f = game(name);
    let value = T::from_variant(&decode_g3(&f)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let bytes = encode_g3(&value.to_variant(), f.bool("full_objects"));
    assert_eq!(
        hex(&bytes),
        hex(&f.expected),
        "{name}: re-encoded bytes differ from the engine's"
    );
    value
}

#[derive(GodotVariant, Debug, Clone, PartialEq)]
struct Player {
    name: String,
    hp: i64,
    pos: Vector2,
}

fn ann() -> Player {
    Player {
        name: "ann".into(),
        hp: 90,
        pos: Vector2::new(3.0, 4.0),
    }
}

#[test]
fn player_records() {
    assert_eq!(round_trip::<Player>("player"), ann());
    assert_eq!(round_trip::<Player>("player_int_pos_floats").name, "bob");
    assert_eq!(round_trip::<Player>("player_unicode_name").name, "Åsa 日😀");
    assert_eq!(round_trip::<Player>("player_big_hp").hp, 4294967296);
    // Another key order decodes to the same value; it re-encodes in declaration order.
    assert_eq!(from::<Player>("player_reordered").unwrap(), ann());
    #[derive(GodotVariant)]
    struct Reordered {
        pos: Vector2,
        hp: i64,
        name: String,
    }
    round_trip::<Reordered>("player_reordered");
}

#[derive(GodotVariant, Debug, PartialEq)]
#[godot(deny_unknown_fields)]
struct StrictPlayer {
    name: String,
    hp: i64,
    pos: Vector2,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct PlayerF {
    name: String,
    hp: f64,
    pos: Vector2,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct SmallPlayer {
    name: String,
    hp: i32,
    pos: Vector2,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct PlayerOpt {
    name: String,
    hp: Option<i64>,
    pos: Vector2,
    guild: Option<String>,
    target: Option<u32>,
}

#[test]
fn wrong_data_gives_the_documented_errors() {
    assert_eq!(
        from::<Player>("player_wrong_type").unwrap_err(),
        "hp: expected Int, found String"
    );
    assert_eq!(
        from::<Player>("player_float_hp").unwrap_err(),
        "hp: expected Int, found Float"
    );
    assert_eq!(round_trip::<PlayerF>("player_float_hp").hp, 90.5);
    // A float field takes an int (documented); that value re-encodes as a float.
    assert_eq!(from::<PlayerF>("player").unwrap().hp, 90.0);
    assert_eq!(
        from::<SmallPlayer>("player_big_hp").unwrap_err(),
        "hp: int 4294967296 out of range for i32"
    );
    assert_eq!(
        from::<Player>("player_missing_field").unwrap_err(),
        "missing key `hp`"
    );
    assert_eq!(from::<PlayerOpt>("player_missing_field").unwrap().hp, None);
    assert_eq!(from::<Player>("player_extra_field").unwrap(), ann());
    assert_eq!(
        from::<StrictPlayer>("player_extra_field").unwrap_err(),
        "unknown key `mana`"
    );
    assert_eq!(
        from::<Vec<Player>>("player").unwrap_err(),
        "expected Array, found Dictionary"
    );
}

#[test]
fn optional_fields_sent_as_null_or_set() {
    let none: PlayerOpt = round_trip("player_optional_null");
    assert_eq!((none.guild, none.target), (None, None));
    let set: PlayerOpt = round_trip("player_optional_set");
    assert_eq!((set.guild.as_deref(), set.target), (Some("red"), Some(7)));
}

#[test]
fn lists_and_maps_of_players() {
    let list: Vec<Player> = round_trip("players_list");
    assert_eq!(list.len(), 3);
    assert_eq!(list[0], ann());
    assert!(round_trip::<Vec<Player>>("players_empty").is_empty());
    let by_id: BTreeMap<i64, Player> = round_trip("players_by_id");
    assert_eq!(by_id[&1], ann());
    let by_id: IndexMap<u8, Player> = round_trip("players_by_id");
    assert_eq!(by_id[&2].name, "bob");
    #[derive(GodotVariant, Debug, PartialEq)]
    struct HpPos {
        hp: i64,
        pos: Vector2,
    }
    let by_name: IndexMap<String, HpPos> = round_trip("players_by_name");
    assert_eq!(by_name["bob"].hp, 75);
    let hashed: HashMap<String, HpPos> = from("players_by_name").unwrap();
    assert_eq!(hashed["ann"].pos, Vector2::new(3.0, 4.0));
}

/// GDScript enums are sent as their ints.
#[derive(GodotVariant, Debug, PartialEq, Clone, Copy)]
enum Class {
    Warrior,
    Rogue,
    Mage,
    Cleric,
}

#[derive(GodotVariant, Debug, PartialEq, Clone, Copy)]
enum State {
    Idle,
    Walking,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct Hero {
    name: String,
    class: Class,
    state: State,
}

#[derive(GodotVariant, Debug, PartialEq, Clone, Copy)]
enum Dir {
    Left = -1,
    Stop = 0,
    Right = 1,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct Facing {
    dir: Dir,
}

/// A bit-flag value: a transparent newtype.
#[derive(GodotVariant, Debug, PartialEq)]
struct Flags(u32);

#[derive(GodotVariant, Debug, PartialEq)]
struct WithFlags {
    flags: Flags,
}

#[test]
fn enums_as_ints() {
    let h: Hero = round_trip("enum_class");
    assert_eq!((h.class, h.state), (Class::Mage, State::Idle));
    let all: Vec<Class> = round_trip("enum_list");
    assert_eq!(
        all,
        [Class::Warrior, Class::Rogue, Class::Mage, Class::Cleric]
    );
    assert_eq!(round_trip::<Facing>("enum_negative").dir, Dir::Left);
    assert_eq!(
        round_trip::<WithFlags>("enum_flags").flags,
        Flags(1 | 4 | 16)
    );
}

/// An untyped Array of ints: Godot 3 has no PoolInt64Array, so the inner `Vec` is marked.
#[derive(GodotVariant, Debug, PartialEq)]
struct Row(#[godot(array)] Vec<i64>);

#[derive(GodotVariant, Debug, PartialEq)]
struct Inventory {
    owner: String,
    gold: i64,
    items: Vec<(String, u8)>,
    slots: Vec<Row>,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct Record {
    id: i64,
    name: String,
    qty: i64,
    tags: Vec<String>,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct Records {
    items: Vec<Record>,
    capacity: i64,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct Grid {
    size: Vector2,
    cells: Vec<Row>,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct Bitmap {
    owner: String,
    bitmap: Vec<u8>,
}

#[test]
fn inventories_with_nested_arrays_and_pools() {
    let inv: Inventory = round_trip("inventory");
    assert_eq!(inv.items[2], ("arrow".to_string(), 99));
    assert_eq!(inv.slots, [Row(vec![1, 2]), Row(vec![3]), Row(vec![])]);
    let rec: Records = round_trip("inventory_records");
    assert_eq!(rec.items[0].tags, ["melee"]);
    let grid: Grid = round_trip("inventory_grid");
    assert_eq!(grid.cells[1], Row(vec![0, 0, 3, 0]));
    let bits: Bitmap = round_trip("inventory_bytes");
    assert_eq!(bits.bitmap, [255, 0, 15, 240, 1]);
}

/// Messages tagged by a String key, as a game protocol sends them.
#[derive(GodotVariant, Debug, PartialEq)]
#[godot(tag = "type", rename_all = "lowercase")]
enum Message {
    Chat { from: i64, text: String, ts: i64 },
    Leave,
}

#[derive(GodotVariant, Debug, PartialEq)]
#[godot(tag = "event", rename_all = "lowercase")]
enum Event {
    Spawn {
        id: i64,
        transform: Transform2D,
        color: Color,
    },
}

/// `["move", 7, Vector3(1, 0, -2.5)]`
#[derive(GodotVariant, Debug, PartialEq)]
struct Command(String, i64, Vector3);

#[derive(GodotVariant, Debug, PartialEq)]
struct Input {
    seq: i64,
    buttons: u8,
    aim: Vector2,
    dt: f64,
}

#[test]
fn protocol_messages() {
    let Message::Chat { from, ts, .. } = round_trip::<Message>("chat_message") else {
        panic!("a chat")
    };
    assert_eq!((from, ts), (7, 1700000000123));
    let Event::Spawn { id, .. } = round_trip::<Event>("spawn_event");
    assert_eq!(id, 42);
    let c: Command = round_trip("move_command");
    assert_eq!(c, Command("move".into(), 7, Vector3::new(1.0, 0.0, -2.5)));
    let i: Input = round_trip("input_packet");
    assert_eq!(i.dt, 0.016);
}

#[derive(GodotVariant, Debug, PartialEq)]
struct SnapPlayer {
    id: i64,
    pos: Vector2,
    hp: i64,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct Snapshot {
    tick: i64,
    players: Vec<SnapPlayer>,
    removed: Vec<i32>,
    time_left: f64,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct Settings {
    volume: f64,
    fullscreen: bool,
    resolution: Vector2,
    keys: IndexMap<String, String>,
    lang: String,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct PathFollow {
    target: NodePath,
    offset: Vector3,
}

#[test]
fn snapshots_settings_scores_paths() {
    let s: Snapshot = round_trip("world_snapshot");
    assert_eq!(s.removed, [5, 6]);
    let st: Settings = round_trip("settings");
    assert_eq!(st.keys["jump"], "space");
    let scores: IndexMap<String, i64> = round_trip("score_table");
    assert_eq!(scores["cid"], -10);
    let p: PathFollow = round_trip("path_follow");
    assert_eq!(p.target.to_string(), "/root/Level/Enemy");
}

/// Godot 3 sends a script as a full GDScript object holding its source.
#[derive(GodotVariant, Debug, PartialEq, Clone)]
#[godot(object = "GDScript")]
struct GdScript {
    resource_local_to_scene: bool,
    resource_name: String,
    #[godot(rename = "script/source")]
    source: String,
}

#[derive(GodotVariant, Debug, PartialEq, Clone)]
#[godot(object = "Reference")]
struct PlayerObject {
    script: Option<GdScript>,
    name: String,
    hp: i64,
    speed: f64,
}

#[derive(GodotVariant, Debug, PartialEq, Clone)]
#[godot(object = "Resource")]
struct ItemObject {
    resource_local_to_scene: bool,
    resource_name: String,
    script: Option<GdScript>,
    id: i64,
    title: String,
    weight: f32,
    tags: Vec<String>,
    icon_size: Vector2,
    #[godot(array)]
    stack: Vec<i64>,
}

#[derive(GodotVariant, Debug, PartialEq)]
#[godot(object = "Reference")]
struct BagObject {
    script: Option<GdScript>,
    owner_name: String,
    gold: i64,
    items: Vec<ItemObject>,
    equipped: IndexMap<String, ItemObject>,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct Party {
    me: PlayerObject,
    ally: Option<PlayerObject>,
}

#[test]
fn scripted_objects_with_exported_vars() {
    let p: PlayerObject = round_trip("player_obj_full");
    assert_eq!((p.name.as_str(), p.hp, p.speed), ("ann", 90, 1.5));
    assert!(p
        .script
        .expect("script")
        .source
        .contains("export var hp = 100"));
    assert_eq!(
        round_trip::<PlayerObject>("player_obj_default_full").name,
        "hero"
    );
    let item: ItemObject = round_trip("item_obj_full");
    assert_eq!((item.id, item.title.as_str()), (5, "Bow"));
    let bag: BagObject = round_trip("bag_obj_full");
    assert_eq!(bag.items[1].title, "Potion");
    assert_eq!(bag.equipped["hand"].title, "Shield");
    let list: Vec<PlayerObject> = round_trip("players_obj_list_full");
    assert_eq!(list[1].name, "bob");
    let party: Party = round_trip("player_obj_in_dict_full");
    assert_eq!(party.ally, None);
    assert_eq!(
        from::<PlayerObject>("player_obj_as_id").unwrap_err(),
        "expected a full object of class `Reference`, found Object"
    );
}

/// Derived values whose bytes the live engine must read back as the same value: the engine
/// re-encodes what it decoded, and that must be our bytes again.
#[test]
fn the_live_engine_reads_derived_values() {
    let Some(engine) = godot3::engine() else {
        return;
    };
    let values: Vec<Variant> = vec![
        ann().to_variant(),
        vec![ann(), ann()].to_variant(),
        Hero {
            name: "z".into(),
            class: Class::Cleric,
            state: State::Walking,
        }
        .to_variant(),
        Message::Chat {
            from: 1,
            text: "hi".into(),
            ts: 1 << 40,
        }
        .to_variant(),
        Message::Leave.to_variant(),
        Command("jump".into(), -1, Vector3::new(0.5, 0.25, 0.0)).to_variant(),
        Inventory {
            owner: "o".into(),
            gold: 3,
            items: vec![("a".into(), 1)],
            slots: vec![Row(vec![1, 1 << 33])],
        }
        .to_variant(),
        // A script-less Reference would drop `name`, `hp` and `speed` (the engine sets only
        // properties the object has), so the player carries the corpus's script.
        Party {
            me: PlayerObject {
                name: "x".into(),
                hp: 1,
                speed: 0.5,
                ..from::<PlayerObject>("player_obj_full").unwrap()
            },
            ally: None,
        }
        .to_variant(),
        (Transform3D::default(), Some(1.5_f32), None::<i8>).to_variant(),
    ];
    let blobs: Vec<(Vec<u8>, bool)> = values.iter().map(|v| (encode_g3(v, true), true)).collect();
    let replies = engine.bytes2var(&blobs);
    let mut bad = Mismatches::default();
    for (i, ((ours, _), reply)) in blobs.iter().zip(&replies).enumerate() {
        match reply {
            godot3::Reply::Ok { bytes, .. } if bytes == ours => {}
            godot3::Reply::Ok { bytes, text } => bad.push(
                &format!("value {i}"),
                format!(
                    "engine re-encoded {} ({text})\n  ours {}",
                    hex(bytes),
                    hex(ours)
                ),
            ),
            godot3::Reply::Err(e) => bad.push(&format!("value {i}"), format!("engine: {e}")),
        }
    }
    bad.check(blobs.len());
}
