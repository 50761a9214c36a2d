//! Helpers that `#[derive(GodotVariant)]` expands to; not a stable API.
//!
//! The generated code stays small and readable because each step (find the Dictionary, read a
//! field, report an unknown key) is one call here.

use super::error::{FromVariantError, FromVariantErrorKind};
use super::FromVariant;
use crate::variant::*;

/// The named values of a struct: the entries of a Dictionary, or the properties of a full
/// Object.
pub enum Fields<'a> {
    /// A Dictionary's entries.
    Dictionary(&'a Dictionary),
    /// A full object's properties.
    Object(&'a FullObject),
}

impl<'a> Fields<'a> {
    /// The entries of `v`, which must be a Dictionary.
    pub fn dictionary(v: &'a Variant) -> Result<Fields<'a>, FromVariantError> {
        match v {
            Variant::Dictionary(d) => Ok(Fields::Dictionary(d)),
            other => Err(FromVariantError::mismatch("Dictionary", other)),
        }
    }

    /// The properties of `v`, which must be a full object of class `class`.
    pub fn object(v: &'a Variant, class: &'static str) -> Result<Fields<'a>, FromVariantError> {
        match v {
            Variant::Object(Object::Full(o)) if o.class == class => Ok(Fields::Object(o)),
            Variant::Object(Object::Full(o)) => {
                Err(FromVariantError::new(FromVariantErrorKind::WrongClass {
                    expected: class.into(),
                    found: o.class.clone(),
                }))
            }
            other => Err(FromVariantError::mismatch(
                format!("a full object of class `{class}`"),
                other,
            )),
        }
    }

    /// Every entry as (name, value); the name is `None` for a key that is not a String or
    /// StringName (4.x `{a = 1}` literals make StringName keys in memory).
    pub fn iter(&self) -> Box<dyn Iterator<Item = (Option<&'a str>, &'a Variant)> + 'a> {
        match *self {
            Fields::Dictionary(d) => Box::new(d.entries().iter().map(|(k, v)| {
                let name = match k {
                    Variant::String(s) => Some(s.as_str()),
                    Variant::StringName(s) => Some(s.0.as_str()),
                    _ => None,
                };
                (name, v)
            })),
            Fields::Object(o) => Box::new(o.properties.iter().map(|(k, v)| (Some(k.as_str()), v))),
        }
    }

    /// The value named `name`, if any.
    pub fn get(&self, name: &str) -> Option<&'a Variant> {
        self.iter().find(|(k, _)| *k == Some(name)).map(|(_, v)| v)
    }
}

/// `unknown key `name`` (under `#[godot(deny_unknown_fields)]`).
pub fn unknown_field(name: Option<&str>) -> FromVariantError {
    FromVariantError::new(FromVariantErrorKind::UnknownField(
        name.unwrap_or("<not a String>").to_string(),
    ))
}

/// A present field, converted, with its name in the error path.
pub fn convert<T: FromVariant>(v: &Variant, name: &'static str) -> Result<T, FromVariantError> {
    T::from_variant(v).map_err(|e| e.in_field(name))
}

/// An absent field: `None` for an `Option`, else a `missing key` error.
pub fn missing<T: FromVariant>(name: &'static str) -> Result<T, FromVariantError> {
    T::__from_missing().ok_or_else(|| FromVariantError::missing_field(name))
}

/// A `missing key` error (for `with` fields, whose type need not be `FromVariant`).
pub fn missing_field(name: &'static str) -> FromVariantError {
    FromVariantError::missing_field(name)
}

/// The tag of a data enum: the String (or StringName) under `tag`.
pub fn tag<'a>(fields: &Fields<'a>, tag: &'static str) -> Result<&'a str, FromVariantError> {
    match fields.get(tag) {
        Some(Variant::String(s)) => Ok(s),
        Some(Variant::StringName(s)) => Ok(&s.0),
        Some(other) => Err(FromVariantError::mismatch("String", other).in_field(tag)),
        None => Err(FromVariantError::missing_field(tag)),
    }
}

/// `unknown variant "Jump", expected one of "Idle", "Run"`.
pub fn unknown_variant(found: &str, expected: &[&str]) -> FromVariantError {
    FromVariantError::new(FromVariantErrorKind::UnknownVariant {
        found: format!("{found:?}"),
        expected: expected.iter().map(|e| format!("{e:?}")).collect(),
    })
}

/// `unknown variant 7, expected one of Warrior = 0, Mage = 5`.
pub fn unknown_int_variant(found: i64, expected: &[(&str, i64)]) -> FromVariantError {
    FromVariantError::new(FromVariantErrorKind::UnknownVariant {
        found: found.to_string(),
        expected: expected.iter().map(|(n, v)| format!("{n} = {v}")).collect(),
    })
}

/// The Int of a unit-only enum.
pub fn int_of(v: &Variant) -> Result<i64, FromVariantError> {
    match v {
        Variant::Int(n) => Ok(*n),
        other => Err(FromVariantError::mismatch("Int", other)),
    }
}

/// The String (or StringName) of a unit-only enum written as a string.
pub fn str_of(v: &Variant) -> Result<&str, FromVariantError> {
    match v {
        Variant::String(s) => Ok(s),
        Variant::StringName(s) => Ok(&s.0),
        other => Err(FromVariantError::mismatch("String", other)),
    }
}

/// The elements of an Array of exactly `n` elements (a tuple or tuple struct).
pub fn array_exact(v: &Variant, n: usize) -> Result<&[Variant], FromVariantError> {
    match v {
        Variant::Array(a) if a.items.len() == n => Ok(&a.items),
        Variant::Array(a) => Err(FromVariantError::new(FromVariantErrorKind::WrongLength {
            expected: n,
            found: a.items.len(),
        })),
        other => Err(FromVariantError::mismatch("Array", other)),
    }
}

/// One element of a tuple struct, with its index in the error path.
pub fn element<T: FromVariant>(v: &Variant, index: usize) -> Result<T, FromVariantError> {
    T::from_variant(v).map_err(|e| e.at_index(index))
}

/// A Dictionary with String keys in this order (the derive checks that they are distinct).
pub fn dictionary(entries: Vec<(&'static str, Variant)>) -> Variant {
    Variant::Dictionary(Dictionary::from_unique(
        entries
            .into_iter()
            .map(|(k, v)| (Variant::String(GString::new(k)), v))
            .collect(),
        None,
    ))
}

/// A full object of `class` with these properties, in this order.
pub fn full_object(class: &'static str, properties: Vec<(&'static str, Variant)>) -> Variant {
    Variant::Object(Object::Full(Box::new(FullObject {
        class: class.to_string(),
        properties: properties
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    })))
}

/// The entries of a struct with `#[godot(flatten)]` fields, one per key: a key written twice
/// (a flattened struct sharing a key with the parent, which the derive cannot see across
/// types) keeps its first place and takes the later value, as `dict[key] = value` would.
pub fn merged(mut entries: Vec<(&'static str, Variant)>) -> Vec<(&'static str, Variant)> {
    let mut i = 0;
    while i < entries.len() {
        if let Some(first) = entries[..i].iter().position(|(k, _)| *k == entries[i].0) {
            let (_, later) = entries.remove(i);
            entries[first].1 = later;
        } else {
            i += 1;
        }
    }
    entries
}

/// A struct whose fields can be written into another struct's Dictionary
/// (`#[godot(flatten)]`, as serde's flatten): implemented by `#[derive(GodotVariant)]` for
/// structs with named fields. Apart from [`FlattenFrom`] so that each has the bounds of its
/// direction (`T: ToVariant` here).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be flattened",
    label = "`#[godot(flatten)]` needs a struct with named fields that derives `GodotVariant`"
)]
pub trait FlattenTo {
    /// Appends the fields' entries (flattened ones included) in declaration order.
    fn __write_fields(&self, out: &mut Vec<(&'static str, Variant)>);
}

/// The reading half of [`FlattenTo`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be flattened",
    label = "`#[godot(flatten)]` needs a struct with named fields that derives `GodotVariant`"
)]
pub trait FlattenFrom: Sized {
    /// Reads the fields from the parent's entries; keys of the parent are not unknown here
    /// (the parent checks `deny_unknown_fields` with [`FlattenFrom::__is_key`]).
    fn __read_fields(fields: &Fields<'_>) -> Result<Self, FromVariantError>;
    /// Whether `name` is read by this struct (a field's key or alias, or a flattened key).
    fn __is_key(name: &str) -> bool;
}

/// An untyped Array of these elements.
pub fn array(items: Vec<Variant>) -> Variant {
    Variant::Array(Array::new(items))
}

/// A `Vec` read element by element from an Array or any Packed array.
pub fn vec_from_elements<T: FromVariant>(v: &Variant) -> Result<Vec<T>, FromVariantError> {
    fn each<T: FromVariant, E>(
        xs: &[E],
        f: impl Fn(&E) -> Variant,
    ) -> Result<Vec<T>, FromVariantError> {
        xs.iter()
            .enumerate()
            .map(|(i, x)| T::from_variant(&f(x)).map_err(|e| e.at_index(i)))
            .collect()
    }
    match v {
        Variant::Array(a) => a
            .items
            .iter()
            .enumerate()
            .map(|(i, x)| T::from_variant(x).map_err(|e| e.at_index(i)))
            .collect(),
        Variant::PackedByteArray(xs) => each(xs, |x| Variant::Int(*x as i64)),
        Variant::PackedInt32Array(xs) => each(xs, |x| Variant::Int(*x as i64)),
        Variant::PackedInt64Array(xs) => each(xs, |x| Variant::Int(*x)),
        Variant::PackedFloat32Array(xs) => each(xs, |x| {
            Variant::Float(crate::variant::layout::real_from_f32_bits(x.to_bits()))
        }),
        Variant::PackedFloat64Array(xs) => each(xs, |x| Variant::Float(*x)),
        Variant::PackedStringArray(xs) => each(xs, |x| Variant::String(x.clone())),
        // Packed arrays of math values (the spec's `packed` kinds).
        other => match other.as_packed() {
            Some(p) => (0..p.len())
                .map(|i| {
                    let x = p.element_variant(i).unwrap_or_default();
                    T::from_variant(&x).map_err(|e| e.at_index(i))
                })
                .collect(),
            None => Err(FromVariantError::mismatch("Array", other)),
        },
    }
}
