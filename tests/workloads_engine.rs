//! The benchmark workloads W1–W4 are engine bytes: the real Godot 3.2.3 builds the same values
//! (`benches/compare/engine.gd`) and its `var2bytes` equals our encoding, which decodes back.

#[path = "../benches/common/workloads.rs"]
mod workloads;

use gdvariant::{decode, encode, DecodeOptions, Dialect, EncodeOptions};
use std::path::Path;
use std::process::Command;

fn engine() -> Option<&'static str> {
    let found = Command::new("sh")
        .args(["-c", "command -v godot3-server"])
        .output()
        .is_ok_and(|o| o.status.success());
    if found {
        return Some("godot3-server");
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("godot3-server is missing (CI=true): apt-get install godot3-server");
    }
    eprintln!("skipped: godot3-server is not installed (apt-get install godot3-server)");
    None
}

#[test]
fn workloads_equal_the_engines_var2bytes() {
    let Some(godot) = engine() else { return };
    let dir = std::env::temp_dir().join(format!("gdvariant-workloads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/compare/engine.gd");
    // The engine writes logs into its working directory, and reads its inputs from the
    // environment (Godot 3.2 keeps parsing options after `--`).
    let out = Command::new(godot)
        .arg("-s")
        .arg(&script)
        .current_dir(&dir)
        .env("LANG", "en")
        .env("GDV_MODE", "make")
        .env("GDV_DIR", &dir)
        .output()
        .expect("run godot3-server");
    let mut compared = 0;
    for w in workloads::all() {
        let path = dir.join(format!("{}.engine3.bin", w.name));
        // A GDScript error still exits 0, so a missing file is the failure signal.
        let engine = std::fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}\nengine stderr:\n{}",
                path.display(),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        let ours = encode(&w.value, Dialect::Godot3, &EncodeOptions::default()).unwrap();
        assert!(
            engine == ours,
            "{}: engine {} bytes, ours {} (first difference at {:?})",
            w.name,
            engine.len(),
            ours.len(),
            engine.iter().zip(&ours).position(|(a, b)| a != b)
        );
        let (v, used) = decode(&engine, Dialect::Godot3, &DecodeOptions::default()).unwrap();
        assert_eq!(used, engine.len());
        assert!(v.same(&w.value), "{}: decodes to another value", w.name);
        compared += 1;
    }
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(compared, 4);
}
