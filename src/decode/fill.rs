//! Containers being filled: the frame stack, and dictionary entries under the engine's
//! duplicate-key rule (scanned while small, indexed from 16 entries).

use super::*;

/// A container being filled.
pub(crate) enum Frame<'a, B: Build<'a>> {
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
        /// Engine checks: where the value of the `script` property being read starts.
        script_at: Option<usize>,
    },
}

/// Engine mode's typed-container rule for one decode (Godot 4): see [`quirks::element_fate`].
#[derive(Clone, Copy)]
pub(crate) struct Retype {
    pub(crate) dialect: Dialect,
    pub(crate) version: Version,
    pub(crate) allow_objects: bool,
    /// Every StringName key becomes a String (`quirks::stringname_keys_become_strings`).
    pub(crate) string_name_keys_to_string: bool,
}

impl Retype {
    /// Whether the keys of a Dictionary whose key type is `key_type` go through
    /// [`insert_typed`]: a typed key, or any key where StringName keys become Strings.
    #[inline]
    pub(crate) fn checks_keys(&self, key_type: Option<&ElementType>) -> bool {
        key_type.is_some() || self.string_name_keys_to_string
    }

    /// What the engine's Dictionary does with `key`: its typed key's check, or the String
    /// that a StringName key becomes.
    fn key_fate(&self, key_type: Option<&ElementType>, key: &quirks::Seen<'_>) -> quirks::Fate {
        match (key_type, key) {
            (Some(t), seen) => {
                quirks::element_fate(t, seen, self.allow_objects, self.dialect, self.version)
            }
            (
                None,
                quirks::Seen::Value {
                    kind: Kind::StringName,
                    ..
                },
            ) if self.string_name_keys_to_string => quirks::Fate::ToString,
            (None, _) => quirks::Fate::Keep,
        }
    }
}

/// Engine mode: an element goes into a typed Array as the engine's `push_back` puts it.
#[inline(never)]
pub(crate) fn push_typed<'a, B: Build<'a>>(items: &mut Vec<B>, ty: &ElementType, v: B, r: Retype) {
    match quirks::element_fate(ty, &v.seen(), r.allow_objects, r.dialect, r.version) {
        quirks::Fate::Drop => {}
        fate => keep::<B, _>(items, v.convert(fate)),
    }
}

/// Engine mode: an entry goes into a Dictionary as the engine's `dict[key] = value` puts it
/// (a typed key validated, the value not: core/variant/dictionary.cpp:88, 4.4.1; a StringName
/// key a String before 4.4).
#[inline(never)]
pub(crate) fn insert_typed<'a, B: Build<'a>>(
    fill: &mut DictFill<'a, B>,
    scratch: &mut Scratch<'a, B>,
    key_type: Option<&ElementType>,
    key: B,
    value: B,
    r: Retype,
) {
    match r.key_fate(key_type, &key.seen()) {
        quirks::Fate::Drop => {}
        fate => fill.insert(scratch, key.convert(fate), value),
    }
}

/// Nesting that the container stack holds without allocating.
pub(crate) const INLINE_DEPTH: usize = 16;

/// Dictionary entries under construction, with the engine's "last value wins, first
/// position kept" rule for duplicate keys. Small dictionaries (the common case: a handful
/// of string keys) compare linearly; from [`INDEX_FROM`] entries on, a hash index of
/// entry positions keeps the rule linear in time for big inputs, with randomly keyed hashes
/// so that crafted keys cannot make it quadratic.
pub(crate) struct DictFill<'a, B: Build<'a>> {
    pub(crate) entries: B::Entries,
    /// Whether a repeated key replaced a value (what lazy borrowed decoding must know).
    pub(crate) replaced: bool,
    /// One bit per [`Build::key_bit`] of the keys so far: a key whose bit is clear cannot be
    /// a duplicate, which spares the linear scan for nearly every key of a small dictionary.
    pub(crate) seen: u64,
    pub(crate) index: Option<Box<KeyIndex>>,
    /// Whether Dictionary keys compare by identity (Godot 3: see [`quirks::kept_apart`]).
    pub(crate) dicts_by_identity: bool,
}

/// The scratch storage of `B`'s dictionary entries (see [`Entries`]).
pub(crate) type Scratch<'a, B> = <<B as Build<'a>>::Entries as Entries<B>>::Scratch;

impl<'a, B: Build<'a>> DictFill<'a, B> {
    pub(crate) fn with_capacity(n: usize, dicts_by_identity: bool) -> DictFill<'a, B> {
        DictFill {
            entries: B::Entries::with_capacity(n),
            replaced: false,
            seen: 0,
            index: None,
            dicts_by_identity,
        }
    }

    #[inline(always)]
    pub(crate) fn insert(&mut self, s: &mut Scratch<'a, B>, key: B, value: B) {
        let bit = B::key_bit(&key);
        self.insert_bit(s, bit, key, value)
    }

    /// [`DictFill::insert`] of a key whose [`Build::key_bit`] is `bit`, known already.
    #[inline(always)]
    pub(crate) fn insert_bit(&mut self, s: &mut Scratch<'a, B>, bit: u32, key: B, value: B) {
        debug_assert_eq!(bit, B::key_bit(&key), "the key bit given is the key's");
        let bit = 1u64 << bit;
        // The index is made once the entries reach `INDEX_FROM` (`insert_checked`), and
        // entries are never taken out, so below that length there is none to ask about.
        debug_assert!(self.index.is_none() || self.entries.len(s) >= INDEX_FROM);
        if self.seen & bit == 0 && self.entries.len(s) + 1 < INDEX_FROM {
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
    pub(crate) fn insert_checked(&mut self, s: &mut Scratch<'a, B>, key: B, value: B) {
        if self.index.is_some() {
            return self.insert_indexed(s, key, value);
        }
        // A key the engine keeps apart is a new entry, whatever it equals.
        let apart = B::kept_apart(&key, self.dicts_by_identity);
        let entries = &mut self.entries;
        let same = (!apart)
            .then(|| (0..entries.len(s)).find(|&i| entries.same_key_at(s, i, &key)))
            .flatten();
        if let Some(i) = same {
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
    pub(crate) fn insert_indexed(&mut self, s: &mut Scratch<'a, B>, key: B, value: B) {
        let Some(index) = &mut self.index else {
            return;
        };
        let (table, state) = &mut **index;
        let h = hash_with(state, &key);
        let apart = B::kept_apart(&key, self.dicts_by_identity);
        let entries = &mut self.entries;
        let n = entries.len(s);
        match key::find_or_file(table, h, n, |i| !apart && entries.same_key_at(s, i, &key)) {
            Some(i) => {
                entries.set_value(i, value);
                self.replaced = true;
            }
            None => {
                entries.push(s, key, value);
            }
        }
    }

    #[cold]
    pub(crate) fn build_index(&mut self, s: &Scratch<'a, B>) {
        let state = key::KeyState::new();
        let n = self.entries.len(s);
        let mut table = hashbrown::HashTable::with_capacity(self.entries.capacity());
        for i in 0..n {
            let mut hasher = state.build_hasher();
            self.entries.hash_at(s, i, &mut hasher);
            let h = hasher.finish();
            key::file(&mut table, h, i);
        }
        self.index = Some(Box::new((table, state)));
    }
}

pub(crate) fn hash_with<'a, B: Build<'a>>(state: &key::KeyState, key: &B) -> u64 {
    let mut h = state.build_hasher();
    B::hash_key(key, &mut h);
    h.finish()
}

/// A vector for up to `n` elements of a `B` result, or none (no allocation) when `B` keeps no
/// elements.
#[inline(always)]
pub(crate) fn vec_for<'a, B: Build<'a>, T>(n: usize) -> Vec<T> {
    if B::KEEP {
        Vec::with_capacity(n)
    } else {
        Vec::new()
    }
}

/// Pushes `x` when `B` keeps elements (else `x` is dropped, and the vector stays unallocated).
#[inline(always)]
pub(crate) fn keep<'a, B: Build<'a>, T>(v: &mut Vec<T>, x: T) {
    if B::KEEP {
        push_reserved(v, x)
    }
}

/// `v.push(x)`, inlined where `v` has room, as the decoder's vectors nearly always do (they
/// are made with the room their count asks for, as far as the input can hold): `Vec::push`
/// is a call of its own, which cost W4 54 of its 2,353 instructions.
#[inline(always)]
pub(crate) fn push_reserved<T>(v: &mut Vec<T>, x: T) {
    let len = v.len();
    if len < v.capacity() {
        // SAFETY: `len < capacity`, so the slot at `len` is allocated and unused; writing it
        // and counting it in the length is what `push` does when it needs no room.
        unsafe {
            v.as_mut_ptr().add(len).write(x);
            v.set_len(len + 1);
        }
    } else {
        v.push(x)
    }
}

/// Hands a finished container to its parent.
#[inline]
pub(crate) fn accept<'a, B: Build<'a>>(
    parent: &mut Frame<'a, B>,
    value: B,
    scratch: &mut Scratch<'a, B>,
    retype: Option<Retype>,
) {
    match parent {
        Frame::Array { items, left, typed } => {
            match (retype, typed.as_deref()) {
                (Some(r), Some(t)) => push_typed::<B>(items, &t.element, value, r),
                _ => keep::<B, _>(items, value),
            }
            *left -= 1;
        }
        Frame::Dict {
            fill,
            left,
            key,
            typed,
        } => match key.take() {
            None => *key = Some(value),
            Some(k) => {
                let key_type = typed.as_deref().and_then(|t| t.key.as_ref());
                match retype.filter(|r| r.checks_keys(key_type)) {
                    Some(r) => insert_typed::<B>(fill, scratch, key_type, k, value, r),
                    None => fill.insert(scratch, k, value),
                }
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
pub(crate) fn close<'a, B: Build<'a>>(frame: Frame<'a, B>) -> B {
    match frame {
        Frame::Array { items, typed, .. } => B::array(items, typed),
        Frame::Dict { fill, typed, .. } => B::dictionary(fill.entries, typed, fill.index),
        Frame::Object { class, props, .. } => B::object(class, props),
    }
}

#[cfg(test)]
mod tests {
    use super::{ascii_without_nul, plain_ascii};

    /// The word-at-a-time checks agree with the plain definition, whatever follows the text.
    #[test]
    fn ascii_check_matches_the_definition() {
        let alphabet = [0u8, 1, b'a', 0x7f, 0x80, 0xc3, 0xff];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for n in 0..40usize {
            for i in 0..200 {
                // The string alone, or with up to eight bytes after it (read, then masked).
                let total = n + i % 9;
                let bytes: Vec<u8> = (0..total)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        alphabet[(seed % alphabet.len() as u64) as usize]
                    })
                    .collect();
                let want = bytes[..n].iter().all(|&b| (1..=0x7f).contains(&b));
                assert_eq!(plain_ascii(&bytes, 0, n, false).0, want, "{bytes:?} n={n}");
                let padded = &bytes[..(n + (4 - n % 4) % 4).min(total)];
                if padded.len().is_multiple_of(4) {
                    assert_eq!(ascii_without_nul(padded, n), want, "{bytes:?} n={n}");
                }
            }
        }
    }
}
