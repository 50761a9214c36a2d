use gdvariant::GodotVariant;

#[derive(GodotVariant)]
#[godot(rename_all = "camelcase")]
struct Player {
    max_hp: i64,
}

fn main() {}
