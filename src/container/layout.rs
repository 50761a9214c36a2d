//! The containers' magics, field sizes and per-version layouts, each with its engine source.

/// `ENCRYPTED_HEADER_MAGIC` (4.x) / `COMP_MAGIC` (3.x): `0x43454447` stored little-endian.
pub(crate) const ENCRYPTED_MAGIC: &[u8; 4] = b"GDEC";
/// `FileAccess::open_compressed` configures `"GCPF"`, written first and last.
pub(crate) const COMPRESSED_MAGIC: &[u8; 4] = b"GCPF";
/// `FileAccessCompressed::configure`'s default block size, the one `open_compressed` uses.
pub(crate) const DEFAULT_BLOCK_SIZE: u32 = 4096;
/// Godot 3's mode field: `FileAccessEncrypted::MODE_WRITE_AES256`, the only mode written.
pub(crate) const GODOT3_MODE_AES256: u32 = 1;

/// How an encrypted file is laid out and enciphered, by engine generation.
///
/// | generation | header after `GDEC` | cipher |
/// |---|---|---|
/// | Godot 3.0–3.6 | mode `u32` (1), MD5 `[16]`, length `u64` | AES-256-ECB |
/// | Godot 4.0–4.x | MD5 `[16]`, length `u64`, IV `[16]` | AES-256-CFB128 |
///
/// Both pad the data with zeros to a multiple of 16 and store the MD5 of the unpadded
/// plain data. Godot 3.x: core/io/file_access_encrypted.cpp, `open_and_parse` and `close`
/// (`ctx.decrypt_ecb` per 16-byte block, `set_decode_key`); Godot 4.x: the same file,
/// `open_and_parse` and `_close` (`ctx.encrypt_cfb`/`decrypt_cfb` with a random 16-byte IV
/// from `CryptoCore::RandomGenerator`, or the caller's since 4.4's `p_iv`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EncryptedLayout {
    /// Godot 3.x (and Pandemonium): a mode field, no IV, AES-256-ECB.
    Godot3,
    /// Godot 4.x: an IV after the length, AES-256-CFB128.
    Godot4,
}

impl EncryptedLayout {
    /// The header's size, magic included: 32 (Godot 3) or 44 (Godot 4).
    pub fn header_len(self) -> usize {
        match self {
            EncryptedLayout::Godot3 => 4 + 4 + 16 + 8,
            EncryptedLayout::Godot4 => 4 + 16 + 8 + 16,
        }
    }

    /// Where the MD5 is.
    pub(crate) fn md5_offset(self) -> usize {
        match self {
            EncryptedLayout::Godot3 => 8,
            EncryptedLayout::Godot4 => 4,
        }
    }

    /// Where the plain length is.
    pub(crate) fn length_offset(self) -> usize {
        self.md5_offset() + 16
    }

    /// A name for messages: "Godot 3" or "Godot 4".
    pub fn name(self) -> &'static str {
        match self {
            EncryptedLayout::Godot3 => "Godot 3",
            EncryptedLayout::Godot4 => "Godot 4",
        }
    }
}
