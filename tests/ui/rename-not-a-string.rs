use gdvariant::GodotVariant;

#[derive(GodotVariant)]
struct Player {
    #[godot(rename = hp)]
    health: i64,
}

fn main() {}
