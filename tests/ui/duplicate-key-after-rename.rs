//! Mistake: two fields that end up with one Dictionary key.
use gdvariant::GodotVariant;

#[derive(GodotVariant)]
struct Player {
    hp: i64,
    #[godot(rename = "hp")]
    health: i64,
}

fn main() {}
