//! The engine's text form for `decode --format text` and `encode --from text`.
//!
//! `gdvariant::to_text` / `from_text` (the engine's `var_to_str` / `str_to_var`) are being
//! written on another branch; until they land, text output is the `Debug` form of the value
//! behind the same flag, and text input is refused with a usage error.

use super::Failure;
use gdvariant::{Dialect, Variant};

/// The value as text, one value per call (may span lines).
pub fn to_text(value: &Variant, _dialect: Dialect) -> String {
    format!("{value:?}")
}

/// Parses the engine's text form.
pub fn from_text(_text: &str, _dialect: Dialect) -> Result<Vec<Variant>, Failure> {
    Err(Failure::usage(
        "--from text needs the engine text parser, which this build does not have yet; use --from json",
    ))
}
