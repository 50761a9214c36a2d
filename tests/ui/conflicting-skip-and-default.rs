use gdvariant::GodotVariant;

#[derive(GodotVariant)]
struct Player {
    #[godot(skip, default)]
    hp: i64,
}

fn main() {}
