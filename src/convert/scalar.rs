//! `ToVariant`/`FromVariant` for single values: bool, integers, floats, strings, math types
//! and the Variant building blocks.

use super::error::{FromVariantError, FromVariantErrorKind};
use super::{FromVariant, ToVariant, TypedArrayElement};
use crate::generated::kinds::Kind;
use crate::math::*;
use crate::variant::layout::{real_from_f32_bits, real_to_f32_bits};
use crate::variant::layout::{FixedLayout, PackedLayout};
use crate::variant::value::for_each_fixed;
use crate::variant::*;
use std::borrow::Cow;

impl ToVariant for bool {
    fn to_variant(&self) -> Variant {
        Variant::Bool(*self)
    }
}

impl FromVariant for bool {
    fn from_variant(v: &Variant) -> Result<bool, FromVariantError> {
        match v {
            Variant::Bool(b) => Ok(*b),
            other => Err(FromVariantError::mismatch("Bool", other)),
        }
    }
}

/// Integers: written as Int (`as i64`: `u64`/`usize` above `i64::MAX` wrap like the engine's
/// `Variant(uint64_t)` constructor, core/variant/variant.cpp); read from an Int that fits.
macro_rules! integers {
    ($($t:ty),*) => {$(
        impl ToVariant for $t {
            fn to_variant(&self) -> Variant {
                Variant::Int(*self as i64)
            }
        }
        impl FromVariant for $t {
            fn from_variant(v: &Variant) -> Result<$t, FromVariantError> {
                match v {
                    Variant::Int(n) => <$t>::try_from(*n).map_err(|_| {
                        FromVariantError::new(FromVariantErrorKind::OutOfRange {
                            value: *n,
                            target: stringify!($t),
                        })
                    }),
                    other => Err(FromVariantError::mismatch("Int", other)),
                }
            }
        }
        impl TypedArrayElement for $t {
            fn element_type() -> ElementType {
                ElementType::Builtin(Kind::Int)
            }
        }
    )*};
}

integers!(i8, i16, u16, u32, isize, u64, usize);

// `u8` and `i32` get their own impls: a `Vec` of them is a Packed array.
macro_rules! packed_integer {
    ($t:ty, $packed:ident) => {
        impl ToVariant for $t {
            fn to_variant(&self) -> Variant {
                Variant::Int(*self as i64)
            }
            fn __vec_to_variant(items: &[$t]) -> Variant {
                Variant::$packed(items.to_vec())
            }
            fn __vec_kind() -> Kind {
                Kind::$packed
            }
        }
        impl FromVariant for $t {
            fn from_variant(v: &Variant) -> Result<$t, FromVariantError> {
                match v {
                    Variant::Int(n) => <$t>::try_from(*n).map_err(|_| {
                        FromVariantError::new(FromVariantErrorKind::OutOfRange {
                            value: *n,
                            target: stringify!($t),
                        })
                    }),
                    other => Err(FromVariantError::mismatch("Int", other)),
                }
            }
            fn __vec_from_variant(v: &Variant) -> Result<Vec<$t>, FromVariantError> {
                match v {
                    Variant::$packed(xs) => Ok(xs.clone()),
                    other => super::private::vec_from_elements(other),
                }
            }
        }
        impl TypedArrayElement for $t {
            fn element_type() -> ElementType {
                ElementType::Builtin(Kind::Int)
            }
        }
    };
}

packed_integer!(u8, PackedByteArray);
packed_integer!(i32, PackedInt32Array);

packed_integer!(i64, PackedInt64Array);

/// Whether `f64` holds `n` exactly (i128 so that `i64::MAX as f64`, which rounds up, is caught).
fn int_fits_f64(n: i64) -> bool {
    (n as f64) as i128 == n as i128
}

fn int_fits_f32(n: i64) -> bool {
    (n as f32) as i128 == n as i128
}

impl ToVariant for f64 {
    fn to_variant(&self) -> Variant {
        Variant::Float(*self)
    }
    fn __vec_to_variant(items: &[f64]) -> Variant {
        Variant::PackedFloat64Array(items.to_vec())
    }
    fn __vec_kind() -> Kind {
        Kind::PackedFloat64Array
    }
}

impl FromVariant for f64 {
    fn from_variant(v: &Variant) -> Result<f64, FromVariantError> {
        match v {
            Variant::Float(x) => Ok(*x),
            Variant::Int(n) if int_fits_f64(*n) => Ok(*n as f64),
            other => Err(FromVariantError::mismatch("Float", other)),
        }
    }
    fn __vec_from_variant(v: &Variant) -> Result<Vec<f64>, FromVariantError> {
        match v {
            Variant::PackedFloat64Array(xs) => Ok(xs.clone()),
            other => super::private::vec_from_elements(other),
        }
    }
}

// f32 <-> f64 through the bit helpers of `layout`, so NaN payloads survive (a plain `as`
// cast may quieten a signalling NaN).
impl ToVariant for f32 {
    fn to_variant(&self) -> Variant {
        Variant::Float(real_from_f32_bits(self.to_bits()))
    }
    fn __vec_to_variant(items: &[f32]) -> Variant {
        Variant::PackedFloat32Array(items.to_vec())
    }
    fn __vec_kind() -> Kind {
        Kind::PackedFloat32Array
    }
}

impl FromVariant for f32 {
    fn from_variant(v: &Variant) -> Result<f32, FromVariantError> {
        match v {
            Variant::Float(x) => Ok(f32::from_bits(real_to_f32_bits(*x))),
            Variant::Int(n) if int_fits_f32(*n) => Ok(*n as f32),
            other => Err(FromVariantError::mismatch("Float", other)),
        }
    }
    fn __vec_from_variant(v: &Variant) -> Result<Vec<f32>, FromVariantError> {
        match v {
            Variant::PackedFloat32Array(xs) => Ok(xs.clone()),
            other => super::private::vec_from_elements(other),
        }
    }
}

impl TypedArrayElement for f32 {
    fn element_type() -> ElementType {
        ElementType::Builtin(Kind::Float)
    }
}

impl TypedArrayElement for f64 {
    fn element_type() -> ElementType {
        ElementType::Builtin(Kind::Float)
    }
}

impl ToVariant for String {
    fn to_variant(&self) -> Variant {
        Variant::String(GString::new(self))
    }
    fn __vec_to_variant(items: &[String]) -> Variant {
        Variant::PackedStringArray(items.iter().map(GString::from).collect())
    }
    fn __vec_kind() -> Kind {
        Kind::PackedStringArray
    }
}

impl FromVariant for String {
    fn from_variant(v: &Variant) -> Result<String, FromVariantError> {
        match v {
            Variant::String(s) => Ok(s.to_string()),
            // GDScript converts StringName to String implicitly; 4.x `{a = 1}` keys are StringNames.
            Variant::StringName(s) => Ok(s.0.to_string()),
            other => Err(FromVariantError::mismatch("String", other)),
        }
    }
    fn __vec_from_variant(v: &Variant) -> Result<Vec<String>, FromVariantError> {
        match v {
            Variant::PackedStringArray(xs) => Ok(xs.iter().map(|s| s.to_string()).collect()),
            other => super::private::vec_from_elements(other),
        }
    }
}

impl ToVariant for str {
    fn to_variant(&self) -> Variant {
        Variant::String(GString::new(self))
    }
}

impl ToVariant for Cow<'_, str> {
    fn to_variant(&self) -> Variant {
        Variant::String(GString::new(self))
    }
}

impl FromVariant for Cow<'static, str> {
    fn from_variant(v: &Variant) -> Result<Self, FromVariantError> {
        String::from_variant(v).map(Cow::Owned)
    }
}

impl TypedArrayElement for String {
    fn element_type() -> ElementType {
        ElementType::Builtin(Kind::String)
    }
}

impl ToVariant for StringName {
    fn to_variant(&self) -> Variant {
        Variant::StringName(self.clone())
    }
}

impl FromVariant for StringName {
    fn from_variant(v: &Variant) -> Result<StringName, FromVariantError> {
        match v {
            Variant::StringName(s) => Ok(s.clone()),
            Variant::String(s) => Ok(StringName(s.clone())),
            other => Err(FromVariantError::mismatch("StringName", other)),
        }
    }
}

impl ToVariant for NodePath {
    fn to_variant(&self) -> Variant {
        Variant::NodePath(Box::new(self.clone()))
    }
}

impl FromVariant for NodePath {
    fn from_variant(v: &Variant) -> Result<NodePath, FromVariantError> {
        match v {
            Variant::NodePath(p) => Ok((**p).clone()),
            // GDScript converts a String to a NodePath implicitly.
            Variant::String(s) => Ok(NodePath::parse(s)),
            other => Err(FromVariantError::mismatch("NodePath", other)),
        }
    }
}

/// Types whose Variant is exactly one variant holding them (no liberal reading).
macro_rules! exact {
    ($($t:ty => $v:ident $(boxed $b:tt)?),* $(,)?) => {$(
        impl ToVariant for $t {
            fn to_variant(&self) -> Variant {
                exact!(@wrap $v, self $(, $b)?)
            }
        }
        impl FromVariant for $t {
            fn from_variant(v: &Variant) -> Result<$t, FromVariantError> {
                match v {
                    Variant::$v(x) => Ok(exact!(@unwrap x $(, $b)?)),
                    other => Err(FromVariantError::mismatch(Kind::$v.name(), other)),
                }
            }
        }
        impl TypedArrayElement for $t {
            fn element_type() -> ElementType {
                ElementType::Builtin(Kind::$v)
            }
        }
    )*};
    (@wrap $v:ident, $s:ident) => { Variant::$v($s.clone()) };
    (@wrap $v:ident, $s:ident, $b:tt) => { Variant::$v(Box::new($s.clone())) };
    (@unwrap $x:ident) => { $x.clone() };
    (@unwrap $x:ident, $b:tt) => { (**$x).clone() };
}

exact!(Dictionary => Dictionary, Array => Array, Signal => Signal);

/// Every math type of the spec (`for_each_fixed!`): exactly its own variant; a `Vec` of it is
/// its packed array where the spec says so (`packed`), else an Array.
macro_rules! fixed_convert {
    ($($t:ident => $how:ident $($packed:ident)?),* $(,)?) => {$(
        impl ToVariant for $t {
            fn to_variant(&self) -> Variant {
                self.into_variant()
            }
            fixed_convert!(@vec_to $t $how $($packed)?);
        }
        impl FromVariant for $t {
            fn from_variant(v: &Variant) -> Result<$t, FromVariantError> {
                <$t as FixedLayout>::from_value(v)
                    .ok_or_else(|| FromVariantError::mismatch(Kind::$t.name(), v))
            }
            fixed_convert!(@vec_from $t $how $($packed)?);
        }
        impl TypedArrayElement for $t {
            fn element_type() -> ElementType {
                ElementType::Builtin(Kind::$t)
            }
        }
    )*};
    (@vec_to $t:ident packed $packed:ident) => {
        fn __vec_to_variant(items: &[$t]) -> Variant {
            <$t as PackedLayout>::pack(items.to_vec())
        }
        fn __vec_kind() -> Kind {
            Kind::$packed
        }
    };
    (@vec_from $t:ident packed $packed:ident) => {
        fn __vec_from_variant(v: &Variant) -> Result<Vec<$t>, FromVariantError> {
            match <$t as PackedLayout>::unpack(v) {
                Some(xs) => Ok(xs.to_vec()),
                None => super::private::vec_from_elements(v),
            }
        }
    };
    (@vec_to $t:ident array) => {};
    (@vec_from $t:ident array) => {};
}

for_each_fixed!(fixed_convert);

impl TypedArrayElement for StringName {
    fn element_type() -> ElementType {
        ElementType::Builtin(Kind::StringName)
    }
}

impl TypedArrayElement for NodePath {
    fn element_type() -> ElementType {
        ElementType::Builtin(Kind::NodePath)
    }
}

impl TypedArrayElement for bool {
    fn element_type() -> ElementType {
        ElementType::Builtin(Kind::Bool)
    }
}

impl ToVariant for Variant {
    fn to_variant(&self) -> Variant {
        self.clone()
    }
    fn as_variant(&self) -> std::borrow::Cow<'_, Variant> {
        std::borrow::Cow::Borrowed(self)
    }
}

impl FromVariant for Variant {
    fn from_variant(v: &Variant) -> Result<Variant, FromVariantError> {
        Ok(v.clone())
    }
    /// A missing key is `Nil`, as `dict.get(key)` gives in GDScript.
    fn __from_missing() -> Option<Variant> {
        Some(Variant::Nil)
    }
}

impl ToVariant for Object {
    fn to_variant(&self) -> Variant {
        Variant::Object(self.clone())
    }
}

impl FromVariant for Object {
    fn from_variant(v: &Variant) -> Result<Object, FromVariantError> {
        match v {
            Variant::Object(o) => Ok(o.clone()),
            // The engines write a null Object as Nil.
            Variant::Nil => Ok(Object::Null),
            other => Err(FromVariantError::mismatch("Object", other)),
        }
    }
}

impl ToVariant for () {
    fn to_variant(&self) -> Variant {
        Variant::Nil
    }
}

impl FromVariant for () {
    fn from_variant(v: &Variant) -> Result<(), FromVariantError> {
        match v {
            Variant::Nil => Ok(()),
            other => Err(FromVariantError::mismatch("Nil", other)),
        }
    }
}
