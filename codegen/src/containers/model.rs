//! The checked container model: offsets computed, names and ciphers known.

/// Every container layout.
pub struct Containers {
    /// `GDEC`.
    pub encrypted_magic: [u8; 4],
    /// The padding of the enciphered data.
    pub padding: u32,
    /// Each generation's encrypted layout.
    pub layouts: Vec<EncryptedLayout>,
    /// `GCPF`.
    pub compressed_magic: [u8; 4],
    /// The versions the compressed layout stands for.
    pub compressed_versions: String,
    /// Where the compressed layout comes from.
    pub compressed_source: String,
    /// `open_compressed`'s block size.
    pub default_block_size: u32,
    /// The header's fields: (name, offset, size).
    pub compressed_fields: Vec<(String, u32, u32)>,
    /// (id, name, whether the engines write it).
    pub modes: Vec<(u32, String, bool)>,
}

/// One generation's encrypted layout.
pub struct EncryptedLayout {
    /// `Godot3`, `Godot4`.
    pub name: String,
    /// The versions it stands for.
    pub versions: String,
    /// `true` for CFB128 with an IV, `false` for ECB.
    pub cfb: bool,
    /// Where it comes from.
    pub source: String,
    /// The header's size.
    pub header_len: u32,
    /// (offset, value) of the mode field, when there is one.
    pub mode: Option<(u32, u32)>,
    /// Offset of the MD5.
    pub md5: u32,
    /// Offset of the length.
    pub length: u32,
    /// Offset of the IV, when there is one.
    pub iv: Option<u32>,
}
