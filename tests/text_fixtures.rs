//! The engines' own text of every fixture: `to_text(decode(bytes))` must equal what the engine
//! printed, character for character, and `from_text` of the engine's text must give back the
//! engine's bytes wherever that text is exact.

mod common;
use common::text::text_losses;
use common::*;
use gdvariant::text::encode_text_many;
use gdvariant::{
    decode, encode, from_text, to_text, DecodeOptions, Dialect, EncodeOptions, Format,
};

/// Fixtures whose engine text holds information that is not in the bytes: the engine printed
/// a live object, whose script variables (`level`, `tags`, `cache`) are never sent. Each name
/// is checked to really differ, so the list cannot go stale.
const TEXT_NOT_IN_BYTES_GODOT4: &[&str] = &[
    "object_scripted_full",
    "object_scripted_resource_full",
    "object_in_array_full",
    "typed_script_full",
];

/// Fixtures where the engine's `bytes_to_var` changes the value in a way our decoder does
/// not: an `Array[Object]` sent as builtin type OBJECT comes back from 4.3 typed
/// `Array[EncodedObjectAsID]`, while `decode` keeps the type that was sent. For these the
/// engine's text of the value as sent (`text`) is the one to match.
///
/// Likewise 3.2.3 decodes `NodePath("/")` (absolute, no names) as `NodePath("")`; `decode`
/// keeps it absolute.
const DECODER_KEEPS_SENT_VALUE: &[&str] = &["typed_object_builtin", "nodepath_root_slash"];

/// The engine text of the script variables those fixtures' objects have but do not send
/// (tests/fixtures/*/README.md: the player's `level` and `tags`, the item's `cache`, the bag's `dirty`), as
/// Godot 4.3 and Godot 3.2.3 print them.
const UNSENT_SCRIPT_VARIABLES: &[&str] = &[
    ",\"level\":3,\"tags\":[\"a\", \"b\"]",
    ",\"cache\":{}",
    ",\"level\":3,\"tags\":[ \"a\", \"b\" ]",
    ",\"cache\":{\n\n}",
    ",\"dirty\":false",
];

/// As [`TEXT_NOT_IN_BYTES_GODOT4`], for Godot 3.2.3: the players' `level` and `tags`, the
/// items' `cache`, which the engine prints from the live object but never sends.
const TEXT_NOT_IN_BYTES_GODOT3: &[&str] = &[
    "object_scripted_full",
    "object_in_array_full",
    "object_item_full",
    "object_bag_full",
    "object_player_custom_full",
];
const TEXT_NOT_IN_BYTES_GODOT3_GAME: &[&str] = &[
    "player_obj_full",
    "player_obj_default_full",
    "item_obj_full",
    "bag_obj_full",
    "players_obj_list_full",
    "player_obj_in_dict_full",
];

/// What the engine prints for the decoded value: `decoded_text` when the manifest has one
/// (the engine's `var_to_str(bytes_to_var(bytes))`, e.g. an object sent by id comes back as an
/// `EncodedObjectAsID`), else `text`.
fn engine_text(f: &Fixture) -> &str {
    match f.str("decoded_text") {
        t if t.is_empty() || DECODER_KEEPS_SENT_VALUE.contains(&f.name.as_str()) => f.str("text"),
        t => t,
    }
}

fn decode_fixture(f: &Fixture, dialect: Dialect) -> Result<gdvariant::Variant, String> {
    let opts = DecodeOptions {
        allow_objects: f.bool("full_objects"),
        ..Default::default()
    };
    decode(&f.bytes, dialect, &opts)
        .map(|(v, _)| v)
        .map_err(|e| format!("decode: {e}"))
}

fn holds_rid(v: &gdvariant::Variant) -> bool {
    use gdvariant::Variant;
    match v {
        Variant::Rid(_) => true,
        Variant::Array(a) => a.items.iter().any(holds_rid),
        Variant::Dictionary(d) => d
            .entries()
            .iter()
            .any(|(k, x)| holds_rid(k) || holds_rid(x)),
        Variant::Object(gdvariant::Object::Full(o)) => {
            o.properties.iter().any(|(_, x)| holds_rid(x))
        }
        _ => false,
    }
}

/// First difference of two texts, for readable failures.
fn diff(want: &str, got: &str) -> String {
    let at = want
        .char_indices()
        .zip(got.chars())
        .find(|((_, a), b)| a != b)
        .map(|((i, _), _)| i)
        .unwrap_or(want.len().min(got.len()));
    let cut = |s: &str| -> String {
        let start = s.floor_char_boundary(at.saturating_sub(40));
        s[start..].chars().take(100).collect::<String>()
    };
    format!(
        "differs at byte {at}\n  engine: {:?}\n  ours:   {:?}",
        cut(want),
        cut(got)
    )
}

fn check_text(dir: &str, dialect: Dialect, not_in_bytes: &[&str]) -> usize {
    let fixtures = load(dir);
    let mut bad = Mismatches::default();
    let mut agree = 0;
    for f in &fixtures {
        let value = match decode_fixture(f, dialect) {
            Ok(v) => v,
            Err(e) => {
                bad.push(&f.name, e);
                continue;
            }
        };
        let ours = to_text(&value, dialect);
        let want = engine_text(f);
        let excluded = not_in_bytes.contains(&f.name.as_str());
        match (ours == want, excluded) {
            (true, false) => agree += 1,
            (false, false) => bad.push(&f.name, diff(want, &ours)),
            (true, true) => bad.push(&f.name, "listed as text-not-in-bytes but agrees: unlist it"),
            // Excluded: the engine's text must be ours plus exactly the unsent script variables.
            (false, true) => {
                let mut trimmed = want.to_string();
                for unsent in UNSENT_SCRIPT_VARIABLES {
                    trimmed = trimmed.replace(unsent, "");
                }
                if trimmed != ours {
                    bad.push(
                        &f.name,
                        format!(
                            "beyond the unsent script variables: {}",
                            diff(&trimmed, &ours)
                        ),
                    );
                }
            }
        }
    }
    bad.check(fixtures.len());
    println!(
        "{dir}: {agree} of {} engine texts reproduced exactly, {} excluded by name",
        fixtures.len(),
        not_in_bytes.len()
    );
    agree
}

fn check_parse(dir: &str, dialect: Dialect) {
    let fixtures = load(dir);
    let mut bad = Mismatches::default();
    let (mut exact, mut lossy, mut unreadable) = (0, 0, 0);
    for f in &fixtures {
        let Ok(value) = decode_fixture(f, dialect) else {
            continue;
        };
        // Godot 3 prints an RID as nothing at all (`[ ,  ]`): such text cannot be read.
        if dialect == Dialect::Godot3 && holds_rid(&value) {
            unreadable += 1;
            continue;
        }
        // Every text the engine printed parses, including the live-object texts.
        if let Err(e) = from_text(f.str("text"), dialect) {
            bad.push(&f.name, format!("from_text of `text`: {e}"));
        }
        let text = engine_text(f);
        let parsed = match from_text(text, dialect) {
            Ok(v) => v,
            Err(e) => {
                bad.push(&f.name, format!("from_text: {e}"));
                continue;
            }
        };
        let opts = EncodeOptions {
            full_objects: f.bool("full_objects"),
            ..Default::default()
        };
        let bytes = encode(&parsed, dialect, &opts);
        // What `encode --from text` runs, encoding as it parses (a top-level container
        // element by element), gives the same bytes or refuses the value the same way.
        let mut format = Format::new(dialect);
        format.encode = opts.clone();
        let mut streamed = Vec::new();
        match (encode_text_many(text, &format, &mut streamed), &bytes) {
            (Ok(Ok(())), Ok(b)) if streamed == *b => {}
            (Ok(Err((0, e))), Err(whole)) if e == *whole => {}
            (got, _) => bad.push(
                &f.name,
                format!(
                    "encode_text_many: {got:?}, {}; encode(from_text): {bytes:?}",
                    hex(&streamed)
                ),
            ),
        }
        let mut losses = text_losses(&value, dialect);
        // The engine's decoder (and ours, by default) drops a leading U+FEFF of a string: the
        // decoded value, whose text the engine printed, no longer holds those bytes.
        if encode(&value, dialect, &opts).ok().as_ref() != Some(&f.expected) {
            losses.push("decoding drops a leading U+FEFF");
        }
        let same = matches!(&bytes, Ok(b) if *b == f.expected);
        match (same, losses.is_empty()) {
            (true, _) => exact += 1,
            (false, false) => lossy += 1,
            (false, true) => bad.push(
                &f.name,
                match bytes {
                    Ok(b) => format!(
                        "text is exact but reads back to other bytes\n  want {}\n  got  {}",
                        hex(&f.expected),
                        hex(&b)
                    ),
                    Err(e) => format!("text is exact but does not encode: {e}"),
                },
            ),
        }
    }
    bad.check(fixtures.len());
    println!(
        "{dir}: {exact} engine texts read back to the engine's bytes; {lossy} are lossy by a named rule; {unreadable} hold a Godot 3 RID (printed as nothing)"
    );
}

#[test]
fn godot4_text_is_the_engines() {
    let agree = check_text("godot4", Dialect::Godot4, TEXT_NOT_IN_BYTES_GODOT4);
    assert!(agree >= 250, "only {agree} agree");
}

#[test]
fn godot4_engine_text_reads_back_to_the_engines_bytes() {
    check_parse("godot4", Dialect::Godot4);
}

#[test]
fn godot3_text_is_the_engines() {
    check_text("godot3", Dialect::Godot3, TEXT_NOT_IN_BYTES_GODOT3);
    check_text(
        "godot3/game",
        Dialect::Godot3,
        TEXT_NOT_IN_BYTES_GODOT3_GAME,
    );
}

#[test]
fn godot3_engine_text_reads_back_to_the_engines_bytes() {
    check_parse("godot3", Dialect::Godot3);
    check_parse("godot3/game", Dialect::Godot3);
}
