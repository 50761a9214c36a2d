use gdvariant::GodotVariant;

#[derive(GodotVariant)]
struct Player {
    #[godot(renamed = "n")]
    name: String,
}

fn main() {}
