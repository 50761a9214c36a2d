//! Reading 100 MB save files in each container: encrypted (Godot 3 ECB, Godot 4 CFB) and
//! compressed (FastLZ, Deflate, Zstd, GZIP); throughput in bytes of plain data, on one core.
//!
//! `cargo bench --features containers --bench containers`. The plain data is the engine's
//! Godot 3 savegame (`tests/fixtures/godot3/streams/savegame.sav`, six `store_var` frames)
//! repeated to 100 MB, made here, not stored. Each timing covers the whole read, from the
//! file's bytes in memory to the plain `Vec`, freeing that `Vec` included. The `stage` group
//! times the encrypted read's parts alone (AES-256 ECB and CFB over the whole buffer in place,
//! MD5, a copy), to show which one bounds it.
//!
//! Then the engines read the same files, when they are here: Godot 4.4.1 (`GODOT4_4`, from
//! `eval "$(../shared/engines/install.sh --env)"`) runs `tests/containers/bench_godot4.gd`
//! and Godot 3.2.3 (`GODOT3`, else `godot3-server` on the PATH) `bench_godot3.gd`: open,
//! then `get_buffer` of the whole length, timed inside the engine.

use aes::cipher::{generic_array::GenericArray, inout::InOutBuf, AsyncStreamCipher};
use aes::cipher::{BlockDecrypt, KeyInit, KeyIvInit};
use criterion::{black_box, Criterion, Throughput};
use gdvariant::container::{compressed, encrypted, EncryptedLayout, Key, Mode};
use md5::{Digest, Md5};
use std::path::Path;
use std::time::Instant;

#[path = "common/savegame.rs"]
mod savegame;

const SIZE: usize = 100_000_000;
/// No spaces: the engine scripts split their list on them.
const PASSWORD: &str = "correct-horse";
const MODES: [Mode; 4] = [Mode::FastLz, Mode::Deflate, Mode::Zstd, Mode::Gzip];

struct File {
    name: String,
    bytes: Vec<u8>,
    plain: usize,
    /// How the engine scripts open it: `pass <password>` or the mode's number.
    how: String,
    /// The generation that reads it: 3, 4, or 0 for both.
    generation: u8,
}

fn files(plain: &[u8]) -> Vec<File> {
    let key = Key::password(PASSWORD);
    let mut files = Vec::new();
    for (layout, generation) in [(EncryptedLayout::Godot3, 3), (EncryptedLayout::Godot4, 4)] {
        files.push(File {
            name: format!("encrypted_godot{generation}"),
            bytes: encrypted::write(plain, &key, layout, None).unwrap(),
            plain: plain.len(),
            how: format!("pass {PASSWORD}"),
            generation,
        });
    }
    for mode in MODES {
        files.push(File {
            name: format!("compressed_{}", mode.name().to_lowercase()),
            bytes: compressed::write(plain, mode).unwrap(),
            plain: plain.len(),
            how: mode.id().to_string(),
            generation: 0,
        });
    }
    files
}

fn read(file: &File) -> usize {
    if file.name.starts_with("encrypted") {
        encrypted::read(black_box(&file.bytes), &Key::password(PASSWORD))
            .unwrap()
            .len()
    } else {
        compressed::read(black_box(&file.bytes), u64::MAX)
            .unwrap()
            .len()
    }
}

/// The encrypted read's parts alone, each over the whole 100 MB.
fn stages(c: &mut Criterion, plain: &[u8]) {
    let key = Key::password(PASSWORD).aes_key();
    let mut group = c.benchmark_group("stage_100mb");
    group.throughput(Throughput::Bytes(plain.len() as u64));
    let mut buf = plain[..plain.len() / 16 * 16].to_vec();
    group.bench_function("aes256_ecb_decrypt", |b| {
        let aes = aes::Aes256::new(GenericArray::from_slice(&key));
        b.iter(|| {
            let (blocks, _) = InOutBuf::from(&mut buf[..]).into_chunks();
            aes.decrypt_blocks_inout(blocks);
        })
    });
    group.bench_function("aes256_cfb_decrypt", |b| {
        b.iter(|| {
            cfb_mode::Decryptor::<aes::Aes256>::new(&key.into(), &[7u8; 16].into())
                .decrypt(&mut buf);
        })
    });
    group.bench_function("md5", |b| b.iter(|| Md5::digest(black_box(plain))));
    group.bench_function("copy", |b| b.iter(|| black_box(plain).to_vec()));
    group.finish();
}

/// One engine's time for each file it reads, when the engine is here.
fn engine_times(files: &[File], generation: u8) {
    let (var, script, project, label) = match generation {
        3 => (
            "GODOT3",
            "bench_godot3.gd",
            "config_version=4\n",
            "godot 3.2.3",
        ),
        _ => (
            "GODOT4_4",
            "bench_godot4.gd",
            "config_version=5\n",
            "godot 4.4.1",
        ),
    };
    let bin = match std::env::var_os(var) {
        Some(bin) => bin.into(),
        None if generation == 3 && Path::new("/usr/bin/godot3-server").exists() => {
            std::path::PathBuf::from("/usr/bin/godot3-server")
        }
        None => {
            println!("notice: {var} not set; {label}'s times are not measured");
            return;
        }
    };
    let dir = std::env::temp_dir().join(format!(
        "gdvariant-bench-containers-{}-{generation}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("project.godot"), project).unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/containers");
    std::fs::copy(source.join(script), dir.join("bench.gd")).unwrap();
    let mut list = String::new();
    for file in files
        .iter()
        .filter(|f| f.generation == 0 || f.generation == generation)
    {
        std::fs::write(dir.join(format!("{}.bin", file.name)), &file.bytes).unwrap();
        list.push_str(&format!("{}.bin {}\n", file.name, file.how));
    }
    std::fs::write(dir.join("list.txt"), list).unwrap();
    let mut command = std::process::Command::new("timeout");
    command.arg("900").arg(bin).arg("--path").arg(&dir);
    if generation == 3 {
        command.args(["-s", "res://bench.gd"]);
    } else {
        command.args(["--headless", "--script", "res://bench.gd"]);
    }
    let out = command.env("READ_DIR", &dir).output().unwrap();
    let text = std::fs::read_to_string(dir.join("times.txt")).unwrap_or_default();
    for line in text.lines() {
        let parts: Vec<&str> = line.split(' ').collect();
        match parts[..] {
            [name, usec, len] if usec != "FAIL" => {
                let (usec, len): (f64, f64) = (usec.parse().unwrap(), len.parse().unwrap());
                println!(
                    "{label} {name}: {:.1} ms, {:.0} MB/s of plain data",
                    usec / 1e3,
                    len / usec
                );
            }
            _ => println!("{label}: {line}"),
        }
    }
    if text.is_empty() {
        println!(
            "{label} wrote no times: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() {
    let plain = savegame::savegame(SIZE);
    let files = files(&plain);
    let mut c = Criterion::default().configure_from_args().sample_size(10);
    let mut group = c.benchmark_group("read_100mb");
    for file in &files {
        group.throughput(Throughput::Bytes(file.plain as u64));
        group.bench_function(file.name.as_str(), |b| b.iter(|| read(file)));
    }
    group.finish();
    stages(&mut c, &plain);
    // One plain timing per file beside the engines', for the same bytes.
    for file in &files {
        let start = Instant::now();
        assert_eq!(read(file), file.plain);
        let usec = start.elapsed().as_secs_f64() * 1e6;
        println!(
            "gdvariant {}: {:.1} ms, {:.0} MB/s of plain data",
            file.name,
            usec / 1e3,
            file.plain as f64 / usec
        );
    }
    engine_times(&files, 4);
    engine_times(&files, 3);
    c.final_summary();
}
