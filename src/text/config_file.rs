//! `ConfigFile` text (`ConfigFile.save` / `load`, `project.godot`, `override.cfg`): sections,
//! `key=value` lines with values in the dialect's text form; comments, blank lines and every
//! untouched entry are kept byte for byte on a round trip.
//!
//! The engine writes `[section]`, a blank line, then `key=value` lines, and a blank line
//! before each later section (core/io/config_file.cpp, `_internal_save`); values are
//! `VariantWriter::write_to_string`, that is `var_to_str` (`var2str` in Godot 3). A value may
//! span lines (an Array, a Dictionary). Lines starting with `;` are comments.

use super::{from_text, to_text, TextError};
use crate::{Dialect, Variant};

/// A ConfigFile: its lines in order, each entry with its value.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigFile {
    dialect: Dialect,
    lines: Vec<Line>,
}

#[derive(Clone, Debug, PartialEq)]
enum Line {
    /// A comment, a blank line, or anything kept as written.
    Raw(String),
    /// `[name]`, as written.
    Section { name: String, raw: String },
    /// `key=value` in the section before it; `raw` is the text as read (`None` once set).
    Entry {
        section: String,
        key: String,
        value: Variant,
        raw: Option<String>,
    },
}

/// Why ConfigFile text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message} (at line {line})")]
pub struct ConfigError {
    /// The line, from 1.
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

impl ConfigFile {
    /// An empty file for `dialect`'s engine.
    pub fn new(dialect: Dialect) -> ConfigFile {
        ConfigFile {
            dialect,
            lines: Vec::new(),
        }
    }

    /// Reads ConfigFile text written by `dialect`'s engine.
    ///
    /// ```
    /// use gdvariant::text::ConfigFile;
    /// use gdvariant::{Dialect, Variant};
    /// let text = "; settings\n[player]\n\nname=\"ann\"\nhp=90\n";
    /// let mut cfg = ConfigFile::parse(text, Dialect::Godot4)?;
    /// assert_eq!(cfg.get("player", "hp"), Some(&Variant::Int(90)));
    /// assert_eq!(cfg.to_text(), text); // comments and layout kept
    /// cfg.set("player", "hp", Variant::Int(75));
    /// assert!(cfg.to_text().contains("hp=75\n"));
    /// # Ok::<(), gdvariant::text::ConfigError>(())
    /// ```
    pub fn parse(text: &str, dialect: Dialect) -> Result<ConfigFile, ConfigError> {
        let mut lines = Vec::new();
        let mut section = String::new();
        let all: Vec<&str> = text.split_inclusive('\n').collect();
        let mut i = 0;
        while i < all.len() {
            let line = all[i];
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with(';') || trimmed.starts_with('#') {
                lines.push(Line::Raw(line.to_string()));
                i += 1;
                continue;
            }
            if let Some(name) = trimmed.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
                section = name.to_string();
                lines.push(Line::Section {
                    name: name.to_string(),
                    raw: line.to_string(),
                });
                i += 1;
                continue;
            }
            let Some((key, first)) = line.split_once('=') else {
                return Err(ConfigError {
                    line: i + 1,
                    message: format!("expected `key=value` or `[section]`, found `{trimmed}`"),
                });
            };
            // A value that spans lines ends at the first line that completes it.
            let start = i;
            let mut value_text = first.to_string();
            let value = loop {
                match from_text(value_text.trim(), dialect) {
                    Ok(v) => break v,
                    Err(e) if i + 1 >= all.len() => return Err(at_line(start, &e)),
                    Err(_) => {
                        i += 1;
                        value_text.push_str(all[i]);
                    }
                }
            };
            lines.push(Line::Entry {
                section: section.clone(),
                key: key.trim().to_string(),
                value,
                raw: Some(all[start..=i].concat()),
            });
            i += 1;
        }
        Ok(ConfigFile { dialect, lines })
    }

    /// The value of `key` in `section` (`""` for keys before any section).
    pub fn get(&self, section: &str, key: &str) -> Option<&Variant> {
        self.lines.iter().find_map(|l| match l {
            Line::Entry {
                section: s,
                key: k,
                value,
                ..
            } if s == section && k == key => Some(value),
            _ => None,
        })
    }

    /// The sections, in order.
    pub fn sections(&self) -> Vec<&str> {
        self.lines
            .iter()
            .filter_map(|l| match l {
                Line::Section { name, .. } => Some(name.as_str()),
                _ => None,
            })
            .collect()
    }

    /// The keys of `section` with their values, in order.
    pub fn entries<'a>(
        &'a self,
        section: &'a str,
    ) -> impl Iterator<Item = (&'a str, &'a Variant)> + 'a {
        self.lines.iter().filter_map(move |l| match l {
            Line::Entry {
                section: s,
                key,
                value,
                ..
            } if s == section => Some((key.as_str(), value)),
            _ => None,
        })
    }

    /// Sets `key` in `section`: in place when it is there, else after the section's last
    /// entry (a new section at the end, as `ConfigFile.set_value` then `save` lays it out).
    pub fn set(&mut self, section: &str, key: &str, value: Variant) {
        for l in &mut self.lines {
            if let Line::Entry {
                section: s,
                key: k,
                value: v,
                raw,
            } = l
            {
                if s == section && k == key {
                    *v = value;
                    *raw = None;
                    return;
                }
            }
        }
        let entry = Line::Entry {
            section: section.to_string(),
            key: key.to_string(),
            value,
            raw: None,
        };
        let last = self.lines.iter().rposition(|l| match l {
            Line::Entry { section: s, .. } => s == section,
            Line::Section { name, .. } => name == section,
            Line::Raw(_) => false,
        });
        match last {
            Some(at) => {
                // After a section header the engine leaves a blank line before the keys.
                let at = match &self.lines[at] {
                    Line::Section { .. } => at + 1,
                    _ => at,
                };
                if matches!(self.lines.get(at), Some(Line::Section { .. })) {
                    self.lines.insert(at + 1, Line::Raw("\n".into()));
                    self.lines.insert(at + 2, entry);
                } else {
                    self.lines.insert((at + 1).min(self.lines.len()), entry);
                }
            }
            None if section.is_empty() => self.lines.insert(0, entry),
            None => {
                if !self.lines.is_empty() {
                    self.lines.push(Line::Raw("\n".into()));
                }
                self.lines.push(Line::Section {
                    name: section.to_string(),
                    raw: format!("[{section}]\n"),
                });
                self.lines.push(Line::Raw("\n".into()));
                self.lines.push(entry);
            }
        }
    }

    /// The dialect whose text form the values are written in.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The same file for `dialect`'s engine: comments, blank lines, sections and the order
    /// of entries kept, each value passed through `f` (section, key, value) and written in
    /// `dialect`'s text form, as that engine's `ConfigFile.save` writes it.
    ///
    /// ```
    /// use gdvariant::text::ConfigFile;
    /// use gdvariant::Dialect;
    /// let g3 = ConfigFile::parse("; old\n[w]\n\nseen=PoolIntArray( 1, 2 )\n", Dialect::Godot3)?;
    /// let g4 = g3.to_dialect(Dialect::Godot4, |_, _, _| {});
    /// assert_eq!(g4.to_text(), "; old\n[w]\n\nseen=PackedInt32Array(1, 2)\n");
    /// # Ok::<(), gdvariant::text::ConfigError>(())
    /// ```
    pub fn to_dialect(
        &self,
        dialect: Dialect,
        mut f: impl FnMut(&str, &str, &mut Variant),
    ) -> ConfigFile {
        let lines = self
            .lines
            .iter()
            .map(|l| match l {
                Line::Entry {
                    section,
                    key,
                    value,
                    ..
                } => {
                    let mut value = value.clone();
                    f(section, key, &mut value);
                    Line::Entry {
                        section: section.clone(),
                        key: key.clone(),
                        value,
                        raw: None,
                    }
                }
                other => other.clone(),
            })
            .collect();
        ConfigFile { dialect, lines }
    }

    /// The entries in file order: (section, key, value); `""` for keys before any section.
    pub fn all_entries(&self) -> impl Iterator<Item = (&str, &str, &Variant)> {
        self.lines.iter().filter_map(|l| match l {
            Line::Entry {
                section,
                key,
                value,
                ..
            } => Some((section.as_str(), key.as_str(), value)),
            _ => None,
        })
    }

    /// The text: untouched lines as read, set entries as the engine writes them.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for l in &self.lines {
            match l {
                Line::Raw(raw) | Line::Section { raw, .. } => out.push_str(raw),
                Line::Entry { raw: Some(raw), .. } => out.push_str(raw),
                Line::Entry { key, value, .. } => {
                    out.push_str(key);
                    out.push('=');
                    out.push_str(&to_text(value, self.dialect));
                    out.push('\n');
                }
            }
        }
        out
    }
}

fn at_line(start: usize, e: &TextError) -> ConfigError {
    ConfigError {
        line: start + e.line,
        message: e.message.clone(),
    }
}

/// `ConfigFile.load_encrypted_pass` / `load_encrypted`: the text inside an encrypted file.
#[cfg(feature = "containers")]
#[cfg_attr(docsrs, doc(cfg(feature = "containers")))]
pub fn config_file_from_encrypted(
    bytes: &[u8],
    key: &crate::container::Key,
    dialect: Dialect,
) -> Result<ConfigFile, Box<dyn std::error::Error + Send + Sync>> {
    let plain = crate::container::encrypted::read(bytes, key)?;
    let text = String::from_utf8(plain)?;
    Ok(ConfigFile::parse(&text, dialect)?)
}

/// `ConfigFile.save_encrypted_pass` / `save_encrypted`: the text in an encrypted file laid
/// out for the dialect's engine.
#[cfg(feature = "containers")]
#[cfg_attr(docsrs, doc(cfg(feature = "containers")))]
pub fn config_file_to_encrypted(
    config: &ConfigFile,
    key: &crate::container::Key,
) -> Result<Vec<u8>, crate::ContainerError> {
    let layout = match config.dialect {
        Dialect::Godot4 => crate::container::EncryptedLayout::Godot4,
        _ => crate::container::EncryptedLayout::Godot3,
    };
    crate::container::encrypted::write(config.to_text().as_bytes(), key, layout, None)
}
