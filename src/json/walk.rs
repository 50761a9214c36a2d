//! The JSON text of bytes the decoder's scan vouched for, written while the bytes are walked: no value built, nothing to free.

use super::*;
use super::{direct::*, scalars::*};

/// Appends the JSON text of the value at the start of `buf` when the decoder's scan vouches
/// for it (see [`crate::decode::vouch`]): the text [`append`] writes of what `decode` gives,
/// written while the bytes are walked, with no value built and nothing to free. Gives the
/// bytes the value used; `None`, with `out` as it was, when the scan cannot vouch (the
/// caller decodes as usual, and the driver gives the verdict).
pub(super) fn append_vouched(
    out: &mut Vec<u8>,
    buf: &[u8],
    dialect: crate::Dialect,
    options: &crate::DecodeOptions,
) -> Option<usize> {
    let used = crate::decode::vouch(buf, dialect, options)?;
    let start = out.len();
    let ctx = crate::borrowed::Ctx::new(dialect, options);
    // Over vouched bytes the walk cannot fail; should it, the driver reads them instead.
    if walk(out, &buf[..used], &ctx) != Some(used) {
        out.truncate(start);
        return None;
    }
    debug_assert_eq!(
        std::str::from_utf8(&out[start..]).ok(),
        crate::decode(buf, dialect, options)
            .ok()
            .map(|(v, _)| super::to_json_string(&v))
            .as_deref(),
        "the walk wrote other text than the decoded value's"
    );
    Some(used)
}

/// A container [`walk`] has open: its elements (entries) not yet begun, and in a
/// dictionary's entry whether its key is written.
pub(super) struct Level {
    left: u32,
    dict: bool,
    key_done: bool,
}

/// The JSON text of the value at the start of `buf`, which the scan vouched for: untyped
/// containers and plain text (what game data is mostly made of) are read here, every other
/// value by the decoder's own step for one value (`Decoder::one`, or the whole driver for a
/// value it opens), so the reading rules stay the decoder's. Gives where the value ends.
pub(super) fn walk(out: &mut Vec<u8>, buf: &[u8], ctx: &crate::borrowed::Ctx) -> Option<usize> {
    use crate::quirks;
    let options = ctx.options();
    let mut d = crate::decode::Decoder::new(buf, 0, ctx.dialect, &options);
    // As deep as the value nests, which the scan bounded (and each level is 8 bytes of it).
    let mut stack: smallvec::SmallVec<[Level; 16]> = smallvec::SmallVec::new();
    loop {
        let at = d.pos;
        let (header, count) = match buf.get(at..at + 8) {
            Some(w) => (
                u32::from_le_bytes([w[0], w[1], w[2], w[3]]),
                u32::from_le_bytes([w[4], w[5], w[6], w[7]]),
            ),
            // A short leaf at the very end (Nil, an INT): its own step reads it.
            None => (u32::from_le_bytes(buf.get(at..at + 4)?.try_into().ok()?), 0),
        };
        let kind = d.kind_of(header & quirks::TYPE_MASK)?;
        let opened = match kind {
            Kind::String => {
                d.pos = at + 4;
                match d.plain_text() {
                    Some(s) => leaf(out, Kind::String, |out| string(out, s)),
                    None => {
                        d.pos = at;
                        one(out, &mut d)?;
                    }
                }
                false
            }
            // The commonest leaves, by the decoder's own reading of each (its step for any
            // value, through a `VariantRef`, cost more than writing them).
            Kind::Int if header & quirks::FLAG_64 == 0 => {
                // The 32-bit INT, already in hand with its header.
                d.pos = at + 8;
                leaf(out, Kind::Int, |out| int(out, i64::from(count as i32)));
                false
            }
            Kind::Float if header & quirks::FLAG_64 == 0 => {
                d.pos = at + 8;
                let f = crate::variant::layout::real_from_f32_bits(count);
                leaf(out, Kind::Float, |out| real(out, f));
                false
            }
            Kind::Int => {
                d.pos = at + 4;
                let i = d.int_payload(true).ok()?;
                leaf(out, Kind::Int, |out| int(out, i));
                false
            }
            Kind::Float => {
                d.pos = at + 4;
                let f = d.float_payload(true).ok()?;
                leaf(out, Kind::Float, |out| real(out, f));
                false
            }
            Kind::Vector2 => {
                d.pos = at + 4;
                let v = d.vector2_payload(header & quirks::FLAG_64 != 0).ok()?;
                leaf(out, Kind::Vector2, |out| {
                    out.push(b'[');
                    real(out, v.x);
                    out.push(b',');
                    real(out, v.y);
                    out.push(b']');
                });
                false
            }
            Kind::Array if header & quirks::TYPED_ARRAY == 0 => {
                stack.push(Level {
                    left: quirks::container_count(count),
                    dict: false,
                    key_done: false,
                });
                true
            }
            Kind::Dictionary if header & (quirks::TYPED_KEY | quirks::TYPED_VALUE) == 0 => {
                stack.push(Level {
                    left: quirks::container_count(count),
                    dict: true,
                    key_done: false,
                });
                true
            }
            _ => {
                one(out, &mut d)?;
                false
            }
        };
        if opened {
            d.pos = at + 8;
            let head = head(kind);
            put_prefix(out, &head.bytes, head.len);
            out.push(b'[');
        }
        // What follows: the next element of the innermost open container, or its end (and
        // then the same question of the one around it).
        let mut fresh = opened;
        loop {
            let Some(top) = stack.last_mut() else {
                return Some(d.pos);
            };
            if !fresh && top.dict {
                if !top.key_done {
                    top.key_done = true;
                    out.push(b',');
                    break;
                }
                out.push(b']');
            }
            if top.left == 0 {
                out.extend_from_slice(b"]}");
                stack.pop();
                fresh = false;
                continue;
            }
            if !fresh {
                out.push(b',');
            }
            top.left -= 1;
            if top.dict {
                top.key_done = false;
                out.push(b'[');
            }
            break;
        }
    }
}

/// The value at `d.pos` by the decoder's step for one value, its text appended.
#[inline(never)]
pub(super) fn one(out: &mut Vec<u8>, d: &mut crate::decode::Decoder<'_, '_>) -> Option<()> {
    use crate::borrowed::VariantRef;
    let at = d.pos;
    let mut got = None;
    if d.one::<VariantRef<'_>>(|v| got = Some(v)).ok()?.is_some() {
        // A value the step opens (a typed container): the driver reads it whole.
        d.pos = at;
        let v: Variant = d.run().ok()?;
        append(out, &v);
        return Some(());
    }
    match got? {
        VariantRef::Int(i) => leaf(out, Kind::Int, |out| int(out, i)),
        VariantRef::Float(f) => leaf(out, Kind::Float, |out| real(out, f)),
        VariantRef::String(crate::StrRef::Borrowed(s)) => {
            leaf(out, Kind::String, |out| string(out, s))
        }
        v => append(out, &v.into_owned()),
    }
    Some(())
}

/// A value whose text is its head, what `value` writes and `}`.
#[inline(always)]
pub(super) fn leaf(out: &mut Vec<u8>, kind: Kind, value: impl FnOnce(&mut Vec<u8>)) {
    let head = head(kind);
    put_prefix(out, &head.bytes, head.len);
    value(out);
    out.push(b'}');
}
