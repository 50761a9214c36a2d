//! Brotli blocks (`COMPRESSION_BROTLI`, mode 4): Godot 4 decompresses them in builds with
//! Brotli (the default: SConstruct's `brotli` option) and has no compressor for them
//! (core/io/compression.cpp, `Compression::decompress`, `MODE_BROTLI`: one
//! `BrotliDecoderDecompress` of the block into the block's plain size; `compress` fails
//! with "Only brotli decompression is supported."; the same in 4.3 and 4.4.1).

use std::io::Read;

/// One block decompressed into `out` (exactly the block's plain size), returning how many
/// bytes it made; a stream that would go past `out`, or is cut short, is an error. The
/// decoder takes its input buffer and its window (at most 16 MiB, the format's largest
/// without the large-window extension the engine does not enable) besides `out`.
pub(super) fn decompress(block: &[u8], out: &mut [u8]) -> Result<usize, String> {
    let mut decoder = brotli_decompressor::Decompressor::new(block, 4096);
    let mut got = 0;
    loop {
        if got == out.len() {
            // Full: the stream must end here.
            let mut more = [0u8; 1];
            return match decoder.read(&mut more) {
                Ok(0) => Ok(got),
                Ok(_) => Err("the stream makes more than the block holds".into()),
                Err(e) => Err(format!("Brotli: {e}")),
            };
        }
        match decoder.read(&mut out[got..]) {
            Ok(0) => return Ok(got),
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("Brotli: {e}")),
        }
    }
}
