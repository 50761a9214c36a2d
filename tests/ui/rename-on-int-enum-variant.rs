//! Mistake: `rename` on a variant of an enum written as an int.
use gdvariant::GodotVariant;

#[derive(GodotVariant)]
enum Class {
    #[godot(rename = "warrior")]
    Warrior,
    Mage,
}

fn main() {}
