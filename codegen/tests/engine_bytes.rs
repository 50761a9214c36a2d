//! The generated fixed layouts decode (and re-encode byte for byte) real Godot 4.3 engine output.

use gdvariant::generated::{godot4, layouts};
use gdvariant::math::{
    Basis, Color, Projection, Rect2i, Transform2D, Vector2, Vector2i, Vector3, Vector4, Vector4i,
};
use gdvariant::Version;
use std::path::PathBuf;

/// The fixture folder: the repository's copy if the lead has made it, else the shared one.
fn fixture_dir() -> Option<PathBuf> {
    let root = gdvariant_codegen::write::workspace_root();
    [
        root.join("tests/fixtures/godot4"),
        root.join("../shared/fixtures/godot4"),
        PathBuf::from("/work/shared/fixtures/godot4"),
    ]
    .into_iter()
    .find(|p| p.join("vector2.bin").is_file())
}

/// The payload of a fixture after checking its header names `kind` in Godot 4.3.
fn payload(name: &str, kind: gdvariant::generated::kinds::Kind) -> Option<Vec<u8>> {
    let Some(dir) = fixture_dir() else {
        eprintln!("skipping {name}: no fixtures/godot4 folder found");
        return None;
    };
    let bytes = std::fs::read(dir.join(format!("{name}.bin"))).expect("fixture readable");
    let header = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    assert_eq!(
        godot4::kind_of(Version::new(4, 3, 0), header & godot4::TYPE_MASK),
        Some(kind),
        "{name}"
    );
    assert_eq!(
        header & godot4::FLAG_64,
        0,
        "{name}: a single-precision engine made these"
    );
    Some(bytes[4..].to_vec())
}

/// Encoding the decoded value gives the engine's bytes back.
fn roundtrip<T>(p: &[u8], v: &T, encode: fn(&T, bool, &mut Vec<u8>)) {
    let mut out = Vec::new();
    encode(v, false, &mut out);
    assert_eq!(out, p);
}

#[test]
fn vector2() {
    use gdvariant::generated::kinds::Kind;
    let Some(p) = payload("vector2", Kind::Vector2) else {
        return;
    };
    assert_eq!(p.len(), layouts::vector2_size(false));
    let v = layouts::decode_vector2(&p, false);
    assert_eq!(v, Vector2 { x: 1.5, y: -2.25 });
    roundtrip(&p, &v, layouts::encode_vector2);
}

#[test]
fn basis_rows_are_row_major() {
    use gdvariant::generated::kinds::Kind;
    let Some(p) = payload("basis_rot", Kind::Basis) else {
        return;
    };
    assert_eq!(p.len(), layouts::basis_size(false));
    let v: Basis = layouts::decode_basis(&p, false);
    let (c, s) = (f64::from(0.5f32.cos()), f64::from(0.5f32.sin()));
    // Basis(Vector3(0, 1, 0), 0.5): a rotation about Y; the bytes hold rows, not columns.
    assert!((v.rows[0].x - c).abs() < 1e-6 && (v.rows[0].z - s).abs() < 1e-6);
    assert_eq!(
        v.rows[1],
        Vector3 {
            x: 0.0,
            y: 1.0,
            z: 0.0
        }
    );
    assert!((v.rows[2].x + s).abs() < 1e-6 && (v.rows[2].z - c).abs() < 1e-6);
    roundtrip(&p, &v, layouts::encode_basis);
}

#[test]
fn transform2d_axes_then_origin() {
    use gdvariant::generated::kinds::Kind;
    let Some(p) = payload("transform2d_rot", Kind::Transform2D) else {
        return;
    };
    let v: Transform2D = layouts::decode_transform2d(&p, false);
    assert_eq!(v.origin, Vector2 { x: 3.0, y: 4.0 });
    assert!((v.x.y - f64::from(0.5f32.sin())).abs() < 1e-6);
    roundtrip(&p, &v, layouts::encode_transform2d);
}

#[test]
fn integer_and_color_layouts() {
    use gdvariant::generated::kinds::Kind;
    if let Some(p) = payload("rect2i_neg", Kind::Rect2i) {
        let v = layouts::decode_rect2i(&p, false);
        assert_eq!(
            v,
            Rect2i {
                position: Vector2i { x: -5, y: -6 },
                size: Vector2i { x: 10, y: 20 }
            }
        );
        roundtrip(&p, &v, layouts::encode_rect2i);
    }
    if let Some(p) = payload("vector4i", Kind::Vector4i) {
        let v = layouts::decode_vector4i(&p, true); // `wide` is ignored by integer layouts
        assert_eq!(
            v,
            Vector4i {
                x: 1,
                y: -2,
                z: 3,
                w: -4
            }
        );
    }
    if let Some(p) = payload("color", Kind::Color) {
        let v = layouts::decode_color(&p, false);
        assert_eq!(
            v,
            Color {
                r: 0.1,
                g: 0.2,
                b: 0.3,
                a: 0.4
            }
        );
        roundtrip(&p, &v, layouts::encode_color);
    }
}

#[test]
fn projection_columns() {
    use gdvariant::generated::kinds::Kind;
    let Some(p) = payload("projection_columns", Kind::Projection) else {
        return;
    };
    let v: Projection = layouts::decode_projection(&p, false);
    assert_eq!(
        v.columns[1],
        Vector4 {
            x: 5.0,
            y: 6.0,
            z: 7.0,
            w: 8.0
        }
    );
    assert_eq!(v.columns[3].w, 16.0);
    roundtrip(&p, &v, layouts::encode_projection);
}

#[test]
fn wide_form_doubles_every_real() {
    let v = Vector2 { x: 0.1, y: -3.0 };
    let mut out = Vec::new();
    layouts::encode_vector2(&v, true, &mut out);
    assert_eq!(out.len(), layouts::vector2_size(true));
    assert_eq!(layouts::decode_vector2(&out, true), v);
}
