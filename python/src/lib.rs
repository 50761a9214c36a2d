//! The `gdvariant._native` extension module: the library's calls for Python. The Python
//! package (`python/gdvariant/`) re-exports them beside its value classes.
mod api;
mod classes;
mod errors;
mod from_py;
mod options;
mod resource;
mod stream;
mod to_py;
mod tools;

use gdvariant::math::{components_of, fixed_from, Scalar};
use gdvariant::{Dialect, Kind};
use pyo3::prelude::*;

/// One row of [`math_table`].
type MathKind = (String, String, Vec<(String, &'static str)>, Option<String>);

/// The math and packed kinds from the library's tables, for `_math.py` to make classes of:
/// `(kind, text name, [(component path, scalar)], packed)`; scalar is `"real"`, `"int"` or
/// `"f32"`; the last is the element kind of a packed array (`None` for a math kind).
#[pyfunction]
fn math_table() -> Vec<MathKind> {
    let mut out = Vec::new();
    for &kind in Kind::ALL {
        let Some(comps) = components_of(kind) else {
            continue;
        };
        let packed = !kind.is_fixed();
        let element = kind.packed_element().unwrap_or(kind);
        // The engine's own spelling (`AABB`), from the text form of a zero value.
        let zero = fixed_from(element, &mut |_| 0.0).expect("a fixed kind");
        let text = gdvariant::to_text(&zero, Dialect::Godot4);
        let element_name = text.split('(').next().unwrap_or_default().to_string();
        let name = if packed {
            kind.name().to_string()
        } else {
            element_name
        };
        let comps = comps
            .iter()
            .map(|c| {
                let s = match c.scalar {
                    Scalar::Real => "real",
                    Scalar::I32 => "int",
                    Scalar::F32 => "f32",
                };
                (c.path.to_string(), s)
            })
            .collect();
        let element = kind.packed_element().map(|k| k.name().to_string());
        out.push((kind.name().to_string(), name, comps, element));
    }
    out
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(api::loads, m)?)?;
    m.add_function(wrap_pyfunction!(api::dumps, m)?)?;
    m.add_function(wrap_pyfunction!(api::to_text, m)?)?;
    m.add_function(wrap_pyfunction!(api::from_text, m)?)?;
    m.add_function(wrap_pyfunction!(api::to_json, m)?)?;
    m.add_function(wrap_pyfunction!(api::from_json, m)?)?;
    m.add_function(wrap_pyfunction!(tools::explain, m)?)?;
    m.add_function(wrap_pyfunction!(tools::guess, m)?)?;
    m.add_function(wrap_pyfunction!(tools::convert, m)?)?;
    m.add_function(wrap_pyfunction!(stream::next_value, m)?)?;
    m.add_function(wrap_pyfunction!(math_table, m)?)?;
    m.add_function(wrap_pyfunction!(api::json_of_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(resource::read_resource, m)?)?;
    m.add_function(wrap_pyfunction!(resource::write_resource, m)?)?;
    m.add_function(wrap_pyfunction!(resource::read_config, m)?)?;
    m.add_function(wrap_pyfunction!(resource::write_config, m)?)?;
    Ok(())
}
