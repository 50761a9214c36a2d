//! The engine's text form for `decode --format text` and `encode --from text`.

use super::Failure;
use gdvariant::{Dialect, Format, Variant};

/// The value as the engine's `var2str` / `var_to_str` prints it (may span lines).
pub fn to_text(value: &Variant, dialect: Dialect) -> String {
    gdvariant::to_text(value, dialect)
}

/// Parses values in the engine's text form, one after another, and appends each one's
/// frame to `out` (see `gdvariant::text::encode_text_many`: the values are not held).
pub fn encode_text(
    text: &str,
    format: &Format,
    out: &mut Vec<u8>,
) -> Result<Result<(), (usize, gdvariant::EncodeError)>, Failure> {
    gdvariant::text::encode_text_many(text, format, out)
        .map_err(|e| Failure::data(format!("text: {e}")))
}
