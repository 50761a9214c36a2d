//! Dictionary keys and strings in the scan: fingerprints, and rows of keys repeated record to record.

use super::*;

/// What the scan keeps of the small dictionaries at one depth (row `d - 1` for depth `d`): one
/// container at most is open at a depth, so a row is never shared. A key's slot is the count
/// of entries after it, below [`INDEX_FROM`] in a small dictionary, so keeping a key is a
/// store.
///
/// Game data repeats its keys: a dictionary of the same count as the last one at its depth,
/// whose keys are spelled as that one's were in each slot, has that one's keys and so no
/// repeated key. Such a key is checked by a compare of its bytes alone; the first that is
/// spelled otherwise sends the rest of its dictionary the usual way, with the fingerprints of
/// the keys before it (those of the last dictionary's, being spelled the same) still in place.
#[derive(Clone)]
pub(super) struct Row {
    /// Each slot's key fingerprint.
    pub(super) fps: [u64; INDEX_FROM],
    /// Each slot's key as the last dictionary at this depth spelled it.
    pub(super) spelled: [Spelled; INDEX_FROM],
    /// That dictionary's count when `spelled` holds all its keys; [`NO_SHAPE`] when some key
    /// of it has no [`Spelled`] form, or it has an index.
    pub(super) shape: u32,
}

/// A count no small dictionary has.
pub(super) const NO_SHAPE: u32 = u32::MAX;

impl Row {
    pub(super) const EMPTY: Row = Row {
        fps: [0; INDEX_FROM],
        spelled: [Spelled::NONE; INDEX_FROM],
        shape: NO_SHAPE,
    };

    /// The `seen` bits of the keys before slot `slot` of a dictionary of `count` entries.
    #[cold]
    pub(super) fn seen_before(&self, slot: usize, count: u32) -> u64 {
        let before = self.fps.get(slot + 1..count as usize).unwrap_or(&[]);
        before.iter().fold(0, |seen, fp| seen | 1u64 << (fp >> 58))
    }
}

/// A key's bytes, which are at most 16 (the header and the word after it in `head`, and the
/// 0–8 bytes after those masked in `body`), and their count with padding.
#[derive(Clone, Copy)]
pub(super) struct Spelled {
    pub(super) head: u64,
    pub(super) body: u64,
    pub(super) mask: u64,
    pub(super) len: usize,
}

impl Spelled {
    /// Never stored as a key's (a row's `shape` says whether its keys are spelled).
    pub(super) const NONE: Spelled = Spelled {
        head: 0,
        body: 0,
        mask: 0,
        len: 0,
    };

    /// Whether `bytes` (the next 16 of the input) start with this key.
    #[inline(always)]
    pub(super) fn starts(&self, bytes: &[u8; 16]) -> bool {
        let x = u128::from_le_bytes(*bytes);
        x as u64 == self.head && (x >> 64) as u64 & self.mask == self.body
    }
}

pub(super) type Rows = SmallVec<[Row; 4]>;

/// Depths that keep a [`Row`]: a dictionary deeper than this gives up to the driver. A row
/// is 648 bytes, and a depth costs the input 8 bytes (an Array's header and count), so rows
/// for any depth would let a dictionary under hundreds of arrays take more memory than its
/// input justifies (`tests/fuzz_regressions.rs`); 64 rows are 41 KiB at most, and game data
/// nests a few levels.
pub(super) const ROW_DEPTHS: usize = 64;

const _: () = assert!(INDEX_FROM.is_power_of_two());

/// The row of a dictionary `frame` opening at `depth`, with `frame.same` set and the row's
/// shape made the dictionary's.
#[inline(always)]
pub(super) fn open_row<'r>(
    rows: &'r mut Rows,
    depth: usize,
    frame: &mut Open,
) -> Option<&'r mut Row> {
    if depth > ROW_DEPTHS {
        return None;
    }
    if rows.len() < depth {
        rows.resize(depth, Row::EMPTY);
    }
    let row = rows.get_mut(depth - 1)?;
    let n = frame.count;
    frame.same = row.shape == n;
    if !frame.same {
        row.shape = if (n as usize) < INDEX_FROM {
            n
        } else {
            NO_SHAPE
        };
    }
    Some(row)
}

/// [`plain_ascii`] of text of eight bytes at most, `n`, that starts `word` (bytes past it are
/// masked off): whether it is ASCII without NUL, its fingerprint, the text's bytes and the
/// mask that keeps them.
#[inline(always)]
pub(super) fn short_plain(word: u64, n: usize) -> (bool, u64, u64, u64) {
    pub(super) const ONES: u64 = 0x0101_0101_0101_0101;
    pub(super) const HIGH: u64 = 0x8080_8080_8080_8080;
    // The low `n` bytes (two shifts, as one of 64 bits would overflow).
    let keep = ((1u64 << (4 * n)) << (4 * n)).wrapping_sub(1);
    let x = word & keep;
    // A NUL borrows and sets its own top bit (a borrow may set later ones too, which only
    // sends the text the careful way); a byte of 0x80 or more has it set.
    let flags = (x.wrapping_sub(ONES & keep) | x) & HIGH & keep;
    (flags == 0, mix(n as u64, x).wrapping_mul(K), x, keep)
}

/// [`short_plain`] of text of 9 to 16 bytes, `n`, that starts `first` and `second`: whether it
/// is ASCII without NUL, and its fingerprint.
#[inline(always)]
pub(super) fn middle_plain(first: u64, second: u64, n: usize) -> (bool, u64) {
    pub(super) const ONES: u64 = 0x0101_0101_0101_0101;
    pub(super) const HIGH: u64 = 0x8080_8080_8080_8080;
    let (second_plain, _, x, _) = short_plain(second, n - 8);
    let flags = (first.wrapping_sub(ONES) | first) & HIGH;
    // As `plain_ascii` mixes it: the full first word, then the second masked.
    (
        second_plain && flags == 0,
        mix(mix(n as u64, first), x).wrapping_mul(K),
    )
}

/// [`plain_ascii`]'s fingerprint of text that is not plain ASCII (the engine's reading left it
/// as it is).
pub(super) fn text_fingerprint(b: &[u8]) -> u64 {
    let mut h = b.len() as u64;
    for c in b.chunks(8) {
        h = mix(h, last_word(c));
    }
    h.wrapping_mul(K)
}

impl Scan {
    /// A key (fingerprint `fp`, `left` entries after it) whose bit was set in `seen`: `None`
    /// when it may repeat an earlier key.
    #[inline(never)]
    pub(super) fn seen_key(
        &mut self,
        top: &mut Open,
        keys: &[u64; INDEX_FROM],
        left: u32,
        fp: u64,
    ) -> Option<()> {
        if let Some(index) = &mut top.index {
            return self.indexed_key(index, fp);
        }
        // The keys before it: the slots above its own.
        let before = keys.get(left as usize + 1..top.count as usize)?;
        (!before.contains(&fp)).then_some(())
    }

    /// [`Scan::seen_key`] of a dictionary of [`INDEX_FROM`] entries or more.
    #[inline(never)]
    pub(super) fn indexed_key(
        &mut self,
        index: &mut hashbrown::HashTable<u64>,
        fp: u64,
    ) -> Option<()> {
        let state = self.state.get_or_insert_with(key::KeyState::new);
        let h = state.hash_one(fp);
        if index.find(h, |&x| x == fp).is_some() {
            return None;
        }
        index.insert_unique(h, fp, |&x| state.hash_one(x));
        Some(())
    }

    /// A dictionary key at the start of `rest` (which moves past it) and its fingerprint:
    /// text or an INT; anything else gives up. Its bytes go to `spelled`, or when they do not
    /// fit one, `shape` is cleared.
    #[inline(always)]
    pub(super) fn key(
        &mut self,
        rest: &mut &[u8],
        spelled: &mut Spelled,
        shape: &mut u32,
    ) -> Option<u64> {
        // The header and the word after it (a text's length, an INT's low half), in one check.
        let (head, payload) = rest.split_first_chunk::<8>()?;
        let head = u64::from_le_bytes(*head);
        let (header, second) = (head as u32, (head >> 32) as u32);
        let mut e = self.entry(header);
        if e.how == How::Unknown {
            e = self.looked_up(header);
        }
        if let How::Text | How::Name = e.how {
            // String and StringName keys of one text share a fingerprint: a dictionary with
            // both goes to the driver, which knows how each version compares them.
            let n = second as usize;
            match payload.first_chunk::<8>() {
                // Short text (most keys) in one load.
                Some(word) if n <= 8 => {
                    let len = n + quirks::pad4(n);
                    let after = payload.get(len..)?;
                    let (plain, fp, body, mask) = short_plain(u64::from_le_bytes(*word), n);
                    if plain {
                        *spelled = Spelled {
                            head,
                            body,
                            mask,
                            len: 8 + len,
                        };
                        *rest = after;
                        return Some(fp);
                    }
                }
                _ => {}
            }
            *shape = NO_SHAPE;
            let (after, fp) = self.text_body::<true>(second, payload)?;
            *rest = after;
            return Some(fp);
        }
        if e.how != How::Int {
            return None;
        }
        let v = if header & FLAG_64 != 0 {
            let (high, after) = split_word(payload)?;
            *rest = after;
            *spelled = Spelled {
                head,
                body: u64::from(high),
                mask: u64::from(u32::MAX),
                len: 12,
            };
            (u64::from(high) << 32 | u64::from(second)) as i64
        } else {
            *rest = payload;
            *spelled = Spelled {
                head,
                body: 0,
                mask: 0,
                len: 8,
            };
            second as i32 as i64
        };
        // Apart from text fingerprints, which start from a length below 2^31.
        Some(mix(u64::MAX, v as u64))
    }

    /// A string (`_decode_string`) whose length word starts `rest`: what follows it, and its
    /// key fingerprint when `KEY`.
    #[inline(always)]
    pub(super) fn text<'b, const KEY: bool>(&mut self, rest: &'b [u8]) -> Option<(&'b [u8], u64)> {
        let (n, bytes) = split_word(rest)?;
        self.text_body::<KEY>(n, bytes)
    }

    /// [`Scan::text`] of the length word `n` and the bytes after it. Text the engine's reading
    /// leaves as it is (ASCII without NUL) is checked a word at a time; other text as the
    /// driver checks it, except that as a key it gives up unless the reading leaves it
    /// unchanged.
    #[inline(always)]
    pub(super) fn text_body<'b, const KEY: bool>(
        &mut self,
        n: u32,
        bytes: &'b [u8],
    ) -> Option<(&'b [u8], u64)> {
        let n = usize::try_from(n as i32).ok()?;
        let after = bytes.get(n + quirks::pad4(n)..)?;
        // Short text (most keys, and names) in one or two loads.
        let (plain, fp) = if n <= 8 {
            match bytes.first_chunk::<8>() {
                Some(word) => {
                    let (plain, fp, ..) = short_plain(u64::from_le_bytes(*word), n);
                    (plain, fp)
                }
                None => plain_ascii(bytes, 0, n, KEY),
            }
        } else {
            match bytes.first_chunk::<16>() {
                Some(words) if n <= 16 => {
                    let x = u128::from_le_bytes(*words);
                    middle_plain(x as u64, (x >> 64) as u64, n)
                }
                _ => plain_ascii(bytes, 0, n, KEY),
            }
        };
        if plain {
            return Some((after, fp));
        }
        let fp = self.careful_text(&bytes[..n], KEY)?;
        Some((after, fp))
    }

    #[inline(never)]
    pub(super) fn careful_text(&mut self, bytes: &[u8], key: bool) -> Option<u64> {
        let strict = self.dialect.has_feature(self.version, Feature::StrictUtf8);
        match quirks::engine_string(bytes, self.keep_leading_bom, strict).ok()? {
            crate::StrRef::Borrowed(s) if s.len() == bytes.len() => Some(if key {
                text_fingerprint(s.as_bytes())
            } else {
                0
            }),
            // Changed by the reading (a NUL, a BOM, lenient UTF-8): fine as a value, while
            // as a key its identity is the changed text, which the driver works out.
            _ if key => None,
            _ => Some(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two fingerprints of text agree, whatever the padding holds, so plain and other text
    /// of the same bytes count as the same key.
    #[test]
    fn fingerprints_agree() {
        for text in [
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "abcde",
            "abcdefgh",
            "abcdefghi",
            "player_12345",
            "abcdefghijklmnop",
            "abcdefghijklmnopq",
        ] {
            let n = text.len();
            for extra in 0..12 {
                let mut padded = text.as_bytes().to_vec();
                padded.resize(n + extra, 0xff);
                let (plain, fp) = plain_ascii(&padded, 0, n, true);
                assert!(plain);
                assert_eq!(fp, text_fingerprint(text.as_bytes()), "{text:?}");
                if (9..=16).contains(&n) && padded.len() >= 16 {
                    let x = u128::from_le_bytes(padded[..16].try_into().unwrap());
                    let got = middle_plain(x as u64, (x >> 64) as u64, n);
                    assert_eq!(got, (true, fp), "{text:?}");
                }
                if n <= 8 && padded.len() >= 8 {
                    let word = u64::from_le_bytes(padded[..8].try_into().unwrap());
                    let (plain, short_fp, ..) = short_plain(word, n);
                    assert_eq!((plain, short_fp), (true, fp), "{text:?}");
                }
            }
        }
    }

    /// Text of up to 16 bytes read a word or two at a time is plain only without a NUL or a
    /// byte of 0x80 or more in it, whatever follows it.
    #[test]
    fn short_text_is_plain_only_without_nul_or_high_bytes() {
        let plain = |b: &[u8; 16], n: usize| {
            let x = u128::from_le_bytes(*b);
            if n <= 8 {
                short_plain(x as u64, n).0
            } else {
                middle_plain(x as u64, (x >> 64) as u64, n).0
            }
        };
        for n in 0..=16 {
            for after in [0u8, 0x80, 0xff, b'a'] {
                let mut b = [after; 16];
                b[..n].fill(b'a');
                assert!(plain(&b, n), "n={n} followed by {after:#x}");
                for i in 0..n {
                    for bad in [0u8, 0x80, 0xc3, 0xff] {
                        let mut b = b;
                        b[i] = bad;
                        assert!(!plain(&b, n), "n={n}, {bad:#x} at {i}");
                    }
                }
            }
        }
    }
}
