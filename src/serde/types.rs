//! `Serialize`/`Deserialize` for `Variant` and the math types.
//!
//! Through `gdvariant::serde` they must arrive unchanged (a Vector2 must not become a
//! Dictionary), but serde has no way to pass a foreign value through a Serializer. So while
//! `gdvariant::serde` runs on this thread (`Active`), their impls put the value in a
//! thread-local slot and send a newtype struct named [`TOKEN`]; our Serializer and
//! Deserializer take the value from the slot. Outside that (JSON, ...) they are plain
//! structures: math types are maps of their fields, a Variant is its natural serde shape.

use crate::math::*;
use crate::variant::{Array, Dictionary, GString, Object, Variant};
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

fn v2(v: Vector2) -> Variant {
    Variant::Vector2(v)
}
fn v3(v: Vector3) -> Variant {
    Variant::Vector3(v)
}
fn v4(v: Vector4) -> Variant {
    Variant::Vector4(v)
}
fn v2i(v: Vector2i) -> Variant {
    Variant::Vector2i(v)
}
fn f(x: f64) -> Variant {
    Variant::Float(x)
}
fn i(x: i32) -> Variant {
    Variant::Int(x.into())
}
fn arr(items: Vec<Variant>) -> Variant {
    Variant::Array(Array::new(items))
}

/// The fields of a math value (`[("x", 3.0), ("y", 4.0)]`), or `None` for other kinds.
pub fn fields_of(v: &Variant) -> Option<Vec<(&'static str, Variant)>> {
    Some(match v {
        Variant::Vector2(a) => vec![("x", f(a.x)), ("y", f(a.y))],
        Variant::Vector2i(a) => vec![("x", i(a.x)), ("y", i(a.y))],
        Variant::Vector3(a) => vec![("x", f(a.x)), ("y", f(a.y)), ("z", f(a.z))],
        Variant::Vector3i(a) => vec![("x", i(a.x)), ("y", i(a.y)), ("z", i(a.z))],
        Variant::Vector4(a) => vec![("x", f(a.x)), ("y", f(a.y)), ("z", f(a.z)), ("w", f(a.w))],
        Variant::Quaternion(a) => vec![("x", f(a.x)), ("y", f(a.y)), ("z", f(a.z)), ("w", f(a.w))],
        Variant::Vector4i(a) => vec![("x", i(a.x)), ("y", i(a.y)), ("z", i(a.z)), ("w", i(a.w))],
        Variant::Rect2(a) => vec![("position", v2(a.position)), ("size", v2(a.size))],
        Variant::Rect2i(a) => vec![("position", v2i(a.position)), ("size", v2i(a.size))],
        Variant::Transform2D(a) => vec![("x", v2(a.x)), ("y", v2(a.y)), ("origin", v2(a.origin))],
        Variant::Plane(a) => vec![("normal", v3(a.normal)), ("d", f(a.d))],
        Variant::Aabb(a) => vec![("position", v3(a.position)), ("size", v3(a.size))],
        Variant::Basis(a) => vec![("rows", arr(a.rows.iter().copied().map(v3).collect()))],
        Variant::Transform3D(a) => vec![
            ("basis", Variant::Basis(Box::new(a.basis))),
            ("origin", v3(a.origin)),
        ],
        Variant::Projection(a) => {
            vec![("columns", arr(a.columns.iter().copied().map(v4).collect()))]
        }
        Variant::Color(c) => vec![
            ("r", (c.r).to_variant()),
            ("g", (c.g).to_variant()),
            ("b", (c.b).to_variant()),
            ("a", (c.a).to_variant()),
        ],
        _ => return None,
    })
}

/// The inverse of [`fields_of`] for a math type given as a Dictionary (other formats).
fn math_from_fields(kind: &str, d: &Dictionary) -> Result<Variant, String> {
    fn get<T: FromVariant>(d: &Dictionary, key: &str) -> Result<T, String> {
        let v = d
            .get_str(key)
            .ok_or_else(|| format!("missing field `{key}`"))?;
        T::from_variant(v).map_err(|e| e.in_field(key.to_string()).to_string())
    }
    fn n(d: &Dictionary, key: &str) -> Result<f64, String> {
        get::<f64>(d, key)
    }
    fn n32(d: &Dictionary, key: &str) -> Result<i32, String> {
        get::<i32>(d, key)
    }
    fn sub<T: FromVariant>(d: &Dictionary, key: &str, kind: &str) -> Result<T, String> {
        match d.get_str(key) {
            Some(Variant::Dictionary(inner)) => {
                let v = math_from_fields(kind, inner)?;
                T::from_variant(&v).map_err(|e| e.to_string())
            }
            Some(other) => T::from_variant(other).map_err(|e| e.to_string()),
            None => Err(format!("missing field `{key}`")),
        }
    }
    fn list<T: FromVariant, const N: usize>(
        d: &Dictionary,
        key: &str,
        kind: &str,
    ) -> Result<[T; N], String> {
        let items = match d.get_str(key) {
            Some(Variant::Array(a)) => &a.items,
            _ => return Err(format!("field `{key}` is not an Array")),
        };
        let parsed: Result<Vec<T>, String> = items
            .iter()
            .map(|x| match x {
                Variant::Dictionary(inner) => {
                    T::from_variant(&math_from_fields(kind, inner)?).map_err(|e| e.to_string())
                }
                other => T::from_variant(other).map_err(|e| e.to_string()),
            })
            .collect();
        parsed?
            .try_into()
            .map_err(|_| format!("field `{key}` needs {N} elements"))
    }
    Ok(match kind {
        "Vector2" => Variant::Vector2(Vector2::new(n(d, "x")?, n(d, "y")?)),
        "Vector2i" => Variant::Vector2i(Vector2i::new(n32(d, "x")?, n32(d, "y")?)),
        "Vector3" => Variant::Vector3(Vector3::new(n(d, "x")?, n(d, "y")?, n(d, "z")?)),
        "Vector3i" => Variant::Vector3i(Vector3i::new(n32(d, "x")?, n32(d, "y")?, n32(d, "z")?)),
        "Vector4" => Variant::Vector4(Vector4::new(n(d, "x")?, n(d, "y")?, n(d, "z")?, n(d, "w")?)),
        "Vector4i" => Variant::Vector4i(Vector4i::new(
            n32(d, "x")?,
            n32(d, "y")?,
            n32(d, "z")?,
            n32(d, "w")?,
        )),
        "Quaternion" => Variant::Quaternion(Quaternion::new(
            n(d, "x")?,
            n(d, "y")?,
            n(d, "z")?,
            n(d, "w")?,
        )),
        "Rect2" => Variant::Rect2(Rect2::new(
            sub(d, "position", "Vector2")?,
            sub(d, "size", "Vector2")?,
        )),
        "Rect2i" => Variant::Rect2i(Rect2i::new(
            sub(d, "position", "Vector2i")?,
            sub(d, "size", "Vector2i")?,
        )),
        "Transform2D" => Variant::Transform2D(Box::new(Transform2D::new(
            sub(d, "x", "Vector2")?,
            sub(d, "y", "Vector2")?,
            sub(d, "origin", "Vector2")?,
        ))),
        "Plane" => Variant::Plane(Plane::new(sub(d, "normal", "Vector3")?, n(d, "d")?)),
        "Aabb" => Variant::Aabb(Box::new(Aabb::new(
            sub(d, "position", "Vector3")?,
            sub(d, "size", "Vector3")?,
        ))),
        "Basis" => Variant::Basis(Box::new(Basis::new(list(d, "rows", "Vector3")?))),
        "Transform3D" => Variant::Transform3D(Box::new(Transform3D::new(
            sub(d, "basis", "Basis")?,
            sub(d, "origin", "Vector3")?,
        ))),
        "Projection" => {
            Variant::Projection(Box::new(Projection::new(list(d, "columns", "Vector4")?)))
        }
        "Color" => Variant::Color(Color::new(
            get(d, "r")?,
            get(d, "g")?,
            get(d, "b")?,
            get(d, "a")?,
        )),
        other => return Err(format!("`{other}` is not a math type")),
    })
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
            Variant::PackedStringArray(xs) => seq(s, xs, |x| Variant::String(GString::new(x))),
            Variant::PackedVector2Array(xs) => seq(s, xs, |x| Variant::Vector2(*x)),
            Variant::PackedVector2iArray(xs) => seq(s, xs, |x| Variant::Vector2i(*x)),
            Variant::PackedVector3Array(xs) => seq(s, xs, |x| Variant::Vector3(*x)),
            Variant::PackedVector3iArray(xs) => seq(s, xs, |x| Variant::Vector3i(*x)),
            Variant::PackedColorArray(xs) => seq(s, xs, |x| Variant::Color(*x)),
            Variant::PackedVector4Array(xs) => seq(s, xs, |x| Variant::Vector4(*x)),
            Variant::PackedVector4iArray(xs) => seq(s, xs, |x| Variant::Vector4i(*x)),
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

macro_rules! math_serde {
    ($($t:ident),*) => {$(
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                self.to_variant().serialize(s)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                let v = match Variant::deserialize(d)? {
                    Variant::Dictionary(fields) => math_from_fields(stringify!($t), &fields)
                        .map_err(<D::Error as de::Error>::custom)?,
                    other => other,
                };
                $t::from_variant(&v).map_err(<D::Error as de::Error>::custom)
            }
        }
    )*};
}

math_serde!(
    Vector2,
    Vector2i,
    Rect2,
    Rect2i,
    Vector3,
    Vector3i,
    Transform2D,
    Vector4,
    Vector4i,
    Plane,
    Quaternion,
    Aabb,
    Basis,
    Transform3D,
    Projection,
    Color
);
