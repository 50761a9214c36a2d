//! The JSON reader of our writer's layout (`json/fast.rs`) against the serde reader it stands in for: it must take everything our writer writes, and where it takes anything else, read what the serde reader reads.

mod common;

use gdvariant::json::{self, readers_apart, to_json, to_json_string};
use gdvariant::{decode, DecodeOptions, Dialect, Variant};
use proptest::prelude::*;

/// `text` is our writer's: the fast reader takes it, the serde reader agrees bit for bit,
/// and both give back `v`.
fn taken(text: &str, v: &Variant, what: &str) {
    let (fast, serde) = readers_apart(text);
    let fast =
        fast.unwrap_or_else(|| panic!("{what}: the fast reader gave up on our JSON: {text}"));
    let serde = serde.unwrap_or_else(|e| panic!("{what}: the serde reader refused: {e}"));
    assert!(
        fast.same(&serde),
        "{what}: the readers differ: {fast:?} vs {serde:?}"
    );
    assert!(fast.same(v), "{what}: the value changed: {fast:?} vs {v:?}");
}

/// Where the fast reader takes `text`, the serde reader reads the same; where the serde
/// reader refuses it, the fast reader gives up (so that every error is the serde reader's).
fn agree(text: &str) -> Option<Variant> {
    let (fast, serde) = readers_apart(text);
    match (&fast, &serde) {
        (Some(f), Ok(s)) => assert!(f.same(s), "{text}: {f:?} vs {s:?}"),
        (Some(f), Err(e)) => {
            panic!("{text}: the fast reader took {f:?} where the serde reader says {e}")
        }
        (None, _) => {}
    }
    fast
}

#[test]
fn every_engine_fixture_is_read_by_the_fast_reader_compact_and_pretty() {
    let mut n = 0;
    for (dir, dialect) in [
        ("godot3", Dialect::Godot3),
        ("godot4", Dialect::Godot4),
        ("godot4.4", Dialect::Godot4),
    ] {
        for f in common::load(dir) {
            let Ok((v, _)) = decode(&f.bytes, dialect, &DecodeOptions::default()) else {
                continue;
            };
            taken(&to_json_string(&v), &v, &f.name);
            let pretty = serde_json::to_string_pretty(&to_json(&v)).unwrap();
            taken(&pretty, &v, &format!("{} (pretty)", f.name));
            n += 1;
        }
    }
    assert!(n > 300, "only {n} fixtures decoded");
}

#[test]
fn numbers_at_the_edges_read_as_serde_json_reads_them() {
    let took = |t: &str| agree(t).is_some();
    for (text, fast) in [
        (r#"{"type":"Float","value":-0}"#, true),
        (r#"{"type":"Float","value":-0.0}"#, true),
        (r#"{"type":"Float","value":0}"#, true),
        (r#"{"type":"Float","value":18446744073709551615}"#, true),
        (r#"{"type":"Float","value":-9223372036854775808}"#, true),
        (r#"{"type":"Float","value":1e-400}"#, true),
        (r#"{"type":"Float","value":2.2250738585072011e-308}"#, true),
        (r#"{"type":"Float","value":0.1E+2}"#, true),
        // Beyond what the fast reader reads as an integer, or out of the doubles' range.
        (r#"{"type":"Float","value":18446744073709551616}"#, false),
        (r#"{"type":"Float","value":1e400}"#, false),
        (r#"{"type":"Int","value":-0}"#, false),
        (r#"{"type":"Int","value":9223372036854775808}"#, false),
        (r#"{"type":"Int","value":1.0}"#, false),
        (r#"{"type":"Int","value":"12"}"#, true),
        (r#"{"type":"Int","value":-9223372036854775808}"#, true),
        // Not JSON numbers.
        (r#"{"type":"Int","value":01}"#, false),
        (r#"{"type":"Float","value":1.}"#, false),
        (r#"{"type":"Float","value":.5}"#, false),
        (r#"{"type":"Float","value":+1}"#, false),
        (r#"{"type":"Float","value":1e}"#, false),
        (r#"{"type":"Float","value":"nan"}"#, true),
        (r#"{"type":"Vector2","value":[1e400,0]}"#, false),
        (r#"{"type":"Vector2","value":[0.1,-0]}"#, true),
        (r#"{"type":"Vector2i","value":[-0,1]}"#, false),
        (r#"{"type":"Vector2i","value":[2147483648,1]}"#, false),
        (r#"{"type":"Color","value":[0.1,0.2,0.3,1e-50]}"#, true),
        (r#"{"type":"Vector3","value":[1,2]}"#, false),
        (r#"{"type":"Vector3","value":[1,2,3,4]}"#, false),
    ] {
        assert_eq!(took(text), fast, "{text}");
    }
    let (v, _) = readers_apart(r#"{"type":"Float","value":-0}"#);
    assert!(matches!(v, Some(Variant::Float(x)) if x.to_bits() == (-0.0f64).to_bits()));
}

#[test]
fn strings_and_layouts_the_fast_reader_takes_or_leaves() {
    let took = |t: &str| agree(t).is_some();
    for (text, fast) in [
        (
            r#"{"type":"String","value":"a\"b\\c\u00e9\ud83d\ude00"}"#,
            true,
        ),
        (r#"{"type":"String","value":"lone \udc00"}"#, false),
        ("{\"type\":\"String\",\"value\":\"tab\there\"}", false),
        (
            r#"{"type":"String","value":{"engine_utf8":"eda080"}}"#,
            true,
        ),
        (r#"{"type":"StringName","value":"n"}"#, true),
        (r#"{"type":"string","value":"any case"}"#, true),
        (r#"{"type":"Nope","value":1}"#, false),
        (r#"{"type":"Str\u0069ng","value":"x"}"#, false),
        (r#"{"value":"x","type":"String"}"#, false),
        (
            r#"{"element_type":{"builtin":"Int"},"type":"Array","value":[]}"#,
            true,
        ),
        (
            r#"{"element_type":{"builtin":"Int"},"type":"Array","value":[],"type":"Array"}"#,
            false,
        ),
        (r#"{"typ":1,"type":"Array","value":[]}"#, true),
        (r#"{"type":"String","value":"x","extra":1}"#, false),
        (r#"{"type":"String","value":"x","value":"y"}"#, false),
        (" { \"type\" : \"Int\" , \"value\" : 3 } \n", true),
        (r#"{"type":"Int","value":3} x"#, false),
        (r#"{"type":"Int","value":3}{"type":"Int","value":4}"#, false),
        (r#"{"type":"Nil"}"#, true),
        (r#"{"type":"Nil","value":null}"#, true),
        (r#"{"type":"Callable"}"#, true),
        (r#"{"type":"Int"}"#, false),
        (r#"{"type":"Array","value":[]}"#, true),
        (r#"{"type":"Array","value":[,]}"#, false),
        (
            r#"{"type":"Array","value":[{"type":"Int","value":1},]}"#,
            false,
        ),
        (r#"{"type":"Array","value":{}}"#, false),
        (
            r#"{"type":"Array","element_type":{"builtin":"Int"},"value":[]}"#,
            true,
        ),
        (
            r#"{"type":"Array","value":[],"element_type":{"builtin":"Int"}}"#,
            true,
        ),
        (
            r#"{"type":"Array","element_type":{"builtin":"Nope"},"value":[]}"#,
            false,
        ),
        (
            r#"{"type":"Array","element_type":{"builtin":"Int"},"value":[],"element_type":null}"#,
            false,
        ),
        (
            r#"{"type":"Dictionary","key_type":{"builtin":"String"},"value":[]}"#,
            true,
        ),
        (r#"{"type":"Object","value":null,"class":"Node"}"#, false),
        (r#"{"type":"Dictionary","value":[]}"#, true),
        (
            r#"{"type":"Dictionary","value":[[{"type":"Int","value":1}]]}"#,
            false,
        ),
        (
            r#"{"type":"Dictionary","value":[[{"type":"Int","value":1},{"type":"Nil"},{"type":"Nil"}]]}"#,
            false,
        ),
        (
            r#"{"type":"Dictionary","value":[[{"type":"Int","value":1},{"type":"Nil"}],[{"type":"Float","value":1},{"type":"Nil"}],[{"type":"Int","value":1},{"type":"Bool","value":true}]]}"#,
            true,
        ),
        (r#"{"type":"NodePath","value":"/root/a:b"}"#, true),
        (
            r#"{"type":"Transform2D","value":{"x":[1,0],"y":[0,1],"origin":[0,0]}}"#,
            true,
        ),
        (r#"{"type":"PackedByteArray","value":"00ff"}"#, true),
        (r#"{"type":"Object","value":{"id":5}}"#, true),
    ] {
        assert_eq!(took(text), fast, "{text}");
    }
    // Nesting past the readers' bound (`MAX_JSON_DEPTH`, two JSON levels per Array) is
    // refused, by the serde reader.
    let deep = |n: usize| {
        let open = r#"{"type":"Array","value":["#.repeat(n);
        format!("{open}{}", "]}".repeat(n))
    };
    assert!(agree(&deep(1032)).is_some());
    assert!(agree(&deep(1033)).is_none());
    assert!(json::from_json_str(&deep(1033)).is_err());
}

/// Leaves the fast reader reads itself (packed arrays, NodePaths, math values in objects)
/// and every way of writing them that it leaves to serde_json and the serde reader: both
/// must read the same, or both refuse.
#[test]
fn leaves_read_directly_agree_with_the_serde_reader() {
    let v = |ty: &str, value: &str| format!(r#"{{"type":"{ty}","value":{value}}}"#);
    let mut n = 0;
    for (ty, value, ok) in [
        ("PackedByteArray", r#""""#, true),
        ("PackedByteArray", r#""00fF10""#, true),
        ("PackedByteArray", r#""00 ff""#, true),
        ("PackedByteArray", r#""+f00""#, true),
        ("PackedByteArray", r#""0""#, false),
        ("PackedByteArray", r#""0g""#, false),
        ("PackedByteArray", r#""\u0030\u0031""#, true),
        ("PackedByteArray", r#"{"engine_utf8":"3030"}"#, true),
        ("PackedByteArray", "[0]", false),
        ("PackedInt32Array", "[]", true),
        ("PackedInt32Array", "[10,20,-5]", true),
        ("PackedInt32Array", "[ 1 , 2 ]", true),
        ("PackedInt32Array", "[2147483647,-2147483648]", true),
        ("PackedInt32Array", "[2147483648]", false),
        ("PackedInt32Array", "[-0]", false),
        ("PackedInt32Array", "[1.0]", false),
        ("PackedInt32Array", r#"["1"]"#, false),
        ("PackedInt32Array", "[1,]", false),
        ("PackedInt64Array", "[9223372036854775807,-1]", true),
        ("PackedInt64Array", r#"["-9223372036854775808"]"#, true),
        ("PackedInt64Array", "[9223372036854775808]", false),
        (
            "PackedFloat32Array",
            "[0.1,-0,1e-50,3.4028235677973366e38]",
            true,
        ),
        ("PackedFloat32Array", r#"["nan:0x7fc00001","-inf"]"#, true),
        (
            "PackedFloat64Array",
            r#"[0.1,-0.0,18446744073709551615,"nan"]"#,
            true,
        ),
        ("PackedStringArray", r#"["alpha","b\"eta",""]"#, true),
        (
            "PackedStringArray",
            r#"["a",{"engine_utf8":"eda080"}]"#,
            true,
        ),
        ("PackedStringArray", "[1]", false),
        ("PackedVector3Array", "[[1.0,0.0,1.0],[-4.0,0.0,2.5]]", true),
        ("PackedVector3Array", "[]", true),
        ("PackedVector3Array", "[[1,2]]", false),
        ("PackedVector3Array", r#"[[1,2,"inf"]]"#, true),
        ("PackedVector2iArray", "[[1,2],[3,-4]]", true),
        ("PackedVector2iArray", "[[1,2.5]]", false),
        ("PackedColorArray", "[[0.1,0.2,0.3,1]]", true),
        ("NodePath", r#""/root/a:b""#, true),
        (
            "NodePath",
            r#"{"names":["root","Game"],"subnames":["transform"],"absolute":true}"#,
            true,
        ),
        (
            "NodePath",
            r#"{ "names" : [ ] , "subnames" : [ ] , "absolute" : false }"#,
            true,
        ),
        // Keys in another order, missing, repeated or unknown are the serde reader's.
        (
            "NodePath",
            r#"{"subnames":["x"],"names":["a"],"absolute":true}"#,
            true,
        ),
        ("NodePath", r#"{"names":["a"],"subnames":[]}"#, true),
        (
            "NodePath",
            r#"{"names":["a"],"subnames":[],"absolute":true,"absolute":false}"#,
            true,
        ),
        (
            "NodePath",
            r#"{"names":["a"],"names":["b"],"subnames":[],"absolute":true}"#,
            true,
        ),
        (
            "NodePath",
            r#"{"names":["a"],"subnames":[],"absolute":true,"x":1}"#,
            true,
        ),
        (
            "NodePath",
            r#"{"names":["a"],"subnames":[],"absolute":1}"#,
            false,
        ),
        (
            "NodePath",
            r#"{"n\u0061mes":["a"],"subnames":[],"absolute":true}"#,
            true,
        ),
        (
            "NodePath",
            r#"{"names":[{"engine_utf8":"eda080"}],"subnames":[],"absolute":true}"#,
            true,
        ),
        (
            "Transform3D",
            r#"{"basis":{"rows":[[1,0,0],[0,1,0],[0,0,1]]},"origin":[0.0,10.0,-5.0]}"#,
            true,
        ),
        (
            "Transform3D",
            r#"{"origin":[0,10,-5],"basis":{"rows":[[1,0,0],[0,1,0],[0,0,1]]}}"#,
            true,
        ),
        (
            "Transform3D",
            r#"{"basis":{"rows":[[1,0,0],[0,1,0],[0,0,"-inf"]]},"origin":[0,0,0]}"#,
            true,
        ),
        (
            "Transform3D",
            r#"{"basis":{"rows":[[1,0,0],[0,1,0]]},"origin":[0,0,0]}"#,
            false,
        ),
        (
            "Transform3D",
            r#"{"basis":{"rows":[[1,0,0],[0,1,0],[0,0,1]],"rows":[[2,0,0],[0,2,0],[0,0,2]]},"origin":[0,0,0]}"#,
            true,
        ),
        ("Transform3D", "[1,0,0,0,1,0,0,0,1,0,0,0]", false),
        (
            "Transform2D",
            r#"{"x":[1,0],"y":[0,1],"origin":[5,6]}"#,
            true,
        ),
        ("Rect2i", r#"{"position":[1,2],"size":[3,-4]}"#, true),
        ("Plane", r#"{"normal":[0,1,0],"d":2.5}"#, true),
        (
            "Projection",
            r#"{"columns":[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}"#,
            true,
        ),
        ("Quaternion", "[0,0,0,1]", true),
        ("Color", "[0.1,0.2,0.3]", false),
    ] {
        let text = v(ty, value);
        let (fast, serde) = readers_apart(&text);
        assert_eq!(serde.is_ok(), ok, "{text}: {serde:?}");
        match (fast, serde) {
            (Some(f), Ok(s)) => assert!(f.same(&s), "{text}: {f:?} vs {s:?}"),
            (None, Err(_)) => {}
            (f, s) => panic!("{text}: the fast reader gave {f:?}, the serde reader {s:?}"),
        }
        n += 1;
    }
    assert!(n > 50);
}

#[test]
fn json_lines_read_fast_keep_their_document_and_line_numbers() {
    let good = r#"{"type":"Int","value":1}"#;
    let text =
        format!("{good}\n\n{good}\r\n  {good}  \n{{\"type\":\"Int\",\n\"value\":\"x\"}}\n{good}\n");
    let got: Vec<_> = json::read_values(text.as_bytes()).collect();
    assert_eq!(got.len(), 4, "{got:?}");
    assert!(got[..3]
        .iter()
        .all(|v| v.as_ref().is_ok_and(|v| v.same(&Variant::Int(1)))));
    let e = got[3].as_ref().unwrap_err();
    assert!(e.path.starts_with("document 4 (from line 5)"), "{e}");
}

/// Fuzz target `json` findings of this reader's first day (fuzz/corpus/json/2fa49d1a…,
/// e015db8d…, 67e84598…): an escape as a text's last byte was read past the end, and an
/// Object's properties nesting past serde_json's 128 levels sent our own JSON the longer way.
#[test]
fn fuzz_findings_of_the_fast_reader() {
    for text in [
        "{\"\\",
        "{  \"\\\\4\\\\]\\",
        "{\"type\":\"String\",\"value\":\"\\",
    ] {
        assert!(agree(text).is_none(), "{text:?}");
        assert!(json::from_json_str(text).is_err());
    }
    let mut v = Variant::Bool(true);
    for _ in 0..300 {
        v = Variant::Array(gdvariant::Array::new(vec![v]));
    }
    let object = gdvariant::Object::Full(Box::new(gdvariant::FullObject {
        class: "Node".into(),
        properties: vec![("deep".into(), v)],
    }));
    let v = Variant::Array(gdvariant::Array::new(vec![Variant::Object(object)]));
    taken(&to_json_string(&v), &v, "an object's deep properties");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn generated_values_are_read_by_the_fast_reader(
        v in prop_oneof![common::textgen::godot3_value(), common::textgen::godot4_value()]
    ) {
        taken(&to_json_string(&v), &v, "generated");
    }
}

/// A stream big enough to be read on several threads, with a multi-line document and a bad
/// one placed in the later parts: values, their order and the error are `read_values`'s.
#[test]
fn json_lines_read_on_threads_are_read_values_results() {
    let line = |i: usize| {
        let v = Variant::Array(gdvariant::Array::new(vec![
            Variant::Int(i as i64),
            Variant::String(format!("value {i}").into()),
        ]));
        to_json_string(&v)
    };
    for bad_at in [None, Some(5_000), Some(39_999)] {
        let mut text = String::new();
        for i in 0..40_000 {
            match i {
                _ if Some(i) == bad_at => text.push_str("{\"type\":\"Int\",\"value\":\"x\"}\n"),
                20_000 => text.push_str("{\"type\":\"Int\",\n\"value\":7}\n\n"),
                _ => {
                    text.push_str(&line(i));
                    text.push('\n');
                }
            }
        }
        assert!(text.len() > 2 << 20);
        let one: Vec<_> = json::read_values(text.as_bytes()).collect();
        for threads in [1, 2, 3, 8] {
            let many: Vec<_> = json::read_values_on(text.as_bytes(), threads, |v| v).collect();
            assert_eq!(
                one.len(),
                many.len(),
                "{threads} threads, bad at {bad_at:?}"
            );
            for (a, b) in one.iter().zip(&many) {
                match (a, b) {
                    (Ok(a), Ok(b)) => assert!(a.same(b)),
                    (Err(a), Err(b)) => assert_eq!(a, b),
                    _ => panic!("{threads} threads: {a:?} vs {b:?}"),
                }
            }
        }
        match bad_at {
            None => assert_eq!(one.len(), 40_000),
            Some(at) => {
                let e = one.last().unwrap().as_ref().unwrap_err();
                let line = at + 1 + usize::from(at > 20_000) * 2;
                assert!(
                    e.path
                        .starts_with(&format!("document {} (from line {line})", at + 1)),
                    "{e}"
                );
            }
        }
    }
}

/// Dictionaries whose keys are all different are built at once, the others entry by entry:
/// both as the serde reader builds them (the last value of a repeated key, at its first
/// place; keys an engine keeps apart kept apart).
#[test]
fn dictionary_keys_are_kept_as_the_serde_reader_keeps_them() {
    let int = |i: i64| format!(r#"{{"type":"Int","value":{i}}}"#);
    let string = |s: &str| format!(r#"{{"type":"String","value":"{s}"}}"#);
    let dict = |entries: &[(String, String)]| {
        let e: Vec<String> = entries.iter().map(|(k, v)| format!("[{k},{v}]")).collect();
        format!(r#"{{"type":"Dictionary","value":[{}]}}"#, e.join(","))
    };
    let empty = r#"{"type":"Dictionary","value":[]}"#.to_string();
    let object = r#"{"type":"Object","value":{"id":7}}"#.to_string();
    let float = |x: &str| format!(r#"{{"type":"Float","value":{x}}}"#);
    let mut cases = vec![
        vec![(string("a"), int(1)), (string("b"), int(2))],
        vec![
            (string("a"), int(1)),
            (string("b"), int(2)),
            (string("a"), int(3)),
        ],
        vec![
            (string("1"), int(1)),
            (int(1), int(2)),
            (float("1.0"), int(3)),
        ],
        vec![(int(1), int(1)), (string("x"), int(2)), (int(1), int(3))],
        vec![(float("\"nan\""), int(1)), (float("\"-nan\""), int(2))],
        vec![(float("0.0"), int(1)), (float("-0.0"), int(2))],
        vec![(empty.clone(), int(1)), (empty.clone(), int(2))],
        vec![(object.clone(), int(1)), (object.clone(), int(2))],
        vec![
            (object.clone(), int(1)),
            (string("o"), int(2)),
            (object, int(3)),
        ],
    ];
    for n in [16, 32, 33, 40] {
        let distinct: Vec<_> = (0..n).map(|i| (string(&format!("k{i}")), int(i))).collect();
        let mut repeated = distinct.clone();
        repeated.push((string("k3"), int(-1)));
        cases.push(distinct);
        cases.push(repeated);
    }
    for entries in cases {
        let text = dict(&entries);
        let read = agree(&text).unwrap_or_else(|| panic!("the fast reader gave up: {text}"));
        let Variant::Dictionary(d) = read else {
            panic!("{text}: {read:?}")
        };
        assert!(d.len() <= entries.len(), "{text}");
    }
}

/// The decimal `digits` with a point before its last `frac` digits (`0.…` when there are
/// fewer), and a minus sign when `negative`.
fn decimal(digits: &str, frac: usize, negative: bool) -> String {
    let sign = if negative { "-" } else { "" };
    let digits = format!("{digits:0>width$}", width = frac + 1);
    let (whole, part) = digits.split_at(digits.len() - frac);
    let whole = whole.trim_start_matches('0');
    let whole = if whole.is_empty() { "0" } else { whole };
    match frac {
        0 => format!("{sign}{whole}"),
        _ => format!("{sign}{whole}.{part}"),
    }
}

/// Short decimals are read by a division of exact doubles, longer ones by the standard
/// library: every one is what serde_json reads, for Floats, math components and Ints.
#[test]
fn decimals_at_the_edges_of_the_short_way_read_as_serde_json_reads_them() {
    for (digits, frac) in [
        ("1", 0),
        ("0", 0),
        ("0", 1),
        ("999999999999999", 0),
        ("9999999999999999", 0),
        ("999999999999999", 15),
        ("999999999999999", 22),
        ("999999999999999", 23),
        ("1", 22),
        ("1", 23),
        ("9007199254740993", 0),
        ("9007199254740993", 3),
        ("123456789012345", 7),
        ("1234567890123456", 7),
        ("20000000298023224", 17),
        ("999999999999999999", 0),
        ("1000000000000000000", 0),
        ("9223372036854775807", 0),
        ("9223372036854775808", 0),
        ("18446744073709551615", 0),
        ("18446744073709551616", 0),
        ("99999999999999999999", 0),
    ] {
        for negative in [false, true] {
            let x = decimal(digits, frac, negative);
            for text in [
                format!(r#"{{"type":"Float","value":{x}}}"#),
                format!(r#"{{"type":"Int","value":{x}}}"#),
                format!(r#"{{"type":"Vector2","value":[{x},{x}]}}"#),
                format!(r#"{{"type":"PackedFloat32Array","value":[{x}]}}"#),
            ] {
                agree(&text);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn decimals_read_as_serde_json_reads_them(
        m in prop_oneof![0u64..1000, 0u64..1 << 53, any::<u64>()],
        frac in 0usize..26,
        negative in any::<bool>(),
    ) {
        let x = decimal(&m.to_string(), frac, negative);
        let text = format!(r#"{{"type":"Float","value":{x}}}"#);
        // Only integers below -2^63 are beyond the fast reader (and serde_json's integers).
        let integer_beyond = frac == 0 && negative && m > 1 << 63;
        prop_assert_eq!(agree(&text).is_some(), !integer_beyond, "{}", text);
        agree(&format!(r#"{{"type":"Int","value":{x}}}"#));
    }
}

/// Type names read a word at a time: every kind's name, in other cases, cut short, run on,
/// and with an escape at each of its bytes, compact and at the end of the text, read as the
/// serde reader reads them.
#[test]
fn type_names_read_a_word_at_a_time_as_the_serde_reader_reads_them() {
    let mut names = vec![
        "x".repeat(23),
        "x".repeat(24),
        "x".repeat(25),
        "PackedVector2ArrayPacked".into(),
        "PackedColorArray\u{e9}".into(),
        String::new(),
    ];
    for k in gdvariant::Kind::ALL {
        let n = k.name();
        names.extend([
            n.to_string(),
            n.to_lowercase(),
            n.to_uppercase(),
            format!("{n}x"),
        ]);
        names.push(n[..n.len() - 1].to_string());
        for (i, c) in n.char_indices() {
            names.push(format!("{}\\u{:04x}{}", &n[..i], c as u32, &n[i + 1..]));
        }
    }
    let mut taken = 0;
    for name in &names {
        for text in [
            format!(r#"{{"type":"{name}"}}"#),
            format!(r#"{{"type":"{name}","value":null}}"#),
            format!(r#"{{"type":"{name}","value":[]}}                         "#),
        ] {
            taken += usize::from(agree(&text).is_some());
        }
    }
    assert!(taken > 60, "{taken}");
}

/// Containers of thousands of elements leave the reader's scratch stack whole (the stack's
/// own buffer) and build their Dictionary in place: at the top, nested after other
/// elements, with repeated keys (last value at the first place) and with keys kept apart.
#[test]
fn big_containers_read_as_the_serde_reader_reads_them() {
    let int = |i: usize| format!(r#"{{"type":"Int","value":{i}}}"#);
    let key = |i: usize| format!(r#"{{"type":"String","value":"k{i}"}}"#);
    let dict = |n: usize, repeat_every: usize| {
        let entries: Vec<String> = (0..n)
            .map(|i| {
                let k = if repeat_every > 0 && i % repeat_every == repeat_every - 1 {
                    i / 2
                } else {
                    i
                };
                format!("[{},{}]", key(k), int(i))
            })
            .collect();
        format!(r#"{{"type":"Dictionary","value":[{}]}}"#, entries.join(","))
    };
    let array = |items: Vec<String>| format!(r#"{{"type":"Array","value":[{}]}}"#, items.join(","));
    for n in [4095, 4096, 5000] {
        for repeat in [0, 7] {
            let d = dict(n, repeat);
            let v = agree(&d).expect("taken at the top");
            let Variant::Dictionary(read) = &v else {
                panic!("not a Dictionary")
            };
            if repeat == 0 {
                assert_eq!(read.len(), n);
            } else {
                assert!(read.len() < n);
            }
            // Nested after a few elements, and after more elements than it has.
            let few = array(vec![int(1), int(2), d.clone(), int(3)]);
            assert!(agree(&few).is_some(), "{n} {repeat}: nested after a few");
            let many = array((0..n + 1).map(int).chain([d.clone()]).collect());
            assert!(agree(&many).is_some(), "{n} {repeat}: nested after more");
        }
        let big_array = array((0..n).map(int).collect());
        assert!(agree(&big_array).is_some());
    }
}

/// A value object that ends right after its `value` is done with at once; one with keys
/// beside `type` and `value` (before the `value`, as the writer puts an element type, or
/// after it) is not: its keys still type the container, as the serde reader types it.
#[test]
fn objects_ending_after_their_value_and_objects_with_keys_beside_it() {
    let typed = |text: &str| {
        let (fast, serde) = readers_apart(text);
        let fast = fast.unwrap_or_else(|| panic!("the fast reader gave up: {text}"));
        let serde = serde.unwrap_or_else(|e| panic!("the serde reader refused {text}: {e}"));
        assert!(fast.same(&serde), "{text}: {fast:?} vs {serde:?}");
        let Variant::Array(a) = &fast else {
            panic!("{text}: not an Array: {fast:?}")
        };
        assert!(a.typed.is_some(), "{text}: lost its element type: {fast:?}");
    };
    let int = r#"{"type":"Int","value":1}"#;
    typed(&format!(
        r#"{{"type":"Array","element_type":{{"builtin":"Int"}},"value":[{int}]}}"#
    ));
    typed(&format!(
        r#"{{"type":"Array","value":[{int}],"element_type":{{"builtin":"Int"}}}}"#
    ));
    typed(&format!(
        r#"{{"type":"Array","value":[{{"type":"Array","value":[{int}]}}],"element_type":{{"builtin":"Array"}}}}"#
    ));
    // Ends after the value, blanks before the brace, a second value, a brace too many.
    for text in [
        format!(r#"{{"type":"Array","value":[{int},{int}]}}"#),
        r#"{"type":"Int","value":1 }"#.to_string(),
        r#"{"type":"Array","value":[{"type":"Int","value":1,"value":2}]}"#.to_string(),
        r#"{"type":"Int","value":1}}"#.to_string(),
        r#"{"type":"String","value":"a","x":1}"#.to_string(),
    ] {
        agree(&text);
    }
    assert!(agree(&format!(r#"{{"type":"Array","value":[{int},{int}]}}"#)).is_some());
    assert!(agree(r#"{"type":"Int","value":1}}"#).is_none());
}

/// `encode_values_on` (what `encode --from json` writes) gives the engine's own bytes back
/// for the savegame's JSON Lines, many copies of them over two threads, with a pretty
/// document between (read by the scan) and an encoder refusal in its place: frame by frame
/// the same as `frame_into` of the value the serde reader reads.
#[test]
fn json_lines_encoded_on_threads_are_the_engines_savegame() {
    use gdvariant::framing::{frame_into, frames, Framing};
    use gdvariant::Format;
    let sav = std::fs::read(common::fixtures().join("godot3/streams/savegame.sav")).unwrap();
    let format = Format::godot3().framing(Framing::STORE_VAR);
    let values: Vec<Variant> = frames(&sav, &format).collect::<Result<_, _>>().unwrap();
    let mut lines = String::new();
    for v in &values {
        lines.push_str(&to_json_string(v));
        lines.push('\n');
    }
    // Enough copies to fill more than one buffer, split between the threads.
    let copies = 2000;
    let mut text = lines.repeat(copies);
    let pretty = serde_json::to_string_pretty(&to_json(&values[1])).unwrap();
    text.push_str(&pretty);
    text.push('\n');
    text.push_str(&lines);
    let got: Vec<Vec<u8>> = json::encode_values_on(text.as_bytes(), 2, &format)
        .map(|r| r.unwrap().unwrap())
        .collect();
    assert_eq!(got.len(), values.len() * (copies + 1) + 1);
    let mut want = sav.repeat(copies);
    frame_into(&mut want, &values[1], &format).unwrap();
    want.extend_from_slice(&sav);
    // Compared whole, not printed: a difference would print megabytes.
    assert!(got.concat() == want, "not the engine's savegame bytes");
    // A real an `f32` cannot hold exactly is refused as `frame_into` refuses it, in place.
    let inexact = Variant::Vector2(gdvariant::math::Vector2 { x: 0.1, y: 0.0 });
    let text = format!(
        "{}\n{}\n",
        to_json_string(&Variant::Int(1)),
        to_json_string(&inexact)
    );
    let got: Vec<_> = json::encode_values_on(text.as_bytes(), 2, &format)
        .map(|r| r.unwrap())
        .collect();
    let mut refused = Vec::new();
    assert_eq!(
        got[1],
        frame_into(&mut refused, &inexact, &format).map(|()| refused)
    );
    assert!(got[1].is_err());
}
