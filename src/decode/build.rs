//! What the driver builds: the `Build` trait, the leaf values every result shares, and the
//! owned `Variant` result.

use super::*;

/// Every fixed-stride packed array as a view of the input (the four of plain numbers, and
/// those of fixed layouts).
pub(crate) trait FromPacked<'a>:
    FromPackedFixed<'a>
    + From<PackedRef<'a, i32>>
    + From<PackedRef<'a, i64>>
    + From<PackedRef<'a, f32>>
    + From<PackedRef<'a, f64>>
{
}
impl<'a, T> FromPacked<'a> for T where
    T: FromPackedFixed<'a>
        + From<PackedRef<'a, i32>>
        + From<PackedRef<'a, i64>>
        + From<PackedRef<'a, f32>>
        + From<PackedRef<'a, f64>>
{
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
///
/// Math values and packed arrays arrive through `From` (the spec's list of them is the
/// generated [`FromFixed`] / [`FromPackedFixed`]), so the driver names no result type.
pub(crate) trait Build<'a>: Sized + FromFixed + FromPacked<'a> {
    /// Whether containers keep their elements. The validating pass of lazy borrowed decoding
    /// (`Probe`) keeps none: it reads everything and builds nothing but dictionary keys.
    const KEEP: bool = true;
    /// Text as the result holds it (`GString`, or `StrRef<'a>`).
    type Str;
    /// Where a dictionary's entries go while it is filled.
    type Entries: Entries<Self>;
    fn text(s: StrRef<'a>) -> Self::Str;
    fn scalar(s: Scalar) -> Self;
    /// A `String` value (its text goes straight into the result's own string type).
    fn string(s: StrRef<'a>) -> Self;
    /// A `StringName` value (its text goes straight into the result's own string type).
    fn string_name(s: StrRef<'a>) -> Self;
    fn node_path(names: Vec<Self::Str>, subnames: Vec<Self::Str>, absolute: bool) -> Self;
    fn signal(name: Self::Str, object: u64) -> Self;
    fn byte_array(bytes: &'a [u8]) -> Self;
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
    /// [`Build::string`] of plain text and its [`Build::key_bit`]: what a dictionary key that
    /// is a String (nearly every key) needs. The owned result takes the bit from the text in
    /// the input, which it has at hand, rather than from the string it made of it.
    #[inline(always)]
    fn string_key(s: &'a str) -> (Self, u32) {
        let k = Self::string(StrRef::Borrowed(s));
        let bit = Self::key_bit(&k);
        (k, bit)
    }
    /// [`quirks::kept_apart`] for this representation: a key the engine never merges. A
    /// builder that keeps too little to tell says no (and then merges as the value says).
    fn kept_apart(_k: &Self, _dicts_by_identity: bool) -> bool {
        false
    }
    /// What engine mode's typed-container rule needs to know of this value; a builder that
    /// keeps too little to tell says `Unknown`, and the value is kept.
    fn seen(&self) -> quirks::Seen<'_> {
        quirks::Seen::Unknown
    }
    /// The value as a typed container converts it (`Keep` and `Drop` leave it as it is).
    fn convert(self, fate: quirks::Fate) -> Self {
        let _ = fate;
        self
    }
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
    // Inlined: out of line, the call cost each dictionary the decoder opens 10 instructions.
    #[inline(always)]
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
        let len = self.len();
        if len < self.capacity() {
            // SAFETY: as in `push_reserved`: the slot at `len < capacity` is allocated and
            // unused, and is counted once both halves are written. Written half by half, the
            // key and the value go straight to their place; `push_reserved` of the pair had
            // them assembled on the stack first, two more copies of 40 bytes per entry.
            unsafe {
                let slot = self.as_mut_ptr().add(len);
                std::ptr::addr_of_mut!((*slot).0).write(key);
                std::ptr::addr_of_mut!((*slot).1).write(value);
                self.set_len(len + 1);
            }
        } else {
            self.push((key, value))
        }
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
    type Str = GString;
    type Entries = Vec<(Variant, Variant)>;
    #[inline]
    fn text(s: StrRef<'a>) -> GString {
        s.into_owned()
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
    fn string(s: StrRef<'a>) -> Variant {
        Variant::String(s.into_owned())
    }
    #[inline]
    fn string_name(s: StrRef<'a>) -> Variant {
        Variant::StringName(StringName(s.into_owned()))
    }
    fn node_path(names: Vec<GString>, subnames: Vec<GString>, absolute: bool) -> Variant {
        Variant::NodePath(Box::new(NodePath {
            names,
            subnames,
            absolute,
        }))
    }
    fn signal(name: GString, object: u64) -> Variant {
        // Signals are Godot 4's, whose strings are always Unicode.
        let name = name.into_string();
        Variant::Signal(Signal { name, object })
    }
    #[inline]
    fn byte_array(bytes: &'a [u8]) -> Variant {
        Variant::PackedByteArray(bytes.to_vec())
    }
    fn string_array(items: Vec<GString>) -> Variant {
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
    fn object(class: GString, properties: Vec<(GString, Variant)>) -> Variant {
        // Class and property names are kept as text: a name that is not Unicode names no
        // class or property of the engine, which then refuses the object or drops the
        // property (docs/engine-rules.md).
        let class = class.into_string();
        let properties = properties
            .into_iter()
            .map(|(n, v)| (n.into_string(), v))
            .collect();
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
    fn kept_apart(k: &Variant, dicts_by_identity: bool) -> bool {
        quirks::kept_apart(k, dicts_by_identity)
    }
    #[inline(always)]
    fn key_bit(k: &Variant) -> u32 {
        match k {
            Variant::String(s) => text_key_bit(s),
            Variant::Int(i) => int_key_bit(*i),
            _ => OTHER_KEY_BIT,
        }
    }
    #[inline(always)]
    fn string_key(s: &'a str) -> (Variant, u32) {
        // `key_bit` of the String made of `s`, whose text is `s`.
        (Variant::string(StrRef::Borrowed(s)), text_key_bit(s))
    }
    fn seen(&self) -> quirks::Seen<'_> {
        let object = match self {
            Variant::Object(Object::Null) => None,
            Variant::Object(Object::Id(_)) => Some(None),
            Variant::Object(Object::Full(o)) => {
                let script = o.properties.iter().find_map(|(n, v)| match v {
                    Variant::String(s) if n == "script" => Some(&**s),
                    _ => None,
                });
                Some(Some((o.class.as_str(), script)))
            }
            _ => None,
        };
        quirks::Seen::Value {
            kind: self.kind(),
            object,
        }
    }
    fn convert(self, fate: quirks::Fate) -> Variant {
        match (fate, self) {
            // `(float)` in ContainerTypeValidate: through a 32-bit float.
            (quirks::Fate::IntToFloat, Variant::Int(i)) => Variant::Float(f64::from(i as f32)),
            (quirks::Fate::ToString, Variant::StringName(s)) => Variant::String(s.0),
            (quirks::Fate::ToStringName, Variant::String(s)) => Variant::StringName(StringName(s)),
            (_, v) => v,
        }
    }
}

#[inline(never)]
pub(crate) fn same_key_slow(a: &Variant, b: &Variant) -> bool {
    key::same_key(a, b)
}
