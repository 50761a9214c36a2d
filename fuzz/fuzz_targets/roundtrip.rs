//! Fuzz target `roundtrip`: runs `check_roundtrip` (fuzz/src/invariants.rs) on every input.
#![cfg_attr(fuzzing, no_main)]

gdvariant_fuzz::target!(gdvariant_fuzz::check_roundtrip);
