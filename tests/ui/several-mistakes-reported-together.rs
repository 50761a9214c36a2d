//! Mistake: several at once; each is reported on its own token, and using the type afterwards
//! adds no error of its own (the fallback impl stands in for the real one).
use gdvariant::{GodotVariant, ToVariant};

#[derive(GodotVariant)]
#[godot(rename_all = "Title Case", tag = "kind")]
struct Player {
    #[godot(skip, default)]
    hp: i64,
    #[godot(colour = "red")]
    name: String,
    #[godot(with)]
    pos: (f64, f64),
}

fn main() {
    let p = Player { hp: 1, name: String::new(), pos: (0.0, 0.0) };
    let _ = p.to_variant();
}
