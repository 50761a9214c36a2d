//! ConfigFile text (`.cfg`, `project.godot`, `override.cfg`, and the text inside
//! `save_encrypted_pass` files) through the command: `guess` names it, `decode` prints its
//! entries, `encode` writes them back, `convert` rewrites its values in the target dialect's
//! text form.

use super::{shown, Failure};
use gdvariant::migrate::{migrate_in_place, Report, Target};
use gdvariant::text::{to_text, ConfigFile};
use gdvariant::{Dialect, Variant};
use std::io::{BufRead, Write};
use std::path::Path;

/// Whether the start of an input is ConfigFile text: UTF-8 without NUL bytes (binary values
/// always have some in their first word) whose first line that is not blank or a comment is
/// `[section]` or `key=value`.
pub(super) fn looks_like(start: &[u8]) -> bool {
    if start.is_empty() || start.contains(&0) {
        return false;
    }
    let text = match std::str::from_utf8(start) {
        Ok(t) => t,
        // A sample may end inside a character.
        Err(e) if e.error_len().is_none() => {
            std::str::from_utf8(&start[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(_) => return false,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(first) = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with(';') && !l.starts_with('#'))
    else {
        return false;
    };
    if first.starts_with('[') {
        // A resource's text (`.tres`, `.tscn`) opens with its own header.
        let resource = first.starts_with("[gd_resource") || first.starts_with("[gd_scene");
        return first.ends_with(']') && !resource;
    }
    first.split_once('=').is_some_and(|(key, _)| {
        let key = key.trim();
        !key.is_empty() && !key.contains(['"', ' ', '(', '[', '{'])
    })
}

/// The file read in the dialect that wrote it: `dialect` when given, else `config_version`
/// (project.godot: 4 is Godot 3, 5 Godot 4), else the dialect that reads every value and
/// whose own text form matches more of the file's lines (each engine writes its own form:
/// `Vector2( 1, 2 )` and `PoolIntArray` in Godot 3, `Vector2(1, 2)` and `PackedInt32Array`
/// in Godot 4); Godot 4 on a tie.
pub(super) fn parse(text: &str, dialect: Option<Dialect>) -> Result<ConfigFile, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let candidates = match dialect {
        Some(d) => vec![d],
        None => vec![Dialect::Godot4, Dialect::Godot3],
    };
    let mut best: Option<(usize, ConfigFile)> = None;
    let mut first_error = None;
    for d in candidates {
        match ConfigFile::parse(text, d) {
            Ok(cfg) => {
                let score = match cfg.get("", "config_version") {
                    Some(Variant::Int(5..)) if d == Dialect::Godot4 => usize::MAX,
                    Some(Variant::Int(..=4)) if d == Dialect::Godot3 => usize::MAX,
                    _ => own_form_lines(&cfg, text),
                };
                if best.as_ref().is_none_or(|(b, _)| score > *b) {
                    best = Some((score, cfg));
                }
            }
            Err(e) => {
                first_error.get_or_insert(e.to_string());
            }
        }
    }
    best.map(|(_, cfg)| cfg)
        .ok_or_else(|| first_error.unwrap_or_default())
}

/// How many entries are written in `cfg`'s dialect's own text form.
fn own_form_lines(cfg: &ConfigFile, text: &str) -> usize {
    let lines: std::collections::HashSet<&str> = text.lines().map(str::trim_end).collect();
    cfg.all_entries()
        .filter(|(_, key, value)| {
            let own = format!("{key}={}", to_text(value, cfg.dialect()));
            own.lines().next().is_some_and(|l| lines.contains(l))
        })
        .count()
}

fn sections(cfg: &ConfigFile) -> usize {
    cfg.sections().len()
}

/// `guess`: "ConfigFile text, Godot 4, 2 sections, 5 keys" when the bytes are one. `more`:
/// the bytes are the start of a larger input (only whole sections are read then).
pub(super) fn describe(bytes: &[u8], more: bool) -> Option<String> {
    if !looks_like(bytes) {
        return None;
    }
    let text = String::from_utf8_lossy(bytes);
    let text = match more {
        true => &text[..text.rfind("\n[").map_or(text.len(), |at| at + 1)],
        false => &text[..],
    };
    let cfg = parse(text, None).ok()?;
    let keys = cfg.all_entries().count();
    let at_least = if more { "at least " } else { "" };
    Some(format!(
        "ConfigFile text, {}, {at_least}{} section(s), {at_least}{keys} key(s)",
        cfg.dialect(),
        sections(&cfg)
    ))
}

/// Reads all of `input` as ConfigFile text.
fn read(
    path: &Path,
    input: &mut dyn BufRead,
    dialect: Option<Dialect>,
) -> Result<ConfigFile, Failure> {
    let mut text = String::new();
    input
        .read_to_string(&mut text)
        .map_err(|e| Failure::data(format!("{}: ConfigFile text: {e}", shown(path))))?;
    parse(&text, dialect)
        .map_err(|e| Failure::data(format!("{}: ConfigFile text: {e}", shown(path))))
}

/// `decode` of ConfigFile text: one line per entry, `[section] key=value` in the text form,
/// or a JSON object `{"section", "key", "value"}` (the value in the tagged JSON form).
pub(super) fn decode(
    path: &Path,
    input: &mut dyn BufRead,
    dialect: Option<Dialect>,
    json: bool,
    out: &mut dyn Write,
) -> Result<Result<(), std::io::Error>, Failure> {
    let cfg = read(path, input, dialect)?;
    eprintln!(
        "gdvariant: {}: ConfigFile text, {}, {} section(s)",
        shown(path),
        cfg.dialect(),
        sections(&cfg)
    );
    let mut buf = Vec::new();
    for (section, key, value) in cfg.all_entries() {
        if json {
            let head = serde_json::json!({ "section": section, "key": key });
            let head = head.to_string();
            buf.extend_from_slice(&head.as_bytes()[..head.len() - 1]);
            buf.extend_from_slice(b",\"value\":");
            gdvariant::json::append_json(&mut buf, value);
            buf.extend_from_slice(b"}\n");
        } else {
            let _ = writeln!(buf, "[{section}] {key}={}", to_text(value, cfg.dialect()));
        }
    }
    Ok(out.write_all(&buf))
}

/// `convert` of ConfigFile text: every value migrated from `from` to `to` and written in
/// `to`'s text form, comments and order kept; the bytes of the output (before any container)
/// and the report.
pub(super) fn convert(
    path: &Path,
    input: &mut dyn BufRead,
    from: Target,
    to: Target,
) -> Result<(Vec<u8>, Report, usize), Failure> {
    let cfg = read(path, input, Some(from.dialect))?;
    let mut report = Report::default();
    let mut n = 0;
    let out = cfg.to_dialect(to.dialect, |section, key, value| {
        n += 1;
        let mut r = migrate_in_place(value, from, to);
        for l in &mut r.losses {
            l.path = format!("[{section}] {key}{}", l.path.trim_start_matches("value"));
        }
        report.merge(r);
    });
    Ok((out.to_text().into_bytes(), report, n))
}

/// `encode` of the JSON `decode` prints for a ConfigFile (one `{"section", "key", "value"}`
/// object a line): the ConfigFile text of `format`'s dialect, as its engine's `save` writes
/// it; `None` (nothing read) when the first line is not such an object.
pub(super) fn encode_json(
    path: &Path,
    input: &mut dyn BufRead,
    format: &gdvariant::Format,
) -> Result<Option<Vec<u8>>, Failure> {
    let head = input.fill_buf().map_err(|e| Failure::io(path, e))?;
    let first = head.split(|&b| b == b'\n').next().unwrap_or_default();
    let entry = |v: &serde_json::Value| v.get("section").is_some() && v.get("key").is_some();
    match serde_json::from_slice::<serde_json::Value>(first) {
        Ok(v) if entry(&v) => {}
        _ => return Ok(None),
    }
    let mut cfg = ConfigFile::new(format.dialect);
    let bad = |n: usize, why: String| Failure::data(format!("{}: line {n}: {why}", shown(path)));
    for (i, line) in input.lines().enumerate() {
        let line = line.map_err(|e| Failure::io(path, e))?;
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value =
            serde_json::from_str(&line).map_err(|e| bad(i + 1, e.to_string()))?;
        let (Some(section), Some(key), Some(value)) = (
            v.get("section").and_then(|s| s.as_str()),
            v.get("key").and_then(|s| s.as_str()),
            v.get("value"),
        ) else {
            return Err(bad(
                i + 1,
                "expected {\"section\", \"key\", \"value\"}".into(),
            ));
        };
        let value = gdvariant::json::from_json(value).map_err(|e| bad(i + 1, e.to_string()))?;
        cfg.set(section, key, value);
    }
    Ok(Some(cfg.to_text().into_bytes()))
}
