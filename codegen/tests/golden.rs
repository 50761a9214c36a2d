//! Golden test: a small hand-made spec generates exactly `golden/generated/` (bless with
//! `GDVARIANT_BLESS=1`), and that output compiles (see golden_compiles.rs).

use gdvariant_codegen::lower::lower_texts;
use gdvariant_codegen::write::{spec_outputs, stale_report, sync_outputs};
use std::path::Path;

#[test]
fn golden_output_matches() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).expect("golden spec readable");
    let (common, mini) = (read("spec/common.yaml"), read("spec/mini.yaml"));
    let spec = lower_texts(("spec/common.yaml", &common), &[("spec/mini.yaml", &mini)])
        .unwrap_or_else(|e| panic!("{e}"));
    let outputs = spec_outputs(&spec, "generated", "spec/common.yaml").expect("renders");
    let bless = std::env::var_os("GDVARIANT_BLESS").is_some();
    let stale = sync_outputs(&dir, &outputs, bless).expect("compares");
    assert!(
        bless || stale.is_empty(),
        "{}\n(bless with GDVARIANT_BLESS=1 cargo test -p gdvariant-codegen --test golden)",
        stale_report(&stale)
    );
}
