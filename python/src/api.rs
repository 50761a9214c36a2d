//! `loads` / `dumps` and the text and JSON forms: each a call into the library, with the
//! Python values converted on either side. Large inputs decode with the GIL released.
use crate::errors::{
    decode_error, decode_error_from_engine, extra_data, from_encode, from_failure,
};
use crate::from_py::FromPy;
use crate::options;
use crate::to_py::ToPy;
use gdvariant::framing::{frames, Framing};
use gdvariant::Variant;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Any bytes-like input (`bytes`, `bytearray`, `memoryview`, an `array`, a numpy array):
/// `bytes` is read where it is, anything else copied into one first.
pub struct BytesLike<'py>(Bound<'py, PyBytes>);

impl<'py> FromPyObject<'py> for BytesLike<'py> {
    fn extract_bound(obj: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let Ok(b) = obj.downcast::<PyBytes>() {
            return Ok(BytesLike(b.clone()));
        }
        let bytes = obj.py().get_type::<PyBytes>().call1((obj,))?;
        Ok(BytesLike(bytes.downcast_into::<PyBytes>()?))
    }
}

impl BytesLike<'_> {
    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

/// Inputs below this decode with the GIL held: releasing it costs more than they take.
const RELEASE_GIL_FROM: usize = 64 * 1024;

/// Decodes one value from `data` (bytes-like) and returns it as Python values.
///
/// `dialect` is `"godot4"` (default), `"godot3"` or `"pandemonium"`; `version` the engine
/// version that wrote the bytes (`"4.3"`; default the newest); `framing` `"none"` (bytes of
/// `var_to_bytes`), `"store-var"`, `"store-var-be"` or `"packet-stream"`. Objects are refused
/// unless `allow_objects`. `exact=True` keeps StringName and the types of typed containers
/// so that `dumps(loads(b, exact=True)) == b`. Bytes after the value raise `ExtraData`,
/// which holds the value and the rest; malformed bytes raise `DecodeError` with the offset.
#[pyfunction]
#[pyo3(signature = (data, *, dialect="godot4", version=None, framing="none", allow_objects=false, exact=false))]
pub fn loads(
    py: Python<'_>,
    data: BytesLike<'_>,
    dialect: &str,
    version: Option<&str>,
    framing: &str,
    allow_objects: bool,
    exact: bool,
) -> PyResult<PyObject> {
    let data = data.as_bytes();
    let mut format = options::format(dialect, version, framing, allow_objects)?;
    // Exactly: a leading BOM stays in its string, so it is written back.
    format.decode.keep_leading_bom = exact;
    type Failed = (String, usize, Option<&'static str>);
    let run = || -> Result<(Variant, usize), Failed> {
        if format.framing == Framing::Bare {
            return gdvariant::decode(data, format.dialect, &format.decode)
                .map_err(|e| (e.to_string(), e.offset(), Some(e.engine_error())));
        }
        let mut it = frames(data, &format);
        match it.next() {
            Some(Ok(v)) => Ok((v, it.offset())),
            Some(Err(e)) => Err((e.to_string(), e.offset(), None)),
            None => Err((
                "no value in empty input".into(),
                0,
                Some("ERR_INVALID_DATA"),
            )),
        }
    };
    let result = if data.len() >= RELEASE_GIL_FROM {
        py.allow_threads(run)
    } else {
        run()
    };
    let (value, used) =
        result.map_err(|(m, at, engine)| decode_error_from_engine(py, m, Some(at), engine))?;
    let obj = ToPy::sized(py, exact, data.len())?.value(&value)?;
    if data.len() >= RELEASE_GIL_FROM {
        // Freeing a big value costs as much as a tenth of decoding it: the caller has its
        // Python objects already, so another thread frees it meanwhile.
        std::thread::spawn(move || drop(value));
    }
    if used < data.len() {
        return Err(extra_data(py, obj, &data[used..]));
    }
    Ok(obj)
}

/// Encodes `obj` as the bytes Godot's `var_to_bytes` (or `store_var`, with `framing`) writes.
///
/// `full_objects` writes `Object`s in full (`var_to_bytes_with_objects`); `double_precision`
/// writes reals as a `precision=double` build does; `round_reals` rounds reals that do not
/// fit single precision instead of raising `EncodeError`.
#[pyfunction]
#[pyo3(signature = (obj, *, dialect="godot4", version=None, framing="none", full_objects=false, double_precision=false, round_reals=false))]
#[allow(clippy::too_many_arguments)]
pub fn dumps<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
    dialect: &str,
    version: Option<&str>,
    framing: &str,
    full_objects: bool,
    double_precision: bool,
    round_reals: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let mut format = options::format(dialect, version, framing, full_objects)?;
    format.encode.double_precision = double_precision;
    format.encode.round_reals = round_reals;
    let value = FromPy::new(py)?
        .value(obj)
        .map_err(|f| from_failure(py, f))?;
    let mut out = Vec::new();
    gdvariant::framing::frame_into(&mut out, &value, &format).map_err(|e| from_encode(py, &e))?;
    Ok(PyBytes::new(py, &out))
}

/// The engine's text form of `obj` (what `var_to_str` prints), for `dialect`. The engine
/// prints reals of math types with 6 significant digits; `exact=True` prints every real so
/// that it reads back to the same value.
#[pyfunction]
#[pyo3(signature = (obj, *, dialect="godot4", exact=false))]
pub fn to_text(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    dialect: &str,
    exact: bool,
) -> PyResult<String> {
    let value = FromPy::new(py)?
        .value(obj)
        .map_err(|f| from_failure(py, f))?;
    let dialect = options::dialect(dialect)?;
    Ok(if exact {
        gdvariant::to_text_exact(&value, dialect)
    } else {
        gdvariant::to_text(&value, dialect)
    })
}

/// Reads the engine's text form (`str_to_var`), for `dialect`; raises `DecodeError`.
#[pyfunction]
#[pyo3(signature = (text, *, dialect="godot4", exact=false))]
pub fn from_text(py: Python<'_>, text: &str, dialect: &str, exact: bool) -> PyResult<PyObject> {
    let value = gdvariant::from_text(text, options::dialect(dialect)?)
        .map_err(|e| decode_error(py, e.to_string(), None))?;
    ToPy::new(py, exact)?.value(&value)
}

/// The lossless, type-tagged JSON form of `obj` (`{"type": "Int", "value": 42}`), as text.
#[pyfunction]
pub fn to_json(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let value = FromPy::new(py)?
        .value(obj)
        .map_err(|f| from_failure(py, f))?;
    Ok(gdvariant::json::to_json_string(&value))
}

/// Reads the lossless JSON form back; raises `DecodeError`.
#[pyfunction]
#[pyo3(signature = (text, *, exact=false))]
pub fn from_json(py: Python<'_>, text: &str, exact: bool) -> PyResult<PyObject> {
    let value =
        gdvariant::json::from_json_str(text).map_err(|e| decode_error(py, e.to_string(), None))?;
    ToPy::new(py, exact)?.value(&value)
}

/// The library's JSON form of the value in `data`, straight from the bytes (no Python values
/// in between): what the tests compare `to_json(loads(data))` with. `None` if it fails.
#[pyfunction]
#[pyo3(signature = (data, *, dialect="godot4", version=None, allow_objects=false, keep_leading_bom=false))]
pub fn json_of_bytes(
    data: &[u8],
    dialect: &str,
    version: Option<&str>,
    allow_objects: bool,
    keep_leading_bom: bool,
) -> PyResult<Option<String>> {
    let mut format = options::format(dialect, version, "none", allow_objects)?;
    format.decode.keep_leading_bom = keep_leading_bom;
    let mut buf = Vec::new();
    // The fast writer vouches only for what it handles alone; the rest goes through a Variant.
    if gdvariant::json::append_json_of_bytes(&mut buf, data, format.dialect, &format.decode)
        .is_some()
    {
        return Ok(Some(String::from_utf8_lossy(&buf).into_owned()));
    }
    Ok(gdvariant::decode(data, format.dialect, &format.decode)
        .ok()
        .map(|(v, _)| gdvariant::json::to_json_string(&v)))
}
