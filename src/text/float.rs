//! How the engines print reals: C's `%lg` (6 significant digits) and our shortest exact form.
//!
//! Godot 3.2.3 and 4.3 print every real through `String::num_scientific(double)`, which is
//! `snprintf(buf, 256, "%lg", p_num)` (core/ustring.cpp, core/string/ustring.cpp), wrapped by
//! the writer's `rtosfix` / `rtos_fix` (core/variant_parser.cpp, core/variant/variant_parser.cpp).
//! glibc's `%g` rounds the exact binary value correctly (ties to even); Rust's `{:.N}` and
//! `{:.Ne}` do the same, so the digits below match the engine's digit for digit.

/// C's `%.{precision}g` for a finite or special `f64`, as glibc prints it: `inf`, `-inf`,
/// `nan`, `-nan` (the sign bit of a NaN shows), `-0`.
pub fn c_format_g(v: f64, precision: usize) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan" } else { "nan" }.to_string();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf" } else { "inf" }.to_string();
    }
    let p = precision.max(1);
    // The exponent %g chooses by is the one of %e at precision P-1, after rounding.
    let sci = format!("{:.*e}", p - 1, v);
    let (mantissa, exp) = split_exponent(&sci);
    if exp < -4 || exp >= p as i32 {
        let mut m = mantissa.to_string();
        strip_fraction_zeros(&mut m);
        format!(
            "{m}e{}{:02}",
            if exp < 0 { '-' } else { '+' },
            exp.unsigned_abs()
        )
    } else {
        let decimals = (p as i32 - 1 - exp) as usize;
        let mut s = format!("{:.*}", decimals, v);
        strip_fraction_zeros(&mut s);
        s
    }
}

/// The shortest decimal that reads back to exactly `v` (as an `f64`), in a form the engines'
/// parsers read: fixed notation for exponents -5..=16, else `d.ddde±X`.
pub fn shortest_f64(v: f64) -> String {
    shortest_from_sci(&format!("{v:e}"))
}

/// The shortest decimal that reads back to exactly `v` once narrowed to `f32`.
pub fn shortest_f32(v: f32) -> String {
    shortest_from_sci(&format!("{v:e}"))
}

/// C99's `%a` of a finite `f64`, its bits in hex (`0x1.999999999999ap-4`, subnormals as
/// `0x0.…p-1022`): exact text's form of a math real that a narrowing parse would round.
pub fn hex_f64(v: f64) -> String {
    let bits = v.to_bits();
    let sign = if v.is_sign_negative() { "-" } else { "" };
    let biased = (bits >> 52 & 0x7ff) as i64;
    let (lead, exp) = if biased == 0 {
        (0, -1022)
    } else {
        (1, biased - 1023)
    };
    let fraction = format!("{:013x}", bits & ((1 << 52) - 1));
    let fraction = fraction.trim_end_matches('0');
    let point = if fraction.is_empty() { "" } else { "." };
    format!("{sign}0x{lead}{point}{fraction}p{exp:+}")
}

/// Exact text's NaN: `nan` for the positive quiet NaN (what `nan` reads as), `-nan` for its
/// negative, else `nan(0x…)` with all 64 bits (a single-precision NaN as the `f64` it widens
/// to, `real_from_f32_bits`).
pub fn nan_text(v: f64) -> String {
    match v.to_bits() {
        0x7ff8_0000_0000_0000 => "nan".into(),
        0xfff8_0000_0000_0000 => "-nan".into(),
        bits => format!("nan(0x{bits:016x})"),
    }
}

fn shortest_from_sci(sci: &str) -> String {
    if sci.contains("inf") || sci.contains("NaN") {
        return sci.to_lowercase();
    }
    let (mantissa, exp) = split_exponent(sci);
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if negative { "-" } else { "" };
    if (-5..=16).contains(&exp) {
        let point = exp + 1; // digits before the decimal point
        if point <= 0 {
            format!("{sign}0.{}{digits}", "0".repeat((-point) as usize))
        } else if point as usize >= digits.len() {
            format!(
                "{sign}{digits}{}",
                "0".repeat(point as usize - digits.len())
            )
        } else {
            let (a, b) = digits.split_at(point as usize);
            format!("{sign}{a}.{b}")
        }
    } else {
        let (a, b) = digits.split_at(1);
        let frac = if b.is_empty() {
            String::new()
        } else {
            format!(".{b}")
        };
        format!(
            "{sign}{a}{frac}e{}{}",
            if exp < 0 { "-" } else { "+" },
            exp.abs()
        )
    }
}

/// Splits Rust's `{:e}` output (`-1.25e-7`) into mantissa and exponent.
fn split_exponent(sci: &str) -> (&str, i32) {
    match sci.split_once('e') {
        Some((m, e)) => (m, e.parse().unwrap_or(0)),
        None => (sci, 0),
    }
}

/// `%g` drops trailing zeros of the fraction, and the point if nothing is left after it.
fn strip_fraction_zeros(s: &mut String) {
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_glibc_g() {
        // Expected strings are what the engines printed in tests/fixtures/godot4/manifest.jsonl.
        for (v, want) in [
            (1.0 / 3.0, "0.333333"),
            (16777217.0, "1.67772e+07"),
            (1e300, "1e+300"),
            (1e-300, "1e-300"),
            (f64::from_bits(1), "4.94066e-324"),
            (1.401298464324817e-45, "1.4013e-45"),
            (0.1, "0.1"),
            (100000.0, "100000"),
            (1e6, "1e+06"),
            (999999.5, "1e+06"),
            (0.0001, "0.0001"),
            (1e-5, "1e-05"),
            (-2.25, "-2.25"),
            (1.1547005383792517, "1.1547"),
        ] {
            assert_eq!(c_format_g(v, 6), want, "{v:e}");
        }
    }

    #[test]
    fn shortest_reads_back() {
        for v in [
            0.1,
            1.0 / 3.0,
            1e300,
            5e-324,
            123456789.0,
            1e16,
            1e17,
            0.00001,
            -2.5,
        ] {
            let s = shortest_f64(v);
            assert_eq!(s.parse::<f64>().unwrap().to_bits(), v.to_bits(), "{s}");
        }
        assert_eq!(shortest_f64(0.1), "0.1");
        assert_eq!(shortest_f64(1e300), "1e+300");
        assert_eq!(shortest_f64(100.0), "100");
        assert_eq!(shortest_f32(0.1), "0.1");
    }

    #[test]
    fn hex_f64_is_c99_a() {
        assert_eq!(hex_f64(0.1), "0x1.999999999999ap-4");
        assert_eq!(hex_f64(-3.0), "-0x1.8p+1");
        assert_eq!(hex_f64(1.0), "0x1p+0");
        assert_eq!(hex_f64(f64::from_bits(1)), "0x0.0000000000001p-1022");
        assert_eq!(hex_f64(f64::MAX), "0x1.fffffffffffffp+1023");
    }
}
