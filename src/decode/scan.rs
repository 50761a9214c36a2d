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

/// What [`vouch`] and [`skip_value`] know of a type id, worked out once per id and decode: the way
/// to step over the payload, and for fixed sizes the payload without and with FLAG_64.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum How {
    // The first four in this order: a value's step tests `Sized | Int` and `Text | Name` as
    // ranges; `Unknown` is tested only after the usual kinds (a table made for the newest
    // version has none).
    /// A payload of fixed size (Nil, Bool, Float, RID, Callable, math values).
    Sized,
    /// An INT (sized, and its value is a key's identity).
    Int,
    /// A String's text.
    Text,
    /// A StringName's text.
    Name,
    /// Not looked up yet.
    Unknown,
    /// Anything the scan does not read: it gives up.
    GiveUp,
    /// A packed array of fixed-size elements.
    Packed,
    PackedBytes,
    PackedStrings,
    Array,
    Dictionary,
    /// A NodePath (the new format only; the old one is an error the driver reports).
    NodePath,
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

/// What the table holds for a type id and FLAG_64: [`How`], and the payload's (or a packed
/// element's) size with that flag.
#[derive(Clone, Copy)]
struct Slot {
    how: How,
    size: u8,
}

const UNKNOWN: Slot = Slot {
    how: How::Unknown,
    size: 0,
};

/// Type ids with a table slot; others (none in any dialect) give up. The table has a slot
/// for each and FLAG_64, clear (`id`) or set (`IDS + id`).
const IDS: usize = 64;

type Table = [Slot; 2 * IDS];

/// The [`Table`] of `dialect` at `version` with every slot looked up, when that is the
/// dialect's newest version (made once per dialect and process).
fn newest_table(dialect: Dialect, version: Version) -> Option<&'static Table> {
    static TABLES: PerDialect<Table> = [const { std::sync::OnceLock::new() }; 3];
    once_per_dialect(&TABLES, dialect, version, |dialect| {
        let mut scan = Scan::new(dialect, Some(dialect.newest()), false);
        for tag in 0..IDS as u32 {
            scan.look_up(tag);
        }
        scan.table
    })
}

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
struct Row {
    /// Each slot's key fingerprint.
    fps: [u64; INDEX_FROM],
    /// Each slot's key as the last dictionary at this depth spelled it.
    spelled: [Spelled; INDEX_FROM],
    /// That dictionary's count when `spelled` holds all its keys; [`NO_SHAPE`] when some key
    /// of it has no [`Spelled`] form, or it has an index.
    shape: u32,
}

/// A count no small dictionary has.
const NO_SHAPE: u32 = u32::MAX;

impl Row {
    const EMPTY: Row = Row {
        fps: [0; INDEX_FROM],
        spelled: [Spelled::NONE; INDEX_FROM],
        shape: NO_SHAPE,
    };

    /// The `seen` bits of the keys before slot `slot` of a dictionary of `count` entries.
    #[cold]
    fn seen_before(&self, slot: usize, count: u32) -> u64 {
        let before = self.fps.get(slot + 1..count as usize).unwrap_or(&[]);
        before.iter().fold(0, |seen, fp| seen | 1u64 << (fp >> 58))
    }
}

/// A key's bytes, which are at most 16 (the header and the word after it in `head`, and the
/// 0–8 bytes after those masked in `body`), and their count with padding.
#[derive(Clone, Copy)]
struct Spelled {
    head: u64,
    body: u64,
    mask: u64,
    len: usize,
}

impl Spelled {
    /// Never stored as a key's (a row's `shape` says whether its keys are spelled).
    const NONE: Spelled = Spelled {
        head: 0,
        body: 0,
        mask: 0,
        len: 0,
    };

    /// Whether `bytes` (the next 16 of the input) start with this key.
    #[inline(always)]
    fn starts(&self, bytes: &[u8; 16]) -> bool {
        let x = u128::from_le_bytes(*bytes);
        x as u64 == self.head && (x >> 64) as u64 & self.mask == self.body
    }
}

type Rows = SmallVec<[Row; 4]>;

/// Depths that keep a [`Row`]: a dictionary deeper than this gives up to the driver. A row
/// is 648 bytes, and a depth costs the input 8 bytes (an Array's header and count), so rows
/// for any depth would let a dictionary under hundreds of arrays take more memory than its
/// input justifies (`tests/fuzz_regressions.rs`); 64 rows are 41 KiB at most, and game data
/// nests a few levels.
const ROW_DEPTHS: usize = 64;
const _: () = assert!(INDEX_FROM.is_power_of_two());

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

/// The row of a dictionary `frame` opening at `depth`, with `frame.same` set and the row's
/// shape made the dictionary's.
#[inline(always)]
fn open_row<'r>(rows: &'r mut Rows, depth: usize, frame: &mut Open) -> Option<&'r mut Row> {
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

    /// A key (fingerprint `fp`, `left` entries after it) whose bit was set in `seen`: `None`
    /// when it may repeat an earlier key.
    #[inline(never)]
    fn seen_key(
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
    fn indexed_key(&mut self, index: &mut hashbrown::HashTable<u64>, fp: u64) -> Option<()> {
        let state = self.state.get_or_insert_with(key::KeyState::new);
        let h = state.hash_one(fp);
        if index.find(h, |&x| x == fp).is_some() {
            return None;
        }
        index.insert_unique(h, fp, |&x| state.hash_one(x));
        Some(())
    }

    /// The table slot of `header`'s type id and FLAG_64: [`How::Unknown`] until the
    /// caller has it looked up ([`Scan::looked_up`]).
    #[inline(always)]
    fn entry(&mut self, header: u32) -> Slot {
        let tag = (header & quirks::TYPE_MASK) as usize;
        if tag >= IDS {
            return Slot {
                how: How::GiveUp,
                size: 0,
            };
        }
        self.table[tag + usize::from(header & FLAG_64 != 0) * IDS]
    }

    /// The slot of `header` as [`Scan::look_up`] works it out (and keeps it).
    #[cold]
    fn looked_up(&mut self, header: u32) -> Slot {
        let e = self.look_up(header & quirks::TYPE_MASK);
        let size = if header & FLAG_64 != 0 {
            e.wide
        } else {
            e.narrow
        };
        Slot { how: e.how, size }
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
                    (Kind::NodePath, ..) => with(How::NodePath),
                    _ => with(How::GiveUp),
                }
            }
        };
        if (tag as usize) < IDS {
            self.table[tag as usize] = Slot {
                how: e.how,
                size: e.narrow,
            };
            self.table[tag as usize + IDS] = Slot {
                how: e.how,
                size: e.wide,
            };
        }
        e
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

    /// A dictionary key at the start of `rest` (which moves past it) and its fingerprint:
    /// text or an INT; anything else gives up. Its bytes go to `spelled`, or when they do not
    /// fit one, `shape` is cleared.
    #[inline(always)]
    fn key(&mut self, rest: &mut &[u8], spelled: &mut Spelled, shape: &mut u32) -> Option<u64> {
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

    /// A string (`_decode_string`) whose length word starts `rest`: what follows it, and its
    /// key fingerprint when `KEY`.
    #[inline(always)]
    fn text<'b, const KEY: bool>(&mut self, rest: &'b [u8]) -> Option<(&'b [u8], u64)> {
        let (n, bytes) = split_word(rest)?;
        self.text_body::<KEY>(n, bytes)
    }

    /// [`Scan::text`] of the length word `n` and the bytes after it. Text the engine's reading
    /// leaves as it is (ASCII without NUL) is checked a word at a time; other text as the
    /// driver checks it, except that as a key it gives up unless the reading leaves it
    /// unchanged.
    #[inline(always)]
    fn text_body<'b, const KEY: bool>(
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

/// [`plain_ascii`] of text of eight bytes at most, `n`, that starts `word` (bytes past it are
/// masked off): whether it is ASCII without NUL, its fingerprint, the text's bytes and the
/// mask that keeps them.
#[inline(always)]
fn short_plain(word: u64, n: usize) -> (bool, u64, u64, u64) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
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
fn middle_plain(first: u64, second: u64, n: usize) -> (bool, u64) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
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
