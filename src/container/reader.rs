//! [`Reader`]: a `std::io::Read` over a save file that yields its plain data as it reads,
//! decrypting or decompressing on the way, so that the value readers work on containers.

use super::compressed::{self, Mode};
use super::layout::{EncryptedLayout, COMPRESSED_TABLE_OFFSET, ENCRYPTED_MAGIC, ENCRYPTED_PADDING};
use super::{ContainerError, ContainerKind, OpenOptions};
use aes::cipher::inout::InOutBuf;
use aes::cipher::{generic_array::GenericArray, BlockDecrypt, BlockDecryptMut, KeyInit, KeyIvInit};
use aes::Aes256;
use md5::{Digest, Md5};
use std::io::{self, Read};

/// Ciphertext decrypted per read: a multiple of the AES block.
const CHUNK: usize = 64 << 10;

/// The plain data of a save file, read as the file is read: a `GCPF` file one block at a
/// time, a `GDEC` file one 64 KiB chunk at a time, anything else as it is. Give it to
/// [`FrameReader`](crate::framing::FrameReader), [`from_reader`](crate::from_reader) or any
/// reader of bytes.
///
/// Memory: a compressed file takes its block table (4 bytes a block, read as the bytes arrive,
/// so a short file cannot claim a large one) and one block, plain and compressed; the plain
/// length must be within [`OpenOptions::bound`]. An encrypted file takes 64 KiB whatever its
/// size.
///
/// **An encrypted file is verified at its end.** Its MD5 covers the whole plain data, so the
/// bytes handed out before the last chunk are not yet checked: the read that reaches the end
/// returns [`ContainerError::WrongKeyOrDamaged`] (inside an [`io::Error`], see
/// [`container_error`](super::container_error)) in place of the last chunk when the MD5 differs.
/// Read to the end, or call [`Reader::finish`], before trusting what was read; a file that
/// must be checked before any value is used is better read whole with
/// [`open`](super::open). Streaming keeps the memory at 64 KiB for a file of any size, which
/// is why the check is not done up front.
///
/// Which generation an encrypted file is comes from its header alone here: the word after
/// the magic is Godot 3's mode field (1) or the start of Godot 4's MD5, which is 1 for one
/// file in 2³². [`encrypted::detect`](super::encrypted::detect), which sees the whole file,
/// also checks the length.
///
/// ```
/// use gdvariant::container::{compressed, Mode, OpenOptions, Reader};
/// use gdvariant::framing::{FrameReader, Framing};
/// use gdvariant::{Format, Variant};
/// let plain = b"\x08\x00\x00\x00\x02\x00\x00\x00\x2a\x00\x00\x00"; // store_var(42)
/// let file = compressed::write(plain, Mode::Deflate)?;
/// let mut reader = Reader::new(&file[..], &OpenOptions::default())?;
/// let format = Format::godot4().framing(Framing::STORE_VAR);
/// let values: Vec<Variant> = FrameReader::new(&mut reader, &format).collect::<Result<_, _>>()?;
/// assert_eq!(values, [Variant::Int(42)]);
/// reader.finish()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Reader<R> {
    inner: R,
    state: State,
    /// Plain bytes ready to hand out, and how many of them have been.
    out: Vec<u8>,
    out_pos: usize,
    /// The first error, returned again by later reads.
    failed: Option<ContainerError>,
}

enum State {
    /// Not a container: the bytes sniffed, then the rest.
    Plain,
    Compressed(Blocks),
    Encrypted(Box<Decrypting>),
}

struct Blocks {
    mode: Mode,
    block_size: u32,
    plain_len: u32,
    sizes: Vec<u32>,
    next: usize,
    /// The file offset of the next block.
    offset: u64,
    produced: u64,
    packed: Vec<u8>,
}

enum Cipher {
    Ecb(Box<Aes256>),
    Cfb(Box<cfb_mode::Decryptor<Aes256>>),
}

struct Decrypting {
    layout: EncryptedLayout,
    cipher: Cipher,
    md5: [u8; 16],
    hasher: Md5,
    plain_len: u64,
    /// Plain bytes decrypted so far (padding excluded).
    decrypted: u64,
    /// Ciphertext bytes not yet read.
    left: u64,
    /// The file offset of the next ciphertext byte.
    offset: u64,
    /// The MD5 has been compared.
    done: bool,
}

/// A failure while reading: the reader's own, or a container's.
enum Fail {
    Io(io::Error),
    Container(ContainerError),
}

impl From<ContainerError> for Fail {
    fn from(e: ContainerError) -> Fail {
        Fail::Container(e)
    }
}

impl From<io::Error> for Fail {
    fn from(e: io::Error) -> Fail {
        Fail::Io(e)
    }
}

/// The [`ContainerError`] inside an error from a [`Reader`] or [`Writer`](super::Writer), if it
/// is one (else the error came from the underlying reader or writer).
pub fn container_error(error: &io::Error) -> Option<&ContainerError> {
    error.get_ref()?.downcast_ref::<ContainerError>()
}

fn to_io(e: ContainerError) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}

/// Fills `buf` from `r`, or says how far the file went: `offset` is where `buf` starts.
fn fill(r: &mut impl Read, buf: &mut [u8], offset: u64) -> Result<(), Fail> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => {
                return Err(Fail::Container(ContainerError::Truncated {
                    offset,
                    needed: buf.len() as u64,
                    len: offset + got as u64,
                }))
            }
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Fail::Io(e)),
        }
    }
    Ok(())
}

fn u32_of(b: &[u8]) -> u32 {
    u32::from_le_bytes(b[..4].try_into().expect("4 bytes"))
}

impl<R: Read> Reader<R> {
    /// Reads the header of the container `inner` starts with (if any): an error here is a
    /// file that is not one, a missing key, a length over the bound, or the reader's own.
    pub fn new(mut inner: R, options: &OpenOptions) -> io::Result<Reader<R>> {
        let mut head = [0u8; 4];
        let mut got = 0;
        while got < 4 {
            match inner.read(&mut head[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        let state = match super::sniff(&head[..got]) {
            None => State::Plain,
            Some(ContainerKind::Compressed) => {
                State::Compressed(Self::blocks(&mut inner, options.bound).map_err(Fail::into_io)?)
            }
            Some(ContainerKind::Encrypted) => {
                let key = options.key.as_ref().ok_or(ContainerError::NeedKey);
                let key = key.map_err(to_io)?.aes_key();
                State::Encrypted(Box::new(
                    Self::decrypting(&mut inner, &key).map_err(Fail::into_io)?,
                ))
            }
        };
        let out = match state {
            State::Plain => head[..got].to_vec(),
            _ => Vec::new(),
        };
        Ok(Reader {
            inner,
            state,
            out,
            out_pos: 0,
            failed: None,
        })
    }

    /// The container the bytes are in, `None` for plain bytes.
    pub fn kind(&self) -> Option<ContainerKind> {
        match self.state {
            State::Plain => None,
            State::Compressed(_) => Some(ContainerKind::Compressed),
            State::Encrypted(_) => Some(ContainerKind::Encrypted),
        }
    }

    /// The plain data's length the header states (`None` for plain bytes).
    pub fn plain_len(&self) -> Option<u64> {
        match &self.state {
            State::Plain => None,
            State::Compressed(b) => Some(b.plain_len.into()),
            State::Encrypted(d) => Some(d.plain_len),
        }
    }

    /// The encrypted file's generation, from its header.
    pub fn layout(&self) -> Option<EncryptedLayout> {
        match &self.state {
            State::Encrypted(d) => Some(d.layout),
            _ => None,
        }
    }

    /// Reads what is left of the plain data, checking it all (every block decompresses, the
    /// MD5 of an encrypted file matches), and gives back the inner reader.
    pub fn finish(mut self) -> io::Result<R> {
        io::copy(&mut self, &mut io::sink())?;
        Ok(self.inner)
    }

    fn blocks(inner: &mut R, bound: u64) -> Result<Blocks, Fail> {
        let mut fields = [0u8; 12];
        fill(inner, &mut fields, 4)?;
        let (mode, block_size, plain_len) = compressed::check_fields(
            u32_of(&fields),
            u32_of(&fields[4..]),
            u32_of(&fields[8..]),
            bound,
        )?;
        let count = u64::from(plain_len / block_size) + 1;
        // The table grows as its bytes arrive: a short file cannot make us allocate the
        // table its length claims.
        let mut table = Vec::new();
        let start = COMPRESSED_TABLE_OFFSET as u64;
        inner.take(count * 4).read_to_end(&mut table)?;
        if table.len() as u64 != count * 4 {
            return Err(Fail::Container(ContainerError::Truncated {
                offset: start,
                needed: count * 4,
                len: start + table.len() as u64,
            }));
        }
        let sizes = table.chunks_exact(4).map(u32_of).collect();
        Ok(Blocks {
            mode,
            block_size,
            plain_len,
            sizes,
            next: 0,
            offset: start + count * 4,
            produced: 0,
            packed: Vec::new(),
        })
    }

    fn decrypting(inner: &mut R, key: &[u8; 32]) -> Result<Decrypting, Fail> {
        let mut word = [0u8; 4];
        fill(inner, &mut word, 4)?;
        let g3 = EncryptedLayout::Godot3.fields();
        let layout = if g3.mode_offset.is_some() && u32_of(&word) == g3.mode_value {
            EncryptedLayout::Godot3
        } else {
            EncryptedLayout::Godot4
        };
        let fields = layout.fields();
        let mut head = vec![0u8; fields.header_len];
        head[..4].copy_from_slice(ENCRYPTED_MAGIC);
        head[4..8].copy_from_slice(&word);
        fill(inner, &mut head[8..], 8)?;
        let md5: [u8; 16] = head[fields.md5..fields.md5 + 16].try_into().expect("16");
        let plain_len = u64::from_le_bytes(
            head[fields.length..fields.length + 8]
                .try_into()
                .expect("8"),
        );
        let pad = ENCRYPTED_PADDING as u64;
        let left = plain_len
            .checked_next_multiple_of(pad)
            .ok_or(ContainerError::Truncated {
                offset: fields.header_len as u64,
                needed: plain_len,
                len: fields.header_len as u64,
            })?;
        let cipher = match fields.iv.filter(|_| fields.cfb) {
            None => Cipher::Ecb(Box::new(Aes256::new(GenericArray::from_slice(key)))),
            Some(at) => {
                let iv: [u8; 16] = head[at..at + 16].try_into().expect("16");
                Cipher::Cfb(Box::new(cfb_mode::Decryptor::new(key.into(), &iv.into())))
            }
        };
        Ok(Decrypting {
            layout,
            cipher,
            md5,
            hasher: Md5::new(),
            plain_len,
            decrypted: 0,
            left,
            offset: fields.header_len as u64,
            done: false,
        })
    }

    /// Refills `out` with the next plain bytes; an empty `out` is the end.
    fn refill(&mut self) -> Result<(), Fail> {
        self.out.clear();
        self.out_pos = 0;
        match &mut self.state {
            State::Plain => {
                self.out.resize(CHUNK, 0);
                let n = loop {
                    match self.inner.read(&mut self.out) {
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        other => break other?,
                    }
                };
                self.out.truncate(n);
            }
            State::Compressed(b) => {
                while self.out.is_empty() && b.next < b.sizes.len() {
                    b.next_block(&mut self.inner, &mut self.out)?;
                }
            }
            State::Encrypted(d) => d.next_chunk(&mut self.inner, &mut self.out)?,
        }
        Ok(())
    }
}

impl Fail {
    fn into_io(self) -> io::Error {
        match self {
            Fail::Io(e) => e,
            Fail::Container(e) => to_io(e),
        }
    }
}

impl Blocks {
    fn next_block(&mut self, inner: &mut impl Read, out: &mut Vec<u8>) -> Result<(), Fail> {
        let index = self.next;
        let size = self.sizes[index] as usize;
        let want = (u64::from(self.plain_len) - self.produced).min(self.block_size.into()) as usize;
        // No compressor the engines use makes more than this of `want` bytes (zlib's and
        // zstd's bounds are a few bytes per KiB; FastLZ pads a short block to 16): a larger
        // claim is refused before it is allocated.
        let most = want + want / 8 + 1024;
        if size > most {
            return Err(Fail::Container(ContainerError::BadBlock {
                offset: self.offset,
                block: index as u32,
                why: format!("{size} compressed bytes for {want} plain ones"),
            }));
        }
        // Grown as the bytes arrive: a short file cannot make us allocate what it claims.
        self.packed.clear();
        inner.take(size as u64).read_to_end(&mut self.packed)?;
        if self.packed.len() < size {
            return Err(Fail::Container(ContainerError::Truncated {
                offset: self.offset,
                needed: size as u64,
                len: self.offset + self.packed.len() as u64,
            }));
        }
        compressed::decompress_block(self.mode, &self.packed, want, out)
            .map_err(|e| e.at(self.offset, index as u32))?;
        self.produced += want as u64;
        self.offset += size as u64;
        self.next += 1;
        Ok(())
    }
}

impl Decrypting {
    fn next_chunk(&mut self, inner: &mut impl Read, out: &mut Vec<u8>) -> Result<(), Fail> {
        if self.done {
            return Ok(());
        }
        let n = self.left.min(CHUNK as u64) as usize;
        out.resize(n, 0);
        fill(inner, out, self.offset)?;
        let (blocks, _) = InOutBuf::from(&mut out[..]).into_chunks();
        match &mut self.cipher {
            Cipher::Ecb(aes) => aes.decrypt_blocks_inout(blocks),
            Cipher::Cfb(cfb) => cfb.decrypt_blocks_inout_mut(blocks),
        }
        self.left -= n as u64;
        self.offset += n as u64;
        let plain = (self.plain_len - self.decrypted).min(n as u64) as usize;
        out.truncate(plain);
        self.decrypted += plain as u64;
        self.hasher.update(&out[..]);
        if self.left > 0 {
            return Ok(());
        }
        self.done = true;
        if self.hasher.finalize_reset()[..] != self.md5 {
            out.clear();
            return Err(Fail::Container(ContainerError::WrongKeyOrDamaged {
                offset: self.layout.md5_offset() as u64,
            }));
        }
        Ok(())
    }
}

impl<R: Read> Read for Reader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(e) = &self.failed {
            return Err(to_io(e.clone()));
        }
        if self.out_pos == self.out.len() {
            match self.refill() {
                Ok(()) => {}
                Err(Fail::Io(e)) => return Err(e),
                Err(Fail::Container(e)) => {
                    self.failed = Some(e.clone());
                    return Err(to_io(e));
                }
            }
        }
        let n = buf.len().min(self.out.len() - self.out_pos);
        buf[..n].copy_from_slice(&self.out[self.out_pos..self.out_pos + n]);
        self.out_pos += n;
        Ok(n)
    }
}

impl<R> std::fmt::Debug for Reader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.state {
            State::Plain => "plain",
            State::Compressed(_) => "compressed",
            State::Encrypted(_) => "encrypted",
        };
        f.debug_struct("Reader")
            .field("kind", &kind)
            .finish_non_exhaustive()
    }
}
