//! Every fuzzing finding, as the input that found it: each test fails on the behaviour the fuzzer caught (those marked `ignore` wait for a fix in the decoder's files).

#[path = "../fuzz/src/invariants/mod.rs"]
mod invariants;

use gdvariant::framing::Framing;
use gdvariant::*;
use invariants::*;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// `levels` Godot 4 Arrays that each claim 2^31 - 1 elements, nested, then `tail` zero bytes.
fn nested_lying_arrays(levels: usize, tail: usize) -> Vec<u8> {
    let mut p = Vec::new();
    for _ in 0..levels {
        p.extend_from_slice(&28u32.to_le_bytes());
        p.extend_from_slice(&0x7fff_ffffu32.to_le_bytes());
    }
    p.resize(p.len() + tail, 0);
    p
}

/// Found by the `decode` target (memory budget): every nested container reserves room for
/// as many elements as the rest of the input could hold, so nesting multiplies it. 1000
/// levels and 256 KiB of zeros (263 KiB) reserve 2.5 GB; 1 MiB would reserve 10 GB.
#[test]
fn nested_lying_counts_reserve_in_proportion_to_the_input() {
    assert!(counting_installed());
    let input = nested_lying_arrays(1000, 1 << 18);
    let (r, peak) =
        peak_during(|| decode(&input, Dialect::Godot4, &DecodeOptions::default()).map(|x| x.1));
    assert!(r.is_err());
    assert!(
        peak <= decode_budget(input.len()),
        "{} bytes of input reserved {peak} bytes",
        input.len()
    );
}

/// The same input through `decode_borrowed`, whose validating pass builds nothing.
#[test]
fn nested_lying_counts_cost_the_borrowed_decoder_nothing() {
    assert!(counting_installed());
    let input = nested_lying_arrays(1000, 1 << 18);
    let (r, peak) = peak_during(|| {
        decode_borrowed(&input, Dialect::Godot4, &DecodeOptions::default()).map(|x| x.1)
    });
    assert!(r.is_err());
    assert!(peak <= decode_budget(input.len()), "{peak} bytes");
}

/// Found by the `decode` target in CI (memory budget, `crash-e23955e5…`: 3,166 bytes of
/// Godot 3 input, 348,160 bytes at the peak against a budget of 333,696): the validating scan
/// keeps a row of the last dictionary's keys for each depth a dictionary opens at, 648 bytes
/// each, and a dictionary under hundreds of arrays of 8 bytes each made rows for every depth
/// above it. Rows are kept for the first depths only; a dictionary deeper than that is left to
/// the driver.
#[test]
fn a_dictionary_under_deep_arrays_keeps_the_scan_within_budget() {
    assert!(counting_installed());
    for (dialect, array, dict) in [(Dialect::Godot3, 19u32, 18u32), (Dialect::Godot4, 28, 27)] {
        for levels in [60, 64, 65, 300, 395, 1000] {
            let mut input = Vec::new();
            for _ in 0..levels {
                input.extend_from_slice(&array.to_le_bytes());
                input.extend_from_slice(&1u32.to_le_bytes());
            }
            // `{1: 2}` at the bottom.
            for word in [dict, 1, 2, 1, 2, 2] {
                input.extend_from_slice(&word.to_le_bytes());
            }
            let options = DecodeOptions::default();
            let (r, peak) = peak_during(|| decode_borrowed(&input, dialect, &options).map(|x| x.1));
            let owned = decode(&input, dialect, &options).map(|x| x.1);
            assert_eq!(
                r, owned,
                "{dialect}, {levels} levels: the verdict is the driver's"
            );
            assert!(
                peak <= decode_budget(input.len()),
                "{dialect}, {levels} levels: {} bytes of input, {peak} bytes at the peak",
                input.len()
            );
        }
    }
}

/// Found by the `codec` target (memory budget): a `store_var` prefix that claims 200 MiB
/// makes the codec reserve 200 MiB for an 8-byte input (`src.reserve(needed)`), so each
/// connection can make a server allocate up to the frame limit (256 MiB) with 4 bytes.
#[test]
fn a_lying_prefix_does_not_make_the_codec_reserve_it() {
    use bytes::BytesMut;
    use tokio_util::codec::Decoder;
    assert!(counting_installed());
    let mut input = (200u32 << 20).to_le_bytes().to_vec();
    input.extend_from_slice(&[2, 0, 0, 0]);
    let (r, peak) = peak_during(|| {
        let mut codec = codec::VariantCodec::new(
            &gdvariant::Format::new(Dialect::Godot4).framing(Framing::STORE_VAR),
        );
        let mut buf = BytesMut::from(&input[..]);
        codec.decode(&mut buf).map(|v| v.is_none())
    });
    assert!(r.expect("need more is not an error"));
    assert!(
        peak <= decode_budget(input.len()),
        "{peak} bytes reserved for 8 bytes of input"
    );
}

/// Found by the `text` target on the fixture `godot4/float_neg_nan.bin` (Godot 4.3's
/// `var_to_bytes(-NAN)`): `to_text_exact` promises every bit back, but prints any NaN as
/// `nan`, so the sign (and any payload) is lost.
#[test]
fn text_exact_keeps_nan_sign() {
    // FLOAT with FLAG_64: the double 0xfff8000000000000 (-NaN), as Godot 4.3 wrote it.
    let bytes = [3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xf8, 0xff];
    let (v, _) = decode(&bytes, Dialect::Godot4, &DecodeOptions::default()).unwrap();
    let text = to_text_exact(&v, Dialect::Godot4);
    let back = from_text(&text, Dialect::Godot4).unwrap();
    assert!(back.same(&v), "{text} reads back as {back:?}");
}

/// Found by the `explain` target on `godot3/malformed` `nest_array_2000`: explain reports
/// "too deep" one nesting level (8 bytes) after the offset the decoder reports.
#[test]
fn explain_too_deep_at_decoders_offset() {
    let mut bytes = Vec::new();
    for _ in 0..1100 {
        bytes.extend_from_slice(&[28, 0, 0, 0, 1, 0, 0, 0]);
    }
    bytes.extend_from_slice(&[0, 0, 0, 0]);
    let err = decode(&bytes, Dialect::Godot4, &DecodeOptions::default()).unwrap_err();
    let x = explain::explain(&bytes, &explain::ExplainOptions::new(Dialect::Godot4));
    assert_eq!(x.error.map(|e| e.offset()), Some(err.offset()));
}

/// Found by the `text` test on `godot3/pool_string_one_empty.bin` read as Pandemonium 4.0
/// with objects allowed (id 23 is OBJECT there): a full object of class `"\u{1}"`, whose
/// `to_text_exact` is `Object(\u{1},)`, which `from_text` refuses.
#[test]
fn text_of_an_object_with_an_odd_class_name_parses() {
    let bytes = [23, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
    let options = DecodeOptions {
        version: Some(Version::new(4, 0, 0)),
        allow_objects: true,
        ..DecodeOptions::default()
    };
    let (v, _) = decode(&bytes, Dialect::Pandemonium, &options).unwrap();
    let text = to_text_exact(&v, Dialect::Pandemonium);
    let back = from_text(&text, Dialect::Pandemonium).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    assert!(back.same(&v));
}

/// Found by the `explain` test on `godot3/big_pool_vector2.bin` read as Godot 4.2 with
/// objects allowed: an Object whose class name starts with NUL reads as an empty name, which
/// the decoder (like the engine, `if (str.is_empty())` in `decode_variant`) takes as a null
/// object ending there; explain reads on into a property count and reports an error at 0.
#[test]
fn explain_ends_an_object_whose_class_reads_empty() {
    // OBJECT, class name of 4 bytes "\0abc", then a NIL.
    let bytes = [24, 0, 0, 0, 4, 0, 0, 0, 0, b'a', b'b', b'c', 0, 0, 0, 0];
    let options = DecodeOptions {
        allow_objects: true,
        ..DecodeOptions::default()
    };
    let (v, used) = decode(&bytes, Dialect::Godot4, &options).unwrap();
    assert_eq!((v, used), (Variant::Object(Object::Null), 12));
    let mut x = explain::ExplainOptions::new(Dialect::Godot4);
    x.decode.allow_objects = true;
    let e = explain::explain(&bytes, &x);
    assert!(e.error.is_none(), "{:?}", e.error.map(|e| e.to_string()));
    assert_eq!(e.values, 2);
}

/// `to_text_exact` then `from_text` gives `v` back (the promise of `to_text_exact`).
fn assert_text_reads_back(v: &Variant, dialect: Dialect) {
    let text = to_text_exact(v, dialect);
    let back = from_text(&text, dialect).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    assert!(back.same(v), "{text:?} reads back as {back:?}, not {v:?}");
}

/// Found by the `text` target: a Godot 4 Vector2 sent with FLAG_64 (a `precision=double`
/// engine) prints its doubles exactly, but `from_text` narrows math reals to `f32`.
#[test]
fn text_exact_keeps_double_precision_math_reals() {
    let mut bytes = vec![5, 0, 1, 0];
    bytes.extend_from_slice(&0.1f64.to_le_bytes());
    bytes.extend_from_slice(&0.2f64.to_le_bytes());
    let (v, _) = decode(&bytes, Dialect::Godot4, &DecodeOptions::default()).unwrap();
    assert_text_reads_back(&v, Dialect::Godot4);
}

/// Found by the `text` target: NodePath names that are empty or hold `:` or `/` (the wire
/// carries any string) come back split or lost (`NodePath("Player::po")`).
#[test]
fn text_exact_keeps_odd_nodepath_names() {
    for (names, subnames) in [
        (vec!["Player"], vec![":po"]),
        (vec!["a", ""], vec![]),
        (vec![""], vec![""]),
    ] {
        let v = Variant::NodePath(Box::new(NodePath {
            names: names.into_iter().map(GString::from).collect(),
            subnames: subnames.into_iter().map(GString::from).collect(),
            absolute: false,
        }));
        assert_text_reads_back(&v, Dialect::Godot4);
    }
}

/// Found by the `text` target: a Dictionary keyed by Nil and by a null Object (both print
/// `null`) reads back with one entry.
#[test]
fn text_exact_keeps_keys_that_print_alike() {
    let mut d = Dictionary::new();
    d.insert(Variant::Nil, Variant::Int(1));
    d.insert(Variant::Object(Object::Null), Variant::Int(2));
    assert_eq!(d.len(), 2);
    assert_text_reads_back(&Variant::Dictionary(d), Dialect::Godot4);
}

/// Found by the `text` target: a Dictionary typed by the builtin Nil (the wire can say so)
/// prints `Dictionary[Nil, Variant]`, which reads back typed by a class called `Nil`.
#[test]
fn text_exact_keeps_typed_nil() {
    let mut d = Dictionary::new();
    d.insert(Variant::from(""), Variant::Nil);
    d.set_typed(Some(DictionaryType {
        key: Some(ElementType::Builtin(Kind::Nil)),
        value: None,
    }));
    assert_text_reads_back(&Variant::Dictionary(d), Dialect::Godot4);
}

/// Found by the `text` target on a Godot 3 scripted object whose property name had become
/// the script's source: property names print between quotes without escapes, so a `"` or a
/// newline in one makes text that does not parse.
#[test]
fn text_exact_escapes_property_names() {
    let v = Variant::Object(Object::Full(Box::new(FullObject {
        class: "Resource".into(),
        properties: vec![("title = \"Sword\"\n".into(), Variant::Int(1))],
    })));
    assert_text_reads_back(&v, Dialect::Godot3);
}

/// Found by the CI fuzz smoke (`.ci/run`, the `text` target): a Godot 4.3 Array typed by
/// the script `r"na"/player.gd` (objects allowed) printed `Array[Resource("r"na"/player.gd")]([])`,
/// which does not parse: the script path in the header was not escaped.
#[test]
fn text_escapes_script_paths_of_typed_containers() {
    let input = [
        11, 230, 28, 0, 3, 0, 15, 0, 0, 0, 114, 34, 110, 97, 34, 47, 112, 108, 97, 121, 101, 114,
        46, 103, 100, 0, 0, 0, 0, 0,
    ];
    let (setup, payload) = Setup::split(&input).unwrap();
    check_text(&setup, payload);
    let (v, _) = decode(payload, setup.dialect, &setup.options).unwrap();
    assert_text_reads_back(&v, setup.dialect);
}

/// Found by the `text` target (seed 2, after the invariants checked typed arrays too): a
/// Pandemonium 5.2 Array typed by the builtin TYPED_ARRAY printed `Array[TypedArray]`,
/// which read back typed by a class called `TypedArray`.
#[test]
fn text_exact_keeps_typed_array_of_builtin_typed_array() {
    let input = [
        15, 16, 27, 0, 0, 0, 27, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 32, 7, 3, 7, 7, 7, 7, 7,
        7, 7, 7, 7, 7, 0, 0, 0, 1, 0, 8, 8, 57, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 100, 0, 7, 7, 7, 7,
        7, 7, 7, 100, 0, 0, 0, 7, 7, 7, 191, 0,
    ];
    let (setup, payload) = Setup::split(&input).unwrap();
    let (v, _) = decode(payload, setup.dialect, &setup.options).unwrap();
    assert_text_reads_back(&v, setup.dialect);
    check_text(&setup, payload);
}

/// Found by the `explain` target with tight limits: the decoder stops at a count that takes
/// it over `limits.max_elements` (`TooManyElements`, ERR_OUT_OF_MEMORY), explain walks on.
#[test]
fn explain_stops_at_the_element_limit() {
    // An Array of 3 nulls with at most 2 elements allowed.
    let bytes = [28, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let mut x = explain::ExplainOptions::new(Dialect::Godot4);
    x.decode.limits.max_elements = 2;
    let err = decode(&bytes, Dialect::Godot4, &x.decode).unwrap_err();
    assert!(matches!(err, DecodeError::TooManyElements { .. }), "{err}");
    let e = explain::explain(&bytes, &x);
    assert_eq!(e.error.map(|e| e.offset()), Some(err.offset()));
}

/// Found by the CI fuzz smoke (`roundtrip`, `-seed=1`): a Godot 4 String holding the overlong
/// NUL `E0 80 80` decoded to `"\0"`, which encodes back as `""`. The engines refuse it (Godot
/// 4 any invalid UTF-8, Godot 3.2.3 this overlong), and so do we now.
#[test]
fn an_overlong_nul_is_refused() {
    let bytes = [4, 0, 0, 0, 3, 0, 0, 0, 0xe0, 0x80, 0x80, 0];
    for dialect in [Dialect::Godot3, Dialect::Godot4] {
        let r = decode(&bytes, dialect, &DecodeOptions::default());
        assert!(r.is_err(), "{dialect:?}: {r:?}");
    }
}

/// Found by the CI fuzz smoke (`text`, `-seed=1`): a full object of class `EncodedObjectAsID`
/// holding only `object_id` printed as the id form's text, read back as an object sent by id
/// and printed again with a `script` property: exact text was not a fixed point. Its class
/// now prints quoted, and a quoted class is always a full object.
#[test]
fn text_exact_keeps_a_full_encoded_object_as_id() {
    let v = Variant::Object(Object::Full(Box::new(FullObject {
        class: "EncodedObjectAsID".into(),
        properties: vec![("object_id".into(), Variant::Int(14640))],
    })));
    assert_text_reads_back(&v, Dialect::Godot4);
    // The id form itself still reads back as an id.
    assert_text_reads_back(&Variant::Object(Object::Id(14640)), Dialect::Godot4);
}
