//! The Variant model: one Rust value type for every type of every dialect.
//!
//! Names follow Godot 4 (`Float`, `Quaternion`, `Transform3D`, `Packed*Array`); Godot 3's
//! `REAL`, `Quat`, `Transform` and `Pool*Array` and Pandemonium's extra types map onto the
//! same variants, so one value can be decoded from one dialect and encoded to another.
//!
//! This module is the bottom layer (beside the generated `Kind`): the value enum, its
//! containers, the math structs and their layouts refer to each other (a `Variant` holds a
//! `Dictionary` of `Variant`s, a layout builds a `Variant`), so they live together here and
//! nothing here names the wire, text or JSON layers above. The generated parts are
//! `src/generated/math.rs` and `src/generated/value.rs`, included as `math` and `value`.

use crate::generated::kinds::Kind;
use indexmap::IndexMap;
use std::collections::{BTreeMap, HashMap};

pub use crate::variant::value::Variant;
pub use access::VariantIndex;

mod access;
mod dictionary;
mod gstring;
mod iter;
pub(crate) mod key;
pub(crate) mod layout;
/// The math structs and their fixed layouts (generated from the spec).
#[path = "../generated/math.rs"]
#[rustfmt::skip]
pub(crate) mod math;
pub(crate) mod packed;
/// `Variant` and the per-kind dispatch (generated from the spec).
#[path = "../generated/value.rs"]
#[rustfmt::skip]
pub(crate) mod value;
use key::KeyIndex;

pub use dictionary::Dictionary;
pub use gstring::{GString, StrRef};

/// A `StringName`: an interned string in the engine, a plain string on the wire (its text a
/// [`GString`], short names inline).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct StringName(pub GString);

impl From<&str> for StringName {
    fn from(s: &str) -> StringName {
        StringName(GString::new(s))
    }
}

/// A `NodePath`: node names, then property subnames, and whether it starts at the root.
///
/// `NodePath("/root/Main:position:x")` is names `["root", "Main"]`, subnames
/// `["position", "x"]`, absolute.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct NodePath {
    /// Node names, in order.
    pub names: Vec<GString>,
    /// Property subnames, in order.
    pub subnames: Vec<GString>,
    /// Whether the path is absolute (starts with `/`).
    pub absolute: bool,
}

impl NodePath {
    /// Parses the engine's text form (`a/b:c`, `/root`, `:x`).
    pub fn parse(path: &str) -> NodePath {
        let absolute = path.starts_with('/');
        let body = if absolute { &path[1..] } else { path };
        let (nodes, props) = match body.find(':') {
            Some(i) => (&body[..i], Some(&body[i + 1..])),
            None => (body, None),
        };
        let names = nodes
            .split('/')
            .filter(|s| !s.is_empty())
            .map(GString::new)
            .collect();
        let subnames = props
            .map(|p| {
                p.split(':')
                    .filter(|s| !s.is_empty())
                    .map(GString::new)
                    .collect()
            })
            .unwrap_or_default();
        NodePath {
            names,
            subnames,
            absolute,
        }
    }
}

impl std::fmt::Display for NodePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.absolute {
            f.write_str("/")?;
        }
        for (i, n) in self.names.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            f.write_str(n)?;
        }
        for s in &self.subnames {
            write!(f, ":{s}")?;
        }
        Ok(())
    }
}

/// An `Object` value.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Object {
    /// A null or freed object (the engines write it as `null`).
    #[default]
    Null,
    /// An object sent by instance id (`var_to_bytes` without objects): the engine's
    /// `EncodedObjectAsID`.
    Id(u64),
    /// A full object (`var_to_bytes_with_objects`), kept as data: class name and the
    /// stored properties in the engine's order. Decoding never runs any code.
    Full(Box<FullObject>),
}

/// A full object as data.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct FullObject {
    /// The engine class name (`Node`, `Resource`, …).
    pub class: String,
    /// The properties with `PROPERTY_USAGE_STORAGE`, in the order the engine sent them.
    pub properties: Vec<(String, Variant)>,
}

/// A `Signal` (Godot 4): the name and the id of the object that owns it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Signal {
    /// Signal name.
    pub name: String,
    /// Instance id of the owning object (0 for none).
    pub object: u64,
}

/// The element type of a typed `Array`, or the key or value type of a typed `Dictionary`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ElementType {
    /// A builtin type (`Array[int]`): the container kind `BUILTIN` with a type.
    Builtin(Kind),
    /// A native class (`Array[Node]`): the container kind `CLASS_NAME`.
    Class(String),
    /// A script class given by its `res://` path: the container kind `SCRIPT`.
    Script(String),
}

/// The type information of a typed `Array`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayType {
    /// The element type.
    pub element: ElementType,
    /// Pandemonium 5's `PACKED_TYPED_ARRAY` (rather than `TYPED_ARRAY`).
    pub pandemonium_packed: bool,
}

/// An `Array`, untyped or typed.
///
/// Its elements are the public `items`: an array has no rule to keep (a typed array's
/// elements are checked by the engine when it reads the bytes), so any `Vec` editing is
/// fine. It also has the usual helpers: `push`, `len`, `iter`, `array[i]`, `for x in &array`,
/// `collect()`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Array {
    /// The elements.
    pub items: Vec<Variant>,
    /// The element type of a typed array (Godot 4.3+, Pandemonium 5); `None` when untyped.
    pub typed: Option<Box<ArrayType>>,
}

impl Array {
    /// An untyped array.
    pub fn new(items: Vec<Variant>) -> Array {
        Array { items, typed: None }
    }

    /// A typed array (`Array[T]`).
    pub fn typed(element: ElementType, items: Vec<Variant>) -> Array {
        Array {
            items,
            typed: Some(Box::new(ArrayType {
                element,
                pandemonium_packed: false,
            })),
        }
    }

    /// The element type, if typed.
    pub fn element_type(&self) -> Option<&ElementType> {
        self.typed.as_ref().map(|t| &t.element)
    }
}

/// The key and value types of a typed `Dictionary` (Godot 4.4+). `None` on a side is untyped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DictionaryType {
    /// Key type.
    pub key: Option<ElementType>,
    /// Value type.
    pub value: Option<ElementType>,
}

impl Variant {
    /// Whether this is `null`.
    pub fn is_nil(&self) -> bool {
        matches!(self, Variant::Nil)
    }

    /// The bool, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Variant::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The integer, if this is an `int`.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Variant::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The number as `f64`, if this is a `float` or an `int` (GDScript converts ints freely).
    pub fn as_float(&self) -> Option<f64> {
        match self {
            Variant::Float(f) => Some(*f),
            Variant::Int(i) => Some(*i as f64),
            _ => None,
        }
    }

    /// The text, if this is a `String` or a `StringName`.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Variant::String(s) => Some(s),
            Variant::StringName(s) => Some(&s.0),
            _ => None,
        }
    }

    /// The array, if this is one.
    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Variant::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The dictionary, if this is one.
    pub fn as_dictionary(&self) -> Option<&Dictionary> {
        match self {
            Variant::Dictionary(d) => Some(d),
            _ => None,
        }
    }

    /// Bitwise equality: like `==`, but floats compare by their bits, so NaN equals the
    /// same NaN and `0.0` differs from `-0.0`. This is "the same bytes would be written".
    pub fn same(&self, other: &Variant) -> bool {
        key::same_value(self, other)
    }
}

macro_rules! from_impls {
    ($($t:ty => $v:ident),* $(,)?) => {$(
        impl From<$t> for Variant {
            fn from(x: $t) -> Variant { Variant::$v(x.into()) }
        }
    )*};
}

// The math types convert through the generated `From` impls (`crate::variant::value`).
// Integers convert only where every value fits an `int` (no `u64`, `usize`: use `as i64`).
from_impls!(
    bool => Bool, i64 => Int, i32 => Int, i16 => Int, i8 => Int, u32 => Int, u16 => Int,
    u8 => Int, f64 => Float, f32 => Float, String => String, &String => String,
    &str => String, GString => String, StringName => StringName, NodePath => NodePath,
    Object => Object, Signal => Signal, Dictionary => Dictionary, Array => Array,
    Vec<Variant> => Array,
);

/// `()` is `Nil`.
impl From<()> for Variant {
    fn from(_: ()) -> Variant {
        Variant::Nil
    }
}

/// `None` is `Nil`, `Some(x)` is `x`'s value.
///
/// ```
/// use gdvariant::Variant;
///
/// assert_eq!(Variant::from(None::<i32>), Variant::Nil);
/// assert_eq!(Variant::from(Some("x")), Variant::from("x"));
/// ```
impl<T: Into<Variant>> From<Option<T>> for Variant {
    fn from(x: Option<T>) -> Variant {
        x.map_or(Variant::Nil, Into::into)
    }
}

// Map types as a Dictionary.
macro_rules! from_maps {
    ($($m:ident <$($p:ident),*>),*) => {$(
        /// A Dictionary of the entries in the map's iteration order: sorted for a `BTreeMap`,
        /// insertion order for an `IndexMap`, and an order that changes from run to run for a
        /// `HashMap` (prefer the other two when the bytes should be reproducible). Keys that
        /// are distinct in Rust but convert to one Dictionary key keep the first place and the
        /// last value, as [`Dictionary::insert`] does.
        impl<K: Into<Variant>, V: Into<Variant>, $($p),*> From<$m<K, V, $($p),*>> for Variant {
            fn from(map: $m<K, V, $($p),*>) -> Variant {
                let entries = map.into_iter().map(|(k, v)| (k.into(), v.into()));
                Variant::Dictionary(entries.collect())
            }
        }
    )*};
}

from_maps! { BTreeMap<>, HashMap<S>, IndexMap<S> }

#[cfg(test)]
mod tests {
    use super::*;

    /// The sizes the decoder's speed depends on: a `Dictionary` no larger than an `Array`, so
    /// that `Variant` keeps its own tag (a niche tag makes every `match` decode it).
    #[test]
    fn value_sizes() {
        assert_eq!(std::mem::size_of::<Dictionary>(), 32);
        assert_eq!(std::mem::size_of::<Array>(), 32);
        assert_eq!(std::mem::size_of::<Variant>(), 40);
        // The key index's slots, half of a big dictionary's index (see `key::Slot`).
        assert_eq!(std::mem::size_of::<key::Slot>(), 8);
    }

    #[test]
    fn typed_survives_the_index() {
        let t = DictionaryType {
            key: Some(ElementType::Builtin(Kind::Int)),
            value: None,
        };
        let mut d = Dictionary::new();
        d.set_typed(Some(t.clone()));
        for i in 0..40 {
            d.insert(Variant::Int(i), Variant::Nil);
        }
        assert_eq!(d.typed(), Some(&t));
        assert_eq!(d.get(&Variant::Int(39)), Some(&Variant::Nil));
        d.set_typed(None);
        assert_eq!(d.typed(), None);
        assert_eq!(d.get(&Variant::Int(7)), Some(&Variant::Nil));
    }
}
