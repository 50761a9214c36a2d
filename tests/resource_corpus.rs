//! Real projects' resource files, scenes and ConfigFiles (godotengine/godot-demo-projects,
//! saved by the Godot 4 editors of their authors) read and written back byte for byte.
//! The files are not part of the repository: the test reads them from
//! `$GDVARIANT_RESOURCE_CORPUS` or `../shared/fixtures/godot-demo-projects`, and skips with a
//! notice when neither is there.

use gdvariant::resource::ResourceFile;
use gdvariant::text::ConfigFile;
use gdvariant::Dialect;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// Files known to come back different, with why.
const KNOWN: [(&str, &str); 2] = [
    // A compressed scene whose Zstd blocks came from a newer zstd than the one we link.
    ("3d/platformer/stage/grid_map.scn", "Zstd release"),
    // format=3 with a byte array over 64 bytes, yet 4.5+ reals: taken as a 4.0-4.2 file.
    ("2d/particles/particles.tscn", "mixed writers"),
];

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("GDVARIANT_RESOURCE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/godot-demo-projects")
        });
    dir.is_dir().then_some(dir)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn demo_projects_round_trip() {
    let Some(root) = corpus() else {
        println!("notice: no resource corpus (GDVARIANT_RESOURCE_CORPUS); skipping");
        return;
    };
    // The files are the ones the manifest names, unchanged.
    let manifest = include_str!("fixtures/corpus/godot-demo-projects.sha256");
    for line in manifest.lines() {
        let (sum, rel) = line.split_once("  ").expect("`sha256  path`");
        let bytes = std::fs::read(root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let got: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(got, sum, "{rel}: not the manifest's file");
    }
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    let (mut same, mut failures) = (0, Vec::new());
    for path in &files {
        let rel = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let bytes = std::fs::read(path).unwrap();
        let out = match ext {
            "cfg" | "godot" => {
                let text = String::from_utf8(bytes.clone()).unwrap();
                ConfigFile::parse(&text, Dialect::Godot4)
                    .map(|c| c.to_text().into_bytes())
                    .map_err(|e| e.to_string())
            }
            "tres" | "tscn" | "res" | "scn" => ResourceFile::read(&bytes)
                .and_then(|f| f.write())
                .map_err(|e| e.to_string()),
            _ => continue,
        };
        match out {
            Ok(out) if out == bytes => same += 1,
            _ if KNOWN.iter().any(|(k, _)| *k == rel) => {}
            Ok(_) => failures.push(format!("{rel}: written back differently")),
            Err(e) => failures.push(format!("{rel}: {e}")),
        }
    }
    println!("RESULT {same} of {} files byte for byte", files.len());
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(same > 0, "no file read");
}
