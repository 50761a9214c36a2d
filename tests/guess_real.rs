//! `guess` on files real Godot games and exports wrote (tests/fixtures/real/MANIFEST.toml):
//! never the wrong dialect or container with high confidence; prints the accuracy table.
//!
//! The bytes are other people's files and are not committed (data fetched from other
//! repositories stays beside the repository, in `../shared/`): the manifest records where each
//! came from (repository, commit, path) and its size and sha256. The test reads them from
//! `$GDVARIANT_REAL_CORPUS`, else `tests/fixtures/real/files/`, else
//! `../shared/fixtures/real/`; without any of them it says so and checks nothing.

mod common;
use gdvariant::guess::{guess, Confidence, Container};
use gdvariant::Dialect;
use std::collections::BTreeMap;
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

#[derive(Default)]
struct Row {
    right: usize,
    ambiguous: usize,
    wrong_low: usize,
    wrong_high: usize,
    no_answer: usize,
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
    let mut table: BTreeMap<String, Row> = BTreeMap::new();
    let mut confidently_wrong = Vec::new();
    let mut missing = Vec::new();
    for e in &entries {
        let Ok(bytes) = std::fs::read(dir.join(&e.name)) else {
            missing.push(e.name.clone());
            continue;
        };
        assert_eq!(bytes.len(), e.size, "{}: not the recorded bytes", e.name);
        let dialect = match e.dialect.as_str() {
            "godot3" => Dialect::Godot3,
            "godot4" => Dialect::Godot4,
            "pandemonium" => Dialect::Pandemonium,
            d => panic!("unknown dialect {d}"),
        };
        let container = match e.container.as_str() {
            "project-binary" => Some(Container::ProjectBinary),
            "gdscript-bytecode" => Some(Container::GdscriptBytecode),
            "none" => None,
            c => panic!("unknown container {c}"),
        };
        let g = guess(&bytes, None);
        // The framing when the file has no container (bare, or a length prefix either way).
        let framing_ok = |f: gdvariant::framing::Framing| match &e.framing {
            Some(want) => f.to_string().starts_with(want.as_str()),
            None => true,
        };
        let right = |t: &gdvariant::guess::Candidate| {
            t.era.dialect == dialect && g.container == container && framing_ok(t.framing)
        };
        let row = table.entry(e.container.clone()).or_default();
        match g.confidence {
            Confidence::None => row.no_answer += 1,
            _ if right(&g.best) && g.ties.len() == 1 => row.right += 1,
            Confidence::Ambiguous if g.ties.iter().any(right) => row.ambiguous += 1,
            Confidence::High => {
                row.wrong_high += 1;
                confidently_wrong.push(format!("{} ({} {}): {g}", e.name, e.repo, e.path));
            }
            _ => row.wrong_low += 1,
        }
    }
    println!("| kind of file | files | right | ambiguous (right among the equals) | wrong, low confidence | wrong, high confidence | no reading fits |");
    println!("|---|---|---|---|---|---|---|");
    for (kind, r) in &table {
        let n = r.right + r.ambiguous + r.wrong_low + r.wrong_high + r.no_answer;
        println!(
            "| {kind} | {n} | {} | {} | {} | {} | {} |",
            r.right, r.ambiguous, r.wrong_low, r.wrong_high, r.no_answer
        );
    }
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
