//! Variant → Python: plain Python values where they fit, the package's classes where they do
//! not; `exact` keeps what plain Python would merge (StringName, typed containers).
use crate::classes::{classes, Classes};
use gdvariant::math::{FixedValue, PackedValue, Scalar};
use gdvariant::{Dictionary, ElementType, GString, Kind, Object, Variant};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyFloat, PyList, PyString};
use pyo3::IntoPyObjectExt;
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// What a conversion needs: the interpreter, the classes and the mode.
pub struct ToPy<'py> {
    py: Python<'py>,
    classes: &'py Classes,
    exact: bool,
    /// Short dictionary keys already made: a save repeats the same few keys in every
    /// record, and one shared `str` each beats a new one per record.
    keys: RefCell<FxHashMap<String, Py<PyAny>>>,
    /// Whether keys are shared: not for small inputs, where the table costs more than it saves.
    share_keys: bool,
}

/// Keys up to this many bytes are shared; at most `KEYS_SHARED` of them.
const KEY_SHARED_LEN: usize = 32;
const KEYS_SHARED: usize = 4096;
/// Inputs from this size on share their keys.
const SHARE_KEYS_FROM: usize = 4096;

impl<'py> ToPy<'py> {
    /// A converter; `exact` keeps StringName and the types of typed containers.
    pub fn new(py: Python<'py>, exact: bool) -> PyResult<ToPy<'py>> {
        Self::sized(py, exact, usize::MAX)
    }

    /// A converter for a value decoded from `input_len` bytes.
    pub fn sized(py: Python<'py>, exact: bool, input_len: usize) -> PyResult<ToPy<'py>> {
        Ok(ToPy {
            py,
            classes: classes(py)?,
            exact,
            keys: RefCell::new(FxHashMap::default()),
            share_keys: input_len >= SHARE_KEYS_FROM,
        })
    }

    /// The Python value of `v`.
    pub fn value(&self, v: &Variant) -> PyResult<PyObject> {
        let py = self.py;
        if let Some(x) = v.as_fixed() {
            return self.fixed(x);
        }
        if let Some(xs) = v.as_packed() {
            return self.packed_fixed(xs);
        }
        Ok(match v {
            Variant::Nil => py.None(),
            Variant::Bool(b) => b.into_py_any(py)?,
            Variant::Int(i) => i.into_py_any(py)?,
            Variant::Float(f) => PyFloat::new(py, *f).into_any().unbind(),
            Variant::String(s) => py_str(py, s)?.unbind(),
            Variant::StringName(s) if self.exact => self
                .classes
                .string_name
                .bind(py)
                .call1((py_str(py, &s.0)?,))?
                .unbind(),
            Variant::StringName(s) => py_str(py, &s.0)?.unbind(),
            Variant::NodePath(p) => self
                .classes
                .node_path
                .bind(py)
                .call1((p.to_string(),))?
                .unbind(),
            Variant::Rid(id) => self.classes.rid.bind(py).call1((*id,))?.unbind(),
            Variant::Object(o) => self.object(o)?,
            Variant::Callable => self.classes.callable.bind(py).call0()?.unbind(),
            Variant::Signal(s) => self
                .classes
                .signal
                .bind(py)
                .call1((&s.name, s.object))?
                .unbind(),
            Variant::Array(a) => {
                let list = PyList::empty(py);
                for item in &a.items {
                    list.append(self.value(item)?)?;
                }
                match &a.typed {
                    Some(t) if self.exact => self
                        .classes
                        .typed_array
                        .bind(py)
                        .call1((element_type(&t.element), list, t.pandemonium_packed))?
                        .unbind(),
                    _ => list.into_any().unbind(),
                }
            }
            Variant::Dictionary(d) => self.dictionary(d)?,
            Variant::PackedByteArray(b) => PyBytes::new(py, b).into_any().unbind(),
            Variant::PackedInt32Array(x) => {
                self.packed(Kind::PackedInt32Array, 'i', bytes_of(x))?
            }
            Variant::PackedInt64Array(x) => {
                self.packed(Kind::PackedInt64Array, 'q', bytes_of(x))?
            }
            Variant::PackedFloat32Array(x) => {
                self.packed(Kind::PackedFloat32Array, 'f', bytes_of(x))?
            }
            Variant::PackedFloat64Array(x) => {
                self.packed(Kind::PackedFloat64Array, 'd', bytes_of(x))?
            }
            Variant::PackedStringArray(x) => {
                let list = PyList::empty(py);
                for s in x {
                    list.append(py_str(py, s)?)?;
                }
                self.classes
                    .packed_string_array
                    .bind(py)
                    .call1((list,))?
                    .unbind()
            }
            other => {
                return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                    "no Python form for {:?}",
                    other.kind()
                )))
            }
        })
    }

    /// A dictionary key: short strings are made once per call.
    fn key(&self, k: &Variant) -> PyResult<PyObject> {
        let Variant::String(s) = k else {
            return self.value(k);
        };
        if !self.share_keys || s.len() > KEY_SHARED_LEN || !s.is_unicode() {
            return self.value(k);
        }
        let mut keys = self.keys.borrow_mut();
        if let Some(o) = keys.get(s.as_str()) {
            return Ok(o.clone_ref(self.py));
        }
        let o = PyString::new(self.py, s.as_str()).into_any().unbind();
        if keys.len() < KEYS_SHARED {
            keys.insert(s.as_str().to_string(), o.clone_ref(self.py));
        }
        Ok(o)
    }

    /// A math value: its class (a tuple) built from its components.
    fn fixed(&self, x: &dyn FixedValue) -> PyResult<PyObject> {
        let py = self.py;
        let comps = x.components();
        let mut items: Vec<PyObject> = Vec::with_capacity(comps.len());
        let mut i = 0;
        x.visit(&mut |c| {
            items.push(match comps[i].scalar {
                Scalar::I32 => (c as i64).into_py_any(py).expect("int"),
                _ => PyFloat::new(py, c).into_any().unbind(),
            });
            i += 1;
        });
        let cls = self.classes.by_kind[&x.kind()].bind(py);
        // The class is a tuple with no fields of its own: allocate it and fill its items,
        // as `tuple.__new__` would, without a Python call per value.
        unsafe {
            let obj = pyo3::ffi::PyType_GenericAlloc(cls.as_type_ptr(), items.len() as isize);
            let obj = Bound::from_owned_ptr_or_err(py, obj)?;
            for (i, item) in items.into_iter().enumerate() {
                if pyo3::ffi::PyTuple_SetItem(obj.as_ptr(), i as isize, item.into_ptr()) != 0 {
                    return Err(PyErr::fetch(py));
                }
            }
            Ok(obj.unbind())
        }
    }

    /// A packed array of math values: an `array.array` of every component, in order.
    fn packed_fixed(&self, xs: &dyn PackedValue) -> PyResult<PyObject> {
        let scalar = xs.components()[0].scalar;
        let mut bytes = Vec::new();
        xs.visit(&mut |c| match scalar {
            Scalar::Real => bytes.extend_from_slice(&c.to_ne_bytes()),
            Scalar::I32 => bytes.extend_from_slice(&(c as i32).to_ne_bytes()),
            Scalar::F32 => bytes.extend_from_slice(&(c as f32).to_ne_bytes()),
        });
        self.packed(xs.kind(), typecode(scalar), &bytes)
    }

    /// An `array.array` subclass of `kind` holding `bytes` (native order, as `array` keeps).
    fn packed(&self, kind: Kind, code: char, bytes: &[u8]) -> PyResult<PyObject> {
        let py = self.py;
        let cls = &self.classes.by_kind[&kind];
        let array = self
            .classes
            .array_new
            .bind(py)
            .call1((cls, code.to_string()))?;
        // One copy, straight into the array: a memoryview over the Rust buffer, which
        // `frombytes` reads before this function returns.
        let view = unsafe {
            let ptr = pyo3::ffi::PyMemoryView_FromMemory(
                bytes.as_ptr() as *mut std::os::raw::c_char,
                bytes.len() as pyo3::ffi::Py_ssize_t,
                PYBUF_READ,
            );
            Bound::from_owned_ptr_or_err(py, ptr)?
        };
        array.call_method1("frombytes", (&view,))?;
        view.call_method0("release")?;
        Ok(array.unbind())
    }

    fn object(&self, o: &Object) -> PyResult<PyObject> {
        let py = self.py;
        let cls = self.classes.object.bind(py);
        Ok(match o {
            Object::Null => cls.call0()?,
            Object::Id(id) => {
                let kw = PyDict::new(py);
                kw.set_item("id", *id)?;
                cls.call((), Some(&kw))?
            }
            Object::Full(full) => {
                let props = PyList::empty(py);
                for (name, value) in &full.properties {
                    props.append((name, self.value(value)?))?;
                }
                cls.call1((&full.class, props))?
            }
        }
        .unbind())
    }

    /// A `dict`, unless Python would merge or refuse keys (or, exactly, the dictionary is
    /// typed): then the package's `Dictionary` of pairs.
    fn dictionary(&self, d: &Dictionary) -> PyResult<PyObject> {
        let py = self.py;
        let typed = d.typed().filter(|_| self.exact);
        if typed.is_none() {
            let dict = PyDict::new(py);
            let mut fits = true;
            for (n, (k, v)) in d.iter().enumerate() {
                let key = self.key(k)?;
                // Unhashable (a list), or equal to an earlier key in Python (1, 1.0, True).
                if dict.set_item(&key, self.value(v)?).is_err() || dict.len() != n + 1 {
                    fits = false;
                    break;
                }
            }
            if fits && dict.len() == d.len() {
                return Ok(dict.into_any().unbind());
            }
        }
        let pairs = PyList::empty(py);
        for (k, v) in d.iter() {
            pairs.append((self.value(k)?, self.value(v)?))?;
        }
        let (kt, vt) = match typed {
            Some(t) => (
                t.key.as_ref().map(element_type),
                t.value.as_ref().map(element_type),
            ),
            None => (None, None),
        };
        Ok(self
            .classes
            .dictionary
            .bind(py)
            .call1((pairs, kt, vt))?
            .unbind())
    }
}

/// A Python `str` of an engine string: Godot 3 keeps lone surrogates, which a `str` can hold
/// too (code points past U+10FFFF, which it cannot, become U+FFFD).
pub fn py_str<'py>(py: Python<'py>, s: &GString) -> PyResult<Bound<'py, PyAny>> {
    if s.is_unicode() {
        return Ok(PyString::new(py, s.as_str()).into_any());
    }
    let utf32: Vec<u8> = s
        .code_points()
        .map(|c| if c > 0x10FFFF { 0xFFFD } else { c })
        .flat_map(u32::to_le_bytes)
        .collect();
    PyBytes::new(py, &utf32).call_method1("decode", ("utf-32-le", "surrogatepass"))
}

/// `PyBUF_READ` of CPython's `object.h` (a read-only memoryview), stable since 3.3.
const PYBUF_READ: std::os::raw::c_int = 0x100;

/// The `array` typecode of a scalar as the model holds it.
pub fn typecode(scalar: Scalar) -> char {
    match scalar {
        Scalar::Real => 'd',
        Scalar::I32 => 'i',
        Scalar::F32 => 'f',
    }
}

/// A typed container's element type as Python sees it: `("builtin", "Int")`, …
pub fn element_type(t: &ElementType) -> (&'static str, String) {
    match t {
        ElementType::Builtin(k) => ("builtin", k.name().to_string()),
        ElementType::Class(c) => ("class", c.clone()),
        ElementType::Script(s) => ("script", s.clone()),
    }
}

fn bytes_of<T: bytemuck::Pod>(x: &[T]) -> &[u8] {
    bytemuck::cast_slice(x)
}
