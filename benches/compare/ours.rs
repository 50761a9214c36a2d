//! Our side of `benches/compare/run.sh`: checks and times gdvariant on the comparison's files.
//!
//! `compare gen DIR` writes W1–W4 as we encode them (`wN.godot3.bin`, `wN.godot4.bin`);
//! `compare check DIR` checks that our bytes equal every engine's (`wN.engine3.bin` from
//! Godot 3.2.3, `wN.engine4.3.bin` and `wN.engine4.4.1.bin` from the Godot 4 engines);
//! `compare time DIR` prints one JSON line per measurement for decode and encode (each timed
//! two ways, as engine.gd and engine4.gd time the engines), borrowed decode and memcpy of the
//! same bytes; `compare mem` the peak resident memory one decode adds. table.py turns all
//! tools' lines into Markdown.
#[path = "../common/workloads.rs"]
mod workloads;

use gdvariant::{
    decode, decode_borrowed, encode, DecodeOptions, Dialect, EncodeOptions, Variant, VariantRef,
};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = |i: usize| PathBuf::from(args.get(i).map(String::as_str).unwrap_or("."));
    let result = match args.first().map(String::as_str) {
        Some("gen") => gen(&dir(1)),
        Some("check") => check(&dir(1)),
        Some("time") => time(&dir(1), args.get(2).map(String::as_str)),
        Some("mem") => mem(
            &dir(1),
            args.get(2).map(String::as_str).unwrap_or(""),
            args.get(3).is_some_and(|m| m == "borrowed"),
        ),
        _ => Err(
            "usage: compare gen|check|time DIR [FILTER] | compare mem DIR FILE [owned|borrowed]"
                .into(),
        ),
    };
    if let Err(e) = result {
        eprintln!("compare: {e}");
        std::process::exit(1);
    }
}

type Res = Result<(), String>;

fn dialects() -> [(Dialect, &'static str); 2] {
    [(Dialect::Godot3, "godot3"), (Dialect::Godot4, "godot4")]
}

fn gen(dir: &Path) -> Res {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    for w in workloads::all() {
        for (d, tag) in dialects() {
            let bytes =
                encode(&w.value, d, &EncodeOptions::default()).map_err(|e| e.to_string())?;
            let path = dir.join(format!("{}.{tag}.bin", w.name));
            std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// Every engine's bytes (written by engine.gd and engine4.gd as `NAME.engineVERSION.bin`) must be
/// ours, byte for byte, and decode to the workload.
fn check(dir: &Path) -> Res {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    files.sort();
    let workloads = workloads::all();
    let mut checked = 0;
    for file in &files {
        let Some((name, version)) = file
            .strip_suffix(".bin")
            .and_then(|f| f.split_once(".engine"))
        else {
            continue;
        };
        let Some(w) = workloads.iter().find(|w| w.name == name) else {
            continue;
        };
        let d = if version.starts_with('3') {
            Dialect::Godot3
        } else {
            Dialect::Godot4
        };
        let engine = std::fs::read(dir.join(file)).map_err(|e| format!("{file}: {e}"))?;
        let ours = encode(&w.value, d, &EncodeOptions::default()).map_err(|e| e.to_string())?;
        if engine != ours {
            let at = engine.iter().zip(&ours).position(|(a, b)| a != b);
            return Err(format!(
                "{file}: Godot {version}'s {} bytes differ from our {} (first at {at:?})",
                engine.len(),
                ours.len()
            ));
        }
        let (v, used) = decode(&engine, d, &DecodeOptions::default()).map_err(|e| e.to_string())?;
        if used != engine.len() || !v.same(&w.value) {
            return Err(format!("{file}: decoding Godot {version}'s bytes differs"));
        }
        println!(
            "{name}: Godot {version}'s bytes = ours ({} bytes)",
            engine.len()
        );
        checked += 1;
    }
    if checked == 0 {
        return Err(format!(
            "no engine files (NAME.engineVERSION.bin) in {}",
            dir.display()
        ));
    }
    Ok(())
}

/// Calls per sample for W4, whose call is far below the engines' microsecond clock; the results
/// are kept in a vector sized beforehand, as engine.gd keeps them in a pre-sized Array.
const SMALL_BATCH: usize = 20_000;
/// Samples per operation and round, as in the engine scripts (which say why seven).
const SAMPLES: usize = 7;
/// glibc keeps many small frees in its fast bins and merges them at the next malloc of 1 KiB or
/// more, whoever makes it. Every timed release ends with such an allocation so that this cost is
/// charged to the release and not to the next timed call (the engine scripts do the same).
const PAD_BYTES: usize = 4096;

/// One operation's time per call, both ways, in nanoseconds.
struct KeptAndFreed {
    /// The call alone, its result kept alive and freed outside the clock.
    keep: f64,
    /// The call plus releasing its result.
    free: f64,
    /// Releasing alone.
    release: f64,
    /// The loop's own cost (storing an empty value), subtracted from the others.
    overhead: f64,
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Times `call` the way engine.gd and engine4.gd time the engine, so that both sides are
/// measured alike: per sample, `batch` calls whose results are kept, then their release (ending
/// with a small allocation); before them the same loop storing `empty()` and its release, whose
/// medians are subtracted. Medians over samples.
fn kept_and_freed<T>(
    batch: usize,
    mut call: impl FnMut() -> T,
    mut empty: impl FnMut() -> T,
) -> KeptAndFreed {
    let mut keep: Vec<T> = Vec::with_capacity(batch);
    let release = |keep: &mut Vec<T>| {
        keep.clear();
        drop(black_box(Vec::<u8>::with_capacity(PAD_BYTES)));
    };
    let per_call = |a: Instant, b: Instant| (b - a).as_nanos() as f64 / batch as f64;
    let [mut empty_call, mut empty_release, mut empty_both, mut calls, mut releases, mut both] =
        std::array::from_fn(|_| Vec::with_capacity(SAMPLES));
    for _ in 0..SAMPLES {
        let t0 = Instant::now();
        for _ in 0..batch {
            keep.push(black_box(empty()));
        }
        let t1 = Instant::now();
        release(&mut keep);
        let t2 = Instant::now();
        for _ in 0..batch {
            keep.push(black_box(call()));
        }
        let t3 = Instant::now();
        release(&mut keep);
        let t4 = Instant::now();
        empty_call.push(per_call(t0, t1));
        empty_release.push(per_call(t1, t2));
        empty_both.push(per_call(t0, t2));
        calls.push(per_call(t2, t3));
        releases.push(per_call(t3, t4));
        both.push(per_call(t2, t4));
    }
    let overhead = median(empty_call);
    KeptAndFreed {
        keep: (median(calls) - overhead).max(0.0),
        free: (median(both) - median(empty_both)).max(0.0),
        release: (median(releases) - median(empty_release)).max(0.0),
        overhead,
    }
}

/// Median time per call of each operation, in nanoseconds. Calls are batched so that one
/// sample takes about `sample`, and the operations take turns sample by sample, so that a
/// busy moment of the shared machine hits all of them alike (their ratios are what matter).
fn medians_ns(ops: &mut [&mut dyn FnMut()], sample: Duration, samples: usize) -> Vec<f64> {
    let batches: Vec<u32> = ops
        .iter_mut()
        .map(|f| {
            let start = Instant::now();
            f();
            let once = start.elapsed().max(Duration::from_nanos(20));
            (sample.as_nanos() / once.as_nanos()).clamp(1, 1_000_000) as u32
        })
        .collect();
    let mut times = vec![Vec::with_capacity(samples); ops.len()];
    for _ in 0..samples {
        for ((f, &batch), t) in ops.iter_mut().zip(&batches).zip(&mut times) {
            let start = Instant::now();
            for _ in 0..batch {
                f();
            }
            t.push(start.elapsed().as_nanos() as f64 / f64::from(batch));
        }
    }
    times
        .into_iter()
        .map(|mut t| {
            t.sort_by(f64::total_cmp);
            t[t.len() / 2]
        })
        .collect()
}

/// One measurement as a JSON line. `GDV_TOOL` renames our rows (run.sh's second pass, with
/// glibc's heap trimming off, is `gdvariant-notrim`).
fn line(tool: &str, op: &str, dialect: &str, workload: &str, ns: f64, bytes: usize) {
    let renamed = std::env::var("GDV_TOOL")
        .ok()
        .filter(|_| tool == "gdvariant");
    let tool = renamed.as_deref().unwrap_or(tool);
    println!(
        "{{\"tool\":\"{tool}\",\"op\":\"{op}\",\"dialect\":\"{dialect}\",\"workload\":\"{workload}\",\"median_ns\":{ns:.1},\"bytes\":{bytes}}}"
    );
}

/// One operation timed both ways as a JSON line, in the fields the engine scripts print.
fn line_both(op: &str, dialect: &str, workload: &str, t: &KeptAndFreed, bytes: usize) {
    let tool = std::env::var("GDV_TOOL").unwrap_or_else(|_| "gdvariant".into());
    println!(
        "{{\"tool\":\"{tool}\",\"op\":\"{op}\",\"dialect\":\"{dialect}\",\"workload\":\"{workload}\",\"keep_ns\":{:.1},\"free_ns\":{:.1},\"release_ns\":{:.1},\"loop_overhead_ns\":{:.1},\"bytes\":{bytes}}}",
        t.keep, t.free, t.release, t.overhead
    );
}

fn time(dir: &Path, filter: Option<&str>) -> Res {
    let dopts = DecodeOptions::default();
    let eopts = EncodeOptions::default();
    for w in workloads::all() {
        if filter.is_some_and(|f| !w.name.contains(f)) {
            continue;
        }
        for (d, tag) in dialects() {
            let path = dir.join(format!("{}.{tag}.bin", w.name));
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            let (value, _) = decode(&bytes, d, &dopts).map_err(|e| e.to_string())?;
            if encode(&value, d, &eopts).map_err(|e| e.to_string())? != bytes {
                return Err(format!("{}: re-encoding differs", path.display()));
            }
            let n = bytes.len();
            let batch = if n > 1 << 20 { 1 } else { SMALL_BATCH };
            // Decode and encode as the engines are timed (see kept_and_freed).
            let t = kept_and_freed(
                batch,
                || decode(black_box(&bytes), d, &dopts).unwrap(),
                || (Variant::Nil, 0),
            );
            line_both("decode", tag, w.name, &t, n);
            let t = kept_and_freed(
                batch,
                || encode(black_box(&value), d, &eopts).unwrap(),
                Vec::new,
            );
            line_both("encode", tag, w.name, &t, n);

            // The other columns, as the other tools time themselves: batches of about `sample`,
            // each call replacing the previous result.
            let (sample, samples) = if n > 1 << 20 {
                (Duration::from_millis(1), 21)
            } else {
                (Duration::from_millis(5), 41)
            };
            let mut copy = vec![0u8; n];
            let mut last_ref = None;
            let mut borrowed = || {
                last_ref = Some(black_box(
                    decode_borrowed(black_box(&bytes), d, &dopts).unwrap(),
                ))
            };
            let mut walked = || {
                let (v, _) = decode_borrowed(black_box(&bytes), d, &dopts).unwrap();
                black_box(walk(&v));
            };
            let mut memcpy = || {
                copy.copy_from_slice(black_box(&bytes));
                black_box(&mut copy);
            };
            // Each operation is timed on its own, as each tool times each in its own loop.
            let ns = [
                medians_ns(&mut [&mut borrowed], sample, samples)[0],
                medians_ns(&mut [&mut memcpy], sample, samples)[0],
                medians_ns(&mut [&mut walked], sample, samples)[0],
            ];
            line("gdvariant", "decode_borrowed", tag, w.name, ns[0], n);
            line("memcpy", "copy", tag, w.name, ns[1], n);
            line("gdvariant", "decode_borrowed_walk", tag, w.name, ns[2], n);
        }
    }
    // Borrowed decoding of a PackedByteArray costs the same whatever its size: the 16-byte
    // twin of W2.
    if filter.is_none_or(|f| f.contains("w2_bytes_16b")) {
        for (d, tag) in dialects() {
            let bytes = encode(&Variant::PackedByteArray(vec![7; 16]), d, &eopts)
                .map_err(|e| e.to_string())?;
            let mut borrowed = || {
                drop(black_box(
                    decode_borrowed(black_box(&bytes), d, &dopts).unwrap(),
                ))
            };
            let ns = medians_ns(&mut [&mut borrowed], Duration::from_millis(5), 41);
            line(
                "gdvariant",
                "decode_borrowed",
                tag,
                "w2_bytes_16b",
                ns[0],
                bytes.len(),
            );
        }
    }
    Ok(())
}

/// Reads every element of every container of `v`, as a server reading a whole message would.
fn walk(v: &VariantRef<'_>) -> usize {
    match v {
        VariantRef::Array(a) => a.iter().map(|x| walk(&x)).sum(),
        VariantRef::Dictionary(d) => d.iter().map(|(k, v)| walk(&k) + walk(&v)).sum(),
        other => black_box(other).kind() as usize,
    }
}

/// Peak resident memory (`VmHWM`, bytes) of this process so far.
fn peak_rss() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// How much one decode of FILE raises the peak resident memory (run each in a fresh process).
fn mem(dir: &Path, file: &str, borrowed: bool) -> Res {
    let path = dir.join(file);
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let d = if file.contains("godot3") {
        Dialect::Godot3
    } else {
        Dialect::Godot4
    };
    let o = DecodeOptions::default();
    let before = peak_rss().ok_or("no /proc/self/status")?;
    let added = if borrowed {
        let v = decode_borrowed(&bytes, d, &o).map_err(|e| e.to_string())?;
        let added = peak_rss().unwrap_or(before) - before;
        drop(black_box(v));
        added
    } else {
        let v = decode(&bytes, d, &o).map_err(|e| e.to_string())?;
        let added = peak_rss().unwrap_or(before) - before;
        drop(black_box(v));
        added
    };
    let op = if borrowed {
        "decode_borrowed"
    } else {
        "decode"
    };
    println!(
        "{{\"file\":\"{file}\",\"op\":\"{op}\",\"input_bytes\":{},\"peak_rss_added\":{added}}}",
        bytes.len()
    );
    Ok(())
}
