//! Writing the JSON form without serde: a value's text appended straight into a buffer, byte for byte what [`Json`] serializes.

use super::*;
use super::{scalars::*, walk::*, write::*};

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

/// serde_json's formatter for numbers and escapes; it keeps no state.
pub(super) type Fmt = serde_json::ser::CompactFormatter;

/// `,"value":`, the key every value but Nil and Callable has, last in its head.
pub(super) const VALUE_KEY: &[u8] = b",\"value\":";

/// Room for the longest head, `{"type":"PackedVector4Array","value":` (37 bytes).
pub(super) const HEAD: usize = 48;

/// `{"type":"KIND","value":` of a kind, padded to a fixed size: copying one is a few stores
/// where a copy of its length was a `memcpy` call, and most values are small.
pub(super) struct Head {
    pub(super) bytes: [u8; HEAD],
    pub(super) len: usize,
}

/// The [`Head`] of each kind (kind names are identifiers: nothing to escape).
pub(super) fn head(kind: Kind) -> &'static Head {
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
pub(super) fn kind_table<T>(f: impl Fn(Kind) -> T) -> Vec<T> {
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
pub(super) fn put_prefix<const N: usize>(out: &mut Vec<u8>, bytes: &[u8; N], len: usize) {
    debug_assert!(len <= N);
    let end = out.len() + len;
    out.extend_from_slice(bytes);
    out.truncate(end);
}

pub(super) fn append_here(out: &mut Vec<u8>, v: &Variant) {
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
pub(super) fn value(out: &mut Vec<u8>, v: &Variant) {
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
pub(super) fn entries(out: &mut Vec<u8>, entries: &[(Variant, Variant)]) {
    seq(out, entries, |out, (k, v)| {
        out.push(b'[');
        append(out, k);
        out.push(b',');
        append(out, v);
        out.push(b']');
    });
}

/// The components one `visit` gives, in a stack array (a `Projection`'s 16 at most).
pub(super) fn scalars(visit: impl FnOnce(&mut dyn FnMut(f64))) -> ([f64; 16], usize) {
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
pub(super) fn seq<T>(out: &mut Vec<u8>, items: &[T], mut f: impl FnMut(&mut Vec<u8>, &T)) {
    out.push(b'[');
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        f(out, x);
    }
    out.push(b']');
}

/// As [`ElementJ`] serializes.
pub(super) fn element_type(out: &mut Vec<u8>, t: Option<&ElementType>) {
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
pub(super) const PIECE: usize = 16;

/// One step of a math value's JSON text: literal text (a fixed-size copy), then maybe a
/// component.
pub(super) struct Step {
    pub(super) text: [u8; PIECE],
    pub(super) len: usize,
    /// The component written after the text, and its scalar type (`None`: a real).
    pub(super) component: Option<(usize, Option<Scalar>)>,
}

/// The steps of a math kind's JSON text as [`Shaped`] serializes it (its shape walked once,
/// not per value): `[` x `,` y `]` for a Vector2, `{"position":[` x `,` y … for a Rect2.
pub(super) fn plan(kind: Kind) -> &'static [Step] {
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
pub(super) fn lay_out(
    shape: &Tree,
    comps: &[Component],
    steps: &mut Vec<Step>,
    text: &mut Vec<u8>,
) {
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
pub(super) fn step(steps: &mut Vec<Step>, text: &[u8], component: Option<(usize, Option<Scalar>)>) {
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
pub(super) fn shaped(out: &mut Vec<u8>, steps: &[Step], values: &[f64]) {
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
