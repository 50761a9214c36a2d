//! gdvariant-codegen: spec/*.yaml → checked model → generated Rust (and, later, docs and diffs).
pub mod emit;
pub mod lower;
pub mod model;
pub mod raw;
pub mod special_cases;
pub mod write;
