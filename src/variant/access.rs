//! Reaching into a `Variant` like a `serde_json::Value`: indexing, `get`, pointers, `as_*_mut`.

use super::{Array, Dictionary, GString, StringName, Variant};
use std::borrow::Cow;

/// What can index a [`Variant`] (`v[i]`, [`Variant::get`], [`Variant::get_mut`]):
///
/// - `&str` (or `String`): the value of a Dictionary's `String` or `StringName` key of that
///   text (the rule of [`Dictionary::get_str`]);
/// - `usize`: an element of an `Array` (not of a packed array: its elements are not
///   `Variant`s; read those from `Variant::PackedInt32Array(v)` and the like);
/// - `&Variant` (or `Variant`): the value of any Dictionary key, compared as the engine
///   compares keys (`1` and `1.0` are different keys).
///
/// Any other pairing (a string on an Array, a number on a Dictionary, anything on a
/// non-container) finds nothing. The trait is sealed: these are the only keys.
pub trait VariantIndex: sealed::Sealed {
    /// Where the indexed value is, if it is there.
    #[doc(hidden)]
    fn place(&self, v: &Variant) -> Option<sealed::Place>;

    /// Where the indexed value is, after making room for it (see `IndexMut` on `Variant`).
    #[doc(hidden)]
    fn place_or_insert(&self, v: &mut Variant) -> sealed::Place;
}

mod sealed {
    /// Only the crate implements [`VariantIndex`](super::VariantIndex).
    pub trait Sealed {}

    /// A place in a container: an Array's element or a Dictionary's entry.
    #[derive(Clone, Copy)]
    pub enum Place {
        Item(usize),
        Entry(usize),
    }

    impl Sealed for str {}
    impl Sealed for String {}
    impl Sealed for usize {}
    impl Sealed for super::Variant {}
    impl<T: Sealed + ?Sized> Sealed for &T {}
}
use sealed::Place;

fn at(v: &Variant, place: Place) -> &Variant {
    match (v, place) {
        (Variant::Array(a), Place::Item(i)) => &a.items[i],
        (Variant::Dictionary(d), Place::Entry(i)) => &d.entries[i].1,
        _ => unreachable!("a place is only found in its own container"),
    }
}

fn at_mut(v: &mut Variant, place: Place) -> &mut Variant {
    match (v, place) {
        (Variant::Array(a), Place::Item(i)) => &mut a.items[i],
        (Variant::Dictionary(d), Place::Entry(i)) => &mut d.entries[i].1,
        _ => unreachable!("a place is only found in its own container"),
    }
}

/// The dictionary that a key indexes mutably: a `Nil` becomes an empty one first (as
/// `serde_json` turns `null` into an object); anything else panics.
fn dictionary_for<'v>(v: &'v mut Variant, key: &dyn std::fmt::Debug) -> &'v mut Dictionary {
    if v.is_nil() {
        *v = Variant::Dictionary(Dictionary::new());
    }
    match v {
        Variant::Dictionary(d) => d,
        other => panic!(
            "cannot index a value of type {} with the key {key:?}: only a Dictionary (or Nil, \
             which becomes one) is indexed by key",
            other.kind().name()
        ),
    }
}

impl VariantIndex for str {
    fn place(&self, v: &Variant) -> Option<Place> {
        match v {
            Variant::Dictionary(d) => d.str_position(self).map(Place::Entry),
            _ => None,
        }
    }

    fn place_or_insert(&self, v: &mut Variant) -> Place {
        let d = dictionary_for(v, &self);
        let i = match d.str_position(self) {
            Some(i) => i,
            None => d.insert_at(Variant::String(self.into()), Variant::Nil),
        };
        Place::Entry(i)
    }
}

impl VariantIndex for String {
    fn place(&self, v: &Variant) -> Option<Place> {
        self.as_str().place(v)
    }

    fn place_or_insert(&self, v: &mut Variant) -> Place {
        self.as_str().place_or_insert(v)
    }
}

impl VariantIndex for usize {
    fn place(&self, v: &Variant) -> Option<Place> {
        match v {
            Variant::Array(a) if *self < a.items.len() => Some(Place::Item(*self)),
            _ => None,
        }
    }

    fn place_or_insert(&self, v: &mut Variant) -> Place {
        match v {
            Variant::Array(a) if *self < a.items.len() => Place::Item(*self),
            Variant::Array(a) => panic!(
                "cannot index an Array of {} elements with {self}: out of bounds",
                a.items.len()
            ),
            other => panic!(
                "cannot index a value of type {} with the number {self}: only an Array is \
                 indexed by number",
                other.kind().name()
            ),
        }
    }
}

impl VariantIndex for Variant {
    fn place(&self, v: &Variant) -> Option<Place> {
        match v {
            Variant::Dictionary(d) => d.position(self).map(Place::Entry),
            _ => None,
        }
    }

    fn place_or_insert(&self, v: &mut Variant) -> Place {
        let d = dictionary_for(v, self);
        let i = match d.position(self) {
            Some(i) => i,
            None => d.insert_at(self.clone(), Variant::Nil),
        };
        Place::Entry(i)
    }
}

impl<T: VariantIndex + ?Sized> VariantIndex for &T {
    fn place(&self, v: &Variant) -> Option<Place> {
        (**self).place(v)
    }

    fn place_or_insert(&self, v: &mut Variant) -> Place {
        (**self).place_or_insert(v)
    }
}

/// What `v[...]` gives for a missing key or the wrong kind of value.
static NIL: Variant = Variant::Nil;

/// `v["key"]`, `v[0]`, `v[&key]`: the value there, or `Nil` when it is missing or `v` is not
/// a container of that kind (as `serde_json::Value` gives `Null`); never panics.
///
/// ```
/// use gdvariant::{from_text, Dialect, Variant};
///
/// let v = from_text(r#"{"players": [{"name": "Ada", "hp": 3}]}"#, Dialect::Godot4)?;
/// assert_eq!(v["players"][0]["name"].as_str(), Some("Ada"));
/// assert_eq!(v["players"][0][&Variant::from("hp")], Variant::Int(3));
/// assert!(v["players"][7]["name"].is_nil()); // missing: Nil, no panic
/// assert!(v["players"]["name"].is_nil()); // an Array has no keys: Nil
/// # Ok::<(), gdvariant::TextError>(())
/// ```
impl<I: VariantIndex> std::ops::Index<I> for Variant {
    type Output = Variant;
    fn index(&self, index: I) -> &Variant {
        self.get(index).unwrap_or(&NIL)
    }
}

/// `v["key"] = …`, `v[0] = …`, `v[&key] = …`: the value there, mutable.
///
/// By key (`&str` or `&Variant`): a missing key is inserted with the value `Nil` (a `&str`
/// as a `String` key), at the end, and a `Nil` is first made an empty Dictionary, as
/// `serde_json::Value` does; so `v["a"]["b"] = 1.into()` builds nested dictionaries.
///
/// # Panics
///
/// By key, when `v` is neither a Dictionary nor `Nil`; by number, when `v` is not an Array
/// or the index is out of bounds (arrays do not grow: use [`Array::push`]). Use
/// [`Variant::get_mut`] to get `None` instead.
///
/// ```
/// use gdvariant::{Array, Variant};
///
/// let mut v = Variant::Nil;
/// v["player"]["name"] = "Ada".into();
/// v["player"]["scores"] = Variant::Array(Array::new(vec![1.into(), 2.into()]));
/// v["player"]["scores"][1] = 20.into();
/// assert_eq!(v.pointer("/player/scores/1"), Some(&Variant::Int(20)));
/// ```
impl<I: VariantIndex> std::ops::IndexMut<I> for Variant {
    fn index_mut(&mut self, index: I) -> &mut Variant {
        let place = index.place_or_insert(self);
        at_mut(self, place)
    }
}

/// A JSON pointer's segments, unescaped (`~1` is `/`, `~0` is `~`); `None` unless the
/// pointer is empty or starts with `/`.
fn segments(pointer: &str) -> Option<impl Iterator<Item = Cow<'_, str>>> {
    let rest = match pointer {
        "" => None,
        p => Some(p.strip_prefix('/')?),
    };
    Some(rest.into_iter().flat_map(|r| r.split('/')).map(|s| {
        if s.contains('~') {
            Cow::Owned(s.replace("~1", "/").replace("~0", "~"))
        } else {
            Cow::Borrowed(s)
        }
    }))
}

/// A number written as the engine writes it (`7`, `-3`; not `07` or `+7`).
fn canonical<T: std::str::FromStr + ToString>(segment: &str) -> Option<T> {
    segment
        .parse::<T>()
        .ok()
        .filter(|n| n.to_string() == segment)
}

/// Where one pointer segment leads in `v`.
fn pointer_place(v: &Variant, segment: &str) -> Option<Place> {
    match v {
        Variant::Array(_) => canonical::<usize>(segment)?.place(v),
        Variant::Dictionary(_) => segment
            .place(v)
            .or_else(|| Variant::Int(canonical(segment)?).place(v)),
        _ => None,
    }
}

impl Variant {
    /// The value at `index` (a `&str` key, a `usize` element or a `&Variant` key, see
    /// [`VariantIndex`]), or `None` when it is missing or this is not a container of that
    /// kind.
    ///
    /// ```
    /// use gdvariant::{Dictionary, Variant};
    ///
    /// let v = Variant::Dictionary([("hp".into(), 3.into())].into_iter().collect());
    /// assert_eq!(v.get("hp"), Some(&Variant::Int(3)));
    /// assert_eq!(v.get("mp"), None);
    /// assert_eq!(v.get(0), None); // a Dictionary has no elements
    /// ```
    pub fn get<I: VariantIndex>(&self, index: I) -> Option<&Variant> {
        let place = index.place(self)?;
        Some(at(self, place))
    }

    /// The value at `index`, mutable (see [`Variant::get`]); `None` when it is missing,
    /// without inserting anything or panicking (unlike `v[index]`).
    ///
    /// ```
    /// use gdvariant::{Array, Variant};
    ///
    /// let mut v = Variant::Array(Array::new(vec![1.into()]));
    /// *v.get_mut(0).unwrap() = 2.into();
    /// assert_eq!(v[0], Variant::Int(2));
    /// assert_eq!(v.get_mut(1), None);
    /// ```
    pub fn get_mut<I: VariantIndex>(&mut self, index: I) -> Option<&mut Variant> {
        let place = index.place(self)?;
        Some(at_mut(self, place))
    }

    /// The value at a JSON pointer (RFC 6901), such as `"/players/0/name"`: each segment
    /// after a `/` indexes the value reached so far, with `~1` standing for `/` and `~0` for
    /// `~` in it. In an Array a segment is an element number (`0`, `12`; not `012`); in a
    /// Dictionary it is a `String` or `StringName` key of that text, or, when there is none
    /// and the segment is an integer (`7`, `-3`), an `int` key. The empty pointer is the
    /// value itself; a pointer that does not start with `/` finds nothing.
    ///
    /// ```
    /// use gdvariant::{from_text, Dialect};
    ///
    /// let v = from_text(r#"{"a/b": {"~x": [10, 20]}, 7: "seven"}"#, Dialect::Godot4)?;
    /// assert_eq!(v.pointer("/a~1b/~0x/1").and_then(|x| x.as_int()), Some(20));
    /// assert_eq!(v.pointer("/7").and_then(|x| x.as_str()), Some("seven"));
    /// assert_eq!(v.pointer(""), Some(&v));
    /// assert_eq!(v.pointer("/a~1b/~0x/2"), None);
    /// # Ok::<(), gdvariant::TextError>(())
    /// ```
    pub fn pointer(&self, pointer: &str) -> Option<&Variant> {
        let mut v = self;
        for segment in segments(pointer)? {
            let place = pointer_place(v, &segment)?;
            v = at(v, place);
        }
        Some(v)
    }

    /// The value at a JSON pointer, mutable (see [`Variant::pointer`]); nothing is inserted.
    ///
    /// ```
    /// use gdvariant::{from_text, Dialect, Variant};
    ///
    /// let mut v = from_text(r#"{"inventory": {"ids": [1, 2]}}"#, Dialect::Godot4)?;
    /// v.pointer_mut("/inventory/ids").and_then(Variant::as_array_mut).unwrap().push(3);
    /// assert_eq!(v["inventory"]["ids"][2], Variant::Int(3));
    /// # Ok::<(), gdvariant::TextError>(())
    /// ```
    pub fn pointer_mut(&mut self, pointer: &str) -> Option<&mut Variant> {
        let mut v = self;
        for segment in segments(pointer)? {
            let place = pointer_place(v, &segment)?;
            v = at_mut(v, place);
        }
        Some(v)
    }

    /// The array, mutable, if this is one.
    pub fn as_array_mut(&mut self) -> Option<&mut Array> {
        match self {
            Variant::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The dictionary, mutable, if this is one.
    pub fn as_dictionary_mut(&mut self) -> Option<&mut Dictionary> {
        match self {
            Variant::Dictionary(d) => Some(d),
            _ => None,
        }
    }

    /// The [`GString`] of a `String` or a `StringName`: its text, and for the rare Godot 3
    /// string that is not Unicode, its code points ([`GString::code_points`]).
    pub fn as_gstring(&self) -> Option<&GString> {
        match self {
            Variant::String(s) | Variant::StringName(StringName(s)) => Some(s),
            _ => None,
        }
    }

    /// The text of a `String`, mutable. Unlike [`Variant::as_str`] it does not take a
    /// `StringName` (whose text is `Variant::StringName(name)`'s `name.0`).
    ///
    /// ```
    /// use gdvariant::Variant;
    ///
    /// let mut v = Variant::from("Ada");
    /// v.as_string_mut().unwrap().push_str(" Lovelace");
    /// assert_eq!(v.as_str(), Some("Ada Lovelace"));
    /// ```
    pub fn as_string_mut(&mut self) -> Option<&mut GString> {
        match self {
            Variant::String(s) => Some(s),
            _ => None,
        }
    }

    /// The integer, mutable, if this is an `int`.
    pub fn as_int_mut(&mut self) -> Option<&mut i64> {
        match self {
            Variant::Int(i) => Some(i),
            _ => None,
        }
    }

    /// The number, mutable, if this is a `float` (not an `int`, unlike
    /// [`Variant::as_float`]: an `int` holds no `f64` to change).
    pub fn as_float_mut(&mut self) -> Option<&mut f64> {
        match self {
            Variant::Float(f) => Some(f),
            _ => None,
        }
    }

    /// The bool, mutable, if this is one.
    pub fn as_bool_mut(&mut self) -> Option<&mut bool> {
        match self {
            Variant::Bool(b) => Some(b),
            _ => None,
        }
    }
}
