//! Many files at once: `decode`, `encode` and `convert` of a directory of engine-made files
//! (with a corrupt and a truncated one) give each file the output its one-file run gives,
//! report the bad files with their offsets in path order, and say how many failed.
#![cfg(feature = "cli")]

mod cli_util;
mod common;
use cli_util::*;
use common::*;
use std::path::{Path, PathBuf};

/// Godot 3.2.3's little-endian `store_var` files (a `PacketPeerStream` prefix is the same
/// u32), under `saves/` with sub-folders, plus `saves/bad/corrupt.sav` (the savegame with an
/// unknown type id in its first value) and `saves/bad/truncated.sav` (cut mid-value).
/// Returns the input folder and the good files' paths below it.
fn saves(test: &str) -> (PathBuf, Vec<&'static str>) {
    let dir = scratch(test).join("saves");
    let streams = fixtures().join("godot3/streams");
    let good = [
        ("a/slot1.sav", "savegame.sav"),
        ("a/slot2.sav", "file_store_var_le.bin"),
        ("b/slot3.sav", "stream_peer_buffer.bin"),
        ("slot4.sav", "packet_peer_stream.bin"),
    ];
    for (to, from) in good {
        copy(&streams.join(from), &dir.join(to), |b| b);
    }
    let save = streams.join("savegame.sav");
    // Byte 4 is the first value's type id (after its 4-byte length): 0xff is no type.
    copy(&save, &dir.join("bad/corrupt.sav"), |mut b| {
        b[4] = 0xff;
        b
    });
    copy(&save, &dir.join("bad/truncated.sav"), |mut b| {
        b.truncate(1000);
        b
    });
    (dir, good.iter().map(|(to, _)| *to).collect())
}

fn copy(from: &Path, to: &Path, change: impl FnOnce(Vec<u8>) -> Vec<u8>) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::write(to, change(std::fs::read(from).unwrap())).unwrap();
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The error lines of a run, in order.
fn errors(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with("gdvariant: error: "))
        .collect()
}

/// The error a one-file run gives for `file`.
fn one_file_error(args: &[&str], file: &Path) -> String {
    let mut a = args.to_vec();
    a.push(s(file));
    let r = run(&a, b"");
    assert_eq!(r.code, 1, "{}", r.stderr);
    let e = errors(&r.stderr);
    assert_eq!(e.len(), 1, "{}", r.stderr);
    e[0].to_string()
}

const DECODE: [&str; 7] = [
    "decode",
    "-d",
    "godot3",
    "--framing",
    "store-var",
    "-f",
    "json",
];

#[test]
fn a_directory_decodes_file_by_file_and_bad_files_are_reported_in_order() {
    let (dir, good) = saves("batch_decode");
    let out = dir.with_file_name("json");
    let mut args = DECODE.to_vec();
    args.extend(["--out-dir", s(&out), s(&dir)]);
    let r = run(&args, b"");
    assert_eq!(r.code, 1, "some files failed: {}", r.stderr);
    assert!(r.stdout.is_empty(), "outputs go to files");
    // Each good file: what `decode FILE` prints, in `NAME.json` at the same relative path.
    for rel in &good {
        let one = run(&[&DECODE[..], &[s(&dir.join(rel))]].concat(), b"");
        assert_eq!(one.code, 0, "{rel}: {}", one.stderr);
        let written = std::fs::read(out.join(format!("{rel}.json"))).unwrap();
        assert_eq!(written, one.stdout, "{rel}");
    }
    // The bad ones: the one-file error (with its byte offset), sorted by path; no output.
    let corrupt = one_file_error(&DECODE, &dir.join("bad/corrupt.sav"));
    let truncated = one_file_error(&DECODE, &dir.join("bad/truncated.sav"));
    assert!(
        corrupt.contains("unknown type 255") && corrupt.contains("(at offset 0x4)"),
        "{corrupt}"
    );
    assert!(
        truncated.contains("frame that starts at offset 0x210"),
        "{truncated}"
    );
    assert_eq!(errors(&r.stderr), [corrupt.as_str(), truncated.as_str()]);
    assert!(!out.join("bad").join("corrupt.sav.json").exists());
    assert!(!out.join("bad").join("corrupt.sav.json.partial").exists());
    assert!(!out.join("bad").join("truncated.sav.json").exists());
    assert_eq!(
        r.stderr.lines().last(),
        Some("gdvariant: 4 files decoded, 2 failed"),
        "{}",
        r.stderr
    );
    // The same report whatever the thread timing: one thread, and as many as there are files.
    for threads in ["1", "6"] {
        let again = run_env(&args, &[("RAYON_NUM_THREADS", threads)]);
        assert_eq!(again.code, 1);
        assert_eq!(again.stderr, r.stderr, "{threads} thread(s)");
    }
}

/// `decode --out-dir` and then `encode --out-dir` of its output give back the engine's
/// files (`slot1.sav.json` is written as `slot1.sav`).
#[test]
fn a_decoded_directory_encodes_back_to_the_engine_files() {
    let (dir, good) = saves("batch_encode");
    let json = dir.with_file_name("json");
    let back = dir.with_file_name("back");
    let files: Vec<PathBuf> = good.iter().map(|rel| dir.join(rel)).collect();
    let mut args = DECODE.to_vec();
    args.extend(["-o", s(&json)]);
    args.extend(files.iter().map(|f| s(f)));
    let r = run(&args, b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr, "gdvariant: 4 files decoded\n");
    // Files given one by one are named by their file name alone.
    let r = run(
        &[
            "encode",
            "-d",
            "godot3",
            "--framing",
            "store-var",
            "--out-dir",
            s(&back),
            s(&json),
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr, "gdvariant: 4 files encoded\n");
    for rel in &good {
        let name = Path::new(rel).file_name().unwrap();
        assert_eq!(
            std::fs::read(back.join(name)).unwrap(),
            std::fs::read(dir.join(rel)).unwrap(),
            "{rel}"
        );
    }
}

#[test]
fn a_directory_converts_file_by_file() {
    let (dir, good) = saves("batch_convert");
    let out = dir.with_file_name("godot4");
    let convert = [
        "convert",
        "--from",
        "godot3",
        "--to",
        "godot4",
        "--framing",
        "store-var",
    ];
    let r = run(
        &[&convert[..], &["--out-dir", s(&out), s(&dir)]].concat(),
        b"",
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    for rel in &good {
        let one = dir.with_file_name("one.sav");
        let o = run(&[&convert[..], &[s(&dir.join(rel)), s(&one)]].concat(), b"");
        assert_eq!(o.code, 0, "{rel}: {}", o.stderr);
        assert_eq!(
            std::fs::read(out.join(rel)).unwrap(),
            std::fs::read(&one).unwrap(),
            "{rel}"
        );
    }
    let e = errors(&r.stderr);
    assert_eq!(e.len(), 2, "{}", r.stderr);
    assert!(
        e[0].contains("corrupt.sav") && e[0].contains("(at offset 0x4)"),
        "{}",
        e[0]
    );
    assert!(
        e[1].contains("truncated.sav") && e[1].contains("at offset 0x210"),
        "{}",
        e[1]
    );
    assert!(
        r.stderr
            .ends_with("gdvariant: 4 files converted, 2 failed\n"),
        "{}",
        r.stderr
    );
}

/// Several inputs, or a directory, need somewhere to put one output each.
#[test]
fn several_inputs_without_an_output_directory_are_a_usage_error() {
    let (dir, _) = saves("batch_usage");
    let r = run(&["decode", "-d", "godot3", s(&dir)], b"");
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--out-dir"), "{}", r.stderr);
    let a = dir.join("slot4.sav");
    let r = run(&["decode", "-d", "godot3", s(&a), s(&a)], b"");
    assert_eq!(r.code, 2, "{}", r.stderr);
    let r = run(
        &["convert", "--from", "godot3", "--to", "godot4", s(&a)],
        b"",
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
}

/// A file whose values Godot 3 cannot hold is refused (exit 3, nothing written) and its
/// report of losses is printed with its error; a file that converts exactly prints nothing.
#[test]
fn a_refused_file_in_a_batch_prints_its_losses_and_the_others_stay_quiet() {
    let dir = scratch("batch_lossy").join("saves4");
    let godot4 = fixtures().join("godot4");
    copy(
        &godot4.join("game_state_g4.bin"),
        &dir.join("lossy.bin"),
        |b| b,
    );
    copy(
        &godot4.join("array_mixed.bin"),
        &dir.join("exact.bin"),
        |b| b,
    );
    let out = dir.with_file_name("godot3");
    let convert = ["convert", "--from", "godot4", "--to", "godot3"];
    let r = run(
        &[&convert[..], &["--out-dir", s(&out), s(&dir)]].concat(),
        b"",
    );
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(out.join("exact.bin").exists(), "{}", r.stderr);
    assert!(!out.join("lossy.bin").exists(), "{}", r.stderr);
    // The losses a one-file run prints, then its error.
    let one = run(
        &[
            &convert[..],
            &[s(&dir.join("lossy.bin")), s(&dir.join("one.bin"))],
        ]
        .concat(),
        b"",
    );
    assert_eq!(one.code, 3, "{}", one.stderr);
    assert!(
        one.stderr.contains("#1.level: StringName → String"),
        "{}",
        one.stderr
    );
    let losses: Vec<&str> = one.stderr.lines().filter(|l| l.contains(" → ")).collect();
    for l in &losses {
        assert!(
            r.stderr.contains(l),
            "{l} missing from the batch's\n{}",
            r.stderr
        );
    }
    assert_eq!(
        r.stderr.matches("gdvariant: converted").count(),
        1,
        "only the refused file's summary: {}",
        r.stderr
    );
    assert!(
        r.stderr
            .ends_with("gdvariant: 1 file converted, 1 failed\n"),
        "{}",
        r.stderr
    );
}
