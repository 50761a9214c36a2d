//! Compile-time behaviour of `#[derive(GodotVariant)]`: mistakes give one spanned error each
//! (tests/ui/*.rs, named after the mistake), correct uses compile and run (tests/ui/pass/).
//! The expected `.stderr` files are pinned to rustc 1.95; regenerate them with
//! `TRYBUILD=overwrite cargo test --test derive_ui` on a new toolchain and review the diff.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
