//! Mistake: a field whose type has no ToVariant/FromVariant (the error points at the type).
use gdvariant::GodotVariant;

struct Opaque;

#[derive(GodotVariant)]
struct Player {
    name: String,
    handle: Opaque,
}

fn main() {}
