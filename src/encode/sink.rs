//! Where encoded bytes go: the sizing pass's counter and the writing pass's buffer, behind one `Sink` trait.

use crate::error::EncodeError;
use crate::quirks::{self};

/// Where encoded bytes go.
pub(super) trait Sink {
    fn put(&mut self, bytes: &[u8]);
    /// A few bytes known at compile time (headers, counts, numbers, padding).
    fn put_array<const N: usize>(&mut self, bytes: [u8; N]);
    /// Up to four zero bytes: the padding of strings and byte arrays.
    #[inline(always)]
    fn zeros(&mut self, n: usize) {
        match n {
            0 => {}
            1 => self.put_array([0; 1]),
            2 => self.put_array([0; 2]),
            3 => self.put_array([0; 3]),
            _ => {
                for _ in 0..n / 4 {
                    self.put_array([0; 4]);
                }
                self.zeros(n % 4);
            }
        }
    }
    /// A fixed layout of `size` bytes, written by `f` (only called when writing).
    fn layout(&mut self, size: usize, f: impl FnOnce(&mut Vec<u8>));
    /// Text as the engine writes it: `head` (a value's header, or nothing), the length, the
    /// bytes and zeros to a multiple of four; `n` (the length) already checked.
    fn text<const H: usize>(&mut self, head: [u8; H], s: &[u8]);
    /// Two words in one write (a header and its payload, a header and a count): one check
    /// of the room instead of two.
    #[inline(always)]
    fn u32_u32(&mut self, a: u32, b: u32) {
        self.put_array::<8>(words(a.to_le_bytes(), b.to_le_bytes()));
    }
    #[inline(always)]
    fn u32_u64(&mut self, a: u32, b: u64) {
        self.put_array::<12>(words(a.to_le_bytes(), b.to_le_bytes()));
    }
    #[inline(always)]
    fn u32(&mut self, v: u32) {
        self.put_array(v.to_le_bytes());
    }
    #[inline(always)]
    fn u64(&mut self, v: u64) {
        self.put_array(v.to_le_bytes());
    }
}

/// A container's count as written, if it fits the count's bits.
#[inline]
pub(super) fn count_word(n: usize) -> Result<u32, EncodeError> {
    if n > quirks::COUNT_MASK as usize {
        return Err(EncodeError::TooLong {
            len: n,
            path: String::new(),
        });
    }
    Ok(n as u32)
}

/// `a` then `b` as one array (`N` is `A + B`, which stable Rust cannot spell in a signature).
#[inline(always)]
pub(super) fn words<const A: usize, const B: usize, const N: usize>(
    a: [u8; A],
    b: [u8; B],
) -> [u8; N] {
    let mut out = [0; N];
    out[..A].copy_from_slice(&a);
    out[A..].copy_from_slice(&b);
    out
}

/// Counts bytes (the sizing pass).
pub(super) struct Counter(pub(super) usize);

impl Sink for Counter {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }
    #[inline(always)]
    fn put_array<const N: usize>(&mut self, _: [u8; N]) {
        self.0 += N;
    }
    #[inline]
    fn zeros(&mut self, n: usize) {
        self.0 += n;
    }
    #[inline]
    fn layout(&mut self, size: usize, _: impl FnOnce(&mut Vec<u8>)) {
        self.0 += size;
    }
    #[inline]
    fn text<const H: usize>(&mut self, _: [u8; H], s: &[u8]) {
        self.0 += H + 4 + s.len() + quirks::pad4(s.len());
    }
}

/// Writes bytes (the one pass of `encode`: a two-pass encode that sized the value first
/// spent half of its time on W3 and W4 in the sizing).
pub(super) struct Writer<'a>(pub(super) &'a mut Vec<u8>);

impl Sink for Writer<'_> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
    /// One store instead of `extend_from_slice`'s call and `memmove` for 4 bytes (a third of
    /// the writing pass's time on W4 before).
    #[inline(always)]
    fn put_array<const N: usize>(&mut self, bytes: [u8; N]) {
        self.0.reserve(N);
        let len = self.0.len();
        // SAFETY: `reserve` guarantees capacity for `len + N` bytes, the `N` bytes written
        // are initialised by the write, and `[u8; N]` has no alignment requirement.
        unsafe {
            self.0.as_mut_ptr().add(len).cast::<[u8; N]>().write(bytes);
            self.0.set_len(len + N);
        }
    }
    #[inline]
    fn layout(&mut self, _: usize, f: impl FnOnce(&mut Vec<u8>)) {
        f(self.0)
    }
    /// One check of the room for the whole text, and short text (keys, names: nearly all
    /// text games send) copied by two overlapping word moves instead of a call to `memcpy`
    /// (W4 spent 77 of its 1,154 instructions in five such calls).
    #[inline(always)]
    fn text<const H: usize>(&mut self, head: [u8; H], s: &[u8]) {
        let n = s.len();
        // `n + quirks::pad4(n)`, as a mask: written with `pad4`, W4 took 8 more instructions.
        let padded = (n + 3) & !3;
        debug_assert_eq!(padded, n + quirks::pad4(n));
        let total = H + 4 + padded;
        self.0.reserve(total);
        let len = self.0.len();
        // SAFETY: `reserve` made room for `total` bytes after `len`. Every write below is
        // inside `[len, len + total)`: the head and the length take `H + 4` bytes; the last
        // word of the padded text (written only when there is text, so `padded >= 4`) ends
        // at `total`; the text's copies cover `[H + 4, H + 4 + n)`, reading only inside `s`.
        // Together they initialise all `total` bytes (the text, then zeros to `padded`),
        // so the new length covers initialised bytes only.
        unsafe {
            let at = self.0.as_mut_ptr().add(len);
            at.cast::<[u8; H]>().write_unaligned(head);
            at.add(H)
                .cast::<[u8; 4]>()
                .write_unaligned((n as u32).to_le_bytes());
            let text = at.add(H + 4);
            if n > 0 {
                // Zero the last word first: the text overwrites all of it but the padding.
                text.add(padded - 4)
                    .cast::<[u8; 4]>()
                    .write_unaligned([0; 4]);
            }
            let from = s.as_ptr();
            match n {
                0 => {}
                // The first, middle and last bytes are all the bytes of one to three.
                1..=3 => {
                    *text = *from;
                    *text.add(n / 2) = *from.add(n / 2);
                    *text.add(n - 1) = *from.add(n - 1);
                }
                // Two words that overlap in the middle as much as they need to.
                4..=7 => {
                    let first = from.cast::<[u8; 4]>().read_unaligned();
                    let last = from.add(n - 4).cast::<[u8; 4]>().read_unaligned();
                    text.cast::<[u8; 4]>().write_unaligned(first);
                    text.add(n - 4).cast::<[u8; 4]>().write_unaligned(last);
                }
                8..=16 => {
                    let first = from.cast::<[u8; 8]>().read_unaligned();
                    let last = from.add(n - 8).cast::<[u8; 8]>().read_unaligned();
                    text.cast::<[u8; 8]>().write_unaligned(first);
                    text.add(n - 8).cast::<[u8; 8]>().write_unaligned(last);
                }
                _ => std::ptr::copy_nonoverlapping(from, text, n),
            }
            self.0.set_len(len + total);
        }
    }
}
