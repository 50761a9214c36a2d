//! The fast path of the building decoders: the driver's own reading steps, run as plain
//! recursion, which builds the value or gives up and leaves the input to the full driver.
//!
//! The driver keeps open containers on an explicit stack so that no input can overflow the
//! thread stack and so that `explain` can watch every step; each element then costs a trip
//! through a `Frame` (moved into the stack, matched, moved out to its parent). The values
//! games send nest a few levels deep, where recursion holds the same state in registers and
//! locals. [`Decoder::quick`] reads them with the very calls the driver makes ([`Decoder::one`]
//! for each value, [`Decoder::other`] for each container's header, [`DictFill::insert`] for
//! the duplicate-key rule, the same `Build` calls to finish), so the values it builds are the
//! driver's by construction. One step is its own: a dictionary key that is a String of plain
//! text (nearly every key) is read by [`Decoder::string_key`], `one`'s reading of a String
//! cut short, so that the key's bit for the duplicate-key rule comes from the input text
//! rather than from the string made of it; any other key goes through `one`. Containers nested deeper than [`QUICK_DEPTH`] it hands to the driver's loop
//! ([`Decoder::finish_within`]), which goes on from the same state. It never decides an
//! error: any error, or nesting past the caller's limit, makes it return `None`, and
//! [`Decoder::run`] reads the input again from the start with the driver, so errors and
//! offsets stay the driver's (giving up late costs one more read of the input, on input that
//! is refused anyway). Engine checks and `explain` (which watches every step) always use the
//! driver alone.

use super::*;

/// Nesting the fast path reads by recursion; deeper containers are filled by the driver,
/// whose stack is on the heap. Each level takes one to two KiB of the thread's stack (7.3 KiB
/// in a debug build), so this keeps the fast path within about 32 KiB of it (120 KiB), while
/// game data rarely nests this deep.
pub(crate) const QUICK_DEPTH: usize = 16;

impl<'a, O: Observe> Decoder<'a, '_, O> {
    /// Whether [`Decoder::quick`] may read for this decode: an ordinary decode building a
    /// result, with no engine checks to make and nobody watching.
    #[inline(always)]
    pub(crate) fn quick_applies<B: Build<'a>>(&self) -> bool {
        B::KEEP && !O::WATCHES && !self.checks && self.retype.is_none()
    }

    /// The value at the current position, read by recursion (see the module documentation),
    /// or `None` when the driver must read it; the decoder's state is then to be restored by
    /// the caller.
    #[inline]
    pub(crate) fn quick<B: Build<'a>>(&mut self, scratch: &mut Scratch<'a, B>) -> Option<B> {
        let mut out = None;
        match self.one::<B>(|v| out = Some(v)).ok()? {
            None => out,
            Some(frame) => self.quick_fill(frame, 1, scratch),
        }
    }

    /// A dictionary key that is a String of plain text (nearly every key), read as
    /// [`Decoder::one`] reads a String value, with its [`Build::key_bit`]; `None`, having read
    /// nothing, for any other key (which `one` then reads).
    #[inline(always)]
    fn string_key<B: Build<'a>>(&mut self) -> Option<(B, u32)> {
        let buf: &'a [u8] = self.buf;
        let (header, rest) = buf.get(self.pos..)?.split_first_chunk::<4>()?;
        let tag = u32::from_le_bytes(*header) & quirks::TYPE_MASK;
        if self.kind_of(tag) != Some(Kind::String) {
            return None;
        }
        let (text, used) = plain_text_in(rest)?;
        self.pos += 4 + used;
        Some(B::string_key(text))
    }

    /// Fills `frame`, opened at nesting `depth` (the driver's stack height for it), and
    /// closes it.
    fn quick_fill<B: Build<'a>>(
        &mut self,
        frame: Frame<'a, B>,
        depth: usize,
        scratch: &mut Scratch<'a, B>,
    ) -> Option<B> {
        // The driver's depth check, made before each element is read.
        if depth > self.options.limits.max_depth {
            return None;
        }
        if depth > QUICK_DEPTH {
            // Deeper still: the driver goes on from here, its stack on the heap. Its state is
            // the one it would have had reading from the start, so whatever it finds is its
            // own verdict; an error still sends the whole input back to it.
            return self.finish_within(frame, depth - 1, scratch).ok();
        }
        match frame {
            Frame::Array {
                mut items,
                left,
                typed,
            } => {
                for _ in 0..left {
                    let child = self
                        .one::<B>(
                            #[inline(always)]
                            |v| keep::<B, _>(&mut items, v),
                        )
                        .ok()?;
                    if let Some(child) = child {
                        let v = self.quick_fill(child, depth + 1, scratch)?;
                        keep::<B, _>(&mut items, v);
                    }
                }
                Some(B::array(items, typed))
            }
            Frame::Dict {
                mut fill,
                left,
                typed,
                ..
            } => {
                for _ in 0..left {
                    let (key, bit) = match self.string_key::<B>() {
                        Some(key) => key,
                        None => {
                            let mut key = None;
                            if let Some(child) = self.one::<B>(|v| key = Some(v)).ok()? {
                                key = Some(self.quick_fill(child, depth + 1, scratch)?);
                            }
                            let key = key?;
                            let bit = B::key_bit(&key);
                            (key, bit)
                        }
                    };
                    let mut value = None;
                    let value = match self.one::<B>(|v| value = Some(v)).ok()? {
                        None => value?,
                        Some(child) => self.quick_fill(child, depth + 1, scratch)?,
                    };
                    fill.insert_bit(scratch, bit, key, value);
                }
                self.replaced |= fill.replaced;
                fill.entries.close(scratch);
                Some(B::dictionary(fill.entries, typed, fill.index))
            }
            Frame::Object {
                class,
                mut props,
                left,
                ..
            } => {
                for _ in 0..left {
                    let name = B::text(self.str_text().ok()?);
                    let mut name = Some(name);
                    let child = self
                        .one::<B>(|v| {
                            if let Some(n) = name.take() {
                                keep::<B, _>(&mut props, (n, v))
                            }
                        })
                        .ok()?;
                    if let Some(child) = child {
                        let v = self.quick_fill(child, depth + 1, scratch)?;
                        keep::<B, _>(&mut props, (name.take()?, v));
                    }
                }
                Some(B::object(class, props))
            }
        }
    }
}
