//! The container targets' invariants: reading a hostile encrypted or compressed file never
//! panics, takes no more memory than its bound, and whatever reads writes back the same;
//! the streaming `container::Reader` agrees with the whole-file readers.

use crate::invariants::{peak_during, Setup};
use gdvariant::container::{
    compressed, container_error, encrypted, ContainerError, EncryptedLayout, Key, OpenOptions,
    Reader,
};
use std::io::Read;

/// The password of the engine-made fixtures, so that seeds from them decrypt.
pub const FUZZ_PASSWORD: &str = "correct horse";
/// The bound the compressed target reads with: small, so that claims past it are refused.
pub const FUZZ_BOUND: u64 = 1 << 20;

/// `compressed::read` of any bytes: an error or the plain data, within the bound's memory
/// (plus the file and the decompressors' own state); what reads writes and reads back alike.
pub fn check_compressed(_: &Setup, payload: &[u8]) {
    let (read, peak) = peak_during(|| compressed::read(payload, FUZZ_BOUND));
    // A Brotli block's decoder takes its stream's window, up to 16 MiB, whatever the bound.
    let brotli = payload.get(4..8) == Some(&4u32.to_le_bytes()[..]);
    let window = if brotli { 17 << 20 } else { 0 };
    let allowed = FUZZ_BOUND as usize + payload.len() * 2 + (1 << 20) + window;
    assert!(
        peak <= allowed,
        "compressed: {peak} bytes for a {}-byte file",
        payload.len()
    );
    explain_header(payload);
    let (streamed, peak) = peak_during(|| stream(payload, None));
    assert!(
        peak <= allowed,
        "compressed stream: {peak} bytes for a {}-byte file",
        payload.len()
    );
    match (&read, &streamed) {
        // Bytes that are not a compressed file stream through as they are.
        _ if !payload.starts_with(b"GCPF") => {}
        (Ok(a), Ok(b)) => assert!(a == b, "compressed: the stream differs"),
        (Err(_), Ok(_)) => panic!("compressed: the stream reads what read refuses"),
        // The stream refuses a block larger than any compressor makes of its share.
        (Ok(_), Err(e)) => assert!(
            matches!(e, ContainerError::BadBlock { .. }),
            "compressed: the stream refuses what read reads: {e}"
        ),
        (Err(_), Err(_)) => {}
    }
    let Ok(plain) = read else { return };
    let header = compressed::header(payload, FUZZ_BOUND).expect("a file that reads has a header");
    assert_eq!(
        plain.len(),
        header.plain_len as usize,
        "compressed: the length"
    );
    // Brotli is read, not written (as in the engines): its data round-trips in Zstd.
    let mode = match header.mode.written_by_engines() {
        true => header.mode,
        false => compressed::Mode::Zstd,
    };
    let again = compressed::write_with_block_size(&plain, mode, header.block_size)
        .expect("what reads writes");
    assert_eq!(
        compressed::read(&again, FUZZ_BOUND).expect("what we write reads"),
        plain,
        "compressed: round trip"
    );
}

/// `encrypted::read` of any bytes: an error (nearly always the MD5) or the plain data, in no
/// more memory than the file's own size; then the payload as plain data round-trips in both
/// layouts.
pub fn check_encrypted(_: &Setup, payload: &[u8]) {
    let key = Key::password(FUZZ_PASSWORD);
    let (read, peak) = peak_during(|| encrypted::read(payload, &key));
    assert!(
        peak <= payload.len() * 2 + 4096,
        "encrypted: {peak} bytes for a {}-byte file",
        payload.len()
    );
    explain_header(payload);
    // Other containers are the compressed target's (with its bound).
    let (streamed, peak) = match payload.starts_with(b"GDEC") {
        true => peak_during(|| stream(payload, Some(key.clone()))),
        false => (Err(ContainerError::NeedKey), 0),
    };
    assert!(
        peak <= (64 << 10) + payload.len() * 2 + 4096,
        "encrypted stream: {peak} bytes for a {}-byte file",
        payload.len()
    );
    // The stream tells the generation from the header alone, `read` from the length too: when
    // both read the file, they agree.
    if let (Ok(a), Ok(b)) = (&read, &streamed) {
        assert!(a == b, "encrypted: the stream differs");
    }
    if let Ok(plain) = read {
        let header = encrypted::header(payload).expect("a file that reads has a header");
        assert_eq!(
            plain.len() as u64,
            header.plain_len,
            "encrypted: the length"
        );
    }
    for layout in [EncryptedLayout::Godot3, EncryptedLayout::Godot4] {
        let file = encrypted::write(payload, &key, layout, Some([7; 16])).expect("writes");
        assert_eq!(
            encrypted::header(&file).expect("header").layout,
            layout,
            "encrypted: layout"
        );
        assert_eq!(
            encrypted::read(&file, &key).expect("reads"),
            payload,
            "encrypted: round trip"
        );
    }
}

/// The plain data through the streaming reader, or the container error that stopped it.
fn stream(payload: &[u8], key: Option<Key>) -> Result<Vec<u8>, ContainerError> {
    let options = OpenOptions {
        key,
        bound: FUZZ_BOUND,
    };
    let mut plain = Vec::new();
    Reader::new(payload, &options)
        .and_then(|mut r| r.read_to_end(&mut plain))
        .map_err(|e| {
            container_error(&e)
                .expect("a slice reader fails only so")
                .clone()
        })?;
    Ok(plain)
}

/// `explain_container` of any bytes: no panic, and the rows it prints lie inside the file.
fn explain_header(payload: &[u8]) {
    let Some(x) = gdvariant::explain::explain_container(payload, FUZZ_BOUND, 16) else {
        return;
    };
    for line in &x.lines {
        assert!(
            line.offset + line.len <= payload.len(),
            "explain_container: {line:?} past a {}-byte file",
            payload.len()
        );
    }
    let _ = x.to_string();
}
