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
