//! How explain shows bytes: reals, quoted text, hex, the elements of packed arrays.

use crate::variant::layout::Scalar;
use crate::variant::layout::{read_u32, read_u64};
use crate::variant::Variant;

/// The first `shown` elements of a fixed-stride packed array, each printed readably.
pub(super) fn packed_items(v: &Variant, shown: usize) -> Vec<String> {
    let each = |n: usize, f: &dyn Fn(usize) -> String| (0..n.min(shown)).map(f).collect();
    match v {
        Variant::PackedInt32Array(x) => each(x.len(), &|i| x[i].to_string()),
        Variant::PackedInt64Array(x) => each(x.len(), &|i| x[i].to_string()),
        Variant::PackedFloat32Array(x) => each(x.len(), &|i| real(f64::from(x[i]))),
        Variant::PackedFloat64Array(x) => each(x.len(), &|i| real(x[i])),
        // Packed arrays of math values: `(x, y, …)` per element, from the spec's components.
        other => match other.as_packed() {
            Some(p) => {
                let comps = p.components();
                p.values()
                    .chunks(comps.len().max(1))
                    .take(shown)
                    .map(|e| {
                        let parts: Vec<String> = e
                            .iter()
                            .zip(comps)
                            .map(|(x, c)| match c.scalar {
                                Scalar::I32 => (*x as i32).to_string(),
                                _ => real(*x),
                            })
                            .collect();
                        format!("({})", parts.join(", "))
                    })
                    .collect()
            }
            None => Vec::new(),
        },
    }
}

/// A real, shortest form that reads back to the same value (`{}` of Rust).
fn real(v: f64) -> String {
    if v.is_nan() {
        format!("nan ({:#x})", v.to_bits())
    } else {
        format!("{v:?}")
    }
}

/// A value in a few characters, for a payload line.
pub(super) fn short(v: &Variant) -> String {
    match v {
        Variant::Bool(b) => b.to_string(),
        Variant::Int(i) => i.to_string(),
        Variant::Float(f) => real(*f),
        Variant::Rid(r) => format!("RID {r}"),
        other => format!("{other:?}"),
    }
}

/// A field's bytes as its spec type says (`u32`, `i32`, `f32`, `f64`, `real`, …).
pub(super) fn field_value(raw: &[u8], ty: &str) -> String {
    let u32v = || (raw.len() >= 4).then(|| read_u32(raw, 0));
    let u64v = || (raw.len() >= 8).then(|| read_u64(raw, 0));
    let s = match (ty, raw.len()) {
        ("u32", 4) => u32v().map(|v| v.to_string()),
        ("i32", 4) => u32v().map(|v| (v as i32).to_string()),
        ("i32" | "i64", 8) | ("i64", _) => u64v().map(|v| (v as i64).to_string()),
        ("u64", 8) => u64v().map(|v| v.to_string()),
        ("f32" | "real" | "f64", 4) => {
            u32v().map(|v| real(crate::variant::layout::real_from_f32_bits(v)))
        }
        ("f32" | "real" | "f64", 8) => u64v().map(|v| real(f64::from_bits(v))),
        _ => None,
    };
    s.unwrap_or_else(|| hex_preview(raw))
}

pub(super) fn quote(s: &str) -> String {
    const MAX: usize = 60;
    let mut out = String::from("\"");
    for (i, c) in s.chars().enumerate() {
        if i == MAX {
            out.push_str("\"…");
            return out;
        }
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\u{feff}' => out.push_str("\\ufeff"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub(super) fn hex_preview(b: &[u8]) -> String {
    const MAX: usize = 16;
    let mut s: Vec<String> = b.iter().take(MAX).map(|x| format!("{x:02x}")).collect();
    if b.len() > MAX {
        s.push(format!("… ({} bytes)", b.len()));
    }
    s.join(" ")
}
