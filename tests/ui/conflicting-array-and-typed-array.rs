//! Mistake: `array` and `typed_array` on one field.
use gdvariant::GodotVariant;

#[derive(GodotVariant)]
struct Inventory {
    #[godot(array, typed_array)]
    ids: Vec<i64>,
}

fn main() {}
