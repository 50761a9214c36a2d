//! `cargo test` fails when `src/generated/` no longer matches the spec (the same check as `cargo codegen --check`).

use gdvariant_codegen::write::{stale_report, sync, workspace_root};

#[test]
fn generated_code_is_fresh() {
    let stale = sync(&workspace_root(), false).expect("the spec loads and renders");
    assert!(stale.is_empty(), "{}", stale_report(&stale));
}
