//! `--engine-version` takes every patch release of a known minor version (3.6.1, 4.2.2, 4.6.2, 4.7.2) and refuses unknown minor versions.

mod cli_util;
use cli_util::{run, Run};

/// `gdvariant decode` of `input` as `dialect` at `version`, as JSON.
fn decode_as(dialect: &str, version: &str, input: &[u8]) -> Run {
    let args = [
        "decode",
        "--dialect",
        dialect,
        "--engine-version",
        version,
        "--format",
        "json",
        "-",
    ];
    run(&args, input)
}

#[test]
fn every_patch_release_of_a_known_minor_version_is_accepted() {
    // var2bytes(42): the same bytes in every version.
    let int42 = [2, 0, 0, 0, 42, 0, 0, 0];
    for (dialect, version) in [
        ("godot3", "3.6.1"),
        ("godot3", "3.2.3"),
        ("godot4", "4.2.2"),
        ("godot4", "4.6.2"),
        ("godot4", "4.6.4"),
        ("godot4", "4.7"),
        ("godot4", "4.7.0"),
        ("godot4", "4.7.2"),
    ] {
        let r = decode_as(dialect, version, &int42);
        assert_eq!(r.code, 0, "{dialect} {version}: {}", r.stderr);
        assert_eq!(
            r.text().trim(),
            r#"{"type":"Int","value":42}"#,
            "{dialect} {version}"
        );
    }
}

#[test]
fn an_unknown_minor_version_is_a_usage_error() {
    for (dialect, version) in [("godot3", "3.7.0"), ("godot4", "4.8"), ("godot3", "2.1.6")] {
        let r = decode_as(dialect, version, &[0, 0, 0, 0]);
        assert_eq!(r.code, 2, "{dialect} {version}: {}", r.stderr);
        assert!(r.stderr.contains("has no version"), "{}", r.stderr);
    }
}
