//! The library's errors as the package's Python exceptions (`gdvariant.DecodeError` with its
//! offset, `EncodeError` with its path, `ExtraData` with the value and the rest).
use crate::classes::classes;
use crate::from_py::Failure;
use pyo3::prelude::*;

/// A `DecodeError` with the message and the offset of the bad field.
pub fn decode_error(py: Python<'_>, message: String, offset: Option<usize>) -> PyErr {
    decode_error_from_engine(py, message, offset, None)
}

/// A `DecodeError` that also names the error the engine's decoder returns (`ERR_FILE_EOF`).
pub fn decode_error_from_engine(
    py: Python<'_>,
    message: String,
    offset: Option<usize>,
    engine_error: Option<&str>,
) -> PyErr {
    let args = (message, offset, None::<String>, engine_error);
    match classes(py).and_then(|c| c.decode_error.bind(py).call1(args)) {
        Ok(e) => PyErr::from_value(e),
        Err(e) => e,
    }
}

/// An `EncodeError` with the message and the path inside the value.
pub fn encode_error(py: Python<'_>, message: String, path: Option<String>) -> PyErr {
    match classes(py).and_then(|c| c.encode_error.bind(py).call1((message, path))) {
        Ok(e) => PyErr::from_value(e),
        Err(e) => e,
    }
}

/// The library's encode error, with its path when it has one.
pub fn from_encode(py: Python<'_>, e: &gdvariant::EncodeError) -> PyErr {
    use gdvariant::EncodeError as E;
    let path = match e {
        E::Unrepresentable { path, .. }
        | E::Unsupported { path, .. }
        | E::InexactReal { path, .. }
        | E::FullObjectNeedsFlag { path, .. } => Some(path.clone()),
        _ => None,
    };
    encode_error(py, e.to_string(), path)
}

/// A Python value with no Godot form.
pub fn from_failure(py: Python<'_>, f: Failure) -> PyErr {
    let path = f.path_text();
    encode_error(py, format!("{} (at {path})", f.message), Some(path))
}

/// `ExtraData(value, rest)`: a whole value, then bytes after it.
pub fn extra_data(py: Python<'_>, value: PyObject, rest: &[u8]) -> PyErr {
    let rest = pyo3::types::PyBytes::new(py, rest);
    match classes(py).and_then(|c| c.extra_data.bind(py).call1((value, rest))) {
        Ok(e) => PyErr::from_value(e),
        Err(e) => e,
    }
}
