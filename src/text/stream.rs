//! Text to bytes without holding the values: a top-level Array or Dictionary is encoded
//! element by element as it is parsed, so `encode --from text` of a big container holds the
//! text and the bytes, never the whole value.
//!
//! A Dictionary of a million entries parsed whole takes 64 MB of entries and 19 MB of key
//! index beside its 22 MB of text; encoded as it is read, it takes its 28 MB of bytes and
//! 8 bytes of hash per key. The bytes are exactly those of parsing the value and encoding it
//! ([`frame_into`]): each element is encoded as the container's encoder encodes it (one level
//! less of nesting allowed), and anything the element-by-element pass cannot vouch for gives
//! up and leaves the value to the whole parse: a key that may repeat an earlier one (the
//! engine's rule keeps the last value at the first key's place, which bytes already written
//! cannot follow), a typed or parenthesised container, an element the encoder refuses, a
//! text error (so errors and their places stay the parser's own), sizes past what a count or
//! a frame length holds.

use super::parse::Parser;
use super::TextError;
use crate::encode::Appender;
use crate::error::EncodeError;
use crate::format::Format;
use crate::framing::frame_into;
use crate::quirks;
use crate::variant::key;
use crate::variant::{Array, Dictionary, Variant};

use super::lex::Tok;

/// Why the element-by-element pass gave up: the value is parsed whole instead.
struct GiveUp;

impl From<TextError> for GiveUp {
    fn from(_: TextError) -> GiveUp {
        GiveUp
    }
}

impl From<EncodeError> for GiveUp {
    fn from(_: EncodeError) -> GiveUp {
        GiveUp
    }
}

impl Parser<'_> {
    /// Whether the text has no more values.
    pub(crate) fn at_end(&self) -> bool {
        self.tok == Tok::Eof
    }

    /// Parses the next value and drops it.
    pub(crate) fn skip_value(&mut self) -> Result<(), TextError> {
        self.value_within(0).map(drop)
    }

    /// Parses the next value of a sequence and appends its frame to `out`, as parsing it
    /// whole and calling [`frame_into`] does (the outer `Err` is the text's error, the inner
    /// one the encoder's, with `out` as it was).
    pub(crate) fn encode_next(
        &mut self,
        out: &mut Vec<u8>,
        format: &Format,
    ) -> Result<Result<(), EncodeError>, TextError> {
        if matches!(self.tok, Tok::LBrace | Tok::LBracket) {
            let start = out.len();
            let before = self.clone();
            match self.stream(out, format) {
                Ok(()) => return Ok(Ok(())),
                Err(GiveUp) => {
                    *self = before;
                    out.truncate(start);
                }
            }
        }
        let value = self.value_within(0)?;
        Ok(frame_into(out, &value, format))
    }

    /// The element-by-element pass over the container at the current token.
    fn stream(&mut self, out: &mut Vec<u8>, format: &Format) -> Result<(), GiveUp> {
        let dict = self.tok == Tok::LBrace;
        let encode = &format.encode;
        // Elements are encoded on their own, one level higher than inside their container:
        // the limit is one level lower (a limit of 0 refuses every element, which only the
        // whole encoder says rightly).
        let limit = encode.max_depth.unwrap_or(1024);
        if limit == 0 {
            return Err(GiveUp);
        }
        let inner = crate::EncodeOptions {
            max_depth: Some(limit - 1),
            ..encode.clone()
        };
        let elements = Appender::new(format.dialect, &inner);
        let start = out.len();
        let framed = format.framing.prefix_len();
        out.extend_from_slice(&[0; 4][..framed]);
        let empty = if dict {
            Variant::Dictionary(Dictionary::new())
        } else {
            Variant::Array(Array::new(Vec::new()))
        };
        crate::encode_into(out, &empty, format.dialect, encode)?;
        // An untyped container's header ends with its count.
        let count_at = out.len() - 4;
        self.advance()?;
        let closer = if dict { Tok::RBrace } else { Tok::RBracket };
        // The full 64-bit hash of every key so far (the dictionary index's slots keep 32
        // bits, which a million keys would share by chance about a hundred times, and each
        // such chance would send the value to the whole parse).
        let state = key::KeyState::new();
        let mut seen: hashbrown::HashTable<u64> = hashbrown::HashTable::new();
        let mut n = 0usize;
        loop {
            if self.tok == closer {
                self.advance()?;
                break;
            }
            if dict {
                let k = self.value_within(1)?;
                self.expect(Tok::Colon)?;
                // A key the engine keeps apart is a new entry whatever it equals (the text
                // reader's `insert_read` with `dicts_by_identity`); any other may repeat one.
                if !quirks::kept_apart(&k, true) {
                    let h = key::key_hash(&state, &k);
                    // The hashes are keyed at random, so they are their own table hash.
                    match seen.entry(h, |&x| x == h, |&x| x) {
                        // The same key again, or two keys of one 64-bit hash: either way
                        // the whole parse decides.
                        hashbrown::hash_table::Entry::Occupied(_) => return Err(GiveUp),
                        hashbrown::hash_table::Entry::Vacant(slot) => {
                            slot.insert(h);
                        }
                    }
                }
                elements.append(out, &k)?;
            }
            let v = self.value_within(1)?;
            elements.append(out, &v)?;
            n += 1;
            match &self.tok {
                Tok::Comma => {
                    self.advance()?;
                }
                t if *t == closer => {
                    self.advance()?;
                    break;
                }
                _ => return Err(GiveUp),
            }
        }
        if n > quirks::COUNT_MASK as usize {
            return Err(GiveUp);
        }
        out[count_at..count_at + 4].copy_from_slice(&(n as u32).to_le_bytes());
        if framed > 0 {
            let len = u32::try_from(out.len() - start - 4).map_err(|_| GiveUp)?;
            out[start..start + 4].copy_from_slice(&format.framing.prefix_bytes(len));
        }
        Ok(())
    }
}
