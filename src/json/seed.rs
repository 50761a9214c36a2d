//! Reading the JSON form while serde_json parses it, so a big Array or Dictionary is built element by element instead of through a whole `serde_json::Value` tree.
//!
//! Only containers stream: every other value object is small, so it is gathered into a
//! `Value` and converted by [`Reader`], which keeps the rules of each type in one place.
//! The result and the error are the ones the tree reader ([`from_json`] over
//! [`parse_document`]) gives: a mistake is recorded with its path and the rest of the
//! document is still parsed (a syntax error anywhere wins, as it does there), and the checks
//! the tree reader makes before looking inside a container (its `element_type`, a pair's
//! length) replace a mistake found inside it.

use super::path::{Path, Seg};
use super::read::text_value;
use super::*;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// The value of one JSON document, read as it is parsed (see the module doc).
pub(super) fn read_document(text: &str) -> Result<Variant, JsonError> {
    // Our writer's layout is read without serde; anything else is read here.
    match super::fast::read(text) {
        Some(v) => Ok(v),
        None => read_with_serde(text),
    }
}

/// [`read_document`] without the fast reader.
pub(super) fn read_with_serde(text: &str) -> Result<Variant, JsonError> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let mut st = State {
        path: Path::root(),
        error: None,
        reparse: false,
    };
    // serde_json recurses once per level: the adapter grows the stack as it goes.
    let v = VariantSeed(&mut st)
        .deserialize(serde_stacker::Deserializer::new(&mut de))
        .and_then(|v| de.end().map(|()| v))
        .map_err(not_json)?;
    if st.reparse {
        // A repeated `type` or `value` key after a container was read: the last one counts,
        // as in the tree, and only the tree still has what it needs.
        return from_json(&parse_document(text)?);
    }
    match st.error {
        Some(e) => Err(e),
        None => Ok(v),
    }
}

/// What the read carries down the document.
struct State {
    /// Where the read is, jq-style, spelled as [`Reader`] spells it.
    path: Path,
    /// The first mistake, as the tree reader reports it; once set, the rest is only parsed.
    error: Option<JsonError>,
    /// A container object repeated its `type` or `value` key (see [`read_document`]).
    reparse: bool,
}

impl State {
    /// Whether the rest of the document is only parsed, not converted.
    fn done(&self) -> bool {
        self.error.is_some() || self.reparse
    }

    /// Records a mistake at the current path.
    fn fail(&mut self, message: &str) {
        let path = self.path.spelled();
        self.error.get_or_insert_with(|| JsonError {
            path,
            message: message.into(),
        });
    }

    /// Converts `obj` with [`Reader`] at the current path.
    fn convert(&mut self, obj: &Value) -> Variant {
        let mut r = Reader {
            path: std::mem::take(&mut self.path),
        };
        let v = r.value(obj);
        self.path = r.path;
        v.unwrap_or_else(|e| {
            self.error.get_or_insert(e);
            Variant::Nil
        })
    }

    /// Runs one of [`Reader`]'s checks with the path at `.value` of the current object; its
    /// mistake replaces any found inside the value, as the tree reader checks it first.
    fn check<T>(&mut self, f: impl FnOnce(&mut Reader) -> Result<T, JsonError>) -> Option<T> {
        let mut r = Reader {
            path: std::mem::take(&mut self.path),
        };
        let v = r.at(".value", f);
        self.path = r.path;
        v.map_err(|e| self.error = Some(e)).ok()
    }

    /// Reads the element that `next` reads, with `seg` pushed onto the path.
    fn at<T, E>(
        &mut self,
        seg: impl Into<Seg>,
        next: impl FnOnce(&mut Self) -> Result<T, E>,
    ) -> Result<T, E> {
        self.path.push(seg.into());
        let r = grow(|| next(self));
        self.path.pop();
        r
    }
}

/// Answers a value of the wrong JSON shape (a scalar where an object or array is wanted)
/// with the tree reader's mistake, consuming it.
macro_rules! wrong_scalars {
    ($message:expr, $nothing:expr) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            self.0.fail($message);
            Ok($nothing)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            self.0.fail($message);
            Ok($nothing)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            self.0.fail($message);
            Ok($nothing)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            self.0.fail($message);
            Ok($nothing)
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            self.0.fail($message);
            Ok($nothing)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            self.0.fail($message);
            Ok($nothing)
        }
    };
}

const NOT_AN_OBJECT: &str = "expected an object {\"type\": …, \"value\": …}";
const NOT_AN_ARRAY: &str = "expected an array";

/// One value object `{"type": …, "value": …}`.
struct VariantSeed<'s>(&'s mut State);

impl<'de> DeserializeSeed<'de> for VariantSeed<'_> {
    type Value = Variant;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Variant, D::Error> {
        if self.0.done() {
            d.deserialize_any(Skip)?;
            return Ok(Variant::Nil);
        }
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for VariantSeed<'_> {
    type Value = Variant;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(NOT_AN_OBJECT)
    }

    wrong_scalars!(NOT_AN_OBJECT, Variant::Nil);

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Variant, A::Error> {
        self.0.fail(NOT_AN_OBJECT);
        Skip.visit_seq(seq)?;
        Ok(Variant::Nil)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Variant, A::Error> {
        let st = self.0;
        let mut obj = Map::new();
        // Our writer puts `type` first: then a container streams its value and a leaf's
        // value is read as it comes. Anything else (hand-written JSON, or a type only the
        // tree reader can judge) is gathered whole. A known type name is not kept in `obj`:
        // nothing reads it there (a later `type` key sends the object to the tree reader
        // with that one).
        let kind = match map.next_key_seed(KeySeed)? {
            Some(Key::Type) => match map.next_value_seed(PickSeed(kind_named))? {
                Picked::Taken(kind) => Some(kind),
                Picked::Json(t) => {
                    obj.insert("type".into(), t);
                    None
                }
            },
            Some(k) => {
                let v = map.next_value()?;
                obj.insert(k.name(), v);
                None
            }
            None => None,
        };
        match kind {
            Some(Kind::Dictionary | Kind::Array | Kind::TypedArray | Kind::PackedTypedArray) => {
                container(st, kind.unwrap_or(Kind::Array), obj, map)
            }
            Some(kind) => leaf(st, kind, obj, map),
            None => gather(st, obj, map),
        }
    }
}

/// The rest of a value object of any other type, whose `type` was read: its `value` goes
/// straight to [`Reader`]'s conversion, without a map of the object (a string for a
/// `String` or `StringName` straight from the parser's text).
fn leaf<'de, A: MapAccess<'de>>(
    st: &mut State,
    kind: Kind,
    mut obj: Map<String, Value>,
    mut map: A,
) -> Result<Variant, A::Error> {
    let mut value = Picked::Json(Value::Null);
    while let Some(k) = map.next_key_seed(KeySeed)? {
        match k {
            // Repeated, the last one counts, as in the tree.
            Key::Value => value = map.next_value_seed(PickSeed(|s: &str| text_value(kind, s)))?,
            Key::Other(name) => {
                let v = map.next_value()?;
                obj.insert(name, v);
            }
            Key::Type => {
                // The type may change to anything: the tree reader judges the whole object.
                let value = match value {
                    Picked::Taken(v) => Value::String(v.as_str().unwrap_or_default().into()),
                    Picked::Json(v) => v,
                };
                obj.insert("value".into(), value);
                let t = map.next_value()?;
                obj.insert("type".into(), t);
                return gather(st, obj, map);
            }
        }
    }
    let value = match value {
        // What the payload's conversion gives for that string (see `text_value`).
        Picked::Taken(v) => return Ok(v),
        Picked::Json(v) => v,
    };
    let mut r = Reader {
        path: std::mem::take(&mut st.path),
    };
    let v = r.at(".value", |r| r.payload(kind, &value, &obj));
    st.path = r.path;
    Ok(v.unwrap_or_else(|e| {
        st.error.get_or_insert(e);
        Variant::Nil
    }))
}

/// The rest of a value object, gathered whole and converted by [`Reader`].
fn gather<'de, A: MapAccess<'de>>(
    st: &mut State,
    mut obj: Map<String, Value>,
    mut map: A,
) -> Result<Variant, A::Error> {
    while let Some(k) = map.next_key_seed(KeySeed)? {
        let v = map.next_value()?;
        obj.insert(k.name(), v);
    }
    Ok(st.convert(&Value::Object(obj)))
}

/// The rest of an Array or Dictionary object whose `type` was read: its `value` is built
/// element by element, its other keys gathered for [`Reader`]'s checks.
fn container<'de, A: MapAccess<'de>>(
    st: &mut State,
    kind: Kind,
    mut obj: Map<String, Value>,
    mut map: A,
) -> Result<Variant, A::Error> {
    let mut built = None;
    while let Some(k) = map.next_key_seed(KeySeed)? {
        match k {
            Key::Value if built.is_none() => {
                let dict = kind == Kind::Dictionary;
                built = Some(st.at(".value", |st| map.next_value_seed(ItemsSeed { st, dict }))?);
            }
            Key::Type | Key::Value => {
                st.reparse = true;
                map.next_value::<Skip>()?;
            }
            Key::Other(name) => {
                let v = map.next_value()?;
                obj.insert(name, v);
            }
        }
    }
    if st.reparse {
        return Ok(Variant::Nil);
    }
    // The tree reader checks the element types before the value.
    let typed = if kind == Kind::Dictionary {
        st.check(|r| r.dictionary_type(&obj)).map(Typed::Dictionary)
    } else {
        st.check(|r| r.array_type(kind, &obj)).map(Typed::Array)
    };
    if st.error.is_some() {
        return Ok(Variant::Nil);
    }
    Ok(match (built, typed) {
        (Some(Built::Items(items)), Some(Typed::Array(typed))) => {
            Variant::Array(Array { items, typed })
        }
        (Some(Built::Entries(mut d)), Some(Typed::Dictionary(typed))) => {
            d.set_typed(typed);
            Variant::Dictionary(d)
        }
        _ => {
            // No `value`: the tree reader reads `null` there.
            st.at(".value", |st| {
                st.fail(NOT_AN_ARRAY);
                Ok::<_, A::Error>(())
            })?;
            Variant::Nil
        }
    })
}

enum Typed {
    Array(Option<Box<ArrayType>>),
    Dictionary(Option<DictionaryType>),
}

/// A container's elements as read so far.
enum Built {
    Items(Vec<Variant>),
    Entries(Dictionary),
}

/// The `value` array of an Array (values) or a Dictionary (`[KEY, VALUE]` pairs).
struct ItemsSeed<'s> {
    st: &'s mut State,
    dict: bool,
}

impl<'de> DeserializeSeed<'de> for ItemsSeed<'_> {
    type Value = Built;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Built, D::Error> {
        d.deserialize_any(Items(self.st, self.dict))
    }
}

struct Items<'s>(&'s mut State, bool);

impl<'de> Visitor<'de> for Items<'_> {
    type Value = Built;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(NOT_AN_ARRAY)
    }

    wrong_scalars!(NOT_AN_ARRAY, Built::Items(Vec::new()));

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Built, A::Error> {
        self.0.fail(NOT_AN_ARRAY);
        Skip.visit_map(map)?;
        Ok(Built::Items(Vec::new()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Built, A::Error> {
        let Items(st, dict) = self;
        let mut i = 0usize;
        if dict {
            let mut d = Dictionary::new();
            // Dictionary::insert keeps the engine's rule (a repeated key replaces the value
            // in place, unless an engine keeps such keys apart) and indexes the keys once there
            // are a few, so this stays linear.
            while let Some(pair) = st.at(i, |st| seq.next_element_seed(PairSeed(st)))? {
                if let (Some((k, v)), false) = (pair, st.done()) {
                    d.insert_read(k, v, true);
                }
                i += 1;
            }
            Ok(Built::Entries(d))
        } else {
            let mut items = Vec::new();
            while let Some(v) = st.at(i, |st| seq.next_element_seed(VariantSeed(st)))? {
                if !st.done() {
                    items.push(v);
                }
                i += 1;
            }
            Ok(Built::Items(items))
        }
    }
}

/// One `[KEY, VALUE]` entry of a Dictionary.
struct PairSeed<'s>(&'s mut State);

impl<'de> DeserializeSeed<'de> for PairSeed<'_> {
    type Value = Option<(Variant, Variant)>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        if self.0.done() {
            d.deserialize_any(Skip)?;
            return Ok(None);
        }
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for PairSeed<'_> {
    type Value = Option<(Variant, Variant)>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("[KEY, VALUE]")
    }

    wrong_scalars!(NOT_AN_ARRAY, None);

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.0.fail(NOT_AN_ARRAY);
        Skip.visit_map(map)?;
        Ok(None)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let st = self.0;
        let mut pair = [Variant::Nil, Variant::Nil];
        let mut n = 0usize;
        loop {
            let more = match pair.get_mut(n) {
                Some(slot) => st
                    .at(n, |st| seq.next_element_seed(VariantSeed(st)))?
                    .map(|v| *slot = v)
                    .is_some(),
                None => seq.next_element::<Skip>()?.is_some(),
            };
            if !more {
                break;
            }
            n += 1;
        }
        if n != 2 {
            // The tree reader checks the length before the key.
            st.error = Some(JsonError {
                path: st.path.spelled(),
                message: "expected [KEY, VALUE]".into(),
            });
            return Ok(None);
        }
        let [k, v] = pair;
        Ok(Some((k, v)))
    }
}

/// A key of a value object; `type` and `value` without an allocation.
enum Key {
    Type,
    Value,
    Other(String),
}

impl Key {
    fn name(self) -> String {
        match self {
            Key::Type => "type".into(),
            Key::Value => "value".into(),
            Key::Other(s) => s,
        }
    }
}

struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for KeySeed {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Key, E> {
        Ok(match s {
            "type" => Key::Type,
            "value" => Key::Value,
            _ => Key::Other(s.into()),
        })
    }
}

/// Parses a value and drops it. Unlike `IgnoredAny` it parses numbers as `Value` does, so a
/// number out of range is the same error whether or not a mistake came before it.
struct Skip;

impl<'de> de::Deserialize<'de> for Skip {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Skip, D::Error> {
        d.deserialize_any(Skip)
    }
}

impl<'de> Visitor<'de> for Skip {
    type Value = Skip;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skip, A::Error> {
        while seq.next_element::<Skip>()?.is_some() {}
        Ok(Skip)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Skip, A::Error> {
        while map.next_entry::<Skip, Skip>()?.is_some() {}
        Ok(Skip)
    }
}

/// A JSON value as a `Value`, or what `F` makes of it when it is a string that `F` takes,
/// without a `Value` (and its allocation) in between.
struct PickSeed<F>(F);

enum Picked<T> {
    Taken(T),
    Json(Value),
}

impl<'de, T, F: FnOnce(&str) -> Option<T>> DeserializeSeed<'de> for PickSeed<F> {
    type Value = Picked<T>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Picked<T>, D::Error> {
        d.deserialize_any(self)
    }
}

/// Builds the `Value` as serde_json's own `Value` visitor does.
impl<'de, T, F: FnOnce(&str) -> Option<T>> Visitor<'de> for PickSeed<F> {
    type Value = Picked<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Picked<T>, E> {
        Ok(match (self.0)(s) {
            Some(t) => Picked::Taken(t),
            None => Picked::Json(Value::String(s.into())),
        })
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Picked<T>, E> {
        Ok(Picked::Json(Value::Bool(b)))
    }
    fn visit_i64<E: de::Error>(self, i: i64) -> Result<Picked<T>, E> {
        Ok(Picked::Json(Value::from(i)))
    }
    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Picked<T>, E> {
        Ok(Picked::Json(Value::from(u)))
    }
    fn visit_f64<E: de::Error>(self, x: f64) -> Result<Picked<T>, E> {
        Ok(Picked::Json(
            serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number),
        ))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Picked<T>, E> {
        Ok(Picked::Json(Value::Null))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Picked<T>, A::Error> {
        let v = de::Deserialize::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
        Ok(Picked::Json(v))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Picked<T>, A::Error> {
        let v = de::Deserialize::deserialize(de::value::MapAccessDeserializer::new(map))?;
        Ok(Picked::Json(v))
    }
}
