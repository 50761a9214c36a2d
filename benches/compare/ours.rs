//! Our side of `benches/compare/run.sh`: checks and times gdvariant on the comparison's files.
//!
//! `compare gen DIR` writes W1–W4 as we encode them (`wN.godot3.bin`, `wN.godot4.bin`);
//! `compare check DIR` checks that our Godot 3 bytes equal the engine's (`wN.engine3.bin`);
//! `compare time DIR` prints one JSON line per measurement (median ns per operation) for
//! decode, borrowed decode, encode and memcpy of the same bytes, and the peak resident
//! memory one decode adds; `compare table` (see table.py) turns all tools' lines into Markdown.
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

/// The engine's bytes (written by make_bytes.gd) must be ours, byte for byte.
fn check(dir: &Path) -> Res {
    for w in workloads::all() {
        let path = dir.join(format!("{}.engine3.bin", w.name));
        let engine = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let ours = encode(&w.value, Dialect::Godot3, &EncodeOptions::default())
            .map_err(|e| e.to_string())?;
        if engine != ours {
            let at = engine.iter().zip(&ours).position(|(a, b)| a != b);
            return Err(format!(
                "{}: the engine's {} bytes differ from our {} (first at {at:?})",
                w.name,
                engine.len(),
                ours.len()
            ));
        }
        let (v, used) = decode(&engine, Dialect::Godot3, &DecodeOptions::default())
            .map_err(|e| e.to_string())?;
        if used != engine.len() || !v.same(&w.value) {
            return Err(format!("{}: decoding the engine's bytes differs", w.name));
        }
        println!("{}: engine bytes = ours ({} bytes)", w.name, engine.len());
    }
    Ok(())
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
            let (sample, samples) = if bytes.len() > 1 << 20 {
                (Duration::from_millis(1), 21)
            } else {
                (Duration::from_millis(5), 41)
            };
            let n = bytes.len();
            let mut copy = vec![0u8; n];
            // The loops are the engine's: `v = bytes2var(b)` makes the new value, then frees
            // the one before it, so each call here replaces the previous result (freeing it
            // after the new one exists, which also decides what the allocator can reuse).
            let (mut last, mut last_ref, mut last_bytes) = (None, None, None);
            let mut owned =
                || last = Some(black_box(decode(black_box(&bytes), d, &dopts).unwrap()));
            let mut borrowed = || {
                last_ref = Some(black_box(
                    decode_borrowed(black_box(&bytes), d, &dopts).unwrap(),
                ))
            };
            let mut walked = || {
                let (v, _) = decode_borrowed(black_box(&bytes), d, &dopts).unwrap();
                black_box(walk(&v));
            };
            let mut encoded =
                || last_bytes = Some(black_box(encode(black_box(&value), d, &eopts).unwrap()));
            let mut memcpy = || {
                copy.copy_from_slice(black_box(&bytes));
                black_box(&mut copy);
            };
            // Each operation is timed on its own, as the engine times each in its own loop.
            let ns = [
                medians_ns(&mut [&mut owned], sample, samples)[0],
                medians_ns(&mut [&mut borrowed], sample, samples)[0],
                medians_ns(&mut [&mut memcpy], sample, samples)[0],
                medians_ns(&mut [&mut walked], sample, samples)[0],
            ];
            line("gdvariant", "decode", tag, w.name, ns[0], n);
            line("gdvariant", "decode_borrowed", tag, w.name, ns[1], n);
            line("memcpy", "copy", tag, w.name, ns[2], n);
            line("gdvariant", "decode_borrowed_walk", tag, w.name, ns[3], n);
            let ns = medians_ns(&mut [&mut encoded], sample, samples);
            line("gdvariant", "encode", tag, w.name, ns[0], n);
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
