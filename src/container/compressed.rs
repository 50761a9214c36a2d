//! `FileAccess.open_compressed` files (`GCPF`): a header, a block table and blocks, each
//! block compressed on its own (core/io/file_access_compressed.cpp, the same in 3.x and 4.x).
//!
//! ```text
//! "GCPF" | mode u32 | block size u32 | plain length u32 | compressed size u32 × (length / block size + 1)
//!        | blocks…  | "GCPF"
//! ```
//! The writer (`FileAccessCompressed::_close`) always adds one block more than whole blocks
//! fill, empty when the length is a multiple of the block size; the reader takes it too.
//!
//! The magic is the caller's (`FileAccessCompressed::configure(p_magic, …)`): `open_compressed`
//! uses `GCPF`, compressed `.res` files `RSCC` (resource_format_binary.cpp,
//! `ResourceFormatSaverBinaryInstance::save` with `FLAG_COMPRESS`); the `*_with_magic`
//! functions take it.

use super::layout::{
    COMPRESSED_BLOCK_SIZE_OFFSET as BLOCK_SIZE_AT, COMPRESSED_LENGTH_OFFSET as LENGTH_AT,
    COMPRESSED_MAGIC, COMPRESSED_MODE_OFFSET as MODE_AT, COMPRESSED_TABLE_OFFSET as TABLE_AT,
    COMPRESSION_MODES, DEFAULT_BLOCK_SIZE,
};
use super::ContainerError;
use super::{codecs, fastlz};

/// The engine's `Compression::Mode` (`FileAccess.COMPRESSION_*`), as stored in the header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Mode {
    /// 0, `COMPRESSION_FASTLZ` (the default of `open_compressed`).
    FastLz,
    /// 1, `COMPRESSION_DEFLATE` (zlib stream, level 6).
    Deflate,
    /// 2, `COMPRESSION_ZSTD` (level 3).
    Zstd,
    /// 3, `COMPRESSION_GZIP` (gzip stream, level 6).
    Gzip,
    /// 4, `COMPRESSION_BROTLI`: Godot 4 reads it (builds with Brotli, the default; 4.3 and
    /// 4.4.1 checked) and nothing writes it: read here, not written.
    Brotli,
}

impl Mode {
    /// The mode's number in the header.
    pub fn id(self) -> u32 {
        match self {
            Mode::FastLz => 0,
            Mode::Deflate => 1,
            Mode::Zstd => 2,
            Mode::Gzip => 3,
            Mode::Brotli => 4,
        }
    }

    /// The mode with this number.
    pub fn from_id(id: u32) -> Option<Mode> {
        Some(match id {
            0 => Mode::FastLz,
            1 => Mode::Deflate,
            2 => Mode::Zstd,
            3 => Mode::Gzip,
            4 => Mode::Brotli,
            _ => return None,
        })
    }

    /// The name the engine's docs use (`FastLZ`, `Deflate`, `Zstd`, `GZIP`, `Brotli`).
    pub fn name(self) -> &'static str {
        COMPRESSION_MODES[self.id() as usize].1
    }

    /// Whether the engines write this mode (all but Brotli).
    pub fn written_by_engines(self) -> bool {
        COMPRESSION_MODES[self.id() as usize].2
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The default bound on the plain data a compressed file may claim: 64 MiB.
pub const DEFAULT_BOUND: u64 = 64 << 20;

/// What a compressed file's header and block table say, read without decompressing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The compression mode.
    pub mode: Mode,
    /// The plain block size (4,096 from `open_compressed`).
    pub block_size: u32,
    /// The plain data's length.
    pub plain_len: u32,
    /// Each block's compressed size, in order.
    pub block_sizes: Vec<u32>,
    /// Where the first block starts.
    pub data_offset: u64,
}

fn u32_at(bytes: &[u8], offset: usize) -> Result<u32, ContainerError> {
    match bytes.get(offset..offset + 4) {
        Some(b) => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        None => Err(ContainerError::Truncated {
            offset: offset as u64,
            needed: 4,
            len: bytes.len() as u64,
        }),
    }
}

/// The mode, block size and plain length fields, checked: a known mode, a block size over
/// 0, a length within `bound`.
pub(super) fn check_fields(
    mode: u32,
    block_size: u32,
    plain_len: u32,
    bound: u64,
) -> Result<(Mode, u32, u32), ContainerError> {
    let mode = Mode::from_id(mode).ok_or(ContainerError::UnknownCompressionMode {
        offset: MODE_AT as u64,
        mode,
    })?;
    if block_size == 0 {
        return Err(ContainerError::ZeroBlockSize {
            offset: BLOCK_SIZE_AT as u64,
        });
    }
    if u64::from(plain_len) > bound {
        return Err(ContainerError::OverBound {
            offset: LENGTH_AT as u64,
            size: plain_len.into(),
            bound,
        });
    }
    Ok((mode, block_size, plain_len))
}

/// Reads the header and block table of a compressed file, checking that the table and every
/// block it names lie inside `bytes` and that the plain length is within `bound`, before
/// anything is allocated for the plain data.
pub fn header(bytes: &[u8], bound: u64) -> Result<Header, ContainerError> {
    header_with_magic(bytes, COMPRESSED_MAGIC, bound)
}

/// What the error names as the expected file, for magic `magic`.
fn magic_name(magic: &[u8; 4]) -> &'static str {
    match magic {
        b"GCPF" => "a compressed file (GCPF)",
        b"RSCC" => "a compressed resource (RSCC)",
        _ => "a compressed file with the given magic",
    }
}

/// [`header()`] of a stream that opens with `magic` instead of `GCPF`.
pub fn header_with_magic(
    bytes: &[u8],
    magic: &[u8; 4],
    bound: u64,
) -> Result<Header, ContainerError> {
    super::expect_magic(bytes, magic, magic_name(magic))?;
    let (mode, block_size, plain_len) = check_fields(
        u32_at(bytes, MODE_AT)?,
        u32_at(bytes, BLOCK_SIZE_AT)?,
        u32_at(bytes, LENGTH_AT)?,
        bound,
    )?;
    let count = (plain_len / block_size) as u64 + 1;
    let table_end = TABLE_AT as u64 + count * 4;
    // The table must be in the file before it is allocated: a 1 KiB file cannot claim a
    // million blocks.
    if table_end > bytes.len() as u64 {
        return Err(ContainerError::Truncated {
            offset: TABLE_AT as u64,
            needed: count * 4,
            len: bytes.len() as u64,
        });
    }
    let block_sizes: Vec<u32> = (0..count as usize)
        .map(|i| u32_at(bytes, TABLE_AT + i * 4))
        .collect::<Result<_, _>>()?;
    let mut at = table_end;
    for &size in &block_sizes {
        if at + u64::from(size) > bytes.len() as u64 {
            return Err(ContainerError::Truncated {
                offset: at,
                needed: size.into(),
                len: bytes.len() as u64,
            });
        }
        at += u64::from(size);
    }
    Ok(Header {
        mode,
        block_size,
        plain_len,
        block_sizes,
        data_offset: table_end,
    })
}

/// The plain data of a compressed file, refusing files whose plain length is over `bound`
/// ([`DEFAULT_BOUND`] is a good default) before taking the memory. Every block must
/// decompress to exactly its share of the length.
pub fn read(bytes: &[u8], bound: u64) -> Result<Vec<u8>, ContainerError> {
    read_with_magic(bytes, COMPRESSED_MAGIC, bound)
}

/// [`read()`] of a stream that opens with `magic` instead of `GCPF`.
pub fn read_with_magic(
    bytes: &[u8],
    magic: &[u8; 4],
    bound: u64,
) -> Result<Vec<u8>, ContainerError> {
    let header = header_with_magic(bytes, magic, bound)?;
    let total = header.plain_len as usize;
    let block_size = header.block_size as usize;
    let mut plain = Vec::with_capacity(total);
    let mut at = header.data_offset as usize;
    let mut decoder = codecs::Decoder::for_mode(header.mode);
    for (index, &size) in header.block_sizes.iter().enumerate() {
        let want = (total - plain.len()).min(block_size);
        let block = &bytes[at..at + size as usize];
        decompress_block_with(header.mode, decoder.as_mut(), block, want, &mut plain)
            .map_err(|e| e.at(at as u64, index as u32))?;
        at += size as usize;
    }
    Ok(plain)
}

pub(super) enum BlockError {
    Bad(String),
}

impl BlockError {
    /// The error of block `block` starting at `offset`.
    pub(super) fn at(self, offset: u64, block: u32) -> ContainerError {
        match self {
            BlockError::Bad(why) => ContainerError::BadBlock { offset, block, why },
        }
    }
}

/// Appends `want` plain bytes from one block to `plain`.
pub(super) fn decompress_block(
    mode: Mode,
    block: &[u8],
    want: usize,
    plain: &mut Vec<u8>,
) -> Result<(), BlockError> {
    decompress_block_with(
        mode,
        codecs::Decoder::for_mode(mode).as_mut(),
        block,
        want,
        plain,
    )
}

/// [`decompress_block`] with the file's decoder (made once per file by
/// [`codecs::Decoder::for_mode`]: setting one up costs more than a 4 KiB block takes).
pub(super) fn decompress_block_with(
    mode: Mode,
    decoder: Option<&mut codecs::Decoder>,
    block: &[u8],
    want: usize,
    plain: &mut Vec<u8>,
) -> Result<(), BlockError> {
    let start = plain.len();
    if mode == Mode::FastLz && want < 16 {
        // The engine decompresses a block shorter than 16 bytes into 16 and keeps the
        // front (Compression::decompress, MODE_FASTLZ), as it padded it when writing.
        let mut out = [0u8; 16];
        let got =
            fastlz::decompress_into(block, &mut out).map_err(|e| BlockError::Bad(e.into()))?;
        if got < want {
            return Err(BlockError::Bad(format!(
                "{got} bytes where {want} were expected"
            )));
        }
        plain.extend_from_slice(&out[..want]);
        return Ok(());
    }
    plain.resize(start + want, 0);
    let out = &mut plain[start..];
    let got = match (mode, decoder) {
        (Mode::FastLz, _) => fastlz::decompress_into(block, out).map_err(|e| e.to_string()),
        (Mode::Brotli, _) => super::brotli::decompress(block, out),
        (_, Some(decoder)) => decoder.decompress(block, out),
        (_, None) => unreachable!("Decoder::for_mode makes one for every other mode"),
    }
    .map_err(BlockError::Bad)?;
    if got != want {
        return Err(BlockError::Bad(format!(
            "{got} bytes where {want} were expected"
        )));
    }
    Ok(())
}

/// A compressed file of `plain` in `mode` with the engine's block size (4,096), byte for
/// byte what `open_compressed` writes where the compressor is deterministic.
pub fn write(plain: &[u8], mode: Mode) -> Result<Vec<u8>, ContainerError> {
    write_with_block_size(plain, mode, DEFAULT_BLOCK_SIZE)
}

/// [`write()`] with another block size (the engine's `FileAccessCompressed::configure` takes
/// one; `open_compressed` always uses 4,096).
pub fn write_with_block_size(
    plain: &[u8],
    mode: Mode,
    block_size: u32,
) -> Result<Vec<u8>, ContainerError> {
    write_with_magic(plain, mode, block_size, COMPRESSED_MAGIC)
}

/// [`write_with_block_size`] of a stream that opens (and ends) with `magic` instead of
/// `GCPF`.
pub fn write_with_magic(
    plain: &[u8],
    mode: Mode,
    block_size: u32,
    magic: &[u8; 4],
) -> Result<Vec<u8>, ContainerError> {
    check_writable(mode, block_size)?;
    let total = u32::try_from(plain.len()).map_err(|_| ContainerError::Write {
        why: "the data is over 4 GiB, the length field's limit".into(),
    })?;
    let count = (total / block_size) as usize + 1;
    let mut out = header_bytes(mode, block_size, total, &vec![0; count]);
    out[..4].copy_from_slice(magic);
    out.reserve(plain.len() / 2 + 4);
    for i in 0..count {
        let from = (i * block_size as usize).min(plain.len());
        let to = (from + block_size as usize).min(plain.len());
        let packed = compress_block(mode, &plain[from..to])?;
        let size = packed.len() as u32;
        out[TABLE_AT + i * 4..TABLE_AT + 4 + i * 4].copy_from_slice(&size.to_le_bytes());
        out.extend_from_slice(&packed);
    }
    out.extend_from_slice(magic);
    Ok(out)
}

/// Checks what [`write_with_block_size`] and the streaming writer refuse before any data.
pub(super) fn check_writable(mode: Mode, block_size: u32) -> Result<(), ContainerError> {
    let fail = |why: String| ContainerError::Write { why };
    if block_size == 0 {
        return Err(fail("block size 0".into()));
    }
    if !mode.written_by_engines() {
        return Err(fail(format!("the engines do not write {mode}")));
    }
    Ok(())
}

/// One block compressed as the engine's `Compression::compress` does it.
pub(super) fn compress_block(mode: Mode, plain: &[u8]) -> Result<Vec<u8>, ContainerError> {
    let fail = |why: String| ContainerError::Write { why };
    match mode {
        Mode::FastLz => {
            fastlz::compress(plain).ok_or_else(|| fail("FastLZ blocks are under 64 KiB".into()))
        }
        _ => codecs::compress(mode, plain).map_err(fail),
    }
}

/// The header and block table of a compressed file of `total` plain bytes.
pub(super) fn header_bytes(mode: Mode, block_size: u32, total: u32, sizes: &[u32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(TABLE_AT + sizes.len() * 4);
    out.extend_from_slice(COMPRESSED_MAGIC);
    out.extend_from_slice(&mode.id().to_le_bytes());
    out.extend_from_slice(&block_size.to_le_bytes());
    out.extend_from_slice(&total.to_le_bytes());
    for size in sizes {
        out.extend_from_slice(&size.to_le_bytes());
    }
    out
}
