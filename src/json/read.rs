//! Reading the JSON form back into a value, with the path of each mistake.

use super::path::{Path, Seg};
use super::*;
use std::borrow::Cow;

pub(super) struct Reader {
    pub(super) path: Path,
}

type Res<T> = Result<T, JsonError>;

/// The value of a `String` or `StringName` object whose `value` is the JSON string `s`
/// (`None` for other kinds): the streaming reader builds string leaves from the parser's
/// borrowed text with it, without a `Value` in between.
pub(super) fn text_value(kind: Kind, s: &str) -> Option<Variant> {
    match kind {
        Kind::String => Some(Variant::String(s.into())),
        Kind::StringName => Some(Variant::StringName(StringName(s.into()))),
        _ => None,
    }
}

impl Reader {
    /// A reader at the top of a document.
    pub(super) fn at_root() -> Reader {
        Reader { path: Path::root() }
    }

    fn err<T>(&self, message: impl Into<String>) -> Res<T> {
        Err(JsonError {
            path: self.path.spelled(),
            message: message.into(),
        })
    }

    /// Reads what is at `seg` (one level down, so the stack is grown first if need be).
    pub(super) fn at<T>(
        &mut self,
        seg: impl Into<Seg>,
        f: impl FnOnce(&mut Self) -> Res<T>,
    ) -> Res<T> {
        self.path.push(seg.into());
        let r = grow(|| f(self));
        self.path.pop();
        r
    }

    fn field<'v>(&self, obj: &'v Map<String, Value>, key: &str) -> Res<&'v Value> {
        match obj.get(key) {
            Some(v) => Ok(v),
            None => self.err(format!("missing `{key}`")),
        }
    }

    pub(super) fn value(&mut self, json: &Value) -> Res<Variant> {
        let Value::Object(obj) = json else {
            return self.err("expected an object {\"type\": …, \"value\": …}");
        };
        let ty = match obj.get("type") {
            Some(Value::String(s)) => s.as_str(),
            _ => return self.err("missing `type` (a type name such as \"Int\")"),
        };
        let Some(kind) = kind_named(ty) else {
            return self.err(format!("unknown type `{ty}`"));
        };
        let no_value = Value::Null;
        let v = obj.get("value").unwrap_or(&no_value);
        self.at(".value", |r| r.payload(kind, v, obj))
    }

    pub(super) fn payload(
        &mut self,
        kind: Kind,
        v: &Value,
        obj: &Map<String, Value>,
    ) -> Res<Variant> {
        Ok(match kind {
            Kind::Nil => Variant::Nil,
            Kind::Callable => Variant::Callable,
            Kind::Bool => match v {
                Value::Bool(b) => Variant::Bool(*b),
                _ => return self.err("expected true or false"),
            },
            Kind::Int => Variant::Int(self.int(v)?),
            Kind::Float => Variant::Float(self.real(v)?),
            Kind::String => Variant::String(self.string(v)?),
            Kind::StringName => Variant::StringName(StringName(self.string(v)?)),
            Kind::NodePath => Variant::NodePath(Box::new(match v {
                Value::String(s) => NodePath::parse(s),
                _ => {
                    let o = self.object(v)?;
                    NodePath {
                        names: self.at(".names", |r| r.strings(r.field(o, "names")?))?,
                        subnames: self.at(".subnames", |r| r.strings(r.field(o, "subnames")?))?,
                        absolute: match o.get("absolute") {
                            None => false,
                            Some(Value::Bool(b)) => *b,
                            Some(_) => return self.err("`absolute` must be true or false"),
                        },
                    }
                }
            })),
            Kind::Rid => Variant::Rid(self.uint(v)?),
            Kind::Object => Variant::Object(match v {
                Value::Null => Object::Null,
                _ => {
                    let o = self.object(v)?;
                    if let Some(id) = o.get("id") {
                        Object::Id(self.at(".id", |r| r.uint(id))?)
                    } else {
                        let class = self.at(".class", |r| r.name(r.field(o, "class")?))?;
                        let properties = self.at(".properties", |r| {
                            let a = r.array(r.field(o, "properties")?)?;
                            let mut out = Vec::with_capacity(a.len());
                            for (i, p) in a.iter().enumerate() {
                                out.push(r.at(i, |r| r.pair_named(p))?);
                            }
                            Ok(out)
                        })?;
                        Object::Full(Box::new(FullObject { class, properties }))
                    }
                }
            }),
            Kind::Signal => {
                let o = self.object(v)?;
                Variant::Signal(Signal {
                    name: self.at(".name", |r| r.name(r.field(o, "name")?))?,
                    object: self.at(".object", |r| r.uint(r.field(o, "object")?))?,
                })
            }
            Kind::Dictionary => {
                let typed = self.dictionary_type(obj)?;
                let a = self.array(v)?;
                let mut entries = Vec::with_capacity(a.len());
                for (i, p) in a.iter().enumerate() {
                    entries.push(self.at(i, |r| r.pair(p))?);
                }
                // Keys an engine keeps apart (Godot 3 Dictionaries, Objects) stay apart.
                let mut d = Dictionary::new();
                for (k, v) in entries {
                    d.insert_read(k, v, true);
                }
                d.set_typed(typed);
                Variant::Dictionary(d)
            }
            Kind::Array | Kind::TypedArray | Kind::PackedTypedArray => {
                let typed = self.array_type(kind, obj)?;
                let a = self.array(v)?;
                let mut items = Vec::with_capacity(a.len());
                for (i, x) in a.iter().enumerate() {
                    items.push(self.at(i, |r| r.value(x))?);
                }
                Variant::Array(Array { items, typed })
            }
            Kind::PackedByteArray => Variant::PackedByteArray(self.hex(v)?),
            Kind::PackedInt32Array => Variant::PackedInt32Array(self.each(v, |r, x| r.i32(x))?),
            Kind::PackedInt64Array => Variant::PackedInt64Array(self.each(v, |r, x| r.int(x))?),
            Kind::PackedFloat32Array => {
                Variant::PackedFloat32Array(self.each(v, |r, x| r.real32(x))?)
            }
            Kind::PackedFloat64Array => {
                Variant::PackedFloat64Array(self.each(v, |r, x| r.real(x))?)
            }
            Kind::PackedStringArray => Variant::PackedStringArray(self.strings(v)?),
            k if components_of(k).is_some() => self.math(k, v)?,
            #[allow(unreachable_patterns)]
            other => return self.err(format!("type `{}` has no JSON form", other.name())),
        })
    }

    /// The key and value types of a Dictionary object `obj` (its `key_type` and `value_type`),
    /// read with the path at its `.value`, as every payload is.
    pub(super) fn dictionary_type(
        &mut self,
        obj: &Map<String, Value>,
    ) -> Res<Option<DictionaryType>> {
        let key = match obj.get("key_type") {
            Some(t) => self.at_top("key_type", |r| r.element_type(t))?,
            None => None,
        };
        let value = match obj.get("value_type") {
            Some(t) => self.at_top("value_type", |r| r.element_type(t))?,
            None => None,
        };
        Ok((key.is_some() || value.is_some()).then_some(DictionaryType { key, value }))
    }

    /// The element type of an Array object `obj` of type `kind` (its `element_type` and
    /// `pandemonium_packed`), read with the path at its `.value`, as every payload is.
    pub(super) fn array_type(
        &mut self,
        kind: Kind,
        obj: &Map<String, Value>,
    ) -> Res<Option<Box<ArrayType>>> {
        let element = match obj.get("element_type") {
            Some(t) => self.at_top("element_type", |r| r.element_type(t))?,
            None => None,
        };
        let packed = matches!(obj.get("pandemonium_packed"), Some(Value::Bool(true)))
            || kind == Kind::PackedTypedArray;
        Ok(element.map(|element| {
            Box::new(ArrayType {
                element,
                pandemonium_packed: packed,
            })
        }))
    }

    /// Runs `f` with the path moved from `.value` to a sibling key of the value object.
    fn at_top<T>(&mut self, key: &'static str, f: impl FnOnce(&mut Self) -> Res<T>) -> Res<T> {
        let saved = self.path.pop();
        let r = self.at(Seg::Field(Cow::Borrowed(key)), f);
        if let Some(s) = saved {
            self.path.push(s);
        }
        r
    }

    fn object<'v>(&self, v: &'v Value) -> Res<&'v Map<String, Value>> {
        match v {
            Value::Object(o) => Ok(o),
            _ => self.err("expected an object"),
        }
    }

    fn array<'v>(&self, v: &'v Value) -> Res<&'v Vec<Value>> {
        match v {
            Value::Array(a) => Ok(a),
            _ => self.err("expected an array"),
        }
    }

    fn each<T>(
        &mut self,
        v: &Value,
        mut f: impl FnMut(&mut Self, &Value) -> Res<T>,
    ) -> Res<Vec<T>> {
        let a = self.array(v)?;
        let mut out = Vec::with_capacity(a.len());
        for (i, x) in a.iter().enumerate() {
            out.push(self.at(i, |r| f(r, x))?);
        }
        Ok(out)
    }

    /// A name (a class, a property, a signal, a script path): a JSON string.
    fn name(&self, v: &Value) -> Res<String> {
        match v {
            Value::String(s) => Ok(s.clone()),
            _ => self.err("expected a string"),
        }
    }

    /// A string: a JSON string, or `{"engine_utf8": HEX}` for one that is not Unicode.
    fn string(&self, v: &Value) -> Res<GString> {
        match v {
            Value::String(s) => Ok(s.as_str().into()),
            Value::Object(o) if o.len() == 1 => {
                let hex = match o.get(ENGINE_UTF8) {
                    Some(h) => self.hex(h)?,
                    None => return self.err("expected a string"),
                };
                match GString::from_engine_utf8(&hex) {
                    Some(s) => Ok(s),
                    None => self.err("`engine_utf8` holds bytes that no engine reads as a string"),
                }
            }
            _ => self.err("expected a string"),
        }
    }

    fn strings(&mut self, v: &Value) -> Res<Vec<GString>> {
        self.each(v, |r, x| r.string(x))
    }

    fn int(&self, v: &Value) -> Res<i64> {
        let parsed = match v {
            Value::Number(n) => n.as_i64(),
            Value::String(s) => s.trim().parse::<i64>().ok(),
            _ => None,
        };
        match parsed {
            Some(i) => Ok(i),
            None => self.err("expected a 64-bit integer (a number, or a decimal string)"),
        }
    }

    fn uint(&self, v: &Value) -> Res<u64> {
        let parsed = match v {
            Value::Number(n) => n.as_u64(),
            Value::String(s) => s.trim().parse::<u64>().ok(),
            _ => None,
        };
        match parsed {
            Some(i) => Ok(i),
            None => self.err("expected an unsigned 64-bit integer (a number, or a decimal string)"),
        }
    }

    fn i32(&self, v: &Value) -> Res<i32> {
        match v.as_i64().and_then(|i| i32::try_from(i).ok()) {
            Some(i) => Ok(i),
            None => self.err("expected a 32-bit integer"),
        }
    }

    /// A math value (its components in its shape) or a packed array of them.
    fn math(&mut self, kind: Kind, v: &Value) -> Res<Variant> {
        let element = kind.packed_element().unwrap_or(kind);
        let (Some(comps), shape) = (components_of(element), shape_of(element)) else {
            return self.err(format!("type `{}` has no JSON form", kind.name()));
        };
        let n = comps.len().max(1);
        let built = if kind.packed_element().is_some() {
            let items = self.array(v)?;
            let mut vals = vec![0.0; n * items.len()];
            for (i, (x, out)) in items.iter().zip(vals.chunks_mut(n)).enumerate() {
                self.at(i, |r| r.shaped(shape, comps, x, out))?;
            }
            packed_from(kind, items.len(), &mut |i| {
                vals.get(i).copied().unwrap_or_default()
            })
        } else {
            let mut vals = vec![0.0; n];
            self.shaped(shape, comps, v, &mut vals)?;
            fixed_from(kind, &mut |i| vals.get(i).copied().unwrap_or_default())
        };
        match built {
            Some(v) => Ok(v),
            None => self.err(format!("type `{}` has no JSON form", kind.name())),
        }
    }

    /// A real: a number, or one of the strings of the module docs.
    fn real(&self, v: &Value) -> Res<f64> {
        match v {
            // `-0` (as jq prints -0.0) is read back as -0.0: serde_json keeps it as that
            // double, not as the integer 0.
            Value::Number(n) => match n.as_f64() {
                Some(f) => Ok(f),
                None => self.err("expected a real"),
            },
            Value::String(s) => match s.as_str() {
                "inf" | "+inf" => Ok(f64::INFINITY),
                "-inf" => Ok(f64::NEG_INFINITY),
                "nan" => Ok(f64::from_bits(NAN64)),
                "-nan" => Ok(f64::from_bits(NAN64 | SIGN64)),
                s => match s.strip_prefix("nan:0x").or_else(|| s.strip_prefix("nan:0X")) {
                    Some(h) if h.len() == 16 => match u64::from_str_radix(h, 16) {
                        Ok(b) if f64::from_bits(b).is_nan() => Ok(f64::from_bits(b)),
                        _ => self.err(format!("`{s}` is not a NaN's bits")),
                    },
                    // An f32 NaN given where a double is held: widen it keeping its payload.
                    Some(h) if h.len() == 8 => match u32::from_str_radix(h, 16) {
                        Ok(b) if f32::from_bits(b).is_nan() => Ok(real_from_f32_bits(b)),
                        _ => self.err(format!("`{s}` is not a NaN's bits")),
                    },
                    _ => self.err(format!(
                        "expected a real: a number, \"inf\", \"-inf\", \"nan\", \"-nan\" or \"nan:0x…\", not `{s}`"
                    )),
                },
            },
            _ => self.err("expected a real"),
        }
    }

    /// An `f32`: a real rounded to single precision (exact for what [`to_json`] writes).
    fn real32(&self, v: &Value) -> Res<f32> {
        if let Value::String(s) = v {
            match s.as_str() {
                "nan" => return Ok(f32::from_bits(NAN32)),
                "-nan" => return Ok(f32::from_bits(NAN32 | SIGN32)),
                _ => {}
            }
            if let Some(h) = s.strip_prefix("nan:0x").filter(|h| h.len() == 8) {
                return match u32::from_str_radix(h, 16) {
                    Ok(b) if f32::from_bits(b).is_nan() => Ok(f32::from_bits(b)),
                    _ => self.err(format!("`{s}` is not a NaN's bits")),
                };
            }
        }
        Ok(f32::from_bits(real_to_f32_bits(self.real(v)?)))
    }

    /// The components of a math value laid out in `shape` (see [`shape`]).
    fn shaped(&mut self, shape: &Tree, comps: &[Component], v: &Value, out: &mut [f64]) -> Res<()> {
        match shape {
            Tree::Scalar(i) => {
                let x = match comps.get(*i).map(|c| c.scalar) {
                    Some(Scalar::I32) => f64::from(self.i32(v)?),
                    Some(Scalar::F32) => real_from_f32_bits(self.real32(v)?.to_bits()),
                    _ => self.real(v)?,
                };
                if let Some(slot) = out.get_mut(*i) {
                    *slot = x;
                }
            }
            Tree::Struct(fields) if !shape.is_flat() => {
                let o = self.object(v)?;
                for (name, n) in fields {
                    self.at(Seg::Field(Cow::Borrowed(name)), |r| {
                        let x = r.field(o, name)?;
                        r.shaped(n, comps, x, out)
                    })?;
                }
            }
            // An array, or a struct of scalars written as one.
            _ => {
                let items: Vec<&Tree> = match shape {
                    Tree::Array(items) => items.iter().collect(),
                    Tree::Struct(fields) => fields.iter().map(|(_, t)| t).collect(),
                    Tree::Scalar(_) => Vec::new(),
                };
                let a = self.array(v)?;
                if a.len() != items.len() {
                    let scalar = |n: &Tree| match n {
                        Tree::Scalar(i) => comps.get(*i).map(|c| c.scalar),
                        _ => None,
                    };
                    let first = items.first().and_then(|n| scalar(n));
                    let what = match first {
                        _ if !items.iter().all(|n| scalar(n) == first) => "values",
                        Some(Scalar::I32) => "integers",
                        Some(_) => "reals",
                        None => "values",
                    };
                    return self.err(format!("expected {} {what}", items.len()));
                }
                for (i, (n, x)) in items.iter().zip(a).enumerate() {
                    self.at(i, |r| r.shaped(n, comps, x, out))?;
                }
            }
        }
        Ok(())
    }

    fn hex(&self, v: &Value) -> Res<Vec<u8>> {
        let s = self.string(v)?;
        let s: Vec<u8> = s.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
        if s.len() & 1 == 1 {
            return self.err("expected hex digits in pairs");
        }
        s.chunks(2)
            .map(|p| {
                std::str::from_utf8(p)
                    .ok()
                    .and_then(|p| u8::from_str_radix(p, 16).ok())
            })
            .collect::<Option<Vec<u8>>>()
            .map_or_else(|| self.err("expected hex digits"), Ok)
    }

    fn pair(&mut self, p: &Value) -> Res<(Variant, Variant)> {
        let a = self.array(p)?;
        if a.len() != 2 {
            return self.err("expected [KEY, VALUE]");
        }
        let k = self.at("[0]", |r| r.value(&a[0]))?;
        let v = self.at("[1]", |r| r.value(&a[1]))?;
        Ok((k, v))
    }

    fn pair_named(&mut self, p: &Value) -> Res<(String, Variant)> {
        let a = self.array(p)?;
        if a.len() != 2 {
            return self.err("expected [\"name\", VALUE]");
        }
        let k = self.at("[0]", |r| r.name(&a[0]))?;
        let v = self.at("[1]", |r| r.value(&a[1]))?;
        Ok((k, v))
    }

    fn element_type(&mut self, t: &Value) -> Res<Option<ElementType>> {
        match t {
            Value::Null => Ok(None),
            Value::Object(o) if o.len() == 1 => {
                let (k, v) = o.iter().next().expect("one entry");
                let s = self.at(Seg::Field(k.clone().into()), |r| r.name(v))?;
                match k.as_str() {
                    "builtin" => match kind_named(&s) {
                        Some(kind) => Ok(Some(ElementType::Builtin(kind))),
                        None => self.err(format!("unknown type `{s}`")),
                    },
                    "class" => Ok(Some(ElementType::Class(s))),
                    "script" => Ok(Some(ElementType::Script(s))),
                    _ => self.err("expected {\"builtin\": …}, {\"class\": …} or {\"script\": …}"),
                }
            }
            _ => self.err("expected null, {\"builtin\": …}, {\"class\": …} or {\"script\": …}"),
        }
    }
}
