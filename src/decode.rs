//! The decoder: bytes of any dialect and version to a [`Variant`], safe on untrusted input.
//!
//! It is iterative (containers are an explicit stack), so no input can overflow the thread
//! stack whatever `max_depth` is; every length is checked against the remaining input before
//! anything is reserved, so a lying count costs nothing; errors carry the absolute offset.

use crate::dialect::{DecodeOptions, Dialect};
use crate::error::DecodeError;
use crate::generated::kinds::{Feature, Kind};
use crate::generated::layouts as fixed;
use crate::layout::{read_u32, read_u64};
use crate::quirks::{self, FLAG_64};
use crate::variant::*;
use crate::version::Version;
use std::collections::HashMap;

/// Decodes one value from the start of `bytes`.
///
/// Returns the value and the number of bytes it used; trailing bytes are not an error (the
/// engine ignores them too), so `used` lets a caller walk values laid back to back.
///
/// ```
/// use gdvariant::{decode, Dialect, DecodeOptions, Variant};
/// let bytes = [2, 0, 0, 0, 42, 0, 0, 0];
/// let (value, used) = decode(&bytes, Dialect::Godot4, &DecodeOptions::default())?;
/// assert_eq!((value, used), (Variant::Int(42), 8));
/// # Ok::<(), gdvariant::DecodeError>(())
/// ```
pub fn decode(
    bytes: &[u8],
    dialect: Dialect,
    options: &DecodeOptions,
) -> Result<(Variant, usize), DecodeError> {
    let mut d = Decoder {
        buf: bytes,
        pos: 0,
        dialect,
        version: options.version.unwrap_or_else(|| dialect.newest()),
        options,
        elements: 0,
    };
    let v = d.run()?;
    Ok((v, d.pos))
}

/// A container being filled.
enum Frame {
    Array {
        items: Vec<Variant>,
        left: u32,
        typed: Option<Box<ArrayType>>,
    },
    Dict {
        map: DictFill,
        left: u32,
        key: Option<Variant>,
        typed: Option<Box<DictionaryType>>,
    },
    Object {
        class: String,
        props: Vec<(String, Variant)>,
        left: u32,
        name: String,
    },
}

/// Dictionary entries under construction, with the engine's "last value wins, first
/// position kept" rule for duplicate keys; a hash index keeps that linear for big inputs.
struct DictFill {
    entries: Vec<(Variant, Variant)>,
    index: Option<HashMap<u64, Vec<usize>>>,
}

const DICT_INDEX_FROM: usize = 16;

impl DictFill {
    fn with_capacity(n: usize) -> DictFill {
        DictFill {
            entries: Vec::with_capacity(n),
            index: None,
        }
    }

    fn insert(&mut self, key: Variant, value: Variant) {
        if self.entries.len() < DICT_INDEX_FROM && self.index.is_none() {
            if let Some(slot) = self
                .entries
                .iter_mut()
                .find(|(k, _)| quirks::same_key(k, &key))
            {
                slot.1 = value;
            } else {
                self.entries.push((key, value));
            }
            return;
        }
        let index = self.index.get_or_insert_with(|| {
            let mut m: HashMap<u64, Vec<usize>> = HashMap::new();
            for (i, (k, _)) in self.entries.iter().enumerate() {
                m.entry(key_hash(k)).or_default().push(i);
            }
            m
        });
        let h = key_hash(&key);
        let bucket = index.entry(h).or_default();
        if let Some(&i) = bucket
            .iter()
            .find(|&&i| quirks::same_key(&self.entries[i].0, &key))
        {
            self.entries[i].1 = value;
        } else {
            bucket.push(self.entries.len());
            self.entries.push((key, value));
        }
    }
}

/// A hash consistent with [`quirks::same_key`]: equal keys hash equal.
fn key_hash(v: &Variant) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    hash_into(v, &mut h, 0);
    return h.finish();

    fn real(x: f64, h: &mut impl Hasher) {
        // All NaNs are one key, and 0.0 == -0.0.
        let bits = if x.is_nan() {
            u64::MAX
        } else if x == 0.0 {
            0
        } else {
            x.to_bits()
        };
        bits.hash(h);
    }
    fn hash_into(v: &Variant, h: &mut impl Hasher, depth: usize) {
        std::mem::discriminant(v).hash(h);
        match v {
            Variant::Bool(b) => b.hash(h),
            Variant::Int(i) => i.hash(h),
            Variant::Rid(r) => r.hash(h),
            Variant::Float(f) => real(*f, h),
            Variant::String(s) => s.hash(h),
            Variant::StringName(s) => s.0.hash(h),
            Variant::Vector2(p) => {
                real(p.x, h);
                real(p.y, h)
            }
            Variant::Vector3(p) => {
                real(p.x, h);
                real(p.y, h);
                real(p.z, h)
            }
            Variant::Vector2i(p) => (p.x, p.y).hash(h),
            Variant::Vector3i(p) => (p.x, p.y, p.z).hash(h),
            Variant::NodePath(p) => (&p.names, &p.subnames).hash(h),
            Variant::Array(a) if depth < 4 => {
                a.items.len().hash(h);
                for x in a.items.iter().take(8) {
                    hash_into(x, h, depth + 1);
                }
            }
            Variant::PackedByteArray(b) => b.hash(h),
            Variant::PackedStringArray(b) => b.hash(h),
            _ => {}
        }
    }
}

struct Decoder<'a, 'o> {
    buf: &'a [u8],
    pos: usize,
    dialect: Dialect,
    version: Version,
    options: &'o DecodeOptions,
    elements: usize,
}

/// What reading one header produced: a finished value or an opened container.
enum Step {
    Value(Variant),
    Open(Frame),
}

impl<'a> Decoder<'a, '_> {
    fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    fn eof(&self, needed: usize) -> DecodeError {
        DecodeError::UnexpectedEof {
            offset: self.pos,
            needed: needed - self.remaining(),
            dialect: self.dialect,
        }
    }

    #[inline]
    fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        if self.remaining() < n {
            return Err(self.eof(n));
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    #[inline]
    fn u32(&mut self) -> Result<u32, DecodeError> {
        let b = self.take(4)?;
        Ok(read_u32(b, 0))
    }

    #[inline]
    fn u64(&mut self) -> Result<u64, DecodeError> {
        let b = self.take(8)?;
        Ok(read_u64(b, 0))
    }

    fn out_of_bounds(&self, at: usize, len: u32) -> DecodeError {
        DecodeError::LengthOutOfBounds {
            offset: at,
            len,
            remaining: self.buf.len() - (at + 4).min(self.buf.len()),
            dialect: self.dialect,
        }
    }

    fn string_out_of_bounds(&self, at: usize, len: u32) -> DecodeError {
        let remaining = self.buf.len() - (at + 4).min(self.buf.len());
        DecodeError::StringOutOfBounds {
            offset: at,
            len,
            remaining,
            dialect: self.dialect,
        }
    }

    /// `_decode_string`: i32 length, bytes, padding that must be present.
    fn string(&mut self) -> Result<String, DecodeError> {
        let at = self.pos;
        let len = self.u32()?;
        let n = len as i32;
        if n < 0 {
            return Err(self.string_out_of_bounds(at, len));
        }
        let n = n as usize;
        let total = n + quirks::pad4(n);
        if total > self.remaining() {
            return Err(self.string_out_of_bounds(at, len));
        }
        let start = self.pos;
        let bytes = &self.buf[start..start + n];
        self.pos += total;
        match quirks::engine_string(bytes, self.options.keep_leading_bom) {
            Ok(s) => Ok(s.into_owned()),
            Err(i) => Err(DecodeError::InvalidUtf8 {
                offset: start + i,
                dialect: self.dialect,
            }),
        }
    }

    /// A packed array's element count and the bytes of its elements (`stride` each).
    fn packed(&mut self, stride: usize) -> Result<(usize, &'a [u8]), DecodeError> {
        let at = self.pos;
        let raw = self.u32()?;
        let n = raw as i32;
        if n < 0 {
            return Err(self.out_of_bounds(at, raw));
        }
        let n = n as usize;
        let bytes = n
            .checked_mul(stride)
            .filter(|&b| b <= self.remaining())
            .ok_or_else(|| self.out_of_bounds(at, raw))?;
        self.count_elements(at, n)?;
        let s = &self.buf[self.pos..self.pos + bytes];
        self.pos += bytes;
        Ok((n, s))
    }

    fn count_elements(&mut self, at: usize, n: usize) -> Result<(), DecodeError> {
        self.elements = self.elements.saturating_add(n);
        if self.elements > self.options.limits.max_elements {
            return Err(DecodeError::TooManyElements {
                offset: at,
                limit: self.options.limits.max_elements,
                dialect: self.dialect,
            });
        }
        Ok(())
    }

    /// The count of an Array/Dictionary/Object; capacity is bounded by what the input can hold.
    fn count(&mut self, min_size: usize) -> Result<(u32, usize), DecodeError> {
        let at = self.pos;
        let n = self.u32()? & quirks::COUNT_MASK;
        self.count_elements(at, n as usize)?;
        Ok((n, (n as usize).min(self.remaining() / min_size)))
    }

    fn fixed<T>(&mut self, size: usize, f: impl FnOnce(&[u8]) -> T) -> Result<T, DecodeError> {
        let b = self.take(size)?;
        Ok(f(b))
    }

    /// Typed-container type data for one side (4.3+ Array, 4.4+ Dictionary).
    fn element_type(&mut self, container_kind: u32) -> Result<Option<ElementType>, DecodeError> {
        Ok(match container_kind {
            quirks::KIND_NONE => None,
            quirks::KIND_BUILTIN => {
                let at = self.pos;
                let id = self.u32()?;
                match self.dialect.kind_of(self.version, id) {
                    Some(k) => Some(ElementType::Builtin(k)),
                    None => {
                        return Err(DecodeError::InvalidElementType {
                            offset: at,
                            tag: id,
                            dialect: self.dialect,
                        })
                    }
                }
            }
            quirks::KIND_CLASS_NAME => Some(ElementType::Class(self.string()?)),
            _ => Some(ElementType::Script(self.string()?)),
        })
    }

    fn run(&mut self) -> Result<Variant, DecodeError> {
        let mut stack: Vec<Frame> = Vec::new();
        'values: loop {
            if stack.len() > self.options.limits.max_depth {
                return Err(DecodeError::TooDeep {
                    offset: self.pos,
                    limit: self.options.limits.max_depth,
                    dialect: self.dialect,
                });
            }
            let mut value = match self.one()? {
                Step::Value(v) => v,
                Step::Open(frame) => {
                    stack.push(frame);
                    // An empty container is finished at once; otherwise read its first element.
                    match self.ready(stack.last_mut().expect("just pushed"))? {
                        true => continue 'values,
                        false => close(stack.pop().expect("just pushed")),
                    }
                }
            };
            // Hand the value to the enclosing containers, closing each that is now full.
            loop {
                let Some(top) = stack.last_mut() else {
                    return Ok(value);
                };
                match top {
                    Frame::Array { items, left, .. } => {
                        items.push(value);
                        *left -= 1;
                    }
                    Frame::Dict { map, left, key, .. } => match key.take() {
                        None => {
                            *key = Some(value);
                            continue 'values;
                        }
                        Some(k) => {
                            map.insert(k, value);
                            *left -= 1;
                        }
                    },
                    Frame::Object {
                        props, left, name, ..
                    } => {
                        props.push((std::mem::take(name), value));
                        *left -= 1;
                    }
                }
                if self.ready(top)? {
                    continue 'values;
                }
                value = close(stack.pop().expect("top exists"));
            }
        }
    }

    /// Whether `frame` wants another element; for objects, reads the next property name.
    fn ready(&mut self, frame: &mut Frame) -> Result<bool, DecodeError> {
        match frame {
            Frame::Array { left, .. } | Frame::Dict { left, .. } => Ok(*left > 0),
            Frame::Object { left, name, .. } => {
                if *left == 0 {
                    return Ok(false);
                }
                *name = self.string()?;
                Ok(true)
            }
        }
    }

    /// Reads one header and, for leaves, the whole value.
    fn one(&mut self) -> Result<Step, DecodeError> {
        let at = self.pos;
        let header = self.u32()?;
        let tag = header & quirks::TYPE_MASK;
        let (dialect, version) = (self.dialect, self.version);
        let Some(kind) = dialect.kind_of(version, tag) else {
            return Err(DecodeError::UnknownType {
                offset: at,
                tag,
                dialect,
                version,
            });
        };
        let flag = header & FLAG_64 != 0;
        let wide = flag && dialect.flag64_reals(version, kind);
        let v = match kind {
            Kind::Nil => Variant::Nil,
            Kind::Bool => Variant::Bool(self.u32()? != 0),
            Kind::Int => Variant::Int(if flag {
                self.u64()? as i64
            } else {
                self.u32()? as i32 as i64
            }),
            Kind::Float => Variant::Float(if flag {
                f64::from_bits(self.u64()?)
            } else {
                crate::layout::real_from_f32_bits(self.u32()?)
            }),
            Kind::String => Variant::String(self.string()?),
            Kind::StringName => Variant::StringName(StringName(self.string()?)),
            Kind::Vector2 => Variant::Vector2(self.fixed(fixed::vector2_size(wide), |b| {
                fixed::decode_vector2(b, wide)
            })?),
            Kind::Vector2i => Variant::Vector2i(self.fixed(fixed::vector2i_size(false), |b| {
                fixed::decode_vector2i(b, false)
            })?),
            Kind::Rect2 => Variant::Rect2(
                self.fixed(fixed::rect2_size(wide), |b| fixed::decode_rect2(b, wide))?,
            ),
            Kind::Rect2i => Variant::Rect2i(self.fixed(fixed::rect2i_size(false), |b| {
                fixed::decode_rect2i(b, false)
            })?),
            Kind::Vector3 => Variant::Vector3(self.fixed(fixed::vector3_size(wide), |b| {
                fixed::decode_vector3(b, wide)
            })?),
            Kind::Vector3i => Variant::Vector3i(self.fixed(fixed::vector3i_size(false), |b| {
                fixed::decode_vector3i(b, false)
            })?),
            Kind::Transform2D => Variant::Transform2D(Box::new(
                self.fixed(fixed::transform2d_size(wide), |b| {
                    fixed::decode_transform2d(b, wide)
                })?,
            )),
            Kind::Vector4 => Variant::Vector4(self.fixed(fixed::vector4_size(wide), |b| {
                fixed::decode_vector4(b, wide)
            })?),
            Kind::Vector4i => Variant::Vector4i(self.fixed(fixed::vector4i_size(false), |b| {
                fixed::decode_vector4i(b, false)
            })?),
            Kind::Plane => Variant::Plane(
                self.fixed(fixed::plane_size(wide), |b| fixed::decode_plane(b, wide))?,
            ),
            Kind::Quaternion => {
                Variant::Quaternion(self.fixed(fixed::quaternion_size(wide), |b| {
                    fixed::decode_quaternion(b, wide)
                })?)
            }
            Kind::Aabb => Variant::Aabb(Box::new(
                self.fixed(fixed::aabb_size(wide), |b| fixed::decode_aabb(b, wide))?,
            )),
            Kind::Basis => Variant::Basis(Box::new(
                self.fixed(fixed::basis_size(wide), |b| fixed::decode_basis(b, wide))?,
            )),
            Kind::Transform3D => Variant::Transform3D(Box::new(
                self.fixed(fixed::transform3d_size(wide), |b| {
                    fixed::decode_transform3d(b, wide)
                })?,
            )),
            Kind::Projection => {
                Variant::Projection(Box::new(self.fixed(fixed::projection_size(wide), |b| {
                    fixed::decode_projection(b, wide)
                })?))
            }
            Kind::Color => Variant::Color(
                self.fixed(fixed::color_size(false), |b| fixed::decode_color(b, false))?,
            ),
            Kind::NodePath => Variant::NodePath(Box::new(self.node_path()?)),
            Kind::Rid => {
                if dialect.has_feature(version, Feature::RidPayload) {
                    Variant::Rid(self.u64()?)
                } else {
                    Variant::Rid(0)
                }
            }
            Kind::Object => return self.object(at, flag),
            Kind::Callable => Variant::Callable,
            Kind::Signal => {
                let name = self.string()?;
                let object = self.u64()?;
                Variant::Signal(Signal { name, object })
            }
            Kind::Dictionary => {
                let typed = if dialect.has_feature(version, Feature::TypedDictionary) {
                    let key = self.element_type((header >> quirks::CONTAINER_KIND_SHIFT) & 3)?;
                    let value =
                        self.element_type((header >> (quirks::CONTAINER_KIND_SHIFT + 2)) & 3)?;
                    (key.is_some() || value.is_some())
                        .then(|| Box::new(DictionaryType { key, value }))
                } else {
                    None
                };
                let (left, cap) = self.count(8)?;
                return Ok(Step::Open(Frame::Dict {
                    map: DictFill::with_capacity(cap),
                    left,
                    key: None,
                    typed,
                }));
            }
            Kind::Array => {
                let typed = if dialect.has_feature(version, Feature::TypedArray) {
                    self.element_type((header >> quirks::CONTAINER_KIND_SHIFT) & 3)?
                        .map(|element| {
                            Box::new(ArrayType {
                                element,
                                pandemonium_packed: false,
                            })
                        })
                } else {
                    None
                };
                let (left, cap) = self.count(4)?;
                return Ok(Step::Open(Frame::Array {
                    items: Vec::with_capacity(cap),
                    left,
                    typed,
                }));
            }
            Kind::TypedArray | Kind::PackedTypedArray => {
                return self.pandemonium_typed_array(kind, flag)
            }
            Kind::PackedByteArray => {
                let at = self.pos;
                let raw = self.u32()?;
                let n = raw as i32;
                if n < 0 || n as usize > self.remaining() {
                    return Err(self.out_of_bounds(at, raw));
                }
                let n = n as usize;
                self.count_elements(at, n)?;
                let v = self.buf[self.pos..self.pos + n].to_vec();
                // The padding is counted but need not be present (decode_variant checks only
                // `count <= len`), so `used` stops at the end of the input.
                self.pos = (self.pos + n + quirks::pad4(n)).min(self.buf.len());
                Variant::PackedByteArray(v)
            }
            Kind::PackedInt32Array => {
                let (_, b) = self.packed(4)?;
                Variant::PackedInt32Array(
                    b.chunks_exact(4)
                        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                        .collect(),
                )
            }
            Kind::PackedInt64Array => {
                let (_, b) = self.packed(8)?;
                Variant::PackedInt64Array(
                    b.chunks_exact(8).map(|c| read_u64(c, 0) as i64).collect(),
                )
            }
            Kind::PackedFloat32Array => {
                let (_, b) = self.packed(4)?;
                Variant::PackedFloat32Array(
                    b.chunks_exact(4)
                        .map(|c| f32::from_bits(read_u32(c, 0)))
                        .collect(),
                )
            }
            Kind::PackedFloat64Array => {
                let (_, b) = self.packed(8)?;
                Variant::PackedFloat64Array(
                    b.chunks_exact(8)
                        .map(|c| f64::from_bits(read_u64(c, 0)))
                        .collect(),
                )
            }
            Kind::PackedStringArray => {
                let at = self.pos;
                let n = self.u32()? as i32;
                // A negative count is an empty array, not an error (the decoder never checks it).
                let n = n.max(0) as usize;
                self.count_elements(at, n)?;
                let mut v = Vec::with_capacity(n.min(self.remaining() / 4));
                for _ in 0..n {
                    v.push(self.string()?);
                }
                Variant::PackedStringArray(v)
            }
            Kind::PackedVector2Array => {
                let s = fixed::vector2_size(wide);
                let (_, b) = self.packed(s)?;
                Variant::PackedVector2Array(
                    b.chunks_exact(s)
                        .map(|c| fixed::decode_vector2(c, wide))
                        .collect(),
                )
            }
            Kind::PackedVector3Array => {
                let s = fixed::vector3_size(wide);
                let (_, b) = self.packed(s)?;
                Variant::PackedVector3Array(
                    b.chunks_exact(s)
                        .map(|c| fixed::decode_vector3(c, wide))
                        .collect(),
                )
            }
            Kind::PackedVector4Array => {
                let s = fixed::vector4_size(wide);
                let (_, b) = self.packed(s)?;
                Variant::PackedVector4Array(
                    b.chunks_exact(s)
                        .map(|c| fixed::decode_vector4(c, wide))
                        .collect(),
                )
            }
            Kind::PackedVector2iArray => {
                let (_, b) = self.packed(8)?;
                Variant::PackedVector2iArray(
                    b.chunks_exact(8)
                        .map(|c| fixed::decode_vector2i(c, false))
                        .collect(),
                )
            }
            Kind::PackedVector3iArray => {
                let (_, b) = self.packed(12)?;
                Variant::PackedVector3iArray(
                    b.chunks_exact(12)
                        .map(|c| fixed::decode_vector3i(c, false))
                        .collect(),
                )
            }
            Kind::PackedVector4iArray => {
                let (_, b) = self.packed(16)?;
                Variant::PackedVector4iArray(
                    b.chunks_exact(16)
                        .map(|c| fixed::decode_vector4i(c, false))
                        .collect(),
                )
            }
            Kind::PackedColorArray => {
                let (_, b) = self.packed(16)?;
                Variant::PackedColorArray(
                    b.chunks_exact(16)
                        .map(|c| fixed::decode_color(c, false))
                        .collect(),
                )
            }
            #[allow(unreachable_patterns)]
            _ => {
                return Err(DecodeError::UnknownType {
                    offset: at,
                    tag,
                    dialect,
                    version,
                })
            }
        };
        Ok(Step::Value(v))
    }

    fn node_path(&mut self) -> Result<NodePath, DecodeError> {
        let at = self.pos;
        let first = self.u32()?;
        if first & quirks::NODEPATH_NEW_FORMAT == 0 {
            return Err(DecodeError::OldNodePath {
                offset: at,
                dialect: self.dialect,
            });
        }
        let names = (first & !quirks::NODEPATH_NEW_FORMAT) as usize;
        let mut subnames = self.u32()? as usize;
        let flags = self.u32()?;
        if flags & quirks::NODEPATH_OBSOLETE_PROPERTY != 0 {
            subnames += 1;
        }
        // Each string needs at least its 4-byte length.
        let total = names.saturating_add(subnames);
        if total > self.remaining() / 4 {
            return Err(self.out_of_bounds(at, first));
        }
        self.count_elements(at, total)?;
        let mut p = NodePath {
            names: Vec::with_capacity(names),
            subnames: Vec::with_capacity(subnames),
            absolute: flags & quirks::NODEPATH_ABSOLUTE != 0,
        };
        for _ in 0..names {
            p.names.push(self.string()?);
        }
        for _ in 0..subnames {
            p.subnames.push(self.string()?);
        }
        Ok(p)
    }

    fn object(&mut self, at: usize, as_id: bool) -> Result<Step, DecodeError> {
        if as_id {
            let id = self.u64()?;
            return Ok(Step::Value(Variant::Object(if id == 0 {
                Object::Null
            } else {
                Object::Id(id)
            })));
        }
        // ERR_UNAUTHORIZED is checked before anything of the object is read.
        if !self.options.allow_objects {
            return Err(DecodeError::ObjectNotAllowed {
                offset: at,
                dialect: self.dialect,
            });
        }
        let class = self.string()?;
        if class.is_empty() {
            return Ok(Step::Value(Variant::Object(Object::Null)));
        }
        let (left, cap) = self.count(8)?;
        Ok(Step::Open(Frame::Object {
            class,
            props: Vec::with_capacity(cap),
            left,
            name: String::new(),
        }))
    }

    /// Pandemonium 5's TYPED_ARRAY / PACKED_TYPED_ARRAY: element type, optional class name
    /// (a whole StringName value), count, elements.
    fn pandemonium_typed_array(&mut self, kind: Kind, as_id: bool) -> Result<Step, DecodeError> {
        let at = self.pos;
        let id = self.u32()? & quirks::COUNT_MASK;
        let Some(element_kind) = self.dialect.kind_of(self.version, id) else {
            return Err(DecodeError::InvalidElementType {
                offset: at,
                tag: id,
                dialect: self.dialect,
            });
        };
        let element = if element_kind == Kind::Object && !as_id {
            let h = self.pos;
            let header = self.u32()?;
            if self
                .dialect
                .kind_of(self.version, header & quirks::TYPE_MASK)
                != Some(Kind::StringName)
            {
                return Err(DecodeError::InvalidElementType {
                    offset: h,
                    tag: header & quirks::TYPE_MASK,
                    dialect: self.dialect,
                });
            }
            ElementType::Class(self.string()?)
        } else {
            ElementType::Builtin(element_kind)
        };
        let (left, cap) = self.count(4)?;
        let typed = Some(Box::new(ArrayType {
            element,
            pandemonium_packed: kind == Kind::PackedTypedArray,
        }));
        Ok(Step::Open(Frame::Array {
            items: Vec::with_capacity(cap),
            left,
            typed,
        }))
    }
}

fn close(frame: Frame) -> Variant {
    match frame {
        Frame::Array { items, typed, .. } => Variant::Array(Array { items, typed }),
        Frame::Dict { map, typed, .. } => {
            Variant::Dictionary(Dictionary::from_unique(map.entries, typed))
        }
        Frame::Object { class, props, .. } => Variant::Object(Object::Full(Box::new(FullObject {
            class,
            properties: props,
        }))),
    }
}
