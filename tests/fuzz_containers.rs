//! The container fuzz targets' invariants on stable (fuzz/src/containers.rs): every engine-made
//! container fixture, its truncations and its flipped bytes, and the regressions the fuzzer found.

#[path = "../fuzz/src/containers.rs"]
mod containers;
#[path = "../fuzz/src/invariants/mod.rs"]
mod invariants;

use containers::{check_compressed, check_encrypted};
use invariants::{CountingAlloc, Setup};
use std::path::Path;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

fn run(check: fn(&Setup, &[u8]), payload: &[u8]) {
    let mut data = vec![0u8, 0u8];
    data.extend_from_slice(payload);
    let (setup, payload) = Setup::split(&data).expect("two setup bytes");
    check(&setup, payload);
}

fn fixtures() -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/containers");
    let mut files = Vec::new();
    for engine in ["godot3.2.3", "godot4.4.1"] {
        let mut names: Vec<_> = std::fs::read_dir(root.join(engine))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        files.extend(names.iter().map(|p| std::fs::read(p).unwrap()));
    }
    files
}

#[test]
fn fixtures_truncations_and_flips() {
    for file in fixtures() {
        let check: fn(&Setup, &[u8]) = if file.starts_with(b"GDEC") {
            check_encrypted
        } else {
            check_compressed
        };
        run(check, &file);
        for len in (0..file.len()).step_by(97) {
            run(check_compressed, &file[..len]);
            run(check_encrypted, &file[..len]);
        }
        for at in (0..file.len().min(600)).step_by(7) {
            let mut bad = file.clone();
            bad[at] ^= 0x5a;
            run(check, &bad);
        }
    }
}
