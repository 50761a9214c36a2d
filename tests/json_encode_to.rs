//! `json::encode_values_to` (what `encode --from json` runs) against `encode_values_on` frame by frame: the same bytes, errors and value numbers, on any number of threads.

mod common;

use gdvariant::framing::{frames, Framing};
use gdvariant::json::{self, to_json, to_json_string, EncodeToError};
use gdvariant::{Format, Variant};

fn format() -> Format {
    Format::godot3().framing(Framing::STORE_VAR)
}

/// The savegame fixture's values and their JSON Lines.
fn savegame() -> (Vec<u8>, Vec<Variant>, String) {
    let sav = std::fs::read(common::fixtures().join("godot3/streams/savegame.sav")).unwrap();
    let values: Vec<Variant> = frames(&sav, &format()).collect::<Result<_, _>>().unwrap();
    let mut lines = String::new();
    for v in &values {
        lines.push_str(&to_json_string(v));
        lines.push('\n');
    }
    (sav, values, lines)
}

/// What `encode --from json` wrote before `encode_values_to`: `encode_values_on`'s frames in
/// order up to its first error, and that error as `encode_values_to` reports it.
fn one_by_one(text: &[u8]) -> (Vec<u8>, Result<usize, EncodeToError>) {
    let mut out = Vec::new();
    for (i, r) in json::encode_values_on(text, 1, &format()).enumerate() {
        match r {
            Ok(Ok(frame)) => out.extend_from_slice(&frame),
            Ok(Err(error)) => {
                return (
                    out,
                    Err(EncodeToError::Encode {
                        value: i + 1,
                        error,
                    }),
                )
            }
            Err(e) => return (out, Err(EncodeToError::Json(e))),
        }
    }
    let n = json::encode_values_on(text, 1, &format()).count();
    (out, Ok(n))
}

/// `encode_values_to` on 1, 2, 3 and 8 threads writes `one_by_one`'s bytes and ends as it
/// does; gives the bytes.
fn same_as_one_by_one(text: &[u8], what: &str) -> Vec<u8> {
    let (want, want_end) = one_by_one(text);
    for threads in [1, 2, 3, 8] {
        let mut out = Vec::new();
        let end = json::encode_values_to(text, threads, &format(), &mut out);
        // Compared whole, not printed: a difference would print megabytes.
        assert!(out == want, "{what}, {threads} threads: other bytes");
        match (&end, &want_end) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{what}, {threads} threads"),
            (Err(EncodeToError::Json(a)), Err(EncodeToError::Json(b))) => {
                assert_eq!(a, b, "{what}, {threads} threads")
            }
            (
                Err(EncodeToError::Encode { value: a, error: x }),
                Err(EncodeToError::Encode { value: b, error: y }),
            ) => assert_eq!((a, x), (b, y), "{what}, {threads} threads"),
            _ => panic!("{what}, {threads} threads: {end:?} vs {want_end:?}"),
        }
    }
    want
}

/// Megabytes of the savegame's lines: the engine's bytes back, whatever the thread count, and
/// the same with a pretty document, blank lines and lines only the serde reader takes between
/// them (each putting the chunks read ahead back for the scan).
#[test]
fn json_lines_are_the_engines_savegame_on_any_threads() {
    let (sav, values, lines) = savegame();
    let copies = 600;
    let text = lines.repeat(copies);
    assert!(text.len() > 4 << 20);
    let out = same_as_one_by_one(text.as_bytes(), "plain");
    assert!(out == sav.repeat(copies), "not the engine's savegame bytes");

    let pretty = serde_json::to_string_pretty(&to_json(&values[1])).unwrap();
    // Keys in another order and spaces: not our writer's layout, read by the serde reader.
    let other = r#"{ "value": 7, "type": "Int" }"#;
    let mut mixed = String::new();
    for i in 0..copies {
        mixed.push_str(&lines);
        match i % 97 {
            0 => mixed.push_str(&pretty),
            1 => mixed.push_str("\n\n   \n"),
            2 => mixed.push_str(other),
            3 => mixed.push_str(&format!("{other} {other}")),
            _ => continue,
        }
        mixed.push('\n');
    }
    // The last line without a line feed.
    mixed.push_str(other);
    let out = same_as_one_by_one(mixed.as_bytes(), "mixed");
    assert!(out.len() > sav.len() * copies);
}

/// A value the encoder refuses deep in a stream of many chunks: its number, and the frames
/// of the values before it and nothing after, on any number of threads; likewise a line that
/// is no JSON (the serde reader's error, with its document and line).
#[test]
fn an_error_in_the_middle_stops_the_writing_there() {
    let (_, values, lines) = savegame();
    let inexact = to_json_string(&Variant::Vector2(gdvariant::math::Vector2 {
        x: 0.1,
        y: 0.0,
    }));
    for (bad, copies) in [
        (inexact.as_str(), 300),
        ("{\"type\":\"Int\",\"value\":\"x\"}", 450),
    ] {
        let mut text = lines.repeat(copies);
        text.push_str(bad);
        text.push('\n');
        text.push_str(&lines.repeat(200));
        let (out, end) = one_by_one(text.as_bytes());
        match end {
            Err(EncodeToError::Encode { value, .. }) => {
                assert_eq!(value, values.len() * copies + 1)
            }
            Err(EncodeToError::Json(e)) => assert!(
                e.path.starts_with(&format!(
                    "document {n} (from line {n})",
                    n = values.len() * copies + 1
                )),
                "{e}"
            ),
            r => panic!("{bad}: {r:?}"),
        }
        assert!(out == same_as_one_by_one(text.as_bytes(), bad));
    }
}

/// A line longer than a chunk (a 3 MB byte array) is read whole, between ordinary lines.
#[test]
fn a_line_longer_than_a_chunk_is_read_whole() {
    let (_, _, lines) = savegame();
    let big = Variant::PackedByteArray((0..3_000_000u32).map(|i| i as u8).collect());
    let text = format!("{lines}{}\n{lines}", to_json_string(&big));
    same_as_one_by_one(text.as_bytes(), "long line");
}

/// A writer that fails after some bytes: its error, not a value's.
#[test]
fn the_writers_error_is_returned() {
    struct Full(usize);
    impl std::io::Write for Full {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            if self.0 < b.len() {
                return Err(std::io::Error::other("full"));
            }
            self.0 -= b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let (_, _, lines) = savegame();
    let text = lines.repeat(400);
    for threads in [1, 2] {
        match json::encode_values_to(text.as_bytes(), threads, &format(), Full(1 << 20)) {
            Err(EncodeToError::Write(e)) => assert_eq!(e.to_string(), "full"),
            r => panic!("{threads} threads: {r:?}"),
        }
    }
}
