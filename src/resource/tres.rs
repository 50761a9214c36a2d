//! `.tres` and `.tscn` files: the `[gd_resource]` (`[gd_scene]`) header, `[ext_resource]`,
//! `[sub_resource]` and `[resource]` (or a scene's `[node]`, `[connection]`, `[editable]`)
//! sections, property values in the text form (scene/resources/resource_format_text.cpp,
//! `ResourceFormatSaverTextInstance::save`).

use super::{
    Encoding, ExtResource, Resource, ResourceError, ResourceFile, SceneSection, TextWriter,
};
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
    /// Refuses an attribute that cannot be written back: the engine writes each between
    /// quotes as it is (resource_format_text.cpp, `save`), so none may hold a quote or a
    /// line break.
    fn check_quotable(&self, text: &str, at: usize) -> Result<(), ResourceError> {
        for (key, _) in &self.attrs {
            let value = self.string(key).unwrap_or_default();
            if value.contains(['"', '\n']) {
                return Err(error_at(
                    text,
                    at,
                    format!("`{key}` of `[{}]` holds a quote or a line break", self.name),
                ));
            }
        }
        Ok(())
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
    header.check_quotable(text, start)?;
    // The text saver titles a `PackedScene` `[gd_scene …]` and writes its nodes where a
    // resource's `[resource]` goes (resource_format_text.cpp, `save`).
    let is_scene = header.name == "gd_scene";
    if !is_scene && header.name != "gd_resource" {
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
        class: if is_scene {
            SCENE_CLASS.into()
        } else {
            header.string("type").unwrap_or_default()
        },
        script_class: header.string("script_class"),
        encoding: Encoding::Text {
            format,
            uid: header.string("uid"),
            load_steps: header.get("load_steps").is_some(),
            // Settled below, from the text the writer left.
            writer: if format < 3 {
                TextWriter::Godot3
            } else {
                TextWriter::Godot43
            },
        },
        ext_resources: Vec::new(),
        sub_resources: Vec::new(),
        main: Resource::default(),
        scene: Vec::new(),
    };
    if is_scene {
        file.main.class = SCENE_CLASS.into();
    }
    let mut current: Option<Resource> = None;
    // Whether the reals are Grisu2's (4.5+): `None` until a property's text tells.
    let mut reals: Option<bool> = None;
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
            if !matches!(tag.name.as_str(), "node" | "connection" | "editable") {
                tag.check_quotable(text, pos)?;
            }
            if let Some(done) = current.take() {
                file.sub_resources.push(done);
            }
            match tag.name.as_str() {
                "node" | "connection" | "editable" if is_scene => {
                    let gap = &text[text[..pos].trim_end().len()..pos];
                    file.scene.push(SceneSection {
                        tag: text[pos + 1..next - 1].to_string(),
                        blank_before: gap.matches('\n').count() >= 2,
                        properties: Vec::new(),
                    });
                }
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
        if dialect == Dialect::Godot4 && reals.is_none() {
            reals = reals_of(&value, text[at..pos].trim_end(), format >= 4);
        }
        match current.as_mut() {
            Some(r) => set_property(&mut r.properties, name, value),
            None if !file.scene.is_empty() => {
                let section = file.scene.last_mut().expect("checked non-empty");
                set_property(&mut section.properties, name, value);
            }
            None if seen_main => set_property(&mut file.main.properties, name, value),
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
    if !seen_main && !is_scene {
        return Err(error_at(text, text.len(), "no `[resource]` section"));
    }
    let older = format == 3 && needs_format_4(&file);
    if let Encoding::Text { writer, .. } = &mut file.encoding {
        if older {
            // Godot 4.3+ would have saved these contents as format 4.
            *writer = TextWriter::Godot40;
        } else if reals == Some(true) {
            *writer = TextWriter::Godot45;
        }
    }
    Ok(file)
}

/// Sets property `name` as the loader does (`set` per line): a name given twice keeps its
/// first place and its last value, as the engine saves it again.
pub(super) fn set_property(list: &mut Vec<(String, Variant)>, name: String, value: Variant) {
    match list.iter_mut().find(|(n, _)| *n == name) {
        Some((_, v)) => *v = value,
        None => list.push((name, value)),
    }
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

/// The class of a scene, whose text file is titled `[gd_scene]`.
const SCENE_CLASS: &str = "PackedScene";

/// What one property's text says of its writer's reals: `Some(true)` when it is Godot
/// 4.5's Grisu2 form and not `%lg`'s, `Some(false)` the reverse, `None` when both print it
/// alike (or neither, for text no writer of ours gives).
fn reals_of(value: &Variant, source: &str, format_4: bool) -> Option<bool> {
    // The two forms differ only in a real with a fraction or an exponent: text without
    // either says nothing, and is not written twice to find that out.
    if !source.contains(['.', 'e']) {
        return None;
    }
    let old = write_resource_value(value, Dialect::Godot4, format_4, false);
    let new = write_resource_value(value, Dialect::Godot4, format_4, true);
    match (old == source, new == source) {
        (false, true) => Some(true),
        (true, false) => Some(false),
        _ => None,
    }
}

fn write_properties(
    out: &mut String,
    properties: &[(String, Variant)],
    dialect: Dialect,
    (format_4, shortest): (bool, bool),
) {
    for (name, value) in properties {
        out.push_str(name);
        out.push_str(" = ");
        out.push_str(&write_resource_value(value, dialect, format_4, shortest));
        out.push('\n');
    }
}

/// Writes a `.tres` file as `ResourceFormatSaverTextInstance::save` does.
pub(super) fn write(file: &ResourceFile) -> String {
    let (format, uid, load_steps, writer) = match &file.encoding {
        Encoding::Text {
            format,
            uid,
            load_steps,
            writer,
        } => (*format, uid.clone(), *load_steps, *writer),
        Encoding::Binary(h) => (3, None, true, TextWriter::of_engine(h.major, h.minor)),
    };
    let dialect = if format >= 3 {
        Dialect::Godot4
    } else {
        Dialect::Godot3
    };
    // Godot 4.3+ picks the format from the content (`_find_resources`): format 4, with
    // PackedByteArray in base64, only when a file needs it; 4.0-4.2 have only format 3.
    let by_content = matches!(writer, TextWriter::Godot43 | TextWriter::Godot45);
    let format_4 = format >= 4 || (format == 3 && by_content && needs_format_4(file));
    let format = if format_4 { 4 } else { format };
    let style = (format_4, writer == TextWriter::Godot45);
    // A `.scn` read in holds its nodes in `_bundled`: as text it stays a resource.
    let scene = file.class == SCENE_CLASS && file.main.properties.is_empty();
    let mut out = if scene {
        "[gd_scene ".to_string()
    } else {
        format!("[gd_resource type={} ", quoted(&file.class))
    };
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
        write_properties(&mut out, &r.properties, dialect, style);
        out.push('\n');
    }
    if !scene {
        out.push_str("[resource]\n");
        write_properties(&mut out, &file.main.properties, dialect, style);
    }
    for (i, section) in file.scene.iter().enumerate() {
        if i > 0 && section.blank_before {
            out.push('\n');
        }
        out.push('[');
        out.push_str(&section.tag);
        out.push_str("]\n");
        write_properties(&mut out, &section.properties, dialect, style);
    }
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
        .chain(
            file.scene
                .iter()
                .flat_map(|s| s.properties.iter().map(|(_, v)| v)),
        )
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
