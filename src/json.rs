//! The lossless, type-tagged JSON form of values, for `jq` and for editing by hand.
//!
//! Every value is an object `{"type": T, "value": V}`, where `T` is the [`Kind`] name
//! (`"Int"`, `"Vector2"`, `"PackedFloat32Array"`, …, as [`Kind::name`] spells it) and `V`
//! depends on the type; `Nil` and `Callable` have no `"value"`. The form is lossless: every
//! [`Variant`] converts to JSON and back to the same value, bit for bit (NaN payloads, `-0.0`,
//! `i64` extremes, typed containers, objects), so `decode → JSON → encode` gives the engine's
//! bytes back.
//!
//! | type | `value` |
//! |---|---|
//! | `Bool` | `true` / `false` |
//! | `Int`, `Rid` | a number; a decimal string when beyond ±2^53 (so `jq`, which uses doubles, keeps it) |
//! | `Float` | a real (below) |
//! | `String`, `StringName` | a string |
//! | `Vector2`, `Vector3`, `Vector4`, `Quaternion` | `[x, y, …]` of reals; the `…i` types: of integers |
//! | `Color` | `[r, g, b, a]` of reals (exact values of the `f32` components) |
//! | `Rect2`, `Rect2i`, `Aabb` | `{"position": […], "size": […]}` |
//! | `Transform2D` | `{"x": […], "y": […], "origin": […]}` |
//! | `Plane` | `{"normal": […], "d": real}` |
//! | `Basis` | `{"rows": [[…], […], […]]}` (row-major, as the bytes) |
//! | `Transform3D` | `{"basis": {"rows": …}, "origin": […]}` |
//! | `Projection` | `{"columns": [[…] × 4]}` |
//! | `NodePath` | `{"names": […], "subnames": […], "absolute": bool}`; on input also a path string `"/root/a:b"` |
//! | `Object` | `null` (null object), `{"id": n}` (instance id), or `{"class": "Node", "properties": [["name", VALUE], …]}` |
//! | `Signal` | `{"name": "…", "object": n}` |
//! | `Dictionary` | `[[KEY, VALUE], …]` in insertion order; typed: `"key_type"` / `"value_type"` beside `"value"` |
//! | `Array` | `[VALUE, …]`; typed: `"element_type"` beside `"value"` (and `"pandemonium_packed": true` for Pandemonium's `PACKED_TYPED_ARRAY`) |
//! | `PackedByteArray` | a hex string, `"00ff10"` |
//! | `PackedInt32Array`, `PackedInt64Array` | `[n, …]` (64-bit: strings beyond ±2^53) |
//! | `PackedFloat32Array`, `PackedFloat64Array` | `[real, …]` |
//! | `PackedStringArray` | `["…", …]` |
//! | `Packed…Vector…Array`, `PackedColorArray` | `[[x, y, …], …]` |
//!
//! An element type (`element_type`, `key_type`, `value_type`) is `{"builtin": KIND}`,
//! `{"class": "Node"}` or `{"script": "res://player.gd"}`.
//!
//! A real is a JSON number holding the exact value the model holds (an `f32` from the wire is
//! printed as its exact double: `0.1` sent as a float is `0.10000000149011612`); `-0.0` is
//! `-0.0`; the non-numbers are strings: `"inf"`, `"-inf"`, `"nan"` (the default quiet NaN),
//! `"-nan"`, and `"nan:0x7ff0000000000001"` for any other NaN (16 hex digits for a double,
//! 8 for an `f32` in `Color` and `PackedFloat32Array`/`PackedColorArray`).

use crate::generated::kinds::Kind;
use crate::stack::grow;
use crate::variant::layout::{components_of, tree_of, Component, Scalar, Tree};
use crate::variant::layout::{real_from_f32_bits, real_to_f32_bits};
use crate::variant::value::{fixed_from, packed_from};
use crate::variant::*;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::{Map, Value};

/// Why JSON does not describe a value; `path` says where (`$.value[2][1]`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} (at {path})")]
pub struct JsonError {
    /// Where in the document, jq-style (`$.value[0]`).
    pub path: String,
    /// What was expected.
    pub message: String,
}

/// The JSON form of `value`.
///
/// ```
/// use gdvariant::{json, Variant};
/// let v = Variant::Float(-0.0);
/// let j = json::to_json(&v);
/// assert_eq!(j.to_string(), r#"{"type":"Float","value":-0.0}"#);
/// assert!(json::from_json(&j)?.same(&v));
/// # Ok::<(), gdvariant::json::JsonError>(())
/// ```
pub fn to_json(value: &Variant) -> Value {
    serde_json::to_value(Json(value)).expect("the JSON form has only string keys")
}

/// The JSON text of `value` on one line (what `gdvariant decode --format json` prints),
/// written straight from the value.
pub fn to_json_string(value: &Variant) -> String {
    serde_json::to_string(&Json(value)).expect("the JSON form has only string keys")
}

/// Writes the JSON text of `value` to `w` (no newline).
pub fn write_json<W: std::io::Write>(w: W, value: &Variant) -> std::io::Result<()> {
    serde_json::to_writer(w, &Json(value)).map_err(std::io::Error::from)
}

/// The one definition of the JSON form's shape: a value as `serde` sees it.
/// [`to_json`], [`to_json_string`] and [`write_json`] all serialize through it.
///
/// Serializing recurses once per nesting level; each container level first makes sure the
/// stack has room (growing it on demand), so any value the decoder accepts serializes.
#[derive(Clone, Copy)]
pub struct Json<'a>(pub &'a Variant);

impl Serialize for Json<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Variant::Array(_) | Variant::Dictionary(_) | Variant::Object(Object::Full(_)) => {
                grow(|| self.serialize_here(s))
            }
            _ => self.serialize_here(s),
        }
    }
}

impl Json<'_> {
    fn serialize_here<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("type", v.kind().name())?;
        match v {
            Variant::Nil | Variant::Callable => {}
            Variant::Bool(b) => m.serialize_entry("value", b)?,
            Variant::Int(i) => m.serialize_entry("value", &I(*i))?,
            Variant::Float(f) => m.serialize_entry("value", &R(*f))?,
            Variant::String(x) => m.serialize_entry("value", x)?,
            Variant::StringName(x) => m.serialize_entry("value", &x.0)?,
            Variant::NodePath(p) => m.serialize_entry(
                "value",
                &NodePathJ {
                    names: &p.names,
                    subnames: &p.subnames,
                    absolute: p.absolute,
                },
            )?,
            Variant::Rid(r) => m.serialize_entry("value", &U(*r))?,
            Variant::Object(o) => match o {
                Object::Null => m.serialize_entry("value", &())?,
                Object::Id(id) => m.serialize_entry("value", &IdJ { id: U(*id) })?,
                Object::Full(f) => m.serialize_entry("value", &FullJ(f))?,
            },
            Variant::Signal(x) => m.serialize_entry(
                "value",
                &SignalJ {
                    name: &x.name,
                    object: U(x.object),
                },
            )?,
            Variant::Dictionary(d) => {
                if let Some(t) = d.typed() {
                    m.serialize_entry("key_type", &ElementJ(t.key.as_ref()))?;
                    m.serialize_entry("value_type", &ElementJ(t.value.as_ref()))?;
                }
                m.serialize_entry("value", &Seq(d.entries(), pair))?
            }
            Variant::Array(a) => {
                if let Some(t) = &a.typed {
                    m.serialize_entry("element_type", &ElementJ(Some(&t.element)))?;
                    if t.pandemonium_packed {
                        m.serialize_entry("pandemonium_packed", &true)?;
                    }
                }
                m.serialize_entry("value", &Seq(&a.items, Json))?
            }
            Variant::PackedByteArray(b) => m.serialize_entry("value", &hex(b))?,
            Variant::PackedInt32Array(x) => m.serialize_entry("value", x)?,
            Variant::PackedInt64Array(x) => m.serialize_entry("value", &Seq(x, |i: &i64| I(*i)))?,
            Variant::PackedFloat32Array(x) => {
                m.serialize_entry("value", &Seq(x, |f: &f32| R32(*f)))?
            }
            Variant::PackedFloat64Array(x) => {
                m.serialize_entry("value", &Seq(x, |f: &f64| R(*f)))?
            }
            Variant::PackedStringArray(x) => m.serialize_entry("value", x)?,
            // Math values and packed arrays of them: the shape of their components (below).
            _ => {
                if let Some(f) = v.as_fixed() {
                    let shape = shape_of(f.kind());
                    m.serialize_entry("value", &Shaped(shape, f.components(), &f.values()))?
                } else if let Some(p) = v.as_packed() {
                    let (shape, comps, values) =
                        (shape_of(p.element()), p.components(), p.values());
                    let items: Vec<Shaped> = values
                        .chunks(comps.len().max(1))
                        .map(|c| Shaped(shape, comps, c))
                        .collect();
                    m.serialize_entry("value", &items)?
                }
            }
        }
        m.end()
    }
}

/// A slice serialized as a JSON array, each element through `f`.
struct Seq<'a, T, F>(&'a [T], F);

impl<'a, T, F: Fn(&'a T) -> J, J: Serialize> Serialize for Seq<'a, T, F> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(&self.1))
    }
}

/// A 64-bit integer: a number within ±2^53, else a decimal string.
struct I(i64);

impl Serialize for I {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if (-SAFE_INT..=SAFE_INT).contains(&self.0) {
            s.serialize_i64(self.0)
        } else {
            s.collect_str(&self.0)
        }
    }
}

/// An unsigned 64-bit id: a number up to 2^53, else a decimal string.
struct U(u64);

impl Serialize for U {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 <= SAFE_INT as u64 {
            s.serialize_u64(self.0)
        } else {
            s.collect_str(&self.0)
        }
    }
}

/// A real held as `f64`: a number, or `"inf"`, `"-inf"`, `"nan"`, `"-nan"`, `"nan:0x…"`.
#[derive(Clone, Copy)]
struct R(f64);

impl Serialize for R {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let f = self.0;
        if f.is_nan() {
            return match f.to_bits() {
                NAN64 => s.serialize_str("nan"),
                b if b == NAN64 | SIGN64 => s.serialize_str("-nan"),
                b => s.collect_str(&format_args!("nan:{b:#018x}")),
            };
        }
        if f.is_infinite() {
            return s.serialize_str(if f > 0.0 { "inf" } else { "-inf" });
        }
        s.serialize_f64(f)
    }
}

/// An `f32` (Color, PackedFloat32Array): its exact value as a real; NaNs by their 32 bits.
struct R32(f32);

impl Serialize for R32 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let f = self.0;
        if f.is_nan() {
            return match f.to_bits() {
                NAN32 => s.serialize_str("nan"),
                b if b == NAN32 | SIGN32 => s.serialize_str("-nan"),
                b => s.collect_str(&format_args!("nan:{b:#010x}")),
            };
        }
        R(f64::from(f)).serialize(s)
    }
}

#[derive(Serialize)]
struct NodePathJ<'a> {
    names: &'a [String],
    subnames: &'a [String],
    absolute: bool,
}

#[derive(Serialize)]
struct IdJ {
    id: U,
}

/// A full object: `{"class": …, "properties": [["name", VALUE], …]}`.
struct FullJ<'a>(&'a FullObject);

impl Serialize for FullJ<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("class", &self.0.class)?;
        m.serialize_entry("properties", &Seq(&self.0.properties, property))?;
        m.end()
    }
}

#[derive(Serialize)]
struct SignalJ<'a> {
    name: &'a str,
    object: U,
}

/// An element type: `null`, `{"builtin": KIND}`, `{"class": …}` or `{"script": …}`.
struct ElementJ<'a>(Option<&'a ElementType>);

impl Serialize for ElementJ<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (k, v) = match self.0 {
            None => return s.serialize_unit(),
            Some(ElementType::Builtin(k)) => ("builtin", k.name()),
            Some(ElementType::Class(c)) => ("class", c.as_str()),
            Some(ElementType::Script(p)) => ("script", p.as_str()),
        };
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(k, v)?;
        m.end()
    }
}

fn pair(e: &(Variant, Variant)) -> (Json<'_>, Json<'_>) {
    (Json(&e.0), Json(&e.1))
}
fn property(p: &(String, Variant)) -> (&str, Json<'_>) {
    (&p.0, Json(&p.1))
}
/// The JSON shape of a math type is its struct tree ([`Tree`]) with one rule: a struct of
/// scalars is an array (`[x, y]`, `[r, g, b, a]`), any other struct an object of its fields,
/// and `name[i]` fields an array; so `Rect2` is `{"position": [..], "size": [..]}` and
/// `Basis` `{"rows": [[..], [..], [..]]}`.
fn shape_of(kind: Kind) -> &'static Tree {
    static NONE: Tree = Tree::Array(Vec::new());
    tree_of(kind).unwrap_or(&NONE)
}

/// A math value's components serialized in its shape.
struct Shaped<'a>(&'a Tree, &'a [Component], &'a [f64]);

impl Serialize for Shaped<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Shaped(shape, comps, values) = *self;
        match shape {
            Tree::Scalar(i) => {
                let x = values.get(*i).copied().unwrap_or_default();
                match comps.get(*i).map(|c| c.scalar) {
                    Some(Scalar::I32) => (x as i32).serialize(s),
                    Some(Scalar::F32) => R32(f32::from_bits(real_to_f32_bits(x))).serialize(s),
                    _ => R(x).serialize(s),
                }
            }
            Tree::Array(items) => s.collect_seq(items.iter().map(|n| Shaped(n, comps, values))),
            flat @ Tree::Struct(fields) if flat.is_flat() => {
                s.collect_seq(fields.iter().map(|(_, n)| Shaped(n, comps, values)))
            }
            Tree::Struct(fields) => {
                let mut m = s.serialize_map(Some(fields.len()))?;
                for (name, n) in fields {
                    m.serialize_entry(name, &Shaped(n, comps, values))?;
                }
                m.end()
            }
        }
    }
}

/// The value a JSON document describes (the inverse of [`to_json`]).
pub fn from_json(json: &Value) -> Result<Variant, JsonError> {
    Reader {
        path: vec!["$".into()],
    }
    .value(json)
}

/// Deepest JSON nesting [`parse_document`] accepts: two levels (object and array) for each
/// of the decoder's 1024 container levels, and some slack.
pub const MAX_JSON_DEPTH: usize = 2 * 1024 + 16;

/// Parses one JSON text into a value.
pub fn from_json_str(text: &str) -> Result<Variant, JsonError> {
    from_json(&parse_document(text)?)
}

/// Parses JSON text as [`serde_json`] does, but with the nesting bound by [`MAX_JSON_DEPTH`]
/// instead of serde_json's 128, which a Godot value 64 containers deep already exceeds.
pub fn parse_document(text: &str) -> Result<Value, JsonError> {
    let depth = nesting_depth(text);
    if depth > MAX_JSON_DEPTH {
        return Err(JsonError {
            path: "$".into(),
            message: format!("nested {depth} levels deep; at most {MAX_JSON_DEPTH} are read"),
        });
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    // serde_json recurses once per level: the adapter grows the stack as it goes.
    serde::Deserialize::deserialize(serde_stacker::Deserializer::new(&mut de))
        .and_then(|v| de.end().map(|()| v))
        .map_err(|e| JsonError {
            path: format!("line {}, column {}", e.line(), e.column()),
            message: format!("not JSON: {e}"),
        })
}

/// Reads every JSON document of `input` (JSON Lines, or documents one after another), as
/// values, holding one document at a time: what `gdvariant encode --from json` reads.
/// Nesting is bounded by [`MAX_JSON_DEPTH`] as the bytes stream in.
pub fn read_values<R: std::io::Read>(input: R) -> impl Iterator<Item = Result<Variant, JsonError>> {
    let mut docs = Documents {
        input: std::io::BufReader::new(input),
        line: 1,
        n: 0,
        failed: false,
    };
    std::iter::from_fn(move || docs.next_value())
}

/// Splits a stream into top-level JSON documents by tracking brackets and strings, so each
/// document's depth is known before it is parsed.
struct Documents<R> {
    input: std::io::BufReader<R>,
    line: usize,
    n: usize,
    failed: bool,
}

impl<R: std::io::Read> Documents<R> {
    fn fail(&mut self, message: String) -> Option<Result<Variant, JsonError>> {
        self.failed = true;
        Some(Err(JsonError {
            path: format!("document {}, line {}", self.n, self.line),
            message,
        }))
    }

    fn next_value(&mut self) -> Option<Result<Variant, JsonError>> {
        use std::io::BufRead;
        if self.failed {
            return None;
        }
        let mut doc: Vec<u8> = Vec::new();
        let (mut depth, mut max, mut in_str, mut escaped) = (0usize, 0usize, false, false);
        let start_line = self.line;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) => return self.fail(format!("read error: {e}")),
            };
            if buf.is_empty() {
                break;
            }
            let mut used = 0;
            let mut done = false;
            for &c in buf {
                used += 1;
                if c == b'\n' {
                    self.line += 1;
                }
                if doc.is_empty() && c.is_ascii_whitespace() {
                    continue;
                }
                doc.push(c);
                if in_str {
                    match c {
                        _ if escaped => escaped = false,
                        b'\\' => escaped = true,
                        b'"' => in_str = false,
                        _ => {}
                    }
                    continue;
                }
                match c {
                    b'"' => in_str = true,
                    b'[' | b'{' => {
                        depth += 1;
                        max = max.max(depth);
                    }
                    b']' | b'}' => depth = depth.saturating_sub(1),
                    _ => {}
                }
                if depth == 0 && matches!(c, b']' | b'}') {
                    done = true;
                    break;
                }
                if max > MAX_JSON_DEPTH {
                    self.input.consume(used);
                    self.n += 1;
                    return self.fail(format!("JSON nested deeper than {MAX_JSON_DEPTH} levels"));
                }
            }
            self.input.consume(used);
            if done {
                break;
            }
        }
        if doc.is_empty() {
            return None;
        }
        self.n += 1;
        let n = self.n;
        let r = std::str::from_utf8(&doc)
            .map_err(|e| JsonError {
                path: format!("document {n}"),
                message: format!("not UTF-8: {e}"),
            })
            .and_then(|text| parse_document(text).and_then(|v| from_json(&v)))
            .map_err(|e| JsonError {
                path: format!("document {n} (from line {start_line}): {}", e.path),
                message: e.message,
            });
        if r.is_err() {
            self.failed = true;
        }
        Some(r)
    }
}

/// The deepest bracket nesting of a JSON text (brackets inside strings do not count).
fn nesting_depth(text: &str) -> usize {
    let (mut depth, mut max, mut in_str, mut escaped) = (0usize, 0usize, false, false);
    for c in text.bytes() {
        if in_str {
            match c {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

const SAFE_INT: i64 = 1 << 53;

/// The canonical quiet NaN of each width (what `nan` means).
const NAN64: u64 = 0x7ff8_0000_0000_0000;
const NAN32: u32 = 0x7fc0_0000;
const SIGN64: u64 = 1 << 63;
const SIGN32: u32 = 1 << 31;

fn hex(b: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(b.len() * 2);
    for x in b {
        let _ = write!(s, "{x:02x}");
    }
    s
}

/// The kind named `name` (as [`Kind::name`] spells it, any case).
pub fn kind_named(name: &str) -> Option<Kind> {
    Kind::ALL
        .iter()
        .copied()
        .find(|k| k.name().eq_ignore_ascii_case(name))
}

/// Walks a document, keeping the jq-style path for errors.
struct Reader {
    path: Vec<String>,
}

type Res<T> = Result<T, JsonError>;

impl Reader {
    fn err<T>(&self, message: impl Into<String>) -> Res<T> {
        Err(JsonError {
            path: self.path.concat(),
            message: message.into(),
        })
    }

    /// Reads what is at `seg` (one level down, so the stack is grown first if need be).
    fn at<T>(&mut self, seg: impl Into<String>, f: impl FnOnce(&mut Self) -> Res<T>) -> Res<T> {
        self.path.push(seg.into());
        let r = grow(|| f(self));
        self.path.pop();
        r
    }

    fn field<'v>(&self, obj: &'v Map<String, Value>, key: &str) -> Res<&'v Value> {
        match obj.get(key) {
            Some(v) => Ok(v),
            None => self.err(format!("missing `{key}`")),
        }
    }

    fn value(&mut self, json: &Value) -> Res<Variant> {
        let Value::Object(obj) = json else {
            return self.err("expected an object {\"type\": …, \"value\": …}");
        };
        let ty = match obj.get("type") {
            Some(Value::String(s)) => s.as_str(),
            _ => return self.err("missing `type` (a type name such as \"Int\")"),
        };
        let Some(kind) = kind_named(ty) else {
            return self.err(format!("unknown type `{ty}`"));
        };
        let no_value = Value::Null;
        let v = obj.get("value").unwrap_or(&no_value);
        self.at(".value", |r| r.payload(kind, v, obj))
    }

    fn payload(&mut self, kind: Kind, v: &Value, obj: &Map<String, Value>) -> Res<Variant> {
        Ok(match kind {
            Kind::Nil => Variant::Nil,
            Kind::Callable => Variant::Callable,
            Kind::Bool => match v {
                Value::Bool(b) => Variant::Bool(*b),
                _ => return self.err("expected true or false"),
            },
            Kind::Int => Variant::Int(self.int(v)?),
            Kind::Float => Variant::Float(self.real(v)?),
            Kind::String => Variant::String(self.string(v)?.into()),
            Kind::StringName => Variant::StringName(StringName(self.string(v)?.into())),
            Kind::NodePath => Variant::NodePath(Box::new(match v {
                Value::String(s) => NodePath::parse(s),
                _ => {
                    let o = self.object(v)?;
                    NodePath {
                        names: self.at(".names", |r| r.strings(r.field(o, "names")?))?,
                        subnames: self.at(".subnames", |r| r.strings(r.field(o, "subnames")?))?,
                        absolute: match o.get("absolute") {
                            None => false,
                            Some(Value::Bool(b)) => *b,
                            Some(_) => return self.err("`absolute` must be true or false"),
                        },
                    }
                }
            })),
            Kind::Rid => Variant::Rid(self.uint(v)?),
            Kind::Object => Variant::Object(match v {
                Value::Null => Object::Null,
                _ => {
                    let o = self.object(v)?;
                    if let Some(id) = o.get("id") {
                        Object::Id(self.at(".id", |r| r.uint(id))?)
                    } else {
                        let class = self.at(".class", |r| r.string(r.field(o, "class")?))?;
                        let properties = self.at(".properties", |r| {
                            let a = r.array(r.field(o, "properties")?)?;
                            let mut out = Vec::with_capacity(a.len());
                            for (i, p) in a.iter().enumerate() {
                                out.push(r.at(format!("[{i}]"), |r| r.pair_named(p))?);
                            }
                            Ok(out)
                        })?;
                        Object::Full(Box::new(FullObject { class, properties }))
                    }
                }
            }),
            Kind::Signal => {
                let o = self.object(v)?;
                Variant::Signal(Signal {
                    name: self.at(".name", |r| r.string(r.field(o, "name")?))?,
                    object: self.at(".object", |r| r.uint(r.field(o, "object")?))?,
                })
            }
            Kind::Dictionary => {
                let key = match obj.get("key_type") {
                    Some(t) => self.at_top("key_type", |r| r.element_type(t))?,
                    None => None,
                };
                let value = match obj.get("value_type") {
                    Some(t) => self.at_top("value_type", |r| r.element_type(t))?,
                    None => None,
                };
                let typed = (key.is_some() || value.is_some())
                    .then(|| Box::new(DictionaryType { key, value }));
                let a = self.array(v)?;
                let mut entries = Vec::with_capacity(a.len());
                for (i, p) in a.iter().enumerate() {
                    entries.push(self.at(format!("[{i}]"), |r| r.pair(p))?);
                }
                let mut d: Dictionary = entries.into_iter().collect();
                d.set_typed(typed.map(|t| *t));
                Variant::Dictionary(d)
            }
            Kind::Array | Kind::TypedArray | Kind::PackedTypedArray => {
                let element = match obj.get("element_type") {
                    Some(t) => self.at_top("element_type", |r| r.element_type(t))?,
                    None => None,
                };
                let packed = matches!(obj.get("pandemonium_packed"), Some(Value::Bool(true)))
                    || kind == Kind::PackedTypedArray;
                let a = self.array(v)?;
                let mut items = Vec::with_capacity(a.len());
                for (i, x) in a.iter().enumerate() {
                    items.push(self.at(format!("[{i}]"), |r| r.value(x))?);
                }
                Variant::Array(Array {
                    items,
                    typed: element.map(|element| {
                        Box::new(ArrayType {
                            element,
                            pandemonium_packed: packed,
                        })
                    }),
                })
            }
            Kind::PackedByteArray => Variant::PackedByteArray(self.hex(v)?),
            Kind::PackedInt32Array => Variant::PackedInt32Array(self.each(v, |r, x| r.i32(x))?),
            Kind::PackedInt64Array => Variant::PackedInt64Array(self.each(v, |r, x| r.int(x))?),
            Kind::PackedFloat32Array => {
                Variant::PackedFloat32Array(self.each(v, |r, x| r.real32(x))?)
            }
            Kind::PackedFloat64Array => {
                Variant::PackedFloat64Array(self.each(v, |r, x| r.real(x))?)
            }
            Kind::PackedStringArray => Variant::PackedStringArray(self.strings(v)?),
            k if components_of(k).is_some() => self.math(k, v)?,
            #[allow(unreachable_patterns)]
            other => return self.err(format!("type `{}` has no JSON form", other.name())),
        })
    }

    /// Runs `f` with the path moved from `.value` to a sibling key of the value object.
    fn at_top<T>(&mut self, key: &str, f: impl FnOnce(&mut Self) -> Res<T>) -> Res<T> {
        let saved = self.path.pop();
        let r = self.at(format!(".{key}"), f);
        if let Some(s) = saved {
            self.path.push(s);
        }
        r
    }

    fn object<'v>(&self, v: &'v Value) -> Res<&'v Map<String, Value>> {
        match v {
            Value::Object(o) => Ok(o),
            _ => self.err("expected an object"),
        }
    }

    fn array<'v>(&self, v: &'v Value) -> Res<&'v Vec<Value>> {
        match v {
            Value::Array(a) => Ok(a),
            _ => self.err("expected an array"),
        }
    }

    fn each<T>(
        &mut self,
        v: &Value,
        mut f: impl FnMut(&mut Self, &Value) -> Res<T>,
    ) -> Res<Vec<T>> {
        let a = self.array(v)?;
        let mut out = Vec::with_capacity(a.len());
        for (i, x) in a.iter().enumerate() {
            out.push(self.at(format!("[{i}]"), |r| f(r, x))?);
        }
        Ok(out)
    }

    fn string(&self, v: &Value) -> Res<String> {
        match v {
            Value::String(s) => Ok(s.clone()),
            _ => self.err("expected a string"),
        }
    }

    fn strings(&mut self, v: &Value) -> Res<Vec<String>> {
        self.each(v, |r, x| r.string(x))
    }

    fn int(&self, v: &Value) -> Res<i64> {
        let parsed = match v {
            Value::Number(n) => n.as_i64(),
            Value::String(s) => s.trim().parse::<i64>().ok(),
            _ => None,
        };
        match parsed {
            Some(i) => Ok(i),
            None => self.err("expected a 64-bit integer (a number, or a decimal string)"),
        }
    }

    fn uint(&self, v: &Value) -> Res<u64> {
        let parsed = match v {
            Value::Number(n) => n.as_u64(),
            Value::String(s) => s.trim().parse::<u64>().ok(),
            _ => None,
        };
        match parsed {
            Some(i) => Ok(i),
            None => self.err("expected an unsigned 64-bit integer (a number, or a decimal string)"),
        }
    }

    fn i32(&self, v: &Value) -> Res<i32> {
        match v.as_i64().and_then(|i| i32::try_from(i).ok()) {
            Some(i) => Ok(i),
            None => self.err("expected a 32-bit integer"),
        }
    }

    /// A math value (its components in its shape) or a packed array of them.
    fn math(&mut self, kind: Kind, v: &Value) -> Res<Variant> {
        let element = kind.packed_element().unwrap_or(kind);
        let (Some(comps), shape) = (components_of(element), shape_of(element)) else {
            return self.err(format!("type `{}` has no JSON form", kind.name()));
        };
        let n = comps.len().max(1);
        let built = if kind.packed_element().is_some() {
            let items = self.array(v)?;
            let mut vals = vec![0.0; n * items.len()];
            for (i, (x, out)) in items.iter().zip(vals.chunks_mut(n)).enumerate() {
                self.at(format!("[{i}]"), |r| r.shaped(shape, comps, x, out))?;
            }
            packed_from(kind, items.len(), &mut |i| {
                vals.get(i).copied().unwrap_or_default()
            })
        } else {
            let mut vals = vec![0.0; n];
            self.shaped(shape, comps, v, &mut vals)?;
            fixed_from(kind, &mut |i| vals.get(i).copied().unwrap_or_default())
        };
        match built {
            Some(v) => Ok(v),
            None => self.err(format!("type `{}` has no JSON form", kind.name())),
        }
    }

    /// A real: a number, or one of the strings of the module docs.
    fn real(&self, v: &Value) -> Res<f64> {
        match v {
            // `-0` (as jq prints -0.0) is read back as -0.0, not as the integer 0.
            Value::Number(n) if n.to_string() == "-0" => Ok(-0.0),
            Value::Number(n) => match n.as_f64() {
                Some(f) => Ok(f),
                None => self.err("expected a real"),
            },
            Value::String(s) => match s.as_str() {
                "inf" | "+inf" => Ok(f64::INFINITY),
                "-inf" => Ok(f64::NEG_INFINITY),
                "nan" => Ok(f64::from_bits(NAN64)),
                "-nan" => Ok(f64::from_bits(NAN64 | SIGN64)),
                s => match s.strip_prefix("nan:0x").or_else(|| s.strip_prefix("nan:0X")) {
                    Some(h) if h.len() == 16 => match u64::from_str_radix(h, 16) {
                        Ok(b) if f64::from_bits(b).is_nan() => Ok(f64::from_bits(b)),
                        _ => self.err(format!("`{s}` is not a NaN's bits")),
                    },
                    // An f32 NaN given where a double is held: widen it keeping its payload.
                    Some(h) if h.len() == 8 => match u32::from_str_radix(h, 16) {
                        Ok(b) if f32::from_bits(b).is_nan() => Ok(real_from_f32_bits(b)),
                        _ => self.err(format!("`{s}` is not a NaN's bits")),
                    },
                    _ => self.err(format!(
                        "expected a real: a number, \"inf\", \"-inf\", \"nan\", \"-nan\" or \"nan:0x…\", not `{s}`"
                    )),
                },
            },
            _ => self.err("expected a real"),
        }
    }

    /// An `f32`: a real rounded to single precision (exact for what [`to_json`] writes).
    fn real32(&self, v: &Value) -> Res<f32> {
        if let Value::String(s) = v {
            match s.as_str() {
                "nan" => return Ok(f32::from_bits(NAN32)),
                "-nan" => return Ok(f32::from_bits(NAN32 | SIGN32)),
                _ => {}
            }
            if let Some(h) = s.strip_prefix("nan:0x").filter(|h| h.len() == 8) {
                return match u32::from_str_radix(h, 16) {
                    Ok(b) if f32::from_bits(b).is_nan() => Ok(f32::from_bits(b)),
                    _ => self.err(format!("`{s}` is not a NaN's bits")),
                };
            }
        }
        Ok(f32::from_bits(real_to_f32_bits(self.real(v)?)))
    }

    /// The components of a math value laid out in `shape` (see [`shape`]).
    fn shaped(&mut self, shape: &Tree, comps: &[Component], v: &Value, out: &mut [f64]) -> Res<()> {
        match shape {
            Tree::Scalar(i) => {
                let x = match comps.get(*i).map(|c| c.scalar) {
                    Some(Scalar::I32) => f64::from(self.i32(v)?),
                    Some(Scalar::F32) => real_from_f32_bits(self.real32(v)?.to_bits()),
                    _ => self.real(v)?,
                };
                if let Some(slot) = out.get_mut(*i) {
                    *slot = x;
                }
            }
            Tree::Struct(fields) if !shape.is_flat() => {
                let o = self.object(v)?;
                for (name, n) in fields {
                    self.at(format!(".{name}"), |r| {
                        let x = r.field(o, name)?;
                        r.shaped(n, comps, x, out)
                    })?;
                }
            }
            // An array, or a struct of scalars written as one.
            _ => {
                let items: Vec<&Tree> = match shape {
                    Tree::Array(items) => items.iter().collect(),
                    Tree::Struct(fields) => fields.iter().map(|(_, t)| t).collect(),
                    Tree::Scalar(_) => Vec::new(),
                };
                let a = self.array(v)?;
                if a.len() != items.len() {
                    let scalar = |n: &Tree| match n {
                        Tree::Scalar(i) => comps.get(*i).map(|c| c.scalar),
                        _ => None,
                    };
                    let first = items.first().and_then(|n| scalar(n));
                    let what = match first {
                        _ if !items.iter().all(|n| scalar(n) == first) => "values",
                        Some(Scalar::I32) => "integers",
                        Some(_) => "reals",
                        None => "values",
                    };
                    return self.err(format!("expected {} {what}", items.len()));
                }
                for (i, (n, x)) in items.iter().zip(a).enumerate() {
                    self.at(format!("[{i}]"), |r| r.shaped(n, comps, x, out))?;
                }
            }
        }
        Ok(())
    }

    fn hex(&self, v: &Value) -> Res<Vec<u8>> {
        let s = self.string(v)?;
        let s: Vec<u8> = s.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
        if s.len() & 1 == 1 {
            return self.err("expected hex digits in pairs");
        }
        s.chunks(2)
            .map(|p| {
                std::str::from_utf8(p)
                    .ok()
                    .and_then(|p| u8::from_str_radix(p, 16).ok())
            })
            .collect::<Option<Vec<u8>>>()
            .map_or_else(|| self.err("expected hex digits"), Ok)
    }

    fn pair(&mut self, p: &Value) -> Res<(Variant, Variant)> {
        let a = self.array(p)?;
        if a.len() != 2 {
            return self.err("expected [KEY, VALUE]");
        }
        let k = self.at("[0]", |r| r.value(&a[0]))?;
        let v = self.at("[1]", |r| r.value(&a[1]))?;
        Ok((k, v))
    }

    fn pair_named(&mut self, p: &Value) -> Res<(String, Variant)> {
        let a = self.array(p)?;
        if a.len() != 2 {
            return self.err("expected [\"name\", VALUE]");
        }
        let k = self.at("[0]", |r| r.string(&a[0]))?;
        let v = self.at("[1]", |r| r.value(&a[1]))?;
        Ok((k, v))
    }

    fn element_type(&mut self, t: &Value) -> Res<Option<ElementType>> {
        match t {
            Value::Null => Ok(None),
            Value::Object(o) if o.len() == 1 => {
                let (k, v) = o.iter().next().expect("one entry");
                let s = self.at(format!(".{k}"), |r| r.string(v))?;
                match k.as_str() {
                    "builtin" => match kind_named(&s) {
                        Some(kind) => Ok(Some(ElementType::Builtin(kind))),
                        None => self.err(format!("unknown type `{s}`")),
                    },
                    "class" => Ok(Some(ElementType::Class(s))),
                    "script" => Ok(Some(ElementType::Script(s))),
                    _ => self.err("expected {\"builtin\": …}, {\"class\": …} or {\"script\": …}"),
                }
            }
            _ => self.err("expected null, {\"builtin\": …}, {\"class\": …} or {\"script\": …}"),
        }
    }
}
