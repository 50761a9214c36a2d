//! `FileAccess.open_encrypted` / `open_encrypted_with_pass` files (`GDEC`), both generations'
//! layouts (see [`EncryptedLayout`]): reading checks the MD5 of the plain data, so a wrong key
//! or a changed byte is an error, never garbage values.

use super::layout::{EncryptedLayout, ENCRYPTED_MAGIC, ENCRYPTED_PADDING};
use super::{ContainerError, Key};
use aes::cipher::inout::InOutBuf;
use aes::cipher::{
    generic_array::GenericArray, AsyncStreamCipher, BlockDecrypt, BlockDecryptMut, BlockEncrypt,
    KeyInit, KeyIvInit,
};
use aes::Aes256;
use md5::{Digest, Md5};

/// What an encrypted file's header says, read without the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The layout: Godot 3's or Godot 4's.
    pub layout: EncryptedLayout,
    /// The MD5 of the plain data.
    pub md5: [u8; 16],
    /// The plain data's length.
    pub plain_len: u64,
    /// The IV (Godot 4 only).
    pub iv: Option<[u8; 16]>,
    /// Where the ciphertext starts.
    pub data_offset: usize,
}

fn padded(len: u64) -> u64 {
    len.div_ceil(ENCRYPTED_PADDING as u64) * ENCRYPTED_PADDING as u64
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

/// The whole size a layout implies, when the header is there.
fn implied_len(bytes: &[u8], layout: EncryptedLayout) -> Option<u64> {
    let head = layout.header_len();
    if bytes.len() < head {
        return None;
    }
    let len = u64_at(bytes, layout.length_offset());
    (head as u64).checked_add(padded(len.min(u64::MAX - 15)))
}

/// Which layout the bytes have. Godot 3's header has a mode field (1) where Godot 4's MD5
/// starts, and the two put the length at different offsets: the layout whose length fits the
/// file exactly wins, then one whose length fits in it (the engines allow bytes after the
/// data), Godot 3 only when its mode field is 1.
pub fn detect(bytes: &[u8]) -> Result<EncryptedLayout, ContainerError> {
    super::expect_magic(bytes, ENCRYPTED_MAGIC, "an encrypted file (GDEC)")?;
    let file = bytes.len() as u64;
    let g3 = EncryptedLayout::Godot3.fields();
    let g3_mode = g3
        .mode_offset
        .is_some_and(|at| bytes.get(at..at + 4) == Some(&g3.mode_value.to_le_bytes()[..]));
    let g3 = implied_len(bytes, EncryptedLayout::Godot3).filter(|_| g3_mode);
    let g4 = implied_len(bytes, EncryptedLayout::Godot4);
    let layout = match (g3, g4) {
        (Some(n), _) if n == file => EncryptedLayout::Godot3,
        (_, Some(n)) if n == file => EncryptedLayout::Godot4,
        (Some(n), _) if n <= file => EncryptedLayout::Godot3,
        (_, Some(n)) if n <= file => EncryptedLayout::Godot4,
        (Some(n), _) => {
            return Err(truncated(EncryptedLayout::Godot3.header_len(), n, file));
        }
        (_, Some(n)) => return Err(truncated(EncryptedLayout::Godot4.header_len(), n, file)),
        (None, None) => {
            let head = if g3_mode {
                EncryptedLayout::Godot3
            } else {
                EncryptedLayout::Godot4
            };
            return Err(ContainerError::Truncated {
                offset: 0,
                needed: head.header_len() as u64,
                len: file,
            });
        }
    };
    Ok(layout)
}

fn truncated(head: usize, whole: u64, file: u64) -> ContainerError {
    ContainerError::Truncated {
        offset: head as u64,
        needed: whole - head as u64,
        len: file,
    }
}

/// Reads the header of an encrypted file (no key needed).
pub fn header(bytes: &[u8]) -> Result<Header, ContainerError> {
    let layout = detect(bytes)?;
    let md5_at = layout.md5_offset();
    let mut md5 = [0u8; 16];
    md5.copy_from_slice(&bytes[md5_at..md5_at + 16]);
    let iv = layout
        .fields()
        .iv
        .map(|at| bytes[at..at + 16].try_into().expect("16 bytes"));
    Ok(Header {
        layout,
        md5,
        plain_len: u64_at(bytes, layout.length_offset()),
        iv,
        data_offset: layout.header_len(),
    })
}

/// The plain data of an encrypted file of either generation. The memory taken is at most the
/// file's own size: the length field is checked against the bytes first.
pub fn read(bytes: &[u8], key: &Key) -> Result<Vec<u8>, ContainerError> {
    read_with_header(bytes, key).map(|(_, plain)| plain)
}

/// How much is deciphered, then hashed, at a time: small enough to be hashed while it is
/// still in the core's cache, large enough that AES-NI keeps several blocks in flight.
const CHUNK: usize = 64 << 10;

/// [`read`], with the header it found.
pub fn read_with_header(bytes: &[u8], key: &Key) -> Result<(Header, Vec<u8>), ContainerError> {
    let header = header(bytes)?;
    let start = header.data_offset;
    let size = padded(header.plain_len) as usize;
    let plain_len = header.plain_len as usize;
    let key = key.aes_key();
    // Straight from the file's bytes into the output (no copy first), one chunk at a time,
    // each hashed right after it is deciphered: one pass over memory instead of three.
    let mut cipher = match header.iv.filter(|_| header.layout.fields().cfb) {
        None => Cipher::Ecb(Aes256::new(GenericArray::from_slice(&key))),
        Some(iv) => Cipher::Cfb(cfb_mode::Decryptor::<Aes256>::new(&key.into(), &iv.into())),
    };
    let mut data = vec![0u8; size];
    let mut md5 = Md5::new();
    let chunks = bytes[start..start + size].chunks(CHUNK);
    for (index, (input, out)) in chunks.zip(data.chunks_mut(CHUNK)).enumerate() {
        let (blocks, _) = InOutBuf::new(input, out)
            .expect("chunks of the same length")
            .into_chunks();
        match &mut cipher {
            Cipher::Ecb(aes) => aes.decrypt_blocks_inout(blocks),
            Cipher::Cfb(cfb) => cfb.decrypt_blocks_inout_mut(blocks),
        }
        let plain = plain_len.saturating_sub(index * CHUNK).min(out.len());
        md5.update(&out[..plain]);
    }
    data.truncate(plain_len);
    if md5.finalize()[..] != header.md5 {
        return Err(ContainerError::WrongKeyOrDamaged {
            offset: header.layout.md5_offset() as u64,
        });
    }
    Ok((header, data))
}

/// The two generations' ciphers: Godot 3 deciphers each block alone (ECB), Godot 4 chains
/// them from the IV (CFB-128).
enum Cipher {
    Ecb(Aes256),
    Cfb(cfb_mode::Decryptor<Aes256>),
}

/// An encrypted file of `plain` in `layout`, as the engine's `close` writes it. Godot 4 files
/// take a 16-byte IV: `None` draws a random one as the engine does; pass one for repeatable
/// bytes (Godot 4.4's `open_encrypted(…, iv)` does the same). Godot 3 files have no IV and are
/// always the same bytes for the same data and key.
pub fn write(
    plain: &[u8],
    key: &Key,
    layout: EncryptedLayout,
    iv: Option<[u8; 16]>,
) -> Result<Vec<u8>, ContainerError> {
    let key = key.aes_key();
    let size = padded(plain.len() as u64) as usize;
    let mut out = Vec::with_capacity(layout.header_len() + size);
    let fields = layout.fields();
    out.extend_from_slice(ENCRYPTED_MAGIC);
    if let Some(at) = fields.mode_offset {
        debug_assert_eq!(out.len(), at);
        out.extend_from_slice(&fields.mode_value.to_le_bytes());
    }
    debug_assert_eq!(out.len(), fields.md5);
    out.extend_from_slice(&Md5::digest(plain));
    out.extend_from_slice(&(plain.len() as u64).to_le_bytes());
    let start = match fields.iv {
        None => {
            let start = out.len();
            out.extend_from_slice(plain);
            out.resize(start + size, 0);
            let (blocks, _) = InOutBuf::from(&mut out[start..]).into_chunks();
            Aes256::new(GenericArray::from_slice(&key)).encrypt_blocks_inout(blocks);
            return Ok(out);
        }
        Some(at) => {
            debug_assert_eq!(out.len(), at);
            let iv = match iv {
                Some(iv) => iv,
                None => {
                    let mut iv = [0u8; 16];
                    getrandom::fill(&mut iv).map_err(|e| ContainerError::Write {
                        why: format!("no random IV: {e}"),
                    })?;
                    iv
                }
            };
            out.extend_from_slice(&iv);
            let start = out.len();
            out.extend_from_slice(plain);
            out.resize(start + size, 0);
            cfb_mode::Encryptor::<Aes256>::new(&key.into(), &iv.into()).encrypt(&mut out[start..]);
            start
        }
    };
    debug_assert_eq!(out.len(), start + size);
    Ok(out)
}
