//! gdvariant: Godot's binary Variant serialization, byte-exact for Godot 3, Godot 4 and Pandemonium.
#![deny(missing_docs)]

#[rustfmt::skip]
pub mod generated;
pub mod layout;
pub mod math;
pub mod version;

pub use version::Version;
