//! `gdvariant guess`: every engine-made file is attributed to the engine that wrote it (or
//! reported as ambiguous with that engine among the equals), with its framing.
#![cfg(feature = "cli")]

mod cli_util;
mod common;
use cli_util::*;
use common::*;
use gdvariant::framing::Framing;
use gdvariant::guess::{guess, Confidence};
use gdvariant::Dialect;

/// Counts per corpus of (right and sure, right but tied with another dialect).
fn check_corpus(dir: &str, dialect: Dialect) -> (usize, usize) {
    check_framed(dir, dialect, Framing::Bare)
}

/// [`check_corpus`] with each fixture framed as `framing` writes it (the engine's bytes
/// behind the engine's length prefix: what `store_var` and `put_var` send).
fn check_framed(dir: &str, dialect: Dialect, framing: Framing) -> (usize, usize) {
    let (mut sure, mut tied) = (0, 0);
    let mut bad = Mismatches::default();
    let fixtures = load(dir);
    for f in &fixtures {
        let bytes = match framing {
            Framing::Bare => f.bytes.clone(),
            _ => {
                let mut b = (f.bytes.len() as u32).to_le_bytes().to_vec();
                b.extend_from_slice(&f.bytes);
                b
            }
        };
        let g = guess(&bytes, None);
        let among = g
            .ties
            .iter()
            .any(|t| t.era.dialect == dialect && t.framing == framing);
        match g.confidence {
            Confidence::High if g.best.era.dialect == dialect && g.best.framing == framing => {
                sure += 1
            }
            Confidence::Ambiguous if among => tied += 1,
            _ => bad.push(&f.name, format!("{g}")),
        }
    }
    bad.check(fixtures.len());
    (sure, tied)
}

#[test]
fn every_godot4_fixture_is_guessed_godot4() {
    let (sure, tied) = check_corpus("godot4", Dialect::Godot4);
    println!("godot4: {sure} high confidence, {tied} ambiguous");
    assert!(sure > 100, "{sure}");
}

#[test]
fn every_godot3_fixture_is_guessed_godot3() {
    let (sure, tied) = check_corpus("godot3", Dialect::Godot3);
    println!("godot3: {sure} high confidence, {tied} ambiguous");
    assert!(sure > 100, "{sure}");
}

/// A save written with `store_var` is one value behind its length: never a confident bare
/// reading in another dialect (issue 14: a Godot 4.2 `store_var` save was read as bare Godot 3
/// values with high confidence).
#[test]
fn every_fixture_behind_a_store_var_prefix_is_guessed_with_it() {
    let framing = Framing::StoreVar { big_endian: false };
    for (dir, dialect) in [
        ("godot4", Dialect::Godot4),
        ("godot4.4", Dialect::Godot4),
        ("godot3", Dialect::Godot3),
        ("godot3/game", Dialect::Godot3),
    ] {
        let (sure, tied) = check_framed(dir, dialect, framing);
        println!("{dir} in store_var: {sure} high confidence, {tied} ambiguous");
        assert!(sure > 0, "{dir}");
    }
}

#[test]
fn engine_streams_are_guessed_with_their_framing() {
    let dir = fixtures().join("godot3/streams");
    for (name, framing) in [
        ("file_store_var_le.bin", Framing::STORE_VAR),
        (
            "file_store_var_be.bin",
            Framing::StoreVar { big_endian: true },
        ),
        ("stream_peer_buffer.bin", Framing::STORE_VAR),
        (
            "stream_peer_buffer_be.bin",
            Framing::StoreVar { big_endian: true },
        ),
        // PacketPeerStream's prefix is little-endian: the same bytes as store_var's.
        ("packet_peer_stream.bin", Framing::STORE_VAR),
        ("savegame.sav", Framing::STORE_VAR),
    ] {
        let g = guess(&std::fs::read(dir.join(name)).unwrap(), None);
        assert_eq!(g.confidence, Confidence::High, "{name}: {g}");
        assert_eq!(g.best.era.dialect, Dialect::Godot3, "{name}: {g}");
        assert_eq!(g.best.framing, framing, "{name}: {g}");
    }
}

#[test]
fn the_command_says_why_and_fails_on_noise() {
    let r = run(
        &[
            "guess",
            "tests/fixtures/godot3/streams/file_store_var_be.bin",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let t = r.text();
    assert!(
        t.contains("Godot 3") && t.contains("big-endian") && t.contains("high confidence"),
        "{t}"
    );
    assert!(t.contains("re-encode to exactly their bytes"), "{t}");
    assert!(t.contains("not Godot 4"), "{t}");
    let r = run(&["guess", "-"], b"this is not a Godot value, just text\n");
    assert_eq!(r.code, 1, "{}", r.text());
    assert!(r.text().contains("no dialect reads"), "{}", r.text());
}

#[test]
fn every_godot3_game_fixture_is_guessed_godot3() {
    let (sure, tied) = check_corpus("godot3/game", Dialect::Godot3);
    println!("godot3/game: {sure} high confidence, {tied} ambiguous");
    assert!(sure > 10, "{sure}");
}

/// A file larger than the sample: guessing reads its first MiB, a cut last frame is not held
/// against it, and `decode` with the guessed reading streams the whole file.
#[test]
fn large_files_are_guessed_from_their_start_and_decoded_whole() {
    let save = std::fs::read(fixtures().join("godot3/streams/savegame.sav")).unwrap();
    let copies = gdvariant::guess::SAMPLE / save.len() + 50;
    let big: Vec<u8> = save.repeat(copies);
    let path = scratch("guess_large").join("big.sav");
    std::fs::write(&path, &big).unwrap();
    let p = path.to_str().unwrap();
    let r = run(&["guess", p], b"");
    assert_eq!(r.code, 0, "{}", r.text());
    assert!(r.text().contains("high confidence"), "{}", r.text());
    assert!(
        r.text().contains(&format!("of {} bytes", big.len())),
        "{}",
        r.text()
    );
    let d = run(&["decode", "--format", "json", p], b"");
    assert_eq!(d.code, 0, "{}", d.stderr);
    assert_eq!(d.text().lines().count(), 6 * copies);
}

/// A store_var file whose one value is larger than the sample (issue 14: a 2 MB Godot 3 save
/// was answered "no reading fits"): the length prefix fits the file and the value reads
/// consistently up to the sample's end, so the guess names the reading and says the value
/// continues; `decode` with it reads the file whole. The value is an Array of engine-made
/// Godot 3 values (big_players.bin, written by Godot 3.2.3), framed as store_var frames it.
#[test]
fn a_value_larger_than_the_sample_is_guessed_from_its_prefix() {
    let element = std::fs::read(fixtures().join("godot3/big_players.bin")).unwrap();
    let count = 2 * gdvariant::guess::SAMPLE / element.len();
    let mut payload = vec![19, 0, 0, 0];
    payload.extend_from_slice(&(count as u32).to_le_bytes());
    for _ in 0..count {
        payload.extend_from_slice(&element);
    }
    let mut file = (payload.len() as u32).to_le_bytes().to_vec();
    file.extend_from_slice(&payload);
    let g = gdvariant::guess::guess(&file, None);
    assert_ne!(g.confidence, Confidence::None, "{g}");
    assert_eq!(g.best.era.dialect, Dialect::Godot3, "{g}");
    assert_eq!(g.best.framing, Framing::STORE_VAR, "{g}");
    assert!(g.best.continued, "{g}");
    assert!(g.to_string().contains("continues past"), "{g}");
    let path = scratch("guess_one_large_value").join("one.sav");
    std::fs::write(&path, &file).unwrap();
    let d = run(&["decode", "--format", "json", path.to_str().unwrap()], b"");
    assert_eq!(d.code, 0, "{}", d.stderr);
    assert_eq!(d.text().lines().count(), 1);
}

/// The deepest value the decoder accepts (1024 nested Arrays) is guessed on a thread with a
/// 2 MiB stack, as a library caller's would be: `guess` spawns no thread of its own.
#[test]
fn the_deepest_value_is_guessed_on_an_ordinary_stack() {
    let mut bytes = Vec::new();
    for _ in 0..1024 {
        bytes.extend_from_slice(&[28, 0, 0, 0, 1, 0, 0, 0]);
    }
    bytes.extend_from_slice(&[0, 0, 0, 0]);
    let g = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || guess(&bytes, Some(Framing::Bare)))
        .unwrap()
        .join()
        .expect("guess overflowed a 2 MiB stack");
    assert!(g.best.complete(1024 * 8 + 4), "{g}");
}
