//! A save editor: reads a Godot 4 `FileAccess.store_var` save into a derived type, changes it, writes it back.
//!
//! `cargo run --example save_editor -- player.sav` (a new save is made if the file is missing).
use gdvariant::framing::Framing;
use gdvariant::{from_reader, to_writer, Format, GodotVariant};
use std::fs::File;

#[derive(GodotVariant, Debug, Default)]
struct Save {
    level: String,
    coins: i64,
    #[godot(default)]
    unlocked: Vec<String>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "player.sav".into());
    // `FileAccess.store_var(save)`: a length, then the value.
    let format = Format::godot4().framing(Framing::STORE_VAR);
    let mut save: Save = match File::open(&path) {
        Ok(file) => from_reader(file, &format)?,
        Err(_) => Save::default(),
    };
    save.coins += 100;
    save.unlocked.push("cave".into());
    to_writer(File::create(&path)?, &save, &format)?;
    println!("{path}: {save:?}");
    Ok(())
}
