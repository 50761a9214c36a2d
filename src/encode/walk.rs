//! The walk over a value that both passes share: each kind's header, payload and checks, written to a `Sink`.

use super::sink::*;
use super::*;
use crate::dialect::Dialect;
use crate::error::EncodeError;
use crate::generated::kinds::{Feature, Kind};
use crate::quirks::{self, WrittenElement, FLAG_64};
use crate::variant::layout::{fits_f32, real_to_f32_bits};
use crate::variant::layout::{FixedLayout, FixedValue, PackedLayout};
use crate::variant::value::match_value;
use crate::version::Version;
use std::cell::Cell;

pub(super) struct Encoder<'o, S> {
    dialect: Dialect,
    version: Version,
    options: &'o EncodeOptions,
    max_depth: usize,
    /// The spec's `Int64Widening`: without it (Godot 3.0.x) every INT goes out 64-bit.
    int_widening: bool,
    ids: &'o TypeIds,
    pub(super) out: S,
}

// The hot helpers below are `inline(always)` in optimised builds only: in debug builds that
// would give the recursive `value` one stack slot per inlined call site, and a 64-deep value
// would overflow a test thread's stack.

/// The type ids of the kinds met so far, shared by the sizing and the writing pass: looking
/// one up in the generated tables costs more than the rest of writing a small value.
pub(super) struct TypeIds([Cell<u32>; 64]);

/// Not looked up yet.
pub(super) const ID_UNKNOWN: u32 = u32::MAX;
/// The dialect has no such type at this version.
pub(super) const ID_NONE: u32 = u32::MAX - 1;

impl TypeIds {
    pub(super) fn new() -> TypeIds {
        TypeIds([const { Cell::new(ID_UNKNOWN) }; 64])
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn get(&self, dialect: Dialect, version: Version, kind: Kind) -> Option<u32> {
        let Some(slot) = self.0.get(kind as usize) else {
            return dialect.id_of(version, kind);
        };
        let mut id = slot.get();
        if id == ID_UNKNOWN {
            id = dialect.id_of(version, kind).unwrap_or(ID_NONE);
            slot.set(id);
        }
        (id != ID_NONE).then_some(id)
    }
}

pub(super) fn path_of(e: &mut EncodeError) -> &mut String {
    match e {
        EncodeError::Unrepresentable { path, .. }
        | EncodeError::Unsupported { path, .. }
        | EncodeError::InexactReal { path, .. }
        | EncodeError::FullObjectNeedsFlag { path, .. }
        | EncodeError::TooDeep { path, .. }
        | EncodeError::TooLong { path, .. } => path,
    }
}

/// Adds a path segment to an error on its way up (`[3]`, `.pos`).
pub(super) fn at(seg: impl FnOnce() -> String) -> impl FnOnce(EncodeError) -> EncodeError {
    move |mut e| {
        let path = path_of(&mut e);
        *path = format!("{}{path}", seg());
        e
    }
}

/// Roots an error's path at `value` (`value[3].pos`).
pub(super) fn rooted(mut e: EncodeError) -> EncodeError {
    let path = path_of(&mut e);
    *path = format!("value{path}");
    e
}

pub(super) fn key_segment(k: &Variant) -> String {
    match k {
        Variant::String(s) => format!(".{s}"),
        Variant::StringName(s) => format!(".{}", s.0),
        Variant::Int(i) => format!("[{i}]"),
        other => format!("[{:?}]", other.kind()),
    }
}

impl<'o, S: Sink> Encoder<'o, S> {
    pub(super) fn new(
        dialect: Dialect,
        options: &'o EncodeOptions,
        ids: &'o TypeIds,
        out: S,
    ) -> Result<Self, EncodeError> {
        let version = options.version.unwrap_or_else(|| dialect.newest());
        if options.double_precision && dialect != Dialect::Godot4 {
            // Godot 3 and Pandemonium marshal math types with 4-byte floats whatever real_t is.
            return Err(EncodeError::Unsupported {
                what: "double precision".into(),
                dialect,
                version,
                path: String::new(),
            });
        }
        Ok(Encoder {
            dialect,
            version,
            options,
            max_depth: options.max_depth.unwrap_or(1024),
            int_widening: dialect.has_feature(version, Feature::Int64Widening),
            ids,
            out,
        })
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn id(&self, kind: Kind) -> Result<u32, EncodeError> {
        match self.ids.get(self.dialect, self.version, kind) {
            Some(id) => Ok(id),
            None => Err(self.unrepresentable(kind)),
        }
    }

    #[cold]
    fn unrepresentable(&self, kind: Kind) -> EncodeError {
        EncodeError::Unrepresentable {
            kind,
            dialect: self.dialect,
            version: self.version,
            path: String::new(),
        }
    }

    fn unsupported(&self, what: &str) -> EncodeError {
        EncodeError::Unsupported {
            what: what.into(),
            dialect: self.dialect,
            version: self.version,
            path: String::new(),
        }
    }

    #[inline]
    fn string(&mut self, s: &str) -> Result<(), EncodeError> {
        self.text_bytes([], s.as_bytes())
    }

    /// A string value's text: its engine bytes ([`GString::engine_utf8`]), after `head`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn gstring<const H: usize>(&mut self, head: [u8; H], s: &GString) -> Result<(), EncodeError> {
        if let Some(text) = s.as_unicode() {
            return self.text_bytes(head, text.as_bytes());
        }
        let bytes = self.wide_bytes(s)?;
        self.text_bytes(head, bytes)
    }

    /// The engine bytes of a string that is not Unicode (Godot 3 keeps surrogates and code
    /// points above U+10FFFF), which a dialect with `StrictUtf8` cannot read: refused there.
    #[cold]
    #[inline(never)]
    fn wide_bytes<'s>(&self, s: &'s GString) -> Result<&'s [u8], EncodeError> {
        if self.dialect.has_feature(self.version, Feature::StrictUtf8) {
            return Err(self.unsupported(&format!(
                "the string {s:?}, which is not Unicode (the engine refuses its bytes)"
            )));
        }
        Ok(s.engine_utf8())
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn text_bytes<const H: usize>(&mut self, head: [u8; H], s: &[u8]) -> Result<(), EncodeError> {
        let n = s.len();
        if n > i32::MAX as usize - 3 {
            return Err(EncodeError::TooLong {
                len: n,
                path: String::new(),
            });
        }
        self.out.text(head, s);
        Ok(())
    }

    fn count(&mut self, n: usize) -> Result<(), EncodeError> {
        let n = count_word(n)?;
        self.out.u32(n);
        Ok(())
    }

    /// Whether math type `kind` is written with doubles, and (in the sizing pass) a check
    /// that the reals fit single precision otherwise. The reals come as an iterator so that
    /// no temporary vector is built for the check.
    #[inline]
    fn wide(&self, kind: Kind, reals: impl IntoIterator<Item = f64>) -> Result<bool, EncodeError> {
        if self.options.double_precision && self.dialect.flag64_reals(self.version, kind) {
            return Ok(true);
        }
        if !self.options.round_reals {
            if let Some(bad) = reals.into_iter().find(|&r| !fits_f32(r)) {
                return Err(EncodeError::InexactReal {
                    value: bad,
                    path: String::new(),
                });
            }
        }
        Ok(false)
    }

    /// [`Encoder::wide`] for a math value: `fits` says cheaply whether all its reals survive
    /// `f32`; only when one does not are they visited to name it in the error.
    fn wide_checked(
        &self,
        kind: Kind,
        fits: impl FnOnce() -> bool,
        visit: impl FnOnce(&mut dyn FnMut(f64)),
    ) -> Result<bool, EncodeError> {
        let mut bad = None;
        if !self.options.round_reals && !fits() {
            visit(&mut |r| {
                if bad.is_none() && !fits_f32(r) {
                    bad = Some(r);
                }
            });
        }
        self.wide(kind, bad)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn header(&mut self, kind: Kind, flags: u32) -> Result<(), EncodeError> {
        let id = self.id(kind)?;
        self.out.u32(id | flags);
        Ok(())
    }

    fn fixed<T: FixedLayout>(&mut self, x: &T) -> Result<(), EncodeError> {
        let wide = self.wide_checked(T::KIND, || x.reals_fit_f32(), |f| x.visit_reals(f))?;
        self.header(T::KIND, if wide { FLAG_64 } else { 0 })?;
        self.out.layout(T::size(wide), |o| x.write(wide, o));
        Ok(())
    }

    /// An element of a container: the common leaf types are written here, inline in the
    /// container's loop, the rest by [`Encoder::value`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn item(&mut self, v: &Variant, depth: usize) -> Result<(), EncodeError> {
        if depth > self.max_depth {
            return self.value(v, depth);
        }
        match v {
            Variant::Int(i) => self.int(*i),
            Variant::Float(f) => self.float(*f),
            Variant::String(s) => {
                let id = self.id(Kind::String)?;
                self.gstring(id.to_le_bytes(), s)
            }
            _ => self.value(v, depth),
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn int(&mut self, i: i64) -> Result<(), EncodeError> {
        let id = self.id(Kind::Int)?;
        if quirks::int_is_wide(i, self.int_widening) {
            self.out.u32_u64(id | FLAG_64, i as u64);
        } else {
            self.out.u32_u32(id, i as i32 as u32);
        }
        Ok(())
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn float(&mut self, f: f64) -> Result<(), EncodeError> {
        let id = self.id(Kind::Float)?;
        if quirks::float_is_wide(f) {
            self.out.u32_u64(id | FLAG_64, f.to_bits());
        } else {
            self.out.u32_u32(id, real_to_f32_bits(f));
        }
        Ok(())
    }

    /// One value. Containers recurse through here, so this frame is kept small: the many
    /// leaf cases live in [`Encoder::leaf`], which is not inlined (1024 levels of nesting must
    /// fit a 2 MiB thread stack even in a debug build).
    pub(super) fn value(&mut self, v: &Variant, depth: usize) -> Result<(), EncodeError> {
        if depth > self.max_depth {
            return Err(EncodeError::TooDeep {
                limit: self.max_depth,
                path: String::new(),
            });
        }
        match v {
            Variant::Object(o) => self.object(o, depth),
            Variant::Dictionary(d) => self.dictionary(d, depth),
            Variant::Array(a) => self.array(a, depth),
            _ => self.leaf(v),
        }
    }

    #[inline(never)]
    fn leaf(&mut self, v: &Variant) -> Result<(), EncodeError> {
        // Fixed layouts and packed arrays of them (the spec's kinds) each go through their
        // own generated layout, in the same `match` as the kinds written out here.
        match_value!(v, fixed x => self.fixed(x)?, packed xs => self.packed(xs)?, {
            Variant::Nil => self.header(Kind::Nil, 0)?,
            Variant::Bool(b) => {
                self.header(Kind::Bool, 0)?;
                self.out.u32(u32::from(*b));
            }
            Variant::Int(i) => self.int(*i)?,
            Variant::Float(f) => self.float(*f)?,
            Variant::String(s) => {
                let id = self.id(Kind::String)?;
                self.gstring(id.to_le_bytes(), s)?;
            }
            Variant::StringName(s) => {
                let id = self.id(Kind::StringName)?;
                self.gstring(id.to_le_bytes(), &s.0)?;
            }
            Variant::NodePath(p) => {
                self.header(Kind::NodePath, 0)?;
                if p.names.len() > quirks::COUNT_MASK as usize {
                    return Err(EncodeError::TooLong {
                        len: p.names.len(),
                        path: String::new(),
                    });
                }
                self.out
                    .u32((p.names.len() as u32) | quirks::NODEPATH_NEW_FORMAT);
                self.count(p.subnames.len())?;
                self.out.u32(if p.absolute {
                    quirks::NODEPATH_ABSOLUTE
                } else {
                    0
                });
                // The engines before 4.6.3 leave this padding uninitialised; zero is what a
                // clean buffer holds and what 4.6.3+ writes.
                for s in p.names.iter().chain(&p.subnames) {
                    self.gstring([], s)?;
                }
            }
            Variant::Rid(id) => {
                self.header(Kind::Rid, 0)?;
                if self.dialect.has_feature(self.version, Feature::RidPayload) {
                    self.out.u64(*id);
                } else if *id != 0 {
                    return Err(
                        self.unsupported("a RID id (this dialect sends RIDs without their id)")
                    );
                }
            }
            Variant::Callable => self.header(Kind::Callable, 0)?,
            Variant::Signal(s) => {
                self.header(Kind::Signal, 0)?;
                self.string(&s.name)?;
                self.out.u64(s.object);
            }
            Variant::Object(_) | Variant::Dictionary(_) | Variant::Array(_) => {
                unreachable!("containers are handled by value()")
            }
            Variant::PackedByteArray(b) => {
                self.header(Kind::PackedByteArray, 0)?;
                self.count(b.len())?;
                self.out.put(b);
                self.out.zeros(quirks::pad4(b.len()));
            }
            Variant::PackedInt32Array(x) => {
                self.header(Kind::PackedInt32Array, 0)?;
                self.count(x.len())?;
                self.out.layout(x.len() * 4, |o| {
                    o.extend(x.iter().flat_map(|v| v.to_le_bytes()))
                });
            }
            Variant::PackedInt64Array(x) => {
                self.header(Kind::PackedInt64Array, 0)?;
                self.count(x.len())?;
                self.out.layout(x.len() * 8, |o| {
                    o.extend(x.iter().flat_map(|v| v.to_le_bytes()))
                });
            }
            Variant::PackedFloat32Array(x) => {
                self.header(Kind::PackedFloat32Array, 0)?;
                self.count(x.len())?;
                self.out.layout(x.len() * 4, |o| {
                    o.extend(x.iter().flat_map(|v| v.to_le_bytes()))
                });
            }
            Variant::PackedFloat64Array(x) => {
                self.header(Kind::PackedFloat64Array, 0)?;
                self.count(x.len())?;
                self.out.layout(x.len() * 8, |o| {
                    o.extend(x.iter().flat_map(|v| v.to_le_bytes()))
                });
            }
            Variant::PackedStringArray(x) => {
                self.header(Kind::PackedStringArray, 0)?;
                self.count(x.len())?;
                // Every element goes out with a trailing NUL counted in its length
                // (`encode_variant`, case PACKED_STRING_ARRAY: `utf8.length() + 1`).
                for s in x {
                    let s = match s.as_unicode() {
                        Some(text) => text.as_bytes(),
                        None => self.wide_bytes(s)?,
                    };
                    let n = s.len() + 1;
                    if n > i32::MAX as usize - 3 {
                        return Err(EncodeError::TooLong {
                            len: n,
                            path: String::new(),
                        });
                    }
                    self.out.u32(n as u32);
                    self.out.put(s);
                    self.out.zeros(1 + quirks::pad4(n));
                }
            }
        });
        Ok(())
    }

    fn packed<T: PackedLayout>(&mut self, xs: &[T]) -> Result<(), EncodeError> {
        let kind = T::PACKED_KIND;
        let wide = self.wide_checked(
            kind,
            || xs.iter().all(T::reals_fit_f32),
            |f| xs.iter().for_each(|x| x.visit_reals(f)),
        )?;
        self.header(kind, if wide { FLAG_64 } else { 0 })?;
        self.count(xs.len())?;
        self.out.layout(xs.len() * T::size(wide), |o| {
            for x in xs {
                x.write(wide, o)
            }
        });
        Ok(())
    }

    fn object(&mut self, o: &Object, depth: usize) -> Result<(), EncodeError> {
        match o {
            // A null or freed object goes out as a bare NIL (observed in Godot 3.2.3 and 4.3;
            // `encode_variant` case OBJECT pre-check in 3.5+ and 4.x); before that, as an
            // object of either form whose id or class says null (`quirks::NULL_OBJECT_ID`).
            // The spec's `NullObjectAsNil`, looked up here: null objects are rare.
            Object::Null
                if self
                    .dialect
                    .has_feature(self.version, Feature::NullObjectAsNil) =>
            {
                self.header(Kind::Nil, 0)
            }
            Object::Null if self.options.full_objects => {
                self.header(Kind::Object, 0)?;
                self.string("")
            }
            Object::Null => {
                self.header(Kind::Object, quirks::OBJECT_AS_ID)?;
                self.out.u64(quirks::NULL_OBJECT_ID);
                Ok(())
            }
            Object::Id(id) => {
                self.header(Kind::Object, quirks::OBJECT_AS_ID)?;
                self.out.u64(*id);
                Ok(())
            }
            Object::Full(f) => {
                if !self.options.full_objects {
                    return Err(EncodeError::FullObjectNeedsFlag {
                        class: f.class.clone(),
                        path: String::new(),
                    });
                }
                self.header(Kind::Object, 0)?;
                self.string(&f.class)?;
                self.count(f.properties.len())?;
                for (name, value) in &f.properties {
                    self.string(name)?;
                    self.value(value, depth + 1)
                        .map_err(at(|| format!(".{name}")))?;
                }
                Ok(())
            }
        }
    }

    /// Typed-container type data: the container kind (for the header) and a writer of the data.
    fn element_kind(&self, t: Option<WrittenElement<'_>>) -> Result<u32, EncodeError> {
        Ok(match t {
            None => quirks::KIND_NONE,
            Some(WrittenElement::Builtin(k)) => {
                self.id(k)?;
                quirks::KIND_BUILTIN
            }
            Some(WrittenElement::Class(_)) => quirks::KIND_CLASS_NAME,
            Some(WrittenElement::Script(_)) => quirks::KIND_SCRIPT,
        })
    }

    fn element_data(&mut self, t: Option<WrittenElement<'_>>) -> Result<(), EncodeError> {
        match t {
            None => Ok(()),
            Some(WrittenElement::Builtin(k)) => {
                let id = self.id(k)?;
                self.out.u32(id);
                Ok(())
            }
            Some(WrittenElement::Class(s)) | Some(WrittenElement::Script(s)) => self.string(s),
        }
    }

    /// The header and key/value type data of a Dictionary (kept out of the recursive frame).
    #[inline(never)]
    fn dictionary_header(&mut self, d: &Dictionary) -> Result<(), EncodeError> {
        let (k, v) = match d.typed() {
            None => (None, None),
            Some(t) => {
                if !self
                    .dialect
                    .has_feature(self.version, Feature::TypedDictionary)
                {
                    return Err(self.unsupported("a typed Dictionary"));
                }
                let full = self.options.full_objects;
                (
                    t.key.as_ref().map(|k| quirks::element_as_written(k, full)),
                    t.value
                        .as_ref()
                        .map(|v| quirks::element_as_written(v, full)),
                )
            }
        };
        let flags = quirks::container_bits(self.element_kind(k)?, quirks::TYPED_KEY)
            | quirks::container_bits(self.element_kind(v)?, quirks::TYPED_VALUE);
        self.header(Kind::Dictionary, flags)?;
        self.element_data(k)?;
        self.element_data(v)?;
        Ok(())
    }

    fn dictionary(&mut self, d: &Dictionary, depth: usize) -> Result<(), EncodeError> {
        if d.typed().is_none() {
            // The common untyped case needs none of the type data.
            let id = self.id(Kind::Dictionary)?;
            self.out.u32_u32(id, count_word(d.len())?);
        } else {
            self.dictionary_header(d)?;
            self.count(d.len())?;
        }
        for (key, value) in d.entries() {
            self.item(key, depth + 1)
                .map_err(at(|| format!("{}(key)", key_segment(key))))?;
            self.item(value, depth + 1)
                .map_err(at(|| key_segment(key)))?;
        }
        Ok(())
    }

    /// The header and element-type data of an Array (kept out of the recursive frame).
    #[inline(never)]
    fn array_header(&mut self, a: &Array) -> Result<(), EncodeError> {
        match a.typed.as_deref() {
            None => {
                self.header(Kind::Array, 0)?;
            }
            Some(t)
                if self
                    .dialect
                    .has_feature(self.version, Feature::PandemoniumTypedArray) =>
            {
                let kind = if t.pandemonium_packed {
                    Kind::PackedTypedArray
                } else {
                    Kind::TypedArray
                };
                match &t.element {
                    ElementType::Builtin(k) => {
                        let flag = if *k == Kind::Object { FLAG_64 } else { 0 };
                        self.header(kind, flag)?;
                        let id = self.id(*k)?;
                        self.out.u32(id);
                    }
                    ElementType::Class(name) => {
                        self.header(kind, 0)?;
                        let id = self.id(Kind::Object)?;
                        self.out.u32(id);
                        self.header(Kind::StringName, 0)?;
                        self.string(name)?;
                    }
                    ElementType::Script(_) => {
                        return Err(self.unsupported("an Array typed by a script"))
                    }
                }
            }
            Some(t) => {
                if !self.dialect.has_feature(self.version, Feature::TypedArray)
                    || t.pandemonium_packed
                {
                    return Err(self.unsupported("a typed Array"));
                }
                let element = quirks::element_as_written(&t.element, self.options.full_objects);
                let kind = self.element_kind(Some(element))?;
                self.header(
                    Kind::Array,
                    quirks::container_bits(kind, quirks::TYPED_ARRAY),
                )?;
                self.element_data(Some(element))?;
            }
        }
        Ok(())
    }

    fn array(&mut self, a: &Array, depth: usize) -> Result<(), EncodeError> {
        self.array_header(a)?;
        self.count(a.items.len())?;
        for (i, item) in a.items.iter().enumerate() {
            self.item(item, depth + 1)
                .map_err(at(|| format!("[{i}]")))?;
        }
        Ok(())
    }
}
