//! Bad specs are rejected with every error at once, each naming the file and the YAML key path.

use gdvariant_codegen::lower::{lower_texts, SpecError};

const COMMON: &str = r#"
kinds:
  - {name: Nil, model: none, model_ref: none, description: "null"}
  - {name: Int, model: i64, model_ref: i64, description: "int"}
  - {name: Vector2, description: "vector", fields: [{name: x, type: real}, {name: y, type: real}]}
features:
  - {name: TypedArray, description: "typed"}
"#;

/// A valid dialect whose `types:` section is `types`.
fn dialect(types: &str) -> String {
    format!(
        r#"
dialect: bad
title: Bad
oldest: "1.0"
newest: "2.0"
text_spacing: tight
eras:
  - {{since: "1.0", count: 3}}
header:
  type_mask: 0xFF
flags:
  - {{name: FLAG_64, bits: [16, 16]}}
types:
{types}"#
    )
}

const NIL: &str = "  Nil: {name: NIL, ids: [{since: \"1.0\", id: 0}], fields: []}\n";
const INT: &str = "  Int: {name: INT, ids: [{since: \"1.0\", id: 1}], fields: [{name: value, offset: 4, len: 4, type: i32}]}\n";
const VECTOR2: &str = r#"  Vector2:
    name: VECTOR2
    ids: [{since: "1.0", id: 2}]
    fields:
      - {name: x, offset: 4, len: 4, type: real, accessor: x}
      - {name: y, offset: 8, len: 4, type: real, accessor: y}
"#;

fn errors_of(yaml: &str) -> Vec<SpecError> {
    match lower_texts(("spec/common.yaml", COMMON), &[("spec/bad.yaml", yaml)]) {
        Ok(_) => panic!("the spec was accepted"),
        Err(e) => e.0,
    }
}

fn has(errs: &[SpecError], path: &str, message: &str) -> bool {
    errs.iter()
        .any(|e| e.file == "spec/bad.yaml" && e.path == path && e.message.contains(message))
}

#[test]
fn the_valid_base_is_accepted() {
    let d = dialect(&format!("{NIL}{INT}{VECTOR2}"));
    lower_texts(("spec/common.yaml", COMMON), &[("spec/bad.yaml", &d)])
        .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn overlapping_fields_name_both_and_the_bytes() {
    let bad = VECTOR2.replace("offset: 8, len: 4", "offset: 6, len: 4");
    let errs = errors_of(&dialect(&format!("{NIL}{INT}{bad}")));
    assert!(
        has(
            &errs,
            "types.Vector2.fields[1]",
            "field `y` overlaps `x` (bytes 6..8)"
        ),
        "{errs:#?}"
    );
}

#[test]
fn gaps_are_reported() {
    let bad = VECTOR2.replace("offset: 8, len: 4", "offset: 12, len: 4");
    let errs = errors_of(&dialect(&format!("{NIL}{INT}{bad}")));
    assert!(
        has(
            &errs,
            "types.Vector2.fields[1]",
            "gap between `x` and `y` (bytes 8..12)"
        ),
        "{errs:#?}"
    );
}

#[test]
fn ids_must_be_unique_and_cover_the_era() {
    let bad_int = INT.replace("id: 1", "id: 0");
    let errs = errors_of(&dialect(&format!("{NIL}{bad_int}{VECTOR2}")));
    assert!(
        has(&errs, "types.Nil.ids", "id 0 used by both `Int` and `Nil`")
            || has(&errs, "types.Int.ids", "id 0 used by both"),
        "{errs:#?}"
    );
    assert!(
        has(&errs, "eras[0]", "era 1.0 has no type for id(s) 1"),
        "{errs:#?}"
    );
}

#[test]
fn wide_and_narrow_must_agree() {
    let flagged = VECTOR2.replace(
        "    fields:",
        "    flags: [{flag: FLAG_64, since: \"1.0\"}]\n    fields:",
    );
    let bad = flagged
        .replace("accessor: x}", "accessor: x, wide: {offset: 4, len: 8}}")
        .replace("accessor: y}", "accessor: y, wide: {offset: 12, len: 4}}");
    let errs = errors_of(&dialect(&format!("{NIL}{INT}{bad}")));
    assert!(
        has(
            &errs,
            "types.Vector2.fields[1]",
            "must be 4 bytes narrow and 8 wide"
        ),
        "{errs:#?}"
    );
}

#[test]
fn repeated_elements_must_add_up() {
    let arr = r#"  Int:
    name: INT
    ids: [{since: "1.0", id: 1}]
    fields:
      - {name: count, offset: 4, len: 4, type: u32}
      - name: items
        offset: 8
        len: count*4
        type: repeat
        count: count
        element:
          - {name: a, offset: 0, len: 4, type: u32}
          - {name: b, offset: 4, len: 4, type: u32}
"#;
    let errs = errors_of(&dialect(&format!("{NIL}{arr}{VECTOR2}")));
    assert!(
        has(
            &errs,
            "types.Int.fields[1]",
            "length `4*count` does not add up: count elements of 8 bytes make `8*count`"
        ),
        "{errs:#?}"
    );
}

#[test]
fn every_error_is_reported_at_once() {
    let bad_int = INT.replace("type: i32", "type: int32").replace(
        "fields:",
        "flags: [{flag: FLAG_128, since: \"1.0\"}], fields:",
    );
    let bad_vec = VECTOR2
        .replace("accessor: y}", "accessor: \"y.\"}")
        .replace("\"1.0\", id: 2", "\"1.x\", id: 2");
    let errs = errors_of(&dialect(&format!("{NIL}{bad_int}{bad_vec}")));
    assert!(
        has(&errs, "types.Int.fields[0]", "unknown field type `int32`"),
        "{errs:#?}"
    );
    assert!(
        has(&errs, "types.Int.flags[0]", "unknown flag `FLAG_128`"),
        "{errs:#?}"
    );
    assert!(
        has(
            &errs,
            "types.Vector2.fields[1]",
            "accessor `y.` is not a Rust field path"
        ),
        "{errs:#?}"
    );
    assert!(
        has(&errs, "types.Vector2.ids[0]", "invalid version `1.x`"),
        "{errs:#?}"
    );
    assert!(errs.len() >= 4);
}

#[test]
fn fixed_layouts_must_agree_across_dialects() {
    let a = dialect(&format!("{NIL}{INT}{VECTOR2}"));
    let b = a
        .replace("dialect: bad", "dialect: other")
        .replace("{name: y, offset: 8", "{name: why, offset: 8");
    let err = lower_texts(
        ("spec/common.yaml", COMMON),
        &[("spec/bad.yaml", &a), ("spec/other.yaml", &b)],
    )
    .expect_err("differs");
    let e = err
        .0
        .iter()
        .find(|e| e.file == "spec/other.yaml")
        .expect("names the second file");
    assert_eq!(e.path, "types.Vector2.fields[1]");
    assert!(
        e.message
            .contains("fixed layout of `Vector2` differs from spec/bad.yaml"),
        "{e}"
    );
}

#[test]
fn errors_print_like_the_compiler() {
    let bad = VECTOR2.replace("offset: 8, len: 4", "offset: 6, len: 4");
    let errs = errors_of(&dialect(&format!("{NIL}{INT}{bad}")));
    let text = errs
        .iter()
        .find(|e| e.path == "types.Vector2.fields[1]")
        .expect("found")
        .to_string();
    assert_eq!(
        text,
        "error: field `y` overlaps `x` (bytes 6..8)\n  --> spec/bad.yaml: types.Vector2.fields[1]"
    );
}

#[test]
fn wire_fields_must_be_the_struct_components() {
    let bad = VECTOR2.replace("accessor: y", "accessor: x");
    let errs = errors_of(&dialect(&format!("{NIL}{INT}{bad}")));
    assert!(
        has(
            &errs,
            "types.Vector2.fields",
            "the fields of fixed `Vector2` are not its struct's components in order"
        ),
        "{errs:?}"
    );
}

#[test]
fn struct_fields_name_scalars_or_earlier_fixed_kinds() {
    let common = COMMON.replace("{name: y, type: real}", "{name: y, type: Vector9}");
    let d = dialect(&format!("{NIL}{INT}{VECTOR2}"));
    let err = lower_texts(("spec/common.yaml", &common), &[("spec/bad.yaml", &d)])
        .expect_err("unknown field type");
    assert!(
        err.0.iter().any(|e| e.file == "spec/common.yaml"
            && e.path == "kinds[2].fields[1]"
            && e.message
                .contains("`Vector9` is not real, i32, f32 or a fixed kind declared above")),
        "{err}"
    );
}

#[test]
fn a_kind_says_how_the_value_enums_hold_it() {
    let common = COMMON.replace("model: i64, model_ref: i64, ", "");
    let d = dialect(&format!("{NIL}{INT}{VECTOR2}"));
    let err =
        lower_texts(("spec/common.yaml", &common), &[("spec/bad.yaml", &d)]).expect_err("no model");
    assert!(
        err.0
            .iter()
            .any(|e| e.path == "kinds[1]" && e.message.contains("`model`")),
        "{err}"
    );
}
