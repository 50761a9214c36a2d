//! spec/resource_binary.yaml's checks: the real file loads, and a header or external-entry
//! field with an unknown storage type or a format that the file does not list is refused,
//! naming the field.

use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Loads the real spec with `from` replaced by `to`; the error text, if refused.
fn load_edited(from: &str, to: &str) -> Option<String> {
    let text =
        std::fs::read_to_string(workspace().join(gdvariant_codegen::resource_binary::SPEC_FILE))
            .unwrap();
    assert!(text.contains(from), "the spec no longer has {from:?}");
    let dir = std::env::temp_dir().join(format!(
        "gdv-codegen-resbin-{}-{}",
        std::process::id(),
        from.len()
    ));
    std::fs::create_dir_all(dir.join("spec")).unwrap();
    std::fs::write(
        dir.join("spec/resource_binary.yaml"),
        text.replacen(from, to, 1),
    )
    .unwrap();
    let r = gdvariant_codegen::resource_binary::load(&dir)
        .err()
        .map(|e| e.to_string());
    let _ = std::fs::remove_dir_all(&dir);
    r
}

#[test]
fn the_spec_loads_with_its_layout() {
    let spec = gdvariant_codegen::resource_binary::load(&workspace()).unwrap();
    assert!(spec
        .header
        .iter()
        .any(|f| f.name == "flags" && f.since == Some(4)));
    assert!(spec
        .external
        .iter()
        .any(|f| f.name == "uid" && f.flag == Some(2)));
    assert!(spec
        .rules
        .iter()
        .any(|r| r.name == "nodepath_property" && r.until == 2));
}

#[test]
fn an_unknown_type_or_format_is_refused_naming_the_field() {
    let err = load_edited("{name: flags, type: u32", "{name: flags, type: u16").expect("refused");
    assert!(
        err.contains("type `u16`") && err.contains("header.flags"),
        "{err}"
    );
    let err = load_edited(
        "{name: uid, type: u64, since: 4, flag: 2",
        "{name: uid, type: u64, since: 9, flag: 2",
    )
    .expect("refused");
    assert!(
        err.contains("format 9") && err.contains("external.uid"),
        "{err}"
    );
}
