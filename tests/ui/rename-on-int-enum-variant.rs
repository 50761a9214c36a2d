use gdvariant::GodotVariant;

#[derive(GodotVariant)]
enum Class {
    #[godot(rename = "warrior")]
    Warrior,
    Mage,
}

fn main() {}
