//! Writing the JSON form: a value as `serde` sees it, math values in the shape of their struct.

use super::*;
use serde_json::ser::Formatter;
use std::io::Write;

/// The one definition of the JSON form's shape: a value as `serde` sees it.
/// [`to_json`] serializes through it; [`to_json_string`], [`write_json`] and [`append_json`]
/// write the same text without serde (`append`, below).
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
            Variant::String(x) => m.serialize_entry("value", &GStrJ(x))?,
            Variant::StringName(x) => m.serialize_entry("value", &GStrJ(&x.0))?,
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
            Variant::PackedStringArray(x) => m.serialize_entry("value", &Seq(x, GStrJ))?,
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

struct NodePathJ<'a> {
    names: &'a [GString],
    subnames: &'a [GString],
    absolute: bool,
}

impl Serialize for NodePathJ<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("names", &Seq(self.names, GStrJ))?;
        m.serialize_entry("subnames", &Seq(self.subnames, GStrJ))?;
        m.serialize_entry("absolute", &self.absolute)?;
        m.end()
    }
}

/// A string: a JSON string, or `{"engine_utf8": HEX}` for one that is not Unicode.
struct GStrJ<'a>(&'a GString);

impl Serialize for GStrJ<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.is_unicode() {
            return s.serialize_str(self.0);
        }
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(ENGINE_UTF8, &hex(self.0.engine_utf8()))?;
        m.end()
    }
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
pub(super) fn shape_of(kind: Kind) -> &'static Tree {
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

/// Appends the JSON text of `value` to `out`: byte for byte what serde_json writes for
/// [`Json`] (`tests/cli_json.rs` holds the two together on every fixture, on the edges of
/// each shortcut below and on generated values), but written straight into the buffer.
/// `decode --format json` spends its time here: each kind's head and each math kind's text
/// between its components are laid out once and copied as fixed-size pieces, math values
/// are read into a stack array instead of a `Vec`, integers and whole reals are written
/// here, other reals go through serde_json's own formatter (so a real prints exactly as
/// serde_json prints it), and short strings with nothing to escape are copied whole.
pub(super) fn append(out: &mut Vec<u8>, value: &Variant) {
    match value {
        Variant::Array(_) | Variant::Dictionary(_) | Variant::Object(Object::Full(_)) => {
            grow(|| append_here(out, value))
        }
        // The most common values, here rather than through `append_here` (a call with a big
        // frame and a second dispatch on the kind).
        Variant::String(x) => leaf(out, Kind::String, |out| gstring(out, x)),
        Variant::Int(i) => leaf(out, Kind::Int, |out| int(out, *i)),
        Variant::Float(f) => leaf(out, Kind::Float, |out| real(out, *f)),
        _ => append_here(out, value),
    }
}

/// Appends the JSON text of the value at the start of `buf` when the decoder's scan vouches
/// for it (see [`crate::decode::vouch`]): the text [`append`] writes of what `decode` gives,
/// written while the bytes are walked, with no value built and nothing to free. Gives the
/// bytes the value used; `None`, with `out` as it was, when the scan cannot vouch (the
/// caller decodes as usual, and the driver gives the verdict).
pub(super) fn append_vouched(
    out: &mut Vec<u8>,
    buf: &[u8],
    dialect: crate::Dialect,
    options: &crate::DecodeOptions,
) -> Option<usize> {
    let used = crate::decode::vouch(buf, dialect, options)?;
    let start = out.len();
    let ctx = crate::borrowed::Ctx::new(dialect, options);
    // Over vouched bytes the walk cannot fail; should it, the driver reads them instead.
    if walk(out, &buf[..used], &ctx) != Some(used) {
        out.truncate(start);
        return None;
    }
    debug_assert_eq!(
        std::str::from_utf8(&out[start..]).ok(),
        crate::decode(buf, dialect, options)
            .ok()
            .map(|(v, _)| super::to_json_string(&v))
            .as_deref(),
        "the walk wrote other text than the decoded value's"
    );
    Some(used)
}

/// A container [`walk`] has open: its elements (entries) not yet begun, and in a
/// dictionary's entry whether its key is written.
struct Level {
    left: u32,
    dict: bool,
    key_done: bool,
}

/// The JSON text of the value at the start of `buf`, which the scan vouched for: untyped
/// containers and plain text (what game data is mostly made of) are read here, every other
/// value by the decoder's own step for one value (`Decoder::one`, or the whole driver for a
/// value it opens), so the reading rules stay the decoder's. Gives where the value ends.
fn walk(out: &mut Vec<u8>, buf: &[u8], ctx: &crate::borrowed::Ctx) -> Option<usize> {
    use crate::quirks;
    let options = ctx.options();
    let mut d = crate::decode::Decoder::new(buf, 0, ctx.dialect, &options);
    // As deep as the value nests, which the scan bounded (and each level is 8 bytes of it).
    let mut stack: smallvec::SmallVec<[Level; 16]> = smallvec::SmallVec::new();
    loop {
        let at = d.pos;
        let (header, count) = match buf.get(at..at + 8) {
            Some(w) => (
                u32::from_le_bytes([w[0], w[1], w[2], w[3]]),
                u32::from_le_bytes([w[4], w[5], w[6], w[7]]),
            ),
            // A short leaf at the very end (Nil, an INT): its own step reads it.
            None => (u32::from_le_bytes(buf.get(at..at + 4)?.try_into().ok()?), 0),
        };
        let kind = d.kind_of(header & quirks::TYPE_MASK)?;
        let opened = match kind {
            Kind::String => {
                d.pos = at + 4;
                match d.plain_text() {
                    Some(s) => leaf(out, Kind::String, |out| string(out, s)),
                    None => {
                        d.pos = at;
                        one(out, &mut d)?;
                    }
                }
                false
            }
            // The commonest leaves, by the decoder's own reading of each (its step for any
            // value, through a `VariantRef`, cost more than writing them).
            Kind::Int if header & quirks::FLAG_64 == 0 => {
                // The 32-bit INT, already in hand with its header.
                d.pos = at + 8;
                leaf(out, Kind::Int, |out| int(out, i64::from(count as i32)));
                false
            }
            Kind::Float if header & quirks::FLAG_64 == 0 => {
                d.pos = at + 8;
                let f = crate::variant::layout::real_from_f32_bits(count);
                leaf(out, Kind::Float, |out| real(out, f));
                false
            }
            Kind::Int => {
                d.pos = at + 4;
                let i = d.int_payload(true).ok()?;
                leaf(out, Kind::Int, |out| int(out, i));
                false
            }
            Kind::Float => {
                d.pos = at + 4;
                let f = d.float_payload(true).ok()?;
                leaf(out, Kind::Float, |out| real(out, f));
                false
            }
            Kind::Vector2 => {
                d.pos = at + 4;
                let v = d.vector2_payload(header & quirks::FLAG_64 != 0).ok()?;
                leaf(out, Kind::Vector2, |out| {
                    out.push(b'[');
                    real(out, v.x);
                    out.push(b',');
                    real(out, v.y);
                    out.push(b']');
                });
                false
            }
            Kind::Array if header & quirks::TYPED_ARRAY == 0 => {
                stack.push(Level {
                    left: quirks::container_count(count),
                    dict: false,
                    key_done: false,
                });
                true
            }
            Kind::Dictionary if header & (quirks::TYPED_KEY | quirks::TYPED_VALUE) == 0 => {
                stack.push(Level {
                    left: quirks::container_count(count),
                    dict: true,
                    key_done: false,
                });
                true
            }
            _ => {
                one(out, &mut d)?;
                false
            }
        };
        if opened {
            d.pos = at + 8;
            let head = head(kind);
            put_prefix(out, &head.bytes, head.len);
            out.push(b'[');
        }
        // What follows: the next element of the innermost open container, or its end (and
        // then the same question of the one around it).
        let mut fresh = opened;
        loop {
            let Some(top) = stack.last_mut() else {
                return Some(d.pos);
            };
            if !fresh && top.dict {
                if !top.key_done {
                    top.key_done = true;
                    out.push(b',');
                    break;
                }
                out.push(b']');
            }
            if top.left == 0 {
                out.extend_from_slice(b"]}");
                stack.pop();
                fresh = false;
                continue;
            }
            if !fresh {
                out.push(b',');
            }
            top.left -= 1;
            if top.dict {
                top.key_done = false;
                out.push(b'[');
            }
            break;
        }
    }
}

/// The value at `d.pos` by the decoder's step for one value, its text appended.
#[inline(never)]
fn one(out: &mut Vec<u8>, d: &mut crate::decode::Decoder<'_, '_>) -> Option<()> {
    use crate::borrowed::VariantRef;
    let at = d.pos;
    let mut got = None;
    if d.one::<VariantRef<'_>>(|v| got = Some(v)).ok()?.is_some() {
        // A value the step opens (a typed container): the driver reads it whole.
        d.pos = at;
        let v: Variant = d.run().ok()?;
        append(out, &v);
        return Some(());
    }
    match got? {
        VariantRef::Int(i) => leaf(out, Kind::Int, |out| int(out, i)),
        VariantRef::Float(f) => leaf(out, Kind::Float, |out| real(out, f)),
        VariantRef::String(crate::StrRef::Borrowed(s)) => {
            leaf(out, Kind::String, |out| string(out, s))
        }
        v => append(out, &v.into_owned()),
    }
    Some(())
}

/// A value whose text is its head, what `value` writes and `}`.
#[inline(always)]
fn leaf(out: &mut Vec<u8>, kind: Kind, value: impl FnOnce(&mut Vec<u8>)) {
    let head = head(kind);
    put_prefix(out, &head.bytes, head.len);
    value(out);
    out.push(b'}');
}

/// serde_json's formatter for numbers and escapes; it keeps no state.
type Fmt = serde_json::ser::CompactFormatter;

/// `,"value":`, the key every value but Nil and Callable has, last in its head.
const VALUE_KEY: &[u8] = b",\"value\":";

/// Room for the longest head, `{"type":"PackedVector4Array","value":` (37 bytes).
const HEAD: usize = 48;

/// `{"type":"KIND","value":` of a kind, padded to a fixed size: copying one is a few stores
/// where a copy of its length was a `memcpy` call, and most values are small.
struct Head {
    bytes: [u8; HEAD],
    len: usize,
}

/// The [`Head`] of each kind (kind names are identifiers: nothing to escape).
fn head(kind: Kind) -> &'static Head {
    static HEADS: std::sync::OnceLock<Vec<Head>> = std::sync::OnceLock::new();
    let heads = HEADS.get_or_init(|| {
        kind_table(|k| {
            let text = format!("{{\"type\":\"{}\"", k.name()).into_bytes();
            let mut h = Head {
                bytes: [0; HEAD],
                len: text.len() + VALUE_KEY.len(),
            };
            h.bytes[..text.len()].copy_from_slice(&text);
            h.bytes[text.len()..h.len].copy_from_slice(VALUE_KEY);
            h
        })
    });
    &heads[kind as usize]
}

/// `f` of every kind, indexed by the kind's discriminant: the JSON pieces of each kind,
/// made once.
fn kind_table<T>(f: impl Fn(Kind) -> T) -> Vec<T> {
    let mut table: Vec<(usize, T)> = Kind::ALL.iter().map(|&k| (k as usize, f(k))).collect();
    table.sort_by_key(|e| e.0);
    assert!(
        table.iter().enumerate().all(|(i, e)| e.0 == i),
        "kinds are numbered 0, 1, …"
    );
    table.into_iter().map(|e| e.1).collect()
}

/// The first `len` bytes of `bytes`, written as all `N` of them and cut back: a constant-size
/// copy is a few stores, a variable one a `memcpy` call.
#[inline(always)]
fn put_prefix<const N: usize>(out: &mut Vec<u8>, bytes: &[u8; N], len: usize) {
    debug_assert!(len <= N);
    let end = out.len() + len;
    out.extend_from_slice(bytes);
    out.truncate(end);
}

fn append_here(out: &mut Vec<u8>, v: &Variant) {
    let head = head(v.kind());
    let key = |out: &mut Vec<u8>, k: &str| {
        out.extend_from_slice(b",\"");
        out.extend_from_slice(k.as_bytes());
        out.extend_from_slice(b"\":");
    };
    match v {
        // No value, or other keys before it: the head without its `,"value":`.
        Variant::Nil | Variant::Callable => {
            put_prefix(out, &head.bytes, head.len - VALUE_KEY.len())
        }
        Variant::Dictionary(d) if d.typed().is_some() => {
            put_prefix(out, &head.bytes, head.len - VALUE_KEY.len());
            if let Some(t) = d.typed() {
                key(out, "key_type");
                element_type(out, t.key.as_ref());
                key(out, "value_type");
                element_type(out, t.value.as_ref());
            }
            out.extend_from_slice(VALUE_KEY);
            entries(out, d.entries());
        }
        Variant::Array(Array {
            typed: Some(t),
            items,
        }) => {
            put_prefix(out, &head.bytes, head.len - VALUE_KEY.len());
            key(out, "element_type");
            element_type(out, Some(&t.element));
            if t.pandemonium_packed {
                key(out, "pandemonium_packed");
                out.extend_from_slice(b"true");
            }
            out.extend_from_slice(VALUE_KEY);
            seq(out, items, append);
        }
        _ => return leaf(out, v.kind(), |out| value(out, v)),
    }
    out.push(b'}');
}

/// What follows `"value":` in the JSON text of `v` (not Nil or Callable).
fn value(out: &mut Vec<u8>, v: &Variant) {
    match v {
        Variant::Nil | Variant::Callable => {}
        Variant::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Variant::Int(i) => int(out, *i),
        Variant::Float(f) => real(out, *f),
        Variant::String(x) => gstring(out, x),
        Variant::StringName(x) => gstring(out, &x.0),
        Variant::NodePath(p) => {
            out.extend_from_slice(b"{\"names\":");
            seq(out, &p.names, gstring);
            out.extend_from_slice(b",\"subnames\":");
            seq(out, &p.subnames, gstring);
            out.extend_from_slice(if p.absolute {
                b",\"absolute\":true}"
            } else {
                b",\"absolute\":false}"
            });
        }
        Variant::Rid(r) => unsigned(out, *r),
        Variant::Object(o) => match o {
            Object::Null => out.extend_from_slice(b"null"),
            Object::Id(id) => {
                out.extend_from_slice(b"{\"id\":");
                unsigned(out, *id);
                out.push(b'}');
            }
            Object::Full(f) => {
                out.extend_from_slice(b"{\"class\":");
                string(out, &f.class);
                out.extend_from_slice(b",\"properties\":");
                seq(out, &f.properties, |out, (name, value)| {
                    out.push(b'[');
                    string(out, name);
                    out.push(b',');
                    append(out, value);
                    out.push(b']');
                });
                out.push(b'}');
            }
        },
        Variant::Signal(x) => {
            out.extend_from_slice(b"{\"name\":");
            string(out, &x.name);
            out.extend_from_slice(b",\"object\":");
            unsigned(out, x.object);
            out.push(b'}');
        }
        Variant::Dictionary(d) => entries(out, d.entries()),
        Variant::Array(a) => seq(out, &a.items, append),
        Variant::PackedByteArray(b) => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.reserve(b.len() * 2 + 2);
            out.push(b'"');
            for x in b {
                out.extend_from_slice(&[HEX[usize::from(x >> 4)], HEX[usize::from(x & 15)]]);
            }
            out.push(b'"');
        }
        Variant::PackedInt32Array(x) => {
            seq(out, x, |out, i| int(out, i64::from(*i)));
        }
        Variant::PackedInt64Array(x) => seq(out, x, |out, i| int(out, *i)),
        Variant::PackedFloat32Array(x) => seq(out, x, |out, f| real32(out, *f)),
        Variant::PackedFloat64Array(x) => seq(out, x, |out, f| real(out, *f)),
        Variant::PackedStringArray(x) => seq(out, x, gstring),
        // Math values and packed arrays of them: the shape of their components, as `Shaped`.
        _ => {
            if let Some(f) = v.as_fixed() {
                let (values, n) = scalars(|g| f.visit(g));
                shaped(out, plan(f.kind()), &values[..n]);
            } else if let Some(p) = v.as_packed() {
                let steps = plan(p.element());
                out.push(b'[');
                for i in 0..p.len() {
                    if i > 0 {
                        out.push(b',');
                    }
                    let (values, n) = scalars(|g| p.visit_element(i, g));
                    shaped(out, steps, &values[..n]);
                }
                out.push(b']');
            }
        }
    }
}

/// A dictionary's entries: `[[KEY,VALUE],…]`.
fn entries(out: &mut Vec<u8>, entries: &[(Variant, Variant)]) {
    seq(out, entries, |out, (k, v)| {
        out.push(b'[');
        append(out, k);
        out.push(b',');
        append(out, v);
        out.push(b']');
    });
}

/// The components one `visit` gives, in a stack array (a `Projection`'s 16 at most).
fn scalars(visit: impl FnOnce(&mut dyn FnMut(f64))) -> ([f64; 16], usize) {
    let mut values = [0.0; 16];
    let mut n = 0;
    visit(&mut |x| {
        if let Some(slot) = values.get_mut(n) {
            *slot = x;
        }
        n += 1;
    });
    (values, n.min(16))
}

/// `[a,b,…]`, each element through `f`.
fn seq<T>(out: &mut Vec<u8>, items: &[T], mut f: impl FnMut(&mut Vec<u8>, &T)) {
    out.push(b'[');
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        f(out, x);
    }
    out.push(b']');
}

/// As [`I`] serializes.
fn int(out: &mut Vec<u8>, i: i64) {
    let quoted = !(-SAFE_INT..=SAFE_INT).contains(&i);
    if quoted {
        out.push(b'"');
    }
    if i < 0 {
        out.push(b'-');
    }
    digits(out, i.unsigned_abs());
    if quoted {
        out.push(b'"');
    }
}

/// As [`U`] serializes.
fn unsigned(out: &mut Vec<u8>, u: u64) {
    if u <= SAFE_INT as u64 {
        digits(out, u);
    } else {
        out.push(b'"');
        digits(out, u);
        out.push(b'"');
    }
}

/// `"00"`, `"01"`, …, `"99"`: two digits at a time.
static PAIRS: [u8; 200] = {
    let mut t = [0; 200];
    let mut i = 0;
    while i < 100 {
        t[2 * i] = b'0' + (i / 10) as u8;
        t[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    t
};

/// The decimal digits of `u` (as serde_json's `itoa` writes them), put in a fixed-size
/// array at their place and copied as all of it: no `memcpy` call for a few digits.
fn digits(out: &mut Vec<u8>, mut u: u64) {
    // Most integers in games are small (ids, counts, grid positions).
    if u < 10 {
        return out.push(b'0' + u as u8);
    }
    if u < 100 {
        let pair = u as usize * 2;
        return out.extend_from_slice(&PAIRS[pair..pair + 2]);
    }
    let n = u.checked_ilog10().unwrap_or(0) as usize + 1;
    let mut buf = [0u8; 20];
    let mut end = n;
    while u >= 100 {
        let pair = (u % 100) as usize * 2;
        u /= 100;
        buf[end - 2..end].copy_from_slice(&PAIRS[pair..pair + 2]);
        end -= 2;
    }
    if u >= 10 {
        let pair = u as usize * 2;
        buf[..2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        buf[0] = b'0' + u as u8;
    }
    put_prefix(out, &buf, n);
}

/// As [`R`] serializes.
fn real(out: &mut Vec<u8>, f: f64) {
    let whole = f as i64;
    if whole as f64 == f && whole != 0 && whole.unsigned_abs() < 1_000_000_000_000_000 {
        // Whole numbers (most reals in games: 100.0, positions on a grid) print as their
        // digits and `.0`, which is what serde_json's shortest-digits formatter gives below
        // 1e16 (fixed notation; every integer there is exact, so its digits are the
        // shortest); integer formatting is several times cheaper. Zero keeps its sign
        // through the formatter; NaN converts to 0 and infinities to ±2^63, so neither is
        // taken here. The `whole_reals_print_as_serde_json_does` test holds it.
        if whole < 0 {
            out.push(b'-');
        }
        digits(out, whole.unsigned_abs());
        out.extend_from_slice(b".0");
    } else if f == 0.0 {
        out.extend_from_slice(if f.is_sign_negative() {
            b"-0.0"
        } else {
            b"0.0"
        });
    } else if f.is_nan() {
        match f.to_bits() {
            NAN64 => out.extend_from_slice(b"\"nan\""),
            b if b == NAN64 | SIGN64 => out.extend_from_slice(b"\"-nan\""),
            b => {
                let _ = write!(out, "\"nan:{b:#018x}\"");
            }
        }
    } else if f.is_infinite() {
        out.extend_from_slice(if f > 0.0 { b"\"inf\"" } else { b"\"-inf\"" });
    } else {
        let _ = Fmt {}.write_f64(out, f);
    }
}

/// As [`R32`] serializes.
fn real32(out: &mut Vec<u8>, f: f32) {
    if f.is_nan() {
        match f.to_bits() {
            NAN32 => out.extend_from_slice(b"\"nan\""),
            b if b == NAN32 | SIGN32 => out.extend_from_slice(b"\"-nan\""),
            b => {
                let _ = write!(out, "\"nan:{b:#010x}\"");
            }
        }
    } else {
        real(out, f64::from(f));
    }
}

/// A string as [`GStrJ`] writes it (inlined as [`string`] is).
#[cfg_attr(not(debug_assertions), inline(always))]
fn gstring(out: &mut Vec<u8>, s: &GString) {
    if let Some(text) = s.as_unicode() {
        return string(out, text);
    }
    out.extend_from_slice(b"{\"engine_utf8\":\"");
    out.extend_from_slice(hex(s.engine_utf8()).as_bytes());
    out.extend_from_slice(b"\"}");
}

/// Longest text [`string`] copies in fixed-size pieces.
const SHORT: usize = 32;

/// A JSON string. Most strings (keys, names, paths) are short and have nothing to escape:
/// a word-at-a-time check says so, and the text goes out in one piece. Inlined where it is
/// called (one call fewer per string; LLVM would not on its own), in optimised builds only
/// as `encode`'s hot helpers are.
#[cfg_attr(not(debug_assertions), inline(always))]
fn string(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    if !clean(bytes) {
        return escaped(out, bytes);
    }
    let n = bytes.len();
    if n > SHORT {
        out.reserve(n + 2);
        out.push(b'"');
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    // The quotes and room for the text as one fixed-size copy, the text as two fixed-size
    // copies that overlap (each a store or two, where a copy of `n` bytes is a `memcpy`
    // call), then cut back to the closing quote.
    let at = out.len() + 1;
    out.extend_from_slice(&[b'"'; SHORT + 2]);
    let to = &mut out[at..at + n];
    match n {
        16.. => {
            to[..16].copy_from_slice(&bytes[..16]);
            to[n - 16..].copy_from_slice(&bytes[n - 16..]);
        }
        8.. => {
            to[..8].copy_from_slice(&bytes[..8]);
            to[n - 8..].copy_from_slice(&bytes[n - 8..]);
        }
        4.. => {
            to[..4].copy_from_slice(&bytes[..4]);
            to[n - 4..].copy_from_slice(&bytes[n - 4..]);
        }
        1.. => {
            to[0] = bytes[0];
            to[n / 2] = bytes[n / 2];
            to[n - 1] = bytes[n - 1];
        }
        0 => {}
    }
    out.truncate(at + n + 1);
}

/// Whether no byte of `b` needs escaping, eight at a time; the words may overlap, since
/// the question is only whether any byte does.
fn clean(b: &[u8]) -> bool {
    let n = b.len();
    let word = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
    let half = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"));
    match n {
        8.. => {
            let mut any = needs_escape(word(n - 8));
            for w in b.chunks_exact(8) {
                any |= needs_escape(u64::from_le_bytes(w.try_into().expect("8 bytes")));
            }
            any == 0
        }
        4.. => needs_escape(u64::from(half(0)) | u64::from(half(n - 4)) << 32) == 0,
        _ => !b.iter().any(|&c| ESCAPED[usize::from(c)]),
    }
}

/// Not zero when a byte of `x` is one [`ESCAPED`] marks: below 0x20, `"` or `\\` (the
/// classic "has a byte less than" and "has a zero byte" tests, exact as a yes or no).
fn needs_escape(x: u64) -> u64 {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = ONES * 0x80;
    let zero_byte = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    (x.wrapping_sub(ONES * 0x20) & !x & HIGH)
        | zero_byte(x ^ (ONES * u64::from(b'"')))
        | zero_byte(x ^ (ONES * u64::from(b'\\')))
}

/// A JSON string with bytes to escape: the text between them copied in runs, the escapes
/// written by serde_json's formatter (so they look exactly as serde_json writes them).
fn escaped(out: &mut Vec<u8>, bytes: &[u8]) {
    use serde_json::ser::CharEscape;
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if !ESCAPED[usize::from(b)] {
            continue;
        }
        let escape = match b {
            b'"' => CharEscape::Quote,
            b'\\' => CharEscape::ReverseSolidus,
            0x08 => CharEscape::Backspace,
            0x0c => CharEscape::FormFeed,
            b'\n' => CharEscape::LineFeed,
            b'\r' => CharEscape::CarriageReturn,
            b'\t' => CharEscape::Tab,
            _ => CharEscape::AsciiControl(b),
        };
        out.extend_from_slice(&bytes[start..i]);
        let _ = Fmt {}.write_char_escape(out, escape);
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// The bytes a JSON string escapes: control characters, `"` and `\\` (not DEL, not `/`: as
/// serde_json). The fast reader ends a string's plain run at them.
pub(super) static ESCAPED: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// As [`ElementJ`] serializes.
fn element_type(out: &mut Vec<u8>, t: Option<&ElementType>) {
    let (k, v) = match t {
        None => return out.extend_from_slice(b"null"),
        Some(ElementType::Builtin(k)) => ("builtin", k.name()),
        Some(ElementType::Class(c)) => ("class", c.as_str()),
        Some(ElementType::Script(p)) => ("script", p.as_str()),
    };
    out.extend_from_slice(b"{\"");
    out.extend_from_slice(k.as_bytes());
    out.extend_from_slice(b"\":");
    string(out, v);
    out.push(b'}');
}

/// Longest literal text of one [`Step`] (longer text takes several).
const PIECE: usize = 16;

/// One step of a math value's JSON text: literal text (a fixed-size copy), then maybe a
/// component.
struct Step {
    text: [u8; PIECE],
    len: usize,
    /// The component written after the text, and its scalar type (`None`: a real).
    component: Option<(usize, Option<Scalar>)>,
}

/// The steps of a math kind's JSON text as [`Shaped`] serializes it (its shape walked once,
/// not per value): `[` x `,` y `]` for a Vector2, `{"position":[` x `,` y … for a Rect2.
fn plan(kind: Kind) -> &'static [Step] {
    static PLANS: std::sync::OnceLock<Vec<Vec<Step>>> = std::sync::OnceLock::new();
    let plans = PLANS.get_or_init(|| {
        kind_table(|k| {
            let (mut steps, mut text) = (Vec::new(), Vec::new());
            let comps = components_of(k).unwrap_or_default();
            lay_out(shape_of(k), comps, &mut steps, &mut text);
            step(&mut steps, &text, None);
            steps
        })
    });
    &plans[kind as usize]
}

/// Adds the steps of `shape` to `steps`, its literal text gathered in `text` until a
/// component ends it.
fn lay_out(shape: &Tree, comps: &[Component], steps: &mut Vec<Step>, text: &mut Vec<u8>) {
    let mut list = |text: &mut Vec<u8>, items: &mut dyn Iterator<Item = &Tree>| {
        text.push(b'[');
        for (i, n) in items.enumerate() {
            if i > 0 {
                text.push(b',');
            }
            lay_out(n, comps, steps, text);
        }
        text.push(b']');
    };
    match shape {
        Tree::Scalar(i) => {
            step(steps, text, Some((*i, comps.get(*i).map(|c| c.scalar))));
            text.clear();
        }
        Tree::Array(items) => list(text, &mut items.iter()),
        flat @ Tree::Struct(fields) if flat.is_flat() => {
            list(text, &mut fields.iter().map(|(_, n)| n))
        }
        Tree::Struct(fields) => {
            text.push(b'{');
            for (i, (name, n)) in fields.iter().enumerate() {
                if i > 0 {
                    text.push(b',');
                }
                string(text, name);
                text.push(b':');
                lay_out(n, comps, steps, text);
            }
            text.push(b'}');
        }
    }
}

/// The steps writing `text` and then `component`.
fn step(steps: &mut Vec<Step>, text: &[u8], component: Option<(usize, Option<Scalar>)>) {
    let mut pieces: Vec<&[u8]> = text.chunks(PIECE).collect();
    if pieces.is_empty() {
        pieces.push(&[]);
    }
    let last = pieces.len() - 1;
    for (i, piece) in pieces.into_iter().enumerate() {
        let mut s = Step {
            text: [0; PIECE],
            len: piece.len(),
            component: if i == last { component } else { None },
        };
        s.text[..piece.len()].copy_from_slice(piece);
        steps.push(s);
    }
}

/// A math value's components (`values`) through its kind's [`plan`].
fn shaped(out: &mut Vec<u8>, steps: &[Step], values: &[f64]) {
    for s in steps {
        put_prefix(out, &s.text, s.len);
        if let Some((i, scalar)) = s.component {
            let x = values.get(i).copied().unwrap_or_default();
            match scalar {
                Some(Scalar::I32) => int(out, i64::from(x as i32)),
                Some(Scalar::F32) => real32(out, f32::from_bits(real_to_f32_bits(x))),
                _ => real(out, x),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time [`clean`] agrees with the [`ESCAPED`] table on every byte at every
    /// place of every length it treats apart, beside bytes that need no escape and bytes
    /// just above and below the ones that do (where a borrow could mislead it).
    #[test]
    fn clean_agrees_with_the_table() {
        for fill in [b'a', b'!', b'#', b'[', b']', 0x20, 0x7f, 0x80, 0xdf, 0xff] {
            for len in 0..=20 {
                for at in 0..len {
                    for b in 0..=255u8 {
                        let mut text = vec![fill; len];
                        text[at] = b;
                        let by_table = !text.iter().any(|&c| ESCAPED[usize::from(c)]);
                        assert_eq!(clean(&text), by_table, "{text:?}");
                    }
                }
            }
        }
    }

    /// [`digits`] writes what serde_json's integer formatter writes, at every digit count.
    #[test]
    fn digits_print_as_serde_json_does() {
        let mut cases = vec![0, u64::MAX, u64::MAX - 1];
        let mut p = 1u64;
        for _ in 0..20 {
            cases.extend([p - 1, p, p + 1, p.saturating_mul(2), p.saturating_mul(9)]);
            p = p.saturating_mul(10);
        }
        cases.extend((0..100_000).chain((0..64).map(|e| 1 << e)));
        for u in cases {
            let mut ours = Vec::new();
            digits(&mut ours, u);
            let mut theirs = Vec::new();
            Fmt {}.write_u64(&mut theirs, u).unwrap();
            assert_eq!(ours, theirs, "{u}");
        }
    }

    /// The fast path for whole reals writes what serde_json's own formatter writes, on each
    /// side of every power of ten and two it covers and around its edges.
    #[test]
    fn whole_reals_print_as_serde_json_does() {
        let mut cases: Vec<f64> = (-100_000..=100_000).map(|i| i as f64).collect();
        for e in 0..=16 {
            let p = 10f64.powi(e);
            cases.extend([p - 1.0, p, p + 1.0, 3.0 * p, 9.0 * p]);
        }
        for e in 0..=53 {
            let p = (1u64 << e) as f64;
            cases.extend([p - 1.0, p, p + 1.0]);
        }
        cases.extend([
            1e15 - 2.0,
            999_999_999_999_999.0,
            0.0,
            -0.0,
            0.5,
            -1.5,
            1e-7,
        ]);
        for x in cases.iter().flat_map(|&x| [x, -x]) {
            let mut ours = Vec::new();
            real(&mut ours, x);
            let mut theirs = Vec::new();
            Fmt {}.write_f64(&mut theirs, x).unwrap();
            assert_eq!(
                String::from_utf8_lossy(&ours),
                String::from_utf8_lossy(&theirs),
                "{x:?}"
            );
        }
    }
}
