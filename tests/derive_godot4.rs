//! Derived types against real Godot 4.3 bytes: each decodes the engine's bytes and re-encodes
//! them byte for byte (StringName keys, typed arrays, full objects, enums as ints, §8 vectors).

mod common;
use common::*;
use gdvariant::math::{
    Color, Projection, Rect2i, Transform3D, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i,
};
use gdvariant::{
    decode, encode, DecodeOptions, Dialect, Dictionary, EncodeOptions, FromVariant, GodotVariant,
    NodePath, StringName, ToVariant, Variant, Version,
};

const G43: Version = Version::new(4, 3, 0);

fn fixture(name: &str) -> Fixture {
    load("godot4")
        .into_iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no Godot 4 fixture `{name}`"))
}

fn decode_g4(f: &Fixture) -> Variant {
    let opts = DecodeOptions {
        version: Some(G43),
        allow_objects: f.bool("full_objects"),
        ..Default::default()
    };
    decode(&f.bytes, Dialect::Godot4, &opts)
        .unwrap_or_else(|e| panic!("{}: {e}", f.name))
        .0
}

fn encode_g4(v: &Variant, full_objects: bool) -> Vec<u8> {
    let opts = EncodeOptions {
        version: Some(G43),
        full_objects,
        ..Default::default()
    };
    encode(v, Dialect::Godot4, &opts).expect("encodes")
}

/// Decodes the fixture into `T`, converts back, encodes, and compares with the engine's bytes.
fn round_trip<T: FromVariant + ToVariant>(name: &str) -> T {
    let f = fixture(name);
    let value = T::from_variant(&decode_g4(&f)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let bytes = encode_g4(&value.to_variant(), f.bool("full_objects"));
    assert_eq!(
        hex(&bytes),
        hex(&f.expected),
        "{name}: re-encoded bytes differ from the engine's"
    );
    value
}

/// `G.players(n)` records: `{"id": i, "name": "player_i", "pos": Vector2(i, 2i), "hp": 100.0}`.
#[derive(GodotVariant, Debug, Clone, PartialEq)]
struct PlayerRecord {
    id: i64,
    name: String,
    pos: Vector2,
    hp: f64,
}

/// `G.game_state()`: the nested save state of both corpora.
#[derive(GodotVariant, Debug, PartialEq)]
struct GameState {
    version: i64,
    map: String,
    seed: i64,
    time: f64,
    players: Vec<PlayerRecord>,
    spawn: Vec<Vector3>,
    flags: Vec<u8>,
    scores: Vec<i32>,
    names: Vec<String>,
    tint: Color,
    camera: Transform3D,
    path: NodePath,
    nested: Variant,
}

#[test]
fn game_state_decodes_into_a_struct_and_re_encodes_exactly() {
    let state: GameState = round_trip("game_state");
    assert_eq!(state.version, 3);
    assert_eq!(state.seed, 1234567890123);
    assert_eq!(state.players.len(), 20);
    assert_eq!(
        state.players[3],
        PlayerRecord {
            id: 3,
            name: "player_3".into(),
            pos: Vector2::new(3.0, 6.0),
            hp: 100.0
        }
    );
    assert_eq!(state.flags, [1, 0, 1, 1, 0]);
    assert_eq!(state.scores, [10, 20, -5]);
    assert_eq!(state.path.to_string(), "/root/Game/World:transform");
}

#[test]
fn a_list_of_a_hundred_players_round_trips() {
    let players: Vec<PlayerRecord> = round_trip("big_players");
    assert_eq!(players.len(), 100);
    assert_eq!(players[99].name, "player_99");
}

#[test]
fn errors_name_the_path_to_the_mismatch() {
    let mut v = decode_g4(&fixture("game_state"));
    // players[3].pos := "oops"
    let Variant::Dictionary(d) = &mut v else {
        panic!("a Dictionary")
    };
    let players = d.values_mut().nth(4).expect("players");
    let Variant::Array(a) = players else {
        panic!("players is an Array")
    };
    let Variant::Dictionary(p3) = &mut a.items[3] else {
        panic!("a player Dictionary")
    };
    *p3.values_mut().nth(2).expect("pos") = Variant::String("oops".into());
    let err = GameState::from_variant(&v).unwrap_err();
    assert_eq!(
        err.to_string(),
        "players[3].pos: expected Vector2, found String"
    );
    assert_eq!(err.path(), "players[3].pos");
}

/// `{"name": "x", "hp": 100, "alive": true}`
#[derive(GodotVariant, Debug, PartialEq)]
struct Named {
    name: String,
    hp: i64,
    alive: bool,
}

#[derive(GodotVariant, Debug, PartialEq)]
#[godot(deny_unknown_fields)]
struct Strict {
    name: String,
    hp: i64,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct Lenient {
    name: String,
    hp: u8,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct WithMissing {
    name: String,
    level: u8,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct WithOptional {
    name: String,
    guild: Option<String>,
    #[godot(default)]
    level: u8,
    #[godot(default = "ten")]
    mana: i32,
}

fn ten() -> i32 {
    10
}

#[test]
fn unknown_keys_are_ignored_unless_denied() {
    let v = decode_g4(&fixture("dict_str_keys"));
    assert_eq!(
        Lenient::from_variant(&v).unwrap(),
        Lenient {
            name: "x".into(),
            hp: 100
        }
    );
    assert_eq!(
        Strict::from_variant(&v).unwrap_err().to_string(),
        "unknown key `alive`"
    );
    let named: Named = round_trip("dict_str_keys");
    assert!(named.alive);
}

#[test]
fn missing_keys_are_errors_unless_optional_or_defaulted() {
    let v = decode_g4(&fixture("dict_str_keys"));
    assert_eq!(
        WithMissing::from_variant(&v).unwrap_err().to_string(),
        "missing key `level`"
    );
    assert_eq!(
        WithOptional::from_variant(&v).unwrap(),
        WithOptional {
            name: "x".into(),
            guild: None,
            level: 0,
            mana: 10
        }
    );
}

/// `{&"a": 1, &"hp": 100}` and `{a = 1, b = "x"}`: 4.3 sends String keys; in memory a 4.x
/// Dictionary literal holds StringName keys, which must be accepted too.
#[derive(GodotVariant, Debug, PartialEq)]
struct Ahp {
    a: i64,
    hp: i64,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct Lua {
    a: i64,
    b: String,
}

#[test]
fn string_name_keys_are_accepted() {
    let v: Ahp = round_trip("dict_stringname_keys");
    assert_eq!(v, Ahp { a: 1, hp: 100 });
    let lua: Lua = round_trip("dict_lua_style");
    assert_eq!(lua.b, "x");
    let mut d = Dictionary::new();
    d.insert(Variant::StringName("a".into()), Variant::Int(1));
    d.insert(Variant::StringName("hp".into()), Variant::Int(100));
    assert_eq!(
        Ahp::from_variant(&Variant::Dictionary(d)).unwrap(),
        Ahp { a: 1, hp: 100 }
    );
}

/// `Array([1, 2, 3], TYPE_INT, &"", null)` and friends.
#[derive(GodotVariant, Debug, PartialEq)]
struct Ids(#[godot(typed_array)] Vec<i64>);

#[derive(GodotVariant, Debug, PartialEq)]
struct Names(#[godot(typed_array)] Vec<StringName>);

#[derive(GodotVariant, Debug, PartialEq)]
struct TypedValues {
    #[godot(typed_array)]
    ints: Vec<i32>,
    #[godot(typed_array)]
    names: Vec<String>,
}

#[test]
fn typed_arrays_match_the_engine() {
    assert_eq!(round_trip::<Ids>("typed_int"), Ids(vec![1, 2, 3]));
    assert_eq!(round_trip::<Ids>("typed_int_empty"), Ids(vec![]));
    assert_eq!(
        round_trip::<Ids>("typed_int_wide"),
        Ids(vec![2147483648, i64::MIN, 0])
    );
    assert_eq!(
        round_trip::<Names>("typed_stringname"),
        Names(vec!["a".into(), "bc".into()])
    );
    let tv: TypedValues = round_trip("dict_typed_values");
    assert_eq!(tv.names, ["a", "b"]);
}

/// `G.game_state_g4()`: the Godot 4 types.
#[derive(GodotVariant, Debug, PartialEq)]
struct GameStateG4 {
    version: i64,
    level: StringName,
    grid_size: Vector2i,
    bounds: Rect2i,
    chunk: Vector3i,
    #[godot(typed_array)]
    ids: Vec<i64>,
    #[godot(typed_array)]
    waypoints: Vec<Vector3i>,
    #[godot(typed_array)]
    squad: Vec<StringName>,
    history: Vec<i64>,
    timings: Vec<f64>,
    weights: Vector4,
    cells: Vec<Vector4>,
    lens: Projection,
    target: NodePath,
    rid: Variant,
    nested: NestedG4,
}

#[derive(GodotVariant, Debug, PartialEq)]
struct NestedG4 {
    #[godot(typed_array)]
    typed: Vec<i64>,
    mixed: (Vector4i, StringName, Dictionary),
}

#[test]
fn game_state_g4_round_trips_with_typed_arrays_and_tuples() {
    let s: GameStateG4 = round_trip("game_state_g4");
    assert_eq!(s.history, [1700000000000, -1, 9007199254740993]);
    assert_eq!(s.squad, [StringName::from("alpha"), "beta".into()]);
    assert_eq!(s.nested.mixed.0, Vector4i::new(1, 2, 3, 4));
}

/// A RefCounted with `res://player.gd` (exports name, hp, speed), sent with objects.
#[derive(GodotVariant, Debug, PartialEq)]
#[godot(object = "RefCounted")]
struct ScriptedPlayer {
    script: Option<String>,
    name: String,
    hp: i64,
    speed: f64,
}

/// A Resource with `res://item.gd`.
#[derive(GodotVariant, Debug, PartialEq)]
#[godot(object = "Resource")]
struct Item {
    resource_local_to_scene: bool,
    resource_name: String,
    script: Option<String>,
    id: i64,
    title: String,
    weight: f32,
    tags: Vec<String>,
    icon_size: Vector2i,
    #[godot(typed_array)]
    stack: Vec<i64>,
}

#[derive(GodotVariant, Debug, PartialEq)]
#[godot(object = "RefCounted")]
struct Bare {
    script: Variant,
}

#[test]
fn full_objects_round_trip() {
    let p: ScriptedPlayer = round_trip("object_scripted_full");
    assert_eq!(p.script.as_deref(), Some("res://player.gd"));
    assert_eq!((p.name.as_str(), p.hp, p.speed), ("hero", 100, 2.5));
    let item: Item = round_trip("object_scripted_resource_full");
    assert_eq!(item.stack, [1, 2]);
    assert_eq!(item.tags, ["melee", "iron"]);
    assert_eq!(
        round_trip::<Bare>("object_reference_full").script,
        Variant::Nil
    );
    // An object of another class is refused with both class names.
    let node = decode_g4(&fixture("object_node_full"));
    assert_eq!(
        Bare::from_variant(&node).unwrap_err().to_string(),
        "expected an object of class `RefCounted`, found `Node`"
    );
}

/// Node2D's engine enums, sent as ints (as every GDScript/engine enum is).
#[derive(GodotVariant, Debug, PartialEq, Clone, Copy)]
enum ProcessMode {
    Inherit,
    Pausable,
    WhenPaused,
    Always,
    Disabled,
}

#[derive(GodotVariant, Debug, PartialEq, Clone, Copy)]
enum TextureFilter {
    ParentNode = 0,
    Nearest = 1,
    Linear = 2,
}

#[derive(GodotVariant, Debug, PartialEq)]
#[godot(object)]
struct Node2D {
    #[godot(rename = "_import_path")]
    import_path: NodePath,
    unique_name_in_owner: bool,
    process_mode: ProcessMode,
    process_priority: i32,
    process_physics_priority: i32,
    process_thread_group: i32,
    physics_interpolation_mode: i32,
    auto_translate_mode: i32,
    editor_description: String,
    visible: bool,
    modulate: Color,
    self_modulate: Color,
    show_behind_parent: bool,
    top_level: bool,
    clip_children: i32,
    light_mask: i32,
    visibility_layer: u32,
    z_index: i32,
    z_as_relative: bool,
    y_sort_enabled: bool,
    texture_filter: TextureFilter,
    texture_repeat: i32,
    material: Option<Variant>,
    use_parent_material: bool,
    position: Vector2,
    rotation: f64,
    scale: Vector2,
    skew: f64,
    script: Option<String>,
}

#[test]
fn engine_enums_as_ints_in_a_full_node2d() {
    let n: Node2D = round_trip("object_node2d_full");
    assert_eq!(n.process_mode, ProcessMode::Inherit);
    assert_eq!(n.texture_filter, TextureFilter::ParentNode);
    assert_eq!(n.position, Vector2::new(3.0, 4.0));
    assert_eq!(ProcessMode::Disabled.to_variant(), Variant::Int(4));
    assert_eq!(TextureFilter::Linear.to_variant(), Variant::Int(2));
    assert_eq!(
        ProcessMode::from_variant(&Variant::Int(9))
            .unwrap_err()
            .to_string(),
        "unknown variant 9, expected one of Inherit = 0, Pausable = 1, WhenPaused = 2, Always = 3, Disabled = 4"
    );
}

/// `{"name": "x", "hp": 100, "alive": true}` read as a tagged enum whose tag key is `name`.
#[derive(GodotVariant, Debug, PartialEq)]
#[godot(tag = "name")]
enum Unit {
    #[godot(rename = "x")]
    X { hp: i64, alive: bool },
    #[godot(rename = "y")]
    Y,
}

#[test]
fn data_enums_are_tagged_dictionaries() {
    let u: Unit = round_trip("dict_str_keys");
    assert_eq!(
        u,
        Unit::X {
            hp: 100,
            alive: true
        }
    );
    let mut d = Dictionary::new();
    d.insert("name".into(), "z".into());
    assert_eq!(
        Unit::from_variant(&Variant::Dictionary(d))
            .unwrap_err()
            .to_string(),
        "name: unknown variant \"z\", expected one of \"x\", \"y\""
    );
}

/// Reference §8: the engine's own test vectors (tests/core/io/test_marshalls.h and
/// test_variant_utility.h), produced from Rust values.
#[test]
fn reference_vectors_from_rust_values() {
    let enc = |v: &dyn ToVariant| hex(&encode_g4(&v.to_variant(), false));
    // #15 encode_variant(0x12345678)
    assert_eq!(enc(&0x12345678_i32), "0200000078563412");
    // #16 encode_variant(uint64_t(0x0f123456789abcdef))
    assert_eq!(enc(&0x0f123456789abcdef_u64), "02000100efcdab89674523f1");
    // #17 encode_variant(0.15625f)
    assert_eq!(enc(&0.15625_f32), "030000000000203e");
    // #18 encode_variant(0.33333333333333333)
    assert_eq!(
        enc(&0.333_333_333_333_333_3_f64),
        "03000100555555555555d53f"
    );
    // #26 typed Array[int] = [0x0f123456789abcdef]
    assert_eq!(
        enc(&Ids(vec![0x0f123456789abcdef_u64 as i64])),
        "1c000100020000000100000002000100efcdab89674523f1"
    );
    // #30 var_to_bytes([1.2, 3.4, 5.600000000001]): a tuple is an untyped Array
    assert_eq!(
        enc(&(1.2_f64, 3.4_f64, 5.600000000001_f64)),
        concat!(
            "1c00000003000000",
            "03000100333333333333f33f",
            "030001003333333333330b40",
            "03000100cc6a666666661640"
        )
    );
    // #14 Variant() and a unit struct
    #[derive(GodotVariant)]
    struct Nothing;
    assert_eq!(enc(&Nothing), "00000000");
}
