//! Walking and filling `Dictionary` and `Array`: iterators, `Extend`, `FromIterator`, `push`.

use super::{Array, Dictionary, Variant};
use std::iter::Map;
use std::{slice, vec};

type Entry = (Variant, Variant);

/// The iterator of [`Dictionary::iter`]: `(key, value)` in insertion order.
pub type Iter<'a> = Map<slice::Iter<'a, Entry>, fn(&'a Entry) -> (&'a Variant, &'a Variant)>;
/// The iterator of [`Dictionary::iter_mut`]: `(key, mutable value)` in insertion order.
pub type IterMut<'a> =
    Map<slice::IterMut<'a, Entry>, fn(&'a mut Entry) -> (&'a Variant, &'a mut Variant)>;
/// The iterator of [`Dictionary::keys`] and [`Dictionary::values`].
pub type Column<'a> = Map<slice::Iter<'a, Entry>, fn(&'a Entry) -> &'a Variant>;

impl Dictionary {
    /// The entries as `(key, value)` pairs, in insertion order (also `for (k, v) in &dict`).
    ///
    /// ```
    /// use gdvariant::{Dictionary, Variant};
    ///
    /// let d: Dictionary = [("a".into(), 1.into()), ("b".into(), 2.into())].into_iter().collect();
    /// let mut sum = 0;
    /// for (key, value) in &d {
    ///     assert!(key.as_str().is_some());
    ///     sum += value.as_int().unwrap();
    /// }
    /// assert_eq!(sum, 3);
    /// ```
    pub fn iter(&self) -> Iter<'_> {
        let pair: fn(&Entry) -> (&Variant, &Variant) = |(k, v)| (k, v);
        self.entries.iter().map(pair)
    }

    /// The entries with their values mutable, in insertion order (also `for (k, v) in &mut
    /// dict`). The keys stay read-only: changing one could make two keys the same.
    ///
    /// ```
    /// use gdvariant::{Dictionary, Variant};
    ///
    /// let mut d: Dictionary = (1..=3).map(|i| (Variant::Int(i), Variant::Int(i))).collect();
    /// for (key, value) in d.iter_mut() {
    ///     *value = Variant::Int(key.as_int().unwrap() * 100);
    /// }
    /// assert_eq!(d.get(&Variant::Int(3)), Some(&Variant::Int(300)));
    /// ```
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        let pair: fn(&mut Entry) -> (&Variant, &mut Variant) = |(k, v)| (k, v);
        self.entries.iter_mut().map(pair)
    }

    /// The keys, in insertion order.
    pub fn keys(&self) -> Column<'_> {
        let key: fn(&Entry) -> &Variant = |(k, _)| k;
        self.entries.iter().map(key)
    }

    /// The values, in insertion order.
    pub fn values(&self) -> Column<'_> {
        let value: fn(&Entry) -> &Variant = |(_, v)| v;
        self.entries.iter().map(value)
    }
}

impl<'a> IntoIterator for &'a Dictionary {
    type Item = (&'a Variant, &'a Variant);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Dictionary {
    type Item = (&'a Variant, &'a mut Variant);
    type IntoIter = IterMut<'a>;
    fn into_iter(self) -> IterMut<'a> {
        self.iter_mut()
    }
}

/// The entries, in insertion order.
impl IntoIterator for Dictionary {
    type Item = (Variant, Variant);
    type IntoIter = vec::IntoIter<Entry>;
    fn into_iter(self) -> vec::IntoIter<Entry> {
        self.into_entries().into_iter()
    }
}

/// Inserts each entry as [`Dictionary::insert`] does: a key already present keeps its place
/// and takes the new value.
impl Extend<(Variant, Variant)> for Dictionary {
    fn extend<I: IntoIterator<Item = (Variant, Variant)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl Array {
    /// Appends a value. A typed array does not check it: the engine checks the elements
    /// against the type when it reads the bytes.
    ///
    /// ```
    /// use gdvariant::{Array, Variant};
    ///
    /// let mut a = Array::default();
    /// a.push(1);
    /// a.push("two");
    /// assert_eq!(a.len(), 2);
    /// assert_eq!(a[1], Variant::from("two"));
    /// ```
    pub fn push(&mut self, value: impl Into<Variant>) {
        self.items.push(value.into());
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The elements in order (also `for x in &array`).
    pub fn iter(&self) -> slice::Iter<'_, Variant> {
        self.items.iter()
    }

    /// The elements in order, mutable (also `for x in &mut array`).
    pub fn iter_mut(&mut self) -> slice::IterMut<'_, Variant> {
        self.items.iter_mut()
    }
}

/// Element `i`; panics when out of bounds, as a `Vec` does (`array.items.get(i)` does not).
impl std::ops::Index<usize> for Array {
    type Output = Variant;
    fn index(&self, i: usize) -> &Variant {
        &self.items[i]
    }
}

/// Element `i`, mutable; panics when out of bounds, as a `Vec` does.
impl std::ops::IndexMut<usize> for Array {
    fn index_mut(&mut self, i: usize) -> &mut Variant {
        &mut self.items[i]
    }
}

impl<'a> IntoIterator for &'a Array {
    type Item = &'a Variant;
    type IntoIter = slice::Iter<'a, Variant>;
    fn into_iter(self) -> slice::Iter<'a, Variant> {
        self.items.iter()
    }
}

impl<'a> IntoIterator for &'a mut Array {
    type Item = &'a mut Variant;
    type IntoIter = slice::IterMut<'a, Variant>;
    fn into_iter(self) -> slice::IterMut<'a, Variant> {
        self.items.iter_mut()
    }
}

/// The elements in order (the element type of a typed array is dropped).
impl IntoIterator for Array {
    type Item = Variant;
    type IntoIter = vec::IntoIter<Variant>;
    fn into_iter(self) -> vec::IntoIter<Variant> {
        self.items.into_iter()
    }
}

/// An untyped array of the values.
impl FromIterator<Variant> for Array {
    fn from_iter<I: IntoIterator<Item = Variant>>(iter: I) -> Array {
        Array::new(iter.into_iter().collect())
    }
}

/// Appends the values, unchecked (see [`Array::push`]).
impl Extend<Variant> for Array {
    fn extend<I: IntoIterator<Item = Variant>>(&mut self, iter: I) {
        self.items.extend(iter);
    }
}

/// An untyped array of the values.
impl From<Vec<Variant>> for Array {
    fn from(items: Vec<Variant>) -> Array {
        Array::new(items)
    }
}
