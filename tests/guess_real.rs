//! `guess` on files real Godot games and exports wrote (tests/fixtures/real/MANIFEST.toml):
//! never the wrong dialect or container with high confidence; prints the accuracy table.
//!
//! The bytes are other people's files and are not committed (data fetched from other
//! repositories stays beside the repository, in `../shared/`): the manifest records where each
//! came from (repository, commit, path) and its size and sha256. The test reads them from
//! `$GDVARIANT_REAL_CORPUS`, else `tests/fixtures/real/files/`, else
//! `../shared/fixtures/real/`; without any of them it says so and checks nothing.

mod common;
use common::guess::{judge, Outcome, Table, Truth};
use gdvariant::guess::guess;
use std::path::PathBuf;

/// One `[[file]]` of the manifest.
#[derive(serde::Deserialize, Debug)]
struct Entry {
    name: String,
    repo: String,
    path: String,
    size: usize,
    dialect: String,
    container: String,
    /// The framing of a file without a container (`store_var`, `bare`, …).
    framing: Option<String>,
}

#[derive(serde::Deserialize)]
struct Manifest {
    file: Vec<Entry>,
}

fn manifest() -> Vec<Entry> {
    let text = std::fs::read_to_string(common::fixtures().join("real/MANIFEST.toml")).unwrap();
    toml::from_str::<Manifest>(&text)
        .expect("MANIFEST.toml")
        .file
}

fn corpus_dir() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("GDVARIANT_REAL_CORPUS").map(PathBuf::from),
        Some(common::fixtures().join("real/files")),
        Some(common::fixtures().join("../../../shared/fixtures/real")),
    ];
    candidates.into_iter().flatten().find(|d| d.is_dir())
}

#[test]
fn real_files_are_never_named_wrongly_with_high_confidence() {
    let entries = manifest();
    assert!(
        entries.len() >= 50,
        "{} files in the manifest",
        entries.len()
    );
    let Some(dir) = corpus_dir() else {
        eprintln!(
            "NOTICE: guess_real checked nothing: the corpus bytes are not here (see the head of tests/guess_real.rs)"
        );
        return;
    };
    let mut table = Table::default();
    let mut confidently_wrong = Vec::new();
    let mut missing = Vec::new();
    for e in &entries {
        let Ok(bytes) = std::fs::read(dir.join(&e.name)) else {
            missing.push(e.name.clone());
            continue;
        };
        assert_eq!(bytes.len(), e.size, "{}: not the recorded bytes", e.name);
        let truth = Truth {
            dialect: common::guess::dialect(&e.dialect),
            container: common::guess::container(&e.container),
            // The framing when the file has no container (bare, or a length prefix either way).
            framing: e.framing.clone(),
            version: None,
        };
        let g = guess(&bytes, None);
        let outcome = judge(&g, &truth);
        if outcome == Outcome::WrongHigh {
            confidently_wrong.push(format!("{} ({} {}): {g}", e.name, e.repo, e.path));
        }
        table.add(&e.container, outcome);
    }
    table.print();
    assert!(
        missing.is_empty(),
        "corpus files missing from {}: {missing:?}",
        dir.display()
    );
    assert!(
        confidently_wrong.is_empty(),
        "named wrongly with high confidence:\n{}",
        confidently_wrong.join("\n")
    );
}
