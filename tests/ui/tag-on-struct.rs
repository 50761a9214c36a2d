//! Mistake: `tag` on a struct.
use gdvariant::GodotVariant;

#[derive(GodotVariant)]
#[godot(tag = "kind")]
struct Player {
    name: String,
}

fn main() {}
