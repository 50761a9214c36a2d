//! Replays of debugger sessions recorded live (`gdvariant debug listen --record`, Godot 3.2.3
//! and 4.3, fixtures in tests/fixtures/debugger/): they read to the messages the live session
//! showed, and every truncation and every corrupted byte of them is read without a panic,
//! keeping the messages before the damage.

use gdvariant::debugger::capture::{self, Direction};
use gdvariant::debugger::{Message, MessageError, Protocol, Session};
use std::path::Path;
use std::process::Command;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/debugger");

fn read_all(bytes: Vec<u8>) -> Vec<Result<Message, MessageError>> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut s = Session::from_io(std::io::Cursor::new(bytes), tokio::io::sink(), None);
        let mut out = Vec::new();
        while let Some(m) = s.next().await {
            out.push(m);
        }
        out
    })
}

fn from_game(name: &str) -> Vec<u8> {
    capture::read(&Path::new(FIXTURES).join(name))
        .unwrap()
        .into_iter()
        .filter(|r| r.direction == Direction::FromGame)
        .flat_map(|r| r.bytes)
        .collect()
}

#[test]
fn replays_print_what_the_live_sessions_printed() {
    for name in ["godot3.2.3-session", "godot4.3-session"] {
        let out = Command::new(env!("CARGO_BIN_EXE_gdvariant"))
            .args(["debug", "replay"])
            .arg(Path::new(FIXTURES).join(format!("{name}.gdvdbg")))
            .output()
            .unwrap();
        assert!(out.status.success());
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{name}");
        let live =
            std::fs::read_to_string(Path::new(FIXTURES).join(format!("{name}.txt"))).unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), live, "{name}");
    }
}

#[test]
fn recorded_sessions_hold_the_expected_messages() {
    let g3 = read_all(from_game("godot3.2.3-session.gdvdbg"));
    let g3: Vec<Message> = g3.into_iter().map(Result::unwrap).collect();
    let count = |f: fn(&Message) -> bool, ms: &[Message]| ms.iter().filter(|m| f(m)).count();
    assert_eq!(count(|m| matches!(m, Message::SceneTree(_)), &g3), 1);
    assert_eq!(count(|m| matches!(m, Message::InspectObject(_)), &g3), 1);
    assert_eq!(count(|m| matches!(m, Message::DebugEnter(_)), &g3), 2);
    assert_eq!(count(|m| *m == Message::DebugExit, &g3), 2);
    let g4 = read_all(from_game("godot4.3-session.gdvdbg"));
    let g4: Vec<Message> = g4.into_iter().map(Result::unwrap).collect();
    assert!(matches!(g4[0], Message::SetPid(_)));
    assert_eq!(count(|m| matches!(m, Message::SceneTree(_)), &g4), 1);
    assert_eq!(count(|m| matches!(m, Message::DebugEnter(_)), &g4), 1);
}

/// Cut at every byte: what is before the cut reads as before, and the cut is one error at most.
#[test]
fn every_truncation_keeps_the_messages_before_it() {
    for name in ["godot3.2.3-session.gdvdbg", "godot4.3-session.gdvdbg"] {
        let bytes = from_game(name);
        let full: Vec<Message> = read_all(bytes.clone())
            .into_iter()
            .map(Result::unwrap)
            .collect();
        let mut last = 0;
        for cut in 0..bytes.len() {
            let got = read_all(bytes[..cut].to_vec());
            let (ok, errors): (Vec<_>, Vec<_>) = got.into_iter().partition(Result::is_ok);
            let ok: Vec<Message> = ok.into_iter().map(Result::unwrap).collect();
            assert!(errors.len() <= 1, "{name} cut at {cut}: {errors:?}");
            assert_eq!(ok[..], full[..ok.len()], "{name} cut at {cut}");
            assert!(ok.len() >= last, "{name} cut at {cut}");
            last = ok.len();
        }
    }
}

/// Corrupt each byte in turn (three ways): the session reads to its end, never panics, and
/// each message or error uses up input (no error loop).
#[test]
fn every_corrupted_byte_is_survived() {
    for name in ["godot3.2.3-session.gdvdbg", "godot4.3-session.gdvdbg"] {
        let bytes = from_game(name);
        for at in 0..bytes.len() {
            for flip in [0xff_u8, 0x80, 0x01] {
                let mut bad = bytes.clone();
                bad[at] ^= flip;
                let got = read_all(bad);
                assert!(!got.is_empty(), "{name} byte {at}");
                // A damaged length prefix may re-slice the rest of the stream into many bad
                // frames, but every message or error uses up at least one 4-byte prefix.
                assert!(got.len() <= bytes.len() / 4 + 1, "{name} byte {at}");
            }
        }
    }
    // The protocol is told from the first frame; a Godot 3 stream stays Godot 3.
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut s = Session::from_io(
            std::io::Cursor::new(from_game("godot3.2.3-session.gdvdbg")),
            tokio::io::sink(),
            None,
        );
        s.next().await;
        assert_eq!(s.protocol(), Some(Protocol::Godot3));
    });
}
