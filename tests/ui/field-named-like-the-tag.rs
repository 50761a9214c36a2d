//! Mistake: a struct-variant field with the same key as the enum tag.
use gdvariant::GodotVariant;

#[derive(GodotVariant)]
enum Event {
    Hit { r#type: String, damage: i64 },
    Heal(i64),
}

fn main() {}
