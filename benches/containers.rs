//! Reading 100 MB save files in each container: encrypted (Godot 3 ECB, Godot 4 CFB) and
//! compressed (FastLZ, Deflate, Zstd, GZIP); throughput in bytes of plain data, on one core.
//!
//! `cargo bench --bench containers`. The plain data is the engine's Godot 3 savegame
//! (`tests/fixtures/godot3/streams/savegame.sav`) repeated to 100 MB, made here, not stored.
//! With `GODOT4_4` set (`eval "$(../shared/engines/install.sh --env)"`), the same files are
//! then read by Godot 4.4.1 (`tests/containers/bench_godot4.gd`: open, `get_buffer` of the
//! whole length) and its time printed beside ours.

use criterion::{black_box, Criterion, Throughput};
use gdvariant::container::{compressed, encrypted, EncryptedLayout, Key, Mode};
use std::path::Path;
use std::time::Instant;

#[path = "common/savegame.rs"]
mod savegame;

const SIZE: usize = 100_000_000;
const PASSWORD: &str = "correct horse";

fn files() -> Vec<(String, Vec<u8>, usize)> {
    let plain = savegame::savegame(SIZE);
    let key = Key::password(PASSWORD);
    let mut files = vec![
        (
            "encrypted_godot3".to_string(),
            encrypted::write(&plain, &key, EncryptedLayout::Godot3, None).unwrap(),
            plain.len(),
        ),
        (
            "encrypted_godot4".to_string(),
            encrypted::write(&plain, &key, EncryptedLayout::Godot4, None).unwrap(),
            plain.len(),
        ),
    ];
    for mode in [Mode::FastLz, Mode::Deflate, Mode::Zstd, Mode::Gzip] {
        files.push((
            format!("compressed_{}", mode.name().to_lowercase()),
            compressed::write(&plain, mode).unwrap(),
            plain.len(),
        ));
    }
    files
}

fn read(name: &str, file: &[u8]) -> usize {
    if name.starts_with("encrypted") {
        encrypted::read(file, &Key::password(PASSWORD))
            .unwrap()
            .len()
    } else {
        compressed::read(file, u64::MAX).unwrap().len()
    }
}

/// Godot 4.4.1's time for each file, when the engine is here.
fn engine_times(files: &[(String, Vec<u8>, usize)]) {
    let Some(bin) = std::env::var_os("GODOT4_4") else {
        println!("notice: GODOT4_4 not set; the engine's times are not measured");
        return;
    };
    let dir =
        std::env::temp_dir().join(format!("gdvariant-bench-containers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("project.godot"),
        "config_version=5\n\n[debug]\n\nfile_logging/enable_file_logging=false\n",
    )
    .unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/containers/bench_godot4.gd");
    std::fs::copy(script, dir.join("bench.gd")).unwrap();
    let mut list = String::new();
    for (name, bytes, _) in files {
        std::fs::write(dir.join(format!("{name}.bin")), bytes).unwrap();
        let how = match name.as_str() {
            n if n.starts_with("encrypted") => "pass".to_string(),
            n => {
                let mode = [Mode::FastLz, Mode::Deflate, Mode::Zstd, Mode::Gzip]
                    .into_iter()
                    .find(|m| n.ends_with(&m.name().to_lowercase()))
                    .unwrap();
                mode.id().to_string()
            }
        };
        list.push_str(&format!("{name}.bin {how}\n"));
    }
    std::fs::write(dir.join("list.txt"), list).unwrap();
    let out = std::process::Command::new("timeout")
        .arg("600")
        .arg(bin)
        .args(["--headless", "--path"])
        .arg(&dir)
        .args(["--script", "res://bench.gd"])
        .env("READ_DIR", &dir)
        .output()
        .unwrap();
    let text = std::fs::read_to_string(dir.join("times.txt")).unwrap_or_default();
    for line in text.lines() {
        let mut parts = line.split(' ');
        let (Some(name), Some(usec), Some(len)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let (usec, len): (f64, f64) = (usec.parse().unwrap(), len.parse().unwrap());
        println!(
            "godot 4.4.1 {name}: {:.1} ms, {:.0} MB/s of plain data",
            usec / 1e3,
            len / usec
        );
    }
    if text.is_empty() {
        println!(
            "the engine wrote no times: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() {
    let files = files();
    let mut c = Criterion::default().configure_from_args().sample_size(10);
    let mut group = c.benchmark_group("read_100mb");
    for (name, bytes, plain) in &files {
        group.throughput(Throughput::Bytes(*plain as u64));
        group.bench_function(name.as_str(), |b| b.iter(|| read(name, black_box(bytes))));
    }
    group.finish();
    // One plain timing per file beside the engine's, for the same bytes.
    for (name, bytes, plain) in &files {
        let start = Instant::now();
        assert_eq!(read(name, bytes), *plain);
        let usec = start.elapsed().as_secs_f64() * 1e6;
        println!(
            "gdvariant {name}: {:.1} ms, {:.0} MB/s of plain data",
            usec / 1e3,
            *plain as f64 / usec
        );
    }
    engine_times(&files);
    c.final_summary();
}
