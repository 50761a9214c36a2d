//! The engine's Godot 3 savegame (`tests/fixtures/godot3/streams/savegame.sav`, Godot 3.2.3, six `store_var` frames) repeated to a size, the input of the command's pipe benchmarks.

/// At most `size` bytes of whole copies of the savegame.
pub fn savegame(size: usize) -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/godot3/streams/savegame.sav"
    );
    let one = std::fs::read(path).expect("the savegame fixture");
    one.repeat(size / one.len())
}
