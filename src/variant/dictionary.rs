//! `Dictionary`: entries in insertion order, the engine's duplicate-key rule, and a key index from 16 entries on.

use super::*;

/// A `Dictionary`: entries in insertion order.
///
/// Like the engine, inserting a key that is already present replaces its value in place
/// (it keeps its first position); `1` and `1.0` are different keys (the rule is in
/// `variant/key.rs`). From 16 entries on the keys are indexed by hash, so `insert` and `get`
/// take constant time however big the dictionary grows.
///
/// The key and value types of a typed dictionary (Godot 4.4+) are [`Dictionary::typed`].
///
/// The entries are private, unlike [`Array::items`]: the keys must stay unique, and a big
/// dictionary's key index must keep pointing at them, so entries change only through
/// [`insert`](Dictionary::insert), [`remove`](Dictionary::remove),
/// [`retain`](Dictionary::retain), [`clear`](Dictionary::clear) and `Extend`. Values can be
/// changed anywhere: [`get_mut`](Dictionary::get_mut), [`get_str_mut`](Dictionary::get_str_mut),
/// [`iter_mut`](Dictionary::iter_mut), [`values_mut`](Dictionary::values_mut). Reading:
/// [`get`](Dictionary::get), [`get_str`](Dictionary::get_str), [`iter`](Dictionary::iter)
/// (also `for (k, v) in &dict`), [`keys`](Dictionary::keys), [`values`](Dictionary::values),
/// [`entries`](Dictionary::entries).
///
/// ```
/// use gdvariant::{Dictionary, Variant};
/// let mut d = Dictionary::new();
/// d.insert("hp".into(), 90.into());
/// d.insert(Variant::Int(1), "one".into()); // any value can be a key
/// d.insert("hp".into(), 80.into()); // replaces in place, as `dict["hp"] = 80` does
/// assert_eq!(d.get_str("hp"), Some(&Variant::Int(80)));
/// assert_eq!(d.keys().collect::<Vec<_>>(), [&Variant::from("hp"), &Variant::Int(1)]);
/// assert!(d.get(&Variant::Float(1.0)).is_none()); // 1 and 1.0 are different keys
/// ```
#[derive(Clone, Default)]
pub struct Dictionary {
    pub(super) entries: Vec<(Variant, Variant)>,
    /// The rare parts, in one box so that a `Dictionary` is as small as an `Array` (32 bytes)
    /// and a `Variant` keeps a separate tag (40 bytes): a larger `Dictionary` moves the tag
    /// into a niche of the `Vec`, which costs every `match` on a `Variant` a decoding step.
    pub(super) extra: Option<Box<Extra>>,
}

/// What few dictionaries have: key and value types, and the key index of big ones. Both stay
/// in the boxes the decoder made them in, so taking them over frees nothing.
#[derive(Clone, Default)]
pub(super) struct Extra {
    pub(super) typed: Option<Box<DictionaryType>>,
    pub(super) index: Option<Box<KeyIndex>>,
}

impl PartialEq for Dictionary {
    fn eq(&self, other: &Dictionary) -> bool {
        self.entries == other.entries && self.typed() == other.typed()
    }
}

impl std::fmt::Debug for Dictionary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dictionary")
            .field("entries", &self.entries)
            .field("typed", &self.typed())
            .finish()
    }
}

impl Dictionary {
    /// An empty untyped dictionary.
    pub fn new() -> Dictionary {
        Dictionary::default()
    }

    /// The key and value types of a typed dictionary (Godot 4.4+); `None` when untyped.
    pub fn typed(&self) -> Option<&DictionaryType> {
        self.extra.as_ref()?.typed.as_deref()
    }

    /// Makes the dictionary typed (`Some`) or untyped (`None`). The entries are kept as they
    /// are: the engine checks them against the types when it reads the bytes, not here.
    pub fn set_typed(&mut self, typed: Option<DictionaryType>) {
        match (&mut self.extra, typed.map(Box::new)) {
            (Some(extra), typed) => extra.typed = typed,
            (None, None) => {}
            (None, typed) => {
                self.extra = Some(Box::new(Extra { typed, index: None }));
            }
        }
    }

    /// Mutable access to the key and value types, if typed.
    pub fn typed_mut(&mut self) -> Option<&mut DictionaryType> {
        self.extra.as_mut()?.typed.as_deref_mut()
    }

    pub(super) fn index(&self) -> Option<&KeyIndex> {
        self.extra.as_ref()?.index.as_deref()
    }

    /// Entries in insertion order.
    pub fn entries(&self) -> &[(Variant, Variant)] {
        &self.entries
    }

    /// Mutable access to the values (keys stay fixed so they stay unique).
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Variant> {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The position of `key`'s entry in [`entries`](Dictionary::entries) (insertion order),
    /// keys compared as the engine compares them.
    pub fn position(&self, key: &Variant) -> Option<usize> {
        match self.index() {
            Some(index) => {
                let (table, state) = index;
                let h = key::key_hash(state, key);
                key::find(table, h, |i| key::same_key(&self.entries[i].0, key))
            }
            None => self.entries.iter().position(|(k, _)| key::same_key(k, key)),
        }
    }

    /// The value of `key`, compared as the engine compares keys.
    pub fn get(&self, key: &Variant) -> Option<&Variant> {
        self.position(key).map(|i| &self.entries[i].1)
    }

    /// The value of `key`, mutable, compared as the engine compares keys.
    ///
    /// ```
    /// use gdvariant::{Dictionary, Variant};
    ///
    /// let mut d = Dictionary::new();
    /// d.insert(Variant::Int(1), Variant::Int(10));
    /// *d.get_mut(&Variant::Int(1)).unwrap() = Variant::Int(11);
    /// assert_eq!(d.get(&Variant::Int(1)), Some(&Variant::Int(11)));
    /// assert_eq!(d.get_mut(&Variant::Float(1.0)), None); // `1.0` is another key
    /// ```
    pub fn get_mut(&mut self, key: &Variant) -> Option<&mut Variant> {
        let i = self.position(key)?;
        Some(&mut self.entries[i].1)
    }

    /// Whether `key` is present, compared as the engine compares keys.
    pub fn contains_key(&self, key: &Variant) -> bool {
        self.position(key).is_some()
    }

    /// The position of the `String` or `StringName` key with text `key` (the earlier one
    /// when the dictionary has both).
    pub(super) fn str_position(&self, key: &str) -> Option<usize> {
        let is_key = |k: &Variant, name: bool| match k {
            Variant::String(s) => !name && s == key,
            Variant::StringName(s) => name && s.0 == key,
            _ => false,
        };
        let Some(index) = self.index() else {
            return self
                .entries
                .iter()
                .position(|(k, _)| is_key(k, false) || is_key(k, true));
        };
        // The `String` and the `StringName` key of that text, each found by its hash; the
        // earlier entry wins, as in the scan.
        let (table, state) = index;
        [false, true]
            .into_iter()
            .filter_map(|name| {
                use std::hash::{BuildHasher, Hasher};
                let mut h = state.build_hasher();
                key::hash_text_key(key, name, &mut h);
                let h = h.finish();
                key::find(table, h, |i| is_key(&self.entries[i].0, name))
            })
            .min()
    }

    /// The value of a `String` (or `StringName`) key: `d.get_str("hp")` finds the key `"hp"`
    /// and the key `&"hp"`, the earlier one when the dictionary has both (Godot 4 writes the
    /// keys of `{hp = 1}` as StringNames, of `{"hp": 1}` as Strings).
    pub fn get_str(&self, key: &str) -> Option<&Variant> {
        self.str_position(key).map(|i| &self.entries[i].1)
    }

    /// The value of a `String` (or `StringName`) key, mutable; the key rule of
    /// [`Dictionary::get_str`].
    ///
    /// ```
    /// use gdvariant::{Dictionary, Variant};
    ///
    /// let mut d: Dictionary = [("hp".into(), 3.into())].into_iter().collect();
    /// *d.get_str_mut("hp").unwrap() = Variant::Int(2);
    /// assert_eq!(d.get_str("hp"), Some(&Variant::Int(2)));
    /// ```
    pub fn get_str_mut(&mut self, key: &str) -> Option<&mut Variant> {
        let i = self.str_position(key)?;
        Some(&mut self.entries[i].1)
    }

    /// Removes `key` and gives its value, keeping the order of the other entries, as the
    /// engine's `Dictionary.erase` does (a "shift remove": the later entries move up one
    /// place, which takes time in proportion to the size of the dictionary).
    ///
    /// ```
    /// use gdvariant::{Dictionary, Variant};
    ///
    /// let mut d: Dictionary = (0..4).map(|i| (Variant::Int(i), Variant::Int(i * 10))).collect();
    /// assert_eq!(d.remove(&Variant::Int(1)), Some(Variant::Int(10)));
    /// assert_eq!(d.remove(&Variant::Int(1)), None);
    /// let keys: Vec<_> = d.keys().cloned().collect();
    /// assert_eq!(keys, [Variant::Int(0), Variant::Int(2), Variant::Int(3)]);
    /// ```
    pub fn remove(&mut self, key: &Variant) -> Option<Variant> {
        self.remove_entry(key).map(|(_, v)| v)
    }

    /// Like [`Dictionary::remove`], giving the stored key too.
    pub fn remove_entry(&mut self, key: &Variant) -> Option<(Variant, Variant)> {
        let i = self.position(key)?;
        if let Some((table, state)) = self.extra.as_mut().and_then(|x| x.index.as_deref_mut()) {
            // Drop the removed entry's slot, then move every later position up one, as the
            // entries move.
            key::unfile(table, key::key_hash(state, &self.entries[i].0), i);
        }
        Some(self.entries.remove(i))
    }

    /// Keeps only the entries for which `keep(key, value)` is true, in their order; the
    /// values may be changed on the way.
    pub fn retain(&mut self, mut keep: impl FnMut(&Variant, &mut Variant) -> bool) {
        let before = self.entries.len();
        self.entries.retain_mut(|(k, v)| keep(k, v));
        if self.entries.len() != before {
            self.reindex();
        }
    }

    /// Removes every entry; the key and value types of a typed dictionary stay.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.reindex();
    }

    /// Rebuilds the key index after entries moved (or drops it below
    /// [`key::INDEX_FROM`] entries).
    pub(super) fn reindex(&mut self) {
        if let Some(extra) = self.extra.as_mut() {
            extra.index = (self.entries.len() >= key::INDEX_FROM)
                .then(|| Box::new(build_index(&self.entries)));
        }
    }

    /// Indexes the keys when the next entry makes the dictionary big enough for an index.
    pub(super) fn index_before_growing(&mut self) {
        if self.index().is_none() && self.entries.len() + 1 >= key::INDEX_FROM {
            let index = build_index(&self.entries);
            self.extra.get_or_insert_with(Box::default).index = Some(Box::new(index));
        }
    }

    /// Inserts or replaces (in place) the value of `key`, as `dict[key] = value` does.
    pub fn insert(&mut self, key: Variant, value: Variant) {
        self.insert_at(key, value);
    }

    /// [`Dictionary::insert`], giving the position of the entry.
    pub(super) fn insert_at(&mut self, key: Variant, value: Variant) -> usize {
        self.index_before_growing();
        let Dictionary { entries, extra } = self;
        if let Some((table, state)) = extra.as_mut().and_then(|x| x.index.as_deref_mut()) {
            // One hash and one probe: the lookup's slot is where a new key goes (hashing the
            // key twice, to find and then to insert, was a tenth of building from JSON).
            let h = key::key_hash(state, &key);
            let same = |i: usize| key::same_key(&entries[i].0, &key);
            return match key::find_or_file(table, h, entries.len(), same) {
                Some(i) => {
                    entries[i].1 = value;
                    i
                }
                None => {
                    entries.push((key, value));
                    entries.len() - 1
                }
            };
        }
        match entries.iter().position(|(k, _)| key::same_key(k, &key)) {
            Some(i) => {
                entries[i].1 = value;
                i
            }
            None => {
                entries.push((key, value));
                entries.len() - 1
            }
        }
    }

    /// Inserts as an engine reading `key: value` does: a key the engine keeps apart from
    /// every other (one holding a non-null Object, or with `dicts_by_identity` a Dictionary:
    /// `quirks::kept_apart`) is a new entry even when an equal key is there; any other key
    /// is [`Dictionary::insert`]ed. The text and JSON readers build with it, so what an
    /// engine kept apart reads back apart.
    pub(crate) fn insert_read(&mut self, key: Variant, value: Variant, dicts_by_identity: bool) {
        if !crate::quirks::kept_apart(&key, dicts_by_identity) {
            return self.insert(key, value);
        }
        self.index_before_growing();
        let Dictionary { entries, extra } = self;
        if let Some((table, state)) = extra.as_mut().and_then(|x| x.index.as_deref_mut()) {
            key::file(table, key::key_hash(state, &key), entries.len());
        }
        entries.push((key, value));
    }

    /// Builds from entries in the order they were read, by the rule of
    /// [`Dictionary::insert_read`] (a repeated key replaces the earlier value at its place;
    /// keys an engine keeps apart stay apart), in the vector they came in: the entries move
    /// down over the repeated ones, so a reader that gathered a million entries does not
    /// hold a second million while the dictionary is built.
    #[cfg(feature = "json")]
    pub(crate) fn from_read(
        mut entries: Vec<(Variant, Variant)>,
        dicts_by_identity: bool,
    ) -> Dictionary {
        let n = entries.len();
        let mut index: Option<KeyIndex> = (n >= key::INDEX_FROM).then(|| {
            let state = key::KeyState::new();
            (hashbrown::HashTable::with_capacity(n), state)
        });
        let mut kept = 0;
        for read in 0..n {
            let (k, v) = std::mem::take(&mut entries[read]);
            let apart = crate::quirks::kept_apart(&k, dicts_by_identity);
            let earlier = match &mut index {
                Some((table, state)) => {
                    let same = |i: usize| !apart && key::same_key(&entries[i].0, &k);
                    key::find_or_file(table, key::key_hash(state, &k), kept, same)
                }
                None if apart => None,
                None => entries[..kept]
                    .iter()
                    .position(|(e, _)| key::same_key(e, &k)),
            };
            match earlier {
                Some(i) => entries[i].1 = v,
                None => {
                    entries[kept] = (k, v);
                    kept += 1;
                }
            }
        }
        entries.truncate(kept);
        let index = index.filter(|_| kept >= key::INDEX_FROM);
        Dictionary::from_unique_indexed(entries, None, index.map(Box::new))
    }

    /// Builds from entries that the caller knows to have unique keys (no duplicate check).
    pub(crate) fn from_unique(
        entries: Vec<(Variant, Variant)>,
        typed: Option<Box<DictionaryType>>,
    ) -> Dictionary {
        Dictionary::from_unique_indexed(entries, typed, None)
    }

    /// [`Dictionary::from_unique`] with the index the decoder built of the same entries (made
    /// by [`key::hash_variant_key`], entry positions as in `entries`).
    #[inline]
    pub(crate) fn from_unique_indexed(
        entries: Vec<(Variant, Variant)>,
        typed: Option<Box<DictionaryType>>,
        index: Option<Box<KeyIndex>>,
    ) -> Dictionary {
        // The common case (untyped, too small for an index) inline, with nothing to box: the
        // call cost each record that the decoder builds about 25 instructions.
        if typed.is_none() && index.is_none() && entries.len() < key::INDEX_FROM {
            return Dictionary {
                entries,
                extra: None,
            };
        }
        Dictionary::with_extra(entries, typed, index)
    }

    /// [`Dictionary::from_unique_indexed`] of a typed or big dictionary.
    #[inline(never)]
    pub(super) fn with_extra(
        entries: Vec<(Variant, Variant)>,
        typed: Option<Box<DictionaryType>>,
        index: Option<Box<KeyIndex>>,
    ) -> Dictionary {
        let index = match index {
            Some(i) => Some(i),
            None if entries.len() >= key::INDEX_FROM => Some(Box::new(build_index(&entries))),
            None => None,
        };
        let extra = (typed.is_some() || index.is_some()).then(|| Box::new(Extra { typed, index }));
        Dictionary { entries, extra }
    }

    /// Consumes the dictionary, giving its entries.
    pub fn into_entries(mut self) -> Vec<(Variant, Variant)> {
        std::mem::take(&mut self.entries)
    }
}

// Most keys and values of game data own nothing (numbers, vectors, strings short enough to be
// kept inline): the drop glue of `Vec` would still call the glue of `Variant` for each key and
// value, a call and a jump table apiece, which was most of the cost of freeing a decoded
// record. Here one test per key and value decides, and only what owns memory goes to the glue.
impl Drop for Dictionary {
    fn drop(&mut self) {
        let len = self.entries.len();
        let base = self.entries.as_mut_ptr();
        // SAFETY: the length goes to zero before any entry is dropped, so the vector, which
        // now frees only its buffer, never drops an entry again (nor if a drop below
        // unwinds: the rest then leak, which is safe). Each of the `len` initialised entries
        // is visited once, and what is not dropped owns nothing that a drop would free.
        unsafe {
            self.entries.set_len(0);
            for i in 0..len {
                let (k, v) = &mut *base.add(i);
                if owns_memory(k) {
                    std::ptr::drop_in_place(k);
                }
                if owns_memory(v) {
                    std::ptr::drop_in_place(v);
                }
            }
        }
    }
}

/// Whether dropping `v` would free memory (a `false` may be forgotten instead of dropped).
/// The scalars go through [`holds_nothing`], which takes only `Copy` payloads, and the math
/// kinds held inline are the generator's list ([`Variant::is_inline_fixed`], with the same
/// check), so a kind boxed some day stops compiling here rather than leaking.
#[inline(always)]
fn owns_memory(v: &Variant) -> bool {
    match v {
        Variant::Nil | Variant::Callable | Variant::Object(Object::Null | Object::Id(_)) => false,
        Variant::Bool(x) => holds_nothing(x),
        Variant::Int(x) => holds_nothing(x),
        Variant::Float(x) => holds_nothing(x),
        Variant::Rid(x) => holds_nothing(x),
        Variant::String(s) | Variant::StringName(StringName(s)) => s.owns_memory(),
        _ => !v.is_inline_fixed(),
    }
}

/// `false`: a `Copy` payload holds no memory of its own (see [`owns_memory`]).
#[inline(always)]
fn holds_nothing<T: Copy>(_: &T) -> bool {
    false
}

fn build_index(entries: &[(Variant, Variant)]) -> KeyIndex {
    let state = key::KeyState::new();
    let mut table = hashbrown::HashTable::with_capacity(entries.len());
    for (i, (k, _)) in entries.iter().enumerate() {
        key::file(&mut table, key::key_hash(&state, k), i);
    }
    (table, state)
}

impl FromIterator<(Variant, Variant)> for Dictionary {
    fn from_iter<I: IntoIterator<Item = (Variant, Variant)>>(iter: I) -> Dictionary {
        let mut d = Dictionary::new();
        for (k, v) in iter {
            d.insert(k, v);
        }
        d
    }
}
