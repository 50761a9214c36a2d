use gdvariant::GodotVariant;

#[derive(GodotVariant)]
struct Player {
    #[godot(typed_array)]
    hp: i64,
}

fn main() {}
