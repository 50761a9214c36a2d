//! The live Godot 4 engines of the environment (`GODOT4_3`, `GODOT4_4`): each one set, a
//! notice for each one missing, a panic for a missing one when `CI=true`.

use std::path::{Path, PathBuf};

/// `(variable, binary)` for each Godot 4 engine found.
pub fn godot4_engines() -> Vec<(String, PathBuf)> {
    let mut found = Vec::new();
    for var in ["GODOT4_3", "GODOT4_4"] {
        match std::env::var_os(var) {
            Some(p) if Path::new(&p).exists() => found.push((var.to_string(), PathBuf::from(p))),
            _ if std::env::var("CI").as_deref() == Ok("true") => {
                panic!("{var} is not set but CI=true: run /work/shared/engines/install.sh --env")
            }
            _ => println!("notice: {var} not set, skipping its live-engine test"),
        }
    }
    found
}
