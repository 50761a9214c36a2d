//! The library's layers stay a hierarchy: no cycle between its top-level modules over the `crate::` paths their files name, and the error types name nothing above them.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A layer: a top-level module of `src/` (`decode`, `text`), or one generated file, whose
/// tables belong to different layers (`generated::kinds` is the bottom, `generated::value`
/// the value model).
fn layer(module: &[String]) -> String {
    match module {
        [first, second, ..] if first == "generated" => format!("generated::{second}"),
        [first, ..] => first.clone(),
        [] => String::new(),
    }
}

/// Every `.rs` file under `dir`, with its module path (`src/decode/reader.rs` is `decode::reader`).
fn modules(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(src).unwrap().with_extension("");
            let mut parts: Vec<String> = rel
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            if parts == ["lib"] || parts == ["main"] {
                parts.clear();
            }
            out.insert(parts, path);
        }
    }
    out
}

/// The text of a file without comments (doc links name items for the reader, not the compiler).
fn code(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a file names after `crate::`, groups (`crate::{a::B, c}`) opened one level.
fn crate_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `mycrate::`, not ours
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                out.push(path_of(item.trim()));
            }
        } else {
            out.push(path_of(rest));
        }
    }
    out
}

/// `a::b::C…` up to the first character that is not part of a path.
fn path_of(text: &str) -> Vec<String> {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(text.len());
    text[..end]
        .split("::")
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

/// The layer graph: for each pair of layers, the files behind the edge.
fn graph(src: &Path) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let modules = modules(src);
    let mut edges: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (module, file) in &modules {
        let from = layer(module);
        if from.is_empty() {
            continue; // lib.rs and main.rs sit on top of everything
        }
        let text = code(&fs::read_to_string(file).unwrap());
        for path in crate_paths(&text) {
            // The longest prefix of the path that is a module of ours.
            let Some(target) = (1..=path.len())
                .rev()
                .map(|n| &path[..n])
                .find(|p| modules.contains_key(*p))
            else {
                continue; // an item of lib.rs (a re-export)
            };
            let to = layer(target);
            if to != from {
                let shown = file
                    .strip_prefix(src.parent().unwrap())
                    .unwrap()
                    .display()
                    .to_string();
                edges
                    .entry(from.clone())
                    .or_default()
                    .entry(to)
                    .or_default()
                    .insert(shown);
            }
        }
    }
    edges
}

/// A cycle through `start`, if there is one (depth-first, the path kept).
fn cycle_through(
    start: &str,
    edges: &BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
) -> Option<Vec<String>> {
    fn walk(
        at: &str,
        start: &str,
        edges: &BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        for next in edges.get(at).into_iter().flat_map(|e| e.keys()) {
            if next == start {
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(next, start, edges, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_string()];
    walk(start, start, edges, &mut path, &mut BTreeSet::new()).then_some(path)
}

#[test]
fn no_cycle_between_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = graph(&src);
    assert!(
        edges.len() > 10,
        "only {} layers name others: is the path reader broken?",
        edges.len()
    );
    for start in edges.keys() {
        if let Some(cycle) = cycle_through(start, &edges) {
            let steps: Vec<String> = cycle
                .iter()
                .zip(cycle.iter().cycle().skip(1))
                .map(|(a, b)| {
                    format!(
                        "{a} -> {b} ({})",
                        edges[a][b].iter().cloned().collect::<Vec<_>>().join(", ")
                    )
                })
                .collect();
            panic!("a module cycle:\n  {}", steps.join("\n  "));
        }
    }
}

#[test]
fn the_error_types_name_nothing_above_them() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let below: BTreeSet<&str> = ["dialect", "version", "generated::kinds"].into();
    let edges = graph(&src);
    let named: Vec<String> = edges
        .get("error")
        .into_iter()
        .flatten()
        .filter(|(to, _)| !below.contains(to.as_str()))
        .map(|(to, files)| {
            format!(
                "{to} (from {})",
                files.iter().cloned().collect::<Vec<_>>().join(", ")
            )
        })
        .collect();
    assert!(
        named.is_empty(),
        "the error module names layers above it: {named:?}"
    );
}

#[test]
fn the_path_reader_sees_groups_and_skips_comments() {
    let text = code("use crate::{decode::reader, text};\n// crate::json::x\nlet a = crate::variant::Variant::Nil; mycrate::z");
    assert_eq!(
        crate_paths(&text),
        vec![
            vec!["decode".to_string(), "reader".to_string()],
            vec!["text".to_string()],
            vec![
                "variant".to_string(),
                "Variant".to_string(),
                "Nil".to_string()
            ]
        ]
    );
}
