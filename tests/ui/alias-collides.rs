//! Mistake: an alias that is another field's key, another field's alias, or the field's own key.
use gdvariant::GodotVariant;

#[derive(GodotVariant)]
struct Player {
    #[godot(alias = "health")]
    hp: i64,
    #[godot(alias = "hp")]
    health_points: i64,
    #[godot(alias = "mp", alias = "magic")]
    mana: i64,
    #[godot(alias = "mp")]
    energy: i64,
    #[godot(rename = "lvl", alias = "lvl")]
    level: i64,
}

fn main() {}
