//! ConfigFile text through the command: `guess`, `decode` and `convert` on Godot 3.2.3's and
//! Godot 4.4.1's own `ConfigFile.save` and `save_encrypted_pass` files
//! (tests/fixtures/containers/, made by tests/containers/godot3.gd and godot4.gd).
#![cfg(feature = "cli")]

mod cli_util;
use cli_util::*;
use gdvariant::container::{encrypted, EncryptedLayout, Key};
use gdvariant::text::ConfigFile;
use gdvariant::{json, Dialect};

const PASSWORD: &str = "correct horse";
const DIR: &str = "tests/fixtures/containers";

fn path(engine: &str, file: &str) -> String {
    format!("{DIR}/{engine}/{file}")
}

#[test]
fn guess_names_config_files_and_their_dialect() {
    for (engine, dialect) in [("godot3.2.3", "Godot 3"), ("godot4.4.1", "Godot 4")] {
        let want = format!("ConfigFile text, {dialect}, 2 section(s), 5 key(s)");
        let r = run(&["guess", &path(engine, "config.cfg")], b"");
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.text().ends_with(&format!(": {want}\n")), "{}", r.text());
        // Standard input too.
        let bytes = std::fs::read(path(engine, "config.cfg")).unwrap();
        let r = run(&["guess", "-"], &bytes);
        assert!(r.text().contains(&want), "{}", r.text());
        let enc = path(engine, "config-encrypted.cfg");
        let r = run(&["guess", &enc], b"");
        assert_ne!(r.code, 0);
        assert!(
            r.stderr
                .contains(&format!("{dialect} encrypted file (password needed)")),
            "{}",
            r.stderr
        );
        let r = run(&["guess", "--password", PASSWORD, &enc], b"");
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.text().contains(&want), "{}", r.text());
    }
}

#[test]
fn decode_prints_every_entry_as_text_and_json() {
    for (engine, dialect) in [
        ("godot3.2.3", Dialect::Godot3),
        ("godot4.4.1", Dialect::Godot4),
    ] {
        let text = std::fs::read_to_string(path(engine, "config.cfg")).unwrap();
        let cfg = ConfigFile::parse(&text, dialect).unwrap();
        for file in ["config.cfg", "config-encrypted.cfg"] {
            let r = run(
                &[
                    "decode",
                    "-f",
                    "json",
                    "--password",
                    PASSWORD,
                    &path(engine, file),
                ],
                b"",
            );
            assert_eq!(r.code, 0, "{}", r.stderr);
            let out = r.text();
            let lines: Vec<&str> = out.lines().collect();
            let entries: Vec<_> = cfg.all_entries().collect();
            assert_eq!(lines.len(), entries.len(), "{out}");
            for (line, (section, key, value)) in lines.iter().zip(entries) {
                let doc: serde_json::Value = serde_json::from_str(line).unwrap();
                assert_eq!(doc["section"], section);
                assert_eq!(doc["key"], key);
                assert_eq!(&json::from_json(&doc["value"]).unwrap(), value, "{line}");
            }
        }
        let r = run(&["decode", &path(engine, "config.cfg")], b"");
        assert_eq!(r.code, 0, "{}", r.stderr);
        let pos = match dialect {
            Dialect::Godot3 => "[player] pos=Vector2( 1, 2 )\n",
            _ => "[player] pos=Vector2(1, 2)\n",
        };
        assert!(r
            .text()
            .starts_with("[player] name=\"ann\"\n[player] hp=90\n"));
        assert!(r.text().contains(pos), "{}", r.text());
    }
}

#[test]
fn convert_writes_what_godot4_writes() {
    let g4 = std::fs::read(path("godot4.4.1", "config.cfg")).unwrap();
    let g3 = path("godot3.2.3", "config.cfg");
    let r = run(
        &["convert", "--from", "godot3", "--to", "godot4", &g3, "-"],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Godot 3's file, rewritten, is byte for byte the file Godot 4.4.1 saved from the same
    // set_value calls.
    assert!(r.stdout == g4, "{}", r.text());
    // Comments and order kept; the encrypted form stays encrypted, in Godot 4's layout.
    let dir = scratch("config-convert");
    let commented = dir.join("commented.cfg");
    let mut text = b"; written by the game\n".to_vec();
    text.extend_from_slice(&std::fs::read(&g3).unwrap());
    std::fs::write(&commented, &text).unwrap();
    let out = dir.join("out.cfg");
    let r = run(
        &[
            "convert",
            "--from",
            "godot3",
            "--to",
            "godot4",
            commented.to_str().unwrap(),
            out.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut want = b"; written by the game\n".to_vec();
    want.extend_from_slice(&g4);
    assert!(std::fs::read(&out).unwrap() == want);
    let enc = path("godot3.2.3", "config-encrypted.cfg");
    let out = dir.join("out-encrypted.cfg");
    let r = run(
        &[
            "convert",
            "--from",
            "godot3",
            "--to",
            "godot4",
            "--password",
            PASSWORD,
            &enc,
            out.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let file = std::fs::read(&out).unwrap();
    assert_eq!(
        encrypted::header(&file).unwrap().layout,
        EncryptedLayout::Godot4
    );
    assert!(encrypted::read(&file, &Key::password(PASSWORD)).unwrap() == g4);
}

#[test]
fn encode_writes_back_what_the_engine_saved() {
    for (engine, dialect) in [("godot3.2.3", "godot3"), ("godot4.4.1", "godot4")] {
        let file = path(engine, "config.cfg");
        let r = run(&["decode", "-f", "json", &file], b"");
        assert_eq!(r.code, 0, "{}", r.stderr);
        let back = run(&["encode", "-d", dialect], &r.stdout);
        assert_eq!(back.code, 0, "{}", back.stderr);
        // The engine's own `save` bytes, from the entries alone.
        assert!(
            back.stdout == std::fs::read(&file).unwrap(),
            "{engine}: {}",
            back.text()
        );
    }
    // A line that is not an entry is an error with its line number.
    let bad =
        b"{\"section\":\"a\",\"key\":\"b\",\"value\":{\"type\":\"Int\",\"value\":1}}\n{\"x\":1}\n";
    let r = run(&["encode", "-d", "godot4"], bad);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("line 2"), "{}", r.stderr);
}
