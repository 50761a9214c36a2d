//! The encoder: a [`Variant`] to the bytes an engine of a given dialect and version writes.
//!
//! One walk, generic over where the bytes go: a sizing pass (`Counter`) computes the exact
//! length and validates the value (so nothing is allocated for a value that cannot be
//! written), then the writing pass fills one allocation of exactly that size.

use crate::dialect::Dialect;
use crate::error::EncodeError;
use crate::quirks::{self};
use crate::variant::*;
use crate::version::Version;

mod sink;
mod walk;

use sink::{Counter, Writer};
use walk::{rooted, Encoder, TypeIds};

/// Encodes `value` as the engine of `dialect` (at `options.version`) would.
///
/// Options of [`encode`](fn@crate::encode).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct EncodeOptions {
    /// The engine version that will read the bytes; `None` is the newest of the dialect.
    pub version: Option<Version>,
    /// Write math types as an engine built with `precision=double` does (Godot 4 only):
    /// doubles with FLAG_64 set.
    pub double_precision: bool,
    /// Write full objects (`var_to_bytes_with_objects`). Without it a full object cannot be
    /// written (the engine would send a live instance id, which a value as data does not have).
    pub full_objects: bool,
    /// Round reals that do not fit the target precision to the nearest `f32` (what a
    /// single-precision engine stores) instead of failing with [`EncodeError::InexactReal`](crate::EncodeError::InexactReal).
    pub round_reals: bool,
    /// Deepest nesting accepted (the engine's encoder limit is 1024).
    pub max_depth: Option<usize>,
}

/// ```
/// use gdvariant::{encode, Dialect, EncodeOptions, Variant};
/// let bytes = encode(&Variant::Int(42), Dialect::Godot4, &EncodeOptions::default())?;
/// assert_eq!(bytes, [2, 0, 0, 0, 42, 0, 0, 0]);
/// # Ok::<(), gdvariant::EncodeError>(())
/// ```
pub fn encode(
    value: &Variant,
    dialect: Dialect,
    options: &EncodeOptions,
) -> Result<Vec<u8>, EncodeError> {
    // Room for a typical packet or small value at once; bigger values grow the buffer (by
    // doubling) and give back what they did not use.
    let mut out = Vec::with_capacity(FIRST_CAPACITY);
    encode_into(&mut out, value, dialect, options)?;
    if out.len() > FIRST_CAPACITY {
        out.shrink_to_fit();
    }
    Ok(out)
}

/// The first allocation of [`encode`]: most network packets and small values fit (W4, a
/// 100-byte dictionary, does), and a value that fits costs one allocation.
const FIRST_CAPACITY: usize = 256;

/// Whether writing `value` exactly needs [`EncodeOptions::full_objects`]: it holds a full
/// object, or a container typed by a class or a script, which the engine writes without full
/// objects as the class `EncodedObjectAsID` (the engine rule `element_as_written` in
/// `quirks.rs`). A value decoded from bytes re-encodes to the same bytes with `full_objects`
/// set to this.
pub fn needs_full_objects(value: &Variant) -> bool {
    let typed_by_object = |t: &ElementType| {
        quirks::element_as_written(t, false) != quirks::element_as_written(t, true)
    };
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Variant::Object(Object::Full(_)) => return true,
            Variant::Array(a) => {
                if a.typed
                    .as_ref()
                    .is_some_and(|t| typed_by_object(&t.element))
                {
                    return true;
                }
                stack.extend(a.items.iter());
            }
            Variant::Dictionary(d) => {
                if let Some(t) = d.typed() {
                    if t.key.iter().chain(t.value.iter()).any(typed_by_object) {
                        return true;
                    }
                }
                for (k, x) in d.entries() {
                    stack.push(k);
                    stack.push(x);
                }
            }
            _ => {}
        }
    }
    false
}

/// Appends the encoding of `value` to `out` in one pass that checks as it writes (a server
/// can reuse one buffer for every packet: with room in it, nothing is allocated). On error
/// `out` is left as it was (its length; its capacity may have grown).
pub fn encode_into(
    out: &mut Vec<u8>,
    value: &Variant,
    dialect: Dialect,
    options: &EncodeOptions,
) -> Result<(), EncodeError> {
    append_with(out, value, dialect, options, &TypeIds::new())
}

/// [`encode_into`] with the caller's table of type ids.
fn append_with(
    out: &mut Vec<u8>,
    value: &Variant,
    dialect: Dialect,
    options: &EncodeOptions,
    ids: &TypeIds,
) -> Result<(), EncodeError> {
    let start = out.len();
    let written =
        Encoder::new(dialect, options, ids, Writer(out)).and_then(|mut w| w.value(value, 0));
    if let Err(e) = written {
        out.truncate(start);
        return Err(rooted(e));
    }
    Ok(())
}

/// Encodes many values one after another with the same dialect and options, sharing the
/// type ids looked up (what [`encode_into`] looks up again for each value): the text reader
/// encodes a big container element by element with it.
pub(crate) struct Appender<'o> {
    dialect: Dialect,
    options: &'o EncodeOptions,
    ids: TypeIds,
}

impl<'o> Appender<'o> {
    pub(crate) fn new(dialect: Dialect, options: &'o EncodeOptions) -> Appender<'o> {
        Appender {
            dialect,
            options,
            ids: TypeIds::new(),
        }
    }

    /// [`encode_into`] of `value`.
    pub(crate) fn append(&self, out: &mut Vec<u8>, value: &Variant) -> Result<(), EncodeError> {
        append_with(out, value, self.dialect, self.options, &self.ids)
    }
}

/// The exact number of bytes [`encode`] would produce, or why it cannot.
pub fn encoded_len(
    value: &Variant,
    dialect: Dialect,
    options: &EncodeOptions,
) -> Result<usize, EncodeError> {
    size(value, dialect, options, &TypeIds::new())
}

/// The sizing pass: validates `value` and counts its bytes.
fn size(
    value: &Variant,
    dialect: Dialect,
    options: &EncodeOptions,
    ids: &TypeIds,
) -> Result<usize, EncodeError> {
    let mut c = Encoder::new(dialect, options, ids, Counter(0)).map_err(rooted)?;
    c.value(value, 0).map_err(rooted)?;
    Ok(c.out.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Strings of every length the word copies treat apart (and past them), alone and as a
    /// dictionary key and value, written with the engine's layout: header, length, bytes,
    /// zeros to a multiple of four; in a buffer with and without room and after other bytes.
    #[test]
    fn strings_of_every_short_length_are_written_whole_and_padded() {
        for n in 0..=40usize {
            let text: String = (0..n).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
            let mut want = vec![4, 0, 0, 0];
            want.extend((n as u32).to_le_bytes());
            want.extend(text.as_bytes());
            want.resize(want.len() + quirks::pad4(n), 0);
            let value = Variant::from(text.as_str());
            for dialect in [Dialect::Godot3, Dialect::Godot4] {
                let options = EncodeOptions::default();
                assert_eq!(encode(&value, dialect, &options).unwrap(), want, "n = {n}");
                for room in [0, 3, 4096] {
                    let mut out = Vec::with_capacity(room);
                    out.extend_from_slice(&[0xee; 3]);
                    encode_into(&mut out, &value, dialect, &options).unwrap();
                    assert_eq!(out[..3], [0xee; 3]);
                    assert_eq!(out[3..], want, "n = {n}, room {room}");
                }
                let mut d = Dictionary::new();
                d.insert(value.clone(), value.clone());
                let bytes = encode(&Variant::Dictionary(d), dialect, &options).unwrap();
                let dict_id = if dialect == Dialect::Godot4 { 27 } else { 18 };
                let mut dict = vec![dict_id, 0, 0, 0, 1, 0, 0, 0];
                dict.extend(&want);
                dict.extend(&want);
                assert_eq!(bytes, dict, "n = {n} in a dictionary");
                assert_eq!(encoded_len(&value, dialect, &options).unwrap(), want.len());
            }
        }
    }
}
