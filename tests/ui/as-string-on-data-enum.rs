//! Mistake: `as_string` on an enum whose variants carry data.
use gdvariant::GodotVariant;

#[derive(GodotVariant)]
#[godot(as_string)]
enum Command {
    Idle,
    Say(String),
}

fn main() {}
