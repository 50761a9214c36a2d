//! The containers' magics, field sizes and per-version layouts, each with its engine source.

// The layouts come from spec/containers.yaml (`cargo codegen`), each with its engine source.
#[rustfmt::skip]
#[allow(dead_code)]
#[path = "../generated/containers.rs"]
mod generated;
pub(crate) use generated::{
    EncryptedFields, COMPRESSED_BLOCK_SIZE_OFFSET, COMPRESSED_LENGTH_OFFSET, COMPRESSED_MAGIC,
    COMPRESSED_MODE_OFFSET, COMPRESSION_MODES, DEFAULT_BLOCK_SIZE, ENCRYPTED_MAGIC,
    ENCRYPTED_PADDING,
};
/// Where a compressed file's block table starts: after the length field.
pub(crate) const COMPRESSED_TABLE_OFFSET: usize = COMPRESSED_LENGTH_OFFSET + 4;

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
    /// The generation's header fields, from the spec.
    pub(crate) fn fields(self) -> EncryptedFields {
        match self {
            EncryptedLayout::Godot3 => generated::ENCRYPTED_GODOT3,
            EncryptedLayout::Godot4 => generated::ENCRYPTED_GODOT4,
        }
    }

    /// The header's size, magic included: 32 (Godot 3) or 44 (Godot 4).
    pub fn header_len(self) -> usize {
        self.fields().header_len
    }

    /// Where the MD5 is.
    pub(crate) fn md5_offset(self) -> usize {
        self.fields().md5
    }

    /// Where the plain length is.
    pub(crate) fn length_offset(self) -> usize {
        self.fields().length
    }

    /// A name for messages: "Godot 3" or "Godot 4".
    pub fn name(self) -> &'static str {
        match self {
            EncryptedLayout::Godot3 => "Godot 3",
            EncryptedLayout::Godot4 => "Godot 4",
        }
    }
}
