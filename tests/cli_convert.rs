//! `convert` against the real engines: values converted from Godot 3.2.3 bytes must equal the
//! bytes Godot 4.3 wrote for the same values (and back), for the 160 values in both corpora;
//! a lossy conversion is refused (exit 3) and, with `--lossy`, read back by the live Godot 3.
#![cfg(feature = "cli")]

mod cli_util;
mod common;
#[path = "support/godot3.rs"]
mod godot3;
use cli_util::*;
use common::*;
use gdvariant::migrate::{migrate, Target};
use gdvariant::{decode, encode, DecodeOptions, Dialect, EncodeOptions, Version};
use std::collections::BTreeMap;

const G3: Version = Version::new(3, 2, 3);
const G4: Version = Version::new(4, 3, 0);

/// The pairs that cannot match, each with the reason (checked to be exactly these).
fn expected_differences() -> BTreeMap<&'static str, &'static str> {
    const IDS: &str = "instance ids belong to one engine run (3.2.3 and 4.3 allocated different \
        ids; 4.3 also sets bit 63 for RefCounted): same layout, different id";
    const SCRIPT: &str = "3.2.3 sends the script as an embedded GDScript object with its source, \
        4.3 as the String \"res://player.gd\"; and the class is Reference in 3.x, RefCounted in 4.x";
    BTreeMap::from([
        (
            "rid_live",
            "Godot 3 sends a RID without its id (header only), so the id Godot 4 sent \
            (a live physics shape) is not in the Godot 3 bytes; it converts to RID 0",
        ),
        ("object_reference_as_id", IDS),
        ("object_node_as_id", IDS),
        ("object_scripted_as_id", IDS),
        ("object_in_dict_as_id", IDS),
        (
            "object_reference_full",
            "the class is Reference in 3.x and RefCounted in 4.x; \
            both send only `script` (null)",
        ),
        (
            "object_node_full",
            "a Node's stored properties differ: 3.2.3 sends _import_path, \
            pause_mode, process_priority, script; 4.3 sends its own list",
        ),
        ("object_scripted_full", SCRIPT),
        ("object_in_array_full", SCRIPT),
    ])
}

struct Pair {
    name: String,
    full: bool,
    g3: Fixture,
    g4: Fixture,
}

fn pairs() -> Vec<Pair> {
    let g3: BTreeMap<String, Fixture> = load("godot3")
        .into_iter()
        .map(|f| (f.name.clone(), f))
        .collect();
    load("godot4")
        .into_iter()
        .filter(|f| !f.str("godot3_name").is_empty())
        .map(|g4| {
            let name = g4.str("godot3_name").to_string();
            let g3 = g3
                .get(&name)
                .unwrap_or_else(|| panic!("{name}: not in the Godot 3 corpus"))
                .clone();
            Pair {
                full: g4.bool("full_objects"),
                name,
                g3,
                g4,
            }
        })
        .collect()
}

fn convert(bytes: &[u8], from: Target, to: Target, full: bool) -> Result<(Vec<u8>, usize), String> {
    let dopts = DecodeOptions {
        version: Some(from.version),
        allow_objects: full,
        keep_leading_bom: true,
        ..DecodeOptions::default()
    };
    let (v, _) = decode(bytes, from.dialect, &dopts).map_err(|e| format!("decode: {e}"))?;
    let (v, report) = migrate(&v, from, to);
    let eopts = EncodeOptions {
        version: Some(to.version),
        full_objects: true,
        round_reals: true,
        ..EncodeOptions::default()
    };
    let b = encode(&v, to.dialect, &eopts).map_err(|e| format!("encode: {e}"))?;
    Ok((b, report.losses.len()))
}

#[test]
fn godot3_values_convert_to_the_bytes_godot4_wrote() {
    check_direction(
        Target::new(Dialect::Godot3, Some(G3)),
        Target::new(Dialect::Godot4, Some(G4)),
        |p| (&p.g3, &p.g4),
    );
}

#[test]
fn godot4_values_convert_to_the_bytes_godot3_wrote() {
    check_direction(
        Target::new(Dialect::Godot4, Some(G4)),
        Target::new(Dialect::Godot3, Some(G3)),
        |p| (&p.g4, &p.g3),
    );
}

fn check_direction(from: Target, to: Target, pick: impl Fn(&Pair) -> (&Fixture, &Fixture)) {
    let pairs = pairs();
    assert_eq!(pairs.len(), 160, "160 values exist in both corpora");
    let mut differ = BTreeMap::new();
    for p in &pairs {
        let (src, dst) = pick(p);
        match convert(&src.bytes, from, to, p.full) {
            Ok((b, 0)) if b == dst.expected => {}
            // Ids differ, the layout does not.
            Ok((b, 0)) if p.name.ends_with("_as_id") && b.len() == dst.expected.len() => {
                differ.insert(p.name.clone(), "ids".to_string());
            }
            Ok((b, losses)) => {
                differ.insert(
                    p.name.clone(),
                    format!(
                        "{losses} losses; got {}\n    want {}",
                        hex(&b),
                        hex(&dst.expected)
                    ),
                );
            }
            Err(e) => {
                differ.insert(p.name.clone(), e);
            }
        }
    }
    let want = expected_differences();
    let got_names: Vec<&String> = differ.keys().collect();
    let want_names: Vec<&&str> = want.keys().collect();
    assert_eq!(
        got_names.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
        want_names.iter().map(|s| **s).collect::<Vec<_>>(),
        "\n{}",
        differ
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The `gdvariant convert` command on every pair that can match, in one file each way: the
/// output is exactly the other engine's bytes.
#[test]
fn the_command_converts_every_matching_pair_to_the_other_engines_bytes() {
    let skip = expected_differences();
    let pairs: Vec<Pair> = pairs()
        .into_iter()
        .filter(|p| !skip.contains_key(p.name.as_str()))
        .collect();
    assert_eq!(pairs.len(), 151);
    let dir = scratch("convert_pairs");
    for (from, to, fv, tv, src, dst) in [
        ("godot3", "godot4", "3.2.3", "4.3", 0, 1),
        ("godot4", "godot3", "4.3", "3.2.3", 1, 0),
    ] {
        let pick = |p: &Pair, i: usize| if i == 0 { p.g3.clone() } else { p.g4.clone() };
        let input: Vec<u8> = pairs.iter().flat_map(|p| pick(p, src).bytes).collect();
        let want: Vec<u8> = pairs.iter().flat_map(|p| pick(p, dst).expected).collect();
        let inp = dir.join(format!("{from}.bin"));
        let out = dir.join(format!("{to}.bin"));
        std::fs::write(&inp, &input).unwrap();
        let r = run(
            &[
                "convert",
                "--from",
                from,
                "--to",
                to,
                "--from-version",
                fv,
                "--to-version",
                tv,
                "--allow-objects",
                inp.to_str().unwrap(),
                out.to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(r.code, 0, "{from} → {to}: {}", r.stderr);
        assert!(r.stderr.contains("nothing lost"), "{}", r.stderr);
        assert!(
            std::fs::read(&out).unwrap() == want,
            "{from} → {to}: bytes differ"
        );
    }
}

/// Godot 4 types that Godot 3 lacks: refused with exit code 3 and a report naming each
/// value, nothing written; with `--lossy` the nearest values are written, and the real
/// Godot 3.2.3 reads them and writes back the very same bytes.
#[test]
fn lossy_conversion_is_refused_then_done_on_request_and_godot3_reads_it() {
    let dir = scratch("convert_lossy");
    let out = dir.join("state3.bin");
    let o = out.to_str().unwrap();
    let args = [
        "convert",
        "--from",
        "godot4",
        "--to",
        "godot3",
        "--from-version",
        "4.3",
        "tests/fixtures/godot4/game_state_g4.bin",
        o,
    ];
    let r = run(&args, b"");
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(!out.exists(), "nothing is written when refused");
    assert!(!dir.join("state3.bin.partial").exists());
    for expected in [
        "#1.level: StringName → String",
        "#1.grid_size: Vector2i → Vector2",
        "#1.ids: typed Array (Int) → untyped Array",
        "#1.history: PackedInt64Array → Array of int (same values)",
        "#1.lens: Projection → PackedFloat32Array",
        "pass --lossy",
    ] {
        assert!(
            r.stderr.contains(expected),
            "missing `{expected}` in\n{}",
            r.stderr
        );
    }
    let mut lossy = args.to_vec();
    lossy.insert(1, "--lossy");
    let r = run(&lossy, b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let ours = std::fs::read(&out).unwrap();
    let Some(engine) = godot3::engine() else {
        return;
    };
    match &engine.bytes2var(&[(ours.clone(), false)])[0] {
        godot3::Reply::Ok { bytes, text } => {
            assert_eq!(
                hex(bytes),
                hex(&ours),
                "Godot 3.2.3 re-encodes what it read from us identically"
            );
            assert!(text.contains("\"level\": \"level_01\""), "{text}");
        }
        godot3::Reply::Err(e) => panic!("Godot 3.2.3 refuses our converted bytes: {e}"),
    }
}

/// A framed savegame converts frame by frame, and the report lists the renumbered types.
#[test]
fn a_framed_savegame_converts_with_a_report() {
    let dir = scratch("convert_save");
    let out = dir.join("save4.sav");
    let r = run(
        &[
            "convert",
            "--from",
            "godot3",
            "--to",
            "godot4",
            "--framing",
            "store-var",
            "tests/fixtures/godot3/streams/savegame.sav",
            out.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    for line in [
        "TRANSFORM (13) → TRANSFORM3D (18)",
        "POOL_INT_ARRAY (21) → PACKED_INT32_ARRAY (30)",
        "renamed types (same id):\n  REAL → FLOAT (3)",
        "nothing lost",
    ] {
        assert!(r.stderr.contains(line), "missing `{line}`:\n{}", r.stderr);
    }
    // Same id, new name: not a renumbering.
    assert!(!r.stderr.contains("REAL (3) → FLOAT (3)"), "{}", r.stderr);
    // Back to Godot 3: the engine's own file again.
    let back = dir.join("save3.sav");
    let r = run(
        &[
            "convert",
            "--from",
            "godot4",
            "--to",
            "godot3",
            "--framing",
            "store-var",
            out.to_str().unwrap(),
            back.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        std::fs::read(back).unwrap(),
        std::fs::read(fixtures().join("godot3/streams/savegame.sav")).unwrap()
    );
}

/// The framing help says what each command does: only reading with `--dialect auto` guesses
/// it (`encode` takes no `auto`; `convert` names its dialects; `guess` always guesses).
#[test]
fn framing_help_is_true_for_each_command() {
    for (cmd, default) in [
        ("encode", "[default: none]"),
        ("convert", "[default: none]"),
        ("guess", "[default: guessed]"),
        ("decode", "[default: none; guessed with --dialect auto]"),
    ] {
        let r = run(&[cmd, "--help"], b"");
        assert_eq!(r.code, 0, "{}", r.stderr);
        let help = String::from_utf8_lossy(&r.stdout);
        assert!(help.contains(default), "{cmd}: {help}");
        if cmd != "decode" {
            assert!(!help.contains("auto"), "{cmd}: {help}");
        }
    }
}

/// Keys that become equal in the target (`&"a"` and `"a"`: Godot 3 has no StringName) are one
/// entry there, as the engine's `d[key] = value` leaves them: at the first key's place, with
/// the later value; the report names the later key.
#[test]
fn keys_that_become_equal_keep_the_first_place_and_the_later_value() {
    use gdvariant::{Dictionary, StringName, Variant};
    let mut d = Dictionary::new();
    d.insert(Variant::StringName(StringName("a".into())), Variant::Int(1));
    d.insert(Variant::Int(5), Variant::Int(50));
    d.insert(Variant::String("a".into()), Variant::Int(2));
    let (v, report) = migrate(
        &Variant::Dictionary(d),
        Target::new(Dialect::Godot4, Some(G4)),
        Target::new(Dialect::Godot3, Some(G3)),
    );
    let Variant::Dictionary(out) = v else {
        panic!("not a Dictionary: {v:?}")
    };
    assert_eq!(
        out.entries(),
        &[
            (Variant::String("a".into()), Variant::Int(2)),
            (Variant::Int(5), Variant::Int(50)),
        ]
    );
    let collapsed: Vec<&str> = report
        .losses
        .iter()
        .filter(|l| l.what.contains("became equal"))
        .map(|l| l.path.as_str())
        .collect();
    assert_eq!(collapsed, ["value[2](key)"]);
}

/// Each loss names where it happened, written as the path into the value: a String or
/// StringName key by its text, an int key by its value, any other key by the entry's
/// position, array elements by index, object properties by name, and a key itself as
/// `[i](key)`.
#[test]
fn losses_name_their_place_in_the_value() {
    use gdvariant::math::{Vector2i, Vector4};
    use gdvariant::{Array, Dictionary, FullObject, Object, Variant};
    let v4 = Variant::Vector4(Vector4 {
        x: 1.0,
        y: 2.0,
        z: 3.0,
        w: 4.0,
    });
    let v2i = Variant::Vector2i(Vector2i { x: 1, y: 2 });
    let mut player = Dictionary::new();
    player.insert("pos".into(), v4.clone());
    let mut d = Dictionary::new();
    d.insert(
        "players".into(),
        Variant::Array(Array::new(vec![Variant::Nil, Variant::Dictionary(player)])),
    );
    d.insert(Variant::Int(7), v2i.clone());
    d.insert(Variant::Float(1.5), Variant::Callable);
    d.insert(v2i, Variant::Int(1));
    d.insert(
        "obj".into(),
        Variant::Object(Object::Full(Box::new(FullObject {
            class: "Node".into(),
            properties: vec![("p".into(), v4)],
        }))),
    );
    let (v, report) = migrate(
        &Variant::Array(Array::new(vec![Variant::Nil, Variant::Dictionary(d)])),
        Target::new(Dialect::Godot4, Some(G4)),
        Target::new(Dialect::Godot3, Some(G3)),
    );
    // The entries keep their order across the key that changed (Vector2i → Vector2).
    let keys: Vec<String> = v[1]
        .as_dictionary()
        .expect("a Dictionary")
        .keys()
        .map(|k| format!("{k:?}"))
        .collect();
    assert_eq!(
        keys,
        [
            r#"String("players")"#,
            "Int(7)",
            "Float(1.5)",
            "Vector2(Vector2 { x: 1.0, y: 2.0 })",
            r#"String("obj")"#,
        ]
    );
    let paths: Vec<&str> = report.losses.iter().map(|l| l.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "value[1].players[1].pos",
            "value[1][7]",
            "value[1][2]",
            "value[1][3](key)",
            "value[1].obj.p",
        ],
        "{report}"
    );
}
