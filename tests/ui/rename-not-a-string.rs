//! Mistake: `rename` given a path instead of a string literal.
use gdvariant::GodotVariant;

#[derive(GodotVariant)]
struct Player {
    #[godot(rename = hp)]
    health: i64,
}

fn main() {}
