//! Godot 3: every fixture made by the real Godot 3.2.3 engine decodes and re-encodes byte for
//! byte, and every malformed input gets the engine's verdict.

mod common;
use common::*;
use gdvariant::*;

const G323: Version = Version::new(3, 2, 3);

fn check_corpus(dir: &str, min: usize) {
    let fixtures = load(dir);
    assert!(
        fixtures.len() >= min,
        "{dir}: only {} fixtures",
        fixtures.len()
    );
    let mut bad = Mismatches::default();
    for f in &fixtures {
        let full = f.bool("full_objects");
        let d = DecodeOptions {
            version: Some(G323),
            allow_objects: full,
            keep_leading_bom: true,
            ..Default::default()
        };
        let (value, used) = match decode(&f.bytes, Dialect::Godot3, &d) {
            Ok(x) => x,
            Err(e) => {
                bad.push(&f.name, format!("decode: {e}"));
                continue;
            }
        };
        if used != f.bytes.len() {
            bad.push(&f.name, format!("used {used} of {}", f.bytes.len()));
        }
        // Godot 3.2.3 leaves NodePath padding uninitialised: compare with the zeroed twin.
        let e = EncodeOptions {
            version: Some(G323),
            full_objects: full,
            ..Default::default()
        };
        match encode(&value, Dialect::Godot3, &e) {
            Ok(b) if b == f.expected => {}
            Ok(b) => bad.push(
                &f.name,
                format!(
                    "re-encode differs\n  want {}\n  got  {}",
                    hex(&f.expected),
                    hex(&b)
                ),
            ),
            Err(e) => bad.push(&f.name, format!("encode: {e}")),
        }
    }
    bad.check(fixtures.len());
}

#[test]
fn every_godot323_fixture_round_trips_exactly() {
    check_corpus("godot3", 200);
}

#[test]
fn every_game_fixture_round_trips_exactly() {
    check_corpus("godot3/game", 5);
}

/// For each malformed or lenient input, we accept exactly what the engine accepts, and refuse
/// with the error code the engine returned.
#[test]
fn malformed_inputs_get_the_engines_verdict() {
    let cases = load("godot3/malformed");
    assert!(cases.len() >= 50, "{}", cases.len());
    let mut bad = Mismatches::default();
    for c in &cases {
        let r = decode(
            &c.bytes,
            Dialect::Godot3,
            &DecodeOptions {
                version: Some(G323),
                ..Default::default()
            },
        );
        match (c.bool("ok"), r) {
            (true, Ok(_)) => {}
            (false, Err(e)) => {
                let want = c.str("error");
                // Depth: Godot 3.2.3 has no recursion limit and crashes far deeper than we allow.
                if want != "error"
                    && want != e.engine_error()
                    && !matches!(e, DecodeError::TooDeep { .. })
                {
                    bad.push(
                        &c.name,
                        format!("engine {want}, ours {} ({e})", e.engine_error()),
                    );
                }
            }
            // Godot 3.2.3 has no depth limit (3.3.5+ and 4.x stop at 1024, as we do by
            // default); with the limit raised we accept what it accepts.
            (true, Err(DecodeError::TooDeep { .. })) => {
                let o = DecodeOptions {
                    version: Some(G323),
                    limits: Limits {
                        max_depth: 1 << 20,
                        ..Limits::default()
                    },
                    ..Default::default()
                };
                let c2 = c.bytes.clone();
                let ok = std::thread::Builder::new()
                    .stack_size(64 << 20)
                    .spawn(move || decode(&c2, Dialect::Godot3, &o).is_ok())
                    .unwrap()
                    .join()
                    .unwrap();
                if !ok {
                    bad.push(&c.name, "refused even with the depth limit raised");
                }
            }
            (true, Err(e)) => bad.push(
                &c.name,
                format!("engine accepts ({}), we refuse: {e}", c.str("text")),
            ),
            (false, Ok((v, _))) => bad.push(
                &c.name,
                format!("engine refuses ({}), we accept {v:?}", c.str("error")),
            ),
        }
    }
    bad.check(cases.len());
}

/// Full objects with `allow_objects`: we agree with the engine on every structural verdict.
/// The engine also refuses classes it cannot instance (`ERR_UNAVAILABLE`: unknown, abstract or
/// singleton classes); that depends on its class database, which a decoder of data does not
/// have, so we decode those objects as data — the only difference, checked here by name.
#[test]
fn objects_with_allow_objects_get_the_engines_verdict() {
    let cases = load("godot3/malformed/allow_objects");
    let mut bad = Mismatches::default();
    let mut class_db = 0;
    for c in &cases {
        let o = DecodeOptions {
            version: Some(G323),
            allow_objects: true,
            ..Default::default()
        };
        let r = decode(&c.bytes, Dialect::Godot3, &o);
        match (c.bool("ok"), &r) {
            (true, Ok(_)) => {}
            (false, Ok((Variant::Object(Object::Full(_)), _)))
                if c.str("error") == "ERR_UNAVAILABLE" =>
            {
                class_db += 1
            }
            (false, Err(e)) if e.engine_error() == c.str("error") => {}
            _ => bad.push(
                &c.name,
                format!("engine ok={} {}, ours {r:?}", c.bool("ok"), c.str("error")),
            ),
        }
    }
    assert_eq!(class_db, 3, "unknown, abstract and singleton classes");
    bad.check(cases.len());
}

/// Godot 3.0.x wrote every INT with FLAG_64 (the spec's `Int64Widening` is 3.1+): the bytes of
/// godotengine/godot issue #15383, where Godot 3.0-beta's `StreamPeerTCP.put_var(5)` sent
/// `0c000000 02000100 05000000 00000000` (a `store_var` frame).
#[test]
fn godot30_writes_every_int_64_bit() {
    use gdvariant::{framing::Framing, Format, Variant, Version};
    let g30 = Format::godot3()
        .version(Version::new(3, 0, 0))
        .framing(Framing::StoreVar { big_endian: false });
    let bytes = gdvariant::to_vec(&Variant::Int(5), &g30).unwrap();
    assert_eq!(hex(&bytes), "0c000000020001000500000000000000");
    let back: Variant = gdvariant::from_slice(&bytes, &g30).unwrap();
    assert_eq!(back, Variant::Int(5));
    // Every 3.0 patch release; 3.1 and later write 5 in 32 bits, as 3.2.3 does in the corpus.
    let at = |v: Version| {
        let f = Format::godot3().version(v);
        hex(&gdvariant::to_vec(&Variant::Int(800), &f).unwrap())
    };
    assert_eq!(at(Version::new(3, 0, 6)), "020001002003000000000000");
    assert_eq!(at(Version::new(3, 1, 0)), "0200000020030000");
}

/// Before Godot 3.2.3 (the spec's `NullObjectAsNil`) a null Object kept its OBJECT header:
/// with full objects an empty class name (how exported 3.0 and 3.1 projects store an
/// `InputEventKey`'s empty `script`), without them the id 0. Both read back as a null object.
#[test]
fn before_godot323_a_null_object_keeps_its_object_header() {
    use gdvariant::{Format, Object, Variant, Version};
    let null = Variant::Array(vec![Variant::Object(Object::Null)].into());
    for (version, full, want) in [
        // [null]: ARRAY, one element, then the null object.
        ((3, 1, 0), true, "13000000010000001100000000000000"),
        ((3, 1, 0), false, "1300000001000000110001000000000000000000"),
        ((3, 0, 6), true, "13000000010000001100000000000000"),
        ((3, 2, 3), true, "130000000100000000000000"),
        ((3, 2, 3), false, "130000000100000000000000"),
    ] {
        let mut f = Format::godot3().version(Version::new(version.0, version.1, version.2));
        if full {
            f = f.with_objects();
        }
        let bytes = gdvariant::to_vec(&null, &f).unwrap();
        assert_eq!(hex(&bytes), want, "{version:?} full_objects={full}");
        let back: Variant = gdvariant::from_slice(&bytes, &f).unwrap();
        if version.2 == 3 {
            assert_eq!(back, Variant::Array(vec![Variant::Nil].into()));
        } else {
            assert_eq!(back, null, "{version:?}");
        }
    }
}
