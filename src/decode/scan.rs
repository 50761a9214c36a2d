//! The fast path of the validating pass: a tight loop over headers and lengths that either
//! vouches for the input or gives up, leaving the verdict to the full driver.
//!
//! Lazy borrowed decoding needs only two facts of its input: where the value ends, and that
//! the driver would accept it without any dictionary repeating a key. [`vouch`] answers both
//! for the values games send (numbers, text, math values, packed arrays, untyped or
//! builtin-typed containers) at a fraction of the driver's cost: no value is built, no key is
//! kept but a 64-bit fingerprint. It never decides an error: anything it is not sure of (an
//! error, a rare kind, text the engine's reading would change, a key that might repeat, a
//! limit reached) makes it return `None`, and the driver reads the input from the start, so
//! errors, offsets and the duplicate-key rule stay the driver's by construction. Its one duty
//! is never to vouch for input the driver refuses; `debug_assertions` builds (tests, fuzzing)
//! check each verdict against the driver's.
//!
//! [`skip_value`] is the same loop without the key rule, for walking bytes already validated.

use super::*;

/// What [`vouch`] and [`skip_value`] know of a type id, worked out once per id and decode: the way
/// to step over the payload, and for fixed sizes the payload without and with FLAG_64.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum How {
    /// Not looked up yet.
    Unknown,
    /// Anything the scan does not read: it gives up.
    GiveUp,
    /// A payload of fixed size (Nil, Bool, Float, RID, Callable, math values).
    Sized,
    /// An INT (sized, and its value is a key's identity).
    Int,
    /// A String's text.
    Text,
    /// A StringName's text.
    Name,
    /// A packed array of fixed-size elements.
    Packed,
    PackedBytes,
    PackedStrings,
    Array,
    Dictionary,
}

/// [`How`] and the two sizes of one type id.
#[derive(Clone, Copy)]
struct Entry {
    how: How,
    /// The payload's (or a packed element's) size without FLAG_64.
    narrow: u8,
    /// With FLAG_64.
    wide: u8,
}

const UNKNOWN: Entry = Entry {
    how: How::Unknown,
    narrow: 0,
    wide: 0,
};

/// Type ids with a table slot; others (none in any dialect) give up.
const IDS: usize = 64;

/// An open container: elements left, and for a dictionary where its keys' fingerprints start
/// in the key stack.
struct Open {
    left: u32,
    dict: bool,
    /// One bit per key fingerprint's top six bits, as `DictFill::seen`.
    seen: u64,
    keys_from: usize,
    /// Fingerprints of the keys of a dictionary of [`INDEX_FROM`] entries or more.
    index: Option<Box<hashbrown::HashTable<u64>>>,
}

/// The scan: the input, and what it has counted. The position is a local of the loop (kept in
/// a register), passed to the steps that move it.
struct Scan<'a> {
    buf: &'a [u8],
    dialect: Dialect,
    version: Version,
    keep_leading_bom: bool,
    /// Whether it checks keys, depth and the element limit ([`vouch`]), or not ([`skip_value`]).
    check: bool,
    max_depth: usize,
    max_elements: usize,
    elements: usize,
    table: [Entry; IDS],
    /// Fingerprints of the keys of every open small dictionary, innermost last.
    keys: SmallVec<[u64; 64]>,
    /// Seeds the hash of big dictionaries' key tables, so crafted keys cannot crowd them.
    state: Option<std::hash::RandomState>,
}

/// What one value turned out to be.
enum Read {
    Leaf,
    /// A container with this many elements (entries of a dictionary) was opened; `true` for
    /// a dictionary.
    Open(u32, bool),
}

/// `Some(used)` when [`drive`] over `buf` would succeed, use `used` bytes and find no repeated
/// dictionary key; `None` when the scan cannot tell (the driver must read it).
pub(crate) fn vouch(buf: &[u8], dialect: Dialect, options: &DecodeOptions) -> Option<usize> {
    // Every option is named here, so a new one cannot slip past the scan unconsidered.
    let DecodeOptions {
        version,
        allow_objects: _,
        limits: Limits {
            max_depth,
            max_elements,
        },
        keep_leading_bom,
        engine_strict,
        existing_scripts: _,
    } = options;
    let (version, max_depth, max_elements, keep_leading_bom) =
        (*version, *max_depth, *max_elements, *keep_leading_bom);
    // Engine mode may refuse a class or rewrite a typed container: the driver judges it.
    if *engine_strict {
        return None;
    }
    let mut scan = Scan::new(buf, dialect, version, keep_leading_bom, true);
    scan.max_depth = max_depth;
    scan.max_elements = max_elements;
    scan.run(0)
}

/// Where the value at `pos` of input that the driver accepted (with this dialect, version and
/// BOM choice) ends, or `None` when the scan does not read it (the driver must).
pub(crate) fn skip_value(
    buf: &[u8],
    pos: usize,
    dialect: Dialect,
    version: Version,
    keep_leading_bom: bool,
) -> Option<usize> {
    Scan::new(buf, dialect, Some(version), keep_leading_bom, false).run(pos)
}

/// The little-endian word at `pos`, if the input holds it.
#[inline(always)]
fn word_at(buf: &[u8], pos: usize) -> Option<u32> {
    let b: [u8; 4] = buf.get(pos..pos.checked_add(4)?)?.try_into().ok()?;
    Some(u32::from_le_bytes(b))
}

/// `pos + n`, if the input holds that many more bytes.
#[inline(always)]
fn advance(buf: &[u8], pos: usize, n: usize) -> Option<usize> {
    pos.checked_add(n).filter(|&end| end <= buf.len())
}

impl<'a> Scan<'a> {
    fn new(
        buf: &'a [u8],
        dialect: Dialect,
        version: Option<Version>,
        keep_leading_bom: bool,
        check: bool,
    ) -> Scan<'a> {
        Scan {
            buf,
            dialect,
            version: version.unwrap_or_else(|| dialect.newest()),
            keep_leading_bom,
            check,
            max_depth: usize::MAX,
            max_elements: usize::MAX,
            elements: 0,
            table: [UNKNOWN; IDS],
            keys: SmallVec::new(),
            state: None,
        }
    }

    /// The whole value at `pos`: where it ends, or `None`. The innermost open container lives
    /// in locals; the stack holds only those around it.
    fn run(&mut self, pos: usize) -> Option<usize> {
        let mut pos = pos;
        let (n, dict) = match self.value(&mut pos)? {
            Read::Leaf => return Some(pos),
            Read::Open(n, dict) => (n, dict),
        };
        let mut stack: SmallVec<[Open; INLINE_DEPTH]> = SmallVec::new();
        let mut top = self.open(n, dict);
        // The driver's depth: the open containers, this one included.
        let mut depth = 1;
        let max_depth = if self.check {
            self.max_depth
        } else {
            usize::MAX
        };
        loop {
            if top.left == 0 {
                if top.dict {
                    self.keys.truncate(top.keys_from);
                }
                match stack.pop() {
                    Some(parent) => {
                        top = parent;
                        depth -= 1;
                        continue;
                    }
                    None => return Some(pos),
                }
            }
            if depth > max_depth {
                return None;
            }
            top.left -= 1;
            if top.dict {
                if self.check {
                    let fp = self.key(&mut pos)?;
                    self.new_key(&mut top, fp)?;
                } else if let Read::Open(..) = self.value(&mut pos)? {
                    // A container as a key: rare, left to the driver.
                    return None;
                }
            }
            if let Read::Open(n, dict) = self.value(&mut pos)? {
                let child = self.open(n, dict);
                stack.push(std::mem::replace(&mut top, child));
                depth += 1;
            }
        }
    }

    /// A container of `n` elements just opened.
    #[inline(always)]
    fn open(&mut self, n: u32, dict: bool) -> Open {
        let index = if dict && self.check && n as usize >= INDEX_FROM {
            Some(Box::new(hashbrown::HashTable::new()))
        } else {
            None
        };
        Open {
            left: n,
            dict,
            seen: 0,
            keys_from: self.keys.len(),
            index,
        }
    }

    /// Records a dictionary key's fingerprint; `None` when it may repeat an earlier key.
    #[inline(always)]
    fn new_key(&mut self, top: &mut Open, fp: u64) -> Option<()> {
        if let Some(index) = &mut top.index {
            return self.new_indexed_key(index, fp);
        }
        let bit = 1u64 << (fp >> 58);
        if top.seen & bit != 0 && self.keys[top.keys_from..].contains(&fp) {
            return None;
        }
        top.seen |= bit;
        self.keys.push(fp);
        Some(())
    }

    #[inline(never)]
    fn new_indexed_key(&mut self, index: &mut hashbrown::HashTable<u64>, fp: u64) -> Option<()> {
        let state = self.state.get_or_insert_with(std::hash::RandomState::new);
        let h = state.hash_one(fp);
        if index.find(h, |&x| x == fp).is_some() {
            return None;
        }
        index.insert_unique(h, fp, |&x| state.hash_one(x));
        Some(())
    }

    /// The table entry of type id `tag`.
    #[inline(always)]
    fn entry(&mut self, tag: u32) -> Entry {
        match self.table.get(tag as usize) {
            Some(e) if e.how != How::Unknown => *e,
            _ => self.look_up(tag),
        }
    }
    #[cold]
    #[inline(never)]
    fn look_up(&mut self, tag: u32) -> Entry {
        let (dialect, version) = (self.dialect, self.version);
        let sized = |n: usize, w: usize| Entry {
            how: How::Sized,
            narrow: n as u8,
            wide: w as u8,
        };
        let with = |how| Entry {
            how,
            narrow: 0,
            wide: 0,
        };
        let e = match dialect.kind_of(version, tag) {
            None => with(How::GiveUp),
            Some(kind) => {
                // FLAG_64 widens a math value only where the dialect says (as in `one`).
                let w = dialect.flag64_reals(version, kind);
                let fixed = with_fixed!(kind, T => Some((<T as FixedLayout>::size(false), <T as FixedLayout>::size(w))), _ => None);
                let packed = with_packed!(kind, T => Some((<T as PackedElement>::size(false), <T as PackedElement>::size(w))), _ => None);
                match (kind, fixed, packed) {
                    (_, Some((n, w)), _) => sized(n, w),
                    (_, _, Some((n, w))) => Entry {
                        how: How::Packed,
                        narrow: n as u8,
                        wide: w as u8,
                    },
                    (Kind::Nil | Kind::Callable, ..) => sized(0, 0),
                    (Kind::Bool, ..) => sized(4, 4),
                    (Kind::Float, ..) => sized(4, 8),
                    (Kind::Int, ..) => Entry {
                        how: How::Int,
                        narrow: 4,
                        wide: 8,
                    },
                    (Kind::Rid, ..) => {
                        let n = if dialect.has_feature(version, Feature::RidPayload) {
                            8
                        } else {
                            0
                        };
                        sized(n, n)
                    }
                    (Kind::String, ..) => with(How::Text),
                    (Kind::StringName, ..) => with(How::Name),
                    (Kind::PackedInt32Array, ..) => packed_of::<i32>(w),
                    (Kind::PackedInt64Array, ..) => packed_of::<i64>(w),
                    (Kind::PackedFloat32Array, ..) => packed_of::<f32>(w),
                    (Kind::PackedFloat64Array, ..) => packed_of::<f64>(w),
                    (Kind::PackedByteArray, ..) => with(How::PackedBytes),
                    (Kind::PackedStringArray, ..) => with(How::PackedStrings),
                    (Kind::Array, ..) => with(How::Array),
                    (Kind::Dictionary, ..) => with(How::Dictionary),
                    _ => with(How::GiveUp),
                }
            }
        };
        if let Some(slot) = self.table.get_mut(tag as usize) {
            *slot = e;
        }
        e
    }

    /// One value's header and payload at `*pos`; a container is only opened (its count read).
    #[inline(always)]
    fn value(&mut self, pos: &mut usize) -> Option<Read> {
        let header = word_at(self.buf, *pos)?;
        let e = self.entry(header & quirks::TYPE_MASK);
        let at = *pos + 4;
        let size = usize::from(if header & FLAG_64 != 0 {
            e.wide
        } else {
            e.narrow
        });
        *pos = match e.how {
            How::Sized | How::Int => advance(self.buf, at, size)?,
            How::Text | How::Name => self.text(at, false)?.0,
            _ => {
                let (read, end) = self.other(header, e, at)?;
                *pos = end;
                return Some(read);
            }
        };
        Some(Read::Leaf)
    }

    /// A dictionary key at `*pos` and its fingerprint: text or an INT; anything else gives up.
    #[inline(always)]
    fn key(&mut self, pos: &mut usize) -> Option<u64> {
        let header = word_at(self.buf, *pos)?;
        let e = self.entry(header & quirks::TYPE_MASK);
        let at = *pos + 4;
        match e.how {
            How::Text | How::Name => {
                // String and StringName keys of one text share a fingerprint: a dictionary
                // with both goes to the driver, which knows how each version compares them.
                let (end, fp) = self.text(at, true)?;
                *pos = end;
                Some(fp)
            }
            How::Int => {
                let v = if header & FLAG_64 != 0 {
                    let b = self.buf.get(at..at + 8)?;
                    *pos = at + 8;
                    read_u64(b, 0) as i64
                } else {
                    *pos = at + 4;
                    word_at(self.buf, at)? as i32 as i64
                };
                // Apart from text fingerprints, which start from a length below 2^31.
                Some(mix(u64::MAX, v as u64))
            }
            _ => None,
        }
    }

    /// The rarer steps of [`Scan::value`], out of its loop: the payload at `at`, and its end.
    #[inline(never)]
    fn other(&mut self, header: u32, e: Entry, at: usize) -> Option<(Read, usize)> {
        let buf = self.buf;
        let flag = header & FLAG_64 != 0;
        match e.how {
            How::Packed => {
                let stride = usize::from(if flag { e.wide } else { e.narrow });
                let n = usize::try_from(word_at(buf, at)? as i32).ok()?;
                let end = advance(buf, at + 4, n.checked_mul(stride)?)?;
                self.count(n)?;
                Some((Read::Leaf, end))
            }
            How::PackedBytes => {
                let n = usize::try_from(word_at(buf, at)? as i32).ok()?;
                advance(buf, at + 4, n)?;
                self.count(n)?;
                // The padding need not be present (see the driver).
                Some((Read::Leaf, (at + 4 + n + quirks::pad4(n)).min(buf.len())))
            }
            How::PackedStrings => {
                // A negative count is an empty array.
                let n = (word_at(buf, at)? as i32).max(0) as usize;
                self.count(n)?;
                let mut pos = at + 4;
                for _ in 0..n {
                    pos = self.text(pos, false)?.0;
                }
                Some((Read::Leaf, pos))
            }
            How::Array => {
                let mut pos = at;
                let kind = quirks::container_kind(header, quirks::TYPED_ARRAY);
                if kind != 0 && self.dialect.has_feature(self.version, Feature::TypedArray) {
                    pos = self.element_type(kind, pos)?;
                }
                let n = quirks::container_count(word_at(buf, pos)?);
                self.count(n as usize)?;
                Some((Read::Open(n, false), pos + 4))
            }
            How::Dictionary => {
                let mut pos = at;
                let kinds = header & (quirks::TYPED_KEY | quirks::TYPED_VALUE);
                if kinds != 0
                    && self
                        .dialect
                        .has_feature(self.version, Feature::TypedDictionary)
                {
                    pos =
                        self.element_type(quirks::container_kind(header, quirks::TYPED_KEY), pos)?;
                    pos = self
                        .element_type(quirks::container_kind(header, quirks::TYPED_VALUE), pos)?;
                }
                let n = quirks::container_count(word_at(buf, pos)?);
                self.count(n as usize)?;
                Some((Read::Open(n, true), pos + 4))
            }
            _ => None,
        }
    }

    /// A typed container's type data for one side at `pos`: none, or a builtin type the
    /// dialect has; a class or a script gives up. Gives where it ends.
    fn element_type(&mut self, kind: u32, pos: usize) -> Option<usize> {
        match kind {
            quirks::KIND_NONE => Some(pos),
            quirks::KIND_BUILTIN => {
                let id = word_at(self.buf, pos)?;
                self.dialect.kind_of(self.version, id).map(|_| pos + 4)
            }
            _ => None,
        }
    }

    /// Counts `n` elements against the limit.
    #[inline(always)]
    fn count(&mut self, n: usize) -> Option<()> {
        self.elements = self.elements.saturating_add(n);
        (!self.check || self.elements <= self.max_elements).then_some(())
    }

    /// A string (`_decode_string`) at `pos`: where it ends, and its key fingerprint when
    /// `key`. Text the engine's reading leaves as it is (ASCII without NUL) is checked a word
    /// at a time; other text as the driver checks it, except that as a key it gives up unless
    /// the reading leaves it unchanged.
    #[inline(always)]
    fn text(&mut self, pos: usize, key: bool) -> Option<(usize, u64)> {
        let n = usize::try_from(word_at(self.buf, pos)? as i32).ok()?;
        let start = pos + 4;
        let end = advance(self.buf, start, n + quirks::pad4(n))?;
        let (plain, fp) = plain_ascii(self.buf, start, n, key);
        if plain {
            return Some((end, fp));
        }
        let fp = self.careful_text(&self.buf[start..start + n], key)?;
        Some((end, fp))
    }

    #[inline(never)]
    fn careful_text(&mut self, bytes: &[u8], key: bool) -> Option<u64> {
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

/// The [`Entry`] of a packed array of `T`.
fn packed_of<T: PackedElement>(w: bool) -> Entry {
    Entry {
        how: How::Packed,
        narrow: T::size(false) as u8,
        wide: T::size(w) as u8,
    }
}

/// [`plain_ascii`]'s fingerprint of text that is not plain ASCII (the engine's reading left it
/// as it is).
fn text_fingerprint(b: &[u8]) -> u64 {
    let mut h = b.len() as u64;
    for c in b.chunks(8) {
        h = mix(h, last_word(c));
    }
    h.wrapping_mul(K)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two fingerprints of text agree, whatever the padding holds, so plain and other text
    /// of the same bytes count as the same key.
    #[test]
    fn fingerprints_agree() {
        for text in ["", "a", "ab", "abc", "abcd", "abcde", "player_12345"] {
            let n = text.len();
            for extra in 0..12 {
                let mut padded = text.as_bytes().to_vec();
                padded.resize(n + extra, 0xff);
                let (plain, fp) = plain_ascii(&padded, 0, n, true);
                assert!(plain);
                assert_eq!(fp, text_fingerprint(text.as_bytes()), "{text:?}");
            }
        }
    }
}
