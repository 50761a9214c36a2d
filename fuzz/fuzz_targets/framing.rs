//! Fuzz target `framing`: runs `check_framing` (fuzz/src/invariants.rs) on every input.
#![cfg_attr(fuzzing, no_main)]

gdvariant_fuzz::target!(gdvariant_fuzz::check_framing);
