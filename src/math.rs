//! The math value types of the Variant model (vectors, rectangles, transforms, colors): the
//! structs are generated from the spec (`crate::variant::math`); their constants live here.
//!
//! Real components are stored as `f64`: a single-precision engine's `f32` widens exactly and
//! a double-precision engine's `f64` fits as is, so one model carries both builds losslessly.
//! Integer vectors are `i32`, as in every engine; `Color` is always four `f32`.

/// Any math value, or packed array of them, from its kind and components in order: what a
/// generic front end (the Python bindings) builds values with, knowing no layout itself.
pub use crate::variant::layout::components_of;
/// Every math type by its components, as the spec lays them out (see [`FixedLayout`]).
pub use crate::variant::layout::{
    Component, FixedLayout, FixedValue, PackedLayout, PackedValue, Scalar,
};
pub use crate::variant::math::*;
pub use crate::variant::value::{fixed_from, packed_from};

impl Basis {
    /// The identity matrix.
    pub const IDENTITY: Basis = Basis {
        rows: [
            Vector3::new(1.0, 0.0, 0.0),
            Vector3::new(0.0, 1.0, 0.0),
            Vector3::new(0.0, 0.0, 1.0),
        ],
    };
}

impl Transform2D {
    /// The identity transform.
    pub const IDENTITY: Transform2D = Transform2D {
        x: Vector2::new(1.0, 0.0),
        y: Vector2::new(0.0, 1.0),
        origin: Vector2::new(0.0, 0.0),
    };
}

impl Transform3D {
    /// The identity transform.
    pub const IDENTITY: Transform3D = Transform3D {
        basis: Basis::IDENTITY,
        origin: Vector3::new(0.0, 0.0, 0.0),
    };
}

impl Projection {
    /// The identity matrix.
    pub const IDENTITY: Projection = Projection {
        columns: [
            Vector4::new(1.0, 0.0, 0.0, 0.0),
            Vector4::new(0.0, 1.0, 0.0, 0.0),
            Vector4::new(0.0, 0.0, 1.0, 0.0),
            Vector4::new(0.0, 0.0, 0.0, 1.0),
        ],
    };
}
