//! `Serialize`/`Deserialize` for `Variant` and the math types.
//!
//! Through `gdvariant::serde` they must arrive unchanged (a Vector2 must not become a
//! Dictionary), but serde has no way to pass a foreign value through a Serializer. So while
//! `gdvariant::serde` runs on this thread (`Active`), their impls put the value in a
//! thread-local slot and send a newtype struct named [`TOKEN`]; our Serializer and
//! Deserializer take the value from the slot. Outside that (JSON, ...) they are plain
//! structures: math types are maps of their fields, a Variant is its natural serde shape.

use crate::generated::kinds::Kind;
use crate::math::*;
use crate::variant::layout::{
    components_of, real_from_f32_bits, tree_of, Component, FixedLayout, Scalar, Tree,
};
use crate::variant::value::{fixed_from, for_each_fixed};
use crate::variant::{Array, Dictionary, GString, Object, Variant};
use crate::FromVariantError;
use crate::{FromVariant, ToVariant};
use ::serde::de::{self, Deserialize, Deserializer, Visitor};
use ::serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use std::cell::{Cell, RefCell};

/// The newtype-struct name that marks a value handed over through the slot.
pub const TOKEN: &str = "$gdvariant::private::Variant";

thread_local! {
    static ACTIVE: Cell<usize> = const { Cell::new(0) };
    static SLOT: RefCell<Option<Variant>> = const { RefCell::new(None) };
}

/// Marks `gdvariant::serde` as running on this thread while alive.
pub struct Active(());

impl Active {
    pub fn enter() -> Active {
        ACTIVE.with(|a| a.set(a.get() + 1));
        Active(())
    }
    fn is_active() -> bool {
        ACTIVE.with(|a| a.get() > 0)
    }
}

impl Drop for Active {
    fn drop(&mut self) {
        ACTIVE.with(|a| a.set(a.get() - 1));
    }
}

pub fn stash(v: Variant) {
    SLOT.with(|s| *s.borrow_mut() = Some(v));
}

pub fn take_stashed() -> Option<Variant> {
    SLOT.with(|s| s.borrow_mut().take())
}

/// The fields of a math value (`[("x", 3.0), ("y", 4.0)]`; nested structs are Dictionaries of
/// their fields), from its spec components; `None` for other kinds.
pub fn fields_of(v: &Variant) -> Option<Vec<(&'static str, Variant)>> {
    let f = v.as_fixed()?;
    let (comps, values) = (f.components(), f.values());
    match tree_of(f.kind())? {
        Tree::Struct(fields) => Some(
            fields
                .iter()
                .map(|(n, t)| (*n, tree_variant(t, comps, &values)))
                .collect(),
        ),
        _ => None,
    }
}

fn tree_variant(t: &Tree, comps: &[Component], values: &[f64]) -> Variant {
    match t {
        Tree::Scalar(i) => {
            let x = values.get(*i).copied().unwrap_or_default();
            match comps.get(*i).map(|c| c.scalar) {
                Some(Scalar::I32) => Variant::Int(x as i64),
                _ => Variant::Float(x),
            }
        }
        Tree::Struct(fields) => Variant::Dictionary(Dictionary::from_unique(
            fields
                .iter()
                .map(|(n, t)| (Variant::String((*n).into()), tree_variant(t, comps, values)))
                .collect(),
            None,
        )),
        Tree::Array(items) => Variant::Array(Array::new(
            items
                .iter()
                .map(|t| tree_variant(t, comps, values))
                .collect(),
        )),
    }
}

/// The inverse of [`fields_of`] for a math type given as a Dictionary of its fields (nested
/// structs as Dictionaries or as math values), as other formats send it.
fn math_from_fields(kind: Kind, v: &Variant) -> Result<Variant, FromVariantError> {
    let (Some(comps), Some(tree)) = (components_of(kind), tree_of(kind)) else {
        return Err(FromVariantError::custom(format!(
            "`{}` is not a math type",
            kind.name()
        )));
    };
    let mut values = vec![0.0; comps.len()];
    fill(tree, comps, v, &mut values)?;
    fixed_from(kind, &mut |i| values.get(i).copied().unwrap_or_default())
        .ok_or_else(|| FromVariantError::custom(format!("`{}` is not a math type", kind.name())))
}

fn fill(
    t: &Tree,
    comps: &[Component],
    v: &Variant,
    out: &mut [f64],
) -> Result<(), FromVariantError> {
    match t {
        Tree::Scalar(i) => {
            let x = match comps.get(*i).map(|c| c.scalar) {
                Some(Scalar::I32) => f64::from(i32::from_variant(v)?),
                Some(Scalar::F32) => real_from_f32_bits(f32::from_variant(v)?.to_bits()),
                _ => f64::from_variant(v)?,
            };
            if let Some(slot) = out.get_mut(*i) {
                *slot = x;
            }
        }
        Tree::Struct(fields) => match v {
            Variant::Dictionary(d) => {
                for (name, t) in fields {
                    let x = d.get_str(name).ok_or_else(|| {
                        FromVariantError::custom(format!("missing field `{name}`"))
                    })?;
                    fill(t, comps, x, out).map_err(|e| e.in_field(*name))?;
                }
            }
            // A nested math value given as itself (`Variant::Vector2` for a `position`).
            other => {
                let mut slots = Vec::new();
                leaves(t, &mut slots);
                match other.as_fixed().map(|f| f.values()) {
                    Some(vals) if vals.len() == slots.len() => {
                        for (slot, x) in slots.into_iter().zip(vals) {
                            if let Some(o) = out.get_mut(slot) {
                                *o = x;
                            }
                        }
                    }
                    _ => return Err(FromVariantError::mismatch("Dictionary", other)),
                }
            }
        },
        Tree::Array(items) => match v {
            Variant::Array(a) if a.items.len() == items.len() => {
                for (i, (t, x)) in items.iter().zip(&a.items).enumerate() {
                    fill(t, comps, x, out).map_err(|e| e.at_index(i))?;
                }
            }
            other => {
                return Err(FromVariantError::custom(format!(
                    "expected an Array of {} elements, found {}",
                    items.len(),
                    other.kind().name()
                )))
            }
        },
    }
    Ok(())
}

/// The component indices under `t`, in order.
fn leaves(t: &Tree, out: &mut Vec<usize>) {
    match t {
        Tree::Scalar(i) => out.push(*i),
        Tree::Struct(fields) => fields.iter().for_each(|(_, t)| leaves(t, out)),
        Tree::Array(items) => items.iter().for_each(|t| leaves(t, out)),
    }
}

/// A Variant's natural serde shape, for formats other than `gdvariant::serde`.
struct Structural<'a>(&'a Variant);

impl Serialize for Structural<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        fn seq<S: Serializer, T, F: Fn(&T) -> Variant>(
            s: S,
            xs: &[T],
            f: F,
        ) -> Result<S::Ok, S::Error> {
            let mut q = s.serialize_seq(Some(xs.len()))?;
            for x in xs {
                q.serialize_element(&Structural(&f(x)))?;
            }
            q.end()
        }
        match self.0 {
            Variant::Nil | Variant::Callable | Variant::Object(Object::Null) => s.serialize_unit(),
            Variant::Bool(b) => s.serialize_bool(*b),
            Variant::Int(n) => s.serialize_i64(*n),
            Variant::Float(x) => s.serialize_f64(*x),
            Variant::String(t) => s.serialize_str(t),
            Variant::StringName(t) => s.serialize_str(&t.0),
            Variant::NodePath(p) => s.serialize_str(&p.to_string()),
            Variant::Rid(id) | Variant::Object(Object::Id(id)) => s.serialize_u64(*id),
            Variant::Signal(sig) => {
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("name", &sig.name)?;
                m.serialize_entry("object", &sig.object)?;
                m.end()
            }
            Variant::Object(Object::Full(o)) => {
                let mut m = s.serialize_map(Some(o.properties.len()))?;
                for (k, v) in &o.properties {
                    m.serialize_entry(k, &Structural(v))?;
                }
                m.end()
            }
            Variant::Dictionary(d) => {
                let mut m = s.serialize_map(Some(d.len()))?;
                for (k, v) in d.entries() {
                    m.serialize_entry(&Structural(k), &Structural(v))?;
                }
                m.end()
            }
            Variant::Array(a) => seq(s, &a.items, |x| x.clone()),
            Variant::PackedByteArray(xs) => s.serialize_bytes(xs),
            Variant::PackedInt32Array(xs) => seq(s, xs, |x| Variant::Int((*x).into())),
            Variant::PackedInt64Array(xs) => seq(s, xs, |x| Variant::Int(*x)),
            Variant::PackedFloat32Array(xs) => seq(s, xs, |x| x.to_variant()),
            Variant::PackedFloat64Array(xs) => seq(s, xs, |x| Variant::Float(*x)),
            Variant::PackedStringArray(xs) => seq(s, xs, |x| Variant::String(x.clone())),
            // Packed arrays of math values: a sequence of their elements.
            other if other.as_packed().is_some() => {
                let items: Vec<Variant> = other
                    .as_packed()
                    .map(|p| (0..p.len()).filter_map(|i| p.element_variant(i)).collect())
                    .unwrap_or_default();
                seq(s, &items, |x| x.clone())
            }
            math => {
                let fields = fields_of(math).unwrap_or_default();
                let mut m = s.serialize_map(Some(fields.len()))?;
                for (k, v) in &fields {
                    m.serialize_entry(k, &Structural(v))?;
                }
                m.end()
            }
        }
    }
}

impl Serialize for Variant {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if Active::is_active() {
            stash(self.clone());
            return s.serialize_newtype_struct(TOKEN, &());
        }
        Structural(self).serialize(s)
    }
}

/// Builds a Variant from any self-describing format.
struct StructuralVisitor;

impl<'de> Visitor<'de> for StructuralVisitor {
    type Value = Variant;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any Godot value")
    }
    fn visit_unit<E>(self) -> Result<Variant, E> {
        Ok(Variant::Nil)
    }
    fn visit_none<E>(self) -> Result<Variant, E> {
        Ok(Variant::Nil)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Variant, D::Error> {
        Variant::deserialize(d)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Variant, E> {
        Ok(Variant::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Variant, E> {
        Ok(Variant::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Variant, E> {
        i64::try_from(v)
            .map(Variant::Int)
            .map_err(|_| E::custom(format!("{v} does not fit a Godot int (i64)")))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Variant, E> {
        Ok(Variant::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Variant, E> {
        Ok(Variant::String(GString::new(v)))
    }
    fn visit_string<E>(self, v: String) -> Result<Variant, E> {
        Ok(Variant::String(v.into()))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Variant, E> {
        Ok(Variant::PackedByteArray(v.to_vec()))
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut a: A) -> Result<Variant, A::Error> {
        let mut items = Vec::with_capacity(a.size_hint().unwrap_or(0).min(4096));
        while let Some(x) = a.next_element::<Variant>()? {
            items.push(x);
        }
        Ok(Variant::Array(Array::new(items)))
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut a: A) -> Result<Variant, A::Error> {
        let mut d = Dictionary::new();
        while let Some((k, v)) = a.next_entry::<Variant, Variant>()? {
            d.insert(k, v);
        }
        Ok(Variant::Dictionary(d))
    }
}

/// Takes the value from the slot (our Deserializer put it there).
struct SlotVisitor;

impl<'de> Visitor<'de> for SlotVisitor {
    type Value = Variant;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a Godot value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Variant, E> {
        take_stashed().ok_or_else(|| E::custom("gdvariant: stashed Variant missing"))
    }
}

impl<'de> Deserialize<'de> for Variant {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        if Active::is_active() {
            d.deserialize_newtype_struct(TOKEN, SlotVisitor)
        } else {
            d.deserialize_any(StructuralVisitor)
        }
    }
}

/// Every math type of the spec (`for_each_fixed!`): serialized as its Variant, read from its
/// Variant or from a Dictionary of its fields.
macro_rules! fixed_serde {
    ($($t:ident => $how:ident $($packed:ident)?),* $(,)?) => {$(
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                self.into_variant().serialize(s)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                let v = match Variant::deserialize(d)? {
                    fields @ Variant::Dictionary(_) => math_from_fields(Kind::$t, &fields)
                        .map_err(<D::Error as de::Error>::custom)?,
                    other => other,
                };
                $t::from_variant(&v).map_err(<D::Error as de::Error>::custom)
            }
        }
    )*};
}

for_each_fixed!(fixed_serde);
