//! Godot 4.5+ `String::num_scientific`: Grisu2 digits laid out like `%g` (thirdparty/grisu2,
//! simdjson's `to_chars` with Godot's changes: no `.0` appended, `-0` kept).
//!
//! Grisu2 (Loitsch, PLDI 2010) gives digits that read back to the same float, nearly always
//! the shortest. "Nearly" is why this is not Rust's `{}` (which is always the shortest): for
//! the engine's bytes we must pick the digits Grisu2 picks. A `f32` is printed with its own
//! neighbours (`compute_boundaries(float)`), so `78.23043` stays 7 digits.
//!
//! The cached powers of ten (`kCachedPowers`, 10^-300 to 10^324 in steps of 8, each the
//! nearest 64-bit significand) are computed here once, exactly, from big integers.

use std::sync::OnceLock;

/// A float as `f · 2^e` (`diyfp`).
#[derive(Clone, Copy, Debug)]
struct DiyFp {
    f: u64,
    e: i32,
}

impl DiyFp {
    fn sub(self, y: DiyFp) -> DiyFp {
        DiyFp {
            f: self.f - y.f,
            e: self.e,
        }
    }

    /// The upper 64 bits of the 128-bit product, rounded half up (`diyfp::mul`).
    fn mul(self, y: DiyFp) -> DiyFp {
        let p = u128::from(self.f) * u128::from(y.f) + (1u128 << 63);
        DiyFp {
            f: (p >> 64) as u64,
            e: self.e + y.e + 64,
        }
    }

    fn normalize(self) -> DiyFp {
        let shift = self.f.leading_zeros();
        DiyFp {
            f: self.f << shift,
            e: self.e - shift as i32,
        }
    }

    fn normalize_to(self, e: i32) -> DiyFp {
        DiyFp {
            f: self.f << (self.e - e),
            e,
        }
    }
}

/// The two float widths: their significand bits and exponent bias.
pub(crate) trait Binary: Copy {
    /// Significand bits with the hidden one (`std::numeric_limits::digits`).
    const PRECISION: u32;
    /// `max_exponent - 1 + (PRECISION - 1)`.
    const BIAS: i32;
    fn raw(self) -> u64;
}

impl Binary for f64 {
    const PRECISION: u32 = 53;
    const BIAS: i32 = 1024 - 1 + 52;
    fn raw(self) -> u64 {
        self.to_bits()
    }
}

impl Binary for f32 {
    const PRECISION: u32 = 24;
    const BIAS: i32 = 128 - 1 + 23;
    fn raw(self) -> u64 {
        u64::from(self.to_bits())
    }
}

/// `compute_boundaries`: the value and the halfway points to its neighbours, normalized.
/// `value` is finite and positive.
fn boundaries<T: Binary>(value: T) -> (DiyFp, DiyFp, DiyFp) {
    let hidden = 1u64 << (T::PRECISION - 1);
    let bits = value.raw();
    let biased = (bits >> (T::PRECISION - 1)) as i32;
    let fraction = bits & (hidden - 1);
    let v = if biased == 0 {
        DiyFp {
            f: fraction,
            e: 1 - T::BIAS,
        }
    } else {
        DiyFp {
            f: fraction + hidden,
            e: biased - T::BIAS,
        }
    };
    // The lower neighbour is closer when the value is a power of two above the smallest
    // normal.
    let lower_closer = fraction == 0 && biased > 1;
    let m_plus = DiyFp {
        f: 2 * v.f + 1,
        e: v.e - 1,
    };
    let m_minus = if lower_closer {
        DiyFp {
            f: 4 * v.f - 1,
            e: v.e - 2,
        }
    } else {
        DiyFp {
            f: 2 * v.f - 1,
            e: v.e - 1,
        }
    };
    let w_plus = m_plus.normalize();
    (m_minus.normalize_to(w_plus.e), v.normalize(), w_plus)
}

const ALPHA: i32 = -60;
const GAMMA: i32 = -32;
const MIN_DEC_EXP: i32 = -300;
const DEC_STEP: i32 = 8;

/// One cached power: `10^k ≈ f · 2^e`.
#[derive(Clone, Copy)]
struct CachedPower {
    f: u64,
    e: i32,
    k: i32,
}

fn cached_powers() -> &'static [CachedPower] {
    static TABLE: OnceLock<Vec<CachedPower>> = OnceLock::new();
    TABLE.get_or_init(|| {
        (0..79)
            .map(|i| {
                let k = MIN_DEC_EXP + i * DEC_STEP;
                let (f, e) = power_of_ten(k);
                CachedPower { f, e, k }
            })
            .collect()
    })
}

/// `get_cached_power_for_binary_exponent`: a power `c` with `ALPHA <= c.e + e + 64 <= GAMMA`.
fn cached_power_for(e: i32) -> CachedPower {
    let f = ALPHA - e - 1;
    // C++ integer division truncates toward zero; `+ (f > 0)` makes it a ceiling.
    let k = (f * 78913) / (1 << 18) + i32::from(f > 0);
    let index = (-MIN_DEC_EXP + k + (DEC_STEP - 1)) / DEC_STEP;
    let c = cached_powers()[index as usize];
    debug_assert!((ALPHA..=GAMMA).contains(&(e + c.e + 64)));
    c
}

/// `10^k` as the nearest `f · 2^e` with `f` in `[2^63, 2^64)`.
fn power_of_ten(k: i32) -> (u64, i32) {
    let mut ten = Big::one();
    for _ in 0..k.unsigned_abs() {
        ten.mul_small(10);
    }
    if k >= 0 {
        let bits = ten.bits();
        top_64_rounded(&ten, bits, bits as i32 - 64)
    } else {
        // 2^s / 10^-k with s large enough for 66 significant bits.
        let s = ten.bits() + 66;
        let q = Big::power_of_two(s).div(&ten);
        let bits = q.bits();
        top_64_rounded(&q, bits, bits as i32 - 64 - s as i32)
    }
}

/// The top 64 bits of `n` (which has `bits` bits), rounded half up, with exponent `e`.
fn top_64_rounded(n: &Big, bits: u32, e: i32) -> (u64, i32) {
    if bits <= 64 {
        return (n.low_u64() << (64 - bits), e);
    }
    let shift = bits - 64;
    let f = n.shr_low_u64(shift);
    let round_up = n.bit(shift - 1);
    match f.checked_add(u64::from(round_up)) {
        Some(f) => (f, e),
        None => (1 << 63, e + 1),
    }
}

/// Just enough of a big unsigned integer for the table: little-endian 32-bit limbs.
#[derive(Clone)]
struct Big(Vec<u32>);

impl Big {
    fn one() -> Big {
        Big(vec![1])
    }

    fn power_of_two(n: u32) -> Big {
        let mut limbs = vec![0; n as usize / 32 + 1];
        limbs[n as usize / 32] = 1 << (n % 32);
        Big(limbs)
    }

    fn trim(&mut self) {
        while self.0.len() > 1 && self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for limb in &mut self.0 {
            let p = u64::from(*limb) * u64::from(m) + carry;
            *limb = p as u32;
            carry = p >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    fn bits(&self) -> u32 {
        let top = *self.0.last().expect("a limb");
        (self.0.len() as u32 - 1) * 32 + (32 - top.leading_zeros())
    }

    fn bit(&self, i: u32) -> bool {
        self.0
            .get(i as usize / 32)
            .is_some_and(|l| l >> (i % 32) & 1 == 1)
    }

    fn low_u64(&self) -> u64 {
        (0..64).filter(|&i| self.bit(i)).map(|i| 1u64 << i).sum()
    }

    fn shr_low_u64(&self, shift: u32) -> u64 {
        (0..64)
            .filter(|&i| self.bit(shift + i))
            .map(|i| 1u64 << i)
            .sum()
    }

    fn ge(&self, other: &Big) -> bool {
        if self.0.len() != other.0.len() {
            return self.0.len() > other.0.len();
        }
        for (a, b) in self.0.iter().rev().zip(other.0.iter().rev()) {
            if a != b {
                return a > b;
            }
        }
        true
    }

    fn sub_assign(&mut self, other: &Big) {
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let d = i64::from(self.0[i]) - i64::from(other.0.get(i).copied().unwrap_or(0)) - borrow;
            self.0[i] = d.rem_euclid(1 << 32) as u32;
            borrow = i64::from(d < 0);
        }
        self.trim();
    }

    fn shl1_or(&mut self, bit: bool) {
        let mut carry = u32::from(bit);
        for limb in &mut self.0 {
            let next = *limb >> 31;
            *limb = *limb << 1 | carry;
            carry = next;
        }
        if carry > 0 {
            self.0.push(carry);
        }
    }

    /// `self / d`, by binary long division (run 40 times, once).
    fn div(&self, d: &Big) -> Big {
        let mut q = Big(vec![0; self.0.len()]);
        let mut r = Big(vec![0]);
        for i in (0..self.bits()).rev() {
            r.shl1_or(self.bit(i));
            if r.ge(d) {
                r.sub_assign(d);
                q.0[i as usize / 32] |= 1 << (i % 32);
            }
        }
        q.trim();
        q
    }
}

/// `find_largest_pow10`: the digit count of `n` and the largest power of ten not above it.
fn largest_pow10(n: u32) -> (i32, u32) {
    let mut pow = 1_000_000_000u32;
    let mut digits = 10;
    while digits > 1 && n < pow {
        pow /= 10;
        digits -= 1;
    }
    (digits, pow)
}

/// `grisu2_round`: moves the last digit down while that brings it closer to the value.
fn round_last(buf: &mut [u8], dist: u64, delta: u64, mut rest: u64, ten_k: u64) {
    while rest < dist
        && delta - rest >= ten_k
        && (rest + ten_k < dist || dist - rest > rest + ten_k - dist)
    {
        *buf.last_mut().expect("a digit") -= 1;
        rest += ten_k;
    }
}

/// `grisu2_digit_gen`: the digits of a value in `[m_minus, m_plus]`, close to `w`.
fn digit_gen(buf: &mut Vec<u8>, exponent: &mut i32, m_minus: DiyFp, w: DiyFp, m_plus: DiyFp) {
    let mut delta = m_plus.sub(m_minus).f;
    let mut dist = m_plus.sub(w).f;
    let shift = (-m_plus.e) as u32;
    let one = 1u64 << shift;
    let mut p1 = (m_plus.f >> shift) as u32;
    let mut p2 = m_plus.f & (one - 1);
    let (mut n, mut pow10) = largest_pow10(p1);
    while n > 0 {
        buf.push(b'0' + (p1 / pow10) as u8);
        p1 %= pow10;
        n -= 1;
        let rest = (u64::from(p1) << shift) + p2;
        if rest <= delta {
            *exponent += n;
            round_last(buf, dist, delta, rest, u64::from(pow10) << shift);
            return;
        }
        pow10 /= 10;
    }
    let mut m = 0;
    loop {
        p2 *= 10;
        buf.push(b'0' + (p2 >> shift) as u8);
        p2 &= one - 1;
        m += 1;
        delta *= 10;
        dist *= 10;
        if p2 <= delta {
            break;
        }
    }
    *exponent -= m;
    round_last(buf, dist, delta, p2, one);
}

/// The digits and decimal exponent of a finite positive value.
fn grisu2<T: Binary>(value: T) -> (Vec<u8>, i32) {
    let (m_minus, v, m_plus) = boundaries(value);
    let c = cached_power_for(m_plus.e);
    let c_minus_k = DiyFp { f: c.f, e: c.e };
    let w = v.mul(c_minus_k);
    let w_minus = m_minus.mul(c_minus_k);
    let w_plus = m_plus.mul(c_minus_k);
    // The boundaries are inexact by one unit each way: stay inside.
    let lo = DiyFp {
        f: w_minus.f + 1,
        e: w_minus.e,
    };
    let hi = DiyFp {
        f: w_plus.f - 1,
        e: w_plus.e,
    };
    let mut digits = Vec::with_capacity(20);
    let mut exponent = -c.k;
    digit_gen(&mut digits, &mut exponent, lo, w, hi);
    (digits, exponent)
}

/// `format_buffer` with `min_exp = -4`, `max_exp = 15`, as Godot patched it (no `.0`).
fn layout(out: &mut String, digits: &[u8], exponent: i32) {
    const MIN_EXP: i32 = -4;
    const MAX_EXP: i32 = 15;
    let text = |d: &[u8]| std::str::from_utf8(d).expect("ASCII digits").to_owned();
    let k = digits.len() as i32;
    let n = k + exponent;
    if k <= n && n <= MAX_EXP {
        out.push_str(&text(digits));
        out.extend(std::iter::repeat_n('0', (n - k) as usize));
    } else if 0 < n && n <= MAX_EXP {
        out.push_str(&text(&digits[..n as usize]));
        out.push('.');
        out.push_str(&text(&digits[n as usize..]));
    } else if MIN_EXP < n && n <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-n) as usize));
        out.push_str(&text(digits));
    } else {
        out.push(digits[0] as char);
        if k > 1 {
            out.push('.');
            out.push_str(&text(&digits[1..]));
        }
        let e = n - 1;
        out.push('e');
        out.push(if e < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", e.unsigned_abs()));
    }
}

/// `String::num_scientific(double)` of Godot 4.5 and later.
pub(crate) fn num_scientific_f64(v: f64) -> String {
    special(v).unwrap_or_else(|| finite(v.is_sign_negative(), v.abs()))
}

/// `String::num_scientific(float)` of Godot 4.5 and later.
pub(crate) fn num_scientific_f32(v: f32) -> String {
    special(f64::from(v)).unwrap_or_else(|| finite(v.is_sign_negative(), v.abs()))
}

/// NaN and the infinities go through `String::num(p_num, 0)`.
fn special(v: f64) -> Option<String> {
    if v.is_nan() {
        Some("nan".into())
    } else if v.is_infinite() {
        Some(if v > 0.0 { "inf" } else { "-inf" }.into())
    } else {
        None
    }
}

fn finite<T: Binary + PartialEq + Default>(negative: bool, magnitude: T) -> String {
    let mut out = String::with_capacity(24);
    if negative {
        out.push('-');
    }
    if magnitude == T::default() {
        out.push('0');
        return out;
    }
    let (digits, exponent) = grisu2(magnitude);
    layout(&mut out, &digits, exponent);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engines_own_vectors() {
        // tests/core/string/test_string.h of Godot 4.5+, "String::num_scientific tests".
        assert_eq!(num_scientific_f64(30000000.0), "30000000");
        assert_eq!(num_scientific_f64(1234567890.0), "1234567890");
        assert_eq!(num_scientific_f64(3e100), "3e+100");
        assert_eq!(num_scientific_f64(7e-100), "7e-100");
        assert_eq!(
            num_scientific_f64(std::f64::consts::TAU),
            "6.283185307179586"
        );
        assert_eq!(num_scientific_f64(f64::INFINITY), "inf");
        assert_eq!(num_scientific_f64(f64::NEG_INFINITY), "-inf");
        assert_eq!(num_scientific_f64(f64::NAN), "nan");
        assert_eq!(num_scientific_f64(2.0), "2");
        assert_eq!(num_scientific_f64(1.0), "1");
        assert_eq!(num_scientific_f64(0.0), "0");
        assert_eq!(num_scientific_f64(-0.0), "-0");
    }

    #[test]
    fn the_table_holds_exact_powers() {
        // 10^4 and 10^12 fit in 64 bits, so they are exact once shifted to the top.
        let t = cached_powers();
        for (k, n) in [(4, 10_000u64), (12, 1_000_000_000_000)] {
            let c = t.iter().find(|c| c.k == k).unwrap();
            let bits = 64 - n.leading_zeros();
            assert_eq!((c.f, c.e), (n << (64 - bits), bits as i32 - 64));
        }
        assert_eq!(t.first().unwrap().k, -300);
        assert_eq!(t.last().unwrap().k, 324);
    }

    #[test]
    fn digits_read_back() {
        // Whatever Grisu2 picks must read back to the same float.
        let mut x = 0x1234_5678_9abc_def0u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let d = f64::from_bits(x);
            if d.is_finite() {
                assert_eq!(num_scientific_f64(d).parse::<f64>().unwrap(), d, "{d:e}");
            }
            let f = f32::from_bits(x as u32);
            if f.is_finite() {
                assert_eq!(num_scientific_f32(f).parse::<f32>().unwrap(), f, "{f:e}");
            }
        }
    }

    /// A campaign against the engine's own `thirdparty/grisu2/grisu2.h` compiled with a tiny
    /// driver (reads `d <hex>` / `f <hex>` lines, prints `grisu2::to_chars`); see
    /// docs/testing.md. Run: `GDVARIANT_GRISU2_ORACLE=path/to/driver cargo test --lib
    /// grisu2_matches_the_engines_code -- --ignored --nocapture`.
    #[test]
    #[ignore = "needs the engine's grisu2.h compiled as GDVARIANT_GRISU2_ORACLE"]
    fn grisu2_matches_the_engines_code() {
        use std::io::Write;
        let oracle = std::env::var("GDVARIANT_GRISU2_ORACLE").expect("GDVARIANT_GRISU2_ORACLE");
        let n: usize = std::env::var("GDVARIANT_GRISU2_CASES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1_000_000);
        let mut input = String::new();
        let mut ours = Vec::new();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Every third value is a short decimal, where digit choice matters most.
            let d = if i % 3 == 0 {
                (x % 1_000_000) as f64 / 10f64.powi((x >> 40) as i32 % 9)
            } else {
                f64::from_bits(x)
            };
            if d.is_finite() && d != 0.0 {
                input.push_str(&format!("d {:x}\n", d.abs().to_bits()));
                ours.push(num_scientific_f64(d.abs()));
            }
            let f = if i % 3 == 0 {
                d as f32
            } else {
                f32::from_bits(x as u32)
            };
            if f.is_finite() && f != 0.0 {
                input.push_str(&format!("f {:x}\n", f.abs().to_bits()));
                ours.push(num_scientific_f32(f.abs()));
            }
        }
        let mut child = std::process::Command::new(oracle)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("run the oracle");
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap().unwrap();
        let theirs: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
        assert_eq!(theirs.len(), ours.len());
        let differ: Vec<_> = ours
            .iter()
            .zip(&theirs)
            .filter(|(a, b)| a.as_str() != **b)
            .take(10)
            .collect();
        println!("RESULT {} values, {} differ", ours.len(), differ.len());
        assert!(differ.is_empty(), "{differ:?}");
    }
}
