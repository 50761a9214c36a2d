//! Criterion benchmarks of decode, borrowed decode and encode over W1–W4 and the fixture corpus.
//!
//! Ids are `decode/<dialect>/<workload>`, `decode_borrowed/…` and `encode/…`; run one with
//! `cargo bench --bench codec -- decode/godot4/w3`. Decoding includes dropping the result
//! (as the engine's `bytes2var` loop frees its previous value).
#[path = "common/workloads.rs"]
mod workloads;

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gdvariant::{
    decode, decode_borrowed, encode, encode_into, DecodeOptions, Dialect, EncodeOptions, Variant,
    VariantRef, Version,
};
use std::path::Path;
use std::time::Duration;

/// The engine-made fixtures of a dialect (`tests/fixtures/<dir>/manifest.jsonl`), if present.
fn corpus(dir: &str) -> Vec<(String, Vec<u8>, bool)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(dir);
    let Ok(text) = std::fs::read_to_string(dir.join("manifest.jsonl")) else {
        return Vec::new();
    };
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|line| {
            let json: serde_json::Value = serde_json::from_str(line).ok()?;
            let name = json["name"].as_str()?.to_string();
            let bytes = std::fs::read(dir.join(format!("{name}.bin"))).ok()?;
            let full = json["full_objects"].as_bool().unwrap_or(false);
            Some((name, bytes, full))
        })
        .collect()
}

struct Target {
    dialect: Dialect,
    fixtures: &'static str,
    version: Option<Version>,
}

const TARGETS: [Target; 2] = [
    Target {
        dialect: Dialect::Godot3,
        fixtures: "godot3",
        version: None,
    },
    Target {
        dialect: Dialect::Godot4,
        fixtures: "godot4",
        // The Godot 4 corpus was written by 4.3 (typed-container bits depend on the version).
        version: Some(Version::new(4, 3, 0)),
    },
];

fn decode_options(version: Option<Version>, allow_objects: bool) -> DecodeOptions {
    DecodeOptions {
        version,
        allow_objects,
        keep_leading_bom: true,
        ..Default::default()
    }
}

fn benches(c: &mut Criterion) {
    let workloads = workloads::all();
    for t in &TARGETS {
        let d = t.dialect;
        let eopts = EncodeOptions::default();
        let dopts = DecodeOptions::default();
        let encoded: Vec<(&str, Vec<u8>, &Variant)> = workloads
            .iter()
            .map(|w| {
                (
                    w.name,
                    encode(&w.value, d, &eopts).expect("workload encodes"),
                    &w.value,
                )
            })
            .collect();
        let fixtures: Vec<(Vec<u8>, DecodeOptions, EncodeOptions)> = corpus(t.fixtures)
            .into_iter()
            .map(|(_, bytes, full)| {
                let eo = EncodeOptions {
                    version: t.version,
                    full_objects: full,
                    ..Default::default()
                };
                (bytes, decode_options(t.version, full), eo)
            })
            .collect();
        let corpus_bytes: usize = fixtures.iter().map(|f| f.0.len()).sum();
        let corpus_values: Vec<(Variant, &EncodeOptions)> = fixtures
            .iter()
            .filter_map(|(b, o, eo)| Some((decode(b, d, o).ok()?.0, eo)))
            .collect();

        let mut g = c.benchmark_group(format!("decode/{}", d.name()));
        configure(&mut g);
        for (name, bytes, _) in &encoded {
            g.throughput(Throughput::Bytes(bytes.len() as u64));
            g.bench_with_input(BenchmarkId::from_parameter(name), bytes, |b, bytes| {
                b.iter(|| decode(black_box(bytes), d, &dopts).expect("decodes"))
            });
        }
        if !fixtures.is_empty() {
            g.throughput(Throughput::Bytes(corpus_bytes as u64));
            g.bench_function("corpus", |b| {
                b.iter(|| {
                    for (bytes, o, _) in &fixtures {
                        let _ = black_box(decode(black_box(bytes), d, o));
                    }
                })
            });
        }
        g.finish();

        let mut g = c.benchmark_group(format!("decode_borrowed/{}", d.name()));
        configure(&mut g);
        for (name, bytes, _) in &encoded {
            g.throughput(Throughput::Bytes(bytes.len() as u64));
            g.bench_with_input(BenchmarkId::from_parameter(name), bytes, |b, bytes| {
                b.iter(|| decode_borrowed(black_box(bytes), d, &dopts).expect("decodes"))
            });
        }
        if !fixtures.is_empty() {
            g.throughput(Throughput::Bytes(corpus_bytes as u64));
            g.bench_function("corpus", |b| {
                b.iter(|| {
                    for (bytes, o, _) in &fixtures {
                        let _ = black_box(decode_borrowed(black_box(bytes), d, o));
                    }
                })
            });
        }
        g.finish();

        // The borrowed decode reads containers on demand; this is its cost when every
        // element of every container is read (each leaf visited once, text still borrowed).
        let mut g = c.benchmark_group(format!("decode_borrowed_walk/{}", d.name()));
        configure(&mut g);
        for (name, bytes, _) in &encoded {
            g.throughput(Throughput::Bytes(bytes.len() as u64));
            g.bench_with_input(BenchmarkId::from_parameter(name), bytes, |b, bytes| {
                b.iter(|| {
                    let (v, _) = decode_borrowed(black_box(bytes), d, &dopts).expect("decodes");
                    walk(&v)
                })
            });
        }
        g.finish();

        let mut g = c.benchmark_group(format!("encode/{}", d.name()));
        configure(&mut g);
        for (name, bytes, value) in &encoded {
            g.throughput(Throughput::Bytes(bytes.len() as u64));
            g.bench_with_input(BenchmarkId::from_parameter(name), *value, |b, v| {
                b.iter(|| encode(black_box(v), d, &eopts).expect("encodes"))
            });
        }
        // A server's loop: one buffer reused for every message.
        if let Some((_, bytes, value)) = encoded.iter().find(|e| e.0 == "w4_dict") {
            g.throughput(Throughput::Bytes(bytes.len() as u64));
            let mut buf = Vec::with_capacity(bytes.len());
            g.bench_function("w4_dict_into_reused_buffer", |b| {
                b.iter(|| {
                    buf.clear();
                    encode_into(&mut buf, black_box(value), d, &eopts).expect("encodes");
                })
            });
        }
        if !corpus_values.is_empty() {
            g.throughput(Throughput::Bytes(corpus_bytes as u64));
            g.bench_function("corpus", |b| {
                b.iter(|| {
                    for (v, o) in &corpus_values {
                        let _ = black_box(encode(black_box(v), d, o));
                    }
                })
            });
        }
        g.finish();
    }
}

/// Reads every element of every container of `v` (leaves are counted, not copied).
fn walk(v: &VariantRef<'_>) -> usize {
    match v {
        VariantRef::Array(a) => a.iter().map(|x| walk(&x)).sum(),
        VariantRef::Dictionary(d) => d.iter().map(|(k, v)| walk(&k) + walk(&v)).sum(),
        other => black_box(other).kind() as usize,
    }
}

fn configure(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>) {
    // Big workloads take milliseconds; a few seconds per benchmark give stable medians on a
    // shared 2-core machine while keeping the whole run near three minutes.
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
}

criterion_group!(codec, benches);
criterion_main!(codec);
