//! Python → Variant: the inverse of `to_py`, plus numpy arrays (by their buffer, numpy not
//! imported) and tuples; a value with no Godot form is an error naming where it is.
use crate::classes::{classes, Classes};
use gdvariant::math::{components_of, fixed_from, packed_from, Scalar};
use gdvariant::{
    Array, ArrayType, Dictionary, DictionaryType, ElementType, FullObject, GString, Kind, NodePath,
    Object, Signal, StringName, Variant,
};
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple,
};

/// Why a value could not be converted, and where (innermost segment first).
pub struct Failure {
    pub message: String,
    pub path: Vec<String>,
}

impl Failure {
    fn new(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            path: Vec::new(),
        }
    }

    fn at(mut self, segment: String) -> Failure {
        self.path.push(segment);
        self
    }

    /// `value[2].pos`, as the library's encode errors spell paths.
    pub fn path_text(&self) -> String {
        let mut s = String::from("value");
        for seg in self.path.iter().rev() {
            s.push_str(seg);
        }
        s
    }
}

impl From<pyo3::DowncastError<'_, '_>> for Failure {
    fn from(e: pyo3::DowncastError<'_, '_>) -> Failure {
        Failure::new(e.to_string())
    }
}

impl From<PyErr> for Failure {
    fn from(e: PyErr) -> Failure {
        Failure::new(e.to_string())
    }
}

type Result<T> = std::result::Result<T, Failure>;

/// Converts Python values with the classes looked up once.
pub struct FromPy<'py> {
    classes: &'py Classes,
}

impl<'py> FromPy<'py> {
    /// A converter.
    pub fn new(py: Python<'py>) -> PyResult<FromPy<'py>> {
        Ok(FromPy {
            classes: classes(py)?,
        })
    }

    /// The Variant of `obj`.
    pub fn value(&self, obj: &Bound<'py, PyAny>) -> Result<Variant> {
        let py = obj.py();
        let c = self.classes;
        let ty = obj.get_type();
        // The common exact types first, by identity: one pointer compare each.
        if obj.is_none() {
            return Ok(Variant::Nil);
        }
        if obj.is_exact_instance_of::<PyString>() {
            return Ok(Variant::String(gstring(obj)?));
        }
        if obj.is_exact_instance_of::<PyInt>() {
            return int(obj).map(Variant::Int);
        }
        if obj.is_exact_instance_of::<PyFloat>() {
            return Ok(Variant::Float(obj.downcast::<PyFloat>()?.value()));
        }
        if obj.is_instance_of::<PyBool>() {
            return Ok(Variant::Bool(obj.is_truthy()?));
        }
        if obj.is_exact_instance_of::<PyDict>() {
            return self.dict(obj.downcast::<PyDict>()?);
        }
        if obj.is_exact_instance_of::<PyList>() || obj.is_exact_instance_of::<PyTuple>() {
            return Ok(Variant::Array(Array::new(self.items(obj)?)));
        }
        if let Some(&kind) = c.kind_of.get(&(ty.as_ptr() as usize)) {
            return self.math(obj, kind);
        }
        if obj.is_instance(c.string_name.bind(py))? {
            return Ok(Variant::StringName(StringName(gstring(obj)?)));
        }
        if obj.is_instance(c.node_path.bind(py))? {
            let s = obj.downcast::<PyString>()?.to_cow()?;
            return Ok(Variant::NodePath(Box::new(NodePath::parse(&s))));
        }
        if obj.is_instance(c.rid.bind(py))? {
            return Ok(Variant::Rid(obj.extract::<u64>()?));
        }
        if obj.is_instance(c.typed_array.bind(py))? {
            let (kind, name): (String, String) = obj.getattr("element_type")?.extract()?;
            let element = element_type(&kind, &name)?;
            let mut a = Array::typed(element, self.items(obj)?);
            if obj.getattr("pandemonium_packed")?.is_truthy()? {
                a.typed = a.typed.map(|t| {
                    Box::new(ArrayType {
                        pandemonium_packed: true,
                        ..*t
                    })
                });
            }
            return Ok(Variant::Array(a));
        }
        if obj.is_instance(c.packed_string_array.bind(py))? {
            let mut v = Vec::new();
            for (i, s) in obj.try_iter()?.enumerate() {
                v.push(gstring(&s?).map_err(|f| f.at(format!("[{i}]")))?);
            }
            return Ok(Variant::PackedStringArray(v));
        }
        if obj.is_instance(c.dictionary.bind(py))? {
            return self.pairs(obj);
        }
        if obj.is_instance(c.object.bind(py))? {
            return self.object(obj);
        }
        if obj.is_instance(c.callable.bind(py))? {
            return Ok(Variant::Callable);
        }
        if obj.is_instance(c.signal.bind(py))? {
            return Ok(Variant::Signal(Signal {
                name: obj.getattr("name")?.extract()?,
                object: obj.getattr("object")?.extract()?,
            }));
        }
        // Subclasses of the plain types, after the package's own subclasses of them.
        if obj.is_instance_of::<PyString>() {
            return Ok(Variant::String(gstring(obj)?));
        }
        if obj.is_instance_of::<PyInt>() {
            return int(obj).map(Variant::Int);
        }
        if obj.is_instance_of::<PyFloat>() {
            return Ok(Variant::Float(obj.extract::<f64>()?));
        }
        if let Ok(b) = obj.downcast::<PyBytes>() {
            return Ok(Variant::PackedByteArray(b.as_bytes().to_vec()));
        }
        if let Ok(b) = obj.downcast::<PyByteArray>() {
            return Ok(Variant::PackedByteArray(b.to_vec()));
        }
        if let Ok(d) = obj.downcast::<PyDict>() {
            return self.dict(d);
        }
        if obj.hasattr("dtype")? && obj.hasattr("tobytes")? {
            return numpy(obj);
        }
        if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
            return Ok(Variant::Array(Array::new(self.items(obj)?)));
        }
        Err(Failure::new(format!(
            "{} has no Godot form",
            ty.name().map(|n| n.to_string()).unwrap_or_default()
        )))
    }

    fn items(&self, obj: &Bound<'py, PyAny>) -> Result<Vec<Variant>> {
        let mut out = Vec::with_capacity(obj.len().unwrap_or(0));
        for (i, item) in obj.try_iter()?.enumerate() {
            out.push(self.value(&item?).map_err(|f| f.at(format!("[{i}]")))?);
        }
        Ok(out)
    }

    fn dict(&self, d: &Bound<'py, PyDict>) -> Result<Variant> {
        let mut out = Dictionary::new();
        for (k, v) in d.iter() {
            let key = self.value(&k).map_err(|f| f.at(segment(&k)))?;
            let value = self.value(&v).map_err(|f| f.at(segment(&k)))?;
            out.insert(key, value);
        }
        Ok(Variant::Dictionary(out))
    }

    fn pairs(&self, obj: &Bound<'py, PyAny>) -> Result<Variant> {
        let mut out = Dictionary::new();
        for pair in obj.call_method0("items")?.try_iter()? {
            let (k, v): (Bound<'py, PyAny>, Bound<'py, PyAny>) = pair?.extract()?;
            let key = self.value(&k).map_err(|f| f.at(segment(&k)))?;
            out.insert(key, self.value(&v).map_err(|f| f.at(segment(&k)))?);
        }
        let side = |name: &str| -> Result<Option<ElementType>> {
            let t: Option<(String, String)> = obj.getattr(name)?.extract()?;
            t.map(|(k, n)| element_type(&k, &n)).transpose()
        };
        let (key, value) = (side("key_type")?, side("value_type")?);
        if key.is_some() || value.is_some() {
            out.set_typed(Some(DictionaryType { key, value }));
        }
        Ok(Variant::Dictionary(out))
    }

    fn object(&self, obj: &Bound<'py, PyAny>) -> Result<Variant> {
        if let Some(id) = obj.getattr("id")?.extract::<Option<u64>>()? {
            return Ok(Variant::Object(Object::Id(id)));
        }
        let Some(class) = obj.getattr("class_name")?.extract::<Option<String>>()? else {
            return Ok(Variant::Object(Object::Null));
        };
        let mut properties = Vec::new();
        for pair in obj.getattr("properties")?.try_iter()? {
            let (name, v): (String, Bound<'py, PyAny>) = pair?.extract()?;
            let value = self.value(&v).map_err(|f| f.at(format!(".{name}")))?;
            properties.push((name, value));
        }
        Ok(Variant::Object(Object::Full(Box::new(FullObject {
            class,
            properties,
        }))))
    }

    /// A math value (a tuple of components) or a packed array of them (an `array.array`).
    fn math(&self, obj: &Bound<'py, PyAny>, kind: Kind) -> Result<Variant> {
        if kind.is_fixed() {
            let comps: Vec<f64> = obj.extract()?;
            return fixed_from(kind, &mut |i| comps[i])
                .ok_or_else(|| Failure::new(format!("{kind:?} is not a math type")));
        }
        let bytes: Vec<u8> = obj.call_method0("tobytes")?.extract()?;
        packed(kind, &bytes)
    }
}

/// A packed array of `kind` from its elements' bytes in native order.
fn packed(kind: Kind, bytes: &[u8]) -> Result<Variant> {
    fn cast<T: bytemuck::Pod>(b: &[u8]) -> Vec<T> {
        let mut v = vec![T::zeroed(); b.len() / std::mem::size_of::<T>()];
        let n = v.len() * std::mem::size_of::<T>();
        bytemuck::cast_slice_mut::<T, u8>(&mut v).copy_from_slice(&b[..n]);
        v
    }
    Ok(match kind {
        Kind::PackedInt32Array => Variant::PackedInt32Array(cast(bytes)),
        Kind::PackedInt64Array => Variant::PackedInt64Array(cast(bytes)),
        Kind::PackedFloat32Array => Variant::PackedFloat32Array(cast(bytes)),
        Kind::PackedFloat64Array => Variant::PackedFloat64Array(cast(bytes)),
        Kind::PackedByteArray => Variant::PackedByteArray(bytes.to_vec()),
        _ => {
            let comps = components_of(kind).ok_or_else(|| Failure::new("not a packed kind"))?;
            let flat: Vec<f64> = match comps[0].scalar {
                Scalar::Real => cast::<f64>(bytes),
                Scalar::I32 => cast::<i32>(bytes).into_iter().map(f64::from).collect(),
                Scalar::F32 => cast::<f32>(bytes).into_iter().map(f64::from).collect(),
            };
            let len = flat.len() / comps.len();
            packed_from(kind, len, &mut |i| flat[i])
                .ok_or_else(|| Failure::new(format!("{kind:?} is not a packed array")))?
        }
    })
}

/// A numpy array, by its dtype and shape: 1-D numbers are the packed arrays of their width,
/// `(n, 2|3|4)` reals are packed vectors.
fn numpy(obj: &Bound<'_, PyAny>) -> Result<Variant> {
    let dtype: String = obj.getattr("dtype")?.getattr("str")?.extract()?;
    let shape: Vec<usize> = obj.getattr("shape")?.extract()?;
    let native = |code: &str| {
        let little = cfg!(target_endian = "little");
        dtype == format!("{}{code}", if little { '<' } else { '>' })
            || dtype == format!("|{code}")
            || dtype == format!("={code}")
    };
    let kind = match (shape.as_slice(), ()) {
        ([_], ()) if native("u1") || native("i1") => Kind::PackedByteArray,
        ([_], ()) if native("i4") => Kind::PackedInt32Array,
        ([_], ()) if native("i8") => Kind::PackedInt64Array,
        ([_], ()) if native("f4") => Kind::PackedFloat32Array,
        ([_], ()) if native("f8") => Kind::PackedFloat64Array,
        ([_, 2], ()) if native("f8") => Kind::PackedVector2Array,
        ([_, 3], ()) if native("f8") => Kind::PackedVector3Array,
        ([_, 4], ()) if native("f8") => Kind::PackedVector4Array,
        _ => {
            return Err(Failure::new(format!(
                "numpy array of {dtype} with shape {shape:?} has no packed form"
            )))
        }
    };
    let bytes: Vec<u8> = obj.call_method0("tobytes")?.extract()?;
    packed(kind, &bytes)
}

/// An engine string of a `str`, lone surrogates kept (Godot 3 strings may hold them).
fn gstring(obj: &Bound<'_, PyAny>) -> Result<GString> {
    let s = obj
        .downcast::<PyString>()
        .map_err(|_| Failure::new("expected a str"))?;
    if let Ok(text) = s.to_cow() {
        return Ok(GString::from(text));
    }
    let utf32: Vec<u8> = s
        .call_method1("encode", ("utf-32-le", "surrogatepass"))?
        .extract()?;
    let points = utf32
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    GString::from_code_points(points).ok_or_else(|| Failure::new("not a string of code points"))
}

/// An int that fits Godot's 64 bits.
fn int(obj: &Bound<'_, PyAny>) -> Result<i64> {
    obj.extract::<i64>()
        .map_err(|_| Failure::new(format!("int {obj} does not fit 64 bits")))
}

/// The path segment of a dictionary key: `.name` for a str, `[key]` otherwise.
fn segment(k: &Bound<'_, PyAny>) -> String {
    match k.downcast::<PyString>() {
        Ok(s) => format!(".{s}"),
        Err(_) => format!("[{}]", k.repr().map(|r| r.to_string()).unwrap_or_default()),
    }
}

/// The element type of a typed container from its Python pair.
fn element_type(kind: &str, name: &str) -> Result<ElementType> {
    match kind {
        "builtin" => gdvariant::json::kind_named(name)
            .map(ElementType::Builtin)
            .ok_or_else(|| Failure::new(format!("no builtin type `{name}`"))),
        "class" => Ok(ElementType::Class(name.to_string())),
        "script" => Ok(ElementType::Script(name.to_string())),
        _ => Err(Failure::new(format!(
            "element type kind `{kind}`: expected builtin, class or script"
        ))),
    }
}
