//! Brotli compressed files (mode 4, which Godot 4 reads and nothing writes): blocks made by an
//! independent encoder (the `brotli` crate) read whole and streamed, and damaged or bomb
//! blocks refused within bounded memory.

use gdvariant::container::{compressed, ContainerError, OpenOptions, Reader};
use std::io::Read;
use std::sync::atomic::Ordering;

mod peak;
use peak::{LIVE, PEAK};

fn brotli(data: &[u8]) -> Vec<u8> {
    brotli_at(data, brotli::enc::BrotliEncoderParams::default().quality)
}

fn brotli_at(data: &[u8], quality: i32) -> Vec<u8> {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &data[..], &mut out, &params).unwrap();
    out
}

/// A compressed file laid out as `FileAccessCompressed::_close` lays it out, each block's
/// bytes from `pack`.
fn gcpf(plain: &[u8], block: usize, pack: impl Fn(&[u8]) -> Vec<u8>) -> Vec<u8> {
    let count = plain.len() / block + 1;
    let blocks: Vec<Vec<u8>> = (0..count)
        .map(|i| {
            let from = (i * block).min(plain.len());
            pack(&plain[from..(from + block).min(plain.len())])
        })
        .collect();
    let mut out = b"GCPF".to_vec();
    for v in [4, block as u32, plain.len() as u32] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for b in &blocks {
        out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    }
    for b in &blocks {
        out.extend_from_slice(b);
    }
    out.extend_from_slice(b"GCPF");
    out
}

fn stream(file: &[u8]) -> Result<Vec<u8>, ContainerError> {
    let mut plain = Vec::new();
    Reader::new(file, &OpenOptions::default())
        .and_then(|mut r| r.read_to_end(&mut plain))
        .map_err(|e| gdvariant::container::container_error(&e).unwrap().clone())?;
    Ok(plain)
}

#[test]
fn brotli_blocks_from_another_encoder_read() {
    let plain = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/containers/godot4.4.1/plain.bin"
    ))
    .unwrap();
    for (data, block) in [
        (plain.clone(), 4096),
        (plain[..8192].to_vec(), 4096), // an empty last block
        (plain.clone(), 1000),
        (Vec::new(), 4096),
    ] {
        let file = gcpf(&data, block, brotli);
        let header = compressed::header(&file, compressed::DEFAULT_BOUND).unwrap();
        assert_eq!(header.mode, compressed::Mode::Brotli);
        assert_eq!(
            compressed::read(&file, compressed::DEFAULT_BOUND).unwrap(),
            data
        );
        assert_eq!(stream(&file).unwrap(), data);
    }
    // We read Brotli; like the engines, we do not write it.
    assert!(compressed::write(&plain, compressed::Mode::Brotli).is_err());
}

#[test]
fn damaged_and_bomb_brotli_blocks_are_refused() {
    let plain: Vec<u8> = (0..10_000u32).map(|i| (i * 7 % 253) as u8).collect();
    let file = gcpf(&plain, 4096, brotli);
    let header = compressed::header(&file, compressed::DEFAULT_BOUND).unwrap();
    let first = header.data_offset as usize;
    // A block cut short.
    let cut = gcpf(&plain, 4096, |b| {
        let p = brotli(b);
        p[..p.len() / 2].to_vec()
    });
    let bad = cut;
    let err = compressed::read(&bad, compressed::DEFAULT_BOUND).unwrap_err();
    assert!(
        matches!(err, ContainerError::BadBlock { block: 0, .. }),
        "{err}"
    );
    assert_eq!(stream(&bad).unwrap_err(), err);
    // A changed byte: an error, or (a changed literal) other bytes, never a panic.
    for at in [first, first + 3, first + 40] {
        let mut bad = file.clone();
        bad[at] ^= 0x55;
        let read = compressed::read(&bad, compressed::DEFAULT_BOUND);
        assert_eq!(stream(&bad), read);
        if let Ok(data) = read {
            assert_eq!(data.len(), plain.len());
        }
    }
    // A block whose stream makes 16 MiB where its share is 100 bytes.
    let bomb = brotli_at(&vec![0u8; 16 << 20], 9);
    assert!(bomb.len() < 4096, "{}", bomb.len());
    let mut file = b"GCPF".to_vec();
    for v in [4u32, 4096, 100, bomb.len() as u32] {
        file.extend_from_slice(&v.to_le_bytes());
    }
    file.extend_from_slice(&bomb);
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let err = compressed::read(&file, compressed::DEFAULT_BOUND).unwrap_err();
    assert!(
        matches!(err, ContainerError::BadBlock { block: 0, .. }),
        "{err}"
    );
    assert_eq!(stream(&file).unwrap_err(), err);
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    // The decoder's window (the encoder's default, 4 MiB) and buffers; never the 16 MiB.
    assert!(peak < 8 << 20, "the bomb took {peak} bytes");
}
