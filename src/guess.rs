//! Guessing the dialect, version and framing of unknown bytes, with how sure and why.
//!
//! Every candidate (each dialect, each era of its type tables, each framing) decodes the
//! whole input; candidates are ranked by:
//! 1. whether every byte is used by values that decode (nothing left over, no error);
//! 2. how many values re-encode to exactly their own bytes under that candidate: an engine's
//!    output is canonical (32-bit ints when they fit, 4-byte floats when exact, zeroed
//!    padding), so the right reading reproduces it while a wrong one rarely does;
//! 3. fewer values (one value that covers the input beats a coincidental split);
//! 4. how plausible the values are: NaNs with payloads, subnormal or astronomically large
//!    reals are what other data read as floats looks like; then more bytes used.
//!
//! The eras come from the generated tables (versions whose type ids and wire features are
//! the same form one era), so a new engine release in the spec is a new candidate for free.
//! Godot 3, Godot 4 and Pandemonium agree on ids 0–5 (nil, bool, int, float, String,
//! Vector2): bytes holding only those are reported as ambiguous, with every dialect that fits.

use crate::decode::DecodeOptions;
use crate::dialect::Dialect;
use crate::encode::EncodeOptions;
use crate::framing::{available, frames, Availability, Framing};
use crate::generated::kinds::{Feature, Kind};
use crate::variant::layout::Scalar;
use crate::variant::{Object, Variant};
use crate::version::Version;
use std::cmp::Reverse;
use std::fmt;

mod container;
pub use container::Container;
#[cfg(feature = "containers")]
mod save;
#[cfg(feature = "containers")]
#[cfg_attr(docsrs, doc(cfg(feature = "containers")))]
pub use save::{guess_save, SaveGuess};

/// The versions of a dialect that read bytes the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Era {
    /// The dialect.
    pub dialect: Dialect,
    /// First version of the era.
    pub first: Version,
    /// Last version of the era (the one used to decode).
    pub last: Version,
}

impl fmt::Display for Era {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "{} {}", self.dialect, self.first)
        } else {
            write!(f, "{} {}–{}", self.dialect, self.first, self.last)
        }
    }
}

/// What one reading of the bytes gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Dialect and versions.
    pub era: Era,
    /// Framing.
    pub framing: Framing,
    /// Values that decoded.
    pub values: usize,
    /// Bytes covered by those values (frames included).
    pub used: usize,
    /// Values that re-encode to exactly their bytes.
    pub canonical: usize,
    /// Reals that look like other data read as floats (NaN payloads, below 1e-30, beyond 1e30).
    pub odd_reals: usize,
    /// Where and why decoding stopped, if it did.
    pub error: Option<(usize, String)>,
    /// The kinds seen, for the explanation.
    pub kinds: Vec<Kind>,
    /// The last value runs past the bytes examined (a sample of a larger input) and reads
    /// consistently up to their end; it is not counted in `values`.
    pub continued: bool,
}

/// A reading's rank, best highest: complete; how far it read; every value canonical; the
/// share of canonical values; fewer values; fewer odd reals; bytes used.
type Score = (
    bool,
    usize,
    bool,
    usize,
    Reverse<usize>,
    Reverse<usize>,
    usize,
);

impl Candidate {
    /// Whether every byte was used by values that decode.
    pub fn complete(&self, total: usize) -> bool {
        self.error.is_none() && self.used == total && (self.values > 0 || self.continued)
    }

    fn score(&self, total: usize) -> Score {
        let complete = self.complete(total);
        // A reading that fails: how far it got before the bad byte.
        let progress = match &self.error {
            _ if complete => 0,
            Some((at, _)) => (*at).max(self.used),
            None => self.used,
        };
        // A lone value that continues past the sample has nothing against it yet: its
        // frame fits the input and it reads to the sample's end.
        let vacuous = self.values == 0 && self.continued;
        (
            complete,
            progress,
            vacuous || (self.values > 0 && self.canonical == self.values),
            if vacuous {
                1000
            } else {
                self.canonical * 1000 / self.values.max(1)
            },
            // Fewer values that explain every byte is the simpler reading: a bare
            // PackedStringArray can also split into a Pandemonium PoolVector3iArray and a
            // Vector2i, a Godot 3 Array of odd floats into a Godot 4 Projection and a float;
            // one value is what var_to_bytes writes.
            Reverse(self.values),
            Reverse(self.odd_reals),
            self.used,
        )
    }
}

/// How sure a guess is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Confidence {
    /// Nothing reads the whole input.
    None,
    /// The best reading uses every byte but is not what an engine would write.
    Low,
    /// Several dialects read the bytes equally well.
    Ambiguous,
    /// One dialect (and framing) reads every byte as canonical engine output, no other does.
    High,
}

impl fmt::Display for Confidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Confidence::None => "no reading fits",
            Confidence::Low => "low confidence",
            Confidence::Ambiguous => "ambiguous",
            Confidence::High => "high confidence",
        })
    }
}

/// The verdict: the best reading, the others that fit as well, and why.
#[derive(Clone, Debug)]
pub struct Guess {
    /// How sure.
    pub confidence: Confidence,
    /// The best reading (also the first of `ties`).
    pub best: Candidate,
    /// Readings of other dialects or framings that score the same as the best.
    pub ties: Vec<Candidate>,
    /// Every reading, best first.
    pub candidates: Vec<Candidate>,
    /// Bytes examined (the input, or its first [`SAMPLE`] bytes).
    pub total: usize,
    /// The input size.
    pub size: usize,
    /// The file format around the values, when the bytes start with one's magic.
    pub container: Option<Container>,
}

/// The eras of `dialect`: versions grouped where the type ids and wire features agree.
pub fn eras(dialect: Dialect) -> Vec<Era> {
    let (oldest, newest) = (dialect.oldest(), dialect.newest());
    let mut versions: Vec<Version> = Vec::new();
    for major in oldest.major..=newest.major {
        for minor in 0..=9u8 {
            let v = Version::new(major, minor, 0);
            if v >= oldest && v <= newest {
                versions.push(v);
            }
        }
    }
    versions.push(newest);
    versions.sort();
    versions.dedup();
    let signature = |v: Version| {
        let ids: Vec<Option<Kind>> = (0..64).map(|id| dialect.kind_of(v, id)).collect();
        let features = [
            Feature::TypedArray,
            Feature::TypedDictionary,
            Feature::RidPayload,
            Feature::PandemoniumTypedArray,
        ]
        .map(|f| dialect.has_feature(v, f));
        (ids, features)
    };
    let mut out: Vec<Era> = Vec::new();
    let mut last_sig = None;
    for v in versions {
        let sig = signature(v);
        match (&last_sig, out.last_mut()) {
            (Some(s), Some(era)) if *s == sig => era.last = v,
            _ => {
                out.push(Era {
                    dialect,
                    first: v,
                    last: v,
                });
                last_sig = Some(sig);
            }
        }
    }
    out
}

/// The framings tried: bare, and a `u32` prefix either way round (a little-endian prefix is
/// also what `PacketPeerStream` writes: the bytes are the same).
pub const FRAMINGS: [Framing; 3] = [
    Framing::Bare,
    Framing::StoreVar { big_endian: false },
    Framing::StoreVar { big_endian: true },
];

/// Reads `bytes` every way and ranks the readings. `framing` restricts the framings tried.
pub fn guess(bytes: &[u8], framing: Option<Framing>) -> Guess {
    let start = &bytes[..bytes.len().min(SAMPLE)];
    guess_start(start, bytes.len(), framing)
}

/// Like [`guess`], given only the `start` of an input of `size` bytes (a reader of a large
/// file needs to read no more than [`SAMPLE`] bytes).
pub fn guess_start(start: &[u8], size: usize, framing: Option<Framing>) -> Guess {
    // Every reading is decoded (iteratively) and re-encoded, which recurses once per level:
    // the encoder keeps its frames small enough for the decoder's 1024 levels on a 2 MiB
    // thread stack, even in a debug build (tests/guess.rs checks it on a test thread).
    guess_here(start, size.max(start.len()), framing)
}

/// How much of a large input is read: the first MiB tells the dialect as well as the
/// whole file would, and every candidate reading costs a full decode and re-encode.
pub const SAMPLE: usize = 1 << 20;

fn guess_here(bytes: &[u8], size: usize, framing: Option<Framing>) -> Guess {
    // A container is recognised by its magic and read whole, so only when the bytes are the
    // whole input and no framing was imposed.
    let container = match (framing, bytes.len() == size) {
        (None, true) => container::parse(bytes),
        _ => None,
    };
    let framings: Vec<Framing> = match (framing, &container) {
        (Some(f), _) => vec![f],
        // The values inside a container are bare (`encode_variant`); the container frames them.
        (None, Some(_)) => vec![Framing::Bare],
        (None, None) => FRAMINGS.to_vec(),
    };
    let mut candidates = Vec::new();
    // On a tie the first listed wins: Godot 4 is what most bytes in the wild come from now.
    let mut dialects = vec![Dialect::Godot4, Dialect::Godot3, Dialect::Pandemonium];
    if let Some(c) = &container {
        dialects.retain(|&d| c.kind.written_by(d));
    }
    for dialect in dialects {
        for era in eras(dialect) {
            for &f in &framings {
                candidates.push(match &container {
                    Some(parsed) => container::read(bytes, parsed, era),
                    None => read_as(bytes, size, era, f),
                });
            }
        }
    }
    let total = bytes.len();
    candidates.sort_by_key(|c| std::cmp::Reverse(c.score(total)));
    let best = candidates[0].clone();
    let top = best.score(total);
    // The same dialect and framing in several eras is one answer over a version range.
    let mut ties: Vec<Candidate> = Vec::new();
    let join = |ties: &mut Vec<Candidate>, c: &Candidate| match ties
        .iter_mut()
        .find(|t| t.era.dialect == c.era.dialect && t.framing == c.framing)
    {
        Some(t) => {
            t.era.first = t.era.first.min(c.era.first);
            t.era.last = t.era.last.max(c.era.last);
        }
        None => ties.push(c.clone()),
    };
    for c in candidates.iter().filter(|c| c.score(total) == top) {
        join(&mut ties, c);
    }
    // Reals that look like other data read as floats are the mark of a wrong reading that
    // happened to use every byte (a store_var file read as bare values): when another dialect
    // or framing also reads every byte, with fewer such reals, the bytes are not settled.
    // The other way round too: odd reals rank readings, but a reading that lost on them
    // alone (as complete, as canonical, as many values) is not ruled out by them, since an
    // engine writes odd reals too (a subnormal float behind its store_var prefix reads as a
    // bare Pandemonium Vector2i with no odd real).
    let without_odd = |c: &Candidate| {
        let (a, b, x, d, e, _, g) = c.score(total);
        (a, b, x, d, e, g)
    };
    if best.complete(total) {
        for c in &candidates {
            let other = (c.era.dialect, c.framing) != (best.era.dialect, best.framing);
            let fewer_odd = best.odd_reals > 0 && c.odd_reals < best.odd_reals;
            if other && c.complete(total) && (fewer_odd || without_odd(c) == without_odd(&best)) {
                join(&mut ties, c);
            }
        }
    }
    let best = ties[0].clone();
    let confidence = if !best.complete(total) {
        Confidence::None
    } else if ties.len() > 1 {
        Confidence::Ambiguous
    } else if best.values > 0 && best.canonical == best.values {
        Confidence::High
    } else {
        Confidence::Low
    };
    Guess {
        confidence,
        best,
        ties,
        candidates,
        total,
        size,
        container: container.map(|c| c.kind),
    }
}

/// Decodes `bytes` as `era` and `framing`, counting what fits. When `bytes` is the start of
/// an input of `size` bytes, a last value that only needs more bytes is not an error: it
/// `continued`, if what there is of it reads without error and its frame fits in `size`.
fn read_as(bytes: &[u8], size: usize, era: Era, framing: Framing) -> Candidate {
    let cut = bytes.len() < size;
    let mut c = Candidate::empty(era, framing);
    let format = crate::Format {
        dialect: era.dialect,
        framing,
        decode: decode_options(era),
        encode: Default::default(),
    };
    for f in frames(bytes, &format).with_offsets() {
        match f {
            Ok(frame) => {
                let payload = &bytes[frame.payload_offset(framing)..frame.offset + frame.len];
                c.values += 1;
                c.used = frame.offset + frame.len;
                c.count(&frame.value, era, payload);
            }
            Err(e) => {
                let unfinished = cut
                    && matches!(
                        available(&bytes[c.used..], &format, usize::MAX),
                        Ok(Availability::NeedMore { .. })
                    );
                match unfinished.then(|| continues(bytes, c.used, size, era, framing)) {
                    Some(Ok(())) => {
                        c.used = bytes.len();
                        c.continued = true;
                    }
                    Some(Err(stop)) => c.error = Some(stop),
                    None => c.error = Some((e.offset(), e.to_string())),
                }
                break;
            }
        }
    }
    c
}

/// Whether the frame at `at`, cut by the end of the sample `bytes`, is consistent with an
/// input of `size` bytes: its length prefix (if any) fits in the input, and what the sample
/// holds of its value decodes until it runs out of bytes. Else where and why not.
fn continues(
    bytes: &[u8],
    at: usize,
    size: usize,
    era: Era,
    framing: Framing,
) -> Result<(), (usize, String)> {
    use crate::DecodeError as E;
    let prefix = framing.prefix_len();
    let payload_at = at + prefix;
    if prefix > 0 {
        let Some(raw) = bytes.get(at..payload_at) else {
            // The sample ends inside the prefix itself: nothing to judge.
            return Ok(());
        };
        let raw: [u8; 4] = raw.try_into().unwrap_or_default();
        let declared = match framing {
            Framing::StoreVar { big_endian: true } => u32::from_be_bytes(raw),
            _ => u32::from_le_bytes(raw),
        } as usize;
        if declared > size - payload_at {
            return Err((
                at,
                format!(
                    "a frame of {declared} bytes at offset {at:#x} runs past the end of the {size}-byte input"
                ),
            ));
        }
    }
    match crate::decode(&bytes[payload_at..], era.dialect, &decode_options(era)) {
        // A value that ends inside the sample while its frame runs on is not what an
        // engine writes (its frame is the value's own length).
        Ok((_, used)) => Err((
            payload_at + used,
            format!(
                "the value ends at {:#x}, inside its frame that runs past the sample",
                payload_at + used
            ),
        )),
        // Running out of bytes is what a cut value does; a length that the rest of the input
        // could hold is one too. Anything else is a wrong reading.
        Err(E::UnexpectedEof { .. }) => Ok(()),
        Err(
            E::LengthOutOfBounds { len, offset, .. } | E::StringOutOfBounds { len, offset, .. },
        ) if (len as usize) <= size - (payload_at + offset).min(size) => Ok(()),
        Err(e) => Err((payload_at + e.offset(), e.to_string())),
    }
}

/// How every candidate decodes: objects are read as data only (no code runs), so guessing
/// may look at them.
fn decode_options(era: Era) -> DecodeOptions {
    DecodeOptions {
        version: Some(era.last),
        allow_objects: true,
        keep_leading_bom: true,
        ..DecodeOptions::default()
    }
}

impl Candidate {
    /// A reading that has read nothing yet.
    fn empty(era: Era, framing: Framing) -> Candidate {
        Candidate {
            era,
            framing,
            values: 0,
            used: 0,
            canonical: 0,
            odd_reals: 0,
            error: None,
            kinds: Vec::new(),
            continued: false,
        }
    }

    /// Adds what one decoded `value` (from `payload`) says about the reading.
    fn count(&mut self, value: &Variant, era: Era, payload: &[u8]) {
        if reencodes(value, era, payload) {
            self.canonical += 1;
        }
        walk(value, &mut |v| {
            self.odd_reals += odd_reals(v);
            if !self.kinds.contains(&v.kind()) {
                self.kinds.push(v.kind());
            }
        });
    }
}

/// Whether `value` encodes back to `payload` (NodePath padding, which engines leave
/// uninitialised, is compared as zero on both sides by re-encoding the payload's value).
fn reencodes(value: &Variant, era: Era, payload: &[u8]) -> bool {
    let base = EncodeOptions {
        version: Some(era.last),
        full_objects: crate::encode::needs_full_objects(value),
        ..EncodeOptions::default()
    };
    let try_with = |opts: &EncodeOptions| {
        crate::encode(value, era.dialect, opts).is_ok_and(|b| same_but_padding(&b, payload, value))
    };
    try_with(&base)
        || (era.dialect == Dialect::Godot4
            && try_with(&EncodeOptions {
                double_precision: true,
                ..base.clone()
            }))
}

/// Byte equality, except that when the value holds a NodePath only the lengths must agree
/// where the re-encoded bytes are zero (the engine's padding garbage).
fn same_but_padding(ours: &[u8], theirs: &[u8], value: &Variant) -> bool {
    if ours == theirs {
        return true;
    }
    let mut has_path = false;
    walk(value, &mut |v| {
        has_path |= matches!(v, Variant::NodePath(_))
    });
    has_path
        && ours.len() == theirs.len()
        && ours.iter().zip(theirs).all(|(a, b)| a == b || *a == 0)
}

/// Calls `f` on `v` and every value inside it.
fn walk(v: &Variant, f: &mut impl FnMut(&Variant)) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        f(v);
        match v {
            Variant::Array(a) => stack.extend(a.items.iter()),
            Variant::Dictionary(d) => {
                for (k, x) in d.entries() {
                    stack.push(k);
                    stack.push(x);
                }
            }
            Variant::Object(Object::Full(o)) => stack.extend(o.properties.iter().map(|(_, x)| x)),
            _ => {}
        }
    }
}

/// A real that looks like other data read as a float: a NaN with a payload, a subnormal-ish
/// or astronomically large magnitude. `INF`, `-INF`, `NAN` and `-0.0` are what programs
/// store on purpose, so they do not count.
fn odd(r: f64) -> bool {
    if r.is_nan() {
        return r.to_bits() & !(1 << 63) != 0x7ff8_0000_0000_0000;
    }
    r.is_finite() && (r.abs() > 1e30 || (r != 0.0 && r.abs() < 1e-30))
}

/// Reals inside one value (not its children) that look like garbage.
fn odd_reals(v: &Variant) -> usize {
    let count = |rs: &[f64]| rs.iter().filter(|r| odd(**r)).count();
    match v {
        Variant::Float(x) => count(&[*x]),
        Variant::PackedFloat32Array(x) => x.iter().filter(|r| odd(f64::from(**r))).count(),
        Variant::PackedFloat64Array(x) => count(x),
        // Math values and packed arrays of them: every float component (not the integers).
        other => {
            let (comps, values) = match (other.as_fixed(), other.as_packed()) {
                (Some(f), _) => (f.components(), f.values()),
                (_, Some(p)) => (p.components(), p.values()),
                _ => return 0,
            };
            values
                .iter()
                .zip(comps.iter().cycle())
                .filter(|(r, c)| c.scalar != Scalar::I32 && odd(**r))
                .count()
        }
    }
}

impl fmt::Display for Guess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = &self.best;
        match self.confidence {
            Confidence::None => {
                writeln!(
                    f,
                    "no dialect reads these {} bytes to the end ({})",
                    self.total, self.confidence
                )?;
                writeln!(
                    f,
                    "furthest: {}, {}: {} value(s), {} of {} bytes",
                    b.era, b.framing, b.values, b.used, self.total
                )?;
                if let Some((at, e)) = &b.error {
                    writeln!(f, "  stopped at offset {at:#x}: {e}")?;
                }
            }
            _ => {
                match self.container {
                    Some(c) => writeln!(f, "{}, values in {c} ({})", b.era, self.confidence)?,
                    None => writeln!(f, "{}, {} ({})", b.era, b.framing, self.confidence)?,
                }
                if b.framing == Framing::STORE_VAR {
                    writeln!(
                        f,
                        "  (store_var / StreamPeer.put_var, or PacketPeerStream: the same bytes)"
                    )?;
                }
                writeln!(f, "why:")?;
                let scope = if self.size > self.total {
                    format!("the first {} of {} bytes", self.total, self.size)
                } else {
                    format!("all {} bytes", self.total)
                };
                writeln!(
                    f,
                    "  {} value(s) use {scope}; {} of them re-encode to exactly their bytes",
                    b.values, b.canonical
                )?;
                if b.continued {
                    writeln!(
                        f,
                        "  the last value continues past the {} bytes examined (its frame fits the input)",
                        self.total
                    )?;
                }
                if b.odd_reals > 0 {
                    writeln!(
                        f,
                        "  {} real(s) look like other data read as floats (NaN payload, tiny or huge)",
                        b.odd_reals
                    )?;
                }
                let kinds: Vec<&str> = b.kinds.iter().map(|k| k.name()).collect();
                writeln!(f, "  types seen: {}", kinds.join(", "))?;
                if self.ties.len() > 1 {
                    writeln!(f, "  read equally well as:")?;
                    for t in &self.ties[1..] {
                        writeln!(f, "    {}, {}", t.era, t.framing)?;
                    }
                }
            }
        }
        // The nearest reading of each other dialect, and why it lost.
        for d in Dialect::ALL {
            if self.ties.iter().any(|t| t.era.dialect == d) {
                continue;
            }
            if let Some(c) = self.candidates.iter().find(|c| c.era.dialect == d) {
                let why = match &c.error {
                    Some((at, e)) => format!("stops at offset {at:#x}: {e}"),
                    None if c.values == 0 => "no whole value in the bytes examined".to_string(),
                    None if c.used < self.total => {
                        format!("uses {} of {} bytes", c.used, self.total)
                    }
                    None => format!(
                        "{} of {} value(s) re-encode exactly, {} odd real(s)",
                        c.canonical, c.values, c.odd_reals
                    ),
                };
                writeln!(f, "not {} ({}): {why}", c.era, c.framing)?;
            }
        }
        Ok(())
    }
}
