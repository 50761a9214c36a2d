//! Mistake: a union.
use gdvariant::GodotVariant;

#[derive(GodotVariant)]
union Bits {
    i: i64,
    f: f64,
}

fn main() {}
