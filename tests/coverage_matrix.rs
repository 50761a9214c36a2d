//! Every type × dialect × version × precision is exercised, and every type id of the engines
//! we can run is covered by engine-made bytes.

mod common;
use gdvariant::math::*;
use gdvariant::*;

/// A sample value of `kind` whose reals fit single precision.
fn sample(kind: Kind) -> Option<Variant> {
    let v2 = Vector2::new(1.5, -2.0);
    let v3 = Vector3::new(1.0, 2.0, 3.5);
    let v4 = Vector4::new(1.0, 2.0, 3.0, 4.0);
    Some(match kind {
        Kind::Nil => Variant::Nil,
        Kind::Bool => Variant::Bool(true),
        Kind::Int => Variant::Int(-5_000_000_000),
        Kind::Float => Variant::Float(0.1),
        Kind::String => Variant::from("héllo"),
        Kind::Vector2 => Variant::Vector2(v2),
        Kind::Vector2i => Variant::Vector2i(Vector2i::new(-1, 2)),
        Kind::Rect2 => Variant::Rect2(Rect2::new(v2, v2)),
        Kind::Rect2i => Variant::Rect2i(Rect2i::new(Vector2i::new(1, 2), Vector2i::new(3, 4))),
        Kind::Vector3 => Variant::Vector3(v3),
        Kind::Vector3i => Variant::Vector3i(Vector3i::new(1, -2, 3)),
        Kind::Transform2D => Variant::Transform2D(Box::new(Transform2D::new(v2, v2, v2))),
        Kind::Vector4 => Variant::Vector4(v4),
        Kind::Vector4i => Variant::Vector4i(Vector4i::new(1, 2, 3, 4)),
        Kind::Plane => Variant::Plane(Plane::new(v3, 0.5)),
        Kind::Quaternion => Variant::Quaternion(Quaternion::new(0.0, 0.0, 0.0, 1.0)),
        Kind::Aabb => Variant::Aabb(Box::new(Aabb::new(v3, v3))),
        Kind::Basis => Variant::Basis(Box::new(Basis { rows: [v3, v3, v3] })),
        Kind::Transform3D => Variant::Transform3D(Box::new(Transform3D {
            basis: Basis::IDENTITY,
            origin: v3,
        })),
        Kind::Projection => Variant::Projection(Box::new(Projection::IDENTITY)),
        Kind::Color => Variant::Color(Color::new(1.0, 0.5, 0.0, 1.0)),
        Kind::StringName => Variant::StringName(StringName::from("name")),
        Kind::NodePath => Variant::NodePath(Box::new(NodePath::parse("/root/a:b"))),
        Kind::Rid => Variant::Rid(0),
        Kind::Object => Variant::Object(Object::Id(7)),
        Kind::Callable => Variant::Callable,
        Kind::Signal => Variant::Signal(Signal {
            name: "hit".into(),
            object: 3,
        }),
        Kind::Dictionary => Variant::Dictionary(
            [(Variant::from("k"), Variant::Int(1))]
                .into_iter()
                .collect(),
        ),
        Kind::Array => Variant::Array(Array::new(vec![Variant::Int(1), Variant::from("x")])),
        Kind::PackedByteArray => Variant::PackedByteArray(vec![1, 2, 3]),
        Kind::PackedInt32Array => Variant::PackedInt32Array(vec![1, -2]),
        Kind::PackedInt64Array => Variant::PackedInt64Array(vec![1 << 40]),
        Kind::PackedFloat32Array => Variant::PackedFloat32Array(vec![0.5, f32::NAN]),
        Kind::PackedFloat64Array => Variant::PackedFloat64Array(vec![0.1]),
        Kind::PackedStringArray => Variant::PackedStringArray(vec!["a".into(), "".into()]),
        Kind::PackedVector2Array => Variant::PackedVector2Array(vec![v2]),
        Kind::PackedVector2iArray => Variant::PackedVector2iArray(vec![Vector2i::new(1, 2)]),
        Kind::PackedVector3Array => Variant::PackedVector3Array(vec![v3]),
        Kind::PackedVector3iArray => Variant::PackedVector3iArray(vec![Vector3i::new(1, 2, 3)]),
        Kind::PackedColorArray => Variant::PackedColorArray(vec![Color::new(0.0, 0.0, 1.0, 1.0)]),
        Kind::PackedVector4Array => Variant::PackedVector4Array(vec![v4]),
        Kind::PackedVector4iArray => Variant::PackedVector4iArray(vec![Vector4i::new(1, 2, 3, 4)]),
        Kind::TypedArray => Variant::Array(Array::typed(
            ElementType::Builtin(Kind::Int),
            vec![Variant::Int(2)],
        )),
        Kind::PackedTypedArray => {
            let mut a = Array::typed(ElementType::Builtin(Kind::Float), vec![Variant::Float(0.5)]);
            a.typed.as_mut()?.pandemonium_packed = true;
            Variant::Array(a)
        }
        _ => return None,
    })
}

fn versions(d: Dialect) -> Vec<Version> {
    match d {
        Dialect::Godot3 => vec![
            Version::new(3, 0, 0),
            Version::new(3, 2, 3),
            Version::new(3, 6, 0),
        ],
        Dialect::Godot4 => ["4.0", "4.1", "4.2", "4.3", "4.4", "4.5", "4.6.3", "4.7.2"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect(),
        Dialect::Pandemonium => ["3.5", "3.7", "3.8", "4.9", "5.0", "5.2"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect(),
    }
}

#[test]
fn every_type_of_every_dialect_version_and_precision_round_trips() {
    let mut exercised = 0;
    for dialect in Dialect::ALL {
        for version in versions(dialect) {
            for &kind in Kind::ALL {
                let Some(id) = dialect.id_of(version, kind) else {
                    continue;
                };
                assert_eq!(
                    dialect.kind_of(version, id),
                    Some(kind),
                    "{dialect} {version} id {id}"
                );
                let value = sample(kind).unwrap_or_else(|| panic!("no sample for {kind:?}"));
                let precisions: &[bool] = if dialect == Dialect::Godot4 {
                    &[false, true]
                } else {
                    &[false]
                };
                for &double in precisions {
                    let e = EncodeOptions {
                        version: Some(version),
                        double_precision: double,
                        ..Default::default()
                    };
                    let bytes = match encode(&value, dialect, &e) {
                        Ok(b) => b,
                        // Typed arrays exist only from 4.3 / Pandemonium 5.
                        Err(EncodeError::Unsupported { .. }) if matches!(kind, Kind::Array) => {
                            continue
                        }
                        Err(err) => panic!("{dialect} {version} {kind:?}: {err}"),
                    };
                    assert_eq!(bytes.len() % 4, 0);
                    assert_eq!(
                        bytes[0] as u32, id,
                        "{dialect} {version} {kind:?}: header id"
                    );
                    let d = DecodeOptions {
                        version: Some(version),
                        ..Default::default()
                    };
                    let (back, used) = decode(&bytes, dialect, &d).unwrap();
                    assert!(
                        back.same(&value),
                        "{dialect} {version} {kind:?} double={double}: {back:?}"
                    );
                    assert_eq!(used, bytes.len());
                    exercised += 1;
                }
            }
        }
    }
    assert!(exercised > 400, "{exercised}");
}

/// Every Godot 4.3 type id is the top-level type of some engine-made fixture.
#[test]
fn every_godot4_type_id_has_engine_bytes() {
    let seen: std::collections::BTreeSet<u64> = common::load("godot4")
        .iter()
        .map(|f| f.json["type"].as_u64().unwrap())
        .collect();
    let v = Version::new(4, 3, 0);
    for &kind in Kind::ALL {
        if let Some(id) = Dialect::Godot4.id_of(v, kind) {
            assert!(
                seen.contains(&u64::from(id)),
                "{kind:?} ({id}) has no Godot 4.3 fixture"
            );
        }
    }
}
