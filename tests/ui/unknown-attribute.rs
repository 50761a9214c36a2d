//! Mistake: an attribute name the derive does not know.
use gdvariant::GodotVariant;

#[derive(GodotVariant)]
struct Player {
    #[godot(renamed = "n")]
    name: String,
}

fn main() {}
