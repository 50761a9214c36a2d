//! `json::append_json_of_bytes`, the JSON `decode --format json` writes straight from a
//! frame's bytes, against serde_json's text of the decoded value (`json::Json`, the form's one
//! definition): on every engine-made fixture, on the engine's savegame, and at the edges of
//! each of the walk's own readings (INT and REAL widths, NaN payloads, text the engine's
//! reading changes, NodePaths, typed containers). Where the bytes do not decode it must give
//! up, leaving the buffer as it was.

mod common;
use common::*;
use gdvariant::framing::{FrameReader, Framing};
use gdvariant::{decode, json, DecodeOptions, Dialect, Format, Version};

/// Checks one input; `true` when the walk took it.
fn check(name: &str, bytes: &[u8], dialect: Dialect, options: &DecodeOptions) -> bool {
    let mut out = b"x".to_vec();
    let got = json::append_json_of_bytes(&mut out, bytes, dialect, options);
    match decode(bytes, dialect, options) {
        Ok((v, used)) => match got {
            Some(n) => {
                assert_eq!(n, used, "{name}: bytes used");
                let serde = serde_json::to_string(&json::Json(&v)).unwrap();
                assert_eq!(String::from_utf8_lossy(&out[1..]), serde, "{name}");
            }
            None => assert_eq!(out, b"x", "{name}: the buffer changed on giving up"),
        },
        Err(e) => {
            assert_eq!(got, None, "{name}: took bytes the decoder refuses ({e})");
            assert_eq!(out, b"x", "{name}: the buffer changed on giving up");
        }
    }
    got.is_some()
}

fn options(version: Version, keep_leading_bom: bool) -> DecodeOptions {
    DecodeOptions {
        version: Some(version),
        keep_leading_bom,
        ..Default::default()
    }
}

const G3: Version = Version::new(3, 2, 3);
const G43: Version = Version::new(4, 3, 0);

/// Every value the engines made (Godot 3.2.3 and 4.3), both BOM choices: the text is
/// serde_json's wherever the walk takes the bytes, and it takes most of them.
#[test]
fn engine_fixtures_are_written_as_serde_writes() {
    let (mut total, mut taken) = (0, 0);
    for (dir, dialect, version) in [
        ("godot3", Dialect::Godot3, G3),
        ("godot4", Dialect::Godot4, G43),
    ] {
        for f in load(dir) {
            for bom in [true, false] {
                let mut o = options(version, bom);
                o.allow_objects = f.bool("full_objects");
                total += 1;
                taken += usize::from(check(&f.name, &f.bytes, dialect, &o));
            }
        }
    }
    assert!(total > 1000, "only {total} fixtures");
    assert!(
        taken * 10 > total * 8,
        "the walk took only {taken} of {total}"
    );
}

/// The engine's savegame (Godot 3.2.3 `store_var` frames) and the format that reads it as
/// `decode --format json` does.
fn savegame() -> (Vec<u8>, Format) {
    let bytes = std::fs::read(fixtures().join("godot3/streams/savegame.sav")).unwrap();
    let format = Format {
        decode: options(G3, true),
        ..Format::godot3().framing(Framing::STORE_VAR)
    };
    (bytes, format)
}

/// The engine's savegame (Godot 3.2.3 `store_var`, the benchmarks' savegame): every frame is
/// taken, the one with a NodePath too (the scan used to leave NodePaths to the driver), and
/// written as serde_json writes it.
#[test]
fn every_savegame_frame_is_taken() {
    let (bytes, format) = savegame();
    let mut reader = FrameReader::new(&bytes[..], &format);
    let mut frames = 0;
    let mut node_paths = 0;
    while let Some(frame) = reader.next_frame_or(|payload| {
        assert!(
            check("savegame frame", payload, Dialect::Godot3, &format.decode),
            "frame {frames} not taken"
        );
        node_paths += usize::from(decode(payload, Dialect::Godot3, &format.decode).is_ok_and(
            |(v, _)| {
                let mut found = false;
                visit(&v, &mut |x| {
                    found |= matches!(x, gdvariant::Variant::NodePath(_))
                });
                found
            },
        ));
        true
    }) {
        assert!(frame.unwrap().is_none(), "a frame was decoded");
        frames += 1;
    }
    assert_eq!(frames, 6);
    assert_eq!(node_paths, 1, "the savegame's NodePath");
}

fn visit(v: &gdvariant::Variant, f: &mut dyn FnMut(&gdvariant::Variant)) {
    f(v);
    match v {
        gdvariant::Variant::Array(a) => a.items.iter().for_each(|x| visit(x, f)),
        gdvariant::Variant::Dictionary(d) => d.entries().iter().for_each(|(k, x)| {
            visit(k, f);
            visit(x, f)
        }),
        _ => {}
    }
}

fn word(w: u32) -> [u8; 4] {
    w.to_le_bytes()
}

/// A string's bytes: length, text, padding to 4.
fn text(s: &[u8]) -> Vec<u8> {
    let mut b = word(s.len() as u32).to_vec();
    b.extend_from_slice(s);
    b.resize(b.len() + (4 - s.len() % 4) % 4, 0);
    b
}

/// Bytes of one value `tag` with `payload`, alone and inside an Array (type id `array`) of
/// two (so the walk's own reading is checked both at the root and between elements).
fn both_in(array: u32, tag: u32, payload: &[u8]) -> [Vec<u8>; 2] {
    let mut one = word(tag).to_vec();
    one.extend_from_slice(payload);
    let mut array = [word(array), word(2)].concat();
    array.extend_from_slice(&one);
    array.extend_from_slice(&one);
    [one, array]
}

/// [`both_in`] for Godot 3.
fn both(tag: u32, payload: &[u8]) -> [Vec<u8>; 2] {
    both_in(19, tag, payload)
}

/// The walk reads INT, REAL, Vector2 and plain text itself: each at the edges of its
/// widths and values, against serde_json's text of what the decoder reads.
#[test]
fn the_walks_own_readings_are_the_decoders() {
    const FLAG_64: u32 = 1 << 16;
    let mut cases: Vec<(u32, Vec<u8>)> = Vec::new();
    for i in [0i32, 1, -1, 9, 10, 99, 100, i32::MAX, i32::MIN] {
        cases.push((2, word(i as u32).to_vec()));
    }
    for i in [
        0i64,
        -1,
        1 << 53,
        (1 << 53) + 1,
        -(1 << 53) - 1,
        i64::MAX,
        i64::MIN,
        1 << 40,
    ] {
        cases.push((2 | FLAG_64, i.to_le_bytes().to_vec()));
    }
    let f32s = [
        0.0f32.to_bits(),
        (-0.0f32).to_bits(),
        1.5f32.to_bits(),
        0.1f32.to_bits(),
        100.0f32.to_bits(),
        f32::INFINITY.to_bits(),
        f32::NEG_INFINITY.to_bits(),
        0x7fc0_0000,
        0xffc0_0000,
        0x7fc0_0001,
        0x7f80_0001,
        0xff80_0001,
        1,
    ];
    for &b in &f32s {
        cases.push((3, word(b).to_vec()));
        for &c in &f32s[..4] {
            cases.push((5, [word(b), word(c)].concat()));
            cases.push((5, [word(c), word(b)].concat()));
        }
    }
    for b in [
        0.1f64.to_bits(),
        (-0.0f64).to_bits(),
        1e300f64.to_bits(),
        0x7ff8_0000_0000_0000,
        0x7ff0_0000_0000_0001,
        0xfff8_0000_0000_0000,
    ] {
        cases.push((3 | FLAG_64, b.to_le_bytes().to_vec()));
        // Godot 3 Vector2s are 32-bit whatever the flag says (or as its spec says).
        cases.push((5 | FLAG_64, [b.to_le_bytes(), b.to_le_bytes()].concat()));
    }
    for s in [
        &b""[..],
        b"a",
        b"GDSAVE",
        b"res://maps/level_01.tscn",
        b"with \"quotes\" and \\",
        b"tab\there",
        "é日😀".as_bytes(),
        b"nul\0inside",
        b"\xef\xbb\xbfbom first",
        b"\xff not utf-8",
        b"\xed\xa0\x80 a surrogate",
    ] {
        cases.push((4, text(s)));
    }
    let mut taken = 0;
    for (tag, payload) in &cases {
        for bytes in both(*tag, payload) {
            for bom in [true, false] {
                let name = format!("{tag:#x} {payload:02x?} bom {bom}");
                taken += usize::from(check(&name, &bytes, Dialect::Godot3, &options(G3, bom)));
            }
        }
    }
    assert!(
        taken > cases.len() * 3,
        "taken {taken} of {}",
        cases.len() * 4
    );
}

/// NodePaths, which the scan now reads: names and subnames, absolute or not, the obsolete
/// property flag's extra subname, counts that wrap, the old format (an error), more strings
/// than bytes, a truncated path, in both dialects.
#[test]
fn node_paths_are_taken_as_the_decoder_reads_them() {
    let path = |first: u32, subnames: u32, flags: u32, strings: &[&[u8]]| {
        let mut b = [word(first), word(subnames), word(flags)].concat();
        for s in strings {
            b.extend_from_slice(&text(s));
        }
        b
    };
    const NEW: u32 = 0x8000_0000;
    let cases = [
        (
            path(NEW | 2, 1, 1, &[b"root", b"Player", b"position"]),
            true,
        ),
        (path(NEW | 1, 0, 0, &[b".."]), true),
        (path(NEW, 0, 0, &[]), true),
        (path(NEW | 1, 1, 2, &[b"a", b"b", b"c"]), true),
        (path(NEW | 1, 0xFFFF_FFFF, 0, &[]), true),
        (path(NEW | 1, 0xFFFF_FFFE, 2, &[]), true),
        (path(NEW | 1, 0, 0, &["é".as_bytes()]), true),
        (path(NEW | 1, 0, 0, &[b"nul\0"]), true),
        (path(NEW | 1, 0, 0, &[b"\xff"]), false),
        (path(2, 0, 0, &[b"a", b"b"]), false),
        (path(NEW | 3, 0, 0, &[b"a", b"b"]), false),
        (path(NEW | 0x7FFF_FFFF, 0x7FFF_FFFF, 0, &[b"a"]), false),
        (path(NEW | 1, 0, 0, &[]), false),
    ];
    for (dialect, version, tag, array) in [
        (Dialect::Godot3, G3, 15, 19),
        (Dialect::Godot4, G43, 22, 28),
    ] {
        for (payload, decodes) in &cases {
            let mut bytes = word(tag).to_vec();
            bytes.extend_from_slice(payload);
            // Cut short inside the last word too.
            for cut in [0, 1] {
                let bytes = &bytes[..bytes.len() - cut];
                let o = options(version, true);
                let taken = check(
                    &format!("{tag} {payload:02x?} cut {cut}"),
                    bytes,
                    dialect,
                    &o,
                );
                if cut == 0 {
                    assert_eq!(taken, *decodes, "{payload:02x?}");
                }
            }
            let [_, in_array] = both_in(array, tag, payload);
            let o = options(version, true);
            check("in an array", &in_array, dialect, &o);
            // Borrowed decoding validates a container with the scan first, and debug builds
            // check the scan's verdict against the driver's: it must vouch for exactly the
            // paths the driver reads.
            assert_eq!(
                gdvariant::decode_borrowed(&in_array, dialect, &o).is_ok(),
                *decodes,
                "{payload:02x?} in an array"
            );
        }
    }
}

/// Containers: empty, nested, dictionaries in arrays and arrays in dictionaries, and typed
/// ones (which the walk leaves to the decoder's step), through the Godot 4 encoder's bytes.
#[test]
fn containers_are_written_as_serde_writes() {
    use gdvariant::{
        encode, Array, ArrayType, Dictionary, ElementType, EncodeOptions, Kind, Variant,
    };
    let leaf = |i: i64| Variant::Int(i);
    let mut dict = Dictionary::new();
    dict.insert(Variant::from("a"), leaf(1));
    dict.insert(leaf(2), Variant::Array(Array::from(vec![])));
    dict.insert(Variant::from("n"), Variant::Dictionary(Dictionary::new()));
    let typed = Array {
        items: vec![leaf(1), leaf(2)],
        typed: Some(Box::new(ArrayType {
            element: ElementType::Builtin(Kind::Int),
            pandemonium_packed: false,
        })),
    };
    let values = [
        Variant::Array(Array::from(vec![])),
        Variant::Dictionary(Dictionary::new()),
        Variant::Dictionary(dict.clone()),
        Variant::Array(Array::from(vec![
            Variant::Dictionary(dict.clone()),
            Variant::Array(Array::from(vec![Variant::Array(Array::from(vec![leaf(
                3,
            )]))])),
            Variant::Array(typed.clone()),
            Variant::Nil,
            Variant::Bool(true),
        ])),
        Variant::Array(typed),
    ];
    for v in &values {
        let bytes = encode(v, Dialect::Godot4, &EncodeOptions::default()).unwrap();
        assert!(
            check(
                &format!("{v:?}"),
                &bytes,
                Dialect::Godot4,
                &options(G43, true)
            ),
            "{v:?} not taken"
        );
    }
}

/// `decode --format json`'s reading of a framed file (`FrameReader::next_frame_or`, the walk
/// taking each frame it can) against the plain reader's: the savegame cut short and with
/// bytes changed at every place gives the same frames as the same text, and the same error
/// (message and offset) where the plain reader stops.
#[test]
fn framed_reading_with_the_walk_fails_as_the_reader_does() {
    let (engine, format) = savegame();
    let read = |bytes: &[u8]| {
        let plain: Vec<Result<String, String>> = FrameReader::new(bytes, &format)
            .with_offsets()
            .map(|f| {
                f.map(|f| json::to_json_string(&f.value))
                    .map_err(|e| e.to_string())
            })
            .collect();
        let mut walked = Vec::new();
        let mut reader = FrameReader::new(bytes, &format);
        loop {
            let mut buf = Vec::new();
            let Some(f) = reader.next_frame_or(|p| {
                json::append_json_of_bytes(&mut buf, p, Dialect::Godot3, &format.decode).is_some()
            }) else {
                break;
            };
            walked.push(match f {
                Ok(None) => Ok(String::from_utf8(buf).unwrap()),
                Ok(Some(frame)) => Ok(json::to_json_string(&frame.value)),
                Err(e) => Err(e.to_string()),
            });
        }
        (plain, walked)
    };
    let mut errors = 0;
    for at in 0..engine.len() {
        let (plain, walked) = read(&engine[..at]);
        assert_eq!(walked, plain, "cut at {at}");
        for x in [0x00, 0x01, 0xff] {
            let mut bytes = engine.clone();
            bytes[at] ^= x.max(1);
            if x == 0 {
                bytes[at] = 0;
            }
            let (plain, walked) = read(&bytes);
            errors += usize::from(plain.iter().any(|r| r.is_err()));
            assert_eq!(walked, plain, "byte {at} changed by {x:#x}");
        }
    }
    assert!(errors > 1000, "only {errors} changed inputs fail");
}
