//! `ToVariant`/`FromVariant` for containers: Option, Vec, arrays, slices, maps, tuples, boxes.

use super::error::{FromVariantError, FromVariantErrorKind};
use super::{FromVariant, ToVariant, TypedArrayElement};
use crate::generated::kinds::Kind;
use crate::variant::*;
use indexmap::IndexMap;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hash};
use std::rc::Rc;
use std::sync::Arc;

impl<T: ToVariant> ToVariant for Option<T> {
    fn to_variant(&self) -> Variant {
        match self {
            Some(x) => x.to_variant(),
            None => Variant::Nil,
        }
    }
}

impl<T: FromVariant> FromVariant for Option<T> {
    fn from_variant(v: &Variant) -> Result<Option<T>, FromVariantError> {
        match v {
            // The engines write a null or freed Object as Nil; a decoded model may hold either.
            Variant::Nil | Variant::Object(Object::Null) => Ok(None),
            other => T::from_variant(other).map(Some),
        }
    }
    fn __from_missing() -> Option<Option<T>> {
        Some(None)
    }
}

impl<T: ToVariant> ToVariant for [T] {
    fn to_variant(&self) -> Variant {
        T::__vec_to_variant(self)
    }
}

impl<T: ToVariant> ToVariant for Vec<T> {
    fn to_variant(&self) -> Variant {
        T::__vec_to_variant(self)
    }
}

impl<T: FromVariant> FromVariant for Vec<T> {
    fn from_variant(v: &Variant) -> Result<Vec<T>, FromVariantError> {
        T::__vec_from_variant(v)
    }
}

impl<T: ToVariant> TypedArrayElement for Vec<T> {
    fn element_type() -> ElementType {
        ElementType::Builtin(T::__vec_kind())
    }
}

impl<T: ToVariant, const N: usize> ToVariant for [T; N] {
    fn to_variant(&self) -> Variant {
        T::__vec_to_variant(self)
    }
}

impl<T: FromVariant, const N: usize> FromVariant for [T; N] {
    fn from_variant(v: &Variant) -> Result<[T; N], FromVariantError> {
        let items = T::__vec_from_variant(v)?;
        let found = items.len();
        items.try_into().map_err(|_| {
            FromVariantError::new(FromVariantErrorKind::WrongLength { expected: N, found })
        })
    }
}

impl<T: ToVariant + ?Sized> ToVariant for &T {
    fn to_variant(&self) -> Variant {
        (**self).to_variant()
    }
}

macro_rules! smart_pointers {
    ($($p:ident),*) => {$(
        impl<T: ToVariant + ?Sized> ToVariant for $p<T> {
            fn to_variant(&self) -> Variant {
                (**self).to_variant()
            }
        }
        impl<T: FromVariant> FromVariant for $p<T> {
            fn from_variant(v: &Variant) -> Result<$p<T>, FromVariantError> {
                T::from_variant(v).map($p::new)
            }
            fn __from_missing() -> Option<$p<T>> {
                T::__from_missing().map($p::new)
            }
        }
        impl<T: TypedArrayElement> TypedArrayElement for $p<T> {
            fn element_type() -> ElementType {
                T::element_type()
            }
        }
    )*};
}

smart_pointers!(Box, Rc, Arc);

fn dict_of(v: &Variant) -> Result<&Dictionary, FromVariantError> {
    match v {
        Variant::Dictionary(d) => Ok(d),
        other => Err(FromVariantError::mismatch("Dictionary", other)),
    }
}

/// Reads every entry, naming the key in the path of an error.
fn entries<K: FromVariant, V: FromVariant>(
    d: &Dictionary,
) -> impl Iterator<Item = Result<(K, V), FromVariantError>> + '_ {
    d.entries().iter().map(|(k, v)| {
        let key = K::from_variant(k).map_err(|e| e.at_key(k))?;
        let value = V::from_variant(v).map_err(|e| e.at_key(k))?;
        Ok((key, value))
    })
}

fn dictionary_of<'a, K: ToVariant + 'a, V: ToVariant + 'a>(
    it: impl Iterator<Item = (&'a K, &'a V)>,
) -> Variant {
    // Distinct Rust keys can map to one Variant key (two `f64` NaNs): insert as the engine does.
    Variant::Dictionary(it.map(|(k, v)| (k.to_variant(), v.to_variant())).collect())
}

impl<K: ToVariant, V: ToVariant, S> ToVariant for HashMap<K, V, S> {
    /// Entries in the engine's key order (as `var_to_str` prints them), not the map's
    /// iteration order, which changes from run to run: the same map gives the same bytes.
    fn to_variant(&self) -> Variant {
        let mut entries: Vec<(Variant, Variant)> = self
            .iter()
            .map(|(k, v)| (k.to_variant(), v.to_variant()))
            .collect();
        crate::text::sort_entries_by_key(&mut entries);
        // Distinct Rust keys can still map to one Variant key: insert as the engine does.
        Variant::Dictionary(entries.into_iter().collect())
    }
}

impl<K: FromVariant + Eq + Hash, V: FromVariant, S: BuildHasher + Default> FromVariant
    for HashMap<K, V, S>
{
    fn from_variant(v: &Variant) -> Result<Self, FromVariantError> {
        entries(dict_of(v)?).collect()
    }
}

impl<K: ToVariant, V: ToVariant> ToVariant for BTreeMap<K, V> {
    fn to_variant(&self) -> Variant {
        dictionary_of(self.iter())
    }
}

impl<K: FromVariant + Ord, V: FromVariant> FromVariant for BTreeMap<K, V> {
    fn from_variant(v: &Variant) -> Result<Self, FromVariantError> {
        entries(dict_of(v)?).collect()
    }
}

impl<K: ToVariant, V: ToVariant, S> ToVariant for IndexMap<K, V, S> {
    fn to_variant(&self) -> Variant {
        dictionary_of(self.iter())
    }
}

impl<K: FromVariant + Eq + Hash, V: FromVariant, S: BuildHasher + Default> FromVariant
    for IndexMap<K, V, S>
{
    fn from_variant(v: &Variant) -> Result<Self, FromVariantError> {
        entries(dict_of(v)?).collect()
    }
}

macro_rules! map_element {
    ($($m:ident <$($p:ident),*>),*) => {$(
        impl<$($p),*> TypedArrayElement for $m<$($p),*> {
            fn element_type() -> ElementType {
                ElementType::Builtin(Kind::Dictionary)
            }
        }
    )*};
}

map_element!(HashMap<K, V, S>, BTreeMap<K, V>, IndexMap<K, V, S>);

macro_rules! tuples {
    ($($n:literal => ($($t:ident $i:tt),+);)*) => {$(
        impl<$($t: ToVariant),+> ToVariant for ($($t,)+) {
            fn to_variant(&self) -> Variant {
                Variant::Array(Array::new(vec![$(self.$i.to_variant()),+]))
            }
        }
        impl<$($t: FromVariant),+> FromVariant for ($($t,)+) {
            fn from_variant(v: &Variant) -> Result<Self, FromVariantError> {
                let items = super::private::array_exact(v, $n)?;
                Ok(($($t::from_variant(&items[$i]).map_err(|e| e.at_index($i))?,)+))
            }
        }
        impl<$($t),+> TypedArrayElement for ($($t,)+) {
            fn element_type() -> ElementType {
                ElementType::Builtin(Kind::Array)
            }
        }
    )*};
}

tuples! {
    1 => (A 0);
    2 => (A 0, B 1);
    3 => (A 0, B 1, C 2);
    4 => (A 0, B 1, C 2, D 3);
    5 => (A 0, B 1, C 2, D 3, E 4);
    6 => (A 0, B 1, C 2, D 3, E 4, F 5);
    7 => (A 0, B 1, C 2, D 3, E 4, F 5, G 6);
    8 => (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
    9 => (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8);
    10 => (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9);
    11 => (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10);
    12 => (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11);
}
