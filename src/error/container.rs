//! Errors of the byte containers (encrypted `GDEC`, compressed `GCPF` files), with offsets.

/// Why an encrypted or compressed file could not be opened or written. Every variant that
/// comes from the file's bytes carries the absolute byte offset of the field that failed.
///
/// ```
/// use gdvariant::container::{encrypted, EncryptedLayout, Key};
/// let file = encrypted::write(b"save", &Key::password("right"), EncryptedLayout::Godot4, None)?;
/// let err = encrypted::read(&file, &Key::password("wrong")).unwrap_err();
/// assert!(err.to_string().contains("wrong password or a damaged file"));
/// # Ok::<(), gdvariant::ContainerError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ContainerError {
    /// The file ends inside its header, block table or data.
    #[error("the file ends at {len} bytes where {needed} are needed (at offset {offset:#x})")]
    Truncated {
        /// Where the field that does not fit starts.
        offset: u64,
        /// How many bytes the field needs from `offset` on.
        needed: u64,
        /// The file's length.
        len: u64,
    },
    /// The first four bytes are not the container's magic.
    #[error("not {expected} (the file starts with {found:?}) (at offset 0x0)")]
    BadMagic {
        /// What was looked for (`GDEC`, `GCPF`).
        expected: &'static str,
        /// The four bytes found, lossily as text.
        found: String,
    },
    /// The MD5 of the decrypted data differs from the one stored in the header.
    #[error("the MD5 of the decrypted data does not match: wrong password or a damaged file (at offset {offset:#x})")]
    WrongKeyOrDamaged {
        /// The stored MD5's offset.
        offset: u64,
    },
    /// A Godot 3 encrypted file names a mode the engine does not know.
    #[error("unknown encryption mode {mode} (at offset {offset:#x})")]
    UnknownEncryptionMode {
        /// The field's offset.
        offset: u64,
        /// The mode found (the engine writes 1, AES-256).
        mode: u32,
    },
    /// A compressed file names a compression mode no engine writes.
    #[error("unknown compression mode {mode} (at offset {offset:#x})")]
    UnknownCompressionMode {
        /// The field's offset.
        offset: u64,
        /// The mode found.
        mode: u32,
    },
    /// A compression mode that this build reads but cannot write (Brotli), or cannot read.
    #[error("{mode} is not supported here: {why} (at offset {offset:#x})")]
    Unsupported {
        /// The mode field's offset.
        offset: u64,
        /// The mode's name.
        mode: &'static str,
        /// What is missing.
        why: &'static str,
    },
    /// A compressed file's block size is 0 (the engine refuses it too).
    #[error("block size 0 (at offset {offset:#x})")]
    ZeroBlockSize {
        /// The field's offset.
        offset: u64,
    },
    /// The plain data would be larger than the bound the caller set.
    #[error("the data would decompress to {size} bytes, over the bound of {bound} (at offset {offset:#x}); raise the bound to read it")]
    OverBound {
        /// The length field's offset.
        offset: u64,
        /// The size the file claims.
        size: u64,
        /// The caller's bound.
        bound: u64,
    },
    /// A compressed block does not decompress to the size the block table implies.
    #[error("block {block} is damaged: {why} (at offset {offset:#x})")]
    BadBlock {
        /// The block's first byte.
        offset: u64,
        /// The block's index.
        block: u32,
        /// What the decompressor said.
        why: String,
    },
    /// An encrypted file was given without a key.
    #[error("the file is encrypted: give its password or key (at offset 0x0)")]
    NeedKey,
    /// A key given as bytes is not 32 bytes long.
    #[error("an AES-256 key is 32 bytes, not {len}")]
    KeyLength {
        /// The length given.
        len: usize,
    },
    /// Writing failed: the data is too large for the container's length fields, or the
    /// compressor failed.
    #[error("cannot write the container: {why}")]
    Write {
        /// Why.
        why: String,
    },
}
