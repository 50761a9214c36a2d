//! Engine oddities that are not table data: each is one `match` arm with its reason and the
//! engine source it comes from, so every deviation from the tables is found in this one file.

/// How a type's FLAG_64 comes to be set.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flag64Rule {
    /// Set per value, whatever the build: the value needs 64 bits.
    ByValue,
    /// Set by double-precision builds on every value of the type (`real_t` is `double`).
    ByBuild,
}

/// The FLAG_64 rule of a kind (only meaningful for types that use FLAG_64).
pub fn flag64_rule(kind: &str) -> Flag64Rule {
    match kind {
        // The encoder writes an int64 only when the value is outside int32, in every build.
        // core/io/marshalls.cpp, encode_variant, case INT (`val > INT_MAX || val < INT_MIN`).
        "Int" => Flag64Rule::ByValue,
        // The engine writes a 64-bit float only when the value does not survive f32 (NaN never
        // does); the docs say the float type is always double. core/io/marshalls.cpp,
        // encode_variant, case FLOAT (`if (double(f) != d) flags |= ENCODE_FLAG_64`).
        "Float" => Flag64Rule::ByValue,
        // Math types: `encode_real` / memcpy of `real_t`, flagged when `REAL_T_IS_DOUBLE`.
        // core/io/marshalls.cpp, encode_variant, PR #58205.
        _ => Flag64Rule::ByBuild,
    }
}

/// Bytes before the payload: every encoded value starts with a u32 header, and the spec's
/// offsets (like the docs' tables) count from the start of that header.
pub const HEADER_LEN: i64 = 4;
