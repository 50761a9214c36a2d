//! Helpers of the text tests: why a value's engine text cannot give back its bytes.

use gdvariant::{to_text, to_text_exact, Dialect, Dictionary, ElementType, Object, Variant};

/// Every reason the engine's text of `v` loses information, by name; empty when the text
/// reads back to the same value (and so to the same bytes).
pub fn text_losses(v: &Variant, dialect: Dialect) -> Vec<&'static str> {
    let mut out = Vec::new();
    if to_text(v, dialect) != to_text_exact(v, dialect) {
        out.push("reals printed with 6 digits (or -0, or RID in Godot 3)");
    }
    walk(v, dialect, &mut out);
    out.sort();
    out.dedup();
    out
}

fn walk(v: &Variant, dialect: Dialect, out: &mut Vec<&'static str>) {
    if has_uncanonical_nan(v) {
        out.push("NaN sign or payload (printed as nan)");
    }
    match v {
        Variant::Signal(s) if *s != Default::default() => out.push("Signal prints as Signal()"),
        Variant::Object(Object::Full(f)) => {
            out.push("full object");
            for (_, p) in &f.properties {
                walk(p, dialect, out);
            }
        }
        Variant::Array(a) => {
            if a.element_type() == Some(&ElementType::Class("Object".into())) {
                out.push("Array[Object] by class reads back as the builtin type");
            }
            for i in &a.items {
                walk(i, dialect, out);
            }
        }
        Variant::Dictionary(d) => {
            if !sorted_like_the_engine(d, dialect) {
                out.push("dictionary keys not in the engine's sorted order");
            }
            for (k, x) in d.entries() {
                walk(k, dialect, out);
                walk(x, dialect, out);
            }
        }
        _ => {}
    }
}

/// Whether the engine's text lists the keys in insertion order: the keys of the text read
/// back come in the printed order, compared by their own text.
fn sorted_like_the_engine(d: &Dictionary, dialect: Dialect) -> bool {
    if d.len() < 2 {
        return true;
    }
    let text = to_text(&Variant::Dictionary(d.clone()), dialect);
    let Ok(Variant::Dictionary(back)) = gdvariant::from_text(&text, dialect) else {
        return false;
    };
    let keys = |d: &Dictionary| -> Vec<String> {
        d.entries()
            .iter()
            .map(|(k, _)| to_text(k, dialect))
            .collect()
    };
    keys(d) == keys(&back)
}

/// Whether a real of `v` itself (not of its elements) is a NaN other than the one `nan` reads
/// back as (positive quiet NaN; `f32` NaN for single-precision fields).
fn has_uncanonical_nan(v: &Variant) -> bool {
    let odd64 = |x: f64| x.is_nan() && x.to_bits() != f64::NAN.to_bits();
    let odd32 = |x: f64| x.is_nan() && (x as f32).to_bits() != f32::NAN.to_bits();
    match v {
        Variant::Float(x) => odd64(*x),
        Variant::PackedFloat64Array(a) => a.iter().any(|x| odd64(*x)),
        Variant::PackedFloat32Array(a) => a.iter().any(|x| odd32(f64::from(*x))),
        Variant::Vector2(p) => [p.x, p.y].into_iter().any(odd32),
        Variant::Vector3(p) => [p.x, p.y, p.z].into_iter().any(odd32),
        Variant::Vector4(p) => [p.x, p.y, p.z, p.w].into_iter().any(odd32),
        Variant::PackedVector2Array(a) => a.iter().any(|p| [p.x, p.y].into_iter().any(odd32)),
        Variant::PackedVector3Array(a) => a.iter().any(|p| [p.x, p.y, p.z].into_iter().any(odd32)),
        Variant::Color(c) => [c.r, c.g, c.b, c.a]
            .into_iter()
            .any(|x| odd32(f64::from(x))),
        Variant::PackedColorArray(a) => a.iter().any(|c| {
            [c.r, c.g, c.b, c.a]
                .into_iter()
                .any(|x| odd32(f64::from(x)))
        }),
        _ => false,
    }
}
