//! Differential fuzzing against live engines: fixture bytes mutated from a fixed seed go through `godot3-server` (3.2.3) and headless Godot 4.3 and 4.4.1, and through `decode` + `encode`; every disagreement is sorted into a named category, and a category missing from the allowlist fails the test.
//!
//! `GDVARIANT_DIFF_CASES` sets the inputs per engine (default 20,000), `GDVARIANT_DIFF_SEED` the
//! seed. Engines: `godot3-server` on PATH (or `GODOT3_BIN`), `GODOT4_3` and `GODOT4_4`
//! (`eval "$(../shared/engines/install.sh --env)"`); a missing engine skips with a notice, or
//! fails when `CI=true`.

mod common;
#[path = "support/godot3.rs"]
mod godot3;
#[path = "support/godot4.rs"]
mod godot4;
// For its walker over values (`visit`); this test installs no counting allocator.
#[path = "../fuzz/src/invariants/mod.rs"]
mod invariants;

use common::{hex, unhex};
use gdvariant::*;
use invariants::visit;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A disagreement we know of and have not fixed: its category, the engines it shows on, a
/// small input that shows it, and why it happens. Each repro runs with the batch and must
/// still land in its category (a fixed one fails, so that the list stays true).
struct Known {
    category: &'static str,
    engines: &'static [&'static str],
    repro: &'static str,
    reason: &'static str,
}

const KNOWN: &[Known] = &[
    // Inputs that agree only in engine mode (`ENGINE_MODE`): they must keep agreeing.
    Known {
        category: "agree",
        engines: &["godot4.3", "godot4.4.1"],
        repro: "1c00010002000000010000000400000000000000",
        reason: "engine mode: Array[int] holding a String drops it, as the engine's typed push_back does",
    },
    Known {
        category: "agree",
        engines: &["godot4.3", "godot4.4.1"],
        repro: "1c00010003000000010000000200000001000000",
        reason: "engine mode: Array[float] holding the int 1 gets 1.0, as the engine's typed push_back converts it",
    },
    Known {
        category: "agree",
        engines: &["godot4.3", "godot4.4.1"],
        repro: "1c00010003000000010000000200000001000001",
        reason: "engine mode: the int 16777217 into Array[float] goes through a 32-bit float (16777216.0), as the engine's `(float)` cast does",
    },
    Known {
        category: "agree",
        engines: &["godot4.4.1"],
        repro: "1b0009000300000011000000456e636f6465644f626a6563744173494400000001000000020000000500000000000000",
        reason: "engine mode: the int key 5 of a Dictionary[float, …] becomes 5.0, as the engine's typed key check converts it",
    },
    Known {
        category: "agree",
        engines: &["godot4.4.1"],
        repro: "1b00050002000000020000000100000004000000000000000200000001000000",
        reason: "engine mode: Dictionary[int, int] holding a String key drops the entry, as the engine's typed key check does",
    },
    Known {
        category: "agree",
        engines: &["godot3.2.3", "godot4.3", "godot4.4.1"],
        repro: "030000000100807f",
        reason: "engine mode: a 32-bit signalling NaN comes out quiet, as the engine's widening to double makes it (default decoding keeps its bits)",
    },
    Known {
        category: "engine_counts_missing_byte_array_padding_as_used",
        engines: &["godot4.3", "godot4.4.1"],
        repro: "1d0000000100000001",
        reason: "decode_variant's r_len counts the padding a final PackedByteArray lacks (12 for 9 bytes); we say 9 bytes were used",
    },
    Known {
        category: "nodepath_string_count_checked_before_strings",
        engines: &["godot4.3", "godot4.4.1"],
        repro: "16000000020000800100000001000000829b347e",
        reason: "we check that every NodePath string's length word fits before reading (ERR_INVALID_DATA); the engine reads the first string and fails with ERR_FILE_EOF",
    },
    Known {
        category: "nodepath_string_count_checked_before_strings",
        engines: &["godot3.2.3"],
        repro: "0f0000000100008000000000020000002e2e0000",
        reason: "the same in 3.2.3 (flag 2 adds a subname)",
    },
    Known {
        category: "agree",
        engines: &["godot4.3", "godot4.4.1"],
        repro: "1c0001001800000000000000",
        reason: "engine mode: an Array typed by the builtin OBJECT, read without objects, is Array[EncodedObjectAsID] as in the engine (default decoding keeps the builtin type)",
    },
    Known {
        category: "agree",
        engines: &["godot3.2.3"],
        repro: "0400000003000000e0808100",
        reason: "3.2.3 refuses the overlong `e0 80 81` (its check at the second continuation byte), and so do we",
    },
    Known {
        category: "agree",
        engines: &["godot3.2.3"],
        repro: "0f000000000000800000000001000000",
        reason: "engine mode: an absolute NodePath with no names reads as relative, as in 3.2.3 (default decoding keeps the flag)",
    },
    Known {
        category: "agree",
        engines: &["godot4.3"],
        repro: "1b000000010000001500000001000000610000000200000001000000",
        reason: "engine mode: a StringName Dictionary key is a String, as 4.3 stores it (default decoding keeps the StringName)",
    },
    Known {
        category: "agree",
        engines: &["godot4.3"],
        repro: "1b00000003000000040000000100000061000000020000000100000015000000010000006100000002000000020000000400000001000000620000000200000003000000",
        reason: "engine mode: a StringName key equal to an earlier String key merges with it (the later value in the first one's place), as in 4.3",
    },
    Known {
        category: "agree",
        engines: &["godot4.4.1"],
        repro: "1b0001001800000000000000",
        reason: "engine mode: a Dictionary keyed by the builtin OBJECT, read without objects, is keyed EncodedObjectAsID as in the engine (default decoding keeps the builtin type)",
    },
];

/// What one side made of one input.
#[derive(Debug, Clone)]
enum Verdict {
    /// Decoded: bytes used (when known) and the re-encoding.
    Ok { used: Option<usize>, bytes: Vec<u8> },
    /// Refused, with the engine's error name (or `?` when it printed none).
    Err(String),
}

/// Runs a batch of inputs through an engine, one verdict per input.
type RunBatch = dyn Fn(&[Vec<u8>]) -> Vec<Verdict>;

/// One engine under test.
struct Engine {
    name: &'static str,
    dialect: Dialect,
    version: Version,
    run: Box<RunBatch>,
}

fn is_ci() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
}

fn godot4(var: &'static str, name: &'static str, version: Version) -> Option<Engine> {
    let Some(bin) = std::env::var_os(var)
        .map(PathBuf::from)
        .filter(|p| p.is_file())
    else {
        if is_ci() {
            panic!("{var} is not set but CI=true: eval \"$(../shared/engines/install.sh --env)\"");
        }
        println!("notice: {var} not set; skipping the {name} differential test");
        return None;
    };
    Some(Engine {
        name,
        dialect: Dialect::Godot4,
        version,
        run: Box::new(move |inputs| run_godot4(&bin, inputs)),
    })
}

/// tests/oracle/godot4_b2v.gd through the shared runner: per input its verdict.
fn run_godot4(bin: &Path, inputs: &[Vec<u8>]) -> Vec<Verdict> {
    godot4::run(bin, inputs, false)
        .into_iter()
        .map(|r| match r {
            godot4::Reply::Ok { used, bytes } => Verdict::Ok { used, bytes },
            godot4::Reply::Err(e) => Verdict::Err(e),
        })
        .collect()
}

fn godot3_engine() -> Option<Engine> {
    let engine = godot3::engine()?;
    Some(Engine {
        name: "godot3.2.3",
        dialect: Dialect::Godot3,
        version: Version::new(3, 2, 3),
        run: Box::new(move |inputs| {
            let blobs: Vec<(Vec<u8>, bool)> = inputs.iter().map(|b| (b.clone(), false)).collect();
            engine
                .bytes2var(&blobs)
                .into_iter()
                .map(|r| match r {
                    godot3::Reply::Ok { bytes, .. } => Verdict::Ok { used: None, bytes },
                    godot3::Reply::Err(e) => Verdict::Err(e),
                })
                .collect()
        }),
    })
}

/// splitmix64: a fixed seed gives the same inputs on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Byte sequences engines and decoders disagree on: UTF-8 edge cases, NaNs, counts.
const SPLICES: &[&[u8]] = &[
    &[0xed, 0xa0, 0x80],                   // a lone surrogate
    &[0xe0, 0x80, 0x80],                   // overlong
    &[0xc0, 0x80],                         // overlong NUL
    &[0xf8, 0x88, 0x80, 0x80, 0x80],       // 5-byte form
    &[0xfc, 0x84, 0x80, 0x80, 0x80, 0x80], // 6-byte form
    &[0xf4, 0x90, 0x80, 0x80],             // beyond U+10FFFF
    &[0xef, 0xbb, 0xbf],                   // BOM
    &[0xff, 0xfe],
    &[0x00],
    &[0x01, 0x00, 0x80, 0x7f], // signalling NaN (f32)
    &[0x01, 0x00, 0xc0, 0xff], // quiet -NaN with payload (f32)
    &[0x00, 0x00, 0x00, 0x80], // -0.0 / bit 31
];

const WORDS: &[u32] = &[
    0,
    1,
    2,
    3,
    4,
    5,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0x8000_0001,
    0x8000_0002,
    0x10000,
    0x30000,
    0x50000,
    0xf0000,
];

/// One deterministic mutation of `input` (1 to 3 edits).
fn mutate(rng: &mut Rng, input: &[u8], pool: &[Vec<u8>]) -> Vec<u8> {
    let mut b = input.to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(b.len() + 1);
        match rng.below(9) {
            0 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] ^= 1 << rng.below(8);
            }
            1 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] = rng.next() as u8;
            }
            2 => b.truncate(at),
            3 => {
                // A word at a 4-byte boundary: a count, a length, a header.
                let i = at / 4 * 4;
                if i + 4 <= b.len() {
                    let w = WORDS[rng.below(WORDS.len())];
                    b[i..i + 4].copy_from_slice(&w.to_le_bytes());
                }
            }
            4 => {
                // Another type id in a header, or its flag bits.
                let i = at / 4 * 4;
                if i + 4 <= b.len() {
                    if rng.below(2) == 0 {
                        b[i] = rng.below(40) as u8;
                    } else {
                        b[i + 2] ^= 1 << rng.below(4);
                    }
                }
            }
            5 => {
                let s = SPLICES[rng.below(SPLICES.len())];
                let i = at.min(b.len());
                let end = (i + s.len()).min(b.len());
                b.splice(i..end, s.iter().copied());
            }
            6 => {
                let other = &pool[rng.below(pool.len())];
                let from = rng.below(other.len());
                let n = rng.below(other.len() - from + 1).min(64);
                b.splice(at..at, other[from..from + n].iter().copied());
            }
            7 if b.len() >= 8 => {
                let i = rng.below(b.len() / 4) * 4;
                b.drain(i..(i + 4).min(b.len()));
            }
            _ => b.extend_from_slice(&(rng.next() as u32).to_le_bytes()),
        }
    }
    b
}

fn fixtures(dir: &str) -> Vec<Vec<u8>> {
    let root = common::fixtures().join(dir);
    let mut out = Vec::new();
    for sub in [root.clone(), root.join("game")] {
        let Ok(rd) = std::fs::read_dir(&sub) else {
            continue;
        };
        let mut files: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for p in files {
            if p.extension().is_some_and(|x| x == "bin") {
                let b = std::fs::read(&p).expect("fixture");
                if b.len() <= 2048 {
                    out.push(b);
                }
            }
        }
    }
    out
}

/// Disagreements that engine mode (`DecodeOptions::engine_strict`) exists to remove: for
/// these our side runs again in engine mode, which must then agree with the engine.
const ENGINE_MODE: &[&str] = &[
    "typed_array_drops_mismatched_elements",
    "typed_array_converts_mismatched_elements",
    "typed_dictionary_drops_mismatched_entries",
    "typed_dictionary_converts_mismatched_keys",
    "nan_bits_differ",
    "nodepath_absolute_flag_differs",
    "dictionary_stringname_keys_become_strings",
    "typed_object_array_becomes_encoded_object_as_id",
    "typed_object_dictionary_becomes_encoded_object_as_id",
];

/// Our verdict: decode, then encode for the same engine (a single-precision engine narrows
/// FLAG_64 math reals to `f32` when it stores them: `round_reals`).
fn ours(engine: &Engine, input: &[u8], strict: bool) -> (Verdict, Result<Variant, DecodeError>) {
    let options = DecodeOptions {
        version: Some(engine.version),
        engine_strict: strict,
        ..DecodeOptions::default()
    };
    match decode(input, engine.dialect, &options) {
        Err(e) => (Verdict::Err(e.engine_error().to_string()), Err(e)),
        Ok((v, used)) => {
            let eo = EncodeOptions {
                version: Some(engine.version),
                round_reals: true,
                ..EncodeOptions::default()
            };
            let bytes = encode(&v, engine.dialect, &eo)
                .unwrap_or_else(|e| panic!("{}: decoded {v:?} does not encode: {e}", engine.name));
            (
                Verdict::Ok {
                    used: Some(used),
                    bytes,
                },
                Ok(v),
            )
        }
    }
}

fn contains(v: &Variant, pred: impl Fn(&Variant) -> bool) -> bool {
    let mut found = false;
    visit(v, &mut |x| found |= pred(x));
    found
}

/// Whether our decoder put U+FFFD into some text of `v` where the bytes were not UTF-8:
/// more U+FFFD in the value than `ef bf bd` in the input.
fn replaced_text(v: &Variant, input: &[u8]) -> bool {
    let in_input = input
        .windows(3)
        .filter(|w| *w == [0xef, 0xbf, 0xbd])
        .count();
    let n = |s: &str| s.matches('\u{fffd}').count();
    let class = |t: &ElementType| match t {
        ElementType::Class(c) | ElementType::Script(c) => n(c),
        ElementType::Builtin(_) => 0,
    };
    let mut in_value = 0;
    visit(v, &mut |x| {
        in_value += match x {
            Variant::String(s) => n(s),
            Variant::StringName(s) => n(&s.0),
            Variant::NodePath(p) => p.names.iter().chain(&p.subnames).map(|s| n(s)).sum(),
            Variant::PackedStringArray(a) => a.iter().map(|s| n(s)).sum(),
            Variant::Signal(s) => n(&format!("{s:?}")),
            Variant::Object(Object::Full(o)) => {
                n(&o.class) + o.properties.iter().map(|(p, _)| n(p)).sum::<usize>()
            }
            Variant::Array(a) => a.typed.as_ref().map_or(0, |t| class(&t.element)),
            Variant::Dictionary(d) => d.typed().map_or(0, |t| {
                t.key.as_ref().map_or(0, class) + t.value.as_ref().map_or(0, class)
            }),
            _ => 0,
        }
    });
    in_value > in_input
}

/// Bytes equal, except NodePath padding, which the engines leave uninitialised.
fn same_bytes(ours: &[u8], theirs: &[u8], v: &Variant) -> bool {
    ours == theirs
        || (contains(v, |x| matches!(x, Variant::NodePath(_)))
            && ours.len() == theirs.len()
            && ours.iter().zip(theirs).all(|(a, b)| a == b || *a == 0))
}

/// The first place where two decoded values differ, as a category.
fn first_difference(a: &Variant, b: &Variant) -> Option<String> {
    if a.same(b) {
        return None;
    }
    Some(match (a, b) {
        (Variant::Array(x), Variant::Array(y)) if x.typed != y.typed => {
            let as_id = ElementType::Class("EncodedObjectAsID".into());
            if y.typed.as_ref().is_some_and(|t| t.element == as_id) {
                return Some("typed_object_array_becomes_encoded_object_as_id".into());
            }
            if y.typed.is_none()
                && x.typed
                    .as_ref()
                    .is_some_and(|t| t.element == ElementType::Builtin(Kind::Nil))
            {
                return Some("array_typed_nil_is_untyped".into());
            }
            return Some(format!(
                "typed_array_type_differs:{:?}",
                x.typed.as_ref().map(|t| &t.element)
            ));
        }
        (Variant::Array(x), Variant::Array(y)) => {
            if x.items.len() != y.items.len() {
                if x.typed.is_some() {
                    return Some("typed_array_drops_mismatched_elements".into());
                }
                return Some("array_length_differs".into());
            }
            // A typed Array converts what it can (int to float, String to StringName).
            let converted = x.typed.is_some()
                && x.items
                    .iter()
                    .zip(&y.items)
                    .any(|(p, q)| p.kind() != q.kind());
            if converted {
                return Some("typed_array_converts_mismatched_elements".into());
            }
            return x
                .items
                .iter()
                .zip(&y.items)
                .find_map(|(p, q)| first_difference(p, q));
        }
        (Variant::Dictionary(x), Variant::Dictionary(y)) if x.typed() != y.typed() => {
            let as_id = Some(ElementType::Class("EncodedObjectAsID".into()));
            if y.typed()
                .is_some_and(|t| t.key == as_id || t.value == as_id)
            {
                return Some("typed_object_dictionary_becomes_encoded_object_as_id".into());
            }
            return Some("typed_dictionary_types_differ".into());
        }
        // Side by side, or merged into a String key of the same text (fewer entries).
        (Variant::Dictionary(x), Variant::Dictionary(y))
            if (x.len() == y.len()
                && x.entries().iter().zip(y.entries()).any(|((k, _), (l, _))| {
                    matches!((k, l), (Variant::StringName(a), Variant::String(b)) if a.0 == *b)
                }))
                || (x.len() > y.len()
                    && x.entries().iter().any(|(k, _)| {
                        matches!(k, Variant::StringName(a)
                            if y.entries().iter().any(|(l, _)| *l == Variant::String(a.0.clone())))
                    })) =>
        {
            return Some("dictionary_stringname_keys_become_strings".into());
        }
        (Variant::Dictionary(x), Variant::Dictionary(y)) => {
            if x.len() != y.len() {
                if x.typed().is_some() {
                    return Some("typed_dictionary_drops_mismatched_entries".into());
                }
                return Some("dictionary_size_differs".into());
            }
            // A typed key converts what it can (int to float, String to StringName).
            let converted = x.typed().is_some_and(|t| t.key.is_some())
                && x.entries()
                    .iter()
                    .zip(y.entries())
                    .any(|((k, _), (l, _))| k.kind() != l.kind());
            if converted {
                return Some("typed_dictionary_converts_mismatched_keys".into());
            }
            return x
                .entries()
                .iter()
                .zip(y.entries())
                .find_map(|((k, p), (l, q))| {
                    first_difference(k, l).or_else(|| first_difference(p, q))
                });
        }
        (Variant::NodePath(x), Variant::NodePath(y)) => {
            if x.names.len() + x.subnames.len() != y.names.len() + y.subnames.len()
                || x.names.len() != y.names.len()
            {
                "nodepath_counts_differ".into()
            } else if x.absolute != y.absolute {
                "nodepath_absolute_flag_differs".into()
            } else {
                "nodepath_text_differs".into()
            }
        }
        _ if format!("{a:?}").contains("NaN") => "nan_bits_differ".into(),
        _ if a.kind() != b.kind() => format!("kind_differs:{:?}->{:?}", a.kind(), b.kind()),
        _ => format!("value_differs:{:?}", a.kind()),
    })
}

/// Whether the input holds a UTF-8 form that the engine refuses: an overlong form (`c0 80`,
/// `e0 80 80`, `f0 80 80 80`) for both; for Godot 4 also a surrogate (`ed a0 80`), a code
/// point beyond U+10FFFF (`f4 90 80 80`, `f7 bf bf bf`) and the 5- and 6-byte forms. Continuation bytes are
/// required, so that random binary data seldom matches.
fn has_refused_utf8(input: &[u8], dialect: Dialect) -> bool {
    let cont = |b: &[u8]| b.iter().all(|c| (0x80..=0xbf).contains(c));
    (0..input.len()).any(|i| {
        let w = &input[i..];
        let overlong = matches!(w, [0xc0 | 0xc1, c, ..] if cont(&[*c]))
            || matches!(w, [0xe0, 0x80..=0x9f, c, ..] if cont(&[*c]))
            || matches!(w, [0xf0, 0x80..=0x8f, c, d, ..] if cont(&[*c, *d]));
        let g4_only = matches!(w, [0xed, 0xa0..=0xbf, c, ..] if cont(&[*c]))
            || matches!(w, [0xf4, 0x90..=0xbf, c, d, ..] if cont(&[*c, *d]))
            || matches!(w, [0xf5..=0xf7, b, c, d, ..] if cont(&[*b, *c, *d]))
            || matches!(w, [0xf8..=0xfb, rest @ ..] if rest.len() >= 4 && cont(&rest[..4]))
            || matches!(w, [0xfc | 0xfd, rest @ ..] if rest.len() >= 5 && cont(&rest[..5]));
        overlong || (dialect == Dialect::Godot4 && g4_only)
    })
}

/// The kind whose header is the u32 just before `offset` (a count that failed right after
/// its header).
fn kind_before(engine: &Engine, input: &[u8], offset: usize) -> Option<Kind> {
    let at = offset.checked_sub(4)?;
    let id = u32::from(*input.get(at)?);
    engine.dialect.kind_of(engine.version, id)
}

/// The named category of one input: the raw verdict comparison of [`raw_category`], made
/// specific where it is one of the disagreements we know (the names of [`KNOWN`]).
fn classify(engine: &Engine, input: &[u8], theirs: &Verdict) -> String {
    let mut raw = raw_category(engine, input, theirs, false);
    if ENGINE_MODE.contains(&raw.as_str()) {
        // Default decoding keeps the bytes as written; engine mode must give the engine's value.
        let strict = raw_category(engine, input, theirs, true);
        raw = if strict == "agree" {
            strict
        } else {
            format!("engine_mode_disagrees:{raw}:{strict}")
        };
    }
    let ours_err = decode(
        input,
        engine.dialect,
        &DecodeOptions {
            version: Some(engine.version),
            ..DecodeOptions::default()
        },
    )
    .err();
    let nodepath_counts = ours_err
        .as_ref()
        .is_some_and(|e| kind_before(engine, input, e.offset()) == Some(Kind::NodePath));
    // The engine refused invalid UTF-8 where we read on (and perhaps failed later, with
    // another error).
    let engine_refused_utf8 = matches!(theirs, Verdict::Err(e) if e == "ERR_INVALID_DATA")
        && (raw.starts_with("engine_refuses") || raw.starts_with("error_code:"))
        && has_refused_utf8(input, engine.dialect);
    let named = match raw.as_str() {
        _ if engine_refused_utf8 => "engine_refuses_invalid_utf8_we_accept",
        "engine_keeps_invalid_utf8_we_replace" if engine.dialect == Dialect::Godot3 => {
            "g3_keeps_invalid_utf8_we_replace"
        }
        "error_code:LengthOutOfBounds:ERR_INVALID_DATA(ours)!=ERR_FILE_EOF(engine)"
            if nodepath_counts =>
        {
            "nodepath_string_count_checked_before_strings"
        }
        _ => return raw,
    };
    named.to_string()
}

/// Sorts one input's two verdicts into a raw category ("agree" when they agree).
fn raw_category(engine: &Engine, input: &[u8], theirs: &Verdict, strict: bool) -> String {
    let (mine, value) = ours(engine, input, strict);
    match (&mine, theirs, value) {
        (Verdict::Err(a), Verdict::Err(b), Err(e)) => {
            if b == "?" || a == b {
                "agree".into()
            } else {
                // The variant name says which check of ours answered otherwise.
                let check = format!("{e:?}");
                let check = check.split([' ', '{', '(']).next().unwrap_or("");
                format!("error_code:{check}:{a}(ours)!={b}(engine)")
            }
        }
        (Verdict::Ok { .. }, Verdict::Err(e), Ok(v)) => {
            if replaced_text(&v, input) {
                format!("engine_refuses_utf8_we_replace:{e}")
            } else {
                format!("engine_refuses_we_accept:{e}:{:?}", v.kind())
            }
        }
        (Verdict::Err(_), Verdict::Ok { used, .. }, Err(e)) => {
            if used.is_some_and(|u| u > input.len()) {
                "engine_accepts_missing_final_padding".into()
            } else {
                let check = format!("{e:?}");
                format!(
                    "we_refuse_engine_accepts:{}",
                    check.split([' ', '{', '(']).next().unwrap_or("")
                )
            }
        }
        (
            Verdict::Ok {
                used: u1,
                bytes: b1,
            },
            Verdict::Ok {
                used: u2,
                bytes: b2,
            },
            Ok(v),
        ) => {
            if let (Some(a), Some(b)) = (u1, u2) {
                if a != b {
                    return if *b > input.len() {
                        "engine_counts_missing_byte_array_padding_as_used".into()
                    } else {
                        "bytes_used_differ".into()
                    };
                }
            }
            if same_bytes(b1, b2, &v) {
                return "agree".into();
            }
            // An object sent by id comes back with the id of the engine's own wrapper.
            if contains(&v, |x| matches!(x, Variant::Object(Object::Id(_)))) {
                return "agree".into();
            }
            let options = DecodeOptions {
                version: Some(engine.version),
                ..DecodeOptions::default()
            };
            match decode(b2, engine.dialect, &options) {
                // The engine kept text that our decoder replaces with U+FFFD.
                Ok((w, _)) if w.same(&v) && replaced_text(&v, input) => {
                    "engine_keeps_invalid_utf8_we_replace".into()
                }
                Ok((w, _)) => {
                    first_difference(&v, &w).unwrap_or_else(|| "reencoding_differs".into())
                }
                Err(_) => "engine_reencoding_undecodable".into(),
            }
        }
        other => panic!("verdict and value do not match: {other:?}"),
    }
}

fn cases() -> usize {
    std::env::var("GDVARIANT_DIFF_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000)
}

fn differential(engine: Engine, fixture_dirs: &[&str]) {
    let pool: Vec<Vec<u8>> = fixture_dirs.iter().flat_map(|d| fixtures(d)).collect();
    assert!(
        pool.len() > 100,
        "{} fixtures in {fixture_dirs:?}",
        pool.len()
    );
    let seed = std::env::var("GDVARIANT_DIFF_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_261_125u64);
    let mut rng = Rng(seed);
    let known: Vec<&Known> = KNOWN
        .iter()
        .filter(|k| k.engines.contains(&engine.name))
        .collect();
    let mut inputs: Vec<Vec<u8>> = known.iter().map(|k| unhex(k.repro)).collect();
    for i in 0..cases() {
        let base = &pool[i % pool.len()];
        inputs.push(mutate(&mut rng, base, &pool));
    }
    let verdicts = (engine.run)(&inputs);
    let mut counts: BTreeMap<String, (usize, Vec<u8>)> = BTreeMap::new();
    let mut stale = Vec::new();
    for (i, (input, theirs)) in inputs.iter().zip(&verdicts).enumerate() {
        let category = classify(&engine, input, theirs);
        if i < known.len() {
            if category != known[i].category {
                stale.push(format!(
                    "{}: the repro {} of `{}` now gives `{category}`: update the allowlist",
                    engine.name, known[i].repro, known[i].category
                ));
            }
            continue;
        }
        let e = counts.entry(category).or_insert((0, input.clone()));
        e.0 += 1;
        if input.len() < e.1.len() {
            e.1 = input.clone();
        }
    }
    println!("{}: {} inputs", engine.name, inputs.len() - known.len());
    let mut unknown = Vec::new();
    for (category, (n, repro)) in &counts {
        let listed = category == "agree" || known.iter().any(|k| k.category == category);
        println!(
            "  {n:6}  {category}{}  smallest: {}",
            if listed { "" } else { "  (NOT ALLOWED)" },
            hex(repro)
        );
        if !listed {
            unknown.push(category.clone());
        }
    }
    for k in &known {
        println!("  known: {} ({}): {}", k.category, k.repro, k.reason);
    }
    assert!(stale.is_empty(), "{}", stale.join("\n"));
    assert!(
        unknown.is_empty(),
        "{}: disagreements outside the allowlist: {unknown:?}",
        engine.name
    );
}

#[test]
fn godot3_engine_agrees_on_mutated_fixtures() {
    if let Some(e) = godot3_engine() {
        differential(e, &["godot3"]);
    }
}

#[test]
fn godot4_3_engine_agrees_on_mutated_fixtures() {
    if let Some(e) = godot4("GODOT4_3", "godot4.3", Version::new(4, 3, 0)) {
        differential(e, &["godot4"]);
    }
}

#[test]
fn godot4_4_engine_agrees_on_mutated_fixtures() {
    if let Some(e) = godot4("GODOT4_4", "godot4.4.1", Version::new(4, 4, 1)) {
        // The 4.4.1 engine's own typed Dictionaries seed mutations too.
        differential(e, &["godot4", "godot4.4"]);
    }
}
