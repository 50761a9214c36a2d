//! Mistake: a field attribute (`skip`) on the struct.
use gdvariant::GodotVariant;

#[derive(GodotVariant)]
#[godot(skip)]
struct Player {
    name: String,
}

fn main() {}
