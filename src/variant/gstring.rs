//! `GString`, the text of a Godot string value, and `StrRef`, its borrowed form.
//!
//! A Godot 3 (and Pandemonium) String is a list of 32-bit code points, and the engine's UTF-8
//! reader keeps what a Rust `str` cannot hold: UTF-16 surrogates and code points above
//! U+10FFFF (`quirks::engine_string`). A value decoded from such bytes must encode back to
//! the same bytes, so `GString` keeps those strings whole; every other string (all of them in
//! Godot 4, which refuses such bytes) is plain UTF-8, kept inline when it is short.

use compact_str::CompactString;
use std::borrow::Cow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// The text of a `String` (and of a `StringName`, a `NodePath` part, a `PackedStringArray`
/// element): a string that keeps up to 24 bytes inline, without a heap allocation, which
/// most dictionary keys, names and short values fit.
///
/// It derefs to `str`, converts from `String`, `&str` and `char` (`.into()`) and to
/// `String` (`.into_string()`, `String::from`). The one thing it holds that a `str` cannot is
/// a string read from Godot 3 bytes with UTF-16 surrogates or code points above U+10FFFF,
/// which Godot 3 keeps and writes back unchanged: such a string derefs to its text with
/// U+FFFD in their place ([`GString::is_unicode`] is false), compares by its code points,
/// and encodes to the engine's own bytes ([`GString::engine_utf8`]).
#[derive(Clone)]
pub struct GString(Repr);

#[derive(Clone)]
enum Repr {
    /// Valid Unicode (short text inline).
    Text(CompactString),
    /// Code points a `str` cannot hold (rare: only Godot 3 and Pandemonium bytes).
    Wide(Box<Wide>),
}

#[derive(Clone)]
struct Wide {
    /// The engine's UTF-8 of the code points (`quirks::push_engine_utf8`).
    engine: Box<[u8]>,
    /// The text with U+FFFD for each code point a `str` cannot hold.
    lossy: Box<str>,
}

impl GString {
    /// A string of this text. (`GString` itself is not `AsRef<str>`, so `GString::new(&g)`
    /// does not compile: it would keep only the text of a string that is not Unicode. Clone,
    /// or take [`GString::to_unicode`].)
    #[inline]
    pub fn new(s: impl AsRef<str>) -> GString {
        GString(Repr::Text(CompactString::new(s)))
    }

    /// A string of this text, as [`GString::new`] makes it, with short text (what is kept
    /// inline) copied by a copy of its length's own constant size, which the compiler makes
    /// a few moves: `CompactString::new` calls `memcpy` for a length it does not know, which
    /// cost decoding W4 (five short strings) 77 of its 1,971 instructions, and the call as
    /// much again.
    #[inline(always)]
    pub(crate) fn copied(s: &str) -> GString {
        macro_rules! by_length {
            ($($n:literal)*) => {
                match s.len() {
                    $($n => GString::new(&s[..$n]),)*
                    _ => GString::new(s),
                }
            };
        }
        by_length!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24)
    }

    /// This string as Unicode: itself, or its text with U+FFFD for each code point a `str`
    /// cannot hold (what an engine that reads only UTF-8 can be sent).
    pub fn to_unicode(&self) -> GString {
        match &self.0 {
            Repr::Text(_) => self.clone(),
            Repr::Wide(w) => GString::new(&*w.lossy),
        }
    }

    /// The string of these code points; `None` if one is above 0x7FFFFFFF (the largest a
    /// Godot 3 String holds).
    pub fn from_code_points(points: impl IntoIterator<Item = u32>) -> Option<GString> {
        let mut text = String::new();
        let mut engine = Vec::new();
        let mut wide = false;
        for cp in points {
            if cp > 0x7FFF_FFFF {
                return None;
            }
            crate::quirks::push_engine_utf8(cp, &mut engine);
            match char::from_u32(cp) {
                Some(c) => text.push(c),
                None => {
                    wide = true;
                    text.push(char::REPLACEMENT_CHARACTER);
                }
            }
        }
        Some(if wide {
            GString(Repr::Wide(Box::new(Wide {
                engine: engine.into_boxed_slice(),
                lossy: text.into_boxed_str(),
            })))
        } else {
            GString::from(text)
        })
    }

    /// The string whose engine UTF-8 ([`GString::engine_utf8`]) is `bytes`, read as Godot 3
    /// reads string bytes (surrogates and code points up to 0x7FFFFFFF, in their shortest
    /// form or not); `None` if the engine would refuse them or they hold a NUL.
    pub fn from_engine_utf8(bytes: &[u8]) -> Option<GString> {
        if let Ok(s) = std::str::from_utf8(bytes) {
            return (!s.contains('\0')).then(|| GString::new(s));
        }
        let points = crate::quirks::engine_code_points(bytes).ok()?;
        if points.contains(&0) {
            return None;
        }
        GString::from_code_points(points)
    }

    /// The text, with U+FFFD for each code point a `str` cannot hold.
    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Text(s) => s.as_str(),
            Repr::Wide(w) => &w.lossy,
        }
    }

    /// The bytes an engine writes for this string: its UTF-8, where a surrogate takes three
    /// bytes and a code point above U+10FFFF four to six, as Godot 3's `String::utf8` writes
    /// them. For a string that [`GString::is_unicode`], its UTF-8.
    #[inline]
    pub fn engine_utf8(&self) -> &[u8] {
        match &self.0 {
            Repr::Text(s) => s.as_bytes(),
            Repr::Wide(w) => &w.engine,
        }
    }

    /// The text, if a `str` holds this string exactly (one test where `is_unicode` and
    /// `as_str` would make two).
    #[inline]
    pub fn as_unicode(&self) -> Option<&str> {
        match &self.0 {
            Repr::Text(s) => Some(s.as_str()),
            Repr::Wide(_) => None,
        }
    }

    /// Whether the string keeps memory of its own (its text did not fit inline).
    #[inline(always)]
    pub(crate) fn owns_memory(&self) -> bool {
        match &self.0 {
            Repr::Text(s) => s.is_heap_allocated(),
            Repr::Wide(_) => true,
        }
    }

    /// Whether a `str` holds this string exactly (no surrogate, nothing above U+10FFFF).
    #[inline]
    pub fn is_unicode(&self) -> bool {
        matches!(self.0, Repr::Text(_))
    }

    /// The code points, in order (those of the text, unless the string is not
    /// [`GString::is_unicode`]).
    pub fn code_points(&self) -> impl Iterator<Item = u32> + '_ {
        let wide = match &self.0 {
            Repr::Text(_) => None,
            // The engine bytes were written by `push_engine_utf8`, which the engine reads back.
            Repr::Wide(w) => crate::quirks::engine_code_points(&w.engine).ok(),
        };
        let text = wide.is_none().then(|| self.as_str().chars().map(u32::from));
        wide.into_iter().flatten().chain(text.into_iter().flatten())
    }

    /// The text as a `String` (with U+FFFD for what a `str` cannot hold).
    pub fn into_string(self) -> String {
        match self.0 {
            Repr::Text(s) => s.into_string(),
            Repr::Wide(w) => w.lossy.into_string(),
        }
    }

    /// Appends text.
    pub fn push_str(&mut self, s: &str) {
        match &mut self.0 {
            Repr::Text(t) => t.push_str(s),
            Repr::Wide(w) => {
                let mut engine = std::mem::take(&mut w.engine).into_vec();
                engine.extend_from_slice(s.as_bytes());
                w.engine = engine.into_boxed_slice();
                w.lossy = format!("{}{s}", w.lossy).into_boxed_str();
            }
        }
    }

    /// Appends a character.
    pub fn push(&mut self, c: char) {
        self.push_str(c.encode_utf8(&mut [0; 4]));
    }

    /// Empties the string.
    pub fn clear(&mut self) {
        *self = GString::default();
    }
}

impl Default for GString {
    #[inline]
    fn default() -> GString {
        GString(Repr::Text(CompactString::default()))
    }
}

impl Deref for GString {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

// Equality, order and hashing go by the code points (the engine bytes, whose order is the
// code points' order), so two strings that differ only where a `str` shows U+FFFD differ.
impl PartialEq for GString {
    #[inline]
    fn eq(&self, other: &GString) -> bool {
        self.engine_utf8() == other.engine_utf8()
    }
}

impl Eq for GString {}

impl Hash for GString {
    #[inline]
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.engine_utf8().hash(h);
    }
}

impl PartialOrd for GString {
    fn partial_cmp(&self, other: &GString) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for GString {
    fn cmp(&self, other: &GString) -> std::cmp::Ordering {
        self.engine_utf8().cmp(other.engine_utf8())
    }
}

macro_rules! eq_text {
    ($($t:ty),*) => {$(
        impl PartialEq<$t> for GString {
            fn eq(&self, other: &$t) -> bool {
                self.engine_utf8() == AsRef::<str>::as_ref(other).as_bytes()
            }
        }
        impl PartialEq<GString> for $t {
            fn eq(&self, other: &GString) -> bool {
                other == self
            }
        }
    )*};
}
eq_text!(str, &str, String);

impl fmt::Display for GString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

/// As `str`'s `Debug`, with `\u{d800}` for a code point a `str` cannot hold.
impl fmt::Debug for GString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_unicode() {
            return fmt::Debug::fmt(self.as_str(), f);
        }
        f.write_str("\"")?;
        for cp in self.code_points() {
            match char::from_u32(cp) {
                Some(c) => write!(f, "{}", c.escape_debug())?,
                None => write!(f, "\\u{{{cp:x}}}")?,
            }
        }
        f.write_str("\"")
    }
}

impl From<&str> for GString {
    #[inline]
    fn from(s: &str) -> GString {
        GString::new(s)
    }
}

impl From<&String> for GString {
    fn from(s: &String) -> GString {
        GString::new(s)
    }
}

impl From<String> for GString {
    #[inline]
    fn from(s: String) -> GString {
        GString(Repr::Text(CompactString::from(s)))
    }
}

impl From<Box<str>> for GString {
    fn from(s: Box<str>) -> GString {
        GString::from(s.into_string())
    }
}

impl From<Cow<'_, str>> for GString {
    #[inline]
    fn from(s: Cow<'_, str>) -> GString {
        match s {
            Cow::Borrowed(s) => GString::new(s),
            Cow::Owned(s) => GString::from(s),
        }
    }
}

impl From<char> for GString {
    fn from(c: char) -> GString {
        GString::new(c.encode_utf8(&mut [0; 4]))
    }
}

impl From<GString> for String {
    fn from(s: GString) -> String {
        s.into_string()
    }
}

impl<'a> FromIterator<&'a str> for GString {
    fn from_iter<I: IntoIterator<Item = &'a str>>(iter: I) -> GString {
        GString(Repr::Text(iter.into_iter().collect()))
    }
}

impl FromIterator<char> for GString {
    fn from_iter<I: IntoIterator<Item = char>>(iter: I) -> GString {
        GString(Repr::Text(iter.into_iter().collect()))
    }
}

impl std::str::FromStr for GString {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<GString, Self::Err> {
        Ok(GString::new(s))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for GString {
    /// As its text (a string that is not [`GString::is_unicode`] shows U+FFFD: serde's data
    /// model has no other string).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for GString {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<GString, D::Error> {
        CompactString::deserialize(d).map(|s| GString(Repr::Text(s)))
    }
}

/// A string borrowed from encoded bytes ([`crate::VariantRef`]'s text): borrowed from the
/// input, except where the engine's reading changes the bytes (Godot 3's lenient UTF-8), and
/// then an owned [`GString`]. It derefs to `str` as [`GString`] does.
#[derive(Clone)]
pub enum StrRef<'a> {
    /// Text that is the input's bytes.
    Borrowed(&'a str),
    /// Text the engine's reading made.
    Owned(GString),
}

impl<'a> StrRef<'a> {
    /// The text, with U+FFFD for each code point a `str` cannot hold.
    #[inline]
    pub fn as_str(&self) -> &str {
        match self {
            StrRef::Borrowed(s) => s,
            StrRef::Owned(s) => s.as_str(),
        }
    }

    /// See [`GString::engine_utf8`].
    #[inline]
    pub fn engine_utf8(&self) -> &[u8] {
        match self {
            StrRef::Borrowed(s) => s.as_bytes(),
            StrRef::Owned(s) => s.engine_utf8(),
        }
    }

    /// See [`GString::is_unicode`].
    pub fn is_unicode(&self) -> bool {
        match self {
            StrRef::Borrowed(_) => true,
            StrRef::Owned(s) => s.is_unicode(),
        }
    }

    /// The string, owned.
    #[inline]
    pub fn into_owned(self) -> GString {
        match self {
            StrRef::Borrowed(s) => GString::copied(s),
            StrRef::Owned(s) => s,
        }
    }

    /// The text as a `Cow` (with U+FFFD for what a `str` cannot hold).
    pub fn into_cow(self) -> Cow<'a, str> {
        match self {
            StrRef::Borrowed(s) => Cow::Borrowed(s),
            StrRef::Owned(s) => Cow::Owned(s.into_string()),
        }
    }

    /// Whether the text is the input's bytes (no copy was made).
    pub fn is_borrowed(&self) -> bool {
        matches!(self, StrRef::Borrowed(_))
    }
}

impl Default for StrRef<'_> {
    fn default() -> Self {
        StrRef::Borrowed("")
    }
}

impl Deref for StrRef<'_> {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for StrRef<'_> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for StrRef<'_> {
    fn eq(&self, other: &StrRef<'_>) -> bool {
        self.engine_utf8() == other.engine_utf8()
    }
}

impl Eq for StrRef<'_> {}

impl Hash for StrRef<'_> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.engine_utf8().hash(h);
    }
}

macro_rules! eq_ref {
    ($($t:ty),*) => {$(
        impl PartialEq<$t> for StrRef<'_> {
            fn eq(&self, other: &$t) -> bool {
                self.engine_utf8() == AsRef::<[u8]>::as_ref(other)
            }
        }
    )*};
}
eq_ref!(str, &str, String);

impl PartialEq<GString> for StrRef<'_> {
    fn eq(&self, other: &GString) -> bool {
        self.engine_utf8() == other.engine_utf8()
    }
}

impl fmt::Display for StrRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for StrRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StrRef::Borrowed(s) => fmt::Debug::fmt(s, f),
            StrRef::Owned(s) => fmt::Debug::fmt(s, f),
        }
    }
}

impl<'a> From<&'a str> for StrRef<'a> {
    fn from(s: &'a str) -> StrRef<'a> {
        StrRef::Borrowed(s)
    }
}

impl From<GString> for StrRef<'_> {
    fn from(s: GString) -> Self {
        StrRef::Owned(s)
    }
}

impl From<String> for StrRef<'_> {
    fn from(s: String) -> Self {
        StrRef::Owned(s.into())
    }
}

impl<'a> From<Cow<'a, str>> for StrRef<'a> {
    fn from(s: Cow<'a, str>) -> StrRef<'a> {
        match s {
            Cow::Borrowed(s) => StrRef::Borrowed(s),
            Cow::Owned(s) => StrRef::Owned(s.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_surrogate_is_kept_and_shown_as_fffd() {
        let s = GString::from_engine_utf8(&[b'a', 0xed, 0xa0, 0x80]).unwrap();
        assert!(!s.is_unicode());
        assert_eq!(s.as_str(), "a\u{fffd}");
        assert_eq!(s.engine_utf8(), [b'a', 0xed, 0xa0, 0x80]);
        assert_eq!(s.code_points().collect::<Vec<_>>(), [0x61, 0xd800]);
        assert_eq!(format!("{s:?}"), "\"a\\u{d800}\"");
        assert_ne!(s, GString::new("a\u{fffd}"));
        assert_ne!(s, "a\u{fffd}");
    }

    #[test]
    fn an_overlong_form_reads_as_its_code_point() {
        let s = GString::from_engine_utf8(&[0xe0, 0x80, 0xaf]).unwrap();
        assert!(s.is_unicode());
        assert_eq!(s, "/");
        // But not where Godot 3.2.3's check at the second continuation byte refuses it
        // (`e0 80 81` is refused by the installed engine: tests/differential_engines.rs).
        for refused in [
            &[0xe0, 0x80, 0x80][..],
            &[0xe0, 0x80, 0x81],
            &[0xe0, 0x80, 0x8f],
        ] {
            assert!(GString::from_engine_utf8(refused).is_none(), "{refused:x?}");
        }
        let s = GString::from_engine_utf8(&[0xe0, 0x80, 0x90]).unwrap();
        assert_eq!(s, "\u{10}");
        assert!(GString::from_engine_utf8(&[0xf0, 0x80, 0x87, 0xbf]).is_none());
        assert!(GString::from_engine_utf8(&[0xf0, 0x80, 0x88, 0x80]).is_some());
    }

    #[test]
    fn five_and_six_byte_forms_and_their_order() {
        let five = GString::from_code_points([0x20_0000]).unwrap();
        assert_eq!(five.engine_utf8(), [0xf8, 0x88, 0x80, 0x80, 0x80]);
        let six = GString::from_code_points([0x7fff_ffff]).unwrap();
        assert_eq!(six.engine_utf8(), [0xfd, 0xbf, 0xbf, 0xbf, 0xbf, 0xbf]);
        assert!(GString::from_code_points([0x8000_0000]).is_none());
        assert!(GString::new("z") < five && five < six);
        assert_eq!(GString::from_engine_utf8(six.engine_utf8()).unwrap(), six);
    }

    #[test]
    fn pushing_text_onto_a_wide_string_keeps_both_forms() {
        let mut s = GString::from_code_points([0xdfff]).unwrap();
        s.push_str("b");
        assert_eq!(s.engine_utf8(), [0xed, 0xbf, 0xbf, b'b']);
        assert_eq!(s.as_str(), "\u{fffd}b");
        assert_eq!(std::mem::size_of::<GString>(), 24);
        assert_eq!(std::mem::size_of::<Option<GString>>(), 24);
    }
}
