//! Mistake: an enum with no variants.
use gdvariant::GodotVariant;

#[derive(GodotVariant)]
enum Never {}

fn main() {}
