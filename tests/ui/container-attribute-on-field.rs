//! Mistake: a struct-level attribute (`deny_unknown_fields`) on a field.
use gdvariant::GodotVariant;

#[derive(GodotVariant)]
struct Player {
    #[godot(deny_unknown_fields)]
    name: String,
}

fn main() {}
