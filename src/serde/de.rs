//! `VariantDeserializer`: a [`Variant`] to any `Deserialize` value.

use super::types;
use super::Error;
use crate::convert::PathSegment;
use crate::variant::{GString, Variant};
use ::serde::de::{self, IntoDeserializer, Visitor};
use ::serde::forward_to_deserialize_any;

/// A serde Deserializer reading one [`Variant`] (owned: strings and containers are moved
/// out, not copied).
///
/// It is self-describing (`deserialize_any` works): Nil is unit, Int `i64`, Float `f64`,
/// String/StringName/NodePath strings, Array and Packed arrays sequences, Dictionaries and
/// full Objects maps, math types maps of their fields (`{x, y}`). Structs also accept a
/// Dictionary with StringName keys; enums accept a String (unit variant), an Int (variant
/// index) or a one-entry Dictionary `{variant: content}`.
pub struct VariantDeserializer {
    value: Variant,
}

impl VariantDeserializer {
    /// A deserializer of `value`.
    pub fn new(value: Variant) -> VariantDeserializer {
        VariantDeserializer { value }
    }
}

fn unexpected(v: &Variant) -> de::Unexpected<'_> {
    match v {
        Variant::Nil => de::Unexpected::Unit,
        Variant::Bool(b) => de::Unexpected::Bool(*b),
        Variant::Int(i) => de::Unexpected::Signed(*i),
        Variant::Float(f) => de::Unexpected::Float(*f),
        Variant::String(s) => de::Unexpected::Str(s),
        Variant::Array(_) => de::Unexpected::Seq,
        Variant::Dictionary(_) => de::Unexpected::Map,
        other => de::Unexpected::Other(other.kind().name()),
    }
}

/// The elements of an Array or a Packed array, as Variants.
fn elements(v: Variant) -> Result<Vec<Variant>, Variant> {
    use crate::variant::layout::real_from_f32_bits;
    fn map<E>(xs: Vec<E>, f: impl Fn(E) -> Variant) -> Vec<Variant> {
        xs.into_iter().map(f).collect()
    }
    Ok(match v {
        Variant::Array(a) => a.items,
        Variant::PackedByteArray(xs) => map(xs, |x| Variant::Int(x.into())),
        Variant::PackedInt32Array(xs) => map(xs, |x| Variant::Int(x.into())),
        Variant::PackedInt64Array(xs) => map(xs, Variant::Int),
        Variant::PackedFloat32Array(xs) => {
            map(xs, |x| Variant::Float(real_from_f32_bits(x.to_bits())))
        }
        Variant::PackedFloat64Array(xs) => map(xs, Variant::Float),
        Variant::PackedStringArray(xs) => map(xs, Variant::String),
        // Packed arrays of math values (the spec's `packed` kinds).
        other => match other.as_packed() {
            Some(p) => (0..p.len()).filter_map(|i| p.element_variant(i)).collect(),
            None => return Err(other),
        },
    })
}

impl<'de> de::Deserializer<'de> for VariantDeserializer {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let v = match elements(self.value) {
            Ok(items) => return visitor.visit_seq(SeqAccess::new(items)),
            Err(v) => v,
        };
        match v {
            Variant::Nil => visitor.visit_unit(),
            Variant::Bool(b) => visitor.visit_bool(b),
            Variant::Int(i) => visitor.visit_i64(i),
            Variant::Float(f) => visitor.visit_f64(f),
            Variant::String(s) => visitor.visit_string(s.into_string()),
            Variant::StringName(s) => visitor.visit_string(s.0.into_string()),
            Variant::NodePath(p) => visitor.visit_string(p.to_string()),
            Variant::Dictionary(d) => visitor.visit_map(MapAccess::new(d.into_entries(), false)),
            // Properties and math-type fields are named like struct fields (`.pos`).
            Variant::Object(crate::Object::Full(o)) => visitor.visit_map(MapAccess::new(
                o.properties
                    .into_iter()
                    .map(|(k, v)| (Variant::String(k.into()), v))
                    .collect(),
                true,
            )),
            Variant::Object(crate::Object::Null) => visitor.visit_unit(),
            Variant::Object(crate::Object::Id(id)) | Variant::Rid(id) => visitor.visit_u64(id),
            other => match types::fields_of(&other) {
                Some(fields) => visitor.visit_map(MapAccess::new(
                    fields
                        .into_iter()
                        .map(|(k, v)| (Variant::String(GString::new(k)), v))
                        .collect(),
                    true,
                )),
                None => Err(de::Error::invalid_type(unexpected(&other), &visitor)),
            },
        }
    }

    /// As `deserialize_any`, except that a Dictionary's String keys are field names in the
    /// path of an error (`.level`, not `["level"]`).
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.value {
            Variant::Dictionary(d) => visitor.visit_map(MapAccess::new(d.into_entries(), true)),
            other => VariantDeserializer::new(other).deserialize_any(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Variant::Nil | Variant::Object(crate::Object::Null) => visitor.visit_none(),
            other => visitor.visit_some(VariantDeserializer::new(other)),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == types::TOKEN {
            // `Variant` / math-type Deserialize: hand the value over whole (see `types`).
            types::stash(self.value);
            return visitor.visit_unit();
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Variant::PackedByteArray(b) => visitor.visit_byte_buf(b),
            other => VariantDeserializer::new(other).deserialize_any(visitor),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.value {
            Variant::String(s) => visitor.visit_enum(IntoDeserializer::<Error>::into_deserializer(
                s.into_string(),
            )),
            Variant::StringName(s) => visitor.visit_enum(
                IntoDeserializer::<Error>::into_deserializer(s.0.into_string()),
            ),
            Variant::Int(i) => {
                let index = u32::try_from(i).map_err(|_| {
                    <Error as de::Error>::invalid_value(
                        de::Unexpected::Signed(i),
                        &"a variant index",
                    )
                })?;
                visitor.visit_enum(IntoDeserializer::<Error>::into_deserializer(index))
            }
            Variant::Dictionary(d) if d.len() == 1 => {
                let (k, v) = d.into_entries().pop().expect("one entry");
                visitor.visit_enum(EnumAccess { tag: k, content: v })
            }
            other => Err(de::Error::invalid_type(
                unexpected(&other),
                &"a String, an Int or a Dictionary of one entry",
            )),
        }
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        unit unit_struct seq tuple tuple_struct map identifier ignored_any
    }
}

/// Array elements, one at a time; `index` is the next one's, for the path of an error.
struct SeqAccess {
    items: std::vec::IntoIter<Variant>,
    index: usize,
}

impl SeqAccess {
    fn new(items: Vec<Variant>) -> SeqAccess {
        SeqAccess {
            items: items.into_iter(),
            index: 0,
        }
    }
}

impl<'de> de::SeqAccess<'de> for SeqAccess {
    type Error = Error;
    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        match self.items.next() {
            Some(v) => {
                let i = self.index;
                self.index += 1;
                seed.deserialize(VariantDeserializer::new(v))
                    .map(Some)
                    .map_err(|e| e.at(PathSegment::Index(i)))
            }
            None => Ok(None),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// Dictionary entries, one at a time. The current key is kept for the path of an error in
/// its value; `is_struct` says whether String keys are field names (`.level`) or map keys
/// (`["level"]`).
struct MapAccess {
    entries: std::vec::IntoIter<(Variant, Variant)>,
    value: Option<(Variant, Variant)>,
    is_struct: bool,
}

impl MapAccess {
    fn new(entries: Vec<(Variant, Variant)>, is_struct: bool) -> MapAccess {
        MapAccess {
            entries: entries.into_iter(),
            value: None,
            is_struct,
        }
    }
}

impl<'de> de::MapAccess<'de> for MapAccess {
    type Error = Error;
    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        match self.entries.next() {
            Some((k, v)) => {
                // A clone of the key, for the path: only the error path reads it.
                self.value = Some((k.clone(), v));
                seed.deserialize(VariantDeserializer::new(k)).map(Some)
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let (k, v) = self
            .value
            .take()
            .ok_or_else(|| Error::Message("map value requested before its key".into()))?;
        seed.deserialize(VariantDeserializer::new(v))
            .map_err(|e| e.at_entry(&k, self.is_struct))
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// `{variant: content}`.
struct EnumAccess {
    tag: Variant,
    content: Variant,
}

impl<'de> de::EnumAccess<'de> for EnumAccess {
    type Error = Error;
    type Variant = VariantAccess;
    fn variant_seed<S: de::DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, VariantAccess), Error> {
        let name = self.tag.clone();
        let tag = seed.deserialize(VariantDeserializer::new(self.tag))?;
        Ok((tag, VariantAccess(self.content, name)))
    }
}

/// The content of `{variant: content}`, and the variant's key for the path of an error.
struct VariantAccess(Variant, Variant);

impl<'de> de::VariantAccess<'de> for VariantAccess {
    type Error = Error;
    fn unit_variant(self) -> Result<(), Error> {
        match self.0 {
            Variant::Nil => Ok(()),
            other => Err(
                <Error as de::Error>::invalid_type(unexpected(&other), &"unit variant")
                    .at_entry(&self.1, true),
            ),
        }
    }
    fn newtype_variant_seed<T: de::DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(VariantDeserializer::new(self.0))
            .map_err(|e| e.at_entry(&self.1, true))
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_seq(VariantDeserializer::new(self.0), visitor)
            .map_err(|e| e.at_entry(&self.1, true))
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_struct(VariantDeserializer::new(self.0), "", fields, visitor)
            .map_err(|e| e.at_entry(&self.1, true))
    }
}
