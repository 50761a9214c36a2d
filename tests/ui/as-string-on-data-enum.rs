use gdvariant::GodotVariant;

#[derive(GodotVariant)]
#[godot(as_string)]
enum Command {
    Idle,
    Say(String),
}

fn main() {}
