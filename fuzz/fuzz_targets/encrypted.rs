//! Fuzz target `encrypted`: runs `check_encrypted` (fuzz/src/containers.rs) on every input.
#![cfg_attr(fuzzing, no_main)]

gdvariant_fuzz::target!(gdvariant_fuzz::check_encrypted);
