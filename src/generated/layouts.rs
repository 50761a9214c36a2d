// TEMPORARY hand-made stub so the runtime compiles; replaced by `cargo codegen` output.
use crate::layout::*; use crate::math::*;
pub const fn vector2_size(wide: bool) -> usize { if wide { 16 } else { 8 } }
pub fn decode_vector2(b: &[u8], wide: bool) -> Vector2 { let mut v = Vector2::default(); let w = if wide {8} else {4}; let _ = w;
 v.x = read_real(b, 0*w, wide);
 v.y = read_real(b, 1*w, wide);
 v }
pub fn encode_vector2(v: &Vector2, wide: bool, out: &mut Vec<u8>) { let _ = wide;
 write_real(out, v.x, wide);
 write_real(out, v.y, wide);
}
pub const fn vector2i_size(wide: bool) -> usize { let _ = wide; 8 }
pub fn decode_vector2i(b: &[u8], wide: bool) -> Vector2i { let mut v = Vector2i::default(); let w = if wide {8} else {4}; let _ = w;
 v.x = read_i32(b, 0*4);
 v.y = read_i32(b, 1*4);
 v }
pub fn encode_vector2i(v: &Vector2i, wide: bool, out: &mut Vec<u8>) { let _ = wide;
 write_i32(out, v.x);
 write_i32(out, v.y);
}
pub const fn rect2_size(wide: bool) -> usize { if wide { 32 } else { 16 } }
pub fn decode_rect2(b: &[u8], wide: bool) -> Rect2 { let mut v = Rect2::default(); let w = if wide {8} else {4}; let _ = w;
 v.position.x = read_real(b, 0*w, wide);
 v.position.y = read_real(b, 1*w, wide);
 v.size.x = read_real(b, 2*w, wide);
 v.size.y = read_real(b, 3*w, wide);
 v }
pub fn encode_rect2(v: &Rect2, wide: bool, out: &mut Vec<u8>) { let _ = wide;
 write_real(out, v.position.x, wide);
 write_real(out, v.position.y, wide);
 write_real(out, v.size.x, wide);
 write_real(out, v.size.y, wide);
}
pub const fn rect2i_size(wide: bool) -> usize { let _ = wide; 16 }
pub fn decode_rect2i(b: &[u8], wide: bool) -> Rect2i { let mut v = Rect2i::default(); let w = if wide {8} else {4}; let _ = w;
 v.position.x = read_i32(b, 0*4);
 v.position.y = read_i32(b, 1*4);
 v.size.x = read_i32(b, 2*4);
 v.size.y = read_i32(b, 3*4);
 v }
pub fn encode_rect2i(v: &Rect2i, wide: bool, out: &mut Vec<u8>) { let _ = wide;
 write_i32(out, v.position.x);
 write_i32(out, v.position.y);
 write_i32(out, v.size.x);
 write_i32(out, v.size.y);
}
pub const fn vector3_size(wide: bool) -> usize { if wide { 24 } else { 12 } }
pub fn decode_vector3(b: &[u8], wide: bool) -> Vector3 { let mut v = Vector3::default(); let w = if wide {8} else {4}; let _ = w;
 v.x = read_real(b, 0*w, wide);
 v.y = read_real(b, 1*w, wide);
 v.z = read_real(b, 2*w, wide);
 v }
pub fn encode_vector3(v: &Vector3, wide: bool, out: &mut Vec<u8>) { let _ = wide;
 write_real(out, v.x, wide);
 write_real(out, v.y, wide);
 write_real(out, v.z, wide);
}
pub const fn vector3i_size(wide: bool) -> usize { let _ = wide; 12 }
pub fn decode_vector3i(b: &[u8], wide: bool) -> Vector3i { let mut v = Vector3i::default(); let w = if wide {8} else {4}; let _ = w;
 v.x = read_i32(b, 0*4);
 v.y = read_i32(b, 1*4);
 v.z = read_i32(b, 2*4);
 v }
pub fn encode_vector3i(v: &Vector3i, wide: bool, out: &mut Vec<u8>) { let _ = wide;
 write_i32(out, v.x);
 write_i32(out, v.y);
 write_i32(out, v.z);
}
pub const fn transform2d_size(wide: bool) -> usize { if wide { 48 } else { 24 } }
pub fn decode_transform2d(b: &[u8], wide: bool) -> Transform2D { let mut v = Transform2D::default(); let w = if wide {8} else {4}; let _ = w;
 v.x.x = read_real(b, 0*w, wide);
 v.x.y = read_real(b, 1*w, wide);
 v.y.x = read_real(b, 2*w, wide);
 v.y.y = read_real(b, 3*w, wide);
 v.origin.x = read_real(b, 4*w, wide);
 v.origin.y = read_real(b, 5*w, wide);
 v }
pub fn encode_transform2d(v: &Transform2D, wide: bool, out: &mut Vec<u8>) { let _ = wide;
 write_real(out, v.x.x, wide);
 write_real(out, v.x.y, wide);
 write_real(out, v.y.x, wide);
 write_real(out, v.y.y, wide);
 write_real(out, v.origin.x, wide);
 write_real(out, v.origin.y, wide);
}
pub const fn vector4_size(wide: bool) -> usize { if wide { 32 } else { 16 } }
pub fn decode_vector4(b: &[u8], wide: bool) -> Vector4 { let mut v = Vector4::default(); let w = if wide {8} else {4}; let _ = w;
 v.x = read_real(b, 0*w, wide);
 v.y = read_real(b, 1*w, wide);
 v.z = read_real(b, 2*w, wide);
 v.w = read_real(b, 3*w, wide);
 v }
pub fn encode_vector4(v: &Vector4, wide: bool, out: &mut Vec<u8>) { let _ = wide;
 write_real(out, v.x, wide);
 write_real(out, v.y, wide);
 write_real(out, v.z, wide);
 write_real(out, v.w, wide);
}
pub const fn vector4i_size(wide: bool) -> usize { let _ = wide; 16 }
pub fn decode_vector4i(b: &[u8], wide: bool) -> Vector4i { let mut v = Vector4i::default(); let w = if wide {8} else {4}; let _ = w;
 v.x = read_i32(b, 0*4);
 v.y = read_i32(b, 1*4);
 v.z = read_i32(b, 2*4);
 v.w = read_i32(b, 3*4);
 v }
pub fn encode_vector4i(v: &Vector4i, wide: bool, out: &mut Vec<u8>) { let _ = wide;
 write_i32(out, v.x);
 write_i32(out, v.y);
 write_i32(out, v.z);
 write_i32(out, v.w);
}
pub const fn plane_size(wide: bool) -> usize { if wide { 32 } else { 16 } }
pub fn decode_plane(b: &[u8], wide: bool) -> Plane { let mut v = Plane::default(); let w = if wide {8} else {4}; let _ = w;
 v.normal.x = read_real(b, 0*w, wide);
 v.normal.y = read_real(b, 1*w, wide);
 v.normal.z = read_real(b, 2*w, wide);
 v.d = read_real(b, 3*w, wide);
 v }
pub fn encode_plane(v: &Plane, wide: bool, out: &mut Vec<u8>) { let _ = wide;
 write_real(out, v.normal.x, wide);
 write_real(out, v.normal.y, wide);
 write_real(out, v.normal.z, wide);
 write_real(out, v.d, wide);
}
pub const fn quaternion_size(wide: bool) -> usize { if wide { 32 } else { 16 } }
pub fn decode_quaternion(b: &[u8], wide: bool) -> Quaternion { let mut v = Quaternion::default(); let w = if wide {8} else {4}; let _ = w;
 v.x = read_real(b, 0*w, wide);
 v.y = read_real(b, 1*w, wide);
 v.z = read_real(b, 2*w, wide);
 v.w = read_real(b, 3*w, wide);
 v }
pub fn encode_quaternion(v: &Quaternion, wide: bool, out: &mut Vec<u8>) { let _ = wide;
 write_real(out, v.x, wide);
 write_real(out, v.y, wide);
 write_real(out, v.z, wide);
 write_real(out, v.w, wide);
}
pub const fn aabb_size(wide: bool) -> usize { if wide { 48 } else { 24 } }
pub fn decode_aabb(b: &[u8], wide: bool) -> Aabb { let mut v = Aabb::default(); let w = if wide {8} else {4}; let _ = w;
 v.position.x = read_real(b, 0*w, wide);
 v.position.y = read_real(b, 1*w, wide);
 v.position.z = read_real(b, 2*w, wide);
 v.size.x = read_real(b, 3*w, wide);
 v.size.y = read_real(b, 4*w, wide);
 v.size.z = read_real(b, 5*w, wide);
 v }
pub fn encode_aabb(v: &Aabb, wide: bool, out: &mut Vec<u8>) { let _ = wide;
 write_real(out, v.position.x, wide);
 write_real(out, v.position.y, wide);
 write_real(out, v.position.z, wide);
 write_real(out, v.size.x, wide);
 write_real(out, v.size.y, wide);
 write_real(out, v.size.z, wide);
}
pub const fn basis_size(wide: bool) -> usize { if wide { 72 } else { 36 } }
pub fn decode_basis(b: &[u8], wide: bool) -> Basis { let mut v = Basis::default(); let w = if wide {8} else {4}; let _ = w;
 v.rows[0].x = read_real(b, 0*w, wide);
 v.rows[0].y = read_real(b, 1*w, wide);
 v.rows[0].z = read_real(b, 2*w, wide);
 v.rows[1].x = read_real(b, 3*w, wide);
 v.rows[1].y = read_real(b, 4*w, wide);
 v.rows[1].z = read_real(b, 5*w, wide);
 v.rows[2].x = read_real(b, 6*w, wide);
 v.rows[2].y = read_real(b, 7*w, wide);
 v.rows[2].z = read_real(b, 8*w, wide);
 v }
pub fn encode_basis(v: &Basis, wide: bool, out: &mut Vec<u8>) { let _ = wide;
 write_real(out, v.rows[0].x, wide);
 write_real(out, v.rows[0].y, wide);
 write_real(out, v.rows[0].z, wide);
 write_real(out, v.rows[1].x, wide);
 write_real(out, v.rows[1].y, wide);
 write_real(out, v.rows[1].z, wide);
 write_real(out, v.rows[2].x, wide);
 write_real(out, v.rows[2].y, wide);
 write_real(out, v.rows[2].z, wide);
}
pub const fn transform3d_size(wide: bool) -> usize { if wide { 96 } else { 48 } }
pub fn decode_transform3d(b: &[u8], wide: bool) -> Transform3D { let mut v = Transform3D::default(); let w = if wide {8} else {4}; let _ = w;
 v.basis.rows[0].x = read_real(b, 0*w, wide);
 v.basis.rows[0].y = read_real(b, 1*w, wide);
 v.basis.rows[0].z = read_real(b, 2*w, wide);
 v.basis.rows[1].x = read_real(b, 3*w, wide);
 v.basis.rows[1].y = read_real(b, 4*w, wide);
 v.basis.rows[1].z = read_real(b, 5*w, wide);
 v.basis.rows[2].x = read_real(b, 6*w, wide);
 v.basis.rows[2].y = read_real(b, 7*w, wide);
 v.basis.rows[2].z = read_real(b, 8*w, wide);
 v.origin.x = read_real(b, 9*w, wide);
 v.origin.y = read_real(b, 10*w, wide);
 v.origin.z = read_real(b, 11*w, wide);
 v }
pub fn encode_transform3d(v: &Transform3D, wide: bool, out: &mut Vec<u8>) { let _ = wide;
 write_real(out, v.basis.rows[0].x, wide);
 write_real(out, v.basis.rows[0].y, wide);
 write_real(out, v.basis.rows[0].z, wide);
 write_real(out, v.basis.rows[1].x, wide);
 write_real(out, v.basis.rows[1].y, wide);
 write_real(out, v.basis.rows[1].z, wide);
 write_real(out, v.basis.rows[2].x, wide);
 write_real(out, v.basis.rows[2].y, wide);
 write_real(out, v.basis.rows[2].z, wide);
 write_real(out, v.origin.x, wide);
 write_real(out, v.origin.y, wide);
 write_real(out, v.origin.z, wide);
}
pub const fn projection_size(wide: bool) -> usize { if wide { 128 } else { 64 } }
pub fn decode_projection(b: &[u8], wide: bool) -> Projection { let mut v = Projection::default(); let w = if wide {8} else {4}; let _ = w;
 v.columns[0].x = read_real(b, 0*w, wide);
 v.columns[0].y = read_real(b, 1*w, wide);
 v.columns[0].z = read_real(b, 2*w, wide);
 v.columns[0].w = read_real(b, 3*w, wide);
 v.columns[1].x = read_real(b, 4*w, wide);
 v.columns[1].y = read_real(b, 5*w, wide);
 v.columns[1].z = read_real(b, 6*w, wide);
 v.columns[1].w = read_real(b, 7*w, wide);
 v.columns[2].x = read_real(b, 8*w, wide);
 v.columns[2].y = read_real(b, 9*w, wide);
 v.columns[2].z = read_real(b, 10*w, wide);
 v.columns[2].w = read_real(b, 11*w, wide);
 v.columns[3].x = read_real(b, 12*w, wide);
 v.columns[3].y = read_real(b, 13*w, wide);
 v.columns[3].z = read_real(b, 14*w, wide);
 v.columns[3].w = read_real(b, 15*w, wide);
 v }
pub fn encode_projection(v: &Projection, wide: bool, out: &mut Vec<u8>) { let _ = wide;
 write_real(out, v.columns[0].x, wide);
 write_real(out, v.columns[0].y, wide);
 write_real(out, v.columns[0].z, wide);
 write_real(out, v.columns[0].w, wide);
 write_real(out, v.columns[1].x, wide);
 write_real(out, v.columns[1].y, wide);
 write_real(out, v.columns[1].z, wide);
 write_real(out, v.columns[1].w, wide);
 write_real(out, v.columns[2].x, wide);
 write_real(out, v.columns[2].y, wide);
 write_real(out, v.columns[2].z, wide);
 write_real(out, v.columns[2].w, wide);
 write_real(out, v.columns[3].x, wide);
 write_real(out, v.columns[3].y, wide);
 write_real(out, v.columns[3].z, wide);
 write_real(out, v.columns[3].w, wide);
}
pub const fn color_size(wide: bool) -> usize { let _ = wide; 16 }
pub fn decode_color(b: &[u8], wide: bool) -> Color { let mut v = Color::default(); let w = if wide {8} else {4}; let _ = w;
 v.r = f32::from_bits(read_f32_bits(b, 0*4));
 v.g = f32::from_bits(read_f32_bits(b, 1*4));
 v.b = f32::from_bits(read_f32_bits(b, 2*4));
 v.a = f32::from_bits(read_f32_bits(b, 3*4));
 v }
pub fn encode_color(v: &Color, wide: bool, out: &mut Vec<u8>) { let _ = wide;
 write_f32(out, v.r);
 write_f32(out, v.g);
 write_f32(out, v.b);
 write_f32(out, v.a);
}
