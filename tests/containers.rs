//! Encrypted and compressed save files offline: the engines' own files (tests/fixtures/
//! containers/, made by tests/containers/godot3.gd and godot4.gd), and hostile input: a wrong
//! password, a flipped byte, a truncated file, decompression bombs, each with its error.

use gdvariant::container::{compressed, encrypted, ContainerError, EncryptedLayout, Key, Mode};
use gdvariant::framing::{frames, Framing};
use gdvariant::{Format, Variant};
use std::sync::atomic::Ordering;

mod peak;
use peak::{LIVE, PEAK};

#[path = "common/containers.rs"]
mod containers_common;
use containers_common::{fixture, MODES, PASSWORD};

fn values(engine: &str, plain: &[u8]) -> Vec<Variant> {
    let format = if engine.starts_with("godot3") {
        Format::godot3()
    } else {
        Format::godot4()
    };
    frames(plain, &format.framing(Framing::STORE_VAR))
        .map(|f| f.unwrap())
        .collect()
}

#[test]
fn the_engines_files_read_and_write_back_byte_for_byte() {
    for (engine, layout) in [
        ("godot3.2.3", EncryptedLayout::Godot3),
        ("godot4.4.1", EncryptedLayout::Godot4),
    ] {
        let plain = fixture(engine, "plain.bin");
        let want = values(engine, &plain);
        assert!(want.len() > 20);
        let file = fixture(engine, "encrypted-pass.bin");
        let (header, data) = encrypted::read_with_header(&file, &Key::password(PASSWORD)).unwrap();
        assert_eq!(header.layout, layout);
        assert_eq!(values(engine, &data), want, "{engine}");
        assert!(
            encrypted::write(&data, &Key::password(PASSWORD), layout, header.iv).unwrap() == file
        );
        for (mode, tag) in MODES {
            for name in [format!("compressed-{tag}.bin"), format!("exact-{tag}.bin")] {
                let file = fixture(engine, &name);
                let data = compressed::read(&file, compressed::DEFAULT_BOUND).unwrap();
                if name.starts_with("compressed") {
                    assert_eq!(values(engine, &data), want, "{engine} {name}");
                } else {
                    assert_eq!(data.len(), 8192);
                }
                let again = compressed::write(&data, mode).unwrap();
                // zstd's bytes differ between its releases: ours is the one Godot 4.3 and 4.4
                // bundle (1.5.6); Godot 3.2.3's older zstd made other bytes for the values.
                if mode != Mode::Zstd || engine == "godot4.4.1" || name.starts_with("exact") {
                    assert!(again == file, "{engine} {name}");
                } else {
                    assert!(again != file, "{engine} {name}: 3.2.3's zstd now matches");
                }
            }
        }
    }
}

/// Zstd from the engine's own plain file (`store_var` of every type, 10 KB) to Godot 4.4.1's
/// `open_compressed(…, COMPRESSION_ZSTD)` file, byte for byte: the same zstd release (1.5.6,
/// thirdparty/zstd of 4.3 and 4.4), level 3, one `ZSTD_compressCCtx` frame per 4 KiB block.
#[test]
fn zstd_files_are_godot_4_4s_bytes() {
    assert_eq!(
        zstd::zstd_safe::version_number(),
        10506,
        "zstd must be 1.5.6, the release Godot 4.3 and 4.4 bundle (Cargo.toml pins it)"
    );
    let plain = fixture("godot4.4.1", "plain.bin");
    let engine = fixture("godot4.4.1", "compressed-zstd.bin");
    let ours = compressed::write(&plain, Mode::Zstd).unwrap();
    assert_eq!(ours.len(), engine.len());
    if let Some(at) = ours.iter().zip(&engine).position(|(a, b)| a != b) {
        panic!("our zstd file differs from Godot 4.4.1's at offset {at:#x}");
    }
}

#[test]
fn a_wrong_password_is_an_error_not_garbage() {
    for engine in ["godot3.2.3", "godot4.4.1"] {
        let file = fixture(engine, "encrypted-pass.bin");
        let err = encrypted::read(&file, &Key::password("Correct horse")).unwrap_err();
        assert!(
            matches!(err, ContainerError::WrongKeyOrDamaged { .. }),
            "{err}"
        );
        assert!(
            err.to_string().starts_with(
                "the MD5 of the decrypted data does not match: wrong password or a damaged file"
            ),
            "{err}"
        );
    }
}

#[test]
fn a_flipped_byte_is_an_error() {
    for engine in ["godot3.2.3", "godot4.4.1"] {
        let file = fixture(engine, "encrypted-pass.bin");
        for at in [40, 1000, file.len() - 20] {
            let mut bad = file.clone();
            bad[at] ^= 0x10;
            let err = encrypted::read(&bad, &Key::password(PASSWORD)).unwrap_err();
            assert!(
                matches!(err, ContainerError::WrongKeyOrDamaged { .. }),
                "{engine} {at}: {err}"
            );
        }
        let file = fixture(engine, "compressed-deflate.bin");
        let mut bad = file.clone();
        bad[60] ^= 0xff;
        assert!(
            compressed::read(&bad, compressed::DEFAULT_BOUND).is_err(),
            "{engine}"
        );
    }
}

#[test]
fn a_truncated_file_is_an_error_with_its_offset() {
    for engine in ["godot3.2.3", "godot4.4.1"] {
        let file = fixture(engine, "encrypted-pass.bin");
        for len in [0, 3, 20, 40, file.len() - 1] {
            let err = encrypted::read(&file[..len], &Key::password(PASSWORD)).unwrap_err();
            assert!(
                matches!(err, ContainerError::Truncated { .. }),
                "{engine} {len}: {err}"
            );
        }
        for (_, tag) in MODES {
            let file = fixture(engine, &format!("compressed-{tag}.bin"));
            for len in [0, 10, 17, file.len() - 5] {
                let err = compressed::read(&file[..len], compressed::DEFAULT_BOUND).unwrap_err();
                assert!(
                    matches!(err, ContainerError::Truncated { .. }),
                    "{engine} {tag} {len}: {err}"
                );
            }
        }
    }
}

/// A header: mode, block size, plain length, then the block table.
fn gcpf(mode: u32, block_size: u32, total: u32, blocks: &[&[u8]]) -> Vec<u8> {
    let mut out = b"GCPF".to_vec();
    for v in [mode, block_size, total] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for b in blocks {
        out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    }
    for b in blocks {
        out.extend_from_slice(b);
    }
    out
}

#[test]
fn bombs_are_refused_before_the_memory_is_taken() {
    // Claims 4 GiB of plain data in a 1 KiB file.
    let mut bomb = gcpf(2, 1 << 30, u32::MAX, &[]);
    bomb.resize(1024, 0);
    let err = compressed::read(&bomb, compressed::DEFAULT_BOUND).unwrap_err();
    assert!(
        matches!(
            err,
            ContainerError::OverBound {
                size: 4294967295,
                ..
            }
        ),
        "{err}"
    );
    // Within the bound but with a block table of a million entries that the file does not hold.
    let mut table = gcpf(2, 16, 16 << 20, &[]);
    table.resize(1024, 0);
    let err = compressed::read(&table, compressed::DEFAULT_BOUND).unwrap_err();
    assert!(matches!(err, ContainerError::Truncated { .. }), "{err}");
    // A zstd block that decompresses to 64 MiB where its share is 100 bytes.
    let big =
        compressed::write_with_block_size(&vec![0u8; 64 << 20], Mode::Zstd, 64 << 20).unwrap();
    let header = compressed::header(&big, u64::MAX).unwrap();
    let packed = big[header.data_offset as usize..][..header.block_sizes[0] as usize].to_vec();
    drop(big);
    assert!(packed.len() < 8192, "{}", packed.len());
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let err =
        compressed::read(&gcpf(2, 4096, 100, &[&packed]), compressed::DEFAULT_BOUND).unwrap_err();
    assert!(
        matches!(err, ContainerError::BadBlock { block: 0, .. }),
        "{err}"
    );
    // The same with deflate and gzip.
    for mode in [Mode::Deflate, Mode::Gzip] {
        let big = compressed::write_with_block_size(&vec![0u8; 1 << 20], mode, 1 << 20).unwrap();
        let header = compressed::header(&big, compressed::DEFAULT_BOUND).unwrap();
        let block = &big[header.data_offset as usize..][..header.block_sizes[0] as usize];
        let err = compressed::read(
            &gcpf(mode.id(), 4096, 100, &[block]),
            compressed::DEFAULT_BOUND,
        )
        .unwrap_err();
        assert!(
            matches!(err, ContainerError::BadBlock { .. }),
            "{mode}: {err}"
        );
    }
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    assert!(peak < 8 << 20, "the bombs took {peak} bytes");
}

#[test]
fn the_caller_sets_the_bound() {
    let data = vec![7u8; 10_000];
    let file = compressed::write(&data, Mode::Zstd).unwrap();
    let err = compressed::read(&file, 5_000).unwrap_err();
    assert!(
        matches!(
            err,
            ContainerError::OverBound {
                offset: 12,
                size: 10_000,
                bound: 5_000
            }
        ),
        "{err}"
    );
    assert_eq!(compressed::read(&file, 20_000).unwrap(), data);
}

#[test]
fn keys_from_hex_and_bytes() {
    let hex = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    let key = Key::from_hex(hex).unwrap();
    assert_eq!(key.aes_key().to_vec(), (0..32).collect::<Vec<u8>>());
    assert!(matches!(
        Key::from_hex("abcd"),
        Err(ContainerError::KeyLength { .. })
    ));
    assert!(matches!(
        Key::raw(&[1; 31]),
        Err(ContainerError::KeyLength { len: 31 })
    ));
    // open_encrypted_with_pass: the MD5 hex digest's 32 ASCII bytes.
    assert_eq!(
        &Key::password("").aes_key(),
        b"d41d8cd98f00b204e9800998ecf8427e"
    );
    for layout in [EncryptedLayout::Godot3, EncryptedLayout::Godot4] {
        for len in [0usize, 1, 15, 16, 17, 100] {
            let plain: Vec<u8> = (0..len as u8).collect();
            let file = encrypted::write(&plain, &key, layout, None).unwrap();
            assert_eq!(file.len(), layout.header_len() + len.div_ceil(16) * 16);
            assert_eq!(encrypted::header(&file).unwrap().layout, layout, "{len}");
            assert_eq!(encrypted::read(&file, &key).unwrap(), plain);
        }
    }
}
