//! Packed arrays as they lie in the input ([`PackedRef`]) and the element types a packed array
//! can hold ([`PackedElement`]): numbers, and every fixed layout the spec has a packed array of.

use crate::generated::kinds::Kind;
use crate::variant::layout::{
    read_u32, read_u64, Component, FixedLayout, PackedLayout, PackedValue,
};
use crate::variant::Variant;
use std::marker::PhantomData;

/// A packed array as it lies in the input: `len()` elements of `T` in the wire's
/// little-endian layout, read on access. [`PackedRef::to_vec`] is a bulk copy for the
/// number types on little-endian hosts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PackedRef<'a, T> {
    bytes: &'a [u8],
    wide: bool,
    element: PhantomData<fn() -> T>,
}

impl<'a, T: PackedElement> PackedRef<'a, T> {
    /// A view of `bytes` (whole elements of `T::size(wide)` bytes each; a partial element at
    /// the end is ignored).
    pub fn new(bytes: &'a [u8], wide: bool) -> PackedRef<'a, T> {
        let whole = bytes.len() - bytes.len() % T::size(wide);
        PackedRef {
            bytes: &bytes[..whole],
            wide,
            element: PhantomData,
        }
    }

    /// Number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.bytes.len() / T::size(self.wide)
    }

    /// Whether there are no elements.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Element `i`, if there is one.
    #[inline]
    pub fn get(&self, i: usize) -> Option<T> {
        let s = T::size(self.wide);
        let start = i.checked_mul(s)?;
        let b = self.bytes.get(start..start.checked_add(s)?)?;
        Some(T::read(b, self.wide))
    }

    /// The elements in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = T> + 'a {
        let wide = self.wide;
        self.bytes
            .chunks_exact(T::size(wide))
            .map(move |c| T::read(c, wide))
    }

    /// The elements, copied out.
    pub fn to_vec(&self) -> Vec<T> {
        T::collect(self.bytes, self.wide)
    }

    /// The raw little-endian bytes of the elements.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Whether the reals are doubles (Godot 4 FLAG_64).
    pub fn is_wide(&self) -> bool {
        self.wide
    }
}

impl<'a, T: PackedElement + bytemuck::Pod> PackedRef<'a, T> {
    /// The elements as a slice of the input itself, when the host is little-endian and the
    /// bytes happen to be aligned for `T` (for example `i32` data at an offset that is a
    /// multiple of 4 in a `Vec<u8>`); `None` otherwise (use [`PackedRef::to_vec`]).
    pub fn as_slice(&self) -> Option<&'a [T]> {
        if cfg!(target_endian = "little") {
            bytemuck::try_cast_slice(self.bytes).ok()
        } else {
            None
        }
    }
}

/// An element type of a fixed-stride packed array, with its wire layout.
pub trait PackedElement: Copy + sealed::Wrap {
    /// Bytes per element (`wide`: reals are doubles).
    fn size(wide: bool) -> usize;
    /// Reads one element from the start of `b` (at least `size(wide)` bytes).
    fn read(b: &[u8], wide: bool) -> Self;
    /// Reads every whole element of `b`.
    fn collect(b: &[u8], wide: bool) -> Vec<Self> {
        b.chunks_exact(Self::size(wide))
            .map(|c| Self::read(c, wide))
            .collect()
    }
}

pub(crate) mod sealed {
    use super::Kind;
    /// The packed array of an element type (one per element type).
    pub trait Wrap: Sized {
        /// The packed array's kind.
        fn kind() -> Kind;
    }
}

/// Copies little-endian elements out in bulk: one `memcpy` on little-endian hosts, since the
/// wire layout then is the memory layout of `T`.
fn copy_le<T: bytemuck::Pod>(b: &[u8], from_le: fn(&[u8]) -> T) -> Vec<T> {
    let size = std::mem::size_of::<T>();
    let n = b.len() / size;
    if cfg!(target_endian = "big") {
        return b.chunks_exact(size).map(from_le).collect();
    }
    let mut v: Vec<T> = Vec::with_capacity(n);
    // SAFETY: the allocation holds `n * size` bytes, `b` has at least that many, the two do
    // not overlap, and `T: Pod` makes every bit pattern a valid `T`, so after the copy the
    // first `n` elements are initialised.
    unsafe {
        std::ptr::copy_nonoverlapping(b.as_ptr(), v.as_mut_ptr().cast::<u8>(), n * size);
        v.set_len(n);
    }
    v
}

macro_rules! packed_number {
    ($t:ty, $size:expr, $read:expr, $variant:ident) => {
        impl PackedElement for $t {
            #[inline]
            fn size(_: bool) -> usize {
                $size
            }
            #[inline]
            fn read(b: &[u8], _: bool) -> $t {
                $read(b)
            }
            #[inline]
            fn collect(b: &[u8], _: bool) -> Vec<$t> {
                copy_le(b, $read)
            }
        }
        impl sealed::Wrap for $t {
            fn kind() -> Kind {
                Kind::$variant
            }
        }
        impl<'a> From<PackedRef<'a, $t>> for Variant {
            fn from(v: PackedRef<'a, $t>) -> Variant {
                Variant::$variant(v.to_vec())
            }
        }
    };
}

packed_number!(i32, 4, |b: &[u8]| read_u32(b, 0) as i32, PackedInt32Array);
packed_number!(i64, 8, |b: &[u8]| read_u64(b, 0) as i64, PackedInt64Array);
packed_number!(
    f32,
    4,
    |b: &[u8]| f32::from_bits(read_u32(b, 0)),
    PackedFloat32Array
);
packed_number!(
    f64,
    8,
    |b: &[u8]| f64::from_bits(read_u64(b, 0)),
    PackedFloat64Array
);

// Every packed array of a fixed layout (generated from the spec's `packed:` kinds).
impl<T: PackedLayout> PackedElement for T {
    #[inline]
    fn size(wide: bool) -> usize {
        T::size(wide)
    }
    #[inline]
    fn read(b: &[u8], wide: bool) -> T {
        <T as FixedLayout>::read(b, wide)
    }
}

impl<T: PackedLayout> sealed::Wrap for T {
    fn kind() -> Kind {
        T::PACKED_KIND
    }
}

impl<T: PackedLayout> PackedValue for PackedRef<'_, T> {
    fn kind(&self) -> Kind {
        T::PACKED_KIND
    }
    fn element(&self) -> Kind {
        T::KIND
    }
    fn components(&self) -> &'static [Component] {
        T::COMPONENTS
    }
    fn len(&self) -> usize {
        PackedRef::len(self)
    }
    fn visit(&self, f: &mut dyn FnMut(f64)) {
        for x in self.iter() {
            FixedLayout::visit(&x, f);
        }
    }
    fn element_variant(&self, i: usize) -> Option<Variant> {
        self.get(i).map(FixedLayout::into_variant)
    }
    fn visit_element(&self, i: usize, f: &mut dyn FnMut(f64)) {
        if let Some(x) = self.get(i) {
            FixedLayout::visit(&x, f);
        }
    }
}
