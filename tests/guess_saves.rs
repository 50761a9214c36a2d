//! `guess` on save files that real Godot 3.2.3, 4.3 and 4.4.1 engines wrote for us
//! (tests/fixtures/saves/, made by tests/oracle/make_saves.sh): never a wrong dialect, era,
//! container or framing with high confidence; prints the accuracy table
//! (`cargo test --test guess_saves -- --nocapture`).
//!
//! Unlike tests/guess_real.rs these bytes are committed (engine output we generated), so every
//! file must be there with its recorded size and sha256. With the engines at hand the last test
//! regenerates the corpus and wants the same bytes.

mod common;
use common::guess::{is_right, judge, Outcome, Table, Truth};
use gdvariant::guess::guess;
use gdvariant::Version;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One `[[file]]` of the manifest.
#[derive(serde::Deserialize, Debug, Clone, PartialEq)]
struct Entry {
    /// `<engine>/<file name>`, relative to tests/fixtures/saves.
    name: String,
    /// `godot3.2.3`, `godot4.3` or `godot4.4.1`.
    engine: String,
    dialect: String,
    container: String,
    /// How gdvariant's `Framing` displays the framing (a container's values are bare).
    framing: String,
    /// The engine call that wrote the file.
    call: String,
    what: String,
    size: usize,
    sha256: String,
}

#[derive(serde::Deserialize)]
struct Manifest {
    file: Vec<Entry>,
}

fn saves_dir() -> PathBuf {
    common::fixtures().join("saves")
}

fn manifest_at(dir: &Path) -> Vec<Entry> {
    let path = dir.join("MANIFEST.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    toml::from_str::<Manifest>(&text)
        .expect("MANIFEST.toml")
        .file
}

/// The engine version a corpus engine name stands for.
fn version(engine: &str) -> Version {
    match engine {
        "godot3.2.3" => Version::new(3, 2, 3),
        "godot4.3" => Version::new(4, 3, 0),
        "godot4.4.1" => Version::new(4, 4, 1),
        e => panic!("unknown engine {e}"),
    }
}

/// The row of the table a file counts in.
fn kind(e: &Entry) -> String {
    let how = match (e.container.as_str(), e.framing.as_str()) {
        ("project-binary", _) => "project.binary (save_custom)",
        (_, f) if f.starts_with("store_var (little") => "store_var",
        (_, f) if f.starts_with("store_var (big") => "store_var big-endian",
        (_, f) if f.starts_with("bare") => "store_buffer(var_to_bytes)",
        (c, f) => panic!("{}: unknown container {c} / framing {f}", e.name),
    };
    format!("{} {how}", e.engine)
}

/// The hex SHA-256 of `bytes`, as the manifest records it.
fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Every file of the manifest with its bytes and what wrote it. The corpus is committed: a
/// missing or changed file is a broken checkout, not a reason to skip.
fn corpus() -> Vec<(Entry, Vec<u8>, Truth)> {
    let dir = saves_dir();
    let entries = manifest_at(&dir);
    for engine in ["godot3.2.3", "godot4.3", "godot4.4.1"] {
        let n = entries.iter().filter(|e| e.engine == engine).count();
        assert!(n >= 20, "{n} files of {engine} in the manifest");
    }
    entries
        .into_iter()
        .map(|e| {
            let bytes =
                std::fs::read(dir.join(&e.name)).unwrap_or_else(|err| panic!("{}: {err}", e.name));
            assert_eq!(bytes.len(), e.size, "{}: not the recorded size", e.name);
            assert_eq!(
                sha256_hex(&bytes),
                e.sha256,
                "{}: not the recorded bytes",
                e.name
            );
            let truth = Truth {
                dialect: common::guess::dialect(&e.dialect),
                container: common::guess::container(&e.container),
                framing: Some(e.framing.clone()),
                version: Some(version(&e.engine)),
            };
            (e, bytes, truth)
        })
        .collect()
}

#[test]
fn saves_are_never_named_wrongly_with_high_confidence() {
    let mut table = Table::default();
    let mut confidently_wrong = Vec::new();
    let mut others = Vec::new();
    for (e, bytes, truth) in &corpus() {
        let g = guess(bytes, None);
        let outcome = judge(&g, truth);
        match outcome {
            Outcome::Right => {}
            Outcome::WrongHigh => confidently_wrong.push(format!("{} ({}): {g}", e.name, e.call)),
            // What the others were read as, below the table.
            _ => {
                let ties: Vec<String> = g
                    .ties
                    .iter()
                    .map(|t| format!("{}, {}", t.era, t.framing))
                    .collect();
                others.push(format!(
                    "{} ({}): {outcome:?}: {}",
                    e.name,
                    e.what,
                    ties.join(" | ")
                ));
            }
        }
        table.add(&kind(e), outcome);
    }
    table.print();
    println!();
    for line in &others {
        println!("{line}");
    }
    assert!(
        confidently_wrong.is_empty(),
        "named wrongly with high confidence:\n{}",
        confidently_wrong.join("\n")
    );
}

/// Whatever `guess` makes of them, the reading as the engine that wrote each file (its dialect,
/// era and framing, inside its container) uses every byte and every value re-encodes to exactly
/// its bytes: the codec agrees with the engines' own save APIs.
#[test]
fn every_save_reads_whole_and_re_encodes_exactly_as_its_engine() {
    let mut bad = Vec::new();
    for (e, bytes, truth) in &corpus() {
        let g = guess(bytes, None);
        let own: Vec<_> = g
            .candidates
            .iter()
            .filter(|c| is_right(&g, c, truth))
            .collect();
        if own.is_empty() {
            bad.push(format!("{}: no reading as {}", e.name, e.engine));
        }
        for c in own {
            if !c.complete(bytes.len()) || c.canonical != c.values {
                bad.push(format!(
                    "{}: as {}, {}: {} of {} bytes, {} of {} value(s) exact, error {:?}",
                    e.name,
                    c.era,
                    c.framing,
                    c.used,
                    bytes.len(),
                    c.canonical,
                    c.values,
                    c.error
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The binary of a corpus engine, if it is here: Godot 3.2.3 is `godot3-server` on PATH (or
/// `GODOT3_BIN`), Godot 4.3 and 4.4.1 are `GODOT4_3` and `GODOT4_4`.
fn engine_binary(engine: &str) -> Option<PathBuf> {
    let file = |p: PathBuf| p.is_file().then_some(p);
    match engine {
        "godot3.2.3" => match std::env::var_os("GODOT3_BIN") {
            Some(p) => file(PathBuf::from(p)),
            None => std::env::split_paths(&std::env::var_os("PATH")?)
                .map(|d| d.join("godot3-server"))
                .find(|p| p.is_file()),
        },
        "godot4.3" => file(PathBuf::from(std::env::var_os("GODOT4_3")?)),
        "godot4.4.1" => file(PathBuf::from(std::env::var_os("GODOT4_4")?)),
        e => panic!("unknown engine {e}"),
    }
}

/// Runs tests/oracle/make_saves.sh with the engines that are here, into a scratch folder, and
/// wants the committed bytes and manifest entries back. Skipped (with a notice) without any
/// engine; with `CI=true` every engine must be there.
#[test]
fn regenerating_the_saves_gives_the_same_bytes() {
    let mut here = Vec::new();
    for engine in ["godot3.2.3", "godot4.3", "godot4.4.1"] {
        match engine_binary(engine) {
            Some(bin) => here.push((engine, bin)),
            None if std::env::var("CI").as_deref() == Ok("true") => panic!(
                "{engine} not found but CI=true: install godot3-server, or eval \"$(../shared/engines/install.sh --env)\""
            ),
            None => println!("notice: {engine} not found; its saves are not regenerated"),
        }
    }
    if here.is_empty() {
        return;
    }
    let scratch = std::env::temp_dir().join(format!("gdvariant-saves-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/make_saves.sh");
    let mut cmd = Command::new("sh");
    cmd.arg(&script).arg(&scratch).env(
        "SAVES_ENGINES",
        here.iter().map(|(e, _)| *e).collect::<Vec<_>>().join(" "),
    );
    for (engine, bin) in &here {
        match *engine {
            "godot3.2.3" => cmd.env("GODOT3_BIN", bin),
            "godot4.3" => cmd.env("GODOT4_3", bin),
            _ => cmd.env("GODOT4_4", bin),
        };
    }
    let out = cmd.output().expect("run make_saves.sh");
    let result = std::panic::catch_unwind(|| {
        assert!(
            out.status.success(),
            "make_saves.sh failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let committed = manifest_at(&saves_dir());
        let again = manifest_at(&scratch);
        for (engine, _) in &here {
            let of = |m: &[Entry]| -> Vec<Entry> {
                m.iter().filter(|e| e.engine == *engine).cloned().collect()
            };
            let (now, before) = (of(&again), of(&committed));
            // Same files, calls, sizes and digests, in the same order …
            let names = |m: &[Entry]| m.iter().map(|e| e.name.clone()).collect::<Vec<_>>();
            assert_eq!(names(&now), names(&before), "{engine}: other files");
            let changed: Vec<&str> = now
                .iter()
                .zip(&before)
                .filter(|(a, b)| a != b)
                .map(|(a, _)| a.name.as_str())
                .collect();
            assert!(
                changed.is_empty(),
                "the engines now write other files (run tests/oracle/make_saves.sh and look at the diff): {changed:?}"
            );
            // … and the bytes themselves.
            for e in &before {
                let ours = std::fs::read(saves_dir().join(&e.name)).unwrap();
                let theirs = std::fs::read(scratch.join(&e.name)).unwrap();
                assert!(
                    ours == theirs,
                    "{}: the engine now writes other bytes",
                    e.name
                );
            }
        }
    });
    let _ = std::fs::remove_dir_all(&scratch);
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}
