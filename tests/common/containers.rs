//! What the container tests share: the harnesses' password, the compression modes with the
//! tags the engine-made files are named by, and those files (tests/fixtures/containers).
#![allow(dead_code)] // each test file takes what it needs

use gdvariant::container::Mode;
use std::path::PathBuf;

/// The password tests/containers/godot3.gd and godot4.gd encrypt with.
pub const PASSWORD: &str = "correct horse";

/// Each mode the engines write, with its file-name tag.
pub const MODES: [(Mode, &str); 4] = [
    (Mode::FastLz, "fastlz"),
    (Mode::Deflate, "deflate"),
    (Mode::Zstd, "zstd"),
    (Mode::Gzip, "gzip"),
];

/// The engine-made file `name` of `engine` (`godot3.2.3`, `godot4.3`, `godot4.4.1`).
pub fn fixture(engine: &str, name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/containers")
        .join(engine)
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
