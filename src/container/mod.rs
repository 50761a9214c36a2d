//! The byte containers of save files: `FileAccess.open_encrypted*` (`GDEC`) and
//! `open_compressed` (`GCPF`) files, Godot 3 and Godot 4 (feature `containers`).
//!
//! They turn bytes into bytes and know nothing of values: read the plain data here, then the
//! values in it with [`framing::frames`](crate::framing::frames) or [`from_slice`](crate::from_slice).
//! As streams: [`Reader`] reads a file of any kind (plain, compressed or encrypted) as its
//! plain data, and [`Writer`] seals what is written into a [`Container`], so that
//! [`FrameReader`](crate::framing::FrameReader), [`from_reader`](crate::from_reader) and
//! [`to_writer`](crate::to_writer) work on save files of every kind.
//!
//! ```
//! use gdvariant::container::{compressed, encrypted, EncryptedLayout, Key, Mode};
//! let plain = b"\x08\x00\x00\x00\x02\x00\x00\x00\x2a\x00\x00\x00"; // store_var(42)
//! let file = encrypted::write(plain, &Key::password("secret"), EncryptedLayout::Godot4, None)?;
//! assert_eq!(encrypted::read(&file, &Key::password("secret"))?, plain);
//! let file = compressed::write(plain, Mode::Zstd)?;
//! assert_eq!(compressed::read(&file, compressed::DEFAULT_BOUND)?, plain);
//! # Ok::<(), gdvariant::ContainerError>(())
//! ```

mod brotli;
mod codecs;
pub mod compressed;
pub mod encrypted;
mod fastlz;
mod layout;
mod reader;
mod writer;

pub use crate::error::ContainerError;
pub use compressed::Mode;
pub use layout::EncryptedLayout;
use layout::{COMPRESSED_MAGIC, ENCRYPTED_MAGIC};
use md5::{Digest, Md5};
pub use reader::{container_error, Reader};
pub use writer::{Container, Writer};

/// The key of an encrypted file.
#[derive(Clone, PartialEq, Eq)]
pub enum Key {
    /// `open_encrypted_with_pass(path, mode, pass)`: the key is the 32 ASCII bytes of the MD5
    /// hex digest of the password's UTF-8 (`String::md5_text`, lowercase), in both generations
    /// (`FileAccessEncrypted::open_and_parse_password`).
    Password(String),
    /// `open_encrypted(path, mode, key)`: the 32 bytes as given.
    Raw([u8; 32]),
}

impl Key {
    /// A password, as `open_encrypted_with_pass` takes it.
    pub fn password(password: impl Into<String>) -> Key {
        Key::Password(password.into())
    }

    /// A raw key of 32 bytes, as `open_encrypted` takes it.
    pub fn raw(bytes: &[u8]) -> Result<Key, ContainerError> {
        let key: [u8; 32] = bytes
            .try_into()
            .map_err(|_| ContainerError::KeyLength { len: bytes.len() })?;
        Ok(Key::Raw(key))
    }

    /// A raw key written as 64 hexadecimal digits.
    pub fn from_hex(hex: &str) -> Result<Key, ContainerError> {
        let hex = hex.trim();
        let bad = ContainerError::KeyLength { len: hex.len() / 2 };
        if hex.len() != 64 || !hex.is_ascii() {
            return Err(bad);
        }
        let mut key = [0u8; 32];
        for (i, byte) in key.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&hex[i * 2..i * 2 + 2], 16).map_err(|_| bad.clone())?;
        }
        Ok(Key::Raw(key))
    }

    /// The 32 bytes given to AES-256.
    pub fn aes_key(&self) -> [u8; 32] {
        match self {
            Key::Raw(key) => *key,
            Key::Password(password) => {
                let digest = Md5::digest(password.as_bytes());
                let mut key = [0u8; 32];
                const HEX: &[u8; 16] = b"0123456789abcdef";
                for (i, byte) in digest.iter().enumerate() {
                    key[i * 2] = HEX[usize::from(byte >> 4)];
                    key[i * 2 + 1] = HEX[usize::from(byte & 15)];
                }
                key
            }
        }
    }
}

impl std::fmt::Debug for Key {
    // A key is a secret: debug output does not show it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Key::Password(_) => f.write_str("Key::Password(..)"),
            Key::Raw(_) => f.write_str("Key::Raw(..)"),
        }
    }
}

/// Which container the bytes are, from their magic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ContainerKind {
    /// `GDEC`: an encrypted file.
    Encrypted,
    /// `GCPF`: a compressed file.
    Compressed,
}

/// The container the bytes start with, if any.
pub fn sniff(bytes: &[u8]) -> Option<ContainerKind> {
    match bytes.get(..4)? {
        m if m == ENCRYPTED_MAGIC => Some(ContainerKind::Encrypted),
        m if m == COMPRESSED_MAGIC => Some(ContainerKind::Compressed),
        _ => None,
    }
}

/// How to open a container: the key of an encrypted file and the bound on a compressed one.
#[derive(Debug, Clone)]
pub struct OpenOptions {
    /// The key, for encrypted files.
    pub key: Option<Key>,
    /// The most plain data a compressed file may claim ([`compressed::DEFAULT_BOUND`]).
    pub bound: u64,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions {
            key: None,
            bound: compressed::DEFAULT_BOUND,
        }
    }
}

/// The plain data inside the bytes: decrypted or decompressed when they are a container,
/// else the bytes themselves (borrowed). An encrypted file without a key is an error that
/// says so.
pub fn open<'a>(
    bytes: &'a [u8],
    options: &OpenOptions,
) -> Result<std::borrow::Cow<'a, [u8]>, ContainerError> {
    Ok(match sniff(bytes) {
        None => std::borrow::Cow::Borrowed(bytes),
        Some(ContainerKind::Compressed) => compressed::read(bytes, options.bound)?.into(),
        Some(ContainerKind::Encrypted) => {
            let key = options.key.as_ref().ok_or(ContainerError::NeedKey)?;
            encrypted::read(bytes, key)?.into()
        }
    })
}

/// Checks the four magic bytes.
pub(crate) fn expect_magic(
    bytes: &[u8],
    magic: &[u8; 4],
    what: &'static str,
) -> Result<(), ContainerError> {
    match bytes.get(..4) {
        Some(m) if m == magic => Ok(()),
        Some(m) => Err(ContainerError::BadMagic {
            expected: what,
            found: String::from_utf8_lossy(m).into_owned(),
        }),
        None => Err(ContainerError::Truncated {
            offset: 0,
            needed: 4,
            len: bytes.len() as u64,
        }),
    }
}
