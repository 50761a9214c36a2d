//! Resource files (`.tres`, `.res`) and ConfigFile text for Python: a resource file as the
//! library's model Dictionary (`ResourceFile::to_variant`) in exact Python values, and back;
//! a ConfigFile as a dict of sections, written back with only the changed entries rewritten.
use crate::api::BytesLike;
use crate::errors::{decode_error, encode_error, from_failure};
use crate::from_py::FromPy;
use crate::options;
use crate::to_py::ToPy;
use gdvariant::resource::{ResourceError, ResourceFile};
use gdvariant::text::ConfigFile;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

fn offset(e: &ResourceError) -> Option<usize> {
    match e {
        ResourceError::Binary { offset, .. } => Some(*offset),
        _ => None,
    }
}

/// The model of the `.tres`/`.res` file `data`: a dict with `class`, `script_class`,
/// `encoding`, `ext_resources`, `sub_resources` and `main` (each resource a dict with
/// `class`, `id` and `properties`), values exact (StringName, typed arrays kept) so that
/// `write_resource` gives the same bytes. Malformed files raise `DecodeError`.
#[pyfunction]
pub fn read_resource(py: Python<'_>, data: BytesLike<'_>) -> PyResult<PyObject> {
    let file = ResourceFile::read(data.as_bytes())
        .map_err(|e| decode_error(py, e.to_string(), offset(&e)))?;
    ToPy::new(py, true)?.value(&file.to_variant())
}

/// The bytes of the resource file whose model is `model` (as `read_resource` gives it,
/// edited), in the encoding its `encoding` names. A model that is not one raises
/// `EncodeError` naming the field.
#[pyfunction]
pub fn write_resource<'py>(
    py: Python<'py>,
    model: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let v = FromPy::new(py)?
        .value(model)
        .map_err(|f| from_failure(py, f))?;
    let file = ResourceFile::from_variant(&v).map_err(|e| encode_error(py, e.to_string(), None))?;
    let bytes = file
        .write()
        .map_err(|e| encode_error(py, e.to_string(), None))?;
    Ok(PyBytes::new(py, &bytes))
}

fn parse_config(py: Python<'_>, text: &str, dialect: &str) -> PyResult<ConfigFile> {
    ConfigFile::parse(text, options::dialect(dialect)?)
        .map_err(|e| decode_error(py, e.to_string(), None))
}

/// The ConfigFile `text` as `{section: {key: value}}`, in file order (entries before the
/// first section under `""`). Malformed text raises `DecodeError` with the line.
#[pyfunction]
#[pyo3(signature = (text, *, dialect="godot4"))]
pub fn read_config<'py>(
    py: Python<'py>,
    text: &str,
    dialect: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let cfg = parse_config(py, text, dialect)?;
    let to = ToPy::new(py, true)?;
    let out = PyDict::new(py);
    let mut sections: Vec<&str> = Vec::new();
    if cfg.entries("").next().is_some() {
        sections.push("");
    }
    sections.extend(cfg.sections());
    for section in sections {
        let entries = PyDict::new(py);
        for (key, value) in cfg.entries(section) {
            entries.set_item(key, to.value(value)?)?;
        }
        out.set_item(section, entries)?;
    }
    Ok(out)
}

/// `text` with the entries of `values` (`{section: {key: value}}`) set: an entry whose
/// value is unchanged keeps its text byte for byte, a changed one is rewritten in place, a
/// new one added as `ConfigFile.save` lays it out; comments and blank lines are kept.
#[pyfunction]
#[pyo3(signature = (text, values, *, dialect="godot4"))]
pub fn write_config(
    py: Python<'_>,
    text: &str,
    values: &Bound<'_, PyDict>,
    dialect: &str,
) -> PyResult<String> {
    let mut cfg = parse_config(py, text, dialect)?;
    let from = FromPy::new(py)?;
    for (section, entries) in values.iter() {
        let section: String = section.extract()?;
        let entries = entries.downcast::<PyDict>()?;
        for (key, value) in entries.iter() {
            let key: String = key.extract()?;
            let value = from.value(&value).map_err(|f| from_failure(py, f))?;
            if cfg.get(&section, &key).is_some_and(|old| old.same(&value)) {
                continue;
            }
            cfg.set(&section, &key, value);
        }
    }
    Ok(cfg.to_text())
}
