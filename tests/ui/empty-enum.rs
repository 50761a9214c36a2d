use gdvariant::GodotVariant;

#[derive(GodotVariant)]
enum Never {}

fn main() {}
