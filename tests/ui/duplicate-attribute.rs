//! Mistake: the same attribute twice on one field.
use gdvariant::GodotVariant;

#[derive(GodotVariant)]
struct Player {
    #[godot(rename = "a")]
    #[godot(rename = "b")]
    name: String,
}

fn main() {}
