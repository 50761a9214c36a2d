//! Framing: the length prefixes that `store_var`, `put_var` and `PacketPeerStream` put around values.
//!
//! The engines write a value three ways (reference §5):
//! - bare, as `var_to_bytes` / `var2bytes` return it and as `PacketPeer.put_var` sends one
//!   packet (UDP, ENet, WebSocket): no prefix, [`Framing::Bare`];
//! - `FileAccess.store_var` / `File.store_var` and `StreamPeer.put_var`: `store_32(len)` /
//!   `put_32(len)` then the payload, the prefix in the file's or peer's byte order
//!   (`FileAccess.big_endian`, Godot 3 `File.endian_swap`, `StreamPeer.big_endian`); the payload
//!   itself is always little-endian: [`Framing::StoreVar`];
//! - `PacketPeerStream` (packets over a stream peer): `encode_uint32(len)`, always
//!   little-endian whatever the stream's setting (observed on Godot 3.2.3), then the payload:
//!   [`Framing::PacketStream`].
//!
//! A file holds frames back to back: [`frames`] walks them on a slice, [`FrameReader`] over any
//! [`Read`] without holding more than one frame, [`available`] tells a streaming reader whether
//! a whole value has arrived, and [`write_frame`] / [`frame_into`] write them.

use crate::decode::DecodeOptions;
use crate::dialect::Dialect;
use crate::error::{DecodeError, EncodeError};
use crate::format::Format;
pub use crate::format::Framing;
use crate::variant::Variant;
use std::io::{self, Read, Write};

/// The largest frame a reader accepts by default (256 MiB). A prefix is a `u32` from the
/// input, so without a bound a lying prefix would make a streaming reader wait for (and
/// buffer) up to 4 GiB.
pub const DEFAULT_MAX_FRAME: usize = 256 << 20;

/// One value read from a framed file or stream.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// Absolute offset of the frame (its prefix, if any) in the input.
    pub offset: usize,
    /// Bytes of the whole frame, prefix included.
    pub len: usize,
    /// Bytes of the payload the value used. Less than `len - prefix` when the frame carries
    /// trailing bytes, which the engine ignores (`get_var` decodes the buffer it read).
    pub used: usize,
    /// The value.
    pub value: Variant,
}

impl Frame {
    /// Offset of the payload (after the prefix).
    pub fn payload_offset(&self, framing: Framing) -> usize {
        self.offset + framing.prefix_len()
    }
}

/// Why framed input could not be read. Offsets are absolute in the input.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FrameError {
    /// The payload does not decode (the offset inside is absolute).
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// The input ends inside a frame.
    #[error("input ends inside a frame: {needed} more bytes needed for the frame that starts at offset {offset:#x}")]
    Truncated {
        /// Where the unfinished frame starts.
        offset: usize,
        /// How many more bytes it needs, at least.
        needed: usize,
    },
    /// A length prefix larger than the reader's limit.
    #[error("frame length {len} exceeds the limit of {limit} bytes (at offset {offset:#x})")]
    TooLarge {
        /// Offset of the prefix (or, for bare values, of the value).
        offset: usize,
        /// The length that was asked for.
        len: usize,
        /// The limit.
        limit: usize,
    },
    /// Reading the input failed.
    #[error("read error at offset {offset:#x}: {source}")]
    Io {
        /// How far the input had been read.
        offset: usize,
        /// The error.
        source: io::Error,
    },
}

impl FrameError {
    /// The absolute offset the error is about.
    pub fn offset(&self) -> usize {
        match self {
            FrameError::Decode(e) => e.offset(),
            FrameError::Truncated { offset, .. }
            | FrameError::TooLarge { offset, .. }
            | FrameError::Io { offset, .. } => *offset,
        }
    }
}

/// Whether a whole frame is at the start of a buffer (see [`available`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Availability {
    /// A whole frame of `len` bytes (prefix included) is there.
    Complete {
        /// Bytes of the frame.
        len: usize,
    },
    /// Not yet: at least `needed` more bytes must arrive. Not an error.
    NeedMore {
        /// A lower bound on the missing bytes.
        needed: usize,
    },
}

/// Whether a whole value (with its prefix) is at the start of `buf`, for a reader that gets
/// bytes in pieces: "need more" is an answer, not an error.
///
/// With a prefix this looks at 4 bytes only. Bare values have no length, so the value is
/// decoded to find its end; a value that ends in a `PackedByteArray` whose padding has not
/// arrived yet is reported as incomplete (the engine always writes that padding; only at the
/// true end of a file may it be missing, which [`frames`] accepts). Errors are real errors:
/// bytes that can never become a value, or a frame over `max_frame`.
pub fn available(
    buf: &[u8],
    format: &Format,
    max_frame: usize,
) -> Result<Availability, FrameError> {
    let (framing, dialect, options) = (format.framing, format.dialect, &format.decode);
    match framing {
        Framing::Bare => match bare_value(buf, dialect, options, max_frame, false)? {
            Bare::Value(_, used) => Ok(Availability::Complete { len: used }),
            Bare::NeedMore(needed) => Ok(Availability::NeedMore { needed }),
        },
        _ => {
            if buf.len() < 4 {
                return Ok(Availability::NeedMore {
                    needed: 4 - buf.len(),
                });
            }
            let len = framing.read_prefix(buf) as usize;
            if len > max_frame {
                return Err(FrameError::TooLarge {
                    offset: 0,
                    len,
                    limit: max_frame,
                });
            }
            if buf.len() - 4 < len {
                Ok(Availability::NeedMore {
                    needed: len - (buf.len() - 4),
                })
            } else {
                Ok(Availability::Complete { len: 4 + len })
            }
        }
    }
}

/// What the start of a buffer of bare values holds.
pub(crate) enum Bare {
    /// A whole value and its length.
    Value(Variant, usize),
    /// At least this many more bytes are needed.
    NeedMore(usize),
}

/// Decodes one bare value from the start of `buf`; with `at_end` false, running out of input
/// is [`Bare::NeedMore`] rather than an error.
pub(crate) fn bare_value(
    buf: &[u8],
    dialect: Dialect,
    options: &DecodeOptions,
    max_frame: usize,
    at_end: bool,
) -> Result<Bare, FrameError> {
    match crate::decode(buf, dialect, options) {
        // Every value the engine writes is a multiple of 4 bytes long; a shorter one here is
        // a PackedByteArray whose padding is still on its way.
        Ok((_, used)) if !at_end && used % 4 != 0 => Ok(Bare::NeedMore(4 - used % 4)),
        Ok((v, used)) => Ok(Bare::Value(v, used)),
        Err(e) if !at_end => match short_input(&e, buf, dialect, options) {
            Some(needed) if buf.len() + needed > max_frame => Err(FrameError::TooLarge {
                offset: 0,
                len: buf.len() + needed,
                limit: max_frame,
            }),
            Some(needed) => Ok(Bare::NeedMore(needed)),
            None => Err(e.into()),
        },
        Err(e) => Err(e.into()),
    }
}

/// If `e` only says that the input stopped too early, how many more bytes are needed at least.
fn short_input(
    e: &DecodeError,
    buf: &[u8],
    dialect: Dialect,
    options: &DecodeOptions,
) -> Option<usize> {
    match *e {
        DecodeError::UnexpectedEof { needed, .. } => Some(needed.max(1)),
        // A length or count past the end: more input may bring it, unless it is negative,
        // which no amount of input can fix (the engine reads these as int32)...
        DecodeError::LengthOutOfBounds { len, remaining, .. }
        | DecodeError::StringOutOfBounds { len, remaining, .. }
            if (len as i32) >= 0 =>
        {
            Some((len as usize).saturating_sub(remaining).max(1))
        }
        // ...except a NodePath's name count, whose bit 31 is the format marker: the decoder
        // reports the whole word when the names and subnames cannot fit yet.
        DecodeError::LengthOutOfBounds { offset, .. } if offset >= 4 && offset + 4 <= buf.len() => {
            let header =
                crate::variant::layout::read_u32(buf, offset - 4) & crate::quirks::TYPE_MASK;
            let version = options.version.unwrap_or_else(|| dialect.newest());
            (dialect.kind_of(version, header) == Some(crate::Kind::NodePath)).then_some(1)
        }
        // Everything else is wrong whatever follows: a bad type id, bad UTF-8 (checked only
        // once the whole string is there), the old NodePath format, refused objects, limits.
        _ => None,
    }
}

/// The framing that reads `bytes` when they fail to decode as bare values: bytes that start
/// with a length (little- or big-endian) no larger than what follows, after which a value
/// decodes, are most likely a `store_var` file or a `put_var` stream (a `PacketPeerStream`'s
/// prefix is the little-endian one too). `None` when no prefix fits. Only worth asking after
/// a failure: it decodes the first value again.
///
/// ```
/// use gdvariant::framing::{likely_framing, Framing};
/// use gdvariant::{from_slice, Error, Format, Variant};
/// let file = [8, 0, 0, 0, 2, 0, 0, 0, 42, 0, 0, 0]; // store_var(42)
/// assert!(matches!(from_slice::<Variant>(&file, &Format::godot4()), Err(Error::Decode(_))));
/// assert_eq!(likely_framing(&file, &Format::godot4()), Some(Framing::STORE_VAR));
/// ```
pub fn likely_framing(bytes: &[u8], format: &Format) -> Option<Framing> {
    [Framing::STORE_VAR, Framing::StoreVar { big_endian: true }]
        .into_iter()
        .find(|f| {
            let Some(payload) = bytes.get(4..) else {
                return false;
            };
            let len = f.read_prefix(bytes) as usize;
            len >= 4
                && len <= payload.len()
                && crate::decode(&payload[..len], format.dialect, &format.decode).is_ok()
        })
}

/// Iterates over the frames of a whole input held in memory (see [`frames`]).
pub struct Frames<'a> {
    bytes: &'a [u8],
    pos: usize,
    framing: Framing,
    dialect: Dialect,
    options: &'a DecodeOptions,
    done: bool,
}

/// Every value of `bytes`, framed as `format` says, in order. Stops after the first error,
/// which carries the absolute offset. The last bare value may lack the padding of a trailing
/// `PackedByteArray`, as the engine's decoder allows. [`Frames::with_offsets`] gives each
/// value with where its frame lies.
///
/// ```
/// use gdvariant::framing::{frames, Framing};
/// use gdvariant::{Format, Variant};
/// // File.store_var(null) then File.store_var(42) in Godot 3.3 (godot-docs issue #4945).
/// let file = [4, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 2, 0, 0, 0, 42, 0, 0, 0];
/// let format = Format::godot3().framing(Framing::STORE_VAR);
/// let values: Vec<Variant> = frames(&file, &format).collect::<Result<_, _>>()?;
/// assert_eq!(values, [Variant::Nil, Variant::Int(42)]);
/// # Ok::<(), gdvariant::framing::FrameError>(())
/// ```
pub fn frames<'a>(bytes: &'a [u8], format: &'a Format) -> Frames<'a> {
    Frames {
        bytes,
        pos: 0,
        framing: format.framing,
        dialect: format.dialect,
        options: &format.decode,
        done: false,
    }
}

impl<'a> Frames<'a> {
    /// Offset of the next frame (after the last one read).
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Each value with its frame's place in the input ([`Frame`]).
    pub fn with_offsets(self) -> WithOffsets<Frames<'a>> {
        WithOffsets(self)
    }

    fn next_frame(&mut self) -> Option<Result<Frame, FrameError>> {
        if self.done || self.pos >= self.bytes.len() {
            return None;
        }
        let rest = &self.bytes[self.pos..];
        let offset = self.pos;
        let r = read_frame_at(rest, offset, self.framing, self.dialect, self.options);
        match &r {
            Ok(f) => self.pos += f.len,
            Err(_) => self.done = true,
        }
        Some(r)
    }
}

/// Reads the frame at the start of `rest`, which is the whole remaining input.
fn read_frame_at(
    rest: &[u8],
    offset: usize,
    framing: Framing,
    dialect: Dialect,
    options: &DecodeOptions,
) -> Result<Frame, FrameError> {
    match framing {
        Framing::Bare => {
            let (value, used) =
                crate::decode(rest, dialect, options).map_err(|e| e.shifted(offset))?;
            // A missing final padding makes `used` reach past the input; the frame ends there.
            let len = used.min(rest.len());
            Ok(Frame {
                offset,
                len,
                used: len,
                value,
            })
        }
        _ => {
            if rest.len() < 4 {
                return Err(FrameError::Truncated {
                    offset,
                    needed: 4 - rest.len(),
                });
            }
            let len = framing.read_prefix(rest) as usize;
            if rest.len() - 4 < len {
                return Err(FrameError::Truncated {
                    offset,
                    needed: len - (rest.len() - 4),
                });
            }
            decode_payload(&rest[4..4 + len], offset, framing, dialect, options)
        }
    }
}

/// Decodes the payload of one prefixed frame that starts (its prefix) at `offset` of the
/// input, as [`FrameReader`] decodes it: the same value, and errors at the same absolute
/// offsets. With [`FrameReader::next_frame_or`] taking payloads undecoded, frames can be read
/// in order on one thread and decoded on others (`gdvariant decode` does).
///
/// ```
/// use gdvariant::framing::{decode_frame, Framing};
/// use gdvariant::{Format, Variant};
/// let format = Format::godot3().framing(Framing::STORE_VAR);
/// // The second frame of a stream, at offset 12: its payload is the INT 42.
/// let frame = decode_frame(&[2, 0, 0, 0, 42, 0, 0, 0], 12, &format)?;
/// assert_eq!((frame.offset, frame.len, frame.value), (12, 12, Variant::Int(42)));
/// // A truncated payload: the error's offset is the input's, past the frame's prefix.
/// let e = decode_frame(&[2, 0, 0, 0, 42], 12, &format).unwrap_err();
/// assert_eq!(e.offset(), 16 + 4);
/// # Ok::<(), gdvariant::framing::FrameError>(())
/// ```
pub fn decode_frame(payload: &[u8], offset: usize, format: &Format) -> Result<Frame, FrameError> {
    decode_payload(
        payload,
        offset,
        format.framing,
        format.dialect,
        &format.decode,
    )
}

/// Decodes a prefixed frame's payload; `offset` is where the frame (its prefix) starts.
fn decode_payload(
    payload: &[u8],
    offset: usize,
    framing: Framing,
    dialect: Dialect,
    options: &DecodeOptions,
) -> Result<Frame, FrameError> {
    let at = offset + framing.prefix_len();
    let (value, used) = crate::decode(payload, dialect, options).map_err(|e| e.shifted(at))?;
    Ok(Frame {
        offset,
        len: framing.prefix_len() + payload.len(),
        used: used.min(payload.len()),
        value,
    })
}

/// Reads values one at a time from any [`Read`]: a file of any size is walked holding one
/// frame (plus a read buffer) in memory. [`FrameReader::with_offsets`] gives each value with
/// where its frame lies.
///
/// ```
/// use gdvariant::framing::{FrameReader, Framing};
/// use gdvariant::{Format, Variant};
/// // StreamPeer.put_var("asd") with big_endian on: the prefix is big-endian, the payload not.
/// let stream: &[u8] = &[0, 0, 0, 12, 4, 0, 0, 0, 3, 0, 0, 0, b'a', b's', b'd', 0];
/// let format = Format::godot3().framing(Framing::StoreVar { big_endian: true });
/// let mut r = FrameReader::new(stream, &format);
/// assert_eq!(r.next().unwrap()?, Variant::from("asd"));
/// assert!(r.next().is_none());
/// # Ok::<(), gdvariant::framing::FrameError>(())
/// ```
pub struct FrameReader<R> {
    inner: R,
    framing: Framing,
    dialect: Dialect,
    options: DecodeOptions,
    max_frame: usize,
    /// Bytes read but not yet handed out (bare values only).
    buf: Vec<u8>,
    /// Absolute offset of `buf[0]` (or of the next prefix).
    offset: usize,
    eof: bool,
    failed: bool,
}

impl<R: Read> FrameReader<R> {
    /// A reader of values framed as `format` says.
    pub fn new(inner: R, format: &Format) -> Self {
        FrameReader {
            inner,
            framing: format.framing,
            dialect: format.dialect,
            options: format.decode.clone(),
            max_frame: DEFAULT_MAX_FRAME,
            buf: Vec::new(),
            offset: 0,
            eof: false,
            failed: false,
        }
    }

    /// Sets the largest frame accepted (default [`DEFAULT_MAX_FRAME`]).
    pub fn max_frame(mut self, bytes: usize) -> Self {
        self.max_frame = bytes;
        self
    }

    /// Absolute offset of the next frame.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Each value with its frame's place in the input ([`Frame`]).
    pub fn with_offsets(self) -> WithOffsets<FrameReader<R>> {
        WithOffsets(self)
    }

    fn io(&self, source: io::Error) -> FrameError {
        FrameError::Io {
            offset: self.offset + self.buf.len(),
            source,
        }
    }

    /// Reads up to `n` more bytes into `buf`; returns how many arrived (0 at the end).
    fn fill(&mut self, n: usize) -> Result<usize, FrameError> {
        let before = self.buf.len();
        let got = (&mut self.inner)
            .take(n as u64)
            .read_to_end(&mut self.buf)
            .map_err(|e| self.io(e))?;
        debug_assert_eq!(self.buf.len(), before + got);
        if got < n {
            self.eof = true;
        }
        Ok(got)
    }

    fn next_prefixed(&mut self) -> Option<Result<Frame, FrameError>> {
        match self.read_prefixed()? {
            Ok(()) => Some(self.decode_prefixed()),
            Err(e) => Some(Err(e)),
        }
    }

    /// Decodes the payload [`FrameReader::read_prefixed`] read, and moves past its frame.
    fn decode_prefixed(&mut self) -> Result<Frame, FrameError> {
        let r = decode_payload(
            &self.buf,
            self.offset,
            self.framing,
            self.dialect,
            &self.options,
        );
        self.offset += 4 + self.buf.len();
        r
    }

    /// Reads the next prefixed frame's payload into `buf` (`None` at the end of the input).
    fn read_prefixed(&mut self) -> Option<Result<(), FrameError>> {
        self.buf.clear();
        if let Err(e) = self.fill(4) {
            return Some(Err(e));
        }
        match self.buf.len() {
            0 => return None,
            n if n < 4 => {
                return Some(Err(FrameError::Truncated {
                    offset: self.offset,
                    needed: 4 - n,
                }))
            }
            _ => {}
        }
        let len = self.framing.read_prefix(&self.buf) as usize;
        if len > self.max_frame {
            return Some(Err(FrameError::TooLarge {
                offset: self.offset,
                len,
                limit: self.max_frame,
            }));
        }
        self.buf.clear();
        // `take` + `read_to_end` grows the buffer as bytes arrive, so a lying prefix costs
        // only what the input really holds.
        if let Err(e) = self.fill(len) {
            return Some(Err(e));
        }
        if self.buf.len() < len {
            return Some(Err(FrameError::Truncated {
                offset: self.offset,
                needed: len - self.buf.len(),
            }));
        }
        Some(Ok(()))
    }

    fn next_bare(&mut self) -> Option<Result<Frame, FrameError>> {
        const CHUNK: usize = 64 * 1024;
        loop {
            if !self.buf.is_empty() {
                match bare_value(
                    &self.buf,
                    self.dialect,
                    &self.options,
                    self.max_frame,
                    self.eof,
                ) {
                    Ok(Bare::Value(value, used)) => {
                        let len = used.min(self.buf.len());
                        let frame = Frame {
                            offset: self.offset,
                            len,
                            used: len,
                            value,
                        };
                        self.buf.drain(..len);
                        self.offset += len;
                        return Some(Ok(frame));
                    }
                    Ok(Bare::NeedMore(_)) => {}
                    Err(e) => {
                        return Some(Err(match e {
                            FrameError::Decode(d) => FrameError::Decode(d.shifted(self.offset)),
                            FrameError::TooLarge { len, limit, .. } => FrameError::TooLarge {
                                offset: self.offset,
                                len,
                                limit,
                            },
                            other => other,
                        }))
                    }
                }
            } else if self.eof {
                return None;
            }
            if self.eof {
                // Unreachable in practice: at the end `bare_value` gives a value or an error.
                return None;
            }
            // Doubling the read keeps the repeated decoding of a large bare value linear
            // overall (each attempt decodes from the value's start).
            if let Err(e) = self.fill(CHUNK.max(self.buf.len())) {
                return Some(Err(e));
            }
        }
    }
}

impl<R: Read> Iterator for FrameReader<R> {
    type Item = Result<Variant, FrameError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_frame().map(|r| r.map(|f| f.value))
    }
}

impl<R: Read> Iterator for WithOffsets<FrameReader<R>> {
    type Item = Result<Frame, FrameError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next_frame()
    }
}

impl Iterator for Frames<'_> {
    type Item = Result<Variant, FrameError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_frame().map(|r| r.map(|f| f.value))
    }
}

impl Iterator for WithOffsets<Frames<'_>> {
    type Item = Result<Frame, FrameError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next_frame()
    }
}

/// Values with their frames' places in the input: [`Frames::with_offsets`],
/// [`FrameReader::with_offsets`].
pub struct WithOffsets<I>(I);

impl<R: Read> FrameReader<R> {
    /// The next frame as [`FrameReader::with_offsets`] gives it, but with a prefixed frame's
    /// payload offered first to `take`: when it takes the payload (returns `true`), the
    /// frame is not decoded and `Ok(None)` stands for it. Bare values, whose end only
    /// decoding finds, are always decoded. Errors of the framing (a short or too large
    /// frame) come as they would; a payload `take` refuses is decoded, with its errors.
    ///
    /// `gdvariant decode --format json` writes a frame's JSON straight from its bytes this
    /// way ([`crate::json::append_json_of_bytes`]).
    pub fn next_frame_or(
        &mut self,
        take: impl FnOnce(&[u8]) -> bool,
    ) -> Option<Result<Option<Frame>, FrameError>> {
        if self.failed || self.framing == Framing::Bare {
            return self.next_frame().map(|r| r.map(Some));
        }
        match self.read_prefixed()? {
            Ok(()) if take(&self.buf) => {
                self.offset += 4 + self.buf.len();
                return Some(Ok(None));
            }
            Ok(()) => {}
            Err(e) => {
                self.failed = true;
                return Some(Err(e));
            }
        }
        let r = self.decode_prefixed();
        if r.is_err() {
            self.failed = true;
        }
        Some(r.map(Some))
    }

    fn next_frame(&mut self) -> Option<Result<Frame, FrameError>> {
        if self.failed {
            return None;
        }
        let r = match self.framing {
            Framing::Bare => self.next_bare(),
            _ => self.next_prefixed(),
        };
        if matches!(r, Some(Err(_))) {
            self.failed = true;
        }
        r
    }
}

/// Appends `value` framed: the prefix (if any) and the payload. On error `out` is unchanged.
///
/// ```
/// use gdvariant::framing::{frame_into, Framing};
/// use gdvariant::{Format, Variant};
/// let mut out = Vec::new();
/// frame_into(&mut out, &Variant::Int(42), &Format::godot3().framing(Framing::STORE_VAR))?;
/// // File.store_var(42) in Godot 3.3 (godot-docs issue #4945).
/// assert_eq!(out, [8, 0, 0, 0, 2, 0, 0, 0, 42, 0, 0, 0]);
/// # Ok::<(), gdvariant::EncodeError>(())
/// ```
pub fn frame_into(out: &mut Vec<u8>, value: &Variant, format: &Format) -> Result<(), EncodeError> {
    let (dialect, options, framing) = (format.dialect, &format.encode, format.framing);
    let start = out.len();
    out.extend_from_slice(&[0; 4][..framing.prefix_len()]);
    if let Err(e) = crate::encode_into(out, value, dialect, options) {
        out.truncate(start);
        return Err(e);
    }
    if framing != Framing::Bare {
        let len = out.len() - start - 4;
        let Ok(len32) = u32::try_from(len) else {
            out.truncate(start);
            return Err(EncodeError::TooLong {
                len,
                path: "value".into(),
            });
        };
        out[start..start + 4].copy_from_slice(&framing.prefix_bytes(len32));
    }
    Ok(())
}

/// Puts an already encoded payload in a frame.
pub fn frame_bytes(payload: &[u8], framing: Framing) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + framing.prefix_len());
    if framing != Framing::Bare {
        out.extend_from_slice(&framing.prefix_bytes(payload.len() as u32));
    }
    out.extend_from_slice(payload);
    out
}

/// Why a value could not be written to a stream.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The value cannot be encoded.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// The writer failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Writes `value` framed to `w` (one `write_all`); returns the bytes written.
///
/// ```
/// use gdvariant::framing::{write_frame, Framing};
/// use gdvariant::{Format, Variant};
/// let mut stream = Vec::new(); // a TcpStream, a File, …
/// let format = Format::godot4().framing(Framing::STORE_VAR); // as StreamPeer.put_var
/// write_frame(&mut stream, &Variant::from("hi"), &format)?;
/// assert_eq!(stream, [12, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0]);
/// # Ok::<(), gdvariant::framing::WriteError>(())
/// ```
pub fn write_frame<W: Write>(
    w: &mut W,
    value: &Variant,
    format: &Format,
) -> Result<usize, WriteError> {
    let mut out = Vec::new();
    frame_into(&mut out, value, format)?;
    w.write_all(&out)?;
    Ok(out.len())
}
