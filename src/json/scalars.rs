//! The JSON text of numbers and strings, as serde_json writes them, in fixed-size pieces.

use super::direct::{put_prefix, Fmt};
use super::*;
use serde_json::ser::Formatter;
use std::io::Write;

/// As [`I`] serializes.
pub(super) fn int(out: &mut Vec<u8>, i: i64) {
    let quoted = !(-SAFE_INT..=SAFE_INT).contains(&i);
    if quoted {
        out.push(b'"');
    }
    if i < 0 {
        out.push(b'-');
    }
    digits(out, i.unsigned_abs());
    if quoted {
        out.push(b'"');
    }
}

/// As [`U`] serializes.
pub(super) fn unsigned(out: &mut Vec<u8>, u: u64) {
    if u <= SAFE_INT as u64 {
        digits(out, u);
    } else {
        out.push(b'"');
        digits(out, u);
        out.push(b'"');
    }
}

/// `"00"`, `"01"`, …, `"99"`: two digits at a time.
pub(super) static PAIRS: [u8; 200] = {
    let mut t = [0; 200];
    let mut i = 0;
    while i < 100 {
        t[2 * i] = b'0' + (i / 10) as u8;
        t[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    t
};

/// The decimal digits of `u` (as serde_json's `itoa` writes them), put in a fixed-size
/// array at their place and copied as all of it: no `memcpy` call for a few digits.
pub(super) fn digits(out: &mut Vec<u8>, mut u: u64) {
    // Most integers in games are small (ids, counts, grid positions).
    if u < 10 {
        return out.push(b'0' + u as u8);
    }
    if u < 100 {
        let pair = u as usize * 2;
        return out.extend_from_slice(&PAIRS[pair..pair + 2]);
    }
    let n = u.checked_ilog10().unwrap_or(0) as usize + 1;
    let mut buf = [0u8; 20];
    let mut end = n;
    while u >= 100 {
        let pair = (u % 100) as usize * 2;
        u /= 100;
        buf[end - 2..end].copy_from_slice(&PAIRS[pair..pair + 2]);
        end -= 2;
    }
    if u >= 10 {
        let pair = u as usize * 2;
        buf[..2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        buf[0] = b'0' + u as u8;
    }
    put_prefix(out, &buf, n);
}

/// As [`R`] serializes.
pub(super) fn real(out: &mut Vec<u8>, f: f64) {
    let whole = f as i64;
    if whole as f64 == f && whole != 0 && whole.unsigned_abs() < 1_000_000_000_000_000 {
        // Whole numbers (most reals in games: 100.0, positions on a grid) print as their
        // digits and `.0`, which is what serde_json's shortest-digits formatter gives below
        // 1e16 (fixed notation; every integer there is exact, so its digits are the
        // shortest); integer formatting is several times cheaper. Zero keeps its sign
        // through the formatter; NaN converts to 0 and infinities to ±2^63, so neither is
        // taken here. The `whole_reals_print_as_serde_json_does` test holds it.
        if whole < 0 {
            out.push(b'-');
        }
        digits(out, whole.unsigned_abs());
        out.extend_from_slice(b".0");
    } else if f == 0.0 {
        out.extend_from_slice(if f.is_sign_negative() {
            b"-0.0"
        } else {
            b"0.0"
        });
    } else if f.is_nan() {
        match f.to_bits() {
            NAN64 => out.extend_from_slice(b"\"nan\""),
            b if b == NAN64 | SIGN64 => out.extend_from_slice(b"\"-nan\""),
            b => {
                let _ = write!(out, "\"nan:{b:#018x}\"");
            }
        }
    } else if f.is_infinite() {
        out.extend_from_slice(if f > 0.0 { b"\"inf\"" } else { b"\"-inf\"" });
    } else {
        let _ = Fmt {}.write_f64(out, f);
    }
}

/// As [`R32`] serializes.
pub(super) fn real32(out: &mut Vec<u8>, f: f32) {
    if f.is_nan() {
        match f.to_bits() {
            NAN32 => out.extend_from_slice(b"\"nan\""),
            b if b == NAN32 | SIGN32 => out.extend_from_slice(b"\"-nan\""),
            b => {
                let _ = write!(out, "\"nan:{b:#010x}\"");
            }
        }
    } else {
        real(out, f64::from(f));
    }
}

/// A string as [`GStrJ`] writes it (inlined as [`string`] is).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn gstring(out: &mut Vec<u8>, s: &GString) {
    if let Some(text) = s.as_unicode() {
        return string(out, text);
    }
    out.extend_from_slice(b"{\"engine_utf8\":\"");
    out.extend_from_slice(hex(s.engine_utf8()).as_bytes());
    out.extend_from_slice(b"\"}");
}

/// Longest text [`string`] copies in fixed-size pieces.
pub(super) const SHORT: usize = 32;

/// A JSON string. Most strings (keys, names, paths) are short and have nothing to escape:
/// a word-at-a-time check says so, and the text goes out in one piece. Inlined where it is
/// called (one call fewer per string; LLVM would not on its own), in optimised builds only
/// as `encode`'s hot helpers are.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn string(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    if !clean(bytes) {
        return escaped(out, bytes);
    }
    let n = bytes.len();
    if n > SHORT {
        out.reserve(n + 2);
        out.push(b'"');
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    // The quotes and room for the text as one fixed-size copy, the text as two fixed-size
    // copies that overlap (each a store or two, where a copy of `n` bytes is a `memcpy`
    // call), then cut back to the closing quote.
    let at = out.len() + 1;
    out.extend_from_slice(&[b'"'; SHORT + 2]);
    let to = &mut out[at..at + n];
    match n {
        16.. => {
            to[..16].copy_from_slice(&bytes[..16]);
            to[n - 16..].copy_from_slice(&bytes[n - 16..]);
        }
        8.. => {
            to[..8].copy_from_slice(&bytes[..8]);
            to[n - 8..].copy_from_slice(&bytes[n - 8..]);
        }
        4.. => {
            to[..4].copy_from_slice(&bytes[..4]);
            to[n - 4..].copy_from_slice(&bytes[n - 4..]);
        }
        1.. => {
            to[0] = bytes[0];
            to[n / 2] = bytes[n / 2];
            to[n - 1] = bytes[n - 1];
        }
        0 => {}
    }
    out.truncate(at + n + 1);
}

/// Whether no byte of `b` needs escaping, eight at a time; the words may overlap, since
/// the question is only whether any byte does.
pub(super) fn clean(b: &[u8]) -> bool {
    let n = b.len();
    let word = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
    let half = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"));
    match n {
        8.. => {
            let mut any = needs_escape(word(n - 8));
            for w in b.chunks_exact(8) {
                any |= needs_escape(u64::from_le_bytes(w.try_into().expect("8 bytes")));
            }
            any == 0
        }
        4.. => needs_escape(u64::from(half(0)) | u64::from(half(n - 4)) << 32) == 0,
        _ => !b.iter().any(|&c| ESCAPED[usize::from(c)]),
    }
}

/// Not zero when a byte of `x` is one [`ESCAPED`] marks: below 0x20, `"` or `\\` (the
/// classic "has a byte less than" and "has a zero byte" tests, exact as a yes or no).
pub(super) fn needs_escape(x: u64) -> u64 {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = ONES * 0x80;
    let zero_byte = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    (x.wrapping_sub(ONES * 0x20) & !x & HIGH)
        | zero_byte(x ^ (ONES * u64::from(b'"')))
        | zero_byte(x ^ (ONES * u64::from(b'\\')))
}

/// A JSON string with bytes to escape: the text between them copied in runs, the escapes
/// written by serde_json's formatter (so they look exactly as serde_json writes them).
pub(super) fn escaped(out: &mut Vec<u8>, bytes: &[u8]) {
    use serde_json::ser::CharEscape;
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if !ESCAPED[usize::from(b)] {
            continue;
        }
        let escape = match b {
            b'"' => CharEscape::Quote,
            b'\\' => CharEscape::ReverseSolidus,
            0x08 => CharEscape::Backspace,
            0x0c => CharEscape::FormFeed,
            b'\n' => CharEscape::LineFeed,
            b'\r' => CharEscape::CarriageReturn,
            b'\t' => CharEscape::Tab,
            _ => CharEscape::AsciiControl(b),
        };
        out.extend_from_slice(&bytes[start..i]);
        let _ = Fmt {}.write_char_escape(out, escape);
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// The bytes a JSON string escapes: control characters, `"` and `\\` (not DEL, not `/`: as
/// serde_json). The fast reader ends a string's plain run at them.
pub(super) static ESCAPED: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time [`clean`] agrees with the [`ESCAPED`] table on every byte at every
    /// place of every length it treats apart, beside bytes that need no escape and bytes
    /// just above and below the ones that do (where a borrow could mislead it).
    #[test]
    fn clean_agrees_with_the_table() {
        for fill in [b'a', b'!', b'#', b'[', b']', 0x20, 0x7f, 0x80, 0xdf, 0xff] {
            for len in 0..=20 {
                for at in 0..len {
                    for b in 0..=255u8 {
                        let mut text = vec![fill; len];
                        text[at] = b;
                        let by_table = !text.iter().any(|&c| ESCAPED[usize::from(c)]);
                        assert_eq!(clean(&text), by_table, "{text:?}");
                    }
                }
            }
        }
    }

    /// [`digits`] writes what serde_json's integer formatter writes, at every digit count.
    #[test]
    fn digits_print_as_serde_json_does() {
        let mut cases = vec![0, u64::MAX, u64::MAX - 1];
        let mut p = 1u64;
        for _ in 0..20 {
            cases.extend([p - 1, p, p + 1, p.saturating_mul(2), p.saturating_mul(9)]);
            p = p.saturating_mul(10);
        }
        cases.extend((0..100_000).chain((0..64).map(|e| 1 << e)));
        for u in cases {
            let mut ours = Vec::new();
            digits(&mut ours, u);
            let mut theirs = Vec::new();
            Fmt {}.write_u64(&mut theirs, u).unwrap();
            assert_eq!(ours, theirs, "{u}");
        }
    }

    /// The fast path for whole reals writes what serde_json's own formatter writes, on each
    /// side of every power of ten and two it covers and around its edges.
    #[test]
    fn whole_reals_print_as_serde_json_does() {
        let mut cases: Vec<f64> = (-100_000..=100_000).map(|i| i as f64).collect();
        for e in 0..=16 {
            let p = 10f64.powi(e);
            cases.extend([p - 1.0, p, p + 1.0, 3.0 * p, 9.0 * p]);
        }
        for e in 0..=53 {
            let p = (1u64 << e) as f64;
            cases.extend([p - 1.0, p, p + 1.0]);
        }
        cases.extend([
            1e15 - 2.0,
            999_999_999_999_999.0,
            0.0,
            -0.0,
            0.5,
            -1.5,
            1e-7,
        ]);
        for x in cases.iter().flat_map(|&x| [x, -x]) {
            let mut ours = Vec::new();
            real(&mut ours, x);
            let mut theirs = Vec::new();
            Fmt {}.write_f64(&mut theirs, x).unwrap();
            assert_eq!(
                String::from_utf8_lossy(&ours),
                String::from_utf8_lossy(&theirs),
                "{x:?}"
            );
        }
    }
}
