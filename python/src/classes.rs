//! The Python classes that values are built from (defined in `gdvariant/_values.py`, and the
//! math and packed classes that `gdvariant/_math.py` makes from the library's own tables),
//! looked up once per interpreter.
use gdvariant::Kind;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::PyType;
use std::collections::HashMap;

/// Every class a value can be built as, and the kind each type of Python value stands for.
pub struct Classes {
    pub string_name: Py<PyType>,
    pub node_path: Py<PyType>,
    pub typed_array: Py<PyType>,
    pub dictionary: Py<PyType>,
    pub object: Py<PyType>,
    pub rid: Py<PyType>,
    pub callable: Py<PyType>,
    pub signal: Py<PyType>,
    pub packed_string_array: Py<PyType>,
    pub extra_data: Py<PyType>,
    pub decode_error: Py<PyType>,
    pub encode_error: Py<PyType>,
    /// `array.array.__new__`: the packed classes are arrays.
    pub array_new: PyObject,
    /// Math and packed classes by kind.
    pub by_kind: HashMap<Kind, Py<PyType>>,
    /// The kind of each math and packed class, by the class's address.
    pub kind_of: HashMap<usize, Kind>,
}

static CLASSES: GILOnceCell<Classes> = GILOnceCell::new();

/// The classes, imported on first use.
pub fn classes(py: Python<'_>) -> PyResult<&Classes> {
    CLASSES.get_or_try_init(py, || load(py))
}

fn load(py: Python<'_>) -> PyResult<Classes> {
    let values = py.import("gdvariant._values")?;
    let errors = py.import("gdvariant._errors")?;
    let math = py.import("gdvariant._math")?;
    let class = |m: &Bound<'_, PyModule>, name: &str| -> PyResult<Py<PyType>> {
        Ok(m.getattr(name)?.downcast_into::<PyType>()?.unbind())
    };
    let mut by_kind = HashMap::new();
    let mut kind_of = HashMap::new();
    for (name, cls) in math
        .getattr("CLASSES_BY_KIND")?
        .extract::<HashMap<String, Bound<'_, PyType>>>()?
    {
        let kind = gdvariant::json::kind_named(&name)
            .ok_or_else(|| pyo3::exceptions::PyRuntimeError::new_err(format!("no kind {name}")))?;
        kind_of.insert(cls.as_ptr() as usize, kind);
        by_kind.insert(kind, cls.unbind());
    }
    Ok(Classes {
        string_name: class(&values, "StringName")?,
        node_path: class(&values, "NodePath")?,
        typed_array: class(&values, "TypedArray")?,
        dictionary: class(&values, "Dictionary")?,
        object: class(&values, "Object")?,
        rid: class(&values, "RID")?,
        callable: class(&values, "Callable")?,
        signal: class(&values, "Signal")?,
        packed_string_array: class(&math, "PackedStringArray")?,
        extra_data: class(&errors, "ExtraData")?,
        decode_error: class(&errors, "DecodeError")?,
        encode_error: class(&errors, "EncodeError")?,
        array_new: py
            .import("array")?
            .getattr("array")?
            .getattr("__new__")?
            .unbind(),
        by_kind,
        kind_of,
    })
}
