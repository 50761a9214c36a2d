//! `.tres` files: the `[gd_resource]` header, `[ext_resource]`, `[sub_resource]` and
//! `[resource]` sections, property values in the text form (scene/resources/
//! resource_format_text.cpp, `ResourceFormatSaverTextInstance::save`).

use super::{Encoding, ExtResource, Resource, ResourceError, ResourceFile};
use crate::dialect::Dialect;
use crate::text::{parse_resource_value, write_resource_value};
use crate::variant::Variant;

/// A section tag, `[name key=value …]`, with its attributes in order (string values
/// unquoted, others as written).
struct Tag {
    name: String,
    attrs: Vec<(String, Variant)>,
}

impl Tag {
    fn get(&self, key: &str) -> Option<&Variant> {
        self.attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
    fn string(&self, key: &str) -> Option<String> {
        match self.get(key)? {
            Variant::String(s) => Some(s.to_string()),
            other => Some(crate::text::to_text(other, Dialect::Godot4)),
        }
    }
}

/// Where byte `at` of `text` is, as a line and column from 1.
fn position(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before[before.rfind('\n').map_or(0, |n| n + 1)..]
        .chars()
        .count()
        + 1;
    (line, column)
}

fn error_at(text: &str, at: usize, message: impl Into<String>) -> ResourceError {
    let (line, column) = position(text, at);
    ResourceError::Text {
        line,
        column,
        message: message.into(),
    }
}

/// Reads the tag starting at `at` (a `[`): the tag and the offset after its `]`.
fn read_tag(text: &str, at: usize) -> Result<(Tag, usize), ResourceError> {
    let rest = &text[at + 1..];
    let name_len = rest
        .find([' ', ']'])
        .ok_or_else(|| error_at(text, at, "unterminated section tag"))?;
    let name = rest[..name_len].to_string();
    let mut pos = at + 1 + name_len;
    let mut attrs = Vec::new();
    loop {
        let rest = &text[pos..];
        let trimmed = rest.trim_start_matches(' ');
        pos += rest.len() - trimmed.len();
        if trimmed.starts_with(']') {
            return Ok((Tag { name, attrs }, pos + 1));
        }
        let eq = trimmed
            .find('=')
            .filter(|&n| !trimmed[..n].contains(['\n', ']']))
            .ok_or_else(|| error_at(text, pos, "expected `key=value` or `]` in a section tag"))?;
        let key = trimmed[..eq].to_string();
        pos += eq + 1;
        let (value, used) = parse_resource_value(&text[pos..], Dialect::Godot4)
            .map_err(|e| error_at(text, pos, e.message))?;
        // The value parser stops at the next token; a tag's values end at a blank or `]`.
        let value_end = text[pos..pos + used].trim_end().len();
        pos += value_end;
        attrs.push((key, value));
    }
}

/// Reads a `.tres` file.
pub(super) fn read(text: &str) -> Result<ResourceFile, ResourceError> {
    let start = text.len() - text.trim_start().len();
    if !text[start..].starts_with('[') {
        return Err(error_at(text, start, "expected `[gd_resource …]`"));
    }
    let (header, mut pos) = read_tag(text, start)?;
    if header.name != "gd_resource" {
        return Err(error_at(
            text,
            start,
            format!("`[{}]` is not a resource file's header", header.name),
        ));
    }
    let format = match header.get("format") {
        Some(Variant::Int(f)) => *f as u32,
        _ => 1,
    };
    let dialect = if format >= 3 {
        Dialect::Godot4
    } else {
        Dialect::Godot3
    };
    let mut file = ResourceFile {
        class: header.string("type").unwrap_or_default(),
        script_class: header.string("script_class"),
        encoding: Encoding::Text {
            format,
            uid: header.string("uid"),
            load_steps: header.get("load_steps").is_some(),
        },
        ext_resources: Vec::new(),
        sub_resources: Vec::new(),
        main: Resource::default(),
    };
    let mut current: Option<Resource> = None;
    let mut seen_main = false;
    loop {
        let rest = &text[pos..];
        let trimmed = rest.trim_start();
        pos += rest.len() - trimmed.len();
        if trimmed.is_empty() {
            break;
        }
        if trimmed.starts_with(';') {
            pos += trimmed.find('\n').unwrap_or(trimmed.len());
            continue;
        }
        if trimmed.starts_with('[') {
            let (tag, next) = read_tag(text, pos)?;
            if let Some(done) = current.take() {
                file.sub_resources.push(done);
            }
            match tag.name.as_str() {
                "ext_resource" => file.ext_resources.push(ExtResource {
                    class: tag.string("type").unwrap_or_default(),
                    path: tag.string("path").unwrap_or_default(),
                    uid: tag.string("uid"),
                    id: tag.get("id").cloned().unwrap_or_default(),
                }),
                "sub_resource" => {
                    current = Some(Resource {
                        class: tag.string("type").unwrap_or_default(),
                        id: tag.get("id").cloned().unwrap_or_default(),
                        properties: Vec::new(),
                    })
                }
                "resource" => {
                    seen_main = true;
                    file.main.class = file.class.clone();
                }
                other => {
                    return Err(error_at(
                        text,
                        pos,
                        format!("unknown section `[{other}]` in a resource file"),
                    ))
                }
            }
            pos = next;
            continue;
        }
        // `name = value`
        let eq = trimmed
            .find(" = ")
            .filter(|&n| !trimmed[..n].contains('\n'))
            .ok_or_else(|| error_at(text, pos, "expected `name = value`"))?;
        let name = trimmed[..eq].to_string();
        let at = pos + eq + 3;
        let (value, used) = parse_resource_value(&text[at..], dialect).map_err(|e| {
            let (line, column) = position(text, at);
            ResourceError::Text {
                line: line + e.line - 1,
                column: if e.line == 1 {
                    column + e.column - 1
                } else {
                    e.column
                },
                message: e.message,
            }
        })?;
        pos = at + used;
        match current.as_mut() {
            Some(r) => r.properties.push((name, value)),
            None if seen_main => file.main.properties.push((name, value)),
            None => {
                return Err(error_at(
                    text,
                    at - 3 - eq,
                    "a property outside any section",
                ))
            }
        }
    }
    if let Some(done) = current.take() {
        file.sub_resources.push(done);
    }
    if !seen_main {
        return Err(error_at(text, text.len(), "no `[resource]` section"));
    }
    Ok(file)
}

/// A string attribute as the engine writes it: quoted, unescaped.
fn quoted(s: &str) -> String {
    format!("\"{s}\"")
}

/// An id attribute: Godot 4 quotes string ids, Godot 3 writes int ids bare.
fn id_text(id: &Variant) -> String {
    match id {
        Variant::Int(i) => i.to_string(),
        Variant::String(s) => quoted(s),
        other => crate::text::to_text(other, Dialect::Godot4),
    }
}

fn write_properties(out: &mut String, r: &Resource, dialect: Dialect, format_4: bool) {
    for (name, value) in &r.properties {
        out.push_str(name);
        out.push_str(" = ");
        out.push_str(&write_resource_value(value, dialect, format_4));
        out.push('\n');
    }
}

/// Writes a `.tres` file as `ResourceFormatSaverTextInstance::save` does.
pub(super) fn write(file: &ResourceFile) -> String {
    let (format, uid, load_steps) = match &file.encoding {
        Encoding::Text {
            format,
            uid,
            load_steps,
        } => (*format, uid.clone(), *load_steps),
        Encoding::Binary(_) => (3, None, true),
    };
    let dialect = if format >= 3 {
        Dialect::Godot4
    } else {
        Dialect::Godot3
    };
    // Godot 4.3+ picks the format from the content (`_find_resources`): format 4, with
    // PackedByteArray in base64, only when a file needs it; 4.0-4.2 have only format 3.
    let format_4 = format >= 4 || (format == 3 && needs_format_4(file));
    let format = if format_4 { 4 } else { format };
    let mut out = format!("[gd_resource type={} ", quoted(&file.class));
    if let Some(sc) = &file.script_class {
        out.push_str(&format!("script_class={} ", quoted(sc)));
    }
    let steps = file.ext_resources.len() + file.sub_resources.len() + 1;
    if load_steps && steps > 1 {
        out.push_str(&format!("load_steps={steps} "));
    }
    out.push_str(&format!("format={format}"));
    if let Some(uid) = uid {
        out.push_str(&format!(" uid={}", quoted(&uid)));
    }
    out.push_str("]\n\n");
    for e in &file.ext_resources {
        if dialect == Dialect::Godot4 {
            out.push_str(&format!("[ext_resource type={}", quoted(&e.class)));
            if let Some(uid) = &e.uid {
                out.push_str(&format!(" uid={}", quoted(uid)));
            }
            out.push_str(&format!(
                " path={} id={}]\n",
                quoted(&e.path),
                id_text(&e.id)
            ));
        } else {
            // Godot 3 writes the path first (resource_format_text.cpp of 3.x, `save`).
            out.push_str(&format!(
                "[ext_resource path={} type={} id={}]\n",
                quoted(&e.path),
                quoted(&e.class),
                id_text(&e.id)
            ));
        }
    }
    if !file.ext_resources.is_empty() {
        out.push('\n');
    }
    for r in &file.sub_resources {
        out.push_str(&format!(
            "[sub_resource type={} id={}]\n",
            quoted(&r.class),
            id_text(&r.id)
        ));
        write_properties(&mut out, r, dialect, format_4);
        out.push('\n');
    }
    out.push_str("[resource]\n");
    write_properties(&mut out, &file.main, dialect, format_4);
    out
}

/// Whether the engine would save `file` as format 4 (resource_format_text.cpp, 4.3+
/// `_find_resources`: `use_compat` is dropped for a PackedByteArray over 64 bytes or any
/// PackedVector4Array, anywhere in any resource's properties).
fn needs_format_4(file: &ResourceFile) -> bool {
    let mut stack: Vec<&Variant> = file
        .sub_resources
        .iter()
        .chain(std::iter::once(&file.main))
        .flat_map(|r| r.properties.iter().map(|(_, v)| v))
        .collect();
    while let Some(v) = stack.pop() {
        match v {
            Variant::PackedByteArray(b) if b.len() > 64 => return true,
            Variant::PackedVector4Array(_) => return true,
            Variant::Array(a) => stack.extend(a.iter()),
            Variant::Dictionary(d) => stack.extend(d.iter().flat_map(|(k, v)| [k, v])),
            _ => {}
        }
    }
    false
}
