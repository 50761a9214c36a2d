//! The fast path of the validating pass: a tight loop over headers and lengths that either
//! vouches for the input or gives up, leaving the verdict to the full driver.
//!
//! Lazy borrowed decoding needs only two facts of its input: where the value ends, and that
//! the driver would accept it without any dictionary repeating a key. [`vouch`] answers both
//! for the values games send (numbers, text, math values, NodePaths, packed arrays, untyped
//! or builtin-typed containers) at a fraction of the driver's cost: no value is built, no key is
//! kept but a 64-bit fingerprint and, while the dictionaries at a depth repeat one another's
//! keys (records), its bytes (see `Row`). It never decides an error: anything it is not sure
//! of (an error, a rare kind, text the engine's reading would change, a key that might repeat,
//! a limit reached) makes it return `None`, and the driver reads the input from the start, so
//! errors, offsets and the duplicate-key rule stay the driver's by construction. Its one duty
//! is never to vouch for input the driver refuses; `debug_assertions` builds (tests, fuzzing)
//! check each verdict against the driver's.
//!
//! [`skip_value`] is the same loop without the key rule, for walking bytes already validated.
//! `gdvariant decode --format json` writes the JSON of a frame the scan vouched for straight
//! from its bytes (`json::append_json_of_bytes`).

use super::*;

mod keys;
mod table;
use keys::{open_row, Row, Rows};
use table::{newest_table, How, Slot, IDS, UNKNOWN};

/// An open container: elements left, and for a dictionary what it knows of the keys read so
/// far. Small, so that the one being filled stays in registers; a small dictionary's keys are
/// in the [`Row`] of its depth.
struct Open {
    left: u32,
    /// Its elements (entries).
    count: u32,
    dict: bool,
    /// One bit per key fingerprint's top six bits, as `DictFill::seen`; all set for a
    /// dictionary with an index, so that every key takes the slow step.
    seen: u64,
    /// Fingerprints of the keys of a dictionary of [`INDEX_FROM`] entries or more.
    index: Option<Box<hashbrown::HashTable<u64>>>,
    /// Whether every key so far is spelled as in the last dictionary at this depth, which had
    /// as many entries (see [`Row`]); `seen` is empty until one is not.
    same: bool,
}

/// The scan: the input's reading choices and what it has counted. Where it is in the input is
/// a local of the loop (the rest of the input, a slice kept in registers), passed to the steps
/// that move it. `CHECK` (a parameter of the steps) is whether it checks keys, depth and the
/// element limit ([`vouch`]) or not ([`skip_value`]).
struct Scan {
    dialect: Dialect,
    version: Version,
    keep_leading_bom: bool,
    max_depth: usize,
    max_elements: usize,
    elements: usize,
    table: [Slot; 2 * IDS],
    /// Seeds the hash of big dictionaries' key tables, so crafted keys cannot crowd them.
    state: Option<key::KeyState>,
}

/// A container that [`Scan::fill`] met.
enum Child {
    /// Opened: its count, and whether it is a dictionary.
    Opened((u32, bool)),
    /// A dictionary filled up to an element that opened a container (the second).
    Filling(Open, (u32, bool)),
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
    let mut scan = Scan::with_table(dialect, version, keep_leading_bom);
    scan.max_depth = max_depth;
    scan.max_elements = max_elements;
    scan.run::<true>(buf, 0)
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
    Scan::with_table(dialect, Some(version), keep_leading_bom).run::<false>(buf, pos)
}

/// The little-endian word that `rest` starts with, and what follows it.
#[inline(always)]
fn split_word(rest: &[u8]) -> Option<(u32, &[u8])> {
    let (w, tail) = rest.split_first_chunk::<4>()?;
    Some((u32::from_le_bytes(*w), tail))
}

impl Open {
    /// A container of `n` elements just opened.
    #[inline(always)]
    fn new<const CHECK: bool>(n: u32, dict: bool) -> Open {
        let index = CHECK && dict && n as usize >= INDEX_FROM;
        Open {
            left: n,
            count: n,
            dict,
            seen: if index { u64::MAX } else { 0 },
            index: index.then(|| Box::new(hashbrown::HashTable::new())),
            same: false,
        }
    }
}

impl Scan {
    /// A scan whose table is filled as kinds come up.
    fn new(dialect: Dialect, version: Option<Version>, keep_leading_bom: bool) -> Scan {
        Scan {
            dialect,
            version: version.unwrap_or_else(|| dialect.newest()),
            keep_leading_bom,
            max_depth: usize::MAX,
            max_elements: usize::MAX,
            elements: 0,
            table: [UNKNOWN; 2 * IDS],
            state: None,
        }
    }

    /// [`Scan::new`], with the whole table of the newest version where it applies.
    fn with_table(dialect: Dialect, version: Option<Version>, keep_leading_bom: bool) -> Scan {
        let mut scan = Scan::new(dialect, version, keep_leading_bom);
        if let Some(table) = newest_table(dialect, scan.version) {
            scan.table = *table;
        }
        scan
    }

    /// The whole value at `pos` of `buf`: where it ends, or `None`. The innermost open
    /// container lives in locals; the stack holds only those around it.
    #[inline(always)]
    fn run<const CHECK: bool>(&mut self, buf: &[u8], pos: usize) -> Option<usize> {
        let mut rest = buf.get(pos..)?;
        let end = |rest: &[u8]| buf.len() - rest.len();
        let mut opened = match self.value::<CHECK>(&mut rest)? {
            Read::Leaf => return Some(end(rest)),
            Read::Open(n, dict) => Some((n, dict)),
        };
        let max_depth = if CHECK { self.max_depth } else { usize::MAX };
        // The driver's depth: the open containers, the innermost included. The driver checks
        // it before each element; the scan gives up as soon as a container opens too deep.
        let mut depth = 0;
        let mut stack: SmallVec<[Open; INLINE_DEPTH]> = SmallVec::new();
        let mut rows = Rows::new();
        let mut top = Open::new::<CHECK>(0, false);
        loop {
            let child = match opened.take() {
                Some(child) => Some(Child::Opened(child)),
                None => self.fill::<CHECK>(&mut rest, &mut top, &mut rows, depth)?,
            };
            let (n, dict) = match child {
                Some(Child::Opened(child)) => child,
                // A dictionary of an array that opened a container: it goes on as the top.
                Some(Child::Filling(frame, grandchild)) => {
                    depth += 1;
                    stack.push(std::mem::replace(&mut top, frame));
                    opened = Some(grandchild);
                    continue;
                }
                None => match stack.pop() {
                    Some(parent) => {
                        top = parent;
                        depth -= 1;
                        continue;
                    }
                    None => return Some(end(rest)),
                },
            };
            depth += 1;
            if depth > max_depth {
                return None;
            }
            // Filled while it is a local: a container of leaves (a record) then never goes
            // on the stack.
            let mut frame = Open::new::<CHECK>(n, dict);
            if CHECK && dict {
                open_row(&mut rows, depth, &mut frame)?;
            }
            match self.fill::<CHECK>(&mut rest, &mut frame, &mut rows, depth)? {
                None if depth > 1 => depth -= 1,
                // The root is full: nothing is around it.
                None => return Some(end(rest)),
                Some(grandchild) => {
                    let parent = std::mem::replace(&mut top, frame);
                    if depth > 1 {
                        stack.push(parent);
                    }
                    match grandchild {
                        Child::Opened(grandchild) => opened = Some(grandchild),
                        Child::Filling(record, grandchild) => {
                            depth += 1;
                            stack.push(std::mem::replace(&mut top, record));
                            opened = Some(grandchild);
                        }
                    }
                }
            }
        }
    }

    /// Reads elements of `top` (open at `depth`) until it is full (`None`) or one opens a
    /// container.
    #[inline(always)]
    fn fill<const CHECK: bool>(
        &mut self,
        rest: &mut &[u8],
        top: &mut Open,
        rows: &mut Rows,
        depth: usize,
    ) -> Option<Option<Child>> {
        if top.dict {
            let child = if CHECK {
                self.entries(rest, top, rows.get_mut(depth.wrapping_sub(1))?)?
            } else {
                self.entries_unchecked(rest, top)?
            };
            return Some(child.map(Child::Opened));
        }
        while top.left > 0 {
            top.left -= 1;
            match self.value::<CHECK>(rest)? {
                Read::Leaf => {}
                // A dictionary in an array (a record, usually) is filled here, without a
                // round of the driving loop.
                Read::Open(n, true) if CHECK => {
                    if depth >= self.max_depth {
                        return None;
                    }
                    let mut frame = Open::new::<true>(n, true);
                    let row = open_row(rows, depth + 1, &mut frame)?;
                    if let Some(grandchild) = self.entries(rest, &mut frame, row)? {
                        return Some(Some(Child::Filling(frame, grandchild)));
                    }
                }
                Read::Open(n, dict) => return Some(Some(Child::Opened((n, dict)))),
            }
        }
        Some(None)
    }

    /// [`Scan::fill`] of a dictionary for [`vouch`], whose small keys go to `row`.
    #[inline(always)]
    fn entries(
        &mut self,
        rest: &mut &[u8],
        top: &mut Open,
        row: &mut Row,
    ) -> Option<Option<(u32, bool)>> {
        // Worked on in locals (registers), written back as it stops.
        let (mut r, mut left, mut seen, mut same) = (*rest, top.left, top.seen, top.same);
        let child = loop {
            if left == 0 {
                break None;
            }
            left -= 1;
            // A key's slot in a small dictionary: the count of entries after it.
            let slot = left as usize % INDEX_FROM;
            let spelled = row.spelled[slot];
            match r.first_chunk::<16>() {
                Some(bytes) if same && spelled.starts(bytes) => r = r.get(spelled.len..)?,
                _ => {
                    if same {
                        // The first key spelled otherwise: the keys before it are the last
                        // dictionary's.
                        same = false;
                        seen = row.seen_before(slot, top.count);
                    }
                    let fp = self.key(&mut r, &mut row.spelled[slot], &mut row.shape)?;
                    let bit = 1u64 << (fp >> 58);
                    if seen & bit != 0 {
                        self.seen_key(top, &row.fps, left, fp)?;
                    }
                    seen |= bit;
                    row.fps[slot] = fp;
                }
            }
            if let Read::Open(n, dict) = self.value::<true>(&mut r)? {
                break Some((n, dict));
            }
        };
        (*rest, top.left, top.seen, top.same) = (r, left, seen, same);
        Some(child)
    }

    /// [`Scan::fill`] of a dictionary for [`skip_value`], which does not look at keys.
    #[inline(always)]
    fn entries_unchecked(
        &mut self,
        rest: &mut &[u8],
        top: &mut Open,
    ) -> Option<Option<(u32, bool)>> {
        let (mut r, mut left) = (*rest, top.left);
        let child = loop {
            if left == 0 {
                break None;
            }
            left -= 1;
            if let Read::Open(..) = self.value::<false>(&mut r)? {
                // A container as a key: rare, left to the driver.
                return None;
            }
            if let Read::Open(n, dict) = self.value::<false>(&mut r)? {
                break Some((n, dict));
            }
        };
        (*rest, top.left) = (r, left);
        Some(child)
    }

    /// One value at the start of `rest`, which moves past it; a container is only opened
    /// (its count read).
    #[inline(always)]
    fn value<const CHECK: bool>(&mut self, rest: &mut &[u8]) -> Option<Read> {
        let (header, payload) = split_word(rest)?;
        let e = self.entry(header);
        // Tests in the order of how common they are, rather than a jump table.
        if e.how as u8 <= How::Int as u8 {
            *rest = payload.get(usize::from(e.size)..)?;
            return Some(Read::Leaf);
        }
        if e.how as u8 <= How::Name as u8 {
            *rest = self.text::<false>(payload)?.0;
            return Some(Read::Leaf);
        }
        // Untyped containers (the usual ones) are opened here, out of `other`'s call.
        let (read, after) = match e.how {
            How::Array if header & quirks::TYPED_ARRAY == 0 => {
                self.opened::<CHECK>(payload, false)?
            }
            How::Dictionary if header & (quirks::TYPED_KEY | quirks::TYPED_VALUE) == 0 => {
                self.opened::<CHECK>(payload, true)?
            }
            _ => self.other::<CHECK>(header, e, payload)?,
        };
        *rest = after;
        Some(read)
    }

    /// The rarer steps of [`Scan::value`], out of its loop: the payload at the start of
    /// `payload`, and what follows it.
    #[inline(never)]
    fn other<'b, const CHECK: bool>(
        &mut self,
        header: u32,
        e: Slot,
        payload: &'b [u8],
    ) -> Option<(Read, &'b [u8])> {
        match e.how {
            How::Unknown => self.first_of_kind::<CHECK>(header, payload),
            How::Packed => {
                let stride = usize::from(e.size);
                let (n, data) = split_word(payload)?;
                let n = usize::try_from(n as i32).ok()?;
                let after = data.get(n.checked_mul(stride)?..)?;
                self.count::<CHECK>(n)?;
                Some((Read::Leaf, after))
            }
            How::PackedBytes => {
                let (n, data) = split_word(payload)?;
                let n = usize::try_from(n as i32).ok()?;
                data.get(..n)?;
                self.count::<CHECK>(n)?;
                // The padding need not be present (see the driver).
                Some((Read::Leaf, data.get(n + quirks::pad4(n)..).unwrap_or(&[])))
            }
            How::PackedStrings => {
                // A negative count is an empty array.
                let (n, mut rest) = split_word(payload)?;
                let n = (n as i32).max(0) as usize;
                self.count::<CHECK>(n)?;
                for _ in 0..n {
                    rest = self.text::<false>(rest)?.0;
                }
                Some((Read::Leaf, rest))
            }
            How::Array => {
                let mut rest = payload;
                let kind = quirks::container_kind(header, quirks::TYPED_ARRAY);
                if kind != 0 && self.dialect.has_feature(self.version, Feature::TypedArray) {
                    rest = self.element_type(kind, rest)?;
                }
                self.opened::<CHECK>(rest, false)
            }
            How::Dictionary => {
                let mut rest = payload;
                let kinds = header & (quirks::TYPED_KEY | quirks::TYPED_VALUE);
                if kinds != 0
                    && self
                        .dialect
                        .has_feature(self.version, Feature::TypedDictionary)
                {
                    rest =
                        self.element_type(quirks::container_kind(header, quirks::TYPED_KEY), rest)?;
                    rest = self
                        .element_type(quirks::container_kind(header, quirks::TYPED_VALUE), rest)?;
                }
                self.opened::<CHECK>(rest, true)
            }
            How::NodePath => {
                // As `Decoder::node_path` reads it: three words, then names and subnames
                // as strings; the old format (no NODEPATH_NEW_FORMAT bit) is an error.
                let (first, rest) = split_word(payload)?;
                if first & quirks::NODEPATH_NEW_FORMAT == 0 {
                    return None;
                }
                let (subnames, rest) = split_word(rest)?;
                let (flags, mut rest) = split_word(rest)?;
                let (names, subnames) = quirks::nodepath_counts(first, subnames, flags);
                let total = names + subnames;
                // Each string needs its length word at least: more than fit is the
                // driver's error, found here before any is read.
                if total > rest.len() / 4 {
                    return None;
                }
                self.count::<CHECK>(total)?;
                for _ in 0..total {
                    rest = self.text::<false>(rest)?.0;
                }
                Some((Read::Leaf, rest))
            }
            _ => None,
        }
    }

    /// [`Scan::value`] of the first value of a type id not yet in the table: the payload at
    /// the start of `payload`, and what follows it.
    #[cold]
    #[inline(never)]
    fn first_of_kind<'b, const CHECK: bool>(
        &mut self,
        header: u32,
        payload: &'b [u8],
    ) -> Option<(Read, &'b [u8])> {
        let e = self.looked_up(header);
        match e.how {
            How::Sized | How::Int => Some((Read::Leaf, payload.get(usize::from(e.size)..)?)),
            How::Text | How::Name => Some((Read::Leaf, self.text::<false>(payload)?.0)),
            How::Unknown => None,
            _ => self.other::<CHECK>(header, e, payload),
        }
    }

    /// A container whose count word starts `count`: opened, and what follows the count.
    #[inline(always)]
    fn opened<'b, const CHECK: bool>(
        &mut self,
        count: &'b [u8],
        dict: bool,
    ) -> Option<(Read, &'b [u8])> {
        let (n, after) = split_word(count)?;
        let n = quirks::container_count(n);
        self.count::<CHECK>(n as usize)?;
        Some((Read::Open(n, dict), after))
    }

    /// A typed container's type data for one side at the start of `rest`: none, or a builtin
    /// type the dialect has; a class or a script gives up. Gives what follows it.
    fn element_type<'b>(&mut self, kind: u32, rest: &'b [u8]) -> Option<&'b [u8]> {
        match kind {
            quirks::KIND_NONE => Some(rest),
            quirks::KIND_BUILTIN => {
                let (id, after) = split_word(rest)?;
                self.dialect.kind_of(self.version, id).map(|_| after)
            }
            _ => None,
        }
    }

    /// Counts `n` elements against the limit.
    #[inline(always)]
    fn count<const CHECK: bool>(&mut self, n: usize) -> Option<()> {
        self.elements = self.elements.saturating_add(n);
        (!CHECK || self.elements <= self.max_elements).then_some(())
    }
}
