//! Fuzz target `explain`: runs `check_explain` (fuzz/src/invariants.rs) on every input.
#![cfg_attr(fuzzing, no_main)]

gdvariant_fuzz::target!(gdvariant_fuzz::check_explain);
