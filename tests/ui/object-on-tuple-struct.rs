//! Mistake: `object` on a tuple struct.
use gdvariant::GodotVariant;

#[derive(GodotVariant)]
#[godot(object = "Node")]
struct Pair(i64, i64);

fn main() {}
