use gdvariant::GodotVariant;

struct Opaque;

#[derive(GodotVariant)]
struct Player {
    name: String,
    handle: Opaque,
}

fn main() {}
