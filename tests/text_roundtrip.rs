//! Round trips of the text form on random values, offline: `to_text_exact` reads back to the
//! same value bit for bit in every dialect (keys in their order), and `to_text` does wherever it loses nothing (by the named
//! loss rules of tests/common/text.rs). Honours PROPTEST_CASES and PROPTEST_RNG_SEED.

mod common;
use common::text::text_losses;
use common::textgen::{godot3_value, godot4_value};
use gdvariant::*;
use proptest::prelude::*;

/// Equality as the text can carry it: every NaN is alike, Dictionary keys in any order,
/// a null Object is Nil (the engines send it as Nil), a Signal is empty (printed `Signal()`).
fn same_as_text(a: &Variant, b: &Variant) -> bool {
    use Variant::*;
    let f = |x: f64, y: f64| (x.is_nan() && y.is_nan()) || x.to_bits() == y.to_bits();
    let f32s = |x: f32, y: f32| f(f64::from(x), f64::from(y));
    match (a, b) {
        (Float(x), Float(y)) => f(*x, *y),
        (Object(gdvariant::Object::Null), Nil) | (Nil, Object(gdvariant::Object::Null)) => true,
        (Signal(_), Signal(_)) => true,
        (Array(x), Array(y)) => {
            x.typed == y.typed
                && x.items.len() == y.items.len()
                && x.items
                    .iter()
                    .zip(&y.items)
                    .all(|(p, q)| same_as_text(p, q))
        }
        (Dictionary(x), Dictionary(y)) => {
            x.typed() == y.typed()
                && x.len() == y.len()
                && x.entries().iter().all(|(k, v)| {
                    y.entries()
                        .iter()
                        .any(|(k2, v2)| same_as_text(k, k2) && same_as_text(v, v2))
                })
        }
        (PackedFloat32Array(x), PackedFloat32Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| f32s(*p, *q))
        }
        (PackedFloat64Array(x), PackedFloat64Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| f(*p, *q))
        }
        (Color(x), Color(y)) => {
            f32s(x.r, y.r) && f32s(x.g, y.g) && f32s(x.b, y.b) && f32s(x.a, y.a)
        }
        (PackedColorArray(x), PackedColorArray(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(p, q)| same_as_text(&Color(*p), &Color(*q)))
        }
        // Math types: compare their text, which prints every component exactly (NaNs alike).
        _ if a.kind() == b.kind() => {
            a == b || to_text_exact(a, Dialect::Godot4) == to_text_exact(b, Dialect::Godot4)
        }
        _ => false,
    }
}

fn check(v: &Variant, d: Dialect) -> Result<(), TestCaseError> {
    let exact = to_text_exact(v, d);
    let back =
        from_text(&exact, d).map_err(|e| TestCaseError::fail(format!("{d}: {e}\n{exact}")))?;
    // The exact form keeps everything: keys in their order, Signals, every bit.
    prop_assert!(
        v.same(&back),
        "{d}: exact text does not read back\n{exact}\n{back:?}"
    );
    if text_losses(v, d).is_empty() {
        let text = to_text(v, d);
        let back =
            from_text(&text, d).map_err(|e| TestCaseError::fail(format!("{d}: {e}\n{text}")))?;
        prop_assert!(
            same_as_text(v, &back),
            "{d}: lossless text does not read back\n{text}"
        );
    }
    Ok(())
}

proptest! {
    #[test]
    fn godot3_and_pandemonium_text_reads_back(v in godot3_value()) {
        // Godot 3 RIDs print nothing; an exact text keeps them.
        check(&v, Dialect::Godot3)?;
        check(&v, Dialect::Pandemonium)?;
    }

    #[test]
    fn godot4_text_reads_back(v in godot4_value()) {
        check(&v, Dialect::Godot4)?;
    }
}
