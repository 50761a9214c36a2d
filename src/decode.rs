//! The decoder: bytes of any dialect and version to a [`Variant`] (or, through the same
//! driver, a borrowed [`VariantRef`](crate::borrowed::VariantRef)), safe on untrusted input.
//!
//! One driver reads the bytes for every result; what it builds from them is the business of a
//! `Build` implementation (owned values; borrowed values, see `borrowed.rs`; nothing but
//! dictionary-key fingerprints, `Probe`, for the validating pass of lazy views), so
//! validation, errors and offsets are the same for both by construction. It is iterative
//! (containers are an explicit stack), so no input can overflow the thread stack whatever
//! `max_depth` is; every length is checked against the remaining input before anything is
//! reserved, so a lying count costs nothing; errors carry the absolute offset. Apart from the
//! duplicate-key index of dictionaries with 16 or more entries, and a container stack deeper
//! than 16, it allocates only what the result keeps.

use crate::borrowed::PackedElement;
use crate::dialect::Dialect;
use crate::error::DecodeError;
use crate::generated::kinds::{Feature, Kind};
use crate::generated::value::{with_fixed, with_packed};
use crate::layout::FixedLayout;
use crate::layout::{read_u32, read_u64};
use crate::quirks::{self, FLAG_64};
use crate::variant::key::{self, hash_key_real, hash_variant_key, KeyIndex, INDEX_FROM};
use crate::variant::*;
use crate::version::Version;
use smallvec::SmallVec;
use std::borrow::Cow;
use std::hash::{BuildHasher, Hash, Hasher};

/// Limits that keep decoding of untrusted bytes bounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting of containers and objects (the engine's `MAX_RECURSION_DEPTH`, 1024).
    /// The decoder is iterative, so any value is safe for the thread stack.
    pub max_depth: usize,
    /// Most elements (array items, dictionary entries, packed-array elements, object
    /// properties) one decode may produce in total.
    pub max_elements: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_depth: 1024,
            max_elements: usize::MAX,
        }
    }
}

/// Options of [`decode`](fn@crate::decode).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct DecodeOptions {
    /// The engine version that wrote the bytes; `None` is the newest of the dialect.
    pub version: Option<Version>,
    /// Accept full objects (`var_to_bytes_with_objects`), decoded as data only. Off by
    /// default, as in the engine: in the engine this can run code.
    pub allow_objects: bool,
    /// Bounds on nesting and size.
    pub limits: Limits,
    /// Keep a leading U+FEFF (byte order mark) of strings. The engines drop it when
    /// decoding (their UTF-8 reader skips a BOM), so by default so do we; set this to keep
    /// every byte, e.g. to re-encode a file exactly.
    pub keep_leading_bom: bool,
}

/// Decodes one value from the start of `bytes`.
///
/// Returns the value and the number of bytes it used; trailing bytes are not an error (the
/// engine ignores them too), so `used` lets a caller walk values laid back to back.
///
/// ```
/// use gdvariant::{decode, Dialect, DecodeOptions, Variant};
/// let bytes = [2, 0, 0, 0, 42, 0, 0, 0];
/// let (value, used) = decode(&bytes, Dialect::Godot4, &DecodeOptions::default())?;
/// assert_eq!((value, used), (Variant::Int(42), 8));
/// # Ok::<(), gdvariant::DecodeError>(())
/// ```
pub fn decode(
    bytes: &[u8],
    dialect: Dialect,
    options: &DecodeOptions,
) -> Result<(Variant, usize), DecodeError> {
    drive(bytes, dialect, options)
}

/// Runs the one decoder over `bytes`, building a `B`.
pub(crate) fn drive<'a, B: Build<'a>>(
    bytes: &'a [u8],
    dialect: Dialect,
    options: &DecodeOptions,
) -> Result<(B, usize), DecodeError> {
    let mut d = Decoder::new(bytes, 0, dialect, options);
    let v = d.run::<B>()?;
    Ok((v, d.pos))
}

/// A leaf value that owns nothing: the part of a decoded value that is the same whether the
/// result is owned or borrowed. Big math types are boxed as in [`Variant`], so that a
/// `Scalar` stays as small as a value and moving it costs little.
pub(crate) enum Scalar {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    Rid(u64),
    Callable,
    ObjectNull,
    ObjectId(u64),
}

/// What the driver builds: the owned [`Variant`], or the borrowed `VariantRef<'a>` whose text
/// and packed arrays point into the input `&'a [u8]`.
pub(crate) trait Build<'a>: Sized {
    /// Whether containers keep their elements. The validating pass of lazy borrowed decoding
    /// (`Probe`) keeps none: it reads everything and builds nothing but dictionary keys.
    const KEEP: bool = true;
    /// Text as the result holds it (`String`, or `Cow<'a, str>`).
    type Str;
    /// Where a dictionary's entries go while it is filled.
    type Entries: Entries<Self>;
    fn text(s: Cow<'a, str>) -> Self::Str;
    fn scalar(s: Scalar) -> Self;
    /// A fixed-layout (math) value.
    fn fixed<T: FixedLayout>(x: T) -> Self;
    /// A `String` value (its text goes straight into the result's own string type).
    fn string(s: Cow<'a, str>) -> Self;
    /// A `StringName` value (its text goes straight into the result's own string type).
    fn string_name(s: Cow<'a, str>) -> Self;
    fn node_path(names: Vec<Self::Str>, subnames: Vec<Self::Str>, absolute: bool) -> Self;
    fn signal(name: Self::Str, object: u64) -> Self;
    fn byte_array(bytes: &'a [u8]) -> Self;
    /// A fixed-stride packed array; `bytes` holds whole elements of `T::size(wide)` bytes.
    fn packed<T: PackedElement>(bytes: &'a [u8], wide: bool) -> Self;
    fn string_array(items: Vec<Self::Str>) -> Self;
    fn array(items: Vec<Self>, typed: Option<Box<ArrayType>>) -> Self;
    /// Entries with unique keys (the driver applies the duplicate-key rule).
    /// A finished dictionary, with the key index its filling built (16 entries or more).
    fn dictionary(
        entries: Self::Entries,
        typed: Option<Box<DictionaryType>>,
        index: Option<Box<KeyIndex>>,
    ) -> Self;
    fn object(class: Self::Str, properties: Vec<(Self::Str, Self)>) -> Self;
    /// [`key::same_key`] for this representation.
    fn same_key(a: &Self, b: &Self) -> bool;
    /// A hash consistent with [`Build::same_key`]: equal keys hash equal.
    fn hash_key<H: Hasher>(k: &Self, h: &mut H);
    /// A six-bit hash consistent with [`Build::same_key`], cheap to compute (see `DictFill`).
    fn key_bit(k: &Self) -> u32;
}

/// The entries of a dictionary being filled: a vector of pairs for the results, only the
/// keys (inline, for the duplicate-key rule) for the validating pass.
///
/// `Scratch` is storage shared by all the dictionaries of one decode (the validating pass
/// keeps the keys of every open dictionary there, as a stack), so that what a frame holds,
/// and moves, stays small.
pub(crate) trait Entries<B>: Sized {
    type Scratch: Default;
    fn with_capacity(n: usize) -> Self;
    fn len(&self, s: &Self::Scratch) -> usize;
    /// Entries expected (the table of the duplicate-key index is sized for them).
    fn capacity(&self) -> usize;
    /// [`Build::same_key`] of entry `i`'s key and `key`.
    fn same_key_at(&self, s: &Self::Scratch, i: usize, key: &B) -> bool;
    /// [`Build::hash_key`] of entry `i`'s key.
    fn hash_at<H: Hasher>(&self, s: &Self::Scratch, i: usize, h: &mut H);
    fn push(&mut self, s: &mut Self::Scratch, key: B, value: B);
    /// Gives entry `i` (a repeated key) its new value.
    fn set_value(&mut self, i: usize, value: B);
    /// The dictionary is complete: give back what it held in `s`.
    fn close(&self, _s: &mut Self::Scratch) {}
}

impl<'a, B: Build<'a>> Entries<B> for Vec<(B, B)> {
    type Scratch = ();
    #[inline]
    fn with_capacity(n: usize) -> Self {
        Vec::with_capacity(n)
    }
    #[inline(always)]
    fn len(&self, _: &()) -> usize {
        self.len()
    }
    fn capacity(&self) -> usize {
        self.capacity()
    }
    #[inline(always)]
    fn same_key_at(&self, _: &(), i: usize, key: &B) -> bool {
        B::same_key(&self[i].0, key)
    }
    fn hash_at<H: Hasher>(&self, _: &(), i: usize, h: &mut H) {
        B::hash_key(&self[i].0, h)
    }
    #[inline(always)]
    fn push(&mut self, _: &mut (), key: B, value: B) {
        self.push((key, value))
    }
    #[inline]
    fn set_value(&mut self, i: usize, value: B) {
        self[i].1 = value
    }
}

/// [`Build::key_bit`] of a text key: its length and first and last bytes, mixed into six bits.
#[inline(always)]
pub(crate) fn text_key_bit(s: &str) -> u32 {
    let b = s.as_bytes();
    let (first, last) = match b {
        [] => (0, 0),
        [first, .., last] => (*first, *last),
        [only] => (*only, *only),
    };
    let x = (b.len() as u32) ^ u32::from(first) << 8 ^ u32::from(last) << 16;
    x.wrapping_mul(0x9E37_79B1) >> 26
}

/// [`Build::key_bit`] of an integer key.
#[inline(always)]
pub(crate) fn int_key_bit(i: i64) -> u32 {
    ((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as u32
}

/// [`Build::key_bit`] of every other key: one shared bit, so they are always compared.
pub(crate) const OTHER_KEY_BIT: u32 = 63;

impl<'a> Build<'a> for Variant {
    type Str = String;
    type Entries = Vec<(Variant, Variant)>;
    #[inline]
    fn text(s: Cow<'a, str>) -> String {
        s.into_owned()
    }
    #[inline]
    fn fixed<T: FixedLayout>(x: T) -> Variant {
        x.into_variant()
    }
    #[inline]
    fn scalar(s: Scalar) -> Variant {
        match s {
            Scalar::Nil => Variant::Nil,
            Scalar::Bool(x) => Variant::Bool(x),
            Scalar::Int(x) => Variant::Int(x),
            Scalar::Float(x) => Variant::Float(x),
            Scalar::Rid(x) => Variant::Rid(x),
            Scalar::Callable => Variant::Callable,
            Scalar::ObjectNull => Variant::Object(Object::Null),
            Scalar::ObjectId(id) => Variant::Object(Object::Id(id)),
        }
    }
    #[inline]
    fn string(s: Cow<'a, str>) -> Variant {
        Variant::String(gstring(s))
    }
    #[inline]
    fn string_name(s: Cow<'a, str>) -> Variant {
        Variant::StringName(StringName(gstring(s)))
    }
    fn node_path(names: Vec<String>, subnames: Vec<String>, absolute: bool) -> Variant {
        Variant::NodePath(Box::new(NodePath {
            names,
            subnames,
            absolute,
        }))
    }
    fn signal(name: String, object: u64) -> Variant {
        Variant::Signal(Signal { name, object })
    }
    #[inline]
    fn byte_array(bytes: &'a [u8]) -> Variant {
        Variant::PackedByteArray(bytes.to_vec())
    }
    #[inline]
    fn packed<T: PackedElement>(bytes: &'a [u8], wide: bool) -> Variant {
        T::into_variant(T::collect(bytes, wide))
    }
    fn string_array(items: Vec<String>) -> Variant {
        Variant::PackedStringArray(items)
    }
    #[inline]
    fn array(items: Vec<Variant>, typed: Option<Box<ArrayType>>) -> Variant {
        Variant::Array(Array { items, typed })
    }
    #[inline]
    fn dictionary(
        entries: Vec<(Variant, Variant)>,
        typed: Option<Box<DictionaryType>>,
        index: Option<Box<KeyIndex>>,
    ) -> Variant {
        // The index goes with the entries: lookups in the result are O(1) at no extra cost.
        Variant::Dictionary(Dictionary::from_unique_indexed(entries, typed, index))
    }
    fn object(class: String, properties: Vec<(String, Variant)>) -> Variant {
        Variant::Object(Object::Full(Box::new(FullObject { class, properties })))
    }
    /// String and integer keys (nearly all keys) compare here, inline; the rest by the rule.
    #[inline(always)]
    fn same_key(a: &Variant, b: &Variant) -> bool {
        match (a, b) {
            (Variant::String(x), Variant::String(y)) => x == y,
            (Variant::Int(x), Variant::Int(y)) => x == y,
            (Variant::String(_) | Variant::Int(_), Variant::String(_) | Variant::Int(_)) => false,
            _ => same_key_slow(a, b),
        }
    }
    fn hash_key<H: Hasher>(k: &Variant, h: &mut H) {
        hash_variant_key(k, h, 0)
    }
    #[inline(always)]
    fn key_bit(k: &Variant) -> u32 {
        match k {
            Variant::String(s) => text_key_bit(s),
            Variant::Int(i) => int_key_bit(*i),
            _ => OTHER_KEY_BIT,
        }
    }
}

/// Text as a [`GString`]: short text is kept inline, with no allocation (most keys and
/// names); long text reuses the allocation the engine's reading made, if any.
#[inline(always)]
fn gstring(s: Cow<'_, str>) -> GString {
    match s {
        Cow::Borrowed(s) => GString::new(s),
        Cow::Owned(s) => GString::from(s),
    }
}

#[inline(never)]
fn same_key_slow(a: &Variant, b: &Variant) -> bool {
    key::same_key(a, b)
}

/// A container being filled.
enum Frame<'a, B: Build<'a>> {
    Array {
        items: Vec<B>,
        left: u32,
        typed: Option<Box<ArrayType>>,
    },
    Dict {
        fill: DictFill<'a, B>,
        left: u32,
        key: Option<B>,
        typed: Option<Box<DictionaryType>>,
    },
    Object {
        class: B::Str,
        props: Vec<(B::Str, B)>,
        left: u32,
        name: Option<B::Str>,
    },
}

/// Nesting that the container stack holds without allocating.
const INLINE_DEPTH: usize = 16;

/// Dictionary entries under construction, with the engine's "last value wins, first
/// position kept" rule for duplicate keys. Small dictionaries (the common case: a handful
/// of string keys) compare linearly; from [`INDEX_FROM`] entries on, a hash index of
/// entry positions keeps the rule linear in time for big inputs, with randomly keyed hashes
/// so that crafted keys cannot make it quadratic.
struct DictFill<'a, B: Build<'a>> {
    entries: B::Entries,
    /// Whether a repeated key replaced a value (what lazy borrowed decoding must know).
    replaced: bool,
    /// One bit per [`Build::key_bit`] of the keys so far: a key whose bit is clear cannot be
    /// a duplicate, which spares the linear scan for nearly every key of a small dictionary.
    seen: u64,
    index: Option<Box<KeyIndex>>,
}

/// The scratch storage of `B`'s dictionary entries (see [`Entries`]).
type Scratch<'a, B> = <<B as Build<'a>>::Entries as Entries<B>>::Scratch;

impl<'a, B: Build<'a>> DictFill<'a, B> {
    fn with_capacity(n: usize) -> DictFill<'a, B> {
        DictFill {
            entries: B::Entries::with_capacity(n),
            replaced: false,
            seen: 0,
            index: None,
        }
    }

    #[inline(always)]
    fn insert(&mut self, s: &mut Scratch<'a, B>, key: B, value: B) {
        let bit = 1u64 << B::key_bit(&key);
        if self.seen & bit == 0 && self.index.is_none() && self.entries.len(s) + 1 < INDEX_FROM {
            // A new bit: no key so far can be equal to this one.
            self.seen |= bit;
            self.entries.push(s, key, value);
            return;
        }
        self.seen |= bit;
        self.insert_checked(s, key, value)
    }

    /// [`DictFill::insert`] when the key may be a duplicate, or the index is (to be) in use.
    #[inline(never)]
    fn insert_checked(&mut self, s: &mut Scratch<'a, B>, key: B, value: B) {
        if self.index.is_some() {
            return self.insert_indexed(s, key, value);
        }
        let entries = &mut self.entries;
        if let Some(i) = (0..entries.len(s)).find(|&i| entries.same_key_at(s, i, &key)) {
            entries.set_value(i, value);
            self.replaced = true;
            return;
        }
        self.entries.push(s, key, value);
        if self.entries.len(s) >= INDEX_FROM {
            self.build_index(s);
        }
    }

    #[inline(never)]
    fn insert_indexed(&mut self, s: &mut Scratch<'a, B>, key: B, value: B) {
        let Some(index) = &mut self.index else {
            return;
        };
        let (table, state) = &mut **index;
        let h = hash_with(state, &key);
        let entries = &mut self.entries;
        match table.find(h, |&(eh, i)| eh == h && entries.same_key_at(s, i, &key)) {
            Some(&(_, i)) => {
                entries.set_value(i, value);
                self.replaced = true;
            }
            None => {
                table.insert_unique(h, (h, entries.len(s)), |&(eh, _)| eh);
                entries.push(s, key, value);
            }
        }
    }

    #[cold]
    fn build_index(&mut self, s: &Scratch<'a, B>) {
        let state = std::hash::RandomState::new();
        let n = self.entries.len(s);
        let mut table = hashbrown::HashTable::with_capacity(self.entries.capacity());
        for i in 0..n {
            let mut hasher = state.build_hasher();
            self.entries.hash_at(s, i, &mut hasher);
            let h = hasher.finish();
            table.insert_unique(h, (h, i), |&(eh, _)| eh);
        }
        self.index = Some(Box::new((table, state)));
    }
}

fn hash_with<'a, B: Build<'a>>(state: &std::hash::RandomState, key: &B) -> u64 {
    let mut h = state.build_hasher();
    B::hash_key(key, &mut h);
    h.finish()
}

struct Decoder<'a, 'o> {
    buf: &'a [u8],
    pos: usize,
    dialect: Dialect,
    version: Version,
    options: &'o DecodeOptions,
    elements: usize,
    /// Whether some dictionary had a repeated key (see [`DictFill::replaced`]).
    replaced: bool,
}

/// What [`Decoder::other`] read: a finished value or an opened container.
enum Step<'a, B: Build<'a>> {
    Value(B),
    Open(Frame<'a, B>),
}

impl<'a, 'o> Decoder<'a, 'o> {
    fn new(
        buf: &'a [u8],
        pos: usize,
        dialect: Dialect,
        options: &'o DecodeOptions,
    ) -> Decoder<'a, 'o> {
        Decoder {
            buf,
            pos,
            dialect,
            version: options.version.unwrap_or_else(|| dialect.newest()),
            options,
            elements: 0,
            replaced: false,
        }
    }

    #[inline]
    fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    #[cold]
    fn eof(&self, needed: usize) -> DecodeError {
        DecodeError::UnexpectedEof {
            offset: self.pos,
            needed: needed - self.remaining(),
            dialect: self.dialect,
        }
    }

    #[inline]
    fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        if self.remaining() < n {
            return Err(self.eof(n));
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    #[inline]
    fn u32(&mut self) -> Result<u32, DecodeError> {
        let b = self.take(4)?;
        Ok(read_u32(b, 0))
    }

    #[inline]
    fn u64(&mut self) -> Result<u64, DecodeError> {
        let b = self.take(8)?;
        Ok(read_u64(b, 0))
    }

    #[cold]
    fn out_of_bounds(&self, at: usize, len: u32) -> DecodeError {
        DecodeError::LengthOutOfBounds {
            offset: at,
            len,
            remaining: self.buf.len() - (at + 4).min(self.buf.len()),
            dialect: self.dialect,
        }
    }

    #[cold]
    fn string_out_of_bounds(&self, at: usize, len: u32) -> DecodeError {
        let remaining = self.buf.len() - (at + 4).min(self.buf.len());
        DecodeError::StringOutOfBounds {
            offset: at,
            len,
            remaining,
            dialect: self.dialect,
        }
    }

    /// `_decode_string`: i32 length, bytes, padding that must be present. The text borrows
    /// from the input unless the engine's reading changes it (its lenient UTF-8).
    #[inline]
    fn text(&mut self) -> Result<Cow<'a, str>, DecodeError> {
        let at = self.pos;
        let len = self.u32()?;
        let n = len as i32;
        if n < 0 {
            return Err(self.string_out_of_bounds(at, len));
        }
        let n = n as usize;
        let total = n + quirks::pad4(n);
        if total > self.remaining() {
            return Err(self.string_out_of_bounds(at, len));
        }
        let start = self.pos;
        let buf: &'a [u8] = self.buf;
        let bytes = &buf[start..start + n];
        self.pos += total;
        // The common case: ASCII without NUL is valid UTF-8 that the engine's reading leaves
        // as it is (no NUL to stop at, no BOM to drop), so it needs no further look.
        if ascii_without_nul(&buf[start..start + total], n) {
            // SAFETY: every byte is in 0x01..=0x7F, and ASCII is valid UTF-8.
            return Ok(Cow::Borrowed(unsafe {
                std::str::from_utf8_unchecked(bytes)
            }));
        }
        match quirks::engine_string(bytes, self.options.keep_leading_bom) {
            Ok(s) => Ok(s),
            Err(i) => Err(DecodeError::InvalidUtf8 {
                offset: start + i,
                dialect: self.dialect,
            }),
        }
    }

    /// A string as the result holds it. The common case (in bounds, ASCII without NUL) comes
    /// back from [`Decoder::plain_text`] as two words in registers; anything else, errors
    /// included, goes the full way through [`Decoder::text`].
    #[inline(always)]
    fn string<B: Build<'a>>(&mut self) -> Result<B::Str, DecodeError> {
        Ok(B::text(self.cow_text()?))
    }

    /// [`Decoder::text`], with the common case first (see [`Decoder::string`]).
    #[inline(always)]
    fn cow_text(&mut self) -> Result<Cow<'a, str>, DecodeError> {
        match self.plain_text() {
            Some(s) => Ok(Cow::Borrowed(s)),
            None => self.text(),
        }
    }

    /// The next string if it is in bounds and plain ASCII without NUL (which the engine's
    /// reading leaves as it is); `None`, having read nothing, otherwise.
    #[inline(never)]
    fn plain_text(&mut self) -> Option<&'a str> {
        let buf: &'a [u8] = self.buf;
        let head = buf.get(self.pos..self.pos + 4)?;
        let n = u32::from_le_bytes([head[0], head[1], head[2], head[3]]) as usize;
        let start = self.pos + 4;
        let total = n.checked_add(quirks::pad4(n))?;
        let padded = buf.get(start..start.checked_add(total)?)?;
        if n > i32::MAX as usize || !ascii_without_nul(padded, n) {
            return None;
        }
        self.pos = start + total;
        // SAFETY: every byte is in 0x01..=0x7F, and ASCII is valid UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(&padded[..n]) })
    }

    /// A packed array's element count and the bytes of its elements (`stride` each).
    #[inline]
    fn packed_bytes(&mut self, stride: usize) -> Result<&'a [u8], DecodeError> {
        let at = self.pos;
        let raw = self.u32()?;
        let n = raw as i32;
        if n < 0 {
            return Err(self.out_of_bounds(at, raw));
        }
        let n = n as usize;
        let bytes = n
            .checked_mul(stride)
            .filter(|&b| b <= self.remaining())
            .ok_or_else(|| self.out_of_bounds(at, raw))?;
        self.count_elements(at, n)?;
        let buf: &'a [u8] = self.buf;
        let s = &buf[self.pos..self.pos + bytes];
        self.pos += bytes;
        Ok(s)
    }

    #[inline]
    fn packed<B: Build<'a>, T: PackedElement>(&mut self, wide: bool) -> Result<B, DecodeError> {
        let b = self.packed_bytes(T::size(wide))?;
        Ok(B::packed::<T>(b, wide))
    }

    #[inline]
    fn count_elements(&mut self, at: usize, n: usize) -> Result<(), DecodeError> {
        self.elements = self.elements.saturating_add(n);
        if self.elements > self.options.limits.max_elements {
            return Err(DecodeError::TooManyElements {
                offset: at,
                limit: self.options.limits.max_elements,
                dialect: self.dialect,
            });
        }
        Ok(())
    }

    /// The count of an Array/Dictionary/Object; capacity is bounded by what the input can hold.
    #[inline]
    fn count(&mut self, min_size: usize) -> Result<(u32, usize), DecodeError> {
        let at = self.pos;
        let n = self.u32()? & quirks::COUNT_MASK;
        self.count_elements(at, n as usize)?;
        Ok((n, (n as usize).min(self.remaining() / min_size)))
    }

    #[inline]
    fn fixed<T>(&mut self, size: usize, f: impl FnOnce(&[u8]) -> T) -> Result<T, DecodeError> {
        let b = self.take(size)?;
        Ok(f(b))
    }

    /// Typed-container type data for one side (4.3+ Array, 4.4+ Dictionary).
    fn element_type(&mut self, container_kind: u32) -> Result<Option<ElementType>, DecodeError> {
        Ok(match container_kind {
            quirks::KIND_NONE => None,
            quirks::KIND_BUILTIN => {
                let at = self.pos;
                let id = self.u32()?;
                match self.dialect.kind_of(self.version, id) {
                    Some(k) => Some(ElementType::Builtin(k)),
                    None => {
                        return Err(DecodeError::InvalidElementType {
                            offset: at,
                            tag: id,
                            dialect: self.dialect,
                        })
                    }
                }
            }
            quirks::KIND_CLASS_NAME => Some(ElementType::Class(self.text()?.into_owned())),
            _ => Some(ElementType::Script(self.text()?.into_owned())),
        })
    }

    /// The driver: reads the root, then fills the innermost open container until it is full
    /// (and hands it to its parent) or until one of its elements opens a container of its own.
    fn run<B: Build<'a>>(&mut self) -> Result<B, DecodeError> {
        let mut root = None;
        match self.one::<B>(|v| root = Some(v))? {
            Some(frame) => self.finish(frame),
            None => Ok(root.expect("a leaf was put")),
        }
    }

    /// [`Decoder::run`] from a container that is open (its header and count read).
    fn finish<B: Build<'a>>(&mut self, frame: Frame<'a, B>) -> Result<B, DecodeError> {
        let mut stack: SmallVec<[Frame<'a, B>; INLINE_DEPTH]> = SmallVec::new();
        let mut scratch = Scratch::<'a, B>::default();
        stack.push(frame);
        loop {
            let depth = stack.len();
            let top = stack.last_mut().expect("the stack is never empty here");
            if let Some(child) = self.fill(top, depth, &mut scratch)? {
                stack.push(child);
                continue;
            }
            let frame = stack.pop().expect("top exists");
            if let Frame::Dict { fill, .. } = &frame {
                self.replaced |= fill.replaced;
                fill.entries.close(&mut scratch);
            }
            let done = close(frame);
            match stack.last_mut() {
                Some(parent) => accept(parent, done, &mut scratch),
                None => return Ok(done),
            }
        }
    }

    /// Reads elements of `frame` (at nesting `depth`) until it is full (`None`) or an element
    /// opens a container (returned; a dictionary keeps the key read, an object the name).
    /// Each leaf goes straight to its place (`put`), not back through a returned value: that
    /// keeps it in registers instead of bouncing through the stack.
    #[inline]
    fn fill<B: Build<'a>>(
        &mut self,
        frame: &mut Frame<'a, B>,
        depth: usize,
        scratch: &mut Scratch<'a, B>,
    ) -> Result<Option<Frame<'a, B>>, DecodeError> {
        match frame {
            Frame::Array { items, left, .. } => {
                while *left > 0 {
                    self.check_depth(depth)?;
                    if let Some(child) = self.one::<B>(
                        #[inline(always)]
                        |v| keep::<B, _>(items, v),
                    )? {
                        return Ok(Some(child));
                    }
                    *left -= 1;
                }
            }
            Frame::Dict {
                fill, left, key, ..
            } => {
                while *left > 0 {
                    if key.is_none() {
                        self.check_depth(depth)?;
                        if let Some(child) = self.one::<B>(
                            #[inline(always)]
                            |v| *key = Some(v),
                        )? {
                            return Ok(Some(child));
                        }
                    }
                    self.check_depth(depth)?;
                    // A value that opens a container leaves the key pending in the frame.
                    if let Some(child) = self.one::<B>(
                        // Inlined, so that the value goes from registers to its place.
                        #[inline(always)]
                        |v| {
                            if let Some(k) = key.take() {
                                fill.insert(scratch, k, v)
                            }
                        },
                    )? {
                        return Ok(Some(child));
                    }
                    *left -= 1;
                }
            }
            Frame::Object {
                props, left, name, ..
            } => {
                while *left > 0 {
                    // The name is read before the depth is checked, as the engine does.
                    if name.is_none() {
                        *name = Some(self.string::<B>()?);
                    }
                    self.check_depth(depth)?;
                    if let Some(child) = self.one::<B>(
                        #[inline(always)]
                        |v| {
                            if let Some(n) = name.take() {
                                keep::<B, _>(props, (n, v))
                            }
                        },
                    )? {
                        return Ok(Some(child));
                    }
                    *left -= 1;
                }
            }
        }
        Ok(None)
    }

    /// The engine's "Variant is too deep" before reading a value nested `depth` deep.
    #[inline(always)]
    fn check_depth(&self, depth: usize) -> Result<(), DecodeError> {
        if depth > self.options.limits.max_depth {
            return Err(self.too_deep());
        }
        Ok(())
    }

    #[cold]
    fn too_deep(&self) -> DecodeError {
        DecodeError::TooDeep {
            offset: self.pos,
            limit: self.options.limits.max_depth,
            dialect: self.dialect,
        }
    }

    /// Reads one header and, for a leaf, the whole value, which goes to `put`; a container
    /// comes back opened. The common leaf types are read here, inline in the driver's loop;
    /// the rest (and containers) in [`Decoder::other`], which keeps this function small.
    #[inline(always)]
    fn one<B: Build<'a>>(
        &mut self,
        put: impl FnOnce(B),
    ) -> Result<Option<Frame<'a, B>>, DecodeError> {
        let at = self.pos;
        let header = self.u32()?;
        let tag = header & quirks::TYPE_MASK;
        let (dialect, version) = (self.dialect, self.version);
        let Some(kind) = dialect.kind_of(version, tag) else {
            return Err(DecodeError::UnknownType {
                offset: at,
                tag,
                dialect,
                version,
            });
        };
        let flag = header & FLAG_64 != 0;
        let s = match kind {
            Kind::Nil => Scalar::Nil,
            Kind::Bool => Scalar::Bool(self.u32()? != 0),
            Kind::Int => Scalar::Int(if flag {
                self.u64()? as i64
            } else {
                self.u32()? as i32 as i64
            }),
            Kind::Float => Scalar::Float(if flag {
                f64::from_bits(self.u64()?)
            } else {
                crate::layout::real_from_f32_bits(self.u32()?)
            }),
            Kind::String => {
                put(B::string(self.cow_text()?));
                return Ok(None);
            }
            _ => {
                return match self.other(at, header, kind)? {
                    Step::Value(v) => {
                        put(v);
                        Ok(None)
                    }
                    Step::Open(frame) => Ok(Some(frame)),
                }
            }
        };
        put(B::scalar(s));
        Ok(None)
    }

    /// [`Decoder::one`] for the other types, after the header.
    #[inline(never)]
    fn other<B: Build<'a>>(
        &mut self,
        at: usize,
        header: u32,
        kind: Kind,
    ) -> Result<Step<'a, B>, DecodeError> {
        let tag = header & quirks::TYPE_MASK;
        let (dialect, version) = (self.dialect, self.version);
        let flag = header & FLAG_64 != 0;
        let wide = flag && dialect.flag64_reals(version, kind);
        // Fixed layouts and packed arrays of them: one generic read each (the spec's kinds).
        let fixed = with_fixed!(kind, T => {
            let v = self.fixed(<T as FixedLayout>::size(wide), |b| <T as FixedLayout>::read(b, wide))?;
            Some(B::fixed(v))
        }, _ => None);
        if let Some(v) = fixed {
            return Ok(Step::Value(v));
        }
        let packed = with_packed!(kind, T => Some(self.packed::<B, T>(wide)?), _ => None);
        if let Some(v) = packed {
            return Ok(Step::Value(v));
        }
        let s = match kind {
            Kind::StringName => return Ok(Step::Value(B::string_name(self.cow_text()?))),
            Kind::NodePath => return Ok(Step::Value(self.node_path::<B>()?)),
            Kind::Rid => {
                if dialect.has_feature(version, Feature::RidPayload) {
                    Scalar::Rid(self.u64()?)
                } else {
                    Scalar::Rid(0)
                }
            }
            Kind::Object => return self.object(at, header & quirks::OBJECT_AS_ID != 0),
            Kind::Callable => Scalar::Callable,
            Kind::Signal => {
                let name = self.string::<B>()?;
                let object = self.u64()?;
                return Ok(Step::Value(B::signal(name, object)));
            }
            Kind::Dictionary => {
                // No container-kind bits means no type data, whatever the version says.
                let kinds = header & (quirks::TYPED_KEY | quirks::TYPED_VALUE);
                let typed = if kinds != 0 && dialect.has_feature(version, Feature::TypedDictionary)
                {
                    let key =
                        self.element_type(quirks::container_kind(header, quirks::TYPED_KEY))?;
                    let value =
                        self.element_type(quirks::container_kind(header, quirks::TYPED_VALUE))?;
                    (key.is_some() || value.is_some())
                        .then(|| Box::new(DictionaryType { key, value }))
                } else {
                    None
                };
                let (left, cap) = self.count(8)?;
                return Ok(Step::Open(Frame::Dict {
                    fill: DictFill::with_capacity(cap),
                    left,
                    key: None,
                    typed,
                }));
            }
            Kind::Array => {
                let typed = if quirks::container_kind(header, quirks::TYPED_ARRAY) != 0
                    && dialect.has_feature(version, Feature::TypedArray)
                {
                    self.element_type(quirks::container_kind(header, quirks::TYPED_ARRAY))?
                        .map(|element| {
                            Box::new(ArrayType {
                                element,
                                pandemonium_packed: false,
                            })
                        })
                } else {
                    None
                };
                let (left, cap) = self.count(4)?;
                return Ok(Step::Open(Frame::Array {
                    items: vec_for::<B, _>(cap),
                    left,
                    typed,
                }));
            }
            Kind::TypedArray | Kind::PackedTypedArray => {
                return self.pandemonium_typed_array(kind, flag)
            }
            Kind::PackedByteArray => {
                let at = self.pos;
                let raw = self.u32()?;
                let n = raw as i32;
                if n < 0 || n as usize > self.remaining() {
                    return Err(self.out_of_bounds(at, raw));
                }
                let n = n as usize;
                self.count_elements(at, n)?;
                let buf: &'a [u8] = self.buf;
                let v = &buf[self.pos..self.pos + n];
                // The padding is counted but need not be present (decode_variant checks only
                // `count <= len`), so `used` stops at the end of the input.
                self.pos = (self.pos + n + quirks::pad4(n)).min(self.buf.len());
                return Ok(Step::Value(B::byte_array(v)));
            }
            Kind::PackedInt32Array => return Ok(Step::Value(self.packed::<B, i32>(wide)?)),
            Kind::PackedInt64Array => return Ok(Step::Value(self.packed::<B, i64>(wide)?)),
            Kind::PackedFloat32Array => return Ok(Step::Value(self.packed::<B, f32>(wide)?)),
            Kind::PackedFloat64Array => return Ok(Step::Value(self.packed::<B, f64>(wide)?)),
            Kind::PackedStringArray => {
                let at = self.pos;
                let n = self.u32()? as i32;
                // A negative count is an empty array, not an error (the decoder never checks it).
                let n = n.max(0) as usize;
                self.count_elements(at, n)?;
                let mut v = vec_for::<B, _>(n.min(self.remaining() / 4));
                for _ in 0..n {
                    let s = self.string::<B>()?;
                    keep::<B, _>(&mut v, s);
                }
                return Ok(Step::Value(B::string_array(v)));
            }
            // Nil, Bool, Int, Float, String and Vector2 are read in `one`; nothing else is left.
            _ => {
                return Err(DecodeError::UnknownType {
                    offset: at,
                    tag,
                    dialect,
                    version,
                })
            }
        };
        Ok(Step::Value(B::scalar(s)))
    }

    fn node_path<B: Build<'a>>(&mut self) -> Result<B, DecodeError> {
        let at = self.pos;
        let first = self.u32()?;
        if first & quirks::NODEPATH_NEW_FORMAT == 0 {
            return Err(DecodeError::OldNodePath {
                offset: at,
                dialect: self.dialect,
            });
        }
        let names = (first & !quirks::NODEPATH_NEW_FORMAT) as usize;
        let mut subnames = self.u32()? as usize;
        let flags = self.u32()?;
        if flags & quirks::NODEPATH_OBSOLETE_PROPERTY != 0 {
            subnames += 1;
        }
        // Each string needs at least its 4-byte length.
        let total = names.saturating_add(subnames);
        if total > self.remaining() / 4 {
            return Err(self.out_of_bounds(at, first));
        }
        self.count_elements(at, total)?;
        let mut name_list = vec_for::<B, _>(names);
        for _ in 0..names {
            let s = self.string::<B>()?;
            keep::<B, _>(&mut name_list, s);
        }
        let mut subname_list = vec_for::<B, _>(subnames);
        for _ in 0..subnames {
            let s = self.string::<B>()?;
            keep::<B, _>(&mut subname_list, s);
        }
        Ok(B::node_path(
            name_list,
            subname_list,
            flags & quirks::NODEPATH_ABSOLUTE != 0,
        ))
    }

    fn object<B: Build<'a>>(&mut self, at: usize, as_id: bool) -> Result<Step<'a, B>, DecodeError> {
        if as_id {
            let id = self.u64()?;
            return Ok(Step::Value(B::scalar(if id == 0 {
                Scalar::ObjectNull
            } else {
                Scalar::ObjectId(id)
            })));
        }
        // ERR_UNAUTHORIZED is checked before anything of the object is read.
        if !self.options.allow_objects {
            return Err(DecodeError::ObjectNotAllowed {
                offset: at,
                dialect: self.dialect,
            });
        }
        let class = self.text()?;
        if class.is_empty() {
            return Ok(Step::Value(B::scalar(Scalar::ObjectNull)));
        }
        let (left, cap) = self.count(8)?;
        Ok(Step::Open(Frame::Object {
            class: B::text(class),
            props: vec_for::<B, _>(cap),
            left,
            name: None,
        }))
    }

    /// Pandemonium 5's TYPED_ARRAY / PACKED_TYPED_ARRAY: element type, optional class name
    /// (a whole StringName value), count, elements.
    fn pandemonium_typed_array<B: Build<'a>>(
        &mut self,
        kind: Kind,
        as_id: bool,
    ) -> Result<Step<'a, B>, DecodeError> {
        let at = self.pos;
        let id = self.u32()? & quirks::COUNT_MASK;
        let Some(element_kind) = self.dialect.kind_of(self.version, id) else {
            return Err(DecodeError::InvalidElementType {
                offset: at,
                tag: id,
                dialect: self.dialect,
            });
        };
        let element = if element_kind == Kind::Object && !as_id {
            let h = self.pos;
            let header = self.u32()?;
            if self
                .dialect
                .kind_of(self.version, header & quirks::TYPE_MASK)
                != Some(Kind::StringName)
            {
                return Err(DecodeError::InvalidElementType {
                    offset: h,
                    tag: header & quirks::TYPE_MASK,
                    dialect: self.dialect,
                });
            }
            ElementType::Class(self.text()?.into_owned())
        } else {
            ElementType::Builtin(element_kind)
        };
        let (left, cap) = self.count(4)?;
        let typed = Some(Box::new(ArrayType {
            element,
            pandemonium_packed: kind == Kind::PackedTypedArray,
        }));
        Ok(Step::Open(Frame::Array {
            items: vec_for::<B, _>(cap),
            left,
            typed,
        }))
    }
}

/// What the validating pass of lazy borrowed decoding keeps of a value: enough of a
/// dictionary key to apply the duplicate-key rule, nothing of anything else (its containers
/// keep no elements, see [`Build::KEEP`]).
///
/// Keys are compared by a 64-bit fingerprint consistent with [`key::same_key`]: different
/// fingerprints prove keys different; equal ones count as a possibly repeated key, which
/// sends the whole decode to the eager result, where the exact rule is applied. So a crafted
/// collision costs speed, never correctness. Text is fingerprinted only when it is a key.
#[derive(Clone, Copy)]
pub(crate) enum Probe<'a> {
    Text(&'a str),
    Name(&'a str),
    /// A leaf's fingerprint, or a kind's alone for values whose identity as keys is not
    /// worked out here (two such keys of one kind count as possibly the same).
    Fingerprint(u64),
}

impl Probe<'_> {
    #[inline(always)]
    fn fingerprint(&self) -> u64 {
        match *self {
            Probe::Text(s) => fingerprint(|h| (Kind::String, s).hash(h)),
            Probe::Name(s) => fingerprint(|h| (Kind::StringName, s).hash(h)),
            Probe::Fingerprint(x) => x,
        }
    }

    fn of_kind(kind: Kind) -> Probe<'static> {
        Probe::Fingerprint(fingerprint(|h| kind.hash(h)))
    }
}

#[inline(always)]
fn fingerprint(f: impl FnOnce(&mut rustc_hash::FxHasher)) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    f(&mut h);
    // FxHasher's last step is a multiply, whose high bits mix best; `key_bit` takes the top six.
    h.finish()
}

/// The keys of a dictionary being checked, as fingerprints in the decode's scratch stack:
/// a dictionary's keys lie above those of the dictionaries it is nested in, and are given
/// back when it closes. The stack lives inline for ordinary input, so checking allocates
/// nothing; a frame holds only where its keys start.
pub(crate) struct ProbeKeys {
    /// Where this dictionary's keys start in the scratch stack (`None` before the first).
    start: Option<usize>,
    expected: usize,
}

/// The fingerprints of the keys of every open dictionary of the validating pass.
pub(crate) type KeyStack = SmallVec<[u64; 64]>;

impl ProbeKeys {
    #[inline(always)]
    fn keys<'s>(&self, s: &'s KeyStack) -> &'s [u64] {
        match self.start {
            Some(start) => &s[start..],
            None => &[],
        }
    }
}

impl<'a> Entries<Probe<'a>> for ProbeKeys {
    type Scratch = KeyStack;
    #[inline]
    fn with_capacity(n: usize) -> Self {
        ProbeKeys {
            start: None,
            expected: n,
        }
    }
    #[inline(always)]
    fn len(&self, s: &KeyStack) -> usize {
        self.keys(s).len()
    }
    fn capacity(&self) -> usize {
        self.expected
    }
    #[inline(always)]
    fn same_key_at(&self, s: &KeyStack, i: usize, key: &Probe<'a>) -> bool {
        self.keys(s)[i] == key.fingerprint()
    }
    fn hash_at<H: Hasher>(&self, s: &KeyStack, i: usize, h: &mut H) {
        self.keys(s)[i].hash(h)
    }
    #[inline(always)]
    fn push(&mut self, s: &mut KeyStack, key: Probe<'a>, _value: Probe<'a>) {
        if self.start.is_none() {
            // Dictionaries nested in this one have given their keys back by now.
            self.start = Some(s.len());
        }
        s.push(key.fingerprint())
    }
    #[inline]
    fn set_value(&mut self, _i: usize, _value: Probe<'a>) {}
    #[inline]
    fn close(&self, s: &mut KeyStack) {
        if let Some(start) = self.start {
            s.truncate(start);
        }
    }
}

impl<'a> Build<'a> for Probe<'a> {
    const KEEP: bool = false;
    type Str = Cow<'a, str>;
    type Entries = ProbeKeys;
    #[inline]
    fn text(s: Cow<'a, str>) -> Cow<'a, str> {
        s
    }
    #[inline]
    fn fixed<T: FixedLayout>(x: T) -> Probe<'a> {
        // Every component through `hash_key_real` (integers and f32 widen exactly), so values
        // that compare equal as keys get the same fingerprint.
        Probe::Fingerprint(fingerprint(|h| {
            T::KIND.hash(h);
            x.visit(&mut |c| hash_key_real(c, h));
        }))
    }
    #[inline]
    fn scalar(s: Scalar) -> Probe<'a> {
        // The common key types straight from the scalar, reals through `hash_key_real` (the
        // one place that says how keys compare reals). Not `hash_variant_key` over a built
        // `Variant`: that costs the validating pass 12% on W3, and keeping the `Variant` until
        // it is known to be a key costs 60% (a bigger probe with drop glue).
        Probe::Fingerprint(fingerprint(|h| match s {
            Scalar::Int(i) => (Kind::Int, i).hash(h),
            Scalar::Float(x) => {
                Kind::Float.hash(h);
                hash_key_real(x, h)
            }
            Scalar::Bool(b) => (Kind::Bool, b).hash(h),
            Scalar::Rid(r) => (Kind::Rid, r).hash(h),
            // Identity as a key not worked out: the kind alone (conservative, see above).
            other => <Variant as Build<'a>>::scalar(other).kind().hash(h),
        }))
    }
    #[inline]
    fn string(s: Cow<'a, str>) -> Probe<'a> {
        match s {
            Cow::Borrowed(s) => Probe::Text(s),
            // Text the engine's reading rewrote: fingerprinted now, as it cannot be kept
            // (the same fingerprint as the same text arriving unchanged).
            Cow::Owned(s) => Probe::Fingerprint(Probe::Text(&s).fingerprint()),
        }
    }
    #[inline]
    fn string_name(s: Cow<'a, str>) -> Probe<'a> {
        match s {
            Cow::Borrowed(s) => Probe::Name(s),
            Cow::Owned(s) => Probe::Fingerprint(Probe::Name(&s).fingerprint()),
        }
    }
    fn node_path(_: Vec<Cow<'a, str>>, _: Vec<Cow<'a, str>>, _: bool) -> Probe<'a> {
        Probe::of_kind(Kind::NodePath)
    }
    fn signal(_: Cow<'a, str>, _: u64) -> Probe<'a> {
        Probe::of_kind(Kind::Signal)
    }
    fn byte_array(_: &'a [u8]) -> Probe<'a> {
        Probe::of_kind(Kind::PackedByteArray)
    }
    fn packed<T: PackedElement>(bytes: &'a [u8], wide: bool) -> Probe<'a> {
        Probe::of_kind(T::into_ref(crate::borrowed::PackedRef::new(bytes, wide)).kind())
    }
    fn string_array(_: Vec<Cow<'a, str>>) -> Probe<'a> {
        Probe::of_kind(Kind::PackedStringArray)
    }
    #[inline]
    fn array(_: Vec<Probe<'a>>, _: Option<Box<ArrayType>>) -> Probe<'a> {
        Probe::of_kind(Kind::Array)
    }
    #[inline]
    fn dictionary(
        _: ProbeKeys,
        _: Option<Box<DictionaryType>>,
        _: Option<Box<KeyIndex>>,
    ) -> Probe<'a> {
        Probe::of_kind(Kind::Dictionary)
    }
    fn object(_: Cow<'a, str>, _: Vec<(Cow<'a, str>, Probe<'a>)>) -> Probe<'a> {
        Probe::of_kind(Kind::Object)
    }
    #[inline(always)]
    fn same_key(a: &Probe<'a>, b: &Probe<'a>) -> bool {
        a.fingerprint() == b.fingerprint()
    }
    fn hash_key<H: Hasher>(k: &Probe<'a>, h: &mut H) {
        k.fingerprint().hash(h)
    }
    #[inline(always)]
    fn key_bit(k: &Probe<'a>) -> u32 {
        (k.fingerprint() >> 58) as u32
    }
}

/// What lazy borrowed values need to read their elements later: how the bytes were read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ctx {
    pub dialect: Dialect,
    pub version: Version,
    pub keep_leading_bom: bool,
    pub allow_objects: bool,
}

impl Ctx {
    pub(crate) fn new(dialect: Dialect, options: &DecodeOptions) -> Ctx {
        Ctx {
            dialect,
            version: options.version.unwrap_or_else(|| dialect.newest()),
            keep_leading_bom: options.keep_leading_bom,
            allow_objects: options.allow_objects,
        }
    }

    /// Options that read validated bytes as they were read the first time. The limits are
    /// lifted: the whole value passed them, and any part of it is smaller and shallower.
    fn options(&self) -> DecodeOptions {
        DecodeOptions {
            version: Some(self.version),
            allow_objects: self.allow_objects,
            limits: Limits {
                max_depth: usize::MAX,
                max_elements: usize::MAX,
            },
            keep_leading_bom: self.keep_leading_bom,
        }
    }
}

/// The validating pass of lazy borrowed decoding: every check of [`decode`], nothing built.
/// Gives `used`, and whether some dictionary repeated a key (lazy views read entries as
/// they lie, so such input is built eagerly instead).
pub(crate) fn validate(
    bytes: &[u8],
    dialect: Dialect,
    options: &DecodeOptions,
) -> Result<(usize, bool), DecodeError> {
    let mut d = Decoder::new(bytes, 0, dialect, options);
    d.run::<Probe>()?;
    Ok((d.pos, d.replaced))
}

/// Whether the value at the start of `bytes` is an `Array` or a `Dictionary` (which lazy
/// borrowed decoding leaves unread), judged by its header alone.
#[inline]
pub(crate) fn is_container(bytes: &[u8], ctx: &Ctx) -> bool {
    let Some(head) = bytes.get(..4) else {
        return false;
    };
    matches!(
        ctx.dialect
            .kind_of(ctx.version, read_u32(head, 0) & quirks::TYPE_MASK),
        Some(Kind::Array | Kind::Dictionary | Kind::TypedArray | Kind::PackedTypedArray)
    )
}

/// One value of validated bytes, read lazily: an `Array` or `Dictionary` only opened (its
/// elements start at `first`), anything else in full.
pub(crate) enum Shallow<'a> {
    Value(crate::borrowed::VariantRef<'a>),
    Array {
        typed: Option<Box<ArrayType>>,
        len: u32,
        first: usize,
    },
    Dictionary {
        typed: Option<Box<DictionaryType>>,
        len: u32,
        first: usize,
    },
}

/// Reads the value at `pos` of bytes that [`validate`] accepted with the same `ctx`, and
/// where the next value starts (after a container's last element when `skip`, else at its
/// first element). Errors cannot happen on such bytes; they are passed on, not hidden.
#[inline(always)]
pub(crate) fn read_shallow<'a>(
    buf: &'a [u8],
    pos: usize,
    ctx: &Ctx,
    skip: bool,
) -> Result<(Shallow<'a>, usize), DecodeError> {
    if is_container(&buf[pos.min(buf.len())..], ctx) {
        return open_container(buf, pos, ctx, skip);
    }
    // A leaf (or an object, read in full): inline, so that the value reaches the caller's
    // iterator without being copied through the layers in between.
    let options = ctx.options();
    let mut d = Decoder::new(buf, pos, ctx.dialect, &options);
    let mut leaf = None;
    let v = match (
        d.one::<crate::borrowed::VariantRef<'a>>(|v| leaf = Some(v))?,
        leaf,
    ) {
        (None, Some(v)) => v,
        (Some(object), _) => d.finish(object)?,
        // `one` puts every value it does not open; should it not, read it the long way.
        (None, None) => {
            d.pos = pos;
            d.run()?
        }
    };
    Ok((Shallow::Value(v), d.pos))
}

/// [`read_shallow`] of an `Array` or `Dictionary`.
#[inline(never)]
fn open_container<'a>(
    buf: &'a [u8],
    pos: usize,
    ctx: &Ctx,
    skip: bool,
) -> Result<(Shallow<'a>, usize), DecodeError> {
    let options = ctx.options();
    let mut d = Decoder::new(buf, pos, ctx.dialect, &options);
    if let Some(mut frame) = d.one::<Probe>(|_| {})? {
        let first = d.pos;
        let shallow = match &mut frame {
            Frame::Array { typed, left, .. } => Some(Shallow::Array {
                typed: typed.take(),
                len: *left,
                first,
            }),
            Frame::Dict { typed, left, .. } => Some(Shallow::Dictionary {
                typed: typed.take(),
                len: *left,
                first,
            }),
            // Only objects open object frames; read in full below.
            Frame::Object { .. } => None,
        };
        if let Some(shallow) = shallow {
            if skip {
                d.finish(frame)?;
            }
            return Ok((shallow, if skip { d.pos } else { first }));
        }
    }
    d.pos = pos;
    let v = d.run::<crate::borrowed::VariantRef<'a>>()?;
    Ok((Shallow::Value(v), d.pos))
}

/// The owned value at `pos` of bytes that [`validate`] accepted with the same `ctx`.
pub(crate) fn decode_at(buf: &[u8], pos: usize, ctx: &Ctx) -> Result<Variant, DecodeError> {
    let options = ctx.options();
    Decoder::new(buf, pos, ctx.dialect, &options).run::<Variant>()
}

/// Whether the first `n` bytes of `padded` (a string and its padding to 4) are all in
/// `0x01..=0x7F`. Four bytes at a time, padding included but forced to `0x01`: `x - 0x01…01`
/// sets a byte's top bit when the lowest zero byte borrows, and `x` sets it for bytes >= 0x80;
/// a borrow can also flag a later byte, which only sends the string down the careful path.
#[inline(always)]
fn ascii_without_nul(padded: &[u8], n: usize) -> bool {
    const ONES: u32 = 0x0101_0101;
    const HIGH: u32 = 0x8080_8080;
    let word = |at: usize| {
        let mut w = [0u8; 4];
        w.copy_from_slice(&padded[at..at + 4]);
        u32::from_le_bytes(w)
    };
    let full = n / 4;
    let mut flags = 0u32;
    for i in 0..full {
        let x = word(4 * i);
        flags |= (x.wrapping_sub(ONES) | x) & HIGH;
    }
    let rem = n % 4;
    if rem != 0 {
        // The last word: its top `4 - rem` bytes are padding, read as 0x01.
        let keep = u32::MAX >> (8 * (4 - rem));
        let x = (word(4 * full) & keep) | (ONES & !keep);
        flags |= (x.wrapping_sub(ONES) | x) & HIGH;
    }
    flags == 0
}

/// A vector for up to `n` elements of a `B` result, or none (no allocation) when `B` keeps no
/// elements.
#[inline(always)]
fn vec_for<'a, B: Build<'a>, T>(n: usize) -> Vec<T> {
    if B::KEEP {
        Vec::with_capacity(n)
    } else {
        Vec::new()
    }
}

/// Pushes `x` when `B` keeps elements (else `x` is dropped, and the vector stays unallocated).
#[inline(always)]
fn keep<'a, B: Build<'a>, T>(v: &mut Vec<T>, x: T) {
    if B::KEEP {
        v.push(x)
    }
}

/// Hands a finished container to its parent.
#[inline]
fn accept<'a, B: Build<'a>>(parent: &mut Frame<'a, B>, value: B, scratch: &mut Scratch<'a, B>) {
    match parent {
        Frame::Array { items, left, .. } => {
            keep::<B, _>(items, value);
            *left -= 1;
        }
        Frame::Dict {
            fill, left, key, ..
        } => match key.take() {
            None => *key = Some(value),
            Some(k) => {
                fill.insert(scratch, k, value);
                *left -= 1;
            }
        },
        Frame::Object {
            props, left, name, ..
        } => {
            if let Some(n) = name.take() {
                keep::<B, _>(props, (n, value));
            }
            *left -= 1;
        }
    }
}

#[inline]
fn close<'a, B: Build<'a>>(frame: Frame<'a, B>) -> B {
    match frame {
        Frame::Array { items, typed, .. } => B::array(items, typed),
        Frame::Dict { fill, typed, .. } => B::dictionary(fill.entries, typed, fill.index),
        Frame::Object { class, props, .. } => B::object(class, props),
    }
}

#[cfg(test)]
mod tests {
    use super::ascii_without_nul;

    /// The word-at-a-time check agrees with the plain definition, whatever the padding holds.
    #[test]
    fn ascii_check_matches_the_definition() {
        let alphabet = [0u8, 1, b'a', 0x7f, 0x80, 0xc3, 0xff];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for n in 0..40usize {
            for _ in 0..200 {
                let total = n + (4 - n % 4) % 4;
                let bytes: Vec<u8> = (0..total)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        alphabet[(seed % alphabet.len() as u64) as usize]
                    })
                    .collect();
                let want = bytes[..n].iter().all(|&b| (1..=0x7f).contains(&b));
                assert_eq!(ascii_without_nul(&bytes, n), want, "{bytes:?} n={n}");
            }
        }
    }
}
