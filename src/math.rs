//! The math value types of the Variant model (vectors, rectangles, transforms, colors).
//!
//! Real components are stored as `f64`: a single-precision engine's `f32` widens exactly and
//! a double-precision engine's `f64` fits as is, so one model carries both builds losslessly.
//! Integer vectors are `i32`, as in every engine; `Color` is always four `f32`.

macro_rules! plain {
    ($(#[$doc:meta])* $name:ident { $($(#[$fdoc:meta])* $field:ident : $ty:ty),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Default)]
        pub struct $name { $($(#[$fdoc])* pub $field: $ty),* }
        impl $name {
            /// Builds the value from its fields, in declaration order.
            pub const fn new($($field: $ty),*) -> $name { $name { $($field),* } }
        }
    };
}

plain!(/// A 2D vector of reals.
    Vector2 { /// x
        x: f64, /// y
        y: f64 });
plain!(/// A 2D vector of 32-bit integers.
    Vector2i { /// x
        x: i32, /// y
        y: i32 });
plain!(/// An axis-aligned rectangle of reals.
    Rect2 { /// top-left corner
        position: Vector2, /// width and height
        size: Vector2 });
plain!(/// An axis-aligned rectangle of 32-bit integers.
    Rect2i { /// top-left corner
        position: Vector2i, /// width and height
        size: Vector2i });
plain!(/// A 3D vector of reals.
    Vector3 { /// x
        x: f64, /// y
        y: f64, /// z
        z: f64 });
plain!(/// A 3D vector of 32-bit integers.
    Vector3i { /// x
        x: i32, /// y
        y: i32, /// z
        z: i32 });
plain!(/// A 2D affine transform: the x and y axes and the origin, in byte order.
    Transform2D { /// x axis (column 0)
        x: Vector2, /// y axis (column 1)
        y: Vector2, /// origin (column 2)
        origin: Vector2 });
plain!(/// A 4D vector of reals.
    Vector4 { /// x
        x: f64, /// y
        y: f64, /// z
        z: f64, /// w
        w: f64 });
plain!(/// A 4D vector of 32-bit integers.
    Vector4i { /// x
        x: i32, /// y
        y: i32, /// z
        z: i32, /// w
        w: i32 });
plain!(/// A plane: unit normal and distance from the origin.
    Plane { /// normal
        normal: Vector3, /// distance
        d: f64 });
plain!(/// A rotation quaternion (Godot 3's `Quat`).
    Quaternion { /// x
        x: f64, /// y
        y: f64, /// z
        z: f64, /// w
        w: f64 });
plain!(/// An axis-aligned bounding box (Godot 3's `AABB`).
    Aabb { /// minimum corner
        position: Vector3, /// extent
        size: Vector3 });
plain!(/// A 3x3 matrix stored by rows, as the engine writes it (`rows[i][j]`, row-major).
    Basis { /// the three rows
        rows: [Vector3; 3] });
plain!(/// A 3D affine transform (Godot 3's `Transform`).
    Transform3D { /// rotation and scale
        basis: Basis, /// translation
        origin: Vector3 });
plain!(/// A 4x4 projection matrix stored by columns, as the engine writes it.
    Projection { /// the four columns
        columns: [Vector4; 4] });
plain!(/// An RGBA color; always single precision on the wire.
    Color { /// red
        r: f32, /// green
        g: f32, /// blue
        b: f32, /// alpha
        a: f32 });

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
