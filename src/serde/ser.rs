//! `VariantSerializer`: any `Serialize` value to a [`Variant`].

use super::types;
use super::Error;
use crate::convert::PathSegment;
use crate::variant::{Array, Dictionary, GString, Variant};
use ::serde::ser::{self, Serialize};

/// A serde Serializer whose output is a [`Variant`].
///
/// Structs and maps become Dictionaries (String keys for structs), sequences and tuples
/// Arrays, unit variants Strings, other enum variants `{name: content}`, `None` and `()` Nil,
/// byte buffers PackedByteArray. `u64` above `i64::MAX` and `i128` are errors (Godot ints are
/// 64-bit signed).
#[derive(Clone, Copy, Debug, Default)]
pub struct VariantSerializer;

fn single(key: &'static str, value: Variant) -> Variant {
    let mut d = Dictionary::new();
    d.insert(Variant::String(GString::new(key)), value);
    Variant::Dictionary(d)
}

impl ser::Serializer for VariantSerializer {
    type Ok = Variant;
    type Error = Error;
    type SerializeSeq = SeqSerializer;
    type SerializeTuple = SeqSerializer;
    type SerializeTupleStruct = SeqSerializer;
    type SerializeTupleVariant = SeqSerializer;
    type SerializeMap = MapSerializer;
    type SerializeStruct = MapSerializer;
    type SerializeStructVariant = MapSerializer;

    fn serialize_bool(self, v: bool) -> Result<Variant, Error> {
        Ok(Variant::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Variant, Error> {
        Ok(Variant::Int(v.into()))
    }
    fn serialize_i16(self, v: i16) -> Result<Variant, Error> {
        Ok(Variant::Int(v.into()))
    }
    fn serialize_i32(self, v: i32) -> Result<Variant, Error> {
        Ok(Variant::Int(v.into()))
    }
    fn serialize_i64(self, v: i64) -> Result<Variant, Error> {
        Ok(Variant::Int(v))
    }
    fn serialize_u8(self, v: u8) -> Result<Variant, Error> {
        Ok(Variant::Int(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Result<Variant, Error> {
        Ok(Variant::Int(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Result<Variant, Error> {
        Ok(Variant::Int(v.into()))
    }
    fn serialize_u64(self, v: u64) -> Result<Variant, Error> {
        i64::try_from(v)
            .map(Variant::Int)
            .map_err(|_| Error::Message(format!("{v} does not fit a Godot int (i64)")))
    }
    fn serialize_f32(self, v: f32) -> Result<Variant, Error> {
        Ok(Variant::Float(crate::variant::layout::real_from_f32_bits(
            v.to_bits(),
        )))
    }
    fn serialize_f64(self, v: f64) -> Result<Variant, Error> {
        Ok(Variant::Float(v))
    }
    fn serialize_char(self, v: char) -> Result<Variant, Error> {
        Ok(Variant::String(GString::new(v.encode_utf8(&mut [0; 4]))))
    }
    fn serialize_str(self, v: &str) -> Result<Variant, Error> {
        Ok(Variant::String(GString::new(v)))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Variant, Error> {
        Ok(Variant::PackedByteArray(v.to_vec()))
    }
    fn serialize_none(self) -> Result<Variant, Error> {
        Ok(Variant::Nil)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Variant, Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Variant, Error> {
        Ok(Variant::Nil)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Variant, Error> {
        Ok(Variant::Nil)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Variant, Error> {
        Ok(Variant::String(GString::new(variant)))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Variant, Error> {
        if name == types::TOKEN {
            // A `Variant` (or math type) handed over whole: see `types`.
            return types::take_stashed()
                .ok_or_else(|| Error::Message("gdvariant: stashed Variant missing".into()));
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Variant, Error> {
        let content = value.serialize(self).map_err(|e| e.in_field(variant))?;
        Ok(single(variant, content))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSerializer, Error> {
        Ok(SeqSerializer {
            items: Vec::with_capacity(len.unwrap_or(0).min(4096)),
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqSerializer, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<SeqSerializer, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<SeqSerializer, Error> {
        let mut s = self.serialize_seq(Some(len))?;
        s.variant = Some(variant);
        Ok(s)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<MapSerializer, Error> {
        Ok(MapSerializer {
            dict: Dictionary::new(),
            key: None,
            variant: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<MapSerializer, Error> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<MapSerializer, Error> {
        let mut m = self.serialize_map(Some(len))?;
        m.variant = Some(variant);
        Ok(m)
    }
}

/// Collects Array elements (`variant` set for a tuple variant).
pub struct SeqSerializer {
    items: Vec<Variant>,
    variant: Option<&'static str>,
}

impl SeqSerializer {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let item = value.serialize(VariantSerializer).map_err(|e| {
            let e = e.at(PathSegment::Index(self.items.len()));
            match self.variant {
                Some(name) => e.in_field(name),
                None => e,
            }
        })?;
        self.items.push(item);
        Ok(())
    }
    fn finish(self) -> Variant {
        let array = Variant::Array(Array::new(self.items));
        match self.variant {
            Some(name) => single(name, array),
            None => array,
        }
    }
}

impl ser::SerializeSeq for SeqSerializer {
    type Ok = Variant;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Result<Variant, Error> {
        Ok(self.finish())
    }
}

impl ser::SerializeTuple for SeqSerializer {
    type Ok = Variant;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Result<Variant, Error> {
        Ok(self.finish())
    }
}

impl ser::SerializeTupleStruct for SeqSerializer {
    type Ok = Variant;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Result<Variant, Error> {
        Ok(self.finish())
    }
}

impl ser::SerializeTupleVariant for SeqSerializer {
    type Ok = Variant;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Result<Variant, Error> {
        Ok(self.finish())
    }
}

/// Collects Dictionary entries (`variant` set for a struct variant).
pub struct MapSerializer {
    dict: Dictionary,
    key: Option<Variant>,
    variant: Option<&'static str>,
}

impl MapSerializer {
    fn finish(self) -> Variant {
        let dict = Variant::Dictionary(self.dict);
        match self.variant {
            Some(name) => single(name, dict),
            None => dict,
        }
    }
}

impl ser::SerializeMap for MapSerializer {
    type Ok = Variant;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key = Some(key.serialize(VariantSerializer)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let key = self
            .key
            .take()
            .ok_or_else(|| Error::Message("map value without a key".into()))?;
        let value = value
            .serialize(VariantSerializer)
            .map_err(|e| e.at_entry(&key, false))?;
        self.dict.insert(key, value);
        Ok(())
    }
    fn end(self) -> Result<Variant, Error> {
        Ok(self.finish())
    }
}

impl ser::SerializeStruct for MapSerializer {
    type Ok = Variant;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        let value = value.serialize(VariantSerializer).map_err(|e| {
            let e = e.in_field(key);
            match self.variant {
                Some(name) => e.in_field(name),
                None => e,
            }
        })?;
        self.dict.insert(Variant::String(GString::new(key)), value);
        Ok(())
    }
    fn end(self) -> Result<Variant, Error> {
        Ok(self.finish())
    }
}

impl ser::SerializeStructVariant for MapSerializer {
    type Ok = Variant;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        ser::SerializeStruct::serialize_field(self, key, value)
    }
    fn end(self) -> Result<Variant, Error> {
        Ok(self.finish())
    }
}
