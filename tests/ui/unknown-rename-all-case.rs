//! Mistake: `rename_all` with a case name that does not exist.
use gdvariant::GodotVariant;

#[derive(GodotVariant)]
#[godot(rename_all = "camelcase")]
struct Player {
    max_hp: i64,
}

fn main() {}
