//! `text::encode_text_many` (what `encode --from text` runs: a top-level container encoded
//! element by element as it is parsed) against parsing the values whole and encoding them:
//! same bytes, same refusals, same text errors, on the cases where the element-by-element
//! pass must give up (repeated keys under the engine's key rule, nesting limits, errors).

use gdvariant::framing::frame_into;
use gdvariant::framing::Framing;
use gdvariant::text::{encode_text_many, from_text_many};
use gdvariant::{Dialect, EncodeOptions, Format};

/// Checks `encode_text_many` on `text` against every value parsed, then each framed in turn
/// until the first the encoder refuses, for both dialects and framings.
fn agree(text: &str) {
    for dialect in [Dialect::Godot3, Dialect::Godot4] {
        for framing in [Framing::Bare, Framing::StoreVar { big_endian: false }] {
            let mut format = Format::new(dialect);
            format.framing = framing;
            agree_in(text, &format);
        }
    }
}

fn agree_in(text: &str, format: &Format) {
    let mut streamed = vec![0xee];
    let got = encode_text_many(text, format, &mut streamed);
    assert_eq!(streamed[0], 0xee, "what was in the buffer stays");
    let streamed = &streamed[1..];
    let want_values = from_text_many(text, format.dialect);
    match (got, want_values) {
        (Err(e), Err(want)) => assert_eq!(e, want, "text error of {text:?}"),
        (Ok(result), Ok(values)) => {
            let mut want = Vec::new();
            let mut refused = None;
            for (i, v) in values.iter().enumerate() {
                if let Err(e) = frame_into(&mut want, v, format) {
                    refused = Some((i, e));
                    break;
                }
            }
            assert_eq!(result.err(), refused, "refusal of {text:?} ({format:?})");
            assert!(streamed == want, "bytes of {text:?} ({format:?})");
        }
        (got, want) => panic!("{text:?}: streamed {got:?}, whole {want:?}"),
    }
}

/// `{"k0": 0, …}` with `n` entries, the key at `repeat` (if any) spelled as the first one's.
fn dict(n: usize, repeat: Option<usize>, key: impl Fn(usize) -> String) -> String {
    let entries: Vec<String> = (0..n)
        .map(|i| {
            let k = if Some(i) == repeat { key(0) } else { key(i) };
            format!("{k}: {i}")
        })
        .collect();
    format!("{{{}}}", entries.join(", "))
}

#[test]
fn big_and_small_containers_give_the_whole_parses_bytes() {
    for n in [0, 1, 2, 15, 16, 17, 100, 5000] {
        agree(&dict(n, None, |i| format!("\"key_{i}\"")));
        let items: Vec<String> = (0..n).map(|i| format!("Vector2({i}, 1.5)")).collect();
        agree(&format!("[{}]", items.join(", ")));
    }
    // Trailing commas, nested containers, several values one after another, blanks.
    agree("{\"a\": [1, 2,], \"b\": {\"c\": {}},}\n[ ]\n{ }\n\"x\" 7 [[[]]]");
}

#[test]
fn a_repeated_key_keeps_the_engines_rule() {
    // The repeat (last value at the first key's place) in every place of small and big
    // dictionaries: the bytes must be the whole parse's, whose entries merged.
    for n in [2, 3, 16, 17, 40] {
        for at in 1..n {
            agree(&dict(n, Some(at), |i| format!("\"k{i}\"")));
            agree(&dict(n, Some(at), |i| format!("{i}")));
        }
    }
    // Keys the engine's rule makes one: every NaN, 0.0 and -0.0; and keys it keeps apart
    // although they print alike: 1 and 1.0, "a" and &"a", dictionaries (Godot 3: by
    // identity), arrays of equal contents (equal).
    for keys in [
        "nan: 1, nan: 2",
        "0.0: 1, -0.0: 2",
        "1: 1, 1.0: 2",
        "\"a\": 1, &\"a\": 2",
        "{}: 1, {}: 2",
        "[1]: 1, [1]: 2",
        "Vector2(1, 2): 1, Vector2(1, 2.0): 2",
    ] {
        agree(&format!("{{{keys}}}"));
        agree(&format!("[{{{keys}}}]"));
    }
}

#[test]
fn refusals_and_errors_are_the_whole_parses() {
    for text in [
        // A value the encoder refuses, first, in the middle, last, inside the container.
        "{\"a\": Object(Node, \"x\": 1)}",
        "[1, 2, Object(Node, \"x\": 1), 3]\n4",
        "5\n[1, 2, Object(Node, \"x\": 1)]\n[7]",
        // A StringName, which Godot 3 cannot hold.
        "{&\"a\": 1, \"b\": 2}",
        // Text errors inside the container, after it and in a later value.
        "{\"a\": 1, \"b\" 2}",
        "[1, 2 3]",
        "{\"a\": 1} }",
        "[1, 2]\n[3, ",
        "{\"a\": Vector2(1)}",
    ] {
        agree(text);
    }
}

#[test]
fn nesting_limits_count_the_container_being_streamed() {
    // The text parser's limit: 1024 open containers, the streamed one among them.
    for depth in [1022, 1023, 1024, 1025] {
        let text = format!("[{}{}]", "[".repeat(depth - 1), "]".repeat(depth - 1));
        agree(&text);
        let text = format!(
            "{{\"k\": {}{}}}",
            "[".repeat(depth - 1),
            "]".repeat(depth - 1)
        );
        agree(&text);
    }
    // The encoder's limit, set low: elements are one level inside the container.
    for max_depth in [0, 1, 2, 3] {
        for text in [
            "[1, [2], [[3]]]",
            "{\"a\": {\"b\": {\"c\": 1}}}",
            "[]",
            "{}",
        ] {
            let mut format = Format::new(Dialect::Godot4);
            format.encode = EncodeOptions {
                max_depth: Some(max_depth),
                ..EncodeOptions::default()
            };
            agree_in(text, &format);
        }
    }
}

#[test]
fn typed_and_spelled_out_containers_are_read_whole() {
    for text in [
        "Dictionary[String, int]({\"a\": 1, \"b\": 2})",
        "Array[int]([1, 2, 3])",
        "Dictionary({\"a\": 1})",
        "PackedInt32Array(1, 2)",
    ] {
        let mut format = Format::new(Dialect::Godot4);
        agree_in(text, &format);
        format.framing = Framing::StoreVar { big_endian: true };
        agree_in(text, &format);
    }
}

/// Not only the same as the whole parse: the bytes the engine's rule gives, spelled out. A
/// repeated key keeps its first place and takes the last value (`dict[key] = value`,
/// core/variant/dictionary.cpp), so `{"a": 1, "b": 2, "a": 3}` is `{"a": 3, "b": 2}` in Godot 4
/// bytes; an Array streams its items as `var_to_bytes` lays them out.
#[test]
fn the_bytes_are_the_engines_layout() {
    let format = Format::new(Dialect::Godot4);
    let key = |c: u8| [4, 0, 0, 0, 1, 0, 0, 0, c, 0, 0, 0];
    let int = |i: u8| [2, 0, 0, 0, i, 0, 0, 0];
    let mut want = vec![27, 0, 0, 0, 2, 0, 0, 0];
    want.extend(key(b'a'));
    want.extend(int(3));
    want.extend(key(b'b'));
    want.extend(int(2));
    want.extend([28, 0, 0, 0, 2, 0, 0, 0]);
    want.extend(int(7));
    want.extend(key(b'x'));
    let mut out = Vec::new();
    encode_text_many(
        "{\"a\": 1, \"b\": 2, \"a\": 3}\n[7, \"x\"]",
        &format,
        &mut out,
    )
    .expect("parses")
    .expect("encodes");
    assert_eq!(out, want);
}
