//! `gdvariant explain`: snapshot tests of its output on engine files (bless with
//! `GDVARIANT_BLESS=1 cargo test --test cli_explain`), every byte of every fixture explained
//! exactly once, and malformed input shown up to the decoder's error offset.
#![cfg(feature = "cli")]

mod cli_util;
mod common;
use cli_util::*;
use common::*;
use gdvariant::explain::{explain, ExplainOptions};
use gdvariant::framing::Framing;
use gdvariant::{decode, DecodeOptions, Dialect, Version};
use std::path::PathBuf;

/// Snapshots: a name, then the command's arguments (after `explain`).
const SNAPSHOTS: &[(&str, &[&str])] = &[
    (
        "g4_dict_insertion_order",
        &[
            "-d",
            "godot4",
            "--engine-version",
            "4.3",
            "tests/fixtures/godot4/dict_insertion_order.bin",
        ],
    ),
    (
        "g4_nodepath_abs_prop",
        &[
            "-d",
            "godot4",
            "--engine-version",
            "4.3",
            "tests/fixtures/godot4/nodepath_abs_prop.bin",
        ],
    ),
    (
        "g4_float_pi_flag64",
        &[
            "-d",
            "godot4",
            "--engine-version",
            "4.3",
            "tests/fixtures/godot4/float_pi.bin",
        ],
    ),
    (
        "g4_array_of_typed",
        &[
            "-d",
            "godot4",
            "--engine-version",
            "4.3",
            "tests/fixtures/godot4/array_of_typed.bin",
        ],
    ),
    (
        "g4_object_scripted_full",
        &[
            "-d",
            "godot4",
            "--engine-version",
            "4.3",
            "--allow-objects",
            "tests/fixtures/godot4/object_scripted_full.bin",
        ],
    ),
    (
        "g4_packed_vector4_3",
        &[
            "-d",
            "godot4",
            "--engine-version",
            "4.3",
            "tests/fixtures/godot4/packed_vector4_3.bin",
        ],
    ),
    (
        "g4_big_pool_int64_elided",
        &[
            "-d",
            "godot4",
            "--engine-version",
            "4.3",
            "tests/fixtures/godot4/big_pool_int64.bin",
        ],
    ),
    (
        "g3_store_var_big_endian",
        &[
            "-d",
            "godot3",
            "--framing",
            "store-var",
            "--big-endian",
            "tests/fixtures/godot3/streams/file_store_var_be.bin",
        ],
    ),
    (
        "g3_object_scripted_full",
        &[
            "-d",
            "godot3",
            "--allow-objects",
            "tests/fixtures/godot3/object_scripted_full.bin",
        ],
    ),
    (
        "g3_guessed_packet_stream",
        &["tests/fixtures/godot3/streams/packet_peer_stream.bin"],
    ),
    (
        "bad_nodepath_old_format",
        &[
            "-d",
            "godot3",
            "tests/fixtures/godot3/malformed/nodepath_old_format.bin",
        ],
    ),
    (
        "bad_array_missing_element",
        &[
            "-d",
            "godot3",
            "tests/fixtures/godot3/malformed/array_missing_element.bin",
        ],
    ),
    (
        "bad_object_full_not_allowed",
        &[
            "-d",
            "godot3",
            "tests/fixtures/godot3/malformed/object_full_nested_not_allowed.bin",
        ],
    ),
    (
        "bad_pool_string_bad_utf8",
        &[
            "-d",
            "godot3",
            "tests/fixtures/godot3/malformed/pool_string_bad_utf8.bin",
        ],
    ),
];

fn snapshot_dir() -> PathBuf {
    fixtures().join("cli/explain")
}

#[test]
fn explain_output_matches_the_snapshots() {
    let bless = std::env::var_os("GDVARIANT_BLESS").is_some();
    let mut bad = Mismatches::default();
    for (name, args) in SNAPSHOTS {
        let mut a = vec!["explain"];
        a.extend(args.iter());
        let r = run(&a, b"");
        let got = format!(
            "$ gdvariant {}\n{}{}exit: {}\n",
            a.join(" "),
            r.text(),
            r.stderr,
            r.code
        );
        let path = snapshot_dir().join(format!("{name}.txt"));
        if bless {
            std::fs::create_dir_all(snapshot_dir()).unwrap();
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(want) if want == got => {}
            Ok(want) => bad.push(
                name,
                format!("differs (GDVARIANT_BLESS=1 to accept)\n--- want\n{want}--- got\n{got}"),
            ),
            Err(_) => bad.push(name, "no snapshot (run with GDVARIANT_BLESS=1)"),
        }
    }
    bad.check(SNAPSHOTS.len());
}

/// The malformed snapshots end with the decoder's error at its offset, and exit code 1.
#[test]
fn malformed_input_ends_at_the_decoders_error() {
    for (name, args) in SNAPSHOTS.iter().filter(|(n, _)| n.starts_with("bad_")) {
        let mut a = vec!["explain"];
        a.extend(args.iter());
        let r = run(&a, b"");
        assert_eq!(r.code, 1, "{name}: {}", r.stderr);
        let file = args.last().unwrap();
        let bytes = std::fs::read(file).unwrap();
        let e = decode(
            &bytes,
            Dialect::Godot3,
            &DecodeOptions {
                keep_leading_bom: true,
                ..DecodeOptions::default()
            },
        )
        .unwrap_err();
        let last = r.text().lines().last().unwrap_or("").to_string();
        assert!(
            last.starts_with(&format!("{:08x} error: ", e.offset()))
                && last.contains(&e.to_string()),
            "{name}: last line `{last}`, decoder says {e}"
        );
        assert!(r.stderr.contains(file) && r.stderr.contains(&format!("offset {:#x}", e.offset())));
    }
}

/// Every field line of every engine fixture, all elements listed, tiles the bytes: no gap,
/// no overlap, nothing past the end; so each byte is explained exactly once.
#[test]
fn every_byte_of_every_fixture_is_explained_once() {
    let sets = [
        ("godot4", Dialect::Godot4, Version::new(4, 3, 0)),
        ("godot3", Dialect::Godot3, Version::new(3, 2, 3)),
        ("godot3/game", Dialect::Godot3, Version::new(3, 2, 3)),
    ];
    let mut total = 0;
    for (dir, dialect, version) in sets {
        let fixtures = load(dir);
        let mut bad = Mismatches::default();
        for f in &fixtures {
            let mut opts = ExplainOptions::new(dialect);
            opts.decode.version = Some(version);
            opts.decode.allow_objects = true;
            opts.max_elements = usize::MAX;
            let e = explain(&f.bytes, &opts);
            if let Some(err) = &e.error {
                bad.push(&f.name, format!("explain failed: {err}"));
                continue;
            }
            let mut at = 0;
            for l in &e.lines {
                if l.offset != at {
                    bad.push(
                        &f.name,
                        format!("line `{}` at {:#x}, expected {at:#x}", l.field, l.offset),
                    );
                    break;
                }
                at += l.len;
            }
            if at != f.bytes.len() && bad_len(&f.bytes, at) {
                bad.push(
                    &f.name,
                    format!("explained {at} of {} bytes", f.bytes.len()),
                );
            }
        }
        total += fixtures.len();
        bad.check(fixtures.len());
    }
    assert!(total > 500, "{total}");
}

/// Only a final PackedByteArray may end before its padding (the decoder does not require it).
fn bad_len(bytes: &[u8], at: usize) -> bool {
    at < bytes.len() || at > bytes.len() + 3
}

/// With framing, each frame's prefix is a line of its own and the frames follow each other.
#[test]
fn framed_files_show_each_prefix() {
    let bytes = std::fs::read(fixtures().join("godot3/streams/savegame.sav")).unwrap();
    let mut opts = ExplainOptions::new(Dialect::Godot3);
    opts.framing = Framing::STORE_VAR;
    let e = explain(&bytes, &opts);
    assert!(e.error.is_none(), "{:?}", e.error);
    let prefixes = e.lines.iter().filter(|l| l.field == "frame length").count();
    assert_eq!(prefixes, e.values);
    assert!(e.values >= 5);
}

/// Containers no engine fixture has (Godot 4.4 typed dictionaries, Pandemonium 5 typed
/// arrays) still tile their bytes; the decoder reads them back to the same value.
#[test]
fn typed_containers_without_engine_fixtures_tile_too() {
    use gdvariant::{encode, Array, Dictionary, ElementType, EncodeOptions, Kind, Variant};
    let mut d = Dictionary::new();
    d.insert(Variant::Int(1), Variant::from("one"));
    d.set_typed(Some(gdvariant::DictionaryType {
        key: Some(ElementType::Builtin(Kind::Int)),
        value: Some(ElementType::Class("Node".into())),
    }));
    let mut packed = Array::typed(ElementType::Builtin(Kind::Int), vec![Variant::Int(7)]);
    packed.typed.as_mut().unwrap().pandemonium_packed = true;
    let cases = [
        (
            Dialect::Godot4,
            Version::new(4, 4, 0),
            Variant::Dictionary(d),
        ),
        (
            Dialect::Pandemonium,
            Version::new(5, 2, 0),
            Variant::Array(Array::typed(
                ElementType::Builtin(Kind::Vector2i),
                vec![Variant::Vector2i(gdvariant::math::Vector2i { x: 1, y: -2 })],
            )),
        ),
        (
            Dialect::Pandemonium,
            Version::new(5, 2, 0),
            Variant::Array(Array::typed(ElementType::Class("Node".into()), vec![])),
        ),
        (
            Dialect::Pandemonium,
            Version::new(5, 2, 0),
            Variant::Array(packed),
        ),
    ];
    for (dialect, version, value) in cases {
        let eopts = EncodeOptions {
            version: Some(version),
            full_objects: true,
            ..EncodeOptions::default()
        };
        let bytes = encode(&value, dialect, &eopts).unwrap();
        let mut opts = ExplainOptions::new(dialect);
        opts.decode.version = Some(version);
        let e = explain(&bytes, &opts);
        assert!(e.error.is_none(), "{dialect} {value:?}: {:?}\n{e}", e.error);
        let mut at = 0;
        for l in &e.lines {
            assert_eq!(l.offset, at, "{dialect} {value:?}\n{e}");
            at += l.len;
        }
        assert_eq!(at, bytes.len(), "{e}");
        let (back, _) = decode(&bytes, dialect, &opts.decode).unwrap();
        assert_eq!(back, value);
    }
}
