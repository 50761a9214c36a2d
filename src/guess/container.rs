//! File formats that hold encoded values among other data: exported project settings and
//! Godot 3 GDScript bytecode. Guessing reads the values where the format puts them.

use super::{decode_options, Candidate, Era};
use crate::framing::Framing;
use crate::Dialect;

/// A file format around the values, recognised by its magic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Container {
    /// `project.binary`, an export's project settings: `ECFG`, a count, then each setting's
    /// key (a length and UTF-8) and its value (a length and `encode_variant`'s bytes).
    /// Godot 3 and 4 write it alike: core/project_settings.cpp (3.x) and
    /// core/config/project_settings.cpp (4.x), `_save_settings_binary`.
    ProjectBinary,
    /// A Godot 3 `.gdc` (GDScript compiled to tokens, `GDSC` version 10–13): identifiers,
    /// then the script's constants as values back to back, then lines and tokens.
    /// modules/gdscript/gdscript_tokenizer.cpp, `GDScriptTokenizerBuffer::set_code_buffer`.
    /// (Godot 4's `.gdc` is zstd-compressed tokens of another layout.)
    GdscriptBytecode,
}

impl std::fmt::Display for Container {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Container::ProjectBinary => "project settings (project.binary, ECFG)",
            Container::GdscriptBytecode => "GDScript bytecode constants (Godot 3 .gdc)",
        })
    }
}

impl Container {
    /// Whether engines of `dialect` write this container: the token format of `.gdc` files
    /// is Godot 3's (and its fork Pandemonium's); Godot 4 compiles scripts to another one.
    pub fn written_by(self, dialect: Dialect) -> bool {
        match self {
            Container::ProjectBinary => true,
            Container::GdscriptBytecode => dialect != Dialect::Godot4,
        }
    }
}

/// Where a container's values are, as far as its own structure says.
#[derive(Debug)]
pub(super) struct Parsed {
    pub(super) kind: Container,
    layout: Layout,
}

#[derive(Debug)]
enum Layout {
    /// Each value's bytes, delimited by the container (its offset and length).
    Delimited(Vec<(usize, usize)>),
    /// `count` values back to back from `at`, then `lines` line entries and `tokens` tokens.
    Bytecode {
        at: usize,
        count: usize,
        lines: usize,
        tokens: usize,
    },
}

fn u32_at(bytes: &[u8], at: usize) -> Option<usize> {
    let b: [u8; 4] = bytes.get(at..at.checked_add(4)?)?.try_into().ok()?;
    Some(u32::from_le_bytes(b) as usize)
}

/// The container `bytes` are, if they start with a known magic and its structure holds
/// (lengths inside the input, nothing left over where the format says where it ends).
pub(super) fn parse(bytes: &[u8]) -> Option<Parsed> {
    match bytes.get(..4)? {
        b"ECFG" => {
            let count = u32_at(bytes, 4)?;
            let mut at = 8;
            // Every entry takes at least 8 bytes, so the count is checked before it sizes
            // anything.
            if count > (bytes.len() - at) / 8 {
                return None;
            }
            let mut values = Vec::with_capacity(count);
            for _ in 0..count {
                let key = u32_at(bytes, at)?;
                at = at.checked_add(4 + key)?;
                let len = u32_at(bytes, at)?;
                at += 4;
                values.push((at, len));
                at = at.checked_add(len).filter(|&end| end <= bytes.len())?;
            }
            (at == bytes.len()).then_some(Parsed {
                kind: Container::ProjectBinary,
                layout: Layout::Delimited(values),
            })
        }
        b"GDSC" => {
            if !(10..=13).contains(&u32_at(bytes, 4)?) {
                return None;
            }
            let [identifiers, count, lines, tokens] = [8, 12, 16, 20].map(|at| u32_at(bytes, at));
            let (identifiers, count, lines, tokens) = (identifiers?, count?, lines?, tokens?);
            let mut at = 24;
            for _ in 0..identifiers {
                let len = u32_at(bytes, at)?;
                at = at.checked_add(4 + len).filter(|&end| end <= bytes.len())?;
            }
            // Each constant takes at least 4 bytes, each line 8 and each token 1.
            let least = count
                .checked_mul(4)?
                .checked_add(lines.checked_mul(8)?)?
                .checked_add(tokens)?;
            (least <= bytes.len() - at).then_some(Parsed {
                kind: Container::GdscriptBytecode,
                layout: Layout::Bytecode {
                    at,
                    count,
                    lines,
                    tokens,
                },
            })
        }
        _ => None,
    }
}

/// Reads the container's values as `era`. A reading is complete when every value decodes and
/// the container's structure accounts for every byte around them.
pub(super) fn read(bytes: &[u8], parsed: &Parsed, era: Era) -> Candidate {
    let mut c = Candidate::empty(era, Framing::Bare);
    let opts = decode_options(era);
    let one = |c: &mut Candidate, at: usize, end: usize| -> Option<usize> {
        match crate::decode(&bytes[at..end], era.dialect, &opts) {
            Ok((value, used)) => {
                c.values += 1;
                c.count(&value, era, &bytes[at..at + used]);
                Some(used)
            }
            Err(e) => {
                c.error = Some((at + e.offset(), format!("in the value at {at:#x}: {e}")));
                None
            }
        }
    };
    match &parsed.layout {
        Layout::Delimited(values) => {
            for &(at, len) in values {
                let Some(used) = one(&mut c, at, at + len) else {
                    return c;
                };
                if used != len {
                    c.error = Some((
                        at + used,
                        format!(
                            "the value at {at:#x} ends {} bytes before its length says",
                            len - used
                        ),
                    ));
                    return c;
                }
                c.used = at + len;
            }
            c.used = bytes.len();
        }
        &Layout::Bytecode {
            at,
            count,
            lines,
            tokens,
        } => {
            let mut at = at;
            for _ in 0..count {
                let Some(used) = one(&mut c, at, bytes.len()) else {
                    return c;
                };
                at += used;
                c.used = at;
            }
            // What follows the constants must be exactly the lines (8 bytes each) and the
            // tokens (1 byte, or 4 when the first has bit 7 set): a reading whose constants
            // end elsewhere is wrong.
            let mut end = at.saturating_add(lines.saturating_mul(8));
            for _ in 0..tokens {
                match bytes.get(end) {
                    Some(b) if b & 0x80 != 0 => end += 4,
                    Some(_) => end += 1,
                    None => break,
                }
            }
            if end != bytes.len() {
                c.error = Some((
                    at,
                    format!(
                        "the constants end at {at:#x}, where the lines and tokens that follow do not fit the {} bytes",
                        bytes.len()
                    ),
                ));
                return c;
            }
            c.used = bytes.len();
        }
    }
    c
}
