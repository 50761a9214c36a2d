//! Mistake: `flatten` with an attribute that names or converts the field, and where it has no
//! parent Dictionary to flatten into.
use gdvariant::GodotVariant;

#[derive(GodotVariant, Default)]
struct Stats {
    hp: i64,
}

#[derive(GodotVariant)]
struct Player {
    #[godot(flatten, rename = "s")]
    stats: Stats,
    #[godot(default, flatten)]
    more: Stats,
}

#[derive(GodotVariant)]
struct Pair(#[godot(flatten)] Stats, i64);

#[derive(GodotVariant)]
enum Event {
    Hit {
        #[godot(flatten)]
        stats: Stats,
    },
}

fn main() {}
