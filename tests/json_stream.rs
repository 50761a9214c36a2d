//! The streaming JSON read (`json::from_json_str`, `json::read_values`) against the tree reader (`json::from_json` over `json::parse_document`).

use gdvariant::json;

/// The tree reader's answer, the reference the streaming read must match.
fn tree(text: &str) -> Result<gdvariant::Variant, json::JsonError> {
    json::from_json(&json::parse_document(text)?)
}

#[test]
fn value_before_type_and_typed_keys_after_value_read_as_the_canonical_order() {
    let canonical =
        r#"{"type":"Array","element_type":{"builtin":"Int"},"value":[{"type":"Int","value":1}]}"#;
    let moved =
        r#"{"value":[{"value":1,"type":"Int"}],"type":"Array","element_type":{"builtin":"Int"}}"#;
    let after = r#"{"type":"Dictionary","value":[[{"type":"String","value":"a"},{"type":"Int","value":2}]],"key_type":{"builtin":"String"},"value_type":{"builtin":"Int"}}"#;
    let before = r#"{"type":"Dictionary","key_type":{"builtin":"String"},"value_type":{"builtin":"Int"},"value":[[{"type":"String","value":"a"},{"type":"Int","value":2}]]}"#;
    let a = json::from_json_str(canonical).unwrap();
    assert!(a.same(&json::from_json_str(moved).unwrap()));
    assert!(a.same(&tree(moved).unwrap()));
    let d = json::from_json_str(before).unwrap();
    assert!(d.same(&json::from_json_str(after).unwrap()));
    assert!(d.same(&tree(after).unwrap()));
}

/// A big Dictionary with one bad value deep inside, optionally with more after it.
fn big(bad_at: usize, tail: &str) -> String {
    let entries: Vec<String> = (0..80_000)
        .map(|i| {
            let v = if i == bad_at {
                r#"{"type":"Int","value":"x"}"#.to_string()
            } else {
                format!(r#"{{"type":"Int","value":{i}}}"#)
            };
            format!(r#"[{{"type":"String","value":"key_{i}"}},{v}]"#)
        })
        .collect();
    format!(
        r#"{{"type":"Dictionary","value":[{}]{tail}}}"#,
        entries.join(",")
    )
}

#[test]
fn an_error_inside_a_big_streamed_dictionary_has_the_tree_readers_path() {
    let text = big(70_000, "");
    let e = json::from_json_str(&text).unwrap_err();
    assert_eq!(e.path, "$.value[70000][1].value");
    assert_eq!(Err(e.clone()), tree(&text));
    let from_stream = json::read_values(text.as_bytes())
        .next()
        .unwrap()
        .unwrap_err();
    assert!(
        from_stream.path.ends_with("$.value[70000][1].value"),
        "{from_stream}"
    );
    // A bad element type after the value is checked first by the tree reader.
    let text = big(70_000, r#","key_type":{"builtin":"Nope"}"#);
    assert_eq!(
        json::from_json_str(&text).unwrap_err(),
        tree(&text).unwrap_err()
    );
    // A syntax error after the mistake wins, as in the tree.
    let text = big(10, "]");
    assert_eq!(
        json::from_json_str(&text).unwrap_err(),
        tree(&text).unwrap_err()
    );
}

/// A reader that hands over one byte per read, so the document splitter meets every buffer
/// boundary: inside strings, right after an escape, between brackets.
struct OneByte<'a>(&'a [u8]);

impl std::io::Read for OneByte<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        match (self.0.split_first(), out.first_mut()) {
            (Some((&b, rest)), Some(slot)) => {
                *slot = b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

#[test]
fn documents_split_the_same_whatever_the_reads_and_count_lines_across_them() {
    // Escaped quotes and backslashes before brackets in strings, blank lines, a document
    // split over lines; the third is bad on its fourth line of the input.
    let docs = [
        r#"{"type":"Int","value":1}"#,
        r#"{"type":"String","value":"a\\\"]}[{\\"}"#,
        "{\"type\":\"Int\",\n\"value\":\"x\"}",
    ];
    let text = format!("\n\n{}\n{} {}\n", docs[0], docs[1], docs[2]);
    for (name, got) in [
        (
            "whole",
            json::read_values(text.as_bytes()).collect::<Vec<_>>(),
        ),
        (
            "byte by byte",
            json::read_values(OneByte(text.as_bytes())).collect(),
        ),
    ] {
        assert_eq!(got.len(), 3, "{name}");
        for (doc, got) in docs.iter().zip(&got).take(2) {
            assert!(
                got.as_ref().unwrap().same(&tree(doc).unwrap()),
                "{name}: {doc}"
            );
        }
        let e = got[2].as_ref().unwrap_err();
        assert_eq!(e.path, "document 3 (from line 4): $.value", "{name}");
        assert_eq!(Err(e.message.clone()), tree(docs[2]).map_err(|e| e.message));
    }
    // Too deep is refused at the bracket that goes past the bound, with its line.
    let deep = format!("\n{}", "[".repeat(json::MAX_JSON_DEPTH + 1));
    let e = json::read_values(OneByte(deep.as_bytes()))
        .next()
        .unwrap()
        .unwrap_err();
    assert_eq!(e.path, "document 1, line 2");
}

/// String leaves are built from the parser's text and type names looked up in a table; every
/// other shape of leaf object still reads as the tree reader reads it.
#[test]
fn leaf_objects_of_every_shape_read_as_the_tree_reader_reads_them() {
    let cases = [
        r#"{"type":"String","value":"a"}"#,
        r#"{"type":"StringName","value":"n"}"#,
        r#"{"type":"string","value":"lower-case type name"}"#,
        r#"{"type":"STRINGNAME","value":"upper"}"#,
        r#"{"type":"String","value":"a","value":"the last one counts"}"#,
        r#"{"type":"String","value":5}"#,
        r#"{"type":"String","value":[1]}"#,
        r#"{"type":"String","value":{"x":1}}"#,
        r#"{"type":"String","value":null}"#,
        r#"{"type":"String"}"#,
        r#"{"type":"String","value":"7","type":"Int"}"#,
        r#"{"type":"String","value":"a","type":"StringName"}"#,
        r#"{"type":"Int","value":"a","type":"String"}"#,
        r#"{"type":"Int","value":-3,"extra":true}"#,
        r#"{"type":"Float","value":1.5}"#,
        r#"{"type":"Nope","value":1}"#,
        r#"{"type":5,"value":1}"#,
        r#"{"type":["String"],"value":"a"}"#,
        r#"{"type":{"a":1},"value":"a"}"#,
        r#"{"value":"a","type":"String"}"#,
        r#"[{"type":"String","value":"in an array"}]"#,
    ];
    for text in cases {
        match (json::from_json_str(text), tree(text)) {
            (Ok(a), Ok(b)) => assert!(a.same(&b), "{text}: {a:?} vs {b:?}"),
            (a, b) => assert_eq!(a, b, "{text}"),
        }
    }
    // The ones that must read, read as what they say.
    let s = json::from_json_str(r#"{"type":"string","value":"x"}"#).unwrap();
    assert_eq!(s, gdvariant::Variant::String("x".into()));
    let n = json::from_json_str(r#"{"type":"String","value":"7","type":"Int"}"#).unwrap();
    assert_eq!(n, gdvariant::Variant::Int(7));
}
