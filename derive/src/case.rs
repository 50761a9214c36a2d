//! `rename_all` cases: Rust field names (snake_case) and variant names (PascalCase) to the
//! key or tag names a Godot project uses.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl RenameRule {
    pub const NAMES: &'static [&'static str] = &[
        "lowercase",
        "UPPERCASE",
        "PascalCase",
        "camelCase",
        "snake_case",
        "SCREAMING_SNAKE_CASE",
        "kebab-case",
        "SCREAMING-KEBAB-CASE",
    ];

    pub fn from_str(s: &str) -> Option<RenameRule> {
        Some(match s {
            "lowercase" => RenameRule::Lower,
            "UPPERCASE" => RenameRule::Upper,
            "PascalCase" => RenameRule::Pascal,
            "camelCase" => RenameRule::Camel,
            "snake_case" => RenameRule::Snake,
            "SCREAMING_SNAKE_CASE" => RenameRule::ScreamingSnake,
            "kebab-case" => RenameRule::Kebab,
            "SCREAMING-KEBAB-CASE" => RenameRule::ScreamingKebab,
            _ => return None,
        })
    }

    /// Applies the rule to a Rust identifier (either case; `r#` already stripped).
    pub fn apply(self, ident: &str) -> String {
        let words = words(ident);
        let cap = |w: &str| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect::<String>(),
                None => String::new(),
            }
        };
        match self {
            RenameRule::Lower => words.concat(),
            RenameRule::Upper => words.concat().to_uppercase(),
            RenameRule::Pascal => words.iter().map(|w| cap(w)).collect(),
            RenameRule::Camel => words
                .iter()
                .enumerate()
                .map(|(i, w)| if i == 0 { w.clone() } else { cap(w) })
                .collect(),
            RenameRule::Snake => words.join("_"),
            RenameRule::ScreamingSnake => words.join("_").to_uppercase(),
            RenameRule::Kebab => words.join("-"),
            RenameRule::ScreamingKebab => words.join("-").to_uppercase(),
        }
    }
}

/// Lowercase words of an identifier: split at `_` and before an uppercase letter that follows
/// a lowercase letter or digit (`PlayerState` → `player`, `state`; `Move2D` → `move2`, `d`).
fn words(ident: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in ident.split('_').filter(|p| !p.is_empty()) {
        let mut word = String::new();
        let mut prev_lower = false;
        for ch in part.chars() {
            if ch.is_uppercase() && prev_lower && !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            prev_lower = ch.is_lowercase() || ch.is_ascii_digit();
            word.extend(ch.to_lowercase());
        }
        if !word.is_empty() {
            out.push(word);
        }
    }
    out
}
