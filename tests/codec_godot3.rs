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
