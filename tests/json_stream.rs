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
