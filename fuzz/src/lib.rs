//! The fuzz crate's library: the shared invariants, the counting allocator installed for every target, and the `target!` macro that makes a target a libFuzzer entry point under `cargo fuzz` and a plain corpus runner otherwise.

mod containers;
mod invariants;
mod resource;
pub use containers::*;
pub use invariants::*;
pub use resource::check_resource;

// Every target measures the memory a decode takes (see `peak_during`).
#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// Declares a fuzz target that runs `$check` (a [`Check`]). Built by `cargo fuzz` (which sets
/// `--cfg fuzzing`) it is a libFuzzer target; built plainly (`cargo build`, stable, no
/// sanitizer) it is a program that runs the check over the files or corpus directories named
/// on its command line.
#[macro_export]
macro_rules! target {
    ($check:expr) => {
        #[cfg(fuzzing)]
        $crate::libfuzzer_sys::fuzz_target!(|data: &[u8]| $crate::run_input($check, data));

        #[cfg(not(fuzzing))]
        fn main() {
            $crate::run_files($check);
        }
    };
}

#[doc(hidden)]
pub use libfuzzer_sys;
