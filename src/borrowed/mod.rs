//! Zero-copy decoding: [`decode_borrowed`] gives a [`VariantRef`] whose strings, names and
//! packed arrays point into the input, and whose arrays and dictionaries are views that read
//! their elements from it on demand, for reading messages without building them.
//!
//! It runs the very decoder of [`decode`](fn@crate::decode) (see `decode.rs`, the `Build`
//! trait) once over the whole input with a builder that keeps nothing (`Probe`), so it
//! accepts and rejects the same bytes with the same errors and offsets; the views then read
//! validated bytes with the same decoder. [`VariantRef::to_owned`] gives the owned [`Variant`].

use crate::decode::DecodeOptions;
mod shallow;

use crate::decode::{drive, int_key_bit, text_key_bit, Build, Scalar, OTHER_KEY_BIT};
use crate::dialect::Dialect;
use crate::error::DecodeError;
use crate::variant::key::{self, hash_key_real, hash_variant_key};
pub use crate::variant::packed::{PackedElement, PackedRef};
use crate::variant::*;
pub(crate) use shallow::{decode_at, is_container, read_shallow, validate, Ctx, Shallow};
use std::hash::{Hash, Hasher};

/// Decodes one value from the start of `bytes` without copying its text or packed arrays,
/// and without building its containers.
///
/// Returns the value and the number of bytes it used, exactly as [`decode`](fn@crate::decode)
/// does (same validation, same errors at the same offsets: the whole input is checked
/// before anything is returned). A `PackedByteArray` of 16 MiB costs what one of 16 bytes
/// costs: it is a slice of `bytes`. An `Array` or `Dictionary` is a view ([`ArrayRef`],
/// [`DictionaryRef`]) that reads its elements from `bytes` when they are asked for, so
/// decoding allocates nothing for them and a caller pays only for what it reads.
///
/// Input in which some dictionary repeats a key (the engine keeps the last value at the
/// first position) is rare; for it the containers are built eagerly instead, with the rule
/// applied, and the views behave the same.
///
/// ```
/// use gdvariant::{decode_borrowed, Dialect, DecodeOptions, VariantRef};
/// // "hi" as a Godot 4 String: header 4, length 2, bytes, padding.
/// let bytes = [4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0];
/// let (value, used) = decode_borrowed(&bytes, Dialect::Godot4, &DecodeOptions::default())?;
/// assert_eq!(used, 12);
/// let VariantRef::String(s) = &value else { panic!() };
/// assert!(std::ptr::eq(s.as_ptr(), bytes[8..].as_ptr()), "borrowed, not copied");
/// assert_eq!(value.to_owned(), gdvariant::Variant::from("hi"));
/// # Ok::<(), gdvariant::DecodeError>(())
/// ```
pub fn decode_borrowed<'a>(
    bytes: &'a [u8],
    dialect: Dialect,
    options: &DecodeOptions,
) -> Result<(VariantRef<'a>, usize), DecodeError> {
    let ctx = Ctx::new(dialect, options);
    // Engine mode retypes containers as they are read: the views, which read the bytes as
    // written, cannot show that, so the value is built eagerly.
    if options.engine_strict || !is_container(bytes, &ctx) {
        // Nothing to leave unread: one pass reads and checks it all.
        return drive(bytes, dialect, options);
    }
    let (used, repeated_keys) = validate(bytes, dialect, options)?;
    if repeated_keys {
        return drive(bytes, dialect, options);
    }
    let (shallow, _) = read_shallow(bytes, 0, &ctx, false)?;
    Ok((Span::open(bytes, 0, ctx, shallow), used))
}

/// `VariantRef` (generated from the spec): the borrowed value enum belongs to this layer.
#[path = "../generated/value_ref.rs"]
#[rustfmt::skip]
mod value_ref;
pub use value_ref::VariantRef;

/// The packed arrays of plain numbers as views (those of fixed layouts are generated).
macro_rules! packed_number_ref {
    ($($t:ty => $variant:ident),*) => {$(
        impl<'a> From<PackedRef<'a, $t>> for VariantRef<'a> {
            fn from(v: PackedRef<'a, $t>) -> VariantRef<'a> {
                VariantRef::$variant(v)
            }
        }
    )*};
}
packed_number_ref!(i32 => PackedInt32Array, i64 => PackedInt64Array, f32 => PackedFloat32Array, f64 => PackedFloat64Array);

/// A borrowed [`NodePath`].
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct NodePathRef<'a> {
    /// Node names, in order.
    pub names: Vec<StrRef<'a>>,
    /// Property subnames, in order.
    pub subnames: Vec<StrRef<'a>>,
    /// Whether the path is absolute.
    pub absolute: bool,
}

/// A borrowed [`Object`].
#[derive(Clone, Debug, PartialEq, Default)]
pub enum ObjectRef<'a> {
    /// A null or freed object.
    #[default]
    Null,
    /// An object sent by instance id.
    Id(u64),
    /// A full object as data: class name and stored properties in the engine's order.
    Full(Box<FullObjectRef<'a>>),
}

/// A borrowed [`FullObject`].
#[derive(Clone, Debug, PartialEq, Default)]
pub struct FullObjectRef<'a> {
    /// The engine class name.
    pub class: StrRef<'a>,
    /// The stored properties, in the order the engine sent them.
    pub properties: Vec<(StrRef<'a>, VariantRef<'a>)>,
}

/// A borrowed [`Signal`].
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SignalRef<'a> {
    /// Signal name.
    pub name: StrRef<'a>,
    /// Instance id of the owning object (0 for none).
    pub object: u64,
}

/// Where the elements of a lazily read container lie, and how they were read.
#[derive(Clone, Copy)]
struct Span<'a> {
    /// The whole input (elements borrow from it).
    buf: &'a [u8],
    /// The container's header: the owned decoder starts there for `to_owned`.
    header: usize,
    /// Its first element.
    first: usize,
    /// Elements (entries of a dictionary).
    len: u32,
    ctx: Ctx,
}

impl<'a> Span<'a> {
    /// The value of what [`read_shallow`] read at `header`: an opened container becomes a view.
    #[inline]
    fn open(buf: &'a [u8], header: usize, ctx: Ctx, shallow: Shallow<'a>) -> VariantRef<'a> {
        match shallow {
            Shallow::Value(v) => v,
            Shallow::Array { typed, len, first } => VariantRef::Array(ArrayRef {
                items: Items::Lazy(Span {
                    buf,
                    header,
                    first,
                    len,
                    ctx,
                }),
                typed,
            }),
            Shallow::Dictionary { typed, len, first } => VariantRef::Dictionary(DictionaryRef {
                entries: Items::Lazy(Span {
                    buf,
                    header,
                    first,
                    len,
                    ctx,
                }),
                typed,
            }),
        }
    }

    /// The value at `*pos`, moving `*pos` past it.
    #[inline]
    fn next(&self, pos: &mut usize) -> Option<VariantRef<'a>> {
        match read_shallow(self.buf, *pos, &self.ctx, true) {
            Ok((shallow, next)) => {
                let v = Span::open(self.buf, *pos, self.ctx, shallow);
                *pos = next;
                Some(v)
            }
            // The bytes were validated with this context, so this cannot happen; should it
            // ever, the iteration ends rather than make up a value.
            Err(e) => {
                debug_assert!(false, "validated bytes failed to read: {e}");
                None
            }
        }
    }

    /// The owned container, by the owned decoder (iterative, and the very reading of `decode`).
    fn decode_owned(&self) -> Option<Variant> {
        let v = decode_at(self.buf, self.header, &self.ctx);
        debug_assert!(v.is_ok(), "validated bytes failed to decode: {v:?}");
        v.ok()
    }
}

/// The elements of a borrowed container: a span of the input read on demand, or built.
#[derive(Clone)]
enum Items<'a, T> {
    Lazy(Span<'a>),
    Built(Vec<T>),
}

impl<'a, T> Items<'a, T> {
    fn len(&self) -> usize {
        match self {
            Items::Lazy(span) => span.len as usize,
            Items::Built(v) => v.len(),
        }
    }

    fn iter(&self) -> Iter<'a, '_, T> {
        match self {
            Items::Lazy(span) => Iter::Lazy {
                span: *span,
                pos: span.first,
                left: span.len,
            },
            Items::Built(v) => Iter::Built(v.iter()),
        }
    }
}

/// Views compare by their elements, whether read from the input or built.
impl<'a, T: Item<'a> + PartialEq> PartialEq for Items<'a, T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

/// What a view's iteration yields: an element, or an entry (a key, then its value).
trait Item<'a>: Clone {
    fn read(span: &Span<'a>, pos: &mut usize) -> Option<Self>;
}

impl<'a> Item<'a> for VariantRef<'a> {
    #[inline]
    fn read(span: &Span<'a>, pos: &mut usize) -> Option<Self> {
        span.next(pos)
    }
}

impl<'a> Item<'a> for (VariantRef<'a>, VariantRef<'a>) {
    #[inline]
    fn read(span: &Span<'a>, pos: &mut usize) -> Option<Self> {
        span.next(pos).zip(span.next(pos))
    }
}

/// A borrowed [`Array`]: a view that reads its elements from the input as they are asked for.
///
/// [`ArrayRef::iter`] reads each element once per pass, in order; [`ArrayRef::get`] walks to
/// its element, so for random access take [`ArrayRef::to_vec`] once. Nested containers are
/// views too.
#[derive(Clone, PartialEq)]
pub struct ArrayRef<'a> {
    items: Items<'a, VariantRef<'a>>,
    /// The element type of a typed array; `None` when untyped.
    pub typed: Option<Box<ArrayType>>,
}

impl Default for ArrayRef<'_> {
    fn default() -> Self {
        ArrayRef::new(Vec::new(), None)
    }
}

impl<'a> ArrayRef<'a> {
    /// An array of the given elements.
    pub fn new(items: Vec<VariantRef<'a>>, typed: Option<Box<ArrayType>>) -> ArrayRef<'a> {
        ArrayRef {
            items: Items::Built(items),
            typed,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The elements in order.
    pub fn iter(&self) -> ArrayIter<'a, '_> {
        ArrayIter {
            inner: self.items.iter(),
        }
    }

    /// Element `i` (reading the elements before it, in a lazy view).
    pub fn get(&self, i: usize) -> Option<VariantRef<'a>> {
        self.iter().nth(i)
    }

    /// The elements, collected.
    pub fn to_vec(&self) -> Vec<VariantRef<'a>> {
        self.iter().collect()
    }

    /// The element type, if typed.
    pub fn element_type(&self) -> Option<&ElementType> {
        self.typed.as_ref().map(|t| &t.element)
    }

    /// Whether this is a view of the input (rather than built elements).
    pub fn is_lazy(&self) -> bool {
        matches!(self.items, Items::Lazy(_))
    }
}

impl<'a, 'r> IntoIterator for &'r ArrayRef<'a> {
    type Item = VariantRef<'a>;
    type IntoIter = ArrayIter<'a, 'r>;
    fn into_iter(self) -> ArrayIter<'a, 'r> {
        self.iter()
    }
}

impl std::fmt::Debug for ArrayRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut list = f.debug_list();
        list.entries(self.iter());
        list.finish()?;
        if let Some(t) = &self.typed {
            write!(f, " as {t:?}")?;
        }
        Ok(())
    }
}

/// An iteration over a view or over built elements.
enum Iter<'a, 'r, T> {
    Lazy {
        span: Span<'a>,
        pos: usize,
        left: u32,
    },
    Built(std::slice::Iter<'r, T>),
}

impl<'a, T: Item<'a>> Iterator for Iter<'a, '_, T> {
    type Item = T;
    #[inline]
    fn next(&mut self) -> Option<T> {
        match self {
            Iter::Lazy { span, pos, left } => {
                if *left == 0 {
                    return None;
                }
                *left -= 1;
                let item = T::read(span, pos);
                if item.is_none() {
                    *left = 0;
                }
                item
            }
            Iter::Built(it) => it.next().cloned(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = match self {
            Iter::Lazy { left, .. } => *left as usize,
            Iter::Built(it) => it.len(),
        };
        (n, Some(n))
    }
}

/// The elements of an [`ArrayRef`], in order.
pub struct ArrayIter<'a, 'r> {
    inner: Iter<'a, 'r, VariantRef<'a>>,
}

impl<'a> Iterator for ArrayIter<'a, '_> {
    type Item = VariantRef<'a>;
    fn next(&mut self) -> Option<VariantRef<'a>> {
        self.inner.next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl ExactSizeIterator for ArrayIter<'_, '_> {}

/// A borrowed [`Dictionary`]: a view that reads its entries from the input as they are asked
/// for, in insertion order, keys unique (see [`decode_borrowed`] for repeated keys).
#[derive(Clone, PartialEq)]
pub struct DictionaryRef<'a> {
    entries: Items<'a, (VariantRef<'a>, VariantRef<'a>)>,
    typed: Option<Box<DictionaryType>>,
}

impl Default for DictionaryRef<'_> {
    fn default() -> Self {
        DictionaryRef {
            entries: Items::Built(Vec::new()),
            typed: None,
        }
    }
}

impl<'a> DictionaryRef<'a> {
    /// The key and value types of a typed dictionary (Godot 4.4+); `None` when untyped.
    pub fn typed(&self) -> Option<&DictionaryType> {
        self.typed.as_deref()
    }

    /// Entries in insertion order.
    pub fn iter(&self) -> DictionaryIter<'a, '_> {
        DictionaryIter {
            inner: self.entries.iter(),
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of a `String` (or `StringName`) key.
    pub fn get_str(&self, key: &str) -> Option<VariantRef<'a>> {
        self.iter()
            .find(
                |(k, _)| matches!(k, VariantRef::String(s) | VariantRef::StringName(s) if s == key),
            )
            .map(|(_, v)| v)
    }

    /// The entries, collected.
    pub fn to_vec(&self) -> Vec<(VariantRef<'a>, VariantRef<'a>)> {
        self.iter().collect()
    }

    /// Consumes the dictionary, giving its entries.
    pub fn into_entries(self) -> Vec<(VariantRef<'a>, VariantRef<'a>)> {
        match self.entries {
            Items::Built(v) => v,
            Items::Lazy(_) => self.to_vec(),
        }
    }

    /// Whether this is a view of the input (rather than built entries).
    pub fn is_lazy(&self) -> bool {
        matches!(self.entries, Items::Lazy(_))
    }
}

impl<'a, 'r> IntoIterator for &'r DictionaryRef<'a> {
    type Item = (VariantRef<'a>, VariantRef<'a>);
    type IntoIter = DictionaryIter<'a, 'r>;
    fn into_iter(self) -> DictionaryIter<'a, 'r> {
        self.iter()
    }
}

impl std::fmt::Debug for DictionaryRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut map = f.debug_map();
        map.entries(self.iter());
        map.finish()?;
        if let Some(t) = &self.typed {
            write!(f, " as {t:?}")?;
        }
        Ok(())
    }
}

/// The entries of a [`DictionaryRef`], in insertion order.
pub struct DictionaryIter<'a, 'r> {
    inner: Iter<'a, 'r, (VariantRef<'a>, VariantRef<'a>)>,
}

impl<'a> Iterator for DictionaryIter<'a, '_> {
    type Item = (VariantRef<'a>, VariantRef<'a>);
    fn next(&mut self) -> Option<(VariantRef<'a>, VariantRef<'a>)> {
        self.inner.next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl ExactSizeIterator for DictionaryIter<'_, '_> {}

impl<'a> Build<'a> for VariantRef<'a> {
    type Str = StrRef<'a>;
    type Entries = Vec<(VariantRef<'a>, VariantRef<'a>)>;
    #[inline]
    fn text(s: StrRef<'a>) -> StrRef<'a> {
        s
    }
    #[inline]
    fn scalar(s: Scalar) -> VariantRef<'a> {
        match s {
            Scalar::Nil => VariantRef::Nil,
            Scalar::Bool(x) => VariantRef::Bool(x),
            Scalar::Int(x) => VariantRef::Int(x),
            Scalar::Float(x) => VariantRef::Float(x),
            Scalar::Rid(x) => VariantRef::Rid(x),
            Scalar::Callable => VariantRef::Callable,
            Scalar::ObjectNull => VariantRef::Object(ObjectRef::Null),
            Scalar::ObjectId(id) => VariantRef::Object(ObjectRef::Id(id)),
        }
    }
    #[inline]
    fn string(s: StrRef<'a>) -> VariantRef<'a> {
        VariantRef::String(s)
    }
    #[inline]
    fn string_name(s: StrRef<'a>) -> VariantRef<'a> {
        VariantRef::StringName(s)
    }
    fn node_path(
        names: Vec<StrRef<'a>>,
        subnames: Vec<StrRef<'a>>,
        absolute: bool,
    ) -> VariantRef<'a> {
        VariantRef::NodePath(Box::new(NodePathRef {
            names,
            subnames,
            absolute,
        }))
    }
    fn signal(name: StrRef<'a>, object: u64) -> VariantRef<'a> {
        VariantRef::Signal(SignalRef { name, object })
    }
    #[inline]
    fn byte_array(bytes: &'a [u8]) -> VariantRef<'a> {
        VariantRef::PackedByteArray(bytes)
    }
    fn string_array(items: Vec<StrRef<'a>>) -> VariantRef<'a> {
        VariantRef::PackedStringArray(items)
    }
    #[inline]
    fn array(items: Vec<VariantRef<'a>>, typed: Option<Box<ArrayType>>) -> VariantRef<'a> {
        VariantRef::Array(ArrayRef::new(items, typed))
    }
    #[inline]
    fn dictionary(
        entries: Vec<(VariantRef<'a>, VariantRef<'a>)>,
        typed: Option<Box<DictionaryType>>,
        _: Option<Box<crate::variant::key::KeyIndex>>,
    ) -> VariantRef<'a> {
        VariantRef::Dictionary(DictionaryRef {
            entries: Items::Built(entries),
            typed,
        })
    }
    fn object(class: StrRef<'a>, properties: Vec<(StrRef<'a>, VariantRef<'a>)>) -> Self {
        VariantRef::Object(ObjectRef::Full(Box::new(FullObjectRef {
            class,
            properties,
        })))
    }
    /// The common key types compare in place; the rest as the owned values do (one rule).
    #[inline(always)]
    fn same_key(a: &VariantRef<'a>, b: &VariantRef<'a>) -> bool {
        use VariantRef as V;
        match (a, b) {
            (V::String(x), V::String(y)) => x.engine_utf8() == y.engine_utf8(),
            (V::Int(x), V::Int(y)) => x == y,
            (V::String(_) | V::Int(_), V::String(_) | V::Int(_)) => false,
            _ => same_key_slow(a, b),
        }
    }
    #[inline(always)]
    fn key_bit(k: &VariantRef<'a>) -> u32 {
        match k {
            VariantRef::String(s) => text_key_bit(s),
            VariantRef::Int(i) => int_key_bit(*i),
            _ => OTHER_KEY_BIT,
        }
    }
    fn kept_apart(k: &VariantRef<'a>, dicts_by_identity: bool) -> bool {
        matches!(
            k,
            VariantRef::Object(_) | VariantRef::Array(_) | VariantRef::Dictionary(_)
        ) && crate::quirks::kept_apart(&k.to_owned(), dicts_by_identity)
    }
    fn hash_key<H: Hasher>(k: &VariantRef<'a>, h: &mut H) {
        match k {
            VariantRef::String(s) => key::hash_text_key(s.as_str(), false, h),
            VariantRef::StringName(s) => key::hash_text_key(s.as_str(), true, h),
            VariantRef::Int(i) => {
                k.kind().hash(h);
                i.hash(h)
            }
            VariantRef::Float(f) => {
                k.kind().hash(h);
                hash_key_real(*f, h)
            }
            other => hash_variant_key(&other.to_owned(), h, 0),
        }
    }
    fn seen(&self) -> crate::quirks::Seen<'_> {
        let object = match self {
            VariantRef::Object(ObjectRef::Null) => None,
            VariantRef::Object(ObjectRef::Id(_)) => Some(None),
            VariantRef::Object(ObjectRef::Full(o)) => {
                let script = o.properties.iter().find_map(|(n, v)| match v {
                    VariantRef::String(s) if n == "script" => Some(&**s),
                    _ => None,
                });
                Some(Some((&*o.class, script)))
            }
            _ => None,
        };
        crate::quirks::Seen::Value {
            kind: self.kind(),
            object,
        }
    }
    fn convert(self, fate: crate::quirks::Fate) -> VariantRef<'a> {
        use crate::quirks::Fate;
        match (fate, self) {
            // `(float)` in ContainerTypeValidate: through a 32-bit float.
            (Fate::IntToFloat, VariantRef::Int(i)) => VariantRef::Float(f64::from(i as f32)),
            (Fate::ToString, VariantRef::StringName(s)) => VariantRef::String(s),
            (Fate::ToStringName, VariantRef::String(s)) => VariantRef::StringName(s),
            (_, v) => v,
        }
    }
}

#[inline(never)]
fn same_key_slow(a: &VariantRef<'_>, b: &VariantRef<'_>) -> bool {
    use VariantRef as V;
    match (a, b) {
        (V::StringName(x), V::StringName(y)) => x == y,
        (V::Float(x), V::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
        (V::Bool(x), V::Bool(y)) => x == y,
        _ => a.kind() == b.kind() && key::same_key(&a.to_owned(), &b.to_owned()),
    }
}

fn owned_strs(v: &[StrRef<'_>]) -> Vec<GString> {
    v.iter().map(|s| s.clone().into_owned()).collect()
}

fn into_strs(v: Vec<StrRef<'_>>) -> Vec<GString> {
    v.into_iter().map(StrRef::into_owned).collect()
}

impl<'a> VariantRef<'a> {
    /// The owned [`Variant`] with the same value (text and packed arrays copied).
    #[allow(clippy::should_implement_trait)]
    pub fn to_owned(&self) -> Variant {
        use VariantRef as R;
        match self {
            R::Nil => Variant::Nil,
            R::Bool(x) => Variant::Bool(*x),
            R::Int(x) => Variant::Int(*x),
            R::Float(x) => Variant::Float(*x),
            R::String(s) => Variant::String(s.clone().into_owned()),
            R::StringName(s) => Variant::StringName(StringName(s.clone().into_owned())),
            R::NodePath(p) => Variant::NodePath(Box::new(NodePath {
                names: owned_strs(&p.names),
                subnames: owned_strs(&p.subnames),
                absolute: p.absolute,
            })),
            R::Rid(x) => Variant::Rid(*x),
            R::Object(ObjectRef::Null) => Variant::Object(Object::Null),
            R::Object(ObjectRef::Id(id)) => Variant::Object(Object::Id(*id)),
            R::Object(ObjectRef::Full(f)) => Variant::Object(Object::Full(Box::new(FullObject {
                class: f.class.as_ref().to_owned(),
                properties: f
                    .properties
                    .iter()
                    .map(|(n, v)| (n.as_ref().to_owned(), v.to_owned()))
                    .collect(),
            }))),
            R::Callable => Variant::Callable,
            R::Signal(s) => Variant::Signal(Signal {
                name: s.name.as_ref().to_owned(),
                object: s.object,
            }),
            R::Dictionary(d) => match &d.entries {
                Items::Lazy(span) => span.decode_owned().unwrap_or_else(|| {
                    let entries = d.iter().map(|(k, v)| (k.to_owned(), v.to_owned()));
                    Variant::Dictionary(Dictionary::from_unique(entries.collect(), d.typed.clone()))
                }),
                Items::Built(entries) => Variant::Dictionary(Dictionary::from_unique(
                    entries
                        .iter()
                        .map(|(k, v)| (k.to_owned(), v.to_owned()))
                        .collect(),
                    d.typed.clone(),
                )),
            },
            R::Array(a) => match &a.items {
                Items::Lazy(span) => span.decode_owned().unwrap_or_else(|| {
                    let items = a.iter().map(|v| v.to_owned()).collect();
                    Variant::Array(Array {
                        items,
                        typed: a.typed.clone(),
                    })
                }),
                Items::Built(items) => Variant::Array(Array {
                    items: items.iter().map(VariantRef::to_owned).collect(),
                    typed: a.typed.clone(),
                }),
            },
            R::PackedByteArray(b) => Variant::PackedByteArray(b.to_vec()),
            R::PackedInt32Array(p) => Variant::PackedInt32Array(p.to_vec()),
            R::PackedInt64Array(p) => Variant::PackedInt64Array(p.to_vec()),
            R::PackedFloat32Array(p) => Variant::PackedFloat32Array(p.to_vec()),
            R::PackedFloat64Array(p) => Variant::PackedFloat64Array(p.to_vec()),
            R::PackedStringArray(v) => Variant::PackedStringArray(owned_strs(v)),
            // Every other kind is a fixed layout or a packed array of one (generated).
            other => other.fixed_to_owned().unwrap_or_default(),
        }
    }

    /// Like [`VariantRef::to_owned`], reusing what is already owned (boxes, vectors of
    /// elements, text the decoder had to rewrite).
    pub fn into_owned(self) -> Variant {
        use VariantRef as R;
        match self {
            R::String(s) => Variant::String(s.into_owned()),
            R::StringName(s) => Variant::StringName(StringName(s.into_owned())),
            R::NodePath(p) => Variant::NodePath(Box::new(NodePath {
                names: into_strs(p.names),
                subnames: into_strs(p.subnames),
                absolute: p.absolute,
            })),
            R::Object(ObjectRef::Full(f)) => {
                let f = *f;
                Variant::Object(Object::Full(Box::new(FullObject {
                    class: f.class.into_owned().into_string(),
                    properties: f
                        .properties
                        .into_iter()
                        .map(|(n, v)| (n.into_owned().into_string(), v.into_owned()))
                        .collect(),
                })))
            }
            R::Signal(s) => Variant::Signal(Signal {
                name: s.name.into_owned().into_string(),
                object: s.object,
            }),
            R::Dictionary(DictionaryRef {
                entries: Items::Built(entries),
                typed,
            }) => Variant::Dictionary(Dictionary::from_unique(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.into_owned(), v.into_owned()))
                    .collect(),
                typed,
            )),
            R::Array(ArrayRef {
                items: Items::Built(items),
                typed,
            }) => Variant::Array(Array {
                items: items.into_iter().map(VariantRef::into_owned).collect(),
                typed,
            }),
            R::PackedStringArray(v) => Variant::PackedStringArray(into_strs(v)),
            other => other.to_owned(),
        }
    }
}

impl From<VariantRef<'_>> for Variant {
    fn from(v: VariantRef<'_>) -> Variant {
        v.into_owned()
    }
}
