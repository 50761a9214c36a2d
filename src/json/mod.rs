//! The lossless, type-tagged JSON form of values, for `jq` and for editing by hand.
//!
//! Every value is an object `{"type": T, "value": V}`, where `T` is the [`Kind`] name
//! (`"Int"`, `"Vector2"`, `"PackedFloat32Array"`, …, as [`Kind::name`] spells it) and `V`
//! depends on the type; `Nil` and `Callable` have no `"value"`. The form is lossless: every
//! [`Variant`] converts to JSON and back to the same value, bit for bit (NaN payloads, `-0.0`,
//! `i64` extremes, typed containers, objects), so `decode → JSON → encode` gives the engine's
//! bytes back.
//!
//! | type | `value` |
//! |---|---|
//! | `Bool` | `true` / `false` |
//! | `Int`, `Rid` | a number; a decimal string when beyond ±2^53 (so `jq`, which uses doubles, keeps it) |
//! | `Float` | a real (below) |
//! | `String`, `StringName` | a string (see below for the rare one a JSON string cannot hold) |
//! | `Vector2`, `Vector3`, `Vector4`, `Quaternion` | `[x, y, …]` of reals; the `…i` types: of integers |
//! | `Color` | `[r, g, b, a]` of reals (exact values of the `f32` components) |
//! | `Rect2`, `Rect2i`, `Aabb` | `{"position": […], "size": […]}` |
//! | `Transform2D` | `{"x": […], "y": […], "origin": […]}` |
//! | `Plane` | `{"normal": […], "d": real}` |
//! | `Basis` | `{"rows": [[…], […], […]]}` (row-major, as the bytes) |
//! | `Transform3D` | `{"basis": {"rows": …}, "origin": […]}` |
//! | `Projection` | `{"columns": [[…] × 4]}` |
//! | `NodePath` | `{"names": […], "subnames": […], "absolute": bool}`; on input also a path string `"/root/a:b"` |
//! | `Object` | `null` (null object), `{"id": n}` (instance id), or `{"class": "Node", "properties": [["name", VALUE], …]}` |
//! | `Signal` | `{"name": "…", "object": n}` |
//! | `Dictionary` | `[[KEY, VALUE], …]` in insertion order; typed: `"key_type"` / `"value_type"` beside `"value"` |
//! | `Array` | `[VALUE, …]`; typed: `"element_type"` beside `"value"` (and `"pandemonium_packed": true` for Pandemonium's `PACKED_TYPED_ARRAY`) |
//! | `PackedByteArray` | a hex string, `"00ff10"` |
//! | `PackedInt32Array`, `PackedInt64Array` | `[n, …]` (64-bit: strings beyond ±2^53) |
//! | `PackedFloat32Array`, `PackedFloat64Array` | `[real, …]` |
//! | `PackedStringArray` | `["…", …]` |
//! | `Packed…Vector…Array`, `PackedColorArray` | `[[x, y, …], …]` |
//!
//! A string that is not Unicode (Godot 3 keeps UTF-16 surrogates and code points above
//! U+10FFFF, which a JSON string cannot hold: see [`GString`]) is `{"engine_utf8": HEX}`, the
//! engine's bytes in hex, wherever a string goes (a `String` or `StringName` value, an element
//! of a `PackedStringArray`, a `NodePath` name).
//!
//! An element type (`element_type`, `key_type`, `value_type`) is `{"builtin": KIND}`,
//! `{"class": "Node"}` or `{"script": "res://player.gd"}`.
//!
//! A real is a JSON number holding the exact value the model holds (an `f32` from the wire is
//! printed as its exact double: `0.1` sent as a float is `0.10000000149011612`); `-0.0` is
//! `-0.0`; the non-numbers are strings: `"inf"`, `"-inf"`, `"nan"` (the default quiet NaN),
//! `"-nan"`, and `"nan:0x7ff0000000000001"` for any other NaN (16 hex digits for a double,
//! 8 for an `f32` in `Color` and `PackedFloat32Array`/`PackedColorArray`).

use crate::generated::kinds::Kind;
use crate::stack::grow;
use crate::variant::layout::{components_of, tree_of, Component, Scalar, Tree};
use crate::variant::layout::{real_from_f32_bits, real_to_f32_bits};
use crate::variant::value::{fixed_from, packed_from};
use crate::variant::*;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::{Map, Value};

/// Why JSON does not describe a value; `path` says where (`$.value[2][1]`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} (at {path})")]
pub struct JsonError {
    /// Where in the document, jq-style (`$.value[0]`).
    pub path: String,
    /// What was expected.
    pub message: String,
}

/// The JSON form of `value`.
///
/// ```
/// use gdvariant::{json, Variant};
/// let v = Variant::Float(-0.0);
/// let j = json::to_json(&v);
/// assert_eq!(j.to_string(), r#"{"type":"Float","value":-0.0}"#);
/// assert!(json::from_json(&j)?.same(&v));
/// # Ok::<(), gdvariant::json::JsonError>(())
/// ```
pub fn to_json(value: &Variant) -> Value {
    serde_json::to_value(Json(value)).expect("the JSON form has only string keys")
}

/// The JSON text of `value` on one line (what `gdvariant decode --format json` prints),
/// written straight from the value.
pub fn to_json_string(value: &Variant) -> String {
    let mut buf = Vec::new();
    direct::append(&mut buf, value);
    String::from_utf8(buf).expect("JSON text is UTF-8")
}

/// Writes the JSON text of `value` to `w` (no newline).
pub fn write_json<W: std::io::Write>(mut w: W, value: &Variant) -> std::io::Result<()> {
    let mut buf = Vec::new();
    direct::append(&mut buf, value);
    w.write_all(&buf)
}

/// Appends the JSON text of `value` to `buf` (no newline): the fastest way to write many
/// values (`gdvariant decode --format json` fills one buffer with a batch of them).
///
/// ```
/// use gdvariant::{json, Variant};
/// let mut buf = b"[".to_vec();
/// json::append_json(&mut buf, &Variant::Int(7));
/// assert_eq!(buf, br#"[{"type":"Int","value":7}"#);
/// ```
pub fn append_json(buf: &mut Vec<u8>, value: &Variant) {
    direct::append(buf, value)
}

/// Appends the JSON text of the value at the start of `bytes` (as [`decode`](fn@crate::decode)
/// reads it with `dialect` and `options`) and gives the bytes it used, when the decoder's
/// fast validating scan vouches for the bytes: the text [`append_json`] writes of the decoded
/// value, written from the bytes without building the value (`gdvariant decode --format
/// json` takes this way first). `None`, with `buf` unchanged, when the scan cannot vouch for
/// them (an error, a rare kind, a limit, a key that may repeat): decode them as usual then,
/// so that any error is the decoder's.
///
/// ```
/// use gdvariant::{json, DecodeOptions, Dialect};
/// // 7 as a Godot 4 INT.
/// let bytes = [2, 0, 0, 0, 7, 0, 0, 0];
/// let mut buf = Vec::new();
/// let used = json::append_json_of_bytes(&mut buf, &bytes, Dialect::Godot4, &DecodeOptions::default());
/// assert_eq!(used, Some(8));
/// assert_eq!(buf, br#"{"type":"Int","value":7}"#);
/// ```
pub fn append_json_of_bytes(
    buf: &mut Vec<u8>,
    bytes: &[u8],
    dialect: crate::Dialect,
    options: &crate::DecodeOptions,
) -> Option<usize> {
    walk::append_vouched(buf, bytes, dialect, options)
}

/// The value a JSON document describes (the inverse of [`to_json`]).
pub fn from_json(json: &Value) -> Result<Variant, JsonError> {
    Reader {
        path: path::Path::root(),
    }
    .value(json)
}

/// Deepest JSON nesting [`parse_document`] accepts: two levels (object and array) for each
/// of the decoder's 1024 container levels, and some slack.
pub const MAX_JSON_DEPTH: usize = 2 * 1024 + 16;

/// Parses one JSON text into a value.
///
/// Arrays and Dictionaries are built as the text is parsed, without a [`Value`] tree of the
/// whole document; the result and any error are those of [`from_json`] over
/// [`parse_document`].
pub fn from_json_str(text: &str) -> Result<Variant, JsonError> {
    check_depth(text)?;
    seed::read_document(text)
}

/// The two readers behind [`from_json_str`], one at a time, for tests and the fuzz target
/// `json` to check that they agree: the reader of our writer's layout (`None` where it
/// gives up), and the serde reader that judges everything else.
#[doc(hidden)]
pub fn readers_apart(text: &str) -> (Option<Variant>, Result<Variant, JsonError>) {
    let serde = check_depth(text).and_then(|()| seed::read_with_serde(text));
    (fast::read(text), serde)
}

/// Parses JSON text as [`serde_json`] does, but with the nesting bound by [`MAX_JSON_DEPTH`]
/// instead of serde_json's 128, which a Godot value 64 containers deep already exceeds.
pub fn parse_document(text: &str) -> Result<Value, JsonError> {
    check_depth(text)?;
    parse_unbounded(text).map_err(not_json)
}

/// Parses JSON text as serde_json does, without its nesting limit: for text whose depth is
/// known to be bounded.
fn parse_unbounded(text: &str) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    // serde_json recurses once per level: the adapter grows the stack as it goes.
    serde::Deserialize::deserialize(serde_stacker::Deserializer::new(&mut de))
        .and_then(|v| de.end().map(|()| v))
}

/// Refuses a text nested deeper than [`MAX_JSON_DEPTH`] before it is parsed.
fn check_depth(text: &str) -> Result<(), JsonError> {
    let depth = nesting_depth(text);
    if depth > MAX_JSON_DEPTH {
        return Err(JsonError {
            path: "$".into(),
            message: format!("nested {depth} levels deep; at most {MAX_JSON_DEPTH} are read"),
        });
    }
    Ok(())
}

/// A syntax error, placed by line and column.
fn not_json(e: serde_json::Error) -> JsonError {
    JsonError {
        path: format!("line {}, column {}", e.line(), e.column()),
        message: format!("not JSON: {e}"),
    }
}

/// Reads every JSON document of `input` (JSON Lines, or documents one after another), as
/// values, holding one document at a time: what `gdvariant encode --from json` reads.
/// Nesting is bounded by [`MAX_JSON_DEPTH`] as the bytes stream in.
pub fn read_values<R: std::io::Read>(input: R) -> impl Iterator<Item = Result<Variant, JsonError>> {
    let mut docs = Documents::new(input, 1, stream::Values(|v| v));
    std::iter::from_fn(move || docs.next_value())
}

/// [`read_values`] on up to `threads` threads, with `each` applied to every value on the
/// thread that read it; its results come in the values' order, with [`read_values`]'s
/// error in its place. JSON Lines in our writer's layout are read a megabyte at a time,
/// split between the threads (anything else is read on the calling thread, as
/// [`read_values`] reads it).
///
/// `each` should have no side effects: a line after one that is not in our layout may have
/// been read (and handed to `each`) on another thread before that one stopped the batch, and
/// is then read again.
///
/// `each` is where the work on a value belongs: encoding each value there (as
/// [`encode_values_on`] does) makes, encodes and frees a value on one thread, and only its
/// bytes cross to the writer. (Handing the values themselves to another thread was no faster
/// than one thread: the allocator's locks and the caches paid for the move.)
///
/// ```
/// use gdvariant::{encode, json, Dialect, EncodeOptions};
/// let lines = b"{\"type\":\"Int\",\"value\":1}\n{\"type\":\"Bool\",\"value\":true}\n";
/// let bytes: Vec<Vec<u8>> = json::read_values_on(&lines[..], 2, |v| {
///     encode(&v, Dialect::Godot4, &EncodeOptions::default())
/// })
/// .collect::<Result<Result<_, _>, _>>()??;
/// assert_eq!(bytes, [vec![2, 0, 0, 0, 1, 0, 0, 0], vec![1, 0, 0, 0, 1, 0, 0, 0]]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_values_on<R: std::io::Read, T: Send>(
    input: R,
    threads: usize,
    each: impl Fn(Variant) -> T + Sync,
) -> impl Iterator<Item = Result<T, JsonError>> {
    let mut docs = Documents::new(input, threads, stream::Values(each));
    std::iter::from_fn(move || docs.next_value())
}

/// [`read_values_on`] with each value framed as [`frame_into`](crate::framing::frame_into)
/// frames it with `format` (its bytes, or the encoder's error): the frames
/// [`encode_values_to`] writes, one `Vec` each. A line of JSON Lines in our writer's layout gets a buffer the size
/// its bytes will about take at once, instead of one grown from nothing.
///
/// ```
/// use gdvariant::{json, Format};
/// let lines = b"{\"type\":\"Int\",\"value\":1}\n{\"type\":\"Bool\",\"value\":true}\n";
/// let bytes: Vec<Vec<u8>> = json::encode_values_on(&lines[..], 2, &Format::godot4())
///     .collect::<Result<Result<_, _>, _>>()??;
/// assert_eq!(bytes, [vec![2, 0, 0, 0, 1, 0, 0, 0], vec![1, 0, 0, 0, 1, 0, 0, 0]]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn encode_values_on<R: std::io::Read>(
    input: R,
    threads: usize,
    format: &crate::Format,
) -> impl Iterator<Item = Result<Result<Vec<u8>, crate::EncodeError>, JsonError>> {
    let mut docs = Documents::new(input, threads, stream::Frames(format.clone()));
    std::iter::from_fn(move || docs.next_value())
}

/// Frames every value of `input` as [`encode_values_on`] does and writes the frames to `out`,
/// in order, returning how many values were written: what `gdvariant encode --from json`
/// does. JSON Lines in our writer's layout are read a megabyte at a time by `threads` worker
/// threads that live as long as the call, each framing its chunk's values into one buffer,
/// while the calling thread reads the next chunks and writes the buffers done, so a value's
/// frame is neither a `Vec` of its own nor a write of its own. Anything else is read on the
/// calling thread, as [`read_values`] reads it, with its errors.
///
/// At the first error nothing more is written: the frames of the values before it are in
/// `out`. A value the encoder refuses is [`EncodeToError::Encode`] with its number (counted
/// from 1, as documents are); a JSON error is [`read_values`]' error.
///
/// ```
/// use gdvariant::{json, Format};
/// let lines = b"{\"type\":\"Int\",\"value\":1}\n{\"type\":\"Bool\",\"value\":true}\n";
/// let mut out = Vec::new();
/// let n = json::encode_values_to(&lines[..], 2, &Format::godot4(), &mut out)?;
/// assert_eq!(n, 2);
/// assert_eq!(out, [2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]);
/// # Ok::<(), json::EncodeToError>(())
/// ```
pub fn encode_values_to<R: std::io::Read, W: std::io::Write>(
    input: R,
    threads: usize,
    format: &crate::Format,
    mut out: W,
) -> Result<usize, EncodeToError> {
    frames::encode_to(input, threads, format, &mut out)
}

const SAFE_INT: i64 = 1 << 53;

/// The canonical quiet NaN of each width (what `nan` means).
const NAN64: u64 = 0x7ff8_0000_0000_0000;
const NAN32: u32 = 0x7fc0_0000;
const SIGN64: u64 = 1 << 63;
const SIGN32: u32 = 1 << 31;

/// The key of the JSON form of a string that is not Unicode (a Godot 3 string holding a
/// surrogate or a code point above U+10FFFF): `{"engine_utf8": HEX}`, its engine bytes.
const ENGINE_UTF8: &str = "engine_utf8";

fn hex(b: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(b.len() * 2);
    for x in b {
        let _ = write!(s, "{x:02x}");
    }
    s
}

/// The kind named `name` (as [`Kind::name`] spells it, any case).
pub fn kind_named(name: &str) -> Option<Kind> {
    // No kind's name has a NUL, which the padding of `name_words` would hide.
    name_words(name.as_bytes())
        .filter(|_| !name.contains('\0'))
        .and_then(kind_by_words)
        .or_else(|| {
            Kind::ALL
                .iter()
                .copied()
                .find(|k| k.name().eq_ignore_ascii_case(name))
        })
}

/// A name of up to 24 bytes packed into three little-endian words, zero-padded: how
/// [`kind_by_words`] looks kinds up.
fn name_words(name: &[u8]) -> Option<[u64; 3]> {
    let mut b = [0u8; 24];
    b.get_mut(..name.len())?.copy_from_slice(name);
    let word = |i: usize| u64::from_le_bytes(b[i * 8..i * 8 + 8].try_into().unwrap_or_default());
    Some([word(0), word(1), word(2)])
}

/// The kind whose name, spelled as we write it, packs into `words` ([`name_words`]).
///
/// Every value object names its kind: a scan of every kind's name was 5% of reading a big
/// Dictionary, hashing the name as a string 6% of reading a savegame. The names go in a
/// table of 256 slots under a multiplier found at first use that gives each its own slot,
/// so a lookup is one multiplication and one comparison.
fn kind_by_words(words: [u64; 3]) -> Option<Kind> {
    type Slots = Vec<Option<([u64; 3], Kind)>>;
    fn slot(mul: u64, w: [u64; 3]) -> usize {
        ((w[0] ^ w[1].rotate_left(21) ^ w[2].rotate_left(42)).wrapping_mul(mul) >> 56) as usize
    }
    fn table(mul: u64) -> Option<Slots> {
        let mut slots: Slots = vec![None; 256];
        for &k in Kind::ALL {
            let w = name_words(k.name().as_bytes())?;
            let s = &mut slots[slot(mul, w)];
            if s.is_some() {
                return None;
            }
            *s = Some((w, k));
        }
        Some(slots)
    }
    static TABLE: std::sync::OnceLock<(u64, Slots)> = std::sync::OnceLock::new();
    let (mul, slots) = TABLE.get_or_init(|| {
        // Odd multipliers from the golden ratio's; one in about twenty fits.
        (0..100_000u64)
            .map(|i| 0x9E37_79B9_7F4A_7C15u64.wrapping_add(i << 1))
            .find_map(|mul| Some((mul, table(mul)?)))
            .unwrap_or_default()
    });
    match slots.get(slot(*mul, words))? {
        // Compared a word at a time: comparing the arrays whole loaded them as vectors from
        // where the words had just been stored one by one, which stalled.
        Some((w, k)) if (w[0] ^ words[0]) | (w[1] ^ words[1]) | (w[2] ^ words[2]) == 0 => Some(*k),
        _ => None,
    }
}

/// The reader of our writer's layout, in front of the serde reader.
mod direct;
mod fast;
mod frames;
/// Walks a document, keeping the jq-style path for errors.
mod path;
mod read;
mod scalars;
mod seed;
mod stream;
mod walk;
mod write;

pub use frames::EncodeToError;
use read::Reader;
use stream::{nesting_depth, value_end, Documents};
use write::shape_of;
pub use write::Json;

#[cfg(test)]
mod tests {
    use super::*;

    /// The lookup table was built (a multiplier was found) and holds every kind's name.
    #[test]
    fn every_kind_name_is_found_by_its_words() {
        for &k in Kind::ALL {
            let words = name_words(k.name().as_bytes()).expect("names fit 24 bytes");
            assert_eq!(kind_by_words(words), Some(k), "{}", k.name());
        }
        assert_eq!(kind_by_words(name_words(b"Vector9").unwrap()), None);
        assert_eq!(kind_named("vector2"), Some(Kind::Vector2));
        assert_eq!(kind_named("Int\0"), None);
    }
}
