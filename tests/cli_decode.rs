//! `gdvariant decode` and `encode` end to end, on engine-made files: `decode --format json |
//! encode --from json` gives every fixture's bytes back, framed streams included; malformed
//! inputs get the engine's verdict, a message with file and offset, and exit code 1.
#![cfg(feature = "cli")]

mod cli_util;
mod common;
use cli_util::*;
use common::*;

/// Every fixture of a corpus, back to back in one bare file (as many `PacketPeer` packets
/// would be): one `decode` and one `encode` cover them all.
fn corpus_round_trip(dir: &str, dialect: &str, version: &str) {
    let fixtures = load(dir);
    let input: Vec<u8> = fixtures.iter().flat_map(|f| f.bytes.clone()).collect();
    let want: Vec<u8> = fixtures.iter().flat_map(|f| f.expected.clone()).collect();
    let d = run(
        &[
            "decode",
            "--dialect",
            dialect,
            "--engine-version",
            version,
            "--allow-objects",
            "--format",
            "json",
        ],
        &input,
    );
    assert_eq!(d.code, 0, "{dir}: decode failed: {}", d.stderr);
    assert_eq!(
        d.text().lines().count(),
        fixtures.len(),
        "{dir}: one JSON line per value"
    );
    let e = run(
        &[
            "encode",
            "--dialect",
            dialect,
            "--engine-version",
            version,
            "--from",
            "json",
        ],
        &d.stdout,
    );
    assert_eq!(e.code, 0, "{dir}: encode failed: {}", e.stderr);
    if e.stdout != want {
        // Name the first fixture that differs.
        let mut at = 0;
        for f in &fixtures {
            let n = f.expected.len();
            if e.stdout.get(at..at + n) != Some(&f.expected[..]) {
                panic!(
                    "{dir}/{}: bytes differ after decode | encode\n  want {}\n  got  {}",
                    f.name,
                    hex(&f.expected),
                    hex(e
                        .stdout
                        .get(at..(at + n).min(e.stdout.len()))
                        .unwrap_or(&[]))
                );
            }
            at += n;
        }
        panic!("{dir}: output longer than expected");
    }
}

#[test]
fn json_round_trip_reproduces_every_godot4_fixture() {
    corpus_round_trip("godot4", "godot4", "4.3");
}

#[test]
fn json_round_trip_reproduces_every_godot3_fixture() {
    corpus_round_trip("godot3", "godot3", "3.2.3");
}

#[test]
fn json_round_trip_reproduces_every_godot3_game_fixture() {
    corpus_round_trip("godot3/game", "godot3", "3.2.3");
}

/// The engine's own stream files: `store_var` both byte orders, `StreamPeerBuffer`,
/// `PacketPeerStream`, a savegame. Decoded with their framing, one JSON line per value, and
/// encoded back to the same file.
#[test]
fn engine_streams_decode_and_encode_back_byte_for_byte() {
    let dir = fixtures().join("godot3/streams");
    let manifest = std::fs::read_to_string(dir.join("manifest.jsonl")).unwrap();
    let mut n = 0;
    for line in manifest.lines().filter(|l| !l.is_empty()) {
        let j: serde_json::Value = serde_json::from_str(line).unwrap();
        let name = j["name"].as_str().unwrap();
        let path = format!("tests/fixtures/godot3/streams/{name}");
        let mut framing = vec![
            "--framing",
            if j["framing"] == "PacketPeerStream.put_var" {
                "packet-stream"
            } else {
                "store-var"
            },
        ];
        if j["endianness"] == "big" {
            framing.push("--big-endian");
        }
        let mut args = vec!["decode", "--dialect", "godot3", "--format", "json"];
        args.extend(&framing);
        args.push(&path);
        let d = run(&args, b"");
        assert_eq!(d.code, 0, "{name}: {}", d.stderr);
        let values = j["values"].as_array().unwrap().len();
        assert_eq!(d.text().lines().count(), values, "{name}: values");
        let out = scratch("streams").join(name);
        let out_s = out.to_str().unwrap();
        let mut args = vec!["encode", "--dialect", "godot3", "-o", out_s];
        args.extend(&framing);
        let e = run(&args, &d.stdout);
        assert_eq!(e.code, 0, "{name}: {}", e.stderr);
        let want = std::fs::read(dir.join(name)).unwrap();
        assert_eq!(
            std::fs::read(&out).unwrap(),
            want,
            "{name}: re-encoded file"
        );
        // The text form prints one value per frame too (`--format text` is the default).
        let mut args = vec!["decode", "--dialect", "godot3"];
        args.extend(&framing);
        args.push(&path);
        let t = run(&args, b"");
        assert_eq!(t.code, 0, "{name}: {}", t.stderr);
        assert!(!t.stdout.is_empty());
        n += 1;
    }
    assert_eq!(n, 6);
}

/// `gdvariant decode` of a file of Godot 3.2.3 bytes, with `options` (framing, format).
fn decode_godot3(options: &[&str], path: &std::path::Path) -> Run {
    let mut args = vec!["decode", "--dialect", "godot3", "--engine-version", "3.2.3"];
    args.extend(options);
    args.push(path.to_str().unwrap());
    run(&args, b"")
}

/// [`decode_godot3`] of a file of `store_var` frames, printed as `format`.
fn decode_stream(format: &str, path: &std::path::Path) -> Run {
    decode_godot3(&["--framing", "store-var", "--format", format], path)
}

/// A long stream (many batches for the decoding, printing and writing threads) that ends in
/// a cut frame: every frame before the cut is printed, in order, then the error with its
/// offset and exit code 1; without the cut, every frame.
#[test]
fn a_long_stream_prints_every_frame_in_order_up_to_its_error() {
    use gdvariant::framing::{frames, Framing};
    use gdvariant::{json, DecodeOptions, Dialect, EncodeOptions, Format, Version};
    let save = std::fs::read(fixtures().join("godot3/streams/savegame.sav")).unwrap();
    let format = Format {
        dialect: Dialect::Godot3,
        framing: Framing::STORE_VAR,
        decode: DecodeOptions {
            version: Some(Version::new(3, 2, 3)),
            keep_leading_bom: true,
            ..DecodeOptions::default()
        },
        encode: EncodeOptions::default(),
    };
    let mut want = String::new();
    for f in frames(&save, &format) {
        want.push_str(&json::to_json_string(&f.expect("engine frames")));
        want.push('\n');
    }
    // 1.6 MB: six batches of 256 KiB.
    let copies = 1 + (6 << 18) / save.len();
    let long = save.repeat(copies);
    let dir = scratch("long_stream");
    for cut in [false, true] {
        let mut bytes = long.clone();
        if cut {
            bytes.extend_from_slice(&save[..6]);
        }
        let path = dir.join(format!("cut_{cut}.sav"));
        std::fs::write(&path, &bytes).unwrap();
        let r = decode_stream("json", &path);
        assert!(
            r.text() == want.repeat(copies),
            "cut {cut}: the frames printed differ"
        );
        if cut {
            assert_eq!(r.code, 1, "{}", r.stderr);
            assert!(
                r.stderr.contains(&format!("{:#x}", long.len())),
                "{}",
                r.stderr
            );
        } else {
            assert_eq!(r.code, 0, "{}", r.stderr);
        }
    }
}

/// A frame that does not decode in the middle of a long stream (its payload in a batch that
/// one thread prints while others print the batches around it): the frames before it are
/// printed, in order, and nothing after it; the error names its offset. In both output
/// formats, which print frames the same way one at a time.
#[test]
fn a_bad_frame_in_the_middle_stops_the_printing_there() {
    let save = std::fs::read(fixtures().join("godot3/streams/savegame.sav")).unwrap();
    let dir = scratch("bad_frame");
    let one = dir.join("one.sav");
    std::fs::write(&one, &save).unwrap();
    // 3.3 MB: about 25 batches of payloads (128 KiB each); the bad frame is in the 15th.
    let copies = 1000;
    let bad_copy = 600;
    let mut long = save.repeat(copies);
    let bad = bad_copy * save.len();
    // The first frame of that copy: an unknown type where its payload starts.
    long[bad + 4] = 0xff;
    let path = dir.join("bad.sav");
    std::fs::write(&path, &long).unwrap();
    for format in ["json", "text"] {
        let single = decode_stream(format, &one);
        assert_eq!(single.code, 0, "{}", single.stderr);
        assert!(format == "text" || single.text().lines().count() == 6);
        let r = decode_stream(format, &path);
        assert_eq!(r.code, 1, "{format}: {}", r.stderr);
        assert!(
            r.text() == single.text().repeat(bad_copy),
            "{format}: the frames printed before the bad one differ ({} bytes, want {})",
            r.stdout.len(),
            single.stdout.len() * bad_copy
        );
        assert!(
            r.stderr.contains(&format!("{:#x}", bad + 4)),
            "{format}: {}",
            r.stderr
        );
    }
}

/// With `--dialect auto` (the default) the framing is guessed too: the savegame reads as
/// Godot 3 store_var frames without any flag.
#[test]
fn auto_dialect_reads_a_savegame_without_flags() {
    let r = run(
        &[
            "decode",
            "--format",
            "json",
            "tests/fixtures/godot3/streams/savegame.sav",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("Godot 3"), "{}", r.stderr);
    assert!(r.stderr.contains("store_var"), "{}", r.stderr);
    let first: serde_json::Value = serde_json::from_str(r.text().lines().next().unwrap()).unwrap();
    assert_eq!(first["type"], "Dictionary");
    assert_eq!(first["value"][0][1]["value"], "GDSAVE");
}

/// Read as bare values, Godot 3.2.3's `store_var` savegame fails at its first byte (the length
/// prefix reads as type 108); the message says which `--framing` reads it.
#[test]
fn a_forgotten_prefix_is_named_in_the_error() {
    let args = |framing| {
        run(
            &[
                "decode",
                "--dialect",
                "godot3",
                "--framing",
                framing,
                "tests/fixtures/godot3/streams/savegame.sav",
            ],
            b"",
        )
    };
    let r = args("none");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("unknown type 108"), "{}", r.stderr);
    assert!(r.stderr.contains("use --framing store-var"), "{}", r.stderr);
    // The suggestion reads the file.
    let r = args("store-var");
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// Every malformed or lenient input of the Godot 3.2.3 corpus: `decode --first` (which, like
/// `bytes2var`, ignores trailing bytes) follows the library decoder's verdict (checked against
/// the engine's in codec_godot3.rs); accepted inputs re-encode to the bytes the engine
/// re-encoded; refused ones fail with exit code 1 and a message naming the file and offset.
#[test]
fn malformed_inputs_get_the_decoders_verdict_and_exit_code() {
    use gdvariant::{decode, DecodeOptions, Dialect, Version};
    // Where our bytes differ from the engine's re-encoding, on purpose.
    let differs_by_design = |name: &str| -> Option<&str> {
        Some(match name {
            "utf8_bom_leading" | "utf8_bom_only" => {
                "the JSON form keeps a leading BOM so that bytes survive; the engine drops it (--format text shows that)"
            }
            "object_as_id_not_allowed" => "the engine re-encodes an EncodedObjectAsID with a new, run-dependent id",
            _ => return None,
        })
    };
    let cases = load("godot3/malformed");
    let dir = scratch("malformed");
    let opts = DecodeOptions {
        version: Some(Version::new(3, 2, 3)),
        ..DecodeOptions::default()
    };
    let mut bad = Mismatches::default();
    for c in &cases {
        let path = dir.join(format!("{}.bin", c.name));
        std::fs::write(&path, &c.bytes).unwrap();
        let r = decode_godot3(&["--first", "--format", "json"], &path);
        let p = path.to_str().unwrap();
        match (decode(&c.bytes, Dialect::Godot3, &opts), r.code) {
            (Ok(_), 0) => {
                if !c.bool("ok") || differs_by_design(&c.name).is_some() {
                    continue;
                }
                let e = run(&["encode", "--dialect", "godot3"], &r.stdout);
                let want = unhex(c.str("reencoded_hex"));
                // The engine leaves NodePath padding uninitialised: zero on our side matches anything.
                let same = e.stdout.len() == want.len()
                    && e.stdout
                        .iter()
                        .zip(&want)
                        .all(|(a, b)| a == b || (*a == 0 && c.name.starts_with("nodepath")));
                if e.code != 0 || !same {
                    bad.push(
                        &c.name,
                        format!(
                            "re-encode: exit {}, got {} want {} {}",
                            e.code,
                            hex(&e.stdout),
                            hex(&want),
                            e.stderr
                        ),
                    );
                }
            }
            (Err(err), 1) => {
                let at = format!("offset {:#x}", err.offset());
                if !(r.stderr.contains(p) && r.stderr.contains(&at)) {
                    bad.push(
                        &c.name,
                        format!("message lacks file or `{at}`: {}", r.stderr),
                    );
                }
            }
            (lib, code) => bad.push(
                &c.name,
                format!("library {lib:?}, exit {code}: {}", r.stderr),
            ),
        }
    }
    bad.check(cases.len());
}

#[test]
fn exit_codes_are_as_documented() {
    // 2: usage.
    assert_eq!(run(&["decode", "--no-such-flag"], b"").code, 2);
    assert_eq!(run(&["encode"], b"").code, 2, "--dialect is required");
    let r = run(
        &["decode", "--framing", "packet-stream", "--big-endian", "-"],
        b"",
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("always little-endian"), "{}", r.stderr);
    let r = run(
        &[
            "decode",
            "--dialect",
            "godot3",
            "--engine-version",
            "4.3",
            "-",
        ],
        b"",
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("Godot 3 has no version 4.3"),
        "{}",
        r.stderr
    );
    // 4: a file that cannot be read.
    let r = run(&["decode", "--dialect", "godot3", "no/such/file.bin"], b"");
    assert_eq!(r.code, 4);
    assert!(r.stderr.contains("no/such/file.bin"), "{}", r.stderr);
    // 1: bytes that do not decode, with the offset and what was expected.
    let r = run(
        &["decode", "--dialect", "godot3", "-"],
        &[2, 0, 0, 0, 42, 0, 0, 0, 31, 0, 0, 0],
    );
    assert_eq!(r.code, 1);
    assert!(
        r.text().starts_with("Int(42)") || r.text().starts_with("42"),
        "the good value is printed first: {}",
        r.text()
    );
    assert!(
        r.stderr.contains("<stdin>")
            && r.stderr.contains("unknown type 31")
            && r.stderr.contains("offset 0x8"),
        "{}",
        r.stderr
    );
    // 1: JSON that does not describe a value, with where.
    let r = run(
        &["encode", "--dialect", "godot4"],
        br#"{"type":"Vector2","value":[1]}"#,
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("$.value") && r.stderr.contains("expected 2 reals"),
        "{}",
        r.stderr
    );
    // 1: a value the dialect cannot hold.
    let r = run(
        &["encode", "--dialect", "godot3"],
        br#"{"type":"StringName","value":"a"}"#,
    );
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("StringName"), "{}", r.stderr);
    // 0: --help on every subcommand.
    for sub in ["decode", "encode", "explain", "convert", "guess"] {
        let r = run(&[sub, "--help"], b"");
        assert_eq!(r.code, 0, "{sub} --help");
        assert!(r.text().contains("Usage: gdvariant"), "{sub}");
    }
}

/// `| head` closes the pipe early: the command stops quietly instead of panicking.
#[test]
fn a_closed_output_pipe_is_not_an_error() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_gdvariant"))
        .args(["decode", "--dialect", "godot4", "--format", "json", "-"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    drop(stdout);
    let many: Vec<u8> = std::iter::repeat_n([2u8, 0, 0, 0, 42, 0, 0, 0], 200_000)
        .flatten()
        .collect();
    let _ = std::io::Write::write_all(&mut stdin, &many);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
}

/// Random bytes and cut engine files through every reading subcommand: exit 0 or 1, never a
/// panic or a crash (`run` fails on "panicked"; a signal has no exit code).
#[test]
fn no_input_makes_the_command_panic() {
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let save = std::fs::read(fixtures().join("godot3/streams/savegame.sav")).unwrap();
    let mut inputs: Vec<Vec<u8>> = (0..40)
        .map(|_| {
            let n = (next() % 200) as usize;
            let mut b: Vec<u8> = (0..n).map(|_| next() as u8).collect();
            if let Some(h) = b.first_mut() {
                *h %= 40;
            }
            b
        })
        .collect();
    inputs.extend((0..save.len()).step_by(97).map(|cut| save[..cut].to_vec()));
    for b in &inputs {
        for args in [
            &["decode", "--format", "json", "-"][..],
            &["decode", "-d", "godot4", "--framing", "store-var", "-"],
            &["decode", "-d", "pandemonium", "--allow-objects", "-"],
            &["explain", "-d", "godot3", "--framing", "store-var", "-"],
            &["explain", "-"],
            &["guess", "-"],
            &[
                "convert",
                "--from",
                "godot3",
                "--to",
                "godot4",
                "--framing",
                "store-var",
                "-",
                "-",
            ],
            &["encode", "-d", "godot3", "-"],
        ] {
            let r = run(args, b);
            assert!(
                r.code == 0 || r.code == 1,
                "{args:?} on {}: exit {}: {}",
                hex(b),
                r.code,
                r.stderr
            );
        }
    }
}

/// `encode --from json` stops at the first value it cannot write: the frames before it are
/// written, nothing after, and the message names the value (the encoder's refusal) or the
/// document and line (the JSON reader's error).
#[test]
fn encode_stops_at_the_value_that_fails_and_names_it() {
    let int = |i: i64| format!("{{\"type\":\"Int\",\"value\":{i}}}\n");
    let inexact = "{\"type\":\"Vector2\",\"value\":[0.1,0.0]}\n";
    let text = [int(1), int(2), inexact.to_string(), int(4)].concat();
    let e = run(&["encode", "--dialect", "godot3"], text.as_bytes());
    assert_eq!(e.code, 1, "{}", e.stderr);
    assert!(e.stderr.contains(": value 3: "), "{}", e.stderr);
    assert_eq!(e.stdout, [2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0]);
    let text = [
        int(1),
        "{\"type\":\"Int\",\"value\":\"x\"}\n".into(),
        int(3),
    ]
    .concat();
    let e = run(&["encode", "--dialect", "godot3"], text.as_bytes());
    assert_eq!(e.code, 1, "{}", e.stderr);
    assert!(
        e.stderr.contains("document 2 (from line 2)"),
        "{}",
        e.stderr
    );
    assert_eq!(e.stdout, [2, 0, 0, 0, 1, 0, 0, 0]);
}
