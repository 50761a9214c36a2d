//! Reading one big Dictionary from JSON and from the engine's text form and encoding it, at 80,000 and 1,000,000 entries (what `gdvariant encode --from json|text` does), with the 80k/1M time ratio.
//!
//! `cargo bench --bench json` (about a minute); `cargo bench --bench json -- json/` for one
//! form. A linear build makes the 80k run about 8% of the 1M one (80,000 / 1,000,000).
//!
//! Also the command's two pipes on 10 MB of the engine's savegame
//! (`tests/fixtures/godot3/streams/savegame.sav`, Godot 3.2.3, repeated): `savegame/to_json`
//! (frames decoded and printed as JSON Lines, as `gdvariant decode -f json` does) and
//! `savegame/from_json/THREADS` (those lines read and each value encoded and framed on the
//! thread that read it, as `gdvariant encode --from json` does), and
//! `savegame/from_pretty_json` (the same values pretty-printed, a document over many lines,
//! read by the bracket scan), in bytes of savegame per second. Freeing the values is inside
//! the timing in all of them.

use criterion::{black_box, criterion_group, BenchmarkId, Criterion, SamplingMode};
use gdvariant::{encode, json, text, Dialect, EncodeOptions};
use std::time::Duration;

const SIZES: [usize; 2] = [80_000, 1_000_000];

/// The JSON that `gdvariant decode --format json` prints for `{"key_0": 0, …}`.
fn dictionary_json(n: usize) -> String {
    let entries: Vec<String> = (0..n)
        .map(|i| format!(r#"[{{"type":"String","value":"key_{i}"}},{{"type":"Int","value":{i}}}]"#))
        .collect();
    format!(r#"{{"type":"Dictionary","value":[{}]}}"#, entries.join(","))
}

/// The same Dictionary as Godot 4's `var_to_str` lays it out: one entry per line.
fn dictionary_text(n: usize) -> String {
    let entries: Vec<String> = (0..n).map(|i| format!("\"key_{i}\": {i}")).collect();
    format!("{{\n{}\n}}\n", entries.join(",\n"))
}

/// Encodes every value read, as the command does.
fn encode_all(values: impl IntoIterator<Item = gdvariant::Variant>) -> usize {
    let opts = EncodeOptions::default();
    values
        .into_iter()
        .map(|v| encode(&v, Dialect::Godot4, &opts).expect("encodes").len())
        .sum()
}

fn build(c: &mut Criterion) {
    let mut group = c.benchmark_group("encode_from");
    // A 1M-entry read is about a second: one read per sample, few samples.
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1));
    for n in SIZES {
        // Ten reads of 1M entries take what they take; say so rather than be warned.
        group.measurement_time(Duration::from_secs(if n > 100_000 { 20 } else { 3 }));
        let doc = dictionary_json(n);
        group.bench_with_input(BenchmarkId::new("json", n), &doc, |b, doc| {
            b.iter(|| {
                let values =
                    json::read_values(black_box(doc.as_bytes())).map(|v| v.expect("valid"));
                encode_all(values)
            })
        });
        drop(doc);
        let doc = dictionary_text(n);
        group.bench_with_input(BenchmarkId::new("text", n), &doc, |b, doc| {
            // As the command does: encoded as it is parsed, the values never held.
            let format = gdvariant::Format::godot4();
            b.iter(|| {
                let mut out = Vec::new();
                text::encode_text_many(black_box(doc), &format, &mut out)
                    .expect("valid")
                    .expect("encodes");
                out.len()
            })
        });
    }
    group.finish();
}

/// The mean time of one benchmark from criterion's own estimates, if it ran since `started`
/// (a filter may have left it out, and an older run's estimates say nothing of this one).
fn mean_seconds(form: &str, n: usize, started: std::time::SystemTime) -> Option<f64> {
    let dir = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"),
        std::path::PathBuf::from,
    );
    let file = dir.join(format!(
        "criterion/encode_from/{form}/{n}/new/estimates.json"
    ));
    if std::fs::metadata(&file).ok()?.modified().ok()? < started {
        return None;
    }
    let text = std::fs::read_to_string(file).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    Some(v["mean"]["point_estimate"].as_f64()? / 1e9)
}

#[path = "common/savegame.rs"]
mod savegame;

fn pipes(c: &mut Criterion) {
    use gdvariant::framing::{frame_into, frames, Framing};
    use gdvariant::Format;
    let format = Format::godot3().framing(Framing::STORE_VAR);
    let save = savegame::savegame(10_000_000);
    let mut lines = Vec::new();
    for v in frames(&save, &format) {
        json::append_json(&mut lines, &v.expect("the engine's frames"));
        lines.push(b'\n');
    }
    let mut group = c.benchmark_group("savegame");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .throughput(criterion::Throughput::Bytes(save.len() as u64));
    group.bench_function("to_json", |b| {
        let mut out = Vec::with_capacity(lines.len());
        b.iter(|| {
            out.clear();
            for v in frames(black_box(&save), &format) {
                json::append_json(&mut out, &v.expect("valid"));
                out.push(b'\n');
            }
            out.len()
        })
    });
    // The same values pretty-printed, one document over many lines: read by the bracket
    // scan, a document at a time (this took 3 s per megabyte while every document re-split
    // the whole buffer into lines).
    let mut pretty = Vec::new();
    for v in frames(&save, &format) {
        let j = json::to_json(&v.expect("the engine's frames"));
        pretty.extend_from_slice(serde_json::to_string_pretty(&j).expect("prints").as_bytes());
        pretty.push(b'\n');
    }
    group.bench_function("from_pretty_json", |b| {
        let mut out = Vec::with_capacity(save.len());
        b.iter(|| {
            out.clear();
            for v in json::read_values(black_box(&pretty[..])) {
                frame_into(&mut out, &v.expect("valid"), &format).expect("encodes");
            }
            assert_eq!(out.len(), save.len());
            out.len()
        })
    });
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    for t in [1, threads] {
        group.bench_with_input(BenchmarkId::new("from_json", t), &t, |b, &t| {
            let mut out = Vec::with_capacity(save.len());
            b.iter(|| {
                out.clear();
                // As the command does: each value framed on the thread that read it.
                let framed = json::encode_values_on(black_box(&lines[..]), t, &format);
                for bytes in framed {
                    out.extend_from_slice(&bytes.expect("valid").expect("encodes"));
                }
                assert_eq!(out.len(), save.len());
                out.len()
            })
        });
        if threads == 1 {
            break;
        }
    }
    group.finish();
}

criterion_group!(benches, build, pipes);

fn main() {
    let started = std::time::SystemTime::now();
    benches();
    Criterion::default().configure_from_args().final_summary();
    for form in ["json", "text"] {
        if let (Some(small), Some(big)) = (
            mean_seconds(form, SIZES[0], started),
            mean_seconds(form, SIZES[1], started),
        ) {
            println!(
                "encode_from/{form}: {small:.3} s at {}, {big:.3} s at {}: ratio {:.1}% (linear: {:.1}%)",
                SIZES[0],
                SIZES[1],
                100.0 * small / big,
                100.0 * SIZES[0] as f64 / SIZES[1] as f64
            );
        }
    }
}
