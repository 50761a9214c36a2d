//! Byte arrays in resource files: Godot 4.3 and 4.4.1 save a PackedByteArray of 3 bytes as
//! a list of numbers (`format=3`) and one of 100 bytes as base64 (`format=4`); we read both
//! encodings to the same values, write the files back byte for byte, and the engines load
//! what we write after an edit (the live half skips with a notice without the engines, and
//! fails when `CI=true`).

use gdvariant::resource::ResourceFile;
use gdvariant::Variant;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "common/engines.rs"]
mod engines;
use engines::godot4_engines;

/// The 100 bytes the harness stores (`(i * 37) % 256`, tests/fixtures/resource/bytes/make.gd).
fn pattern() -> Vec<u8> {
    (0..100u32).map(|i| ((i * 37) % 256) as u8).collect()
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/resource/bytes")
}

fn read(path: &Path) -> (Vec<u8>, ResourceFile) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = ResourceFile::read(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (bytes, file)
}

#[test]
fn base64_and_list_forms_read_to_the_engines_values_and_write_back() {
    for engine in ["godot4.3", "godot4.4"] {
        let dir = fixtures().join(engine);
        for name in ["small", "big"] {
            let (text_bytes, text) = read(&dir.join(format!("{name}.tres")));
            let (bin_bytes, bin) = read(&dir.join(format!("{name}.res")));
            let header = std::str::from_utf8(&text_bytes)
                .unwrap()
                .lines()
                .next()
                .unwrap();
            let want_format = if name == "big" {
                "format=4"
            } else {
                "format=3"
            };
            assert!(header.contains(want_format), "{engine} {name}: {header}");
            // The engine's two encodings of one resource agree, and hold what was stored.
            for (file, what) in [(&text, "tres"), (&bin, "res")] {
                assert_eq!(
                    file.main.get("small"),
                    Some(&Variant::PackedByteArray(vec![1, 2, 3])),
                    "{engine} {name}.{what}"
                );
                let want = if name == "big" { pattern() } else { Vec::new() };
                assert_eq!(
                    file.main.get("bytes"),
                    Some(&Variant::PackedByteArray(want)),
                    "{engine} {name}.{what}"
                );
            }
            assert_eq!(text.write().unwrap(), text_bytes, "{engine} {name}.tres");
            assert_eq!(bin.write().unwrap(), bin_bytes, "{engine} {name}.res");
        }
    }
}

#[test]
fn an_edit_across_the_64_byte_line_changes_the_format_as_the_engine_does() {
    let dir = fixtures().join("godot4.4");
    let (_, mut small) = read(&dir.join("small.tres"));
    small.main.set("bytes", Variant::PackedByteArray(pattern()));
    let (big_bytes, _) = read(&dir.join("big.tres"));
    // The engine's own file for the same values: format=4, every array in base64.
    assert_eq!(
        String::from_utf8(small.write().unwrap()).unwrap(),
        String::from_utf8(big_bytes).unwrap()
    );
}

#[test]
fn the_engines_load_our_edited_files() {
    for (name, bin) in godot4_engines() {
        let dir =
            std::env::temp_dir().join(format!("gdvariant-bytes-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("project.godot"), "config_version=5\n").unwrap();
        for f in ["holder.gd", "make.gd", "check.gd"] {
            std::fs::copy(fixtures().join(f), dir.join(f)).unwrap();
        }
        // ext.tres, which the fixtures refer to, is written by make.gd.
        let run = |script: &str, args: &[&str]| {
            let out = Command::new("timeout")
                .arg("120")
                .arg(&bin)
                .args(["--headless", "--path"])
                .arg(&dir)
                .args(["--script", script, "--"])
                .args(args)
                .output()
                .expect("run the engine");
            String::from_utf8_lossy(&out.stdout).into_owned()
        };
        run("res://make.gd", &[]);
        let mut paths = Vec::new();
        for file in ["small.tres", "big.tres", "big.res"] {
            let (_, mut res) = read(&dir.join(file));
            let mut edited = pattern();
            edited.reverse();
            edited.truncate(90);
            res.main.set("bytes", Variant::PackedByteArray(edited));
            res.main.set("hp", Variant::Int(8));
            let out = format!("ours_{file}");
            std::fs::write(dir.join(&out), res.write().unwrap()).unwrap();
            paths.push(format!("res://{out}"));
        }
        let args: Vec<&str> = paths.iter().map(String::as_str).collect();
        let out = run("res://check.gd", &args);
        let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("@@ ")).collect();
        let sum: u32 = pattern().iter().rev().take(90).map(|&b| u32::from(b)).sum();
        let want: Vec<String> = paths
            .iter()
            .map(|p| format!("@@ {p} 8 shared [1, 2, 3] 90 {sum}"))
            .collect();
        assert_eq!(lines, want, "{name}: {out}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
