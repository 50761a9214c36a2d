//! `explain`, `guess` and `convert`: the library's tools, their results as Python tuples and
//! dicts. Containers (`project.binary`, `.gdc`) and resource files will join here as the
//! library gains them.
use crate::api::BytesLike;
use crate::errors::decode_error;
use crate::options;
use gdvariant::explain::{explain as explain_bytes, ExplainOptions};
use gdvariant::guess::{guess as guess_bytes, Candidate};
use gdvariant::migrate::{migrate_in_place, Report, Target};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

/// One explained field: `(offset, length, depth, field, value, meaning)`.
type Line = (usize, usize, usize, String, String, String);

/// Every field of `data` at its offset: a list of `(offset, length, depth, field, value,
/// meaning)`. Malformed input is explained up to the bad byte, and a last line with field
/// `"error"` gives the decoder's error at its offset. `all` lists every array element
/// (otherwise 16, then a summary line).
#[pyfunction]
#[pyo3(signature = (data, *, dialect="godot4", version=None, framing="none", allow_objects=false, all=false))]
pub fn explain(
    data: BytesLike<'_>,
    dialect: &str,
    version: Option<&str>,
    framing: &str,
    allow_objects: bool,
    all: bool,
) -> PyResult<Vec<Line>> {
    let data = data.as_bytes();
    let format = options::format(dialect, version, framing, allow_objects)?;
    let mut opts = ExplainOptions::new(format.dialect);
    opts.decode.version = format.decode.version;
    opts.decode.allow_objects = allow_objects;
    opts.framing = format.framing;
    if all {
        opts.max_elements = usize::MAX;
    }
    let x = explain_bytes(data, &opts);
    let mut lines: Vec<Line> = x
        .lines
        .into_iter()
        .map(|l| (l.offset, l.len, l.depth, l.field, l.value, l.description))
        .collect();
    if let Some(e) = x.error {
        lines.push((
            e.offset(),
            0,
            0,
            "error".into(),
            String::new(),
            e.to_string(),
        ));
    }
    Ok(lines)
}

/// Which engine, version range and framing most likely wrote `data`: a dict with
/// `confidence` (`"high"`, `"ambiguous"`, `"low"`, `"none"`), `dialect`, `versions`
/// (`("3.0", "3.6")`), `framing`, `values`, `complete`, `error`, and `ties` (the readings
/// that fit as well, in the same form).
#[pyfunction]
pub fn guess<'py>(py: Python<'py>, data: BytesLike<'_>) -> PyResult<Bound<'py, PyDict>> {
    let data = data.as_bytes();
    let g = py.allow_threads(|| guess_bytes(data, None));
    let out = candidate(py, &g.best, g.total)?;
    out.set_item(
        "confidence",
        match g.confidence {
            gdvariant::guess::Confidence::High => "high",
            gdvariant::guess::Confidence::Ambiguous => "ambiguous",
            gdvariant::guess::Confidence::Low => "low",
            _ => "none",
        },
    )?;
    let ties = PyList::empty(py);
    for t in g.ties.iter().skip(1) {
        ties.append(candidate(py, t, g.total)?)?;
    }
    out.set_item("ties", ties)?;
    Ok(out)
}

fn candidate<'py>(py: Python<'py>, c: &Candidate, total: usize) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(
        "dialect",
        c.era.dialect.to_string().to_lowercase().replace(' ', ""),
    )?;
    d.set_item(
        "versions",
        (c.era.first.to_string(), c.era.last.to_string()),
    )?;
    d.set_item("framing", c.framing.name())?;
    d.set_item("values", c.values)?;
    d.set_item("complete", c.complete(total))?;
    d.set_item("error", c.error.as_ref().map(|(at, m)| (*at, m.clone())))?;
    Ok(d)
}

/// Converts every value of `data` from one dialect to another (`src` and `dst` are
/// dialect names, with `src_version` / `dst_version`), keeping `framing`. Returns
/// `(bytes, report)`; the report is a dict of `renumbered` and `renamed` type counts and
/// the `losses` (`(path, what, became)`). Anything the target cannot hold raises
/// `ConversionLost` (with the report) unless `lossy`.
#[pyfunction]
#[pyo3(signature = (data, src, dst, *, src_version=None, dst_version=None, framing="none", allow_objects=false, lossy=false))]
#[allow(clippy::too_many_arguments)]
pub fn convert<'py>(
    py: Python<'py>,
    data: BytesLike<'_>,
    src: &str,
    dst: &str,
    src_version: Option<&str>,
    dst_version: Option<&str>,
    framing: &str,
    allow_objects: bool,
    lossy: bool,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyDict>)> {
    let data = data.as_bytes();
    let from = options::format(src, src_version, framing, allow_objects)?;
    let to = options::format(dst, dst_version, framing, allow_objects)?;
    let (ft, tt) = (
        Target::new(from.dialect, from.decode.version),
        Target::new(to.dialect, to.decode.version),
    );
    let mut report = Report::default();
    let mut out = Vec::new();
    let mut values = gdvariant::framing::frames(data, &from);
    for v in values.by_ref() {
        let mut v = v.map_err(|e| decode_error(py, e.to_string(), Some(e.offset())))?;
        report.merge(migrate_in_place(&mut v, ft, tt));
        gdvariant::framing::frame_into(&mut out, &v, &to)
            .map_err(|e| crate::errors::from_encode(py, &e))?;
    }
    let rep = report_dict(py, &report)?;
    if !report.is_exact() && !lossy {
        let cls = py.import("gdvariant._errors")?.getattr("ConversionLost")?;
        let message = format!(
            "{} value(s) cannot be represented in {dst}; pass lossy=True to convert anyway",
            report.losses.len()
        );
        return Err(PyErr::from_value(cls.call1((message, rep))?));
    }
    Ok((PyBytes::new(py, &out), rep))
}

fn report_dict<'py>(py: Python<'py>, r: &Report) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let renumbered: Vec<_> = r
        .renumbered
        .iter()
        .map(|((a, an, b, bn), n)| (*a, an.clone(), *b, bn.clone(), *n))
        .collect();
    let renamed: Vec<_> = r
        .renamed
        .iter()
        .map(|((id, a, b), n)| (*id, a.clone(), b.clone(), *n))
        .collect();
    let losses: Vec<_> = r
        .losses
        .iter()
        .map(|l| (l.path.clone(), l.what.clone(), l.became.clone()))
        .collect();
    d.set_item("renumbered", renumbered)?;
    d.set_item("renamed", renamed)?;
    d.set_item("losses", losses)?;
    Ok(d)
}
