//! Converting the engine's Godot 3 savegame to Godot 4 as `gdvariant convert` does: frames decoded, migrated, encoded and framed.
//!
//! `cargo bench --bench migrate`. The input is `tests/fixtures/godot3/streams/savegame.sav`
//! (Godot 3.2.3, six `store_var` frames) repeated to 1 MB; throughput is in bytes of
//! savegame. `in_place` is the command's way (`migrate_in_place` on the decoded value);
//! `copy` is `migrate`, which leaves the decoded value as it was and builds a converted copy.
//! Freeing the values is inside the timing in both.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use gdvariant::framing::{frame_into, frames, Framing};
use gdvariant::migrate::{migrate, migrate_in_place, Target};
use gdvariant::{Dialect, Format};

#[path = "common/savegame.rs"]
mod savegame;

fn convert(c: &mut Criterion) {
    let save = savegame::savegame(1_000_000);
    let from_format = Format::godot3().framing(Framing::STORE_VAR);
    let to_format = Format::godot4().framing(Framing::STORE_VAR);
    let (from, to) = (
        Target::new(Dialect::Godot3, None),
        Target::new(Dialect::Godot4, None),
    );
    let mut group = c.benchmark_group("convert_savegame");
    group.throughput(criterion::Throughput::Bytes(save.len() as u64));
    group.bench_function("in_place", |b| {
        let mut out = Vec::with_capacity(2 * save.len());
        b.iter(|| {
            out.clear();
            for v in frames(black_box(&save), &from_format) {
                let mut v = v.expect("the engine's frames");
                let report = migrate_in_place(&mut v, from, to);
                assert!(report.is_exact());
                frame_into(&mut out, &v, &to_format).expect("encodes");
            }
            out.len()
        })
    });
    group.bench_function("copy", |b| {
        let mut out = Vec::with_capacity(2 * save.len());
        b.iter(|| {
            out.clear();
            for v in frames(black_box(&save), &from_format) {
                let (v, report) = migrate(&v.expect("the engine's frames"), from, to);
                assert!(report.is_exact());
                frame_into(&mut out, &v, &to_format).expect("encodes");
            }
            out.len()
        })
    });
    group.finish();
}

criterion_group!(benches, convert);
criterion_main!(benches);
