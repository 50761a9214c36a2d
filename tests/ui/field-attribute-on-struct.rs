use gdvariant::GodotVariant;

#[derive(GodotVariant)]
#[godot(skip)]
struct Player {
    name: String,
}

fn main() {}
