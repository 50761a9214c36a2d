//! The zlib, gzip and zstd block codecs with the engine's settings (core/io/compression.cpp):
//! zlib and gzip at `Z_DEFAULT_COMPRESSION` (6), window 15, memory level 8, default strategy;
//! zstd at level 3 with long-distance matching off, one frame per block with its size.

use super::compressed::Mode;
use flate2::{Compress, Compression, FlushCompress, Status};

/// `Compression::zlib_level` and `gzip_level`: `Z_DEFAULT_COMPRESSION`, which zlib takes as 6.
const ZLIB_LEVEL: u32 = 6;
/// `Compression::zstd_level`.
const ZSTD_LEVEL: i32 = 3;
/// `deflateInit2(…, window_bits = 15 (+16 for gzip), …)`.
const WINDOW_BITS: u8 = 15;

/// One block compressed as `Compression::compress` does it.
pub(crate) fn compress(mode: Mode, plain: &[u8]) -> Result<Vec<u8>, String> {
    match mode {
        Mode::Deflate | Mode::Gzip => {
            let mut z = if mode == Mode::Gzip {
                Compress::new_gzip(Compression::new(ZLIB_LEVEL), WINDOW_BITS)
            } else {
                Compress::new(Compression::new(ZLIB_LEVEL), true)
            };
            // Over zlib's deflateBound for any input (stored blocks cost 5 bytes per 16 KiB).
            let mut out = Vec::with_capacity(plain.len() + plain.len() / 1000 + 64);
            match z.compress_vec(plain, &mut out, FlushCompress::Finish) {
                Ok(Status::StreamEnd) => Ok(out),
                other => Err(format!("zlib did not finish: {other:?}")),
            }
        }
        Mode::Zstd => {
            let mut out = Vec::with_capacity(zstd::zstd_safe::compress_bound(plain.len()));
            // `ZSTD_compressCCtx` at the level: the frame records the block's size.
            zstd::zstd_safe::compress(&mut out, plain, ZSTD_LEVEL)
                .map_err(|code| zstd::zstd_safe::get_error_name(code).to_string())?;
            Ok(out)
        }
        Mode::FastLz | Mode::Brotli => unreachable!("handled by the caller"),
    }
}

/// A decoder for every block of one file: the zlib stream or zstd context is made once and
/// reset between blocks, as setting one up costs more than a 4 KiB block takes to decode.
pub(crate) enum Decoder {
    /// zlib (15) or gzip (31) window bits, for `zlib-rs`'s inflate.
    Zlib(i32),
    Zstd(zstd::zstd_safe::DCtx<'static>),
}

impl Decoder {
    /// The decoder of a mode this module decodes; `None` for FastLZ (`fastlz.rs`, which keeps
    /// no state) and Brotli.
    pub(crate) fn for_mode(mode: Mode) -> Option<Decoder> {
        Some(match mode {
            Mode::Deflate => Decoder::Zlib(i32::from(WINDOW_BITS)),
            // +16: a gzip header and trailer instead of zlib's (inflateInit2's convention).
            Mode::Gzip => Decoder::Zlib(i32::from(WINDOW_BITS) + 16),
            Mode::Zstd => Decoder::Zstd(zstd::zstd_safe::DCtx::create()),
            Mode::FastLz | Mode::Brotli => return None,
        })
    }

    /// One block decompressed into `out` (exactly the block's plain size), returning how many
    /// bytes it made; a stream that would go past `out` or does not end is an error.
    pub(crate) fn decompress(&mut self, block: &[u8], out: &mut [u8]) -> Result<usize, String> {
        match self {
            // Inflated by `zlib-rs` (1.2–1.9× zlib's speed on these blocks, interleaved runs);
            // deflating stays zlib's, whose bytes the engine writes.
            Decoder::Zlib(window_bits) => {
                let config = zlib_rs::inflate::InflateConfig {
                    window_bits: *window_bits,
                };
                match zlib_rs::inflate::uncompress_slice(out, block, config) {
                    (made, zlib_rs::ReturnCode::Ok) => Ok(made.len()),
                    (_, zlib_rs::ReturnCode::BufError) => Err("the stream does not end where the block does, or makes more than the block holds".into()),
                    (_, code) => Err(format!("a damaged zlib stream ({code:?})")),
                }
            }
            // `ZSTD_decompressDCtx` into the caller's buffer: the window is that buffer, so a
            // frame that claims a huge window takes no memory of its own.
            Decoder::Zstd(dctx) => dctx
                .decompress(out, block)
                .map_err(|code| zstd::zstd_safe::get_error_name(code).to_string()),
        }
    }
}
