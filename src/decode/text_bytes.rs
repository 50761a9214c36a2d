//! Byte-level helpers of string reading: plain ASCII tests and key fingerprints, a word at a time.

use super::*;

/// [`Decoder::plain_text`] of the string at the start of `rest`: the text, and the bytes it
/// takes (length, text, padding). Apart so that a caller holding the input from the string
/// on (`string_key`, after its header) does not look up its position again.
#[inline(always)]
pub(crate) fn plain_text_in(rest: &[u8]) -> Option<(&str, usize)> {
    let (head, rest) = rest.split_first_chunk::<4>()?;
    let n = u32::from_le_bytes(*head);
    if n > i32::MAX as u32 {
        return None;
    }
    // The length and its padding to 4, which cannot overflow below 2^31 (no overflow
    // check, which took a dozen instructions of every string).
    let n = n as usize;
    let padded = rest.get(..n + quirks::pad4(n))?;
    if !ascii_without_nul(padded, n) {
        return None;
    }
    // SAFETY: every byte is in 0x01..=0x7F, and ASCII is valid UTF-8.
    let text = unsafe { std::str::from_utf8_unchecked(&padded[..n]) };
    Some((text, 4 + padded.len()))
}

/// Fingerprint mixing: FxHash's multiplier (its high bits mix best; the scan's `seen` bits
/// take the top six).
pub(crate) const K: u64 = 0xf135_7aea_2e62_a9c5;

#[inline(always)]
pub(crate) fn mix(h: u64, x: u64) -> u64 {
    (h.rotate_left(26) ^ x).wrapping_mul(K)
}

/// Whether the `n` bytes at `start` of `buf` (a string; the caller has checked they are in
/// the input) are ASCII without NUL (which the engine's reading leaves as it is), and, when `key`, their
/// fingerprint (else 0). Eight bytes at a time: the bytes after the string, where the input
/// has them, are read too but masked off, so a short key costs one load.
#[inline(always)]
pub(crate) fn plain_ascii(buf: &[u8], start: usize, n: usize, key: bool) -> (bool, u64) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let word = |at: usize| {
        let b: [u8; 8] = buf[at..at + 8].try_into().expect("eight bytes");
        u64::from_le_bytes(b)
    };
    let mut flags = 0u64;
    let mut h = n as u64;
    let full = n / 8;
    for i in 0..full {
        let x = word(start + 8 * i);
        flags |= (x.wrapping_sub(ONES) | x) & HIGH;
        if key {
            h = mix(h, x);
        }
    }
    let rem = n % 8;
    if rem != 0 {
        let at = start + 8 * full;
        let x = if at + 8 <= buf.len() {
            word(at)
        } else {
            last_word(&buf[at..at + rem])
        };
        // The bytes past the string: zero for the hash, 0x01 for the check.
        let keep = u64::MAX >> (8 * (8 - rem));
        let x = x & keep;
        let y = x | (ONES & !keep);
        flags |= (y.wrapping_sub(ONES) | y) & HIGH;
        if key {
            h = mix(h, x);
        }
    }
    (flags == 0, if key { h.wrapping_mul(K) } else { 0 })
}

/// Up to eight bytes as a little-endian word, zero above (the end of the input).
#[cold]
pub(crate) fn last_word(b: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w[..b.len()].copy_from_slice(b);
    u64::from_le_bytes(w)
}

/// Whether the first `n` bytes of `padded` (a string and its padding to 4) are all in
/// `0x01..=0x7F`. Four bytes at a time, padding included but forced to `0x01`: `x - 0x01…01`
/// sets a byte's top bit when the lowest zero byte borrows, and `x` sets it for bytes >= 0x80;
/// a borrow can also flag a later byte, which only sends the string down the careful path.
#[inline(always)]
pub(crate) fn ascii_without_nul(padded: &[u8], n: usize) -> bool {
    const ONES: u32 = 0x0101_0101;
    const HIGH: u32 = 0x8080_8080;
    let check = |x: u32| (x.wrapping_sub(ONES) | x) & HIGH;
    // The last word apart (it holds the padding), the others by `chunks_exact`, which needs
    // no bound check per word: a short key is one word and no loop.
    let Some((body, last)) = padded.split_last_chunk::<4>() else {
        return true;
    };
    let mut flags = 0u32;
    for w in body.chunks_exact(4) {
        flags |= check(u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
    }
    // The top `pad` bytes of the last word are padding, read as 0x01.
    let pad = padded.len() - n;
    debug_assert!(
        pad < 4 && padded.len().is_multiple_of(4),
        "`padded` is the text and its padding"
    );
    let keep = u32::MAX >> (8 * pad);
    flags |= check((u32::from_le_bytes(*last) & keep) | (ONES & !keep));
    flags == 0
}
