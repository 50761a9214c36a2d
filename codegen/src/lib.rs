//! gdvariant-codegen: spec/*.yaml → checked model → generated Rust (and, later, docs and diffs).
pub mod classes;
pub mod containers;
pub mod diff;
pub mod emit;
pub mod lower;
pub mod model;
pub mod raw;
pub mod resource_binary;
pub mod snapshot;
pub mod special_cases;
pub mod write;
