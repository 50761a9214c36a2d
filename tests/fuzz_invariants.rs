//! The fuzz targets' invariants on stable, without libFuzzer: every check of fuzz/src/invariants.rs over every fixture file and its truncations, read as the engine that wrote it.

mod common;
#[path = "../fuzz/src/invariants/mod.rs"]
mod invariants;

use invariants::*;
use std::path::{Path, PathBuf};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// Every fixture file, with the setup byte of the engine and framing that wrote it.
fn seeds() -> Vec<(PathBuf, u8)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("fixtures dir") {
            let p = e.expect("dir entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else if matches!(p.extension().and_then(|x| x.to_str()), Some("bin" | "sav")) {
                files.push(p);
            }
        }
    }
    files.sort();
    // TARGETS[0] is Godot 3 3.2.3, TARGETS[3] Godot 4 4.3; framings as in FRAMINGS.
    files
        .into_iter()
        .map(|p| {
            let s = p.to_string_lossy().into_owned();
            let (target, framing) = if s.contains("/godot3/streams/") {
                let framing = if s.ends_with("_be.bin") {
                    2
                } else if s.contains("packet_peer_stream") {
                    3
                } else {
                    1
                };
                (0, framing)
            } else if s.contains("/godot3/") {
                (0, 0)
            } else {
                (3, 0)
            };
            (p, Setup::byte(target, true, false, framing))
        })
        .collect()
}

/// The cut points tried: all of them for small files, 48 spread over a large one.
fn cuts(len: usize) -> Vec<usize> {
    if len <= 256 {
        (0..len).collect()
    } else {
        (0..48).map(|i| i * len / 48).collect()
    }
}

/// Runs `f` on a thread with a roomy stack: the text and JSON writers recurse once per
/// nesting level, and a debug build's frames are large.
fn on_big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

fn run(name: &'static str, check: Check) {
    assert!(
        counting_installed(),
        "the counting allocator is not installed"
    );
    let seeds = seeds();
    assert!(
        seeds.len() > 500,
        "only {} fixture files found",
        seeds.len()
    );
    on_big_stack(move || {
        let mut inputs = 0;
        for (path, setup) in &seeds {
            let bytes = std::fs::read(path).expect("read fixture");
            let cuts = cuts(bytes.len());
            // The whole file as every engine; its truncations as the engine that wrote it.
            let whole = (0..8u8).map(|t| setup & !7 | t);
            let runs = whole
                .map(|s| (s, bytes.len()))
                .chain(cuts.into_iter().map(|c| (*setup, c)));
            for (s, cut) in runs {
                let mut input = vec![s, cut as u8];
                input.extend_from_slice(&bytes[..cut]);
                let ok = std::panic::catch_unwind(|| run_input(check, &input));
                assert!(
                    ok.is_ok(),
                    "{name}: {} cut at {cut} of {}, setup {s:#04x}",
                    path.display(),
                    bytes.len()
                );
                inputs += 1;
            }
        }
        println!("{name}: {inputs} inputs checked");
    });
}

#[test]
fn decode_owned_borrowed_and_validating_agree() {
    run("decode", check_decode);
}

#[test]
fn what_decodes_reencodes_to_a_fixed_point() {
    run("roundtrip", check_roundtrip);
}

#[test]
fn exact_text_reads_back() {
    run("text", check_text);
}

#[test]
fn json_reads_back() {
    run("json", check_json);
}

#[test]
fn framing_reader_slice_and_available_agree() {
    run("framing", check_framing);
}

#[test]
fn codec_in_pieces_reads_what_frames_reads() {
    run("codec", check_codec);
}

#[test]
fn explain_stops_where_the_decoder_stops() {
    run("explain", check_explain);
}

#[test]
fn guess_ranks_complete_readings_first() {
    run("guess", check_guess);
}

/// The byte-exact half of the round trip, on input that is canonical because an engine wrote
/// it: every fixture the engine itself re-encodes identically (manifest `roundtrip`) comes
/// back byte for byte through the same `reencode_checked` the `roundtrip` target runs, NodePath
/// padding (uninitialised in the engines) compared with the zeroed twin, a leading BOM kept.
#[test]
fn engine_bytes_reencode_exactly() {
    on_big_stack(|| {
        let mut bad = common::Mismatches::default();
        let mut n = 0;
        // TARGETS[0] is Godot 3 3.2.3, TARGETS[3] Godot 4 4.3.
        for (dir, target) in [("godot3", 0), ("godot3/game", 0), ("godot4", 3)] {
            for f in common::load(dir) {
                if !f.bool("roundtrip") {
                    continue;
                }
                let setup =
                    Setup::from_byte(Setup::byte(target, f.bool("full_objects"), true, 0), 0);
                n += 1;
                match reencode_checked(&setup, &f.bytes) {
                    Some(b) if b == f.expected => {}
                    Some(b) => bad.push(&f.name, format!("re-encoded {}", common::hex(&b))),
                    None => bad.push(&f.name, "does not decode"),
                }
            }
        }
        assert!(n > 500, "only {n} fixtures");
        bad.check(n);
    });
}

/// The text check on the deepest values the decoder accepts: Godot 4.3's own bytes for 64
/// nested Arrays and 32 nested Dictionaries (fixtures `deep_array_64`, `deep_dict_32`), made
/// deeper by repeating the engine's bytes of one level around them (an Array of one element;
/// a Dictionary whose `"d31"` holds the next level and whose `"i"` is 31), to 853 levels (the fuzzer's input that lost all but 102) and to the
/// decoder's limit, read as Godot 4.2, 4.3 and 4.4.1. Exact text must give every level back.
#[test]
fn exact_text_of_the_deepest_values_reads_back() {
    let g4 = common::load("godot4");
    let fixture = |name: &str| g4.iter().find(|f| f.name == name).unwrap().bytes.clone();
    let (array, dict) = (fixture("deep_array_64"), fixture("deep_dict_32"));
    // What one level adds before and after the next: the Array header and count; the
    // Dictionary header, count and first key, then its second entry.
    let cases = [
        (array[..8].to_vec(), Vec::new(), array, 64),
        (
            dict[..20].to_vec(),
            dict[dict.len() - 20..].to_vec(),
            dict,
            32,
        ),
    ];
    on_big_stack(move || {
        let limit = gdvariant::Limits::default().max_depth;
        for (before, after, bytes, depth) in &cases {
            let input = |levels: usize| {
                let mut input = before.repeat(levels - depth);
                input.extend_from_slice(bytes);
                input.extend(after.repeat(levels - depth));
                input
            };
            for target in 2..5 {
                let setup = Setup::from_byte(Setup::byte(target, false, false, 0), 0);
                let decodes = |b: &[u8]| gdvariant::decode(b, setup.dialect, &setup.options);
                // The deepest the decoder takes (a Dictionary's innermost entries sit one
                // level below it), and one level more, which it refuses.
                let deepest = (limit - 2..=limit + 1)
                    .take_while(|&n| decodes(&input(n)).is_ok())
                    .last()
                    .expect("the decoder takes its limit");
                assert!(deepest <= limit, "{deepest} levels decode");
                for levels in [853, deepest] {
                    check_text(&setup, &input(levels));
                }
            }
        }
    });
}

/// The memory bound can fail: a decode that keeps more than the budget is caught.
#[test]
fn the_memory_bound_is_measured() {
    let (v, peak) = peak_during(|| vec![0u64; 100_000]);
    assert!(peak >= 800_000, "peak {peak}");
    assert!(peak > decode_budget(1000));
    drop(v);
}

/// The targets cover every check, each under its own name.
#[test]
fn every_check_has_a_target() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/fuzz_targets");
    for (name, _) in CHECKS {
        let text = std::fs::read_to_string(dir.join(format!("{name}.rs")))
            .unwrap_or_else(|e| panic!("fuzz target {name}: {e}"));
        assert!(
            text.contains(&format!("check_{name}")),
            "target {name} runs another check"
        );
    }
}
