//! The one dictionary-key rule: when two values are the same key (`same_key`), a hash that
//! agrees with it (`hash_key`), and the hash index big dictionaries keep of their keys. The
//! decoder, the borrowed views' validating pass and [`Dictionary`](super::Dictionary) all use it.
//!
//! The engine's rule (`Dictionary::operator[]` with `VariantHasher`/`VariantComparator`,
//! core/variant/dictionary.cpp): keys are equal when their types are equal and their values
//! are, all NaNs being one key and `0.0 == -0.0`; so `1` and `1.0` are different keys.

use super::Variant;
use crate::variant::layout::{Component, Scalar};
use std::hash::{Hash, Hasher};

/// The hash index of a dictionary's keys: a [`Slot`] for every key, and the randomly keyed
/// hasher of the hashes.
pub(crate) type KeyIndex = (hashbrown::HashTable<Slot>, KeyState);

/// The hasher of every key index (dictionaries, the decoder's and the scan's duplicate-key
/// checks, the text reader's): std's SipHash, keyed at random from the OS, so that keys chosen
/// by whoever wrote the input cannot be aimed at one bucket, even by a sender who times the
/// replies. foldhash took a third of its cost (`encode --from text` of 80,000 entries: 8% of
/// the instructions) but claims no resistance against an attacker who can observe timings,
/// which a game server's clients can.
pub(crate) type KeyState = std::hash::RandomState;

/// A key's place in the [`KeyIndex`]: 32 bits of its hash and its entry's position.
///
/// Eight bytes where `(u64, usize)` took sixteen: the index of a dictionary of a million keys
/// takes 19 MB instead of 36 MB, beside the 80 MB of its entries. The table is given the
/// 32 bits in both halves of its 64-bit hash, so growing it rehashes from the slots alone.
/// Positions fit: a dictionary read from bytes has at most 2^31 entries (the count's 31
/// bits), and one of 2^32 would take 320 GB. Only the functions below touch slots, so every
/// caller files and finds keys under the same hash.
#[derive(Clone, Copy)]
pub(crate) struct Slot {
    digest: u32,
    pos: u32,
}

impl Slot {
    fn new(hash: u64, pos: usize) -> Slot {
        Slot {
            digest: digest(hash),
            pos: u32::try_from(pos).expect("a Dictionary has fewer than 2^32 entries"),
        }
    }

    /// The hash the table files this slot under.
    fn hash(self) -> u64 {
        spread(self.digest)
    }
}

/// The full hash of `key` under the index's randomly keyed `state` (what [`file`], [`find`]
/// and the others are given).
pub(crate) fn key_hash(state: &KeyState, key: &Variant) -> u64 {
    use std::hash::BuildHasher;
    let mut h = state.build_hasher();
    hash_variant_key(key, &mut h, 0);
    h.finish()
}

/// Files the entry at `pos`, whose key's full hash is `hash`, in `table` (a key not there).
#[inline]
pub(crate) fn file(table: &mut hashbrown::HashTable<Slot>, hash: u64, pos: usize) {
    table.insert_unique(table_hash(hash), Slot::new(hash, pos), |s| s.hash());
}

/// The position of the entry whose key's full hash is `hash` and for whose position `is`
/// holds (it compares the keys).
#[inline]
pub(crate) fn find(
    table: &hashbrown::HashTable<Slot>,
    hash: u64,
    mut is: impl FnMut(usize) -> bool,
) -> Option<usize> {
    table
        .find(table_hash(hash), |s| {
            s.digest == digest(hash) && is(s.pos as usize)
        })
        .map(|s| s.pos as usize)
}

/// [`find`], or else [`file`] the entry at `pos`: one probe for both.
#[inline]
pub(crate) fn find_or_file(
    table: &mut hashbrown::HashTable<Slot>,
    hash: u64,
    pos: usize,
    mut is: impl FnMut(usize) -> bool,
) -> Option<usize> {
    let same = |s: &Slot| s.digest == digest(hash) && is(s.pos as usize);
    match table.entry(table_hash(hash), same, |s| s.hash()) {
        hashbrown::hash_table::Entry::Occupied(slot) => Some(slot.get().pos as usize),
        hashbrown::hash_table::Entry::Vacant(slot) => {
            slot.insert(Slot::new(hash, pos));
            None
        }
    }
}

/// Takes out the entry at `pos` (its key's full hash is `hash`); the entries after it move
/// up a place.
pub(crate) fn unfile(table: &mut hashbrown::HashTable<Slot>, hash: u64, pos: usize) {
    if let Ok(slot) = table.find_entry(table_hash(hash), |s| s.pos as usize == pos) {
        slot.remove();
    }
    for s in table.iter_mut() {
        if s.pos as usize > pos {
            s.pos -= 1;
        }
    }
}

/// The hash to find or file a key under, from its full 64-bit hash.
#[inline]
fn table_hash(hash: u64) -> u64 {
    spread(digest(hash))
}

#[inline]
fn digest(hash: u64) -> u32 {
    (hash ^ (hash >> 32)) as u32
}

/// The table takes its bucket from the low bits and its tag from the top seven: both come
/// from the digest.
#[inline]
fn spread(digest: u32) -> u64 {
    u64::from(digest) << 32 | u64::from(digest)
}

/// Dictionaries index their keys from this many entries on (below, a scan is faster).
pub(crate) const INDEX_FROM: usize = 16;

/// Floats as dictionary keys: the engine's `hash_compare` treats all NaNs as one key and
/// `0.0 == -0.0`; `1` and `1.0` differ because their types differ.
fn same_key_float(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

/// Whether two values are the same Dictionary key (`Dictionary::operator[]` with
/// `VariantHasher`/`VariantComparator`): same type and equal value.
pub(crate) fn same_key(a: &Variant, b: &Variant) -> bool {
    match (a, b) {
        (Variant::Float(x), Variant::Float(y)) => same_key_float(*x, *y),
        (Variant::String(x), Variant::String(y)) => x == y,
        (Variant::Int(x), Variant::Int(y)) => x == y,
        _ => a.kind() == b.kind() && deep_eq(a, b, &same_key_float),
    }
}

/// Bitwise sameness: floats compare by bits (see [`Variant::same`]).
pub(crate) fn same_value(a: &Variant, b: &Variant) -> bool {
    deep_eq(a, b, &|x: f64, y: f64| x.to_bits() == y.to_bits())
}

fn deep_eq(a: &Variant, b: &Variant, f: &dyn Fn(f64, f64) -> bool) -> bool {
    use Variant as V;
    let fv = |x: &[f64], y: &[f64]| x.len() == y.len() && x.iter().zip(y).all(|(p, q)| f(*p, *q));
    // Math values and packed arrays of them: component by component, reals through `f`,
    // integers and `Color`'s f32s exactly (by bits).
    // (On the stack: dictionary keys are compared while decoding, which allocates nothing
    // that the result does not keep.)
    type Values = smallvec::SmallVec<[f64; 16]>;
    type Visit<'v> = &'v dyn Fn(&mut dyn FnMut(f64));
    let values = |visit: Visit| {
        let mut v = Values::new();
        visit(&mut |x| v.push(x));
        v
    };
    if let (Some(x), Some(y)) = (a.as_fixed(), b.as_fixed()) {
        return x.kind() == y.kind()
            && same_components(
                x.components(),
                &values(&|f| x.visit(f)),
                &values(&|f| y.visit(f)),
                f,
            );
    }
    if let (Some(x), Some(y)) = (a.as_packed(), b.as_packed()) {
        return x.kind() == y.kind()
            && x.len() == y.len()
            && (0..x.len()).all(|i| {
                same_components(
                    x.components(),
                    &values(&|f| x.visit_element(i, f)),
                    &values(&|f| y.visit_element(i, f)),
                    f,
                )
            });
    }
    match (a, b) {
        (V::Float(x), V::Float(y)) => f(*x, *y),
        (V::PackedFloat32Array(x), V::PackedFloat32Array(y)) => {
            let w = |v: &f32| crate::variant::layout::real_from_f32_bits(v.to_bits());
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| f(w(p), w(q)))
        }
        (V::PackedFloat64Array(x), V::PackedFloat64Array(y)) => fv(x, y),
        (V::Array(x), V::Array(y)) => {
            x.typed == y.typed
                && x.items.len() == y.items.len()
                && x.items.iter().zip(&y.items).all(|(p, q)| deep_eq(p, q, f))
        }
        (V::Dictionary(x), V::Dictionary(y)) => {
            x.typed() == y.typed()
                && x.len() == y.len()
                && x.entries()
                    .iter()
                    .zip(y.entries())
                    .all(|((k1, v1), (k2, v2))| deep_eq(k1, k2, f) && deep_eq(v1, v2, f))
        }
        (
            V::Object(crate::variant::Object::Full(x)),
            V::Object(crate::variant::Object::Full(y)),
        ) => {
            x.class == y.class
                && x.properties.len() == y.properties.len()
                && x.properties
                    .iter()
                    .zip(&y.properties)
                    .all(|((n1, v1), (n2, v2))| n1 == n2 && deep_eq(v1, v2, f))
        }
        _ => a == b,
    }
}

/// Components of two values of one math kind, compared one by one (`comps` repeats for the
/// elements of a packed array).
fn same_components(
    comps: &[Component],
    x: &[f64],
    y: &[f64],
    f: &dyn Fn(f64, f64) -> bool,
) -> bool {
    x.len() == y.len()
        && x.iter()
            .zip(y)
            .zip(comps.iter().cycle())
            .all(|((p, q), c)| match c.scalar {
                Scalar::Real => f(*p, *q),
                Scalar::I32 | Scalar::F32 => p.to_bits() == q.to_bits(),
            })
}

/// Hashes a float the way [`same_key`] compares it: all NaNs are one key, and
/// `0.0 == -0.0`.
pub(crate) fn hash_key_real<H: Hasher>(x: f64, h: &mut H) {
    let bits = if x.is_nan() {
        u64::MAX
    } else if x == 0.0 {
        0
    } else {
        x.to_bits()
    };
    bits.hash(h);
}

/// [`hash_variant_key`] of a `String` (or `StringName`, `name`) key with text `text`, without
/// building the key.
///
/// A text of up to 15 bytes (most keys) is hashed as one 16-byte word holding it, its length
/// and the kind, in one call: SipHash costs a round per 8 bytes and about as much again per
/// call, and hashing the kind, the bytes and `str`'s end marker in three calls took 290
/// instructions a key.
pub(crate) fn hash_text_key<H: Hasher>(text: &str, name: bool, h: &mut H) {
    let bytes = text.as_bytes();
    let kind = u128::from(name) << 127;
    if bytes.len() <= 15 {
        let mut word = [0u8; 16];
        word[..bytes.len()].copy_from_slice(bytes);
        h.write_u128(u128::from_le_bytes(word) | (bytes.len() as u128) << 120 | kind);
    } else {
        // Bit 124 apart from every short text's length; SipHash's last round adds the length.
        h.write_u128(1 << 124 | kind);
        h.write(bytes);
    }
}

/// A hash consistent with [`same_key`]. It hashes less than it compares (the kind
/// only, for the rarer key types), which is still consistent: equal keys hash equal.
pub(crate) fn hash_variant_key<H: Hasher>(v: &Variant, h: &mut H, depth: usize) {
    match v {
        Variant::String(s) => return hash_text_key(s.as_str(), false, h),
        Variant::StringName(s) => return hash_text_key(s.0.as_str(), true, h),
        _ => v.kind().hash(h),
    }
    match v {
        Variant::Bool(b) => b.hash(h),
        Variant::Int(i) => i.hash(h),
        Variant::Rid(r) => r.hash(h),
        Variant::Float(f) => hash_key_real(*f, h),
        Variant::NodePath(p) => (&p.names, &p.subnames).hash(h),
        Variant::Array(a) if depth < 4 => {
            a.items.len().hash(h);
            for x in a.items.iter().take(8) {
                hash_variant_key(x, h, depth + 1);
            }
        }
        Variant::PackedByteArray(b) => b.hash(h),
        Variant::PackedStringArray(b) => b.hash(h),
        // Math values: every component as a key real (integers widen exactly), as the
        // validating pass fingerprints them.
        other => {
            if let Some(f) = other.as_fixed() {
                f.visit(&mut |x| hash_key_real(x, h));
            }
        }
    }
}
