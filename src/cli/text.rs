//! The engine's text form for `decode --format text` and `encode --from text`.

use super::Failure;
use gdvariant::{Dialect, Variant};

/// The value as the engine's `var2str` / `var_to_str` prints it (may span lines).
pub fn to_text(value: &Variant, dialect: Dialect) -> String {
    gdvariant::to_text(value, dialect)
}

/// Parses values in the engine's text form, one after another.
pub fn from_text(text: &str, dialect: Dialect) -> Result<Vec<Variant>, Failure> {
    gdvariant::text::from_text_many(text, dialect).map_err(|e| Failure::data(format!("text: {e}")))
}
