//! Reading the JSON form of a 100,000-entry Dictionary (what `gdvariant encode --from json` does per document).

use criterion::{criterion_group, criterion_main, Criterion};

fn dictionary_json(n: usize) -> String {
    let entries: Vec<String> = (0..n)
        .map(|i| format!(r#"[{{"type":"String","value":"key_{i}"}},{{"type":"Int","value":{i}}}]"#))
        .collect();
    format!(r#"{{"type":"Dictionary","value":[{}]}}"#, entries.join(","))
}

fn read(c: &mut Criterion) {
    let text = dictionary_json(100_000);
    c.bench_function("json read 100k-entry Dictionary", |b| {
        b.iter(|| gdvariant::json::from_json_str(&text).expect("valid"))
    });
}

criterion_group! {
    name = benches;
    // A read is tens of milliseconds: a few samples say enough.
    config = Criterion::default().sample_size(10);
    targets = read
}
criterion_main!(benches);
