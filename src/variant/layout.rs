//! Little-endian primitives shared by the generated fixed layouts and the hand-written codec.

/// Widens an `f32` (given by its bits) to `f64`, keeping a NaN's sign and payload bits so
/// that [`real_to_f32_bits`] gives the very same bits back (hardware conversion would quiet a
/// signalling NaN and change the bytes).
#[inline]
pub fn real_from_f32_bits(bits: u32) -> f64 {
    let f = f32::from_bits(bits);
    if f.is_nan() {
        let sign = u64::from(bits >> 31) << 63;
        let payload = u64::from(bits & 0x007f_ffff) << 29;
        f64::from_bits(sign | 0x7ff0_0000_0000_0000 | payload)
    } else {
        f64::from(f)
    }
}

/// Narrows an `f64` to `f32` bits, the inverse of [`real_from_f32_bits`] for NaNs (payload
/// bits that fit are kept) and round-to-nearest for everything else.
#[inline]
pub fn real_to_f32_bits(v: f64) -> u32 {
    if v.is_nan() {
        let bits = v.to_bits();
        let sign = ((bits >> 63) as u32) << 31;
        let mut payload = ((bits >> 29) & 0x007f_ffff) as u32;
        if payload == 0 {
            payload = 0x0040_0000;
        }
        sign | 0x7f80_0000 | payload
    } else {
        (v as f32).to_bits()
    }
}

/// Whether `v` survives a trip through `f32` unchanged (NaNs compare by payload).
#[inline]
pub fn fits_f32(v: f64) -> bool {
    if v.is_nan() {
        real_from_f32_bits(real_to_f32_bits(v)).to_bits() == v.to_bits()
    } else {
        f64::from(v as f32) == v
            && (v != 0.0 || (v as f32).is_sign_negative() == v.is_sign_negative())
    }
}

/// Reads a little-endian `u32` at `at`; the caller has checked the bounds.
#[inline]
pub fn read_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Reads a little-endian `i32` at `at`.
#[inline]
pub fn read_i32(b: &[u8], at: usize) -> i32 {
    read_u32(b, at) as i32
}

/// Reads the bits of a little-endian `f32` at `at`.
#[inline]
pub fn read_f32_bits(b: &[u8], at: usize) -> u32 {
    read_u32(b, at)
}

/// Reads a little-endian `u64` at `at`.
#[inline]
pub fn read_u64(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// Reads a little-endian `f64` at `at`.
#[inline]
pub fn read_f64(b: &[u8], at: usize) -> f64 {
    f64::from_bits(read_u64(b, at))
}

/// Reads a real at `at`: 8 bytes when `wide`, else 4 widened exactly.
#[inline]
pub fn read_real(b: &[u8], at: usize, wide: bool) -> f64 {
    if wide {
        read_f64(b, at)
    } else {
        real_from_f32_bits(read_u32(b, at))
    }
}

/// Appends a real: 8 bytes when `wide`, else the nearest `f32` (NaN bits kept).
#[inline]
pub fn write_real(out: &mut Vec<u8>, v: f64, wide: bool) {
    if wide {
        out.extend_from_slice(&v.to_le_bytes());
    } else {
        out.extend_from_slice(&real_to_f32_bits(v).to_le_bytes());
    }
}

/// Appends a little-endian `i32`.
#[inline]
pub fn write_i32(out: &mut Vec<u8>, v: i32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// Appends a little-endian `f32`.
#[inline]
pub fn write_f32(out: &mut Vec<u8>, v: f32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// The scalar type of one component of a fixed layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    /// A real: `f32` on the wire (`f64` with FLAG_64), `f64` in the model.
    Real,
    /// A 32-bit integer.
    I32,
    /// A 32-bit float whatever FLAG_64 says (`Color`).
    F32,
}

/// One scalar of a fixed layout, in wire order (which is also the text form's order).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Component {
    /// The field path in the struct (`rows[0].x`).
    pub path: &'static str,
    /// Its scalar type.
    pub scalar: Scalar,
    /// The value the text form may leave out (`Color(1, 0, 0)` is opaque).
    pub text_default: Option<f64>,
}

/// The components of fixed kind `kind` (or of a packed array's element), from the spec.
pub fn components_of(kind: crate::generated::kinds::Kind) -> Option<&'static [Component]> {
    let kind = kind.packed_element().unwrap_or(kind);
    crate::variant::value::with_fixed!(kind, T => Some(T::COMPONENTS), _ => None)
}

/// A math type with a fixed wire layout: every such type of the spec implements it (generated).
///
/// Components travel as `f64`: reals are `f64`, `i32` widens exactly, and an `f32` widens with
/// its NaN bits kept, so nothing is lost between the struct and the
/// code that reads or builds it by components (text, JSON, serde, equality, migration).
pub trait FixedLayout: Copy + Default + PartialEq + std::fmt::Debug + 'static {
    /// Its kind.
    const KIND: crate::generated::kinds::Kind;
    /// The packed array of it, if the spec has one.
    const PACKED: Option<crate::generated::kinds::Kind>;
    /// Its scalars, in wire order.
    const COMPONENTS: &'static [Component];
    /// Payload bytes without FLAG_64.
    const SIZE: usize;
    /// Payload bytes with FLAG_64 (equal to `SIZE` when it has no reals).
    const WIDE_SIZE: usize;
    /// Payload bytes for `wide`.
    #[inline]
    fn size(wide: bool) -> usize {
        if wide {
            Self::WIDE_SIZE
        } else {
            Self::SIZE
        }
    }
    /// Reads the payload from the start of `b`, which holds at least `size(wide)` bytes.
    fn read(b: &[u8], wide: bool) -> Self;
    /// Appends the payload.
    fn write(&self, wide: bool, out: &mut Vec<u8>);
    /// Calls `f` with each component, in order.
    fn visit(&self, f: &mut dyn FnMut(f64));
    /// Whether every real component survives `f32` (what a single-precision engine holds).
    fn reals_fit_f32(&self) -> bool;
    /// Builds a value from its components (`f(i)` is component `i`; integers are truncated).
    fn build(f: &mut dyn FnMut(usize) -> f64) -> Self;
    /// The value held by `v`, if it is of this kind.
    fn from_value(v: &crate::Variant) -> Option<Self>;
    /// The owned value.
    fn into_variant(self) -> crate::Variant;
}

/// A fixed layout that the spec also has a packed array of (generated).
pub trait PackedLayout: FixedLayout {
    /// The packed array's kind.
    const PACKED_KIND: crate::generated::kinds::Kind;
    /// The owned packed array.
    fn pack(v: Vec<Self>) -> crate::Variant;
    /// The elements held by `v`, if it is this packed array.
    fn unpack(v: &crate::Variant) -> Option<&[Self]>;
}

/// Something that calls a function with each component of a value, in order.
type Visitor<'v> = dyn FnMut(&mut dyn FnMut(f64)) + 'v;

/// Calls `f` with the real components among those `visit` gives (`comps` repeating for the
/// elements of a packed array).
fn reals_of(comps: &[Component], visit: &mut Visitor<'_>, f: &mut dyn FnMut(f64)) {
    let mut i = 0;
    visit(&mut |x| {
        if comps
            .get(i % comps.len().max(1))
            .is_some_and(|c| c.scalar == Scalar::Real)
        {
            f(x)
        }
        i += 1;
    });
}

/// A fixed-layout value seen without its type: what generic code (text, JSON, equality) uses.
pub trait FixedValue {
    /// Its kind.
    fn kind(&self) -> crate::generated::kinds::Kind;
    /// Its scalars, in order.
    fn components(&self) -> &'static [Component];
    /// Calls `f` with each component, in order.
    fn visit(&self, f: &mut dyn FnMut(f64));
    /// Calls `f` with each real component (not integers, not `Color`'s `f32`s), in order.
    fn visit_reals(&self, f: &mut dyn FnMut(f64)) {
        reals_of(self.components(), &mut |g| self.visit(g), f)
    }
    /// The components as a vector.
    fn values(&self) -> Vec<f64> {
        let mut v = Vec::with_capacity(self.components().len());
        self.visit(&mut |x| v.push(x));
        v
    }
}

impl<T: FixedLayout> FixedValue for T {
    fn kind(&self) -> crate::generated::kinds::Kind {
        T::KIND
    }
    fn components(&self) -> &'static [Component] {
        T::COMPONENTS
    }
    fn visit(&self, f: &mut dyn FnMut(f64)) {
        FixedLayout::visit(self, f)
    }
}

/// A packed array of a fixed layout seen without its type (owned `Vec<T>` or a borrowed view).
pub trait PackedValue {
    /// The packed array's kind.
    fn kind(&self) -> crate::generated::kinds::Kind;
    /// The element's kind.
    fn element(&self) -> crate::generated::kinds::Kind;
    /// The element's scalars, in order.
    fn components(&self) -> &'static [Component];
    /// Number of elements.
    fn len(&self) -> usize;
    /// Whether there are no elements.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Calls `f` with every component of every element, in order.
    fn visit(&self, f: &mut dyn FnMut(f64));
    /// Element `i` as a value, if there is one.
    fn element_variant(&self, i: usize) -> Option<crate::Variant>;
    /// Calls `f` with each component of element `i` (nothing if there is none).
    fn visit_element(&self, i: usize, f: &mut dyn FnMut(f64));
    /// Calls `f` with each real component (not integers, not `Color`'s `f32`s), in order.
    fn visit_reals(&self, f: &mut dyn FnMut(f64)) {
        reals_of(self.components(), &mut |g| self.visit(g), f)
    }
    /// Every component as a vector.
    fn values(&self) -> Vec<f64> {
        let mut v = Vec::with_capacity(self.len() * self.components().len());
        self.visit(&mut |x| v.push(x));
        v
    }
}

impl<T: PackedLayout> PackedValue for Vec<T> {
    fn kind(&self) -> crate::generated::kinds::Kind {
        T::PACKED_KIND
    }
    fn element(&self) -> crate::generated::kinds::Kind {
        T::KIND
    }
    fn components(&self) -> &'static [Component] {
        T::COMPONENTS
    }
    fn len(&self) -> usize {
        self.as_slice().len()
    }
    fn visit(&self, f: &mut dyn FnMut(f64)) {
        for x in self {
            FixedLayout::visit(x, f);
        }
    }
    fn element_variant(&self, i: usize) -> Option<crate::Variant> {
        self.get(i).map(|x| x.into_variant())
    }
    fn visit_element(&self, i: usize, f: &mut dyn FnMut(f64)) {
        if let Some(x) = self.get(i) {
            FixedLayout::visit(x, f);
        }
    }
}

/// The struct tree of a fixed layout, from its component paths: what the JSON and serde shapes
/// of a math value are made of (`Rect2` is `position: {x, y}, size: {x, y}`).
#[cfg(feature = "serde")]
#[derive(Debug)]
pub(crate) enum Tree {
    /// Component `i`.
    Scalar(usize),
    /// Named fields.
    Struct(Vec<(&'static str, Tree)>),
    /// `name[i]` fields, in index order.
    Array(Vec<Tree>),
}

#[cfg(feature = "serde")]
impl Tree {
    /// Whether this is a struct of scalars only (`Vector2`, `Color`).
    #[cfg(feature = "json")]
    pub(crate) fn is_flat(&self) -> bool {
        matches!(self, Tree::Struct(f) if f.iter().all(|(_, t)| matches!(t, Tree::Scalar(_))))
    }
}

#[cfg(feature = "serde")]
/// The struct tree of fixed kind `kind` (computed once per kind).
pub(crate) fn tree_of(kind: crate::generated::kinds::Kind) -> Option<&'static Tree> {
    use crate::generated::kinds::Kind;
    static TREES: std::sync::OnceLock<Vec<(Kind, Tree)>> = std::sync::OnceLock::new();
    let all = TREES.get_or_init(|| {
        Kind::ALL
            .iter()
            .filter(|k| k.is_fixed())
            .filter_map(|&k| {
                let paths: Vec<(&'static str, usize)> = components_of(k)?
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (c.path, i))
                    .collect();
                Some((k, tree(&paths)))
            })
            .collect()
    });
    all.iter().find(|(k, _)| *k == kind).map(|(_, t)| t)
}

#[cfg(feature = "serde")]
/// The tree of components given by their paths below the current struct.
fn tree(paths: &[(&'static str, usize)]) -> Tree {
    if let [("", i)] = paths {
        return Tree::Scalar(*i);
    }
    // Consecutive components with the same first field: (field, [(index, rest, component)]).
    type Group = (
        &'static str,
        Vec<(Option<&'static str>, &'static str, usize)>,
    );
    let mut fields: Vec<Group> = Vec::new();
    for &(p, i) in paths {
        let (head, rest) = p.split_once('.').unwrap_or((p, ""));
        let (name, index) = match head.split_once('[') {
            Some((n, idx)) => (n, Some(idx)),
            None => (head, None),
        };
        match fields.last_mut() {
            Some((n, v)) if *n == name => v.push((index, rest, i)),
            _ => fields.push((name, vec![(index, rest, i)])),
        }
    }
    let rest = |items: &[(Option<&'static str>, &'static str, usize)]| {
        tree(&items.iter().map(|&(_, r, i)| (r, i)).collect::<Vec<_>>())
    };
    Tree::Struct(
        fields
            .into_iter()
            .map(|(name, items)| {
                if items.iter().all(|(idx, _, _)| idx.is_none()) {
                    return (name, rest(&items));
                }
                let mut groups: Vec<(Option<&str>, Vec<_>)> = Vec::new();
                for it in items {
                    match groups.last_mut() {
                        Some((g, v)) if *g == it.0 => v.push(it),
                        _ => groups.push((it.0, vec![it])),
                    }
                }
                (
                    name,
                    Tree::Array(groups.iter().map(|(_, v)| rest(v)).collect()),
                )
            })
            .collect(),
    )
}
