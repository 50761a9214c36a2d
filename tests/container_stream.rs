//! The streaming container reader and writer: the engines' own files (tests/fixtures/
//! containers/) read through `container::Reader` to the values `open` gives, the writer makes
//! the engines' bytes, and hostile files fail with bounded memory and their offsets.

use gdvariant::container::{
    compressed, container_error, encrypted, Container, ContainerError, ContainerKind,
    EncryptedLayout, Key, Mode, OpenOptions, Reader, Writer,
};
use gdvariant::framing::{frames, FrameReader, Framing};
use gdvariant::{from_reader, to_writer, Format, Variant};
use std::io::{self, Read, Write};
use std::sync::atomic::Ordering;

mod peak;
use peak::{LIVE, PEAK};

#[path = "common/containers.rs"]
mod containers_common;
use containers_common::{fixture, MODES, PASSWORD};

const ENGINES: [&str; 2] = ["godot3.2.3", "godot4.4.1"];

fn format(engine: &str) -> Format {
    let format = if engine.starts_with("godot3") {
        Format::godot3()
    } else {
        Format::godot4()
    };
    format.framing(Framing::STORE_VAR)
}

fn options() -> OpenOptions {
    OpenOptions {
        key: Some(Key::password(PASSWORD)),
        ..OpenOptions::default()
    }
}

/// Hands out at most a few bytes a read, so that every boundary is crossed mid-field.
struct Trickle<'a>(&'a [u8], usize);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.1 = self.1 % 7 + 1;
        let n = self.1.min(buf.len()).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// The values `open` + `frames` give: today's way, the reference.
fn opened_values(engine: &str, file: &[u8]) -> Vec<Variant> {
    let plain = gdvariant::container::open(file, &options()).unwrap();
    frames(&plain, &format(engine))
        .map(|f| f.unwrap())
        .collect()
}

fn streamed_values(engine: &str, file: &[u8]) -> Vec<Variant> {
    let mut reader = Reader::new(Trickle(file, 0), &options()).unwrap();
    let values = FrameReader::new(&mut reader, &format(engine))
        .map(|f| f.unwrap())
        .collect();
    reader.finish().unwrap();
    values
}

#[test]
fn the_engines_files_stream_to_the_values_open_gives() {
    for engine in ENGINES {
        let plain = fixture(engine, "plain.bin");
        let want = opened_values(engine, &plain);
        assert!(want.len() > 20, "{engine}");
        assert_eq!(streamed_values(engine, &plain), want, "{engine} plain");
        let file = fixture(engine, "encrypted-pass.bin");
        assert_eq!(opened_values(engine, &file), want);
        assert_eq!(streamed_values(engine, &file), want, "{engine} encrypted");
        let reader = Reader::new(&file[..], &options()).unwrap();
        assert_eq!(reader.kind(), Some(ContainerKind::Encrypted));
        assert_eq!(
            reader.layout(),
            Some(encrypted::header(&file).unwrap().layout)
        );
        assert_eq!(reader.plain_len(), Some(plain.len() as u64));
        for (_, tag) in MODES {
            let file = fixture(engine, &format!("compressed-{tag}.bin"));
            assert_eq!(opened_values(engine, &file), want);
            assert_eq!(streamed_values(engine, &file), want, "{engine} {tag}");
            // The 8 KiB files whose length is a multiple of the block size (an empty last block).
            let exact = fixture(engine, &format!("exact-{tag}.bin"));
            let mut bytes = Vec::new();
            Reader::new(&exact[..], &options())
                .unwrap()
                .read_to_end(&mut bytes)
                .unwrap();
            assert_eq!(
                bytes,
                compressed::read(&exact, compressed::DEFAULT_BOUND).unwrap()
            );
        }
    }
}

#[test]
fn the_writer_makes_the_engines_bytes() {
    for (engine, layout) in [
        ("godot3.2.3", EncryptedLayout::Godot3),
        ("godot4.4.1", EncryptedLayout::Godot4),
    ] {
        let file = fixture(engine, "encrypted-pass.bin");
        let plain = encrypted::read(&file, &Key::password(PASSWORD)).unwrap();
        let iv = encrypted::header(&file).unwrap().iv;
        let container = Container::Encrypted {
            key: Key::password(PASSWORD),
            layout,
            iv,
        };
        // Written in pieces, as a game's save loop stores values.
        let mut writer = Writer::new(Vec::new(), container).unwrap();
        for piece in plain.chunks(100) {
            writer.write_all(piece).unwrap();
        }
        assert!(writer.finish().unwrap() == file, "{engine} encrypted");
        for (mode, tag) in MODES {
            for name in [format!("compressed-{tag}.bin"), format!("exact-{tag}.bin")] {
                let file = fixture(engine, &name);
                let data = compressed::read(&file, compressed::DEFAULT_BOUND).unwrap();
                let mut writer = Writer::new(Vec::new(), Container::compressed(mode)).unwrap();
                for piece in data.chunks(1000) {
                    writer.write_all(piece).unwrap();
                }
                let ours = writer.finish().unwrap();
                assert!(
                    ours == compressed::write(&data, mode).unwrap(),
                    "{engine} {name}"
                );
                // zstd's bytes differ between its releases; the others are the engine's.
                if mode != Mode::Zstd {
                    assert!(ours == file, "{engine} {name}");
                }
            }
        }
    }
}

#[test]
fn typed_values_round_trip_through_every_container() {
    let format = Format::godot4().framing(Framing::STORE_VAR);
    let mut containers = vec![
        Container::Plain,
        Container::password(PASSWORD, EncryptedLayout::Godot3),
        Container::password(PASSWORD, EncryptedLayout::Godot4),
    ];
    containers.extend(MODES.iter().map(|&(mode, _)| Container::Compressed {
        mode,
        block_size: 64,
    }));
    let value: Vec<String> = (0..50).map(|i| format!("line {i}")).collect();
    for container in containers {
        let mut writer = Writer::new(Vec::new(), container.clone()).unwrap();
        to_writer(&mut writer, &value, &format).unwrap();
        let file = writer.finish().unwrap();
        let back: Vec<String> = from_reader(Reader::new(&file[..], &options()).unwrap(), &format)
            .unwrap_or_else(|e| panic!("{container:?}: {e}"));
        assert_eq!(back, value, "{container:?}");
    }
    assert!(matches!(
        Writer::new(Vec::new(), Container::compressed(Mode::Brotli)),
        Err(ContainerError::Write { .. })
    ));
}

/// Reads to the end, returning the container error that stopped it.
#[track_caller]
fn read_error(file: &[u8], options: &OpenOptions) -> ContainerError {
    let err = match Reader::new(file, options) {
        Ok(mut reader) => io::copy(&mut reader, &mut io::sink()).unwrap_err(),
        Err(e) => e,
    };
    container_error(&err)
        .unwrap_or_else(|| panic!("not a container error: {err}"))
        .clone()
}

#[test]
fn a_wrong_password_or_a_flipped_byte_fails_the_read_that_reaches_the_end() {
    for engine in ENGINES {
        let file = fixture(engine, "encrypted-pass.bin");
        let wrong = OpenOptions {
            key: Some(Key::password("Correct horse")),
            ..OpenOptions::default()
        };
        let err = read_error(&file, &wrong);
        assert!(
            matches!(err, ContainerError::WrongKeyOrDamaged { .. }),
            "{engine}: {err}"
        );
        for at in [40, file.len() - 20] {
            let mut bad = file.clone();
            bad[at] ^= 0x10;
            let err = read_error(&bad, &options());
            assert!(
                matches!(err, ContainerError::WrongKeyOrDamaged { .. }),
                "{engine} {at}: {err}"
            );
        }
        let err = read_error(&file, &OpenOptions::default());
        assert_eq!(err, ContainerError::NeedKey);
    }
    // In a file of several chunks the front reads before the end is checked; finish() and
    // the read that reaches the end report it.
    let plain: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
    for layout in [EncryptedLayout::Godot3, EncryptedLayout::Godot4] {
        let mut bad = encrypted::write(&plain, &Key::password(PASSWORD), layout, None).unwrap();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        let mut reader = Reader::new(&bad[..], &options()).unwrap();
        let mut front = vec![0u8; 100_000];
        reader.read_exact(&mut front).unwrap();
        assert_eq!(front, plain[..100_000]);
        let err = reader.finish().unwrap_err();
        assert!(matches!(
            container_error(&err),
            Some(ContainerError::WrongKeyOrDamaged { .. })
        ));
    }
    // An empty file is checked too: its MD5 is that of no bytes (whatever the key).
    let mut empty =
        encrypted::write(b"", &Key::password("a"), EncryptedLayout::Godot4, None).unwrap();
    let mut none = Vec::new();
    let reader = Reader::new(&empty[..], &options());
    reader.unwrap().read_to_end(&mut none).unwrap();
    empty[4] ^= 1;
    let err = read_error(&empty, &options());
    assert!(matches!(
        err,
        ContainerError::WrongKeyOrDamaged { offset: 4 }
    ));
}

#[test]
fn a_truncated_or_damaged_file_is_an_error_with_its_offset() {
    for engine in ENGINES {
        let file = fixture(engine, "encrypted-pass.bin");
        for len in [5, 20, 40, file.len() - 1] {
            let err = read_error(&file[..len], &options());
            assert!(
                matches!(err, ContainerError::Truncated { .. }),
                "{engine} {len}: {err}"
            );
        }
        for (_, tag) in MODES {
            let file = fixture(engine, &format!("compressed-{tag}.bin"));
            for len in [10, 17, file.len() - 5] {
                let err = read_error(&file[..len], &options());
                match err {
                    ContainerError::Truncated { len: at, .. } => assert_eq!(at, len as u64),
                    other => panic!("{engine} {tag} {len}: {other}"),
                }
            }
            let mut bad = file.clone();
            let header = compressed::header(&file, compressed::DEFAULT_BOUND).unwrap();
            bad[header.data_offset as usize + 2] ^= 0xff;
            // A damaged block reads as `compressed::read` reads it: the same error, or (a
            // changed literal) the same bytes.
            let mut ours = Vec::new();
            let ours = Reader::new(&bad[..], &options())
                .unwrap()
                .read_to_end(&mut ours)
                .map(|_| ours)
                .map_err(|e| container_error(&e).unwrap().clone());
            let theirs = compressed::read(&bad, compressed::DEFAULT_BOUND);
            assert_eq!(ours, theirs, "{engine} {tag}");
        }
    }
}

/// A 1 KiB compressed header: mode, block size, plain length, then zeros.
fn gcpf_1k(mode: u32, block_size: u32, total: u32, first_block: Option<u32>) -> Vec<u8> {
    let mut out = b"GCPF".to_vec();
    for v in [mode, block_size, total] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    if let Some(size) = first_block {
        out.extend_from_slice(&size.to_le_bytes());
    }
    out.resize(1024, 0);
    out
}

#[test]
fn hostile_1k_files_take_little_memory() {
    let bound = compressed::DEFAULT_BOUND;
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    // 64 MiB in blocks of one byte: a table of 256 MiB that the file does not hold.
    let err = read_error(&gcpf_1k(2, 1, bound as u32, None), &options());
    assert!(
        matches!(err, ContainerError::Truncated { offset: 16, .. }),
        "{err}"
    );
    // One block of 64 MiB whose compressed size claims 4 GiB.
    let err = read_error(&gcpf_1k(1, 64 << 20, 64 << 20, Some(u32::MAX)), &options());
    assert!(
        matches!(err, ContainerError::BadBlock { offset: 24, .. }),
        "{err}"
    );
    // ...or a plausible 70 MiB that the file does not hold.
    let err = read_error(&gcpf_1k(1, 64 << 20, 64 << 20, Some(70 << 20)), &options());
    assert!(matches!(err, ContainerError::Truncated { .. }), "{err}");
    // Over the bound.
    let err = read_error(&gcpf_1k(2, 4096, u32::MAX, None), &options());
    assert!(matches!(err, ContainerError::OverBound { .. }), "{err}");
    // An encrypted file that claims 2^64 - 1 bytes.
    let mut gdec = b"GDEC".to_vec();
    gdec.extend_from_slice(&[9; 16]);
    gdec.extend_from_slice(&u64::MAX.to_le_bytes());
    gdec.resize(1024, 0);
    let err = read_error(&gdec, &options());
    assert!(matches!(err, ContainerError::Truncated { .. }), "{err}");
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    // Buffers grow as bytes arrive: the files' claims (256 MiB, 4 GiB, 70 MiB) take nothing.
    assert!(peak < 1 << 20, "the hostile files took {peak} bytes");
}
