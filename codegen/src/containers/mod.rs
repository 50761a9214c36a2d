//! The container family: `spec/containers.yaml` (the encrypted and compressed save files'
//! layouts by generation) → checked model → `src/generated/containers.rs`.

mod emit;
mod lower;
mod model;
mod raw;

pub use emit::emit_containers;
pub use lower::load_containers;
pub use model::Containers;

/// The spec file, relative to the workspace root.
pub const CONTAINERS_FILE: &str = "spec/containers.yaml";
