//! The generated fixed layouts decode (and re-encode byte for byte) real Godot 4.3 engine output.

use gdvariant::math::FixedLayout;
use gdvariant::math::{
    Basis, Color, Projection, Rect2i, Transform2D, Vector2, Vector2i, Vector3, Vector4, Vector4i,
};
use gdvariant::Dialect;
use gdvariant::Version;
use std::path::PathBuf;

/// The repository's copy of the Godot 4.3 fixtures (tests/fixtures/godot4), which every
/// checkout has: these tests read nothing outside the repository and never skip.
fn fixture_dir() -> PathBuf {
    gdvariant_codegen::write::workspace_root().join("tests/fixtures/godot4")
}

/// The payload of a fixture after checking its header names `kind` in Godot 4.3.
fn payload(name: &str, kind: gdvariant::Kind) -> Vec<u8> {
    let dir = fixture_dir();
    let bytes = std::fs::read(dir.join(format!("{name}.bin"))).expect("fixture readable");
    let header = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    assert_eq!(
        Dialect::Godot4.kind_of(Version::new(4, 3, 0), header & 0xFF),
        Some(kind),
        "{name}"
    );
    assert_eq!(
        header & 0x0001_0000, // FLAG_64
        0,
        "{name}: a single-precision engine made these"
    );
    bytes[4..].to_vec()
}

/// Encoding the decoded value gives the engine's bytes back.
fn roundtrip<T: FixedLayout>(p: &[u8], v: &T) {
    let mut out = Vec::new();
    v.write(false, &mut out);
    assert_eq!(out, p);
}

#[test]
fn vector2() {
    use gdvariant::Kind;
    let p = payload("vector2", Kind::Vector2);
    assert_eq!(p.len(), <Vector2 as FixedLayout>::size(false));
    let v = Vector2::read(&p, false);
    assert_eq!(v, Vector2 { x: 1.5, y: -2.25 });
    roundtrip(&p, &v);
}

#[test]
fn basis_rows_are_row_major() {
    use gdvariant::Kind;
    let p = payload("basis_rot", Kind::Basis);
    assert_eq!(p.len(), <Basis as FixedLayout>::size(false));
    let v: Basis = Basis::read(&p, false);
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
    roundtrip(&p, &v);
}

#[test]
fn transform2d_axes_then_origin() {
    use gdvariant::Kind;
    let p = payload("transform2d_rot", Kind::Transform2D);
    let v: Transform2D = Transform2D::read(&p, false);
    assert_eq!(v.origin, Vector2 { x: 3.0, y: 4.0 });
    assert!((v.x.y - f64::from(0.5f32.sin())).abs() < 1e-6);
    roundtrip(&p, &v);
}

#[test]
fn integer_and_color_layouts() {
    use gdvariant::Kind;
    {
        let p = payload("rect2i_neg", Kind::Rect2i);
        let v = Rect2i::read(&p, false);
        assert_eq!(
            v,
            Rect2i {
                position: Vector2i { x: -5, y: -6 },
                size: Vector2i { x: 10, y: 20 }
            }
        );
        roundtrip(&p, &v);
    }
    {
        let p = payload("vector4i", Kind::Vector4i);
        let v = Vector4i::read(&p, true); // `wide` is ignored by integer layouts
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
    {
        let p = payload("color", Kind::Color);
        let v = Color::read(&p, false);
        assert_eq!(
            v,
            Color {
                r: 0.1,
                g: 0.2,
                b: 0.3,
                a: 0.4
            }
        );
        roundtrip(&p, &v);
    }
}

#[test]
fn projection_columns() {
    use gdvariant::Kind;
    let p = payload("projection_columns", Kind::Projection);
    let v: Projection = Projection::read(&p, false);
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
    roundtrip(&p, &v);
}

#[test]
fn wide_form_doubles_every_real() {
    let v = Vector2 { x: 0.1, y: -3.0 };
    let mut out = Vec::new();
    v.write(true, &mut out);
    assert_eq!(out.len(), <Vector2 as FixedLayout>::size(true));
    assert_eq!(Vector2::read(&out, true), v);
}
