//! The keyword arguments every call shares (dialect, version, framing, objects), read into
//! the library's `Format`: the one place the bindings turn Python strings into options.
use gdvariant::framing::Framing;
use gdvariant::{Dialect, Format, Version};
use pyo3::exceptions::PyValueError;
use pyo3::PyResult;

/// The dialect named `name` (`godot3`, `godot4`, `pandemonium`).
pub fn dialect(name: &str) -> PyResult<Dialect> {
    name.parse::<Dialect>().map_err(PyValueError::new_err)
}

/// The engine version `text` (`"4.3"`), if given.
pub fn version(text: Option<&str>) -> PyResult<Option<Version>> {
    text.map(|t| {
        t.parse::<Version>()
            .map_err(|e| PyValueError::new_err(e.to_string()))
    })
    .transpose()
}

/// The framing named `name` (`none`, `store-var`, `store-var-be`, `packet-stream`).
pub fn framing(name: &str) -> PyResult<Framing> {
    // The default, without the general parser's lower-casing copy: small values are
    // decoded in about a microsecond, and this is called for every one.
    if name == "none" {
        return Ok(Framing::Bare);
    }
    name.parse::<Framing>().map_err(PyValueError::new_err)
}

/// The format of the arguments: the dialect at `version`, framed, objects allowed or not.
pub fn format(
    dialect_name: &str,
    version_text: Option<&str>,
    framing_name: &str,
    allow_objects: bool,
) -> PyResult<Format> {
    let mut format = Format::new(dialect(dialect_name)?).framing(framing(framing_name)?);
    if let Some(v) = version(version_text)? {
        format = format.version(v);
    }
    format.decode.allow_objects = allow_objects;
    format.encode.full_objects = allow_objects;
    Ok(format)
}
