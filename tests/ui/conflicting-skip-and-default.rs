//! Mistake: `skip` and `default` on one field.
use gdvariant::GodotVariant;

#[derive(GodotVariant)]
struct Player {
    #[godot(skip, default)]
    hp: i64,
}

fn main() {}
