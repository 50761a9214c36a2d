//! `cargo codegen diff OLD NEW`: compares two checked spec snapshots and lists every change,
//! one per line, sorted and stable; also resolves the command line's names for a side.

use crate::lower::{lower_common_text, lower_one, SpecErrors, COMMON_FILE};
use crate::model::{Expr, FeatureDecl, Field, KindDef, Ver};
use crate::snapshot::{kind_index, SnapType, Snapshot};
use anyhow::{anyhow, bail, Context};
use std::path::Path;

/// One difference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// Sort key: section (0 header, 1 flags, 2 features, 3 types), then kind order, then field order.
    pub order: (u8, usize, usize),
    /// What changed (`Dictionary`, `NodePath.flags`, `flag TYPED_ARRAY`, `header`).
    pub subject: String,
    /// The kind of change (`renumbered`, `field moved`, ...).
    pub what: &'static str,
    /// Old value, if any.
    pub old: Option<String>,
    /// New value, if any.
    pub new: Option<String>,
    /// The line as printed.
    pub text: String,
}

fn change(
    order: (u8, usize, usize),
    subject: &str,
    what: &'static str,
    old: Option<String>,
    new: Option<String>,
    text: String,
) -> Change {
    Change {
        order,
        subject: subject.to_string(),
        what,
        old,
        new,
        text: format!("{subject}: {text}"),
    }
}

/// Every difference from `a` to `b`, sorted.
pub fn diff(a: &Snapshot, b: &Snapshot, kinds: &[KindDef]) -> Vec<Change> {
    let mut out = Vec::new();
    if a.type_mask != b.type_mask {
        let (o, n) = (format!("{:#x}", a.type_mask), format!("{:#x}", b.type_mask));
        out.push(change(
            (0, 0, 0),
            "header",
            "type mask changed",
            Some(o.clone()),
            Some(n.clone()),
            format!("type mask {o} -> {n}"),
        ));
    }
    if a.count != b.count {
        let (o, n) = (a.count.to_string(), b.count.to_string());
        out.push(change(
            (0, 1, 0),
            "types",
            "type count changed",
            Some(o.clone()),
            Some(n.clone()),
            format!("count {o} -> {n}"),
        ));
    }
    // Header flags.
    for (i, f) in b.flags.iter().enumerate() {
        let subject = format!("flag {}", f.name);
        match a.flags.iter().find(|g| g.name == f.name) {
            None => {
                let bits = format!("{}..{}", f.bits.0, f.bits.1);
                out.push(change(
                    (1, i, 0),
                    &subject,
                    "flag added",
                    None,
                    Some(bits.clone()),
                    format!("added (bits {bits})"),
                ));
            }
            Some(g) if g.bits != f.bits => {
                let (o, n) = (
                    format!("{}..{}", g.bits.0, g.bits.1),
                    format!("{}..{}", f.bits.0, f.bits.1),
                );
                out.push(change(
                    (1, i, 0),
                    &subject,
                    "flag bits changed",
                    Some(o.clone()),
                    Some(n.clone()),
                    format!("bits {o} -> {n}"),
                ));
            }
            Some(_) => {}
        }
    }
    for (i, g) in a.flags.iter().enumerate() {
        if !b.flags.iter().any(|f| f.name == g.name) {
            let bits = format!("{}..{}", g.bits.0, g.bits.1);
            out.push(change(
                (1, i, 0),
                &format!("flag {}", g.name),
                "flag removed",
                Some(bits.clone()),
                None,
                format!("removed (bits {bits})"),
            ));
        }
    }
    // Features; padding rules are features about padding bytes.
    for name in b.features.symmetric_difference(&a.features) {
        let added = b.features.contains(name);
        let padding = name.contains("Padding");
        let subject = if padding {
            format!("padding rule {name}")
        } else {
            format!("feature {name}")
        };
        let what = match (padding, added) {
            (true, true) => "padding rule added",
            (true, false) => "padding rule removed",
            (false, true) => "feature added",
            (false, false) => "feature removed",
        };
        out.push(change(
            (2, 0, 0),
            &subject,
            what,
            None,
            None,
            (if added { "added" } else { "removed" }).to_string(),
        ));
    }
    // Types.
    for t in &b.types {
        let k = kind_index(kinds, &t.kind);
        match a.ty(&t.kind) {
            None => out.push(change(
                (3, k, 0),
                &t.kind,
                "type added",
                None,
                Some(t.id.to_string()),
                format!("type added ({} = {})", t.name, t.id),
            )),
            Some(s) => diff_type(s, t, k, &mut out),
        }
    }
    for s in &a.types {
        if b.ty(&s.kind).is_none() {
            let k = kind_index(kinds, &s.kind);
            out.push(change(
                (3, k, 0),
                &s.kind,
                "type removed",
                Some(s.id.to_string()),
                None,
                format!("type removed ({} = {})", s.name, s.id),
            ));
        }
    }
    out.sort_by(|x, y| (x.order, &x.text).cmp(&(y.order, &y.text)));
    out
}

fn diff_type(a: &SnapType, b: &SnapType, k: usize, out: &mut Vec<Change>) {
    let kind = &b.kind;
    if a.name != b.name {
        out.push(change(
            (3, k, 0),
            kind,
            "renamed",
            Some(a.name.clone()),
            Some(b.name.clone()),
            format!("renamed {} -> {}", a.name, b.name),
        ));
    }
    if a.id != b.id {
        out.push(change(
            (3, k, 0),
            kind,
            "renumbered",
            Some(a.id.to_string()),
            Some(b.id.to_string()),
            format!("id {} -> {}", a.id, b.id),
        ));
    }
    for f in b.flags.difference(&a.flags) {
        out.push(change(
            (3, k, 0),
            kind,
            "type flag added",
            None,
            Some(f.clone()),
            format!("flag {f} added"),
        ));
    }
    for f in a.flags.difference(&b.flags) {
        out.push(change(
            (3, k, 0),
            kind,
            "type flag removed",
            Some(f.clone()),
            None,
            format!("flag {f} removed"),
        ));
    }
    if a.wide != b.wide {
        let (what, text) = if b.wide {
            ("wide form added", "FLAG_64 form added")
        } else {
            ("wide form removed", "FLAG_64 form removed")
        };
        out.push(change((3, k, 0), kind, what, None, None, text.to_string()));
    }
    let (fa, fb) = (flatten(&a.fields, ""), flatten(&b.fields, ""));
    for (i, (name, f)) in fb.iter().enumerate() {
        let subject = format!("{kind}.{name}");
        let pos = (3, k, i + 1);
        match fa.iter().find(|(n, _)| n == name) {
            None => out.push(change(
                pos,
                &subject,
                "field added",
                None,
                Some(f.offset.to_string()),
                format!(
                    "field added (offset {}, len {}, {})",
                    f.offset,
                    f.len,
                    f.ty.as_str()
                ),
            )),
            Some((_, g)) => {
                if g.offset != f.offset {
                    out.push(change(
                        pos,
                        &subject,
                        "field moved",
                        Some(g.offset.to_string()),
                        Some(f.offset.to_string()),
                        format!("moved {} -> {}", g.offset, f.offset),
                    ));
                }
                if g.len != f.len {
                    out.push(change(
                        pos,
                        &subject,
                        "field resized",
                        Some(g.len.to_string()),
                        Some(f.len.to_string()),
                        format!("resized {} -> {}", g.len, f.len),
                    ));
                }
                if g.ty != f.ty {
                    let (o, n) = (g.ty.as_str().to_string(), f.ty.as_str().to_string());
                    out.push(change(
                        pos,
                        &subject,
                        "field retyped",
                        Some(o.clone()),
                        Some(n.clone()),
                        format!("type {o} -> {n}"),
                    ));
                }
                if let (Some(gw), Some(fw)) = (&g.wide, &f.wide) {
                    if gw.offset != fw.offset || gw.len != fw.len {
                        let (o, n) = (
                            format!("{}+{}", gw.offset, gw.len),
                            format!("{}+{}", fw.offset, fw.len),
                        );
                        out.push(change(
                            pos,
                            &subject,
                            "wide field changed",
                            Some(o.clone()),
                            Some(n.clone()),
                            format!("FLAG_64 form {o} -> {n}"),
                        ));
                    }
                }
            }
        }
    }
    for (i, (name, g)) in fa.iter().enumerate() {
        if !fb.iter().any(|(n, _)| n == name) {
            out.push(change(
                (3, k, 1000 + i),
                &format!("{kind}.{name}"),
                "field removed",
                Some(g.offset.to_string()),
                None,
                format!(
                    "field removed (offset {}, len {}, {})",
                    g.offset,
                    g.len,
                    g.ty.as_str()
                ),
            ));
        }
    }
}

/// Fields with repetition elements flattened as `elements.x`.
fn flatten<'a>(fields: &'a [Field], prefix: &str) -> Vec<(String, &'a Field)> {
    let mut out = Vec::new();
    for f in fields {
        let name = format!("{prefix}{}", f.name);
        out.push((name.clone(), f));
        out.extend(flatten(&f.element, &format!("{name}.")));
    }
    out
}

/// Output formats of `diff`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One change per line.
    Text,
    /// A Markdown list under a heading.
    Markdown,
    /// A JSON array of objects.
    Json,
}

impl Format {
    /// Parses `text`, `markdown`, `json`.
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "text" => Some(Format::Text),
            "markdown" | "md" => Some(Format::Markdown),
            "json" => Some(Format::Json),
            _ => None,
        }
    }
}

/// Renders changes.
pub fn render(changes: &[Change], a: &str, b: &str, format: Format) -> String {
    match format {
        Format::Text => changes.iter().map(|c| format!("{}\n", c.text)).collect(),
        Format::Markdown => {
            let mut s = format!("## `{a}` → `{b}`\n\n");
            if changes.is_empty() {
                s.push_str("No differences.\n");
            }
            for c in changes {
                let rest = c
                    .text
                    .strip_prefix(&format!("{}: ", c.subject))
                    .unwrap_or(&c.text);
                s.push_str(&format!("- `{}`: {}\n", c.subject, rest));
            }
            s
        }
        Format::Json => {
            let items: Vec<String> = changes
                .iter()
                .map(|c| {
                    let opt = |v: &Option<String>| v.as_ref().map_or("null".to_string(), |s| json_str(s));
                    format!(
                        "  {{\"subject\": {}, \"change\": {}, \"old\": {}, \"new\": {}, \"text\": {}}}",
                        json_str(&c.subject),
                        json_str(c.what),
                        opt(&c.old),
                        opt(&c.new),
                        json_str(&c.text)
                    )
                })
                .collect();
            if items.is_empty() {
                "[]\n".to_string()
            } else {
                format!("[\n{}\n]\n", items.join(",\n"))
            }
        }
    }
}

fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The documentation revisions, by the name `diff` accepts.
pub const DOC_REVISIONS: [&str; 3] = ["docs-godot3", "docs-transitional", "docs-godot4"];

/// Kinds and features of the spec under `root`.
pub fn load_common(root: &Path) -> anyhow::Result<(Vec<KindDef>, Vec<FeatureDecl>)> {
    let text = std::fs::read_to_string(root.join(COMMON_FILE))
        .with_context(|| format!("reading {COMMON_FILE}"))?;
    lower_common_text(COMMON_FILE, &text).map_err(spec_err)
}

fn spec_err(e: SpecErrors) -> anyhow::Error {
    anyhow!("{e}")
}

/// Resolves one side of `diff`:
/// - `godot4`, `docs-godot4`, `spec/godot4.yaml`: the file, at its newest version;
/// - `godot4@4.2`, `docs-godot3@3.2`: at that version;
/// - `spec/godot4.yaml@HEAD~3`: the file at a git revision (`git show`), at its newest version.
pub fn resolve(
    root: &Path,
    arg: &str,
    kinds: &[KindDef],
    features: &[FeatureDecl],
) -> anyhow::Result<Snapshot> {
    let (name, at) = match arg.rsplit_once('@') {
        Some((n, a)) => (n, Some(a)),
        None => (arg, None),
    };
    let file = if name.ends_with(".yaml") || name.contains('/') {
        name.to_string()
    } else if DOC_REVISIONS.contains(&name) {
        format!("spec/docs/{name}.yaml")
    } else {
        format!("spec/{name}.yaml")
    };
    let version = at.and_then(Ver::parse);
    let text = match (at, version) {
        (Some(rev), None) => git_show(root, rev, &file)?,
        _ => std::fs::read_to_string(root.join(&file))
            .with_context(|| format!("`{arg}`: cannot read {file}"))?,
    };
    let label_file = match (at, version) {
        (Some(rev), None) => format!("{file}@{rev}"),
        _ => file.clone(),
    };
    let d = lower_one(&label_file, &text, kinds, features).map_err(spec_err)?;
    let v = version.unwrap_or(d.newest);
    if v < d.oldest || v > d.newest {
        bail!(
            "`{arg}`: version {v} is outside {}..={} covered by {file}",
            d.oldest,
            d.newest
        );
    }
    Ok(Snapshot::of(&d, v, arg))
}

fn git_show(root: &Path, rev: &str, file: &str) -> anyhow::Result<String> {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(root)
        .arg("show")
        .arg(format!("{rev}:{file}"))
        .output()
        .context("running git")?;
    if !out.status.success() {
        bail!(
            "git show {rev}:{file}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    String::from_utf8(out.stdout).context("spec file is not UTF-8")
}

/// `Expr` as a table cell.
pub fn cell(e: &Expr) -> String {
    e.to_string()
}
