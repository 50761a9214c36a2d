//! Fuzz target `compressed`: runs `check_compressed` (fuzz/src/containers.rs) on every input.
#![cfg_attr(fuzzing, no_main)]

gdvariant_fuzz::target!(gdvariant_fuzz::check_compressed);
