//! Mistake: `typed_array` on a field that is not a Vec (the error points at the type).
use gdvariant::GodotVariant;

#[derive(GodotVariant)]
struct Player {
    #[godot(typed_array)]
    hp: i64,
}

fn main() {}
