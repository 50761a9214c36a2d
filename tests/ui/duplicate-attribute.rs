use gdvariant::GodotVariant;

#[derive(GodotVariant)]
struct Player {
    #[godot(rename = "a")]
    #[godot(rename = "b")]
    name: String,
}

fn main() {}
