//! The offsets that a generated `docs/format` page states for fixed-size types read the right
//! values out of real Godot 4.3 engine bytes (ids, sizes and every component).

use gdvariant_codegen::write::workspace_root;
use std::path::PathBuf;

/// Kind, fixture name.
const CASES: [(&str, &str); 16] = [
    ("Vector2", "vector2"),
    ("Vector2i", "vector2i"),
    ("Rect2", "rect2"),
    ("Rect2i", "rect2i_neg"),
    ("Vector3", "vector3"),
    ("Vector3i", "vector3i"),
    ("Transform2D", "transform2d_rot"),
    ("Vector4", "vector4"),
    ("Vector4i", "vector4i"),
    ("Plane", "plane"),
    ("Quaternion", "quat"),
    ("Aabb", "aabb"),
    ("Basis", "basis_rot"),
    ("Transform3D", "transform3d_rot"),
    ("Projection", "projection_columns"),
    ("Color", "color"),
];

fn fixture_dir() -> Option<PathBuf> {
    let root = workspace_root();
    [
        root.join("tests/fixtures/godot4"),
        root.join("../shared/fixtures/godot4"),
        PathBuf::from("/work/shared/fixtures/godot4"),
    ]
    .into_iter()
    .find(|p| p.join("manifest.jsonl").is_file())
}

/// A type's first table on the page: (id, rows of (offset, len, type cell)).
fn page_table(page: &str, kind: &str) -> (u32, Vec<(usize, usize, String)>) {
    let marker = format!("(`{kind}`)\n");
    let start = page
        .find(&marker)
        .unwrap_or_else(|| panic!("no section for {kind}"));
    let heading_start = page[..start].rfind("### ").expect("heading");
    let id: u32 = page[heading_start + 4..]
        .split(':')
        .next()
        .and_then(|s| s.parse().ok())
        .expect("id in heading");
    let rows = page[start..]
        .lines()
        .skip_while(|l| !l.starts_with("| Offset"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let n = |s: &str| {
                s.parse::<usize>()
                    .unwrap_or_else(|_| panic!("{kind}: `{s}` is not a constant"))
            };
            (n(cells[1]), n(cells[2]), cells[3].to_string())
        })
        .collect();
    (id, rows)
}

/// The numbers in the engine's `var_to_str` text of a fixture, from manifest.jsonl.
fn engine_numbers(manifest: &str, name: &str) -> Vec<f64> {
    let line = manifest
        .lines()
        .find(|l| l.contains(&format!("\"name\":\"{name}\"")))
        .expect("fixture in manifest");
    let text_start = line.find("\"text\":\"").expect("text field") + 8;
    let text = &line[text_start..text_start + line[text_start..].find('"').expect("end of text")];
    let inner = &text[text.find('(').expect("(") + 1..text.rfind(')').expect(")")];
    inner
        .split(',')
        .map(|s| {
            s.trim()
                .parse::<f64>()
                .unwrap_or_else(|_| panic!("{name}: `{s}`"))
        })
        .collect()
}

#[test]
fn godot4_page_offsets_match_engine_bytes() {
    let Some(dir) = fixture_dir() else {
        eprintln!("skipping: no fixtures/godot4 folder found");
        return;
    };
    let page = std::fs::read_to_string(workspace_root().join("docs/format/godot4-4.3.md"))
        .expect("page generated");
    let manifest = std::fs::read_to_string(dir.join("manifest.jsonl")).expect("manifest");
    for (kind, name) in CASES {
        let bytes = std::fs::read(dir.join(format!("{name}.bin"))).expect("fixture");
        let (id, rows) = page_table(&page, kind);
        assert_eq!(u32::from(bytes[0]), id, "{kind}: page id vs engine header");
        let end = rows.last().map_or(4, |(o, l, _)| o + l);
        assert_eq!(end, bytes.len(), "{kind}: page size vs engine bytes");
        let want = engine_numbers(&manifest, name);
        assert_eq!(want.len(), rows.len(), "{kind}: one row per component");
        for ((offset, len, ty), w) in rows.iter().zip(&want) {
            assert_eq!(*len, 4, "{kind}: narrow components are 4 bytes");
            let raw = [
                bytes[*offset],
                bytes[offset + 1],
                bytes[offset + 2],
                bytes[offset + 3],
            ];
            let got = if ty.starts_with("Integer") {
                f64::from(i32::from_le_bytes(raw))
            } else {
                f64::from(f32::from_le_bytes(raw))
            };
            // var_to_str prints 6 significant digits.
            assert!(
                (got - w).abs() <= 1e-5 * w.abs().max(1.0),
                "{kind} at offset {offset}: bytes say {got}, engine text says {w}"
            );
        }
    }
}
