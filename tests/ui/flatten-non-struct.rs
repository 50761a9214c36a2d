//! Mistake: `flatten` on a field whose type has no named fields to put in the parent.
use gdvariant::GodotVariant;

#[derive(GodotVariant)]
struct Player {
    name: String,
    #[godot(flatten)]
    hp: i64,
}

fn main() {}
