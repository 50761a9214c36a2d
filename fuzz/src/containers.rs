//! The container targets' invariants: reading a hostile encrypted or compressed file never
//! panics, takes no more memory than its bound, and whatever reads writes back the same.

use crate::invariants::{peak_during, Setup};
use gdvariant::container::{compressed, encrypted, EncryptedLayout, Key};

/// The password of the engine-made fixtures, so that seeds from them decrypt.
pub const FUZZ_PASSWORD: &str = "correct horse";
/// The bound the compressed target reads with: small, so that claims past it are refused.
pub const FUZZ_BOUND: u64 = 1 << 20;

/// `compressed::read` of any bytes: an error or the plain data, within the bound's memory
/// (plus the file and the decompressors' own state); what reads writes and reads back alike.
pub fn check_compressed(_: &Setup, payload: &[u8]) {
    let (read, peak) = peak_during(|| compressed::read(payload, FUZZ_BOUND));
    let allowed = FUZZ_BOUND as usize + payload.len() * 2 + (1 << 20);
    assert!(
        peak <= allowed,
        "compressed: {peak} bytes for a {}-byte file",
        payload.len()
    );
    let Ok(plain) = read else { return };
    let header = compressed::header(payload, FUZZ_BOUND).expect("a file that reads has a header");
    assert_eq!(
        plain.len(),
        header.plain_len as usize,
        "compressed: the length"
    );
    let again = compressed::write_with_block_size(&plain, header.mode, header.block_size)
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
