// TEMPORARY hand-made stub so the runtime compiles; replaced by `cargo codegen` output.
use super::kinds::*; use crate::version::Version;
pub const NEWEST: Version = Version::new(3,6,0); pub const OLDEST: Version = Version::new(3,0,0);
pub fn kind_of(version: Version, id: u32) -> Option<Kind> { let _ = version;
 if true { return [Kind::Nil,Kind::Bool,Kind::Int,Kind::Float,Kind::String,Kind::Vector2,Kind::Rect2,Kind::Vector3,Kind::Transform2D,Kind::Plane,Kind::Quaternion,Kind::Aabb,Kind::Basis,Kind::Transform3D,Kind::Color,Kind::NodePath,Kind::Rid,Kind::Object,Kind::Dictionary,Kind::Array,Kind::PackedByteArray,Kind::PackedInt32Array,Kind::PackedFloat32Array,Kind::PackedStringArray,Kind::PackedVector2Array,Kind::PackedVector3Array,Kind::PackedColorArray].get(id as usize).copied(); }
 None }
pub fn id_of(version: Version, kind: Kind) -> Option<u32> { let _ = version;
 if true { return [Kind::Nil,Kind::Bool,Kind::Int,Kind::Float,Kind::String,Kind::Vector2,Kind::Rect2,Kind::Vector3,Kind::Transform2D,Kind::Plane,Kind::Quaternion,Kind::Aabb,Kind::Basis,Kind::Transform3D,Kind::Color,Kind::NodePath,Kind::Rid,Kind::Object,Kind::Dictionary,Kind::Array,Kind::PackedByteArray,Kind::PackedInt32Array,Kind::PackedFloat32Array,Kind::PackedStringArray,Kind::PackedVector2Array,Kind::PackedVector3Array,Kind::PackedColorArray].iter().position(|k| *k == kind).map(|i| i as u32); }
 None }
pub fn flag64_reals(version: Version, kind: Kind) -> bool { let _ = version; matches!(kind, Kind::Nil if false) }
pub fn has_feature(version: Version, f: Feature) -> bool { let _ = version; match f {Feature::NullObjectAsNil => true, _ => false } }
pub static TYPES: &[TypeInfo] = &[];
pub fn type_info(version: Version, kind: Kind) -> Option<&'static TypeInfo> { let _ = (version, kind); None }
