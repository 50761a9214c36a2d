//! The step the Python `Unpacker` repeats: is a whole value at the start of the buffer, and
//! if so, which one and how many bytes it used.
use crate::errors::decode_error;
use crate::options;
use crate::to_py::ToPy;
use gdvariant::framing::{available, decode_frame, Availability};
use pyo3::prelude::*;

/// The next value of `buf[start..]`: `(value, used)`, or `None` until more bytes arrive. `final`
/// says no more will (a value cut short is then a `DecodeError`); `offset` is where `buf`
/// starts in the whole stream, for error offsets.
#[pyfunction]
#[pyo3(signature = (buf, start, offset, *, dialect, version, framing, allow_objects, exact, max_frame, r#final))]
#[allow(clippy::too_many_arguments)]
pub fn next_value(
    py: Python<'_>,
    buf: &[u8],
    start: usize,
    offset: usize,
    dialect: &str,
    version: Option<&str>,
    framing: &str,
    allow_objects: bool,
    exact: bool,
    max_frame: usize,
    r#final: bool,
) -> PyResult<Option<(PyObject, usize)>> {
    let mut format = options::format(dialect, version, framing, allow_objects)?;
    format.decode.keep_leading_bom = exact;
    let buf = buf.get(start..).unwrap_or_default();
    let err = |m: String, at: usize| decode_error(py, m, Some(offset + at));
    let len = match available(buf, &format, max_frame) {
        Ok(Availability::Complete { len }) => len,
        Ok(Availability::NeedMore { .. }) if !r#final => return Ok(None),
        Ok(Availability::NeedMore { .. }) if buf.is_empty() => return Ok(None),
        Ok(Availability::NeedMore { needed }) => {
            if format.framing == gdvariant::framing::Framing::Bare {
                // At the true end a last value may lack its padding, as the engine allows.
                if let Some(Ok(v)) = gdvariant::framing::frames(buf, &format).next() {
                    return Ok(Some((ToPy::new(py, exact)?.value(&v)?, buf.len())));
                }
            }
            return Err(err(
                format!("stream ends inside a value: {needed} more bytes needed"),
                buf.len(),
            ));
        }
        Err(e) => return Err(err(e.to_string(), e.offset())),
    };
    let prefix = format.framing.prefix_len();
    let value = if prefix == 0 {
        gdvariant::decode(&buf[..len], format.dialect, &format.decode)
            .map(|(v, _)| v)
            .map_err(|e| err(e.to_string(), e.offset()))?
    } else {
        decode_frame(&buf[prefix..len], 0, &format)
            .map(|f| f.value)
            .map_err(|e| err(e.to_string(), e.offset()))?
    };
    Ok(Some((ToPy::sized(py, exact, len)?.value(&value)?, len)))
}
