//! Snapshot tests of `cargo codegen diff`: engine versions, dialects, documentation revisions
//! against their engine, and a hand-made pair with every kind of change. Bless with
//! `UPDATE_SNAPSHOTS=1 cargo test -p gdvariant-codegen --test diff_snapshots`.

use gdvariant_codegen::diff::{diff, load_common, render, resolve, Format};
use gdvariant_codegen::write::workspace_root;
use std::path::Path;

/// Renders `diff OLD NEW` as the binary would print it.
fn run(old: &str, new: &str, format: Format) -> String {
    let root = workspace_root();
    let (kinds, features) = load_common(&root).expect("common spec loads");
    let a = resolve(&root, old, &kinds, &features).unwrap_or_else(|e| panic!("{old}: {e:#}"));
    let b = resolve(&root, new, &kinds, &features).unwrap_or_else(|e| panic!("{new}: {e:#}"));
    render(&diff(&a, &b, &kinds), old, new, format)
}

/// Compares with (or, under UPDATE_SNAPSHOTS=1, writes) `tests/snapshots/<name>`.
fn snapshot(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, actual).expect("snapshot written");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{} missing: run with UPDATE_SNAPSHOTS=1", path.display()));
    assert_eq!(
        actual, expected,
        "{name} changed; if intended, bless with UPDATE_SNAPSHOTS=1"
    );
}

fn case(old: &str, new: &str) {
    let name = format!(
        "{}__{}.txt",
        old.replace(['/', '@'], "_"),
        new.replace(['/', '@'], "_")
    );
    snapshot(&name, &run(old, new, Format::Text));
}

#[test]
fn godot3_to_godot4() {
    case("godot3", "godot4");
}

#[test]
fn godot4_versions() {
    case("godot4@4.1", "godot4@4.2");
    case("godot4@4.2", "godot4@4.3");
    case("godot4@4.3", "godot4@4.4");
    case("godot4@4.6.2", "godot4@4.6.3");
}

#[test]
fn pandemonium_versions() {
    case("pandemonium@3.7", "pandemonium@3.8");
    case("pandemonium@3.8", "pandemonium@5.0");
}

#[test]
fn documentation_against_the_engine() {
    case("docs-godot3", "godot3");
    case("docs-transitional", "godot4@4.0");
    case("docs-godot4", "godot4@4.3");
}

#[test]
fn every_kind_of_change() {
    let (old, new) = ("codegen/tests/diff/old.yaml", "codegen/tests/diff/new.yaml");
    snapshot("handmade.txt", &run(old, new, Format::Text));
    snapshot("handmade.md", &run(old, new, Format::Markdown));
    snapshot("handmade.json", &run(old, new, Format::Json));
}

#[test]
fn a_spec_against_itself_is_empty() {
    for side in [
        "godot3",
        "godot4",
        "pandemonium",
        "godot4@4.2",
        "docs-godot3",
        "docs-transitional",
        "docs-godot4",
    ] {
        assert_eq!(run(side, side, Format::Text), "", "{side}");
    }
    assert_eq!(run("godot4", "godot4", Format::Json), "[]\n");
}

#[test]
fn unknown_versions_and_files_are_errors() {
    let root = workspace_root();
    let (kinds, features) = load_common(&root).expect("common spec loads");
    assert!(resolve(&root, "godot4@3.0", &kinds, &features).is_err());
    assert!(resolve(&root, "godot5", &kinds, &features).is_err());
}
