//! Writing the JSON form: a value as `serde` sees it, math values in the shape of their struct.

use super::*;

/// The one definition of the JSON form's shape: a value as `serde` sees it.
/// [`to_json`] serializes through it; [`to_json_string`], [`write_json`] and [`append_json`]
/// write the same text without serde (`append.rs`).
///
/// Serializing recurses once per nesting level; each container level first makes sure the
/// stack has room (growing it on demand), so any value the decoder accepts serializes.
#[derive(Clone, Copy)]
pub struct Json<'a>(pub &'a Variant);

impl Serialize for Json<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Variant::Array(_) | Variant::Dictionary(_) | Variant::Object(Object::Full(_)) => {
                grow(|| self.serialize_here(s))
            }
            _ => self.serialize_here(s),
        }
    }
}

impl Json<'_> {
    fn serialize_here<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("type", v.kind().name())?;
        match v {
            Variant::Nil | Variant::Callable => {}
            Variant::Bool(b) => m.serialize_entry("value", b)?,
            Variant::Int(i) => m.serialize_entry("value", &I(*i))?,
            Variant::Float(f) => m.serialize_entry("value", &R(*f))?,
            Variant::String(x) => m.serialize_entry("value", &GStrJ(x))?,
            Variant::StringName(x) => m.serialize_entry("value", &GStrJ(&x.0))?,
            Variant::NodePath(p) => m.serialize_entry(
                "value",
                &NodePathJ {
                    names: &p.names,
                    subnames: &p.subnames,
                    absolute: p.absolute,
                },
            )?,
            Variant::Rid(r) => m.serialize_entry("value", &U(*r))?,
            Variant::Object(o) => match o {
                Object::Null => m.serialize_entry("value", &())?,
                Object::Id(id) => m.serialize_entry("value", &IdJ { id: U(*id) })?,
                Object::Full(f) => m.serialize_entry("value", &FullJ(f))?,
            },
            Variant::Signal(x) => m.serialize_entry(
                "value",
                &SignalJ {
                    name: &x.name,
                    object: U(x.object),
                },
            )?,
            Variant::Dictionary(d) => {
                if let Some(t) = d.typed() {
                    m.serialize_entry("key_type", &ElementJ(t.key.as_ref()))?;
                    m.serialize_entry("value_type", &ElementJ(t.value.as_ref()))?;
                }
                m.serialize_entry("value", &Seq(d.entries(), pair))?
            }
            Variant::Array(a) => {
                if let Some(t) = &a.typed {
                    m.serialize_entry("element_type", &ElementJ(Some(&t.element)))?;
                    if t.pandemonium_packed {
                        m.serialize_entry("pandemonium_packed", &true)?;
                    }
                }
                m.serialize_entry("value", &Seq(&a.items, Json))?
            }
            Variant::PackedByteArray(b) => m.serialize_entry("value", &hex(b))?,
            Variant::PackedInt32Array(x) => m.serialize_entry("value", x)?,
            Variant::PackedInt64Array(x) => m.serialize_entry("value", &Seq(x, |i: &i64| I(*i)))?,
            Variant::PackedFloat32Array(x) => {
                m.serialize_entry("value", &Seq(x, |f: &f32| R32(*f)))?
            }
            Variant::PackedFloat64Array(x) => {
                m.serialize_entry("value", &Seq(x, |f: &f64| R(*f)))?
            }
            Variant::PackedStringArray(x) => m.serialize_entry("value", &Seq(x, GStrJ))?,
            // Math values and packed arrays of them: the shape of their components (below).
            _ => {
                if let Some(f) = v.as_fixed() {
                    let shape = shape_of(f.kind());
                    m.serialize_entry("value", &Shaped(shape, f.components(), &f.values()))?
                } else if let Some(p) = v.as_packed() {
                    let (shape, comps, values) =
                        (shape_of(p.element()), p.components(), p.values());
                    let items: Vec<Shaped> = values
                        .chunks(comps.len().max(1))
                        .map(|c| Shaped(shape, comps, c))
                        .collect();
                    m.serialize_entry("value", &items)?
                }
            }
        }
        m.end()
    }
}

/// A slice serialized as a JSON array, each element through `f`.
struct Seq<'a, T, F>(&'a [T], F);

impl<'a, T, F: Fn(&'a T) -> J, J: Serialize> Serialize for Seq<'a, T, F> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(&self.1))
    }
}

/// A 64-bit integer: a number within ±2^53, else a decimal string.
struct I(i64);

impl Serialize for I {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if (-SAFE_INT..=SAFE_INT).contains(&self.0) {
            s.serialize_i64(self.0)
        } else {
            s.collect_str(&self.0)
        }
    }
}

/// An unsigned 64-bit id: a number up to 2^53, else a decimal string.
struct U(u64);

impl Serialize for U {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 <= SAFE_INT as u64 {
            s.serialize_u64(self.0)
        } else {
            s.collect_str(&self.0)
        }
    }
}

/// A real held as `f64`: a number, or `"inf"`, `"-inf"`, `"nan"`, `"-nan"`, `"nan:0x…"`.
#[derive(Clone, Copy)]
struct R(f64);

impl Serialize for R {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let f = self.0;
        if f.is_nan() {
            return match f.to_bits() {
                NAN64 => s.serialize_str("nan"),
                b if b == NAN64 | SIGN64 => s.serialize_str("-nan"),
                b => s.collect_str(&format_args!("nan:{b:#018x}")),
            };
        }
        if f.is_infinite() {
            return s.serialize_str(if f > 0.0 { "inf" } else { "-inf" });
        }
        s.serialize_f64(f)
    }
}

/// An `f32` (Color, PackedFloat32Array): its exact value as a real; NaNs by their 32 bits.
struct R32(f32);

impl Serialize for R32 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let f = self.0;
        if f.is_nan() {
            return match f.to_bits() {
                NAN32 => s.serialize_str("nan"),
                b if b == NAN32 | SIGN32 => s.serialize_str("-nan"),
                b => s.collect_str(&format_args!("nan:{b:#010x}")),
            };
        }
        R(f64::from(f)).serialize(s)
    }
}

struct NodePathJ<'a> {
    names: &'a [GString],
    subnames: &'a [GString],
    absolute: bool,
}

impl Serialize for NodePathJ<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("names", &Seq(self.names, GStrJ))?;
        m.serialize_entry("subnames", &Seq(self.subnames, GStrJ))?;
        m.serialize_entry("absolute", &self.absolute)?;
        m.end()
    }
}

/// A string: a JSON string, or `{"engine_utf8": HEX}` for one that is not Unicode.
struct GStrJ<'a>(&'a GString);

impl Serialize for GStrJ<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.is_unicode() {
            return s.serialize_str(self.0);
        }
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(ENGINE_UTF8, &hex(self.0.engine_utf8()))?;
        m.end()
    }
}

#[derive(Serialize)]
struct IdJ {
    id: U,
}

/// A full object: `{"class": …, "properties": [["name", VALUE], …]}`.
struct FullJ<'a>(&'a FullObject);

impl Serialize for FullJ<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("class", &self.0.class)?;
        m.serialize_entry("properties", &Seq(&self.0.properties, property))?;
        m.end()
    }
}

#[derive(Serialize)]
struct SignalJ<'a> {
    name: &'a str,
    object: U,
}

/// An element type: `null`, `{"builtin": KIND}`, `{"class": …}` or `{"script": …}`.
struct ElementJ<'a>(Option<&'a ElementType>);

impl Serialize for ElementJ<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (k, v) = match self.0 {
            None => return s.serialize_unit(),
            Some(ElementType::Builtin(k)) => ("builtin", k.name()),
            Some(ElementType::Class(c)) => ("class", c.as_str()),
            Some(ElementType::Script(p)) => ("script", p.as_str()),
        };
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(k, v)?;
        m.end()
    }
}

fn pair(e: &(Variant, Variant)) -> (Json<'_>, Json<'_>) {
    (Json(&e.0), Json(&e.1))
}
fn property(p: &(String, Variant)) -> (&str, Json<'_>) {
    (&p.0, Json(&p.1))
}
/// The JSON shape of a math type is its struct tree ([`Tree`]) with one rule: a struct of
/// scalars is an array (`[x, y]`, `[r, g, b, a]`), any other struct an object of its fields,
/// and `name[i]` fields an array; so `Rect2` is `{"position": [..], "size": [..]}` and
/// `Basis` `{"rows": [[..], [..], [..]]}`.
pub(super) fn shape_of(kind: Kind) -> &'static Tree {
    static NONE: Tree = Tree::Array(Vec::new());
    tree_of(kind).unwrap_or(&NONE)
}

/// A math value's components serialized in its shape.
struct Shaped<'a>(&'a Tree, &'a [Component], &'a [f64]);

impl Serialize for Shaped<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Shaped(shape, comps, values) = *self;
        match shape {
            Tree::Scalar(i) => {
                let x = values.get(*i).copied().unwrap_or_default();
                match comps.get(*i).map(|c| c.scalar) {
                    Some(Scalar::I32) => (x as i32).serialize(s),
                    Some(Scalar::F32) => R32(f32::from_bits(real_to_f32_bits(x))).serialize(s),
                    _ => R(x).serialize(s),
                }
            }
            Tree::Array(items) => s.collect_seq(items.iter().map(|n| Shaped(n, comps, values))),
            flat @ Tree::Struct(fields) if flat.is_flat() => {
                s.collect_seq(fields.iter().map(|(_, n)| Shaped(n, comps, values)))
            }
            Tree::Struct(fields) => {
                let mut m = s.serialize_map(Some(fields.len()))?;
                for (name, n) in fields {
                    m.serialize_entry(name, &Shaped(n, comps, values))?;
                }
                m.end()
            }
        }
    }
}
