// TEMPORARY hand-made stub so the runtime compiles; replaced by `cargo codegen` output.
//! stub
#![allow(missing_docs, clippy::all)]
pub mod kinds; pub mod layouts; pub mod godot3; pub mod godot4; pub mod pandemonium;
