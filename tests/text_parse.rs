//! `from_text` on hand-written and hostile input: what it accepts beyond the engines' own
//! output, where its errors point, and that no input makes it panic or exhaust the stack.

use gdvariant::math::*;
use gdvariant::text::MAX_TEXT_DEPTH;
use gdvariant::*;

fn g4(s: &str) -> Variant {
    from_text(s, Dialect::Godot4).unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

fn err(s: &str) -> TextError {
    from_text(s, Dialect::Godot4).expect_err(s)
}

#[test]
fn both_spacings_and_both_generations_of_names() {
    let v = Variant::Vector2(Vector2::new(1.0, 2.0));
    assert_eq!(g4("Vector2( 1, 2 )"), v);
    assert_eq!(g4("Vector2(1,2)"), v);
    assert_eq!(g4("Quat( 0, 0, 0, 1 )"), g4("Quaternion(0, 0, 0, 1)"));
    assert_eq!(
        g4("Transform( 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 )"),
        g4("Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0)")
    );
    assert_eq!(g4("PoolIntArray( 1, 2 )"), g4("PackedInt32Array(1, 2)"));
    assert_eq!(g4("PoolRealArray( )"), Variant::PackedFloat32Array(vec![]));
    assert_eq!(
        g4("Matrix32(1, 0, 0, 1, 0, 0)"),
        g4("Transform2D(1, 0, 0, 1, 0, 0)")
    );
}

#[test]
fn hand_written_forms() {
    // Trailing commas, comments, three-component colors, html colors.
    assert_eq!(g4("[1, 2,]"), g4("[1, 2]"));
    assert_eq!(g4("{\"a\": 1,}"), g4("{\"a\": 1}"));
    assert_eq!(g4("Vector2(1, 2,)"), g4("Vector2(1, 2)"));
    assert_eq!(g4("; a comment\n[1, ; another\n 2]"), g4("[1, 2]"));
    assert_eq!(
        g4("Color(1, 0, 0)"),
        Variant::Color(Color::new(1.0, 0.0, 0.0, 1.0))
    );
    assert_eq!(
        g4("#ff0000"),
        Variant::Color(Color::new(1.0, 0.0, 0.0, 1.0))
    );
    // Ints and floats stay apart.
    assert_eq!(g4("1"), Variant::Int(1));
    assert_eq!(g4("1.0"), Variant::Float(1.0));
    assert_eq!(g4("1e3"), Variant::Float(1000.0));
    assert_eq!(g4("-9223372036854775808"), Variant::Int(i64::MIN));
    // Special reals, every spelling the engines wrote over the years.
    assert_eq!(g4("inf"), Variant::Float(f64::INFINITY));
    for s in ["-inf", "inf_neg", "-inf.0"] {
        assert_eq!(g4(s), Variant::Float(f64::NEG_INFINITY), "{s}");
    }
    assert!(matches!(g4("nan"), Variant::Float(x) if x.is_nan()));
    assert!(
        matches!(g4("Vector2(inf_neg, nan)"), Variant::Vector2(p) if p.x == f64::NEG_INFINITY && p.y.is_nan())
    );
    // StringName and NodePath spellings.
    assert_eq!(g4("&\"a\""), g4("@\"a\""));
    assert_eq!(g4("^\"a/b:c\""), g4("NodePath(\"a/b:c\")"));
}

#[test]
fn escapes() {
    assert_eq!(
        g4(r#""\n\t\r\b\f\a\v\"\\\'\?\q\u00e9\U01F600""#),
        Variant::String("\n\t\r\u{8}\u{c}\u{7}\u{b}\"\\'?q\u{e9}\u{1F600}".into())
    );
    // A UTF-16 surrogate pair, as the engines accept it.
    assert_eq!(g4(r#""\ud83d\ude00""#), Variant::String("\u{1F600}".into()));
    // Raw newlines inside a string are kept (that is how var_to_str writes them).
    assert_eq!(g4("\"a\nb\""), Variant::String("a\nb".into()));
}

#[test]
fn reals_of_math_types_are_single_precision() {
    // The engines parse real_t components into `float`.
    let Variant::Vector2(v) = g4("Vector2(0.1, 0.2)") else {
        panic!()
    };
    assert_eq!(v.x, f64::from(0.1f32));
    // A `float` is a double.
    assert_eq!(g4("0.1"), Variant::Float(0.1));
}

/// Exact text's forms of reals that decimal digits cannot carry: a hex float is never
/// narrowed, `-nan` is the negative quiet NaN, `nan(0x…)` any NaN by its 64 bits.
#[test]
fn exact_real_forms() {
    let bits = |t: &str| match g4(t) {
        Variant::Float(f) => f.to_bits(),
        v => panic!("{t}: {v:?}"),
    };
    assert_eq!(bits("0x1.999999999999ap-4"), 0.1f64.to_bits());
    assert_eq!(bits("-0x1.8p+1"), (-3.0f64).to_bits());
    assert_eq!(bits("0x0.0000000000001p-1022"), 1);
    assert_eq!(bits("-nan"), 0xfff8_0000_0000_0000);
    assert_eq!(bits("nan(0x7ff0000000000001)"), 0x7ff0_0000_0000_0001);
    let Variant::Vector2(v) = g4("Vector2(0x1.999999999999ap-4, nan(0xfff0000020000000))") else {
        panic!()
    };
    assert_eq!(
        (v.x.to_bits(), v.y.to_bits()),
        (0.1f64.to_bits(), 0xfff0_0000_2000_0000)
    );
    // Single-precision places narrow the bits keeping the payload (`real_to_f32_bits`).
    let Variant::PackedFloat32Array(a) = g4("PackedFloat32Array(nan(0x7ff0000020000000), -nan)")
    else {
        panic!()
    };
    assert_eq!(a[0].to_bits(), 0x7f80_0001);
    assert_eq!(a[1].to_bits(), 0xffc0_0000);
    // Bits are exact or refused.
    assert!(err("0x1.00000000000001p+0").message.contains("not exact"));
    assert!(err("0x1p+1024").message.contains("not exact"));
    assert!(err("nan(0x3ff0000000000000)").message.contains("NaN"));
    assert!(err("0x1.8").message.contains("exponent"));
    // And exact text writes them so.
    for v in [
        Variant::Float(f64::from_bits(0xfff4_0000_dead_beef)),
        Variant::PackedFloat32Array(vec![
            f32::from_bits(0xff81_2345),
            f32::from_bits(0x7fc0_0000),
        ]),
        Variant::Vector3(Vector3 {
            x: 0.1,
            y: f64::from_bits(0x7ff0_0000_2000_0000),
            z: 1.5,
        }),
        Variant::Color(Color {
            r: f32::from_bits(0x7f80_0001),
            g: 0.5,
            b: 0.0,
            a: 1.0,
        }),
    ] {
        let text = to_text_exact(&v, Dialect::Godot4);
        assert!(g4(&text).same(&v), "{text} reads back as {:?}", g4(&text));
    }
}

#[test]
fn errors_say_what_and_where() {
    let e = err("[1, 2\n  Vector2(1, 2]");
    assert_eq!(
        e.to_string(),
        "expected `,` or `]`, found `Vector2` at line 2, column 3"
    );
    let e = err("{\n\"a\": 1,\n\"b\" 2\n}");
    assert_eq!((e.line, e.column), (3, 5));
    assert_eq!(e.message, "expected `:`, found a number");
    let e = err("Vector3(1, 2)");
    assert_eq!(
        e.to_string(),
        "`Vector3` takes 3 arguments, found 2 at line 1, column 8"
    );
    assert_eq!(
        err("\"abc").to_string(),
        "unterminated string at line 1, column 1"
    );
    assert_eq!(
        err("Foo(1)").to_string(),
        "unknown identifier `Foo` at line 1, column 1"
    );
    assert_eq!(
        err("1 2").to_string(),
        "unexpected a number after the value at line 1, column 3"
    );
    assert_eq!(
        err("").to_string(),
        "expected a value, found the end of the text at line 1, column 1"
    );
    assert_eq!(
        err("99999999999999999999").message,
        "integer `99999999999999999999` does not fit in 64 bits"
    );
    assert_eq!(
        err("Vector2i(1.5, 2)").message,
        "`Vector2i` takes 32-bit integers, found 1.5"
    );
    assert!(err("Resource(\"res://a.tres\")")
        .message
        .contains("resource"));
    // Columns count characters, not bytes.
    assert_eq!(err("\"日本\" x").column, 6);
}

#[test]
fn deep_nesting_is_refused_not_a_crash() {
    let ok = format!(
        "{}{}",
        "[".repeat(MAX_TEXT_DEPTH),
        "]".repeat(MAX_TEXT_DEPTH)
    );
    assert!(from_text(&ok, Dialect::Godot4).is_ok());
    let deep = "[".repeat(200_000);
    let e = err(&deep);
    assert!(e.message.contains("nesting deeper"), "{e}");
    let deep = "{\"a\": ".repeat(200_000);
    assert!(err(&deep).message.contains("nesting deeper"));
    // And printing a deep value does not recurse either.
    let mut v = Variant::Nil;
    for _ in 0..100_000 {
        v = Variant::Array(Array::new(vec![v]));
    }
    assert!(to_text(&v, Dialect::Godot3).len() > 400_000);
    // Godot 4 stops where its writer stops.
    assert!(to_text(&v, Dialect::Godot4).len() < 1000);
    std::mem::forget(v); // dropping 100k nested Vecs recursively is the model's business
}

#[test]
fn no_input_panics() {
    // Every prefix and a set of byte-level mutations of a text that uses every construct.
    let text = "{\n\"a\": [1, -2.5e-3, inf_neg, nan, &\"s\\u00e9\", ^\"a/b:c\", #ff00ff80],\n\
        2: Array[int]([1, 2]), Vector2( 1, 2 ): Object(Node,\"script\":Resource(\"res://x.gd\"),\"n\":null)\n,\
        \"p\": PackedStringArray(\"x\", \"\\n\"), \"d\": Dictionary[String, Variant]({}), ; c\n\"r\": RID(5)\n}";
    assert!(
        from_text(text, Dialect::Godot4).is_ok(),
        "{:?}",
        from_text(text, Dialect::Godot4)
    );
    for (i, _) in text.char_indices() {
        let _ = from_text(&text[..i], Dialect::Godot4);
        let _ = from_text(&text[i..], Dialect::Godot3);
    }
    let bytes = text.as_bytes();
    let mut state = 0x2545F4914F6CDD1Du64;
    for _ in 0..20_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut b = bytes.to_vec();
        let at = (state % b.len() as u64) as usize;
        let alphabet = b"[](){}\",:;-.e0\\&^#@ x\n";
        b[at] = alphabet[(state >> 32) as usize % alphabet.len()];
        if let Ok(s) = std::str::from_utf8(&b) {
            let _ = from_text(s, Dialect::Godot4);
        }
    }
}

/// Plain strings, integers and blanks are taken from the text a run at a time; positions
/// after them still count lines and characters (not bytes), and every other form of number
/// still reads as before.
#[test]
fn positions_after_plain_runs_count_characters() {
    // `x` is the 12th character of the line (é and 漢 are one column each).
    let e = err("[\"é漢\", 12, x]");
    assert_eq!((e.line, e.column), (1, 12), "{e}");
    // A raw line break in a string, blanks of every kind, a comment.
    let e = err("[\"a\nbc\",\t\r\n ; note\n  -7, x]");
    assert_eq!((e.line, e.column), (4, 7), "{e}");
    let e = err("{\"k\": 99999999999999999999}");
    assert_eq!(
        (e.line, e.column, e.message.contains("64 bits")),
        (1, 7, true),
        "{e}"
    );
    assert_eq!(
        g4("[0, -0, 12, -34, 5.5, -6e2, 7E1, +8, .5, 0x10p0, 9223372036854775807, -9223372036854775808]"),
        Variant::Array(Array::new(vec![
            Variant::Int(0),
            Variant::Int(0),
            Variant::Int(12),
            Variant::Int(-34),
            Variant::Float(5.5),
            Variant::Float(-600.0),
            Variant::Float(70.0),
            Variant::Int(8),
            Variant::Float(0.5),
            Variant::Float(16.0),
            Variant::Int(i64::MAX),
            Variant::Int(i64::MIN),
        ]))
    );
    assert_eq!(g4("\"tab\\there\""), Variant::String("tab\there".into()));
}
