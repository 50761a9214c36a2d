//! `gdvariant resource` and `gdvariant guess` on the engines' resource files: edit a
//! property, convert between `.tres` and `.res`, and name each file's engine.
#![cfg(feature = "cli")]

mod cli_util;
use cli_util::*;
use gdvariant::resource::ResourceFile;
use gdvariant::Variant;
use std::path::Path;

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/resource")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn guess_names_resource_files() {
    let r = run(&["guess", &fixture("godot4.3/save.res")], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.text().contains(".res (RSRC) of Godot 4.3, format 6"),
        "{}",
        r.text()
    );
    let r = run(&["guess", &fixture("godot3.2/save.tres")], b"");
    assert!(
        r.text().contains(".tres text, format 2 (Godot 3)"),
        "{}",
        r.text()
    );
}

#[test]
fn set_and_convert_write_what_the_library_reads() {
    let dir = scratch("cli_resource");
    let out = dir.join("edited.res").display().to_string();
    let r = run(
        &[
            "resource",
            "set",
            &fixture("godot4.3/save.res"),
            "hp",
            "77",
            "-o",
            &out,
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let edited = ResourceFile::read(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(edited.main.get("hp"), Some(&Variant::Int(77)));
    let tres = dir.join("conv.tres").display().to_string();
    let r = run(&["resource", "convert", &out, "-o", &tres], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(&tres).unwrap();
    assert!(text.contains("\nhp = 77\n"), "{text}");
    let r = run(
        &[
            "resource",
            "set",
            &fixture("godot4.3/save.res"),
            "hp",
            "Vector2(1,",
        ],
        b"",
    );
    assert_eq!(r.code, 2, "a value that does not parse is a usage error");
}
