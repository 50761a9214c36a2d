//! Fuzz target `resource`: runs `check_resource` (fuzz/src/resource.rs) on every input.
#![cfg_attr(fuzzing, no_main)]

gdvariant_fuzz::target!(gdvariant_fuzz::check_resource);
