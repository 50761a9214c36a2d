//! A `tokio-util` codec of framed values (feature `codec`), for game servers and tools that
//! talk to Godot over TCP/WebSocket streams with `StreamPeer.put_var` or `PacketPeerStream`.
//!
//! ```
//! use bytes::BytesMut;
//! use gdvariant::codec::VariantCodec;
//! use gdvariant::framing::Framing;
//! use gdvariant::{Format, Variant};
//! use tokio_util::codec::{Decoder, Encoder};
//!
//! let mut codec = VariantCodec::new(&Format::godot4().framing(Framing::STORE_VAR));
//! let mut wire = BytesMut::new();
//! codec.encode(Variant::Int(42), &mut wire)?;
//! assert_eq!(&wire[..], [8, 0, 0, 0, 2, 0, 0, 0, 42, 0, 0, 0]);
//! let mut half = wire.split_to(6);
//! assert_eq!(codec.decode(&mut half)?, None); // need more bytes: not an error
//! half.extend_from_slice(&wire);
//! assert_eq!(codec.decode(&mut half)?, Some(Variant::Int(42)));
//! # Ok::<(), gdvariant::codec::CodecError>(())
//! ```

use crate::error::EncodeError;
use crate::format::Format;
use crate::framing::{self, Availability, Bare, FrameError, Framing, DEFAULT_MAX_FRAME};
use crate::variant::Variant;
use bytes::BytesMut;
use tokio_util::codec::{Decoder, Encoder};

/// Decodes and encodes values of one dialect in one framing.
#[derive(Clone, Debug)]
pub struct VariantCodec {
    format: Format,
    max_frame: usize,
    /// Bytes consumed so far, so errors carry stream offsets.
    offset: usize,
    scratch: Vec<u8>,
}

impl VariantCodec {
    /// A codec of values laid out as `format` says (frames of 256 MiB at most).
    pub fn new(format: &Format) -> VariantCodec {
        VariantCodec {
            format: format.clone(),
            max_frame: DEFAULT_MAX_FRAME,
            offset: 0,
            scratch: Vec::new(),
        }
    }

    /// Sets the largest frame accepted.
    pub fn with_max_frame(mut self, bytes: usize) -> Self {
        self.max_frame = bytes;
        self
    }

    fn located(&self, e: FrameError) -> FrameError {
        match e {
            FrameError::Decode(d) => FrameError::Decode(d.shifted(self.offset)),
            FrameError::TooLarge { len, limit, .. } => FrameError::TooLarge {
                offset: self.offset,
                len,
                limit,
            },
            other => other,
        }
    }

    fn next(&mut self, src: &mut BytesMut, at_end: bool) -> Result<Option<Variant>, CodecError> {
        if src.is_empty() {
            return Ok(None);
        }
        if self.format.framing == Framing::Bare {
            let r = framing::bare_value(
                src,
                self.format.dialect,
                &self.format.decode,
                self.max_frame,
                at_end,
            );
            return match r.map_err(|e| self.located(e))? {
                Bare::Value(v, used) => {
                    // A final PackedByteArray may lack its padding at the end of the stream.
                    let used = used.min(src.len());
                    let _ = src.split_to(used);
                    self.offset += used;
                    Ok(Some(v))
                }
                Bare::NeedMore(needed) => {
                    src.reserve(reservation(needed, self.max_frame));
                    Ok(None)
                }
            };
        }
        let avail =
            framing::available(src, &self.format, self.max_frame).map_err(|e| self.located(e))?;
        match avail {
            Availability::NeedMore { needed } => {
                src.reserve(reservation(needed, self.max_frame));
                Ok(None)
            }
            Availability::Complete { len } => {
                let frame = src.split_to(len);
                let at = self.offset + self.format.framing.prefix_len();
                self.offset += len;
                let (v, _) = crate::decode(
                    &frame[self.format.framing.prefix_len()..],
                    self.format.dialect,
                    &self.format.decode,
                )
                .map_err(|e| FrameError::Decode(e.shifted(at)))?;
                Ok(Some(v))
            }
        }
    }
}

/// Why the codec failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CodecError {
    /// The stream holds something that is not a value (offsets are stream offsets).
    #[error(transparent)]
    Frame(#[from] FrameError),
    /// A value cannot be encoded for the dialect.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// The transport failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl Decoder for VariantCodec {
    type Item = Variant;
    type Error = CodecError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Variant>, CodecError> {
        self.next(src, false)
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Variant>, CodecError> {
        match self.next(src, true)? {
            Some(v) => Ok(Some(v)),
            None if src.is_empty() => Ok(None),
            None => Err(FrameError::Truncated {
                offset: self.offset,
                needed: match framing::available(src, &self.format, usize::MAX) {
                    Ok(Availability::NeedMore { needed }) => needed,
                    _ => 1,
                },
            }
            .into()),
        }
    }
}

impl Encoder<&Variant> for VariantCodec {
    type Error = CodecError;

    fn encode(&mut self, value: &Variant, dst: &mut BytesMut) -> Result<(), CodecError> {
        self.scratch.clear();
        framing::frame_into(&mut self.scratch, value, &self.format)?;
        dst.extend_from_slice(&self.scratch);
        Ok(())
    }
}

impl Encoder<Variant> for VariantCodec {
    type Error = CodecError;

    fn encode(&mut self, value: Variant, dst: &mut BytesMut) -> Result<(), CodecError> {
        Encoder::<&Variant>::encode(self, &value, dst)
    }
}

/// Room to make for a frame that needs `needed` more bytes: what it needs, but no more than
/// 64 KiB at a time, so that a length prefix that lies cannot make a connection allocate what
/// it claims before the bytes arrive (the buffer grows as they do).
fn reservation(needed: usize, max_frame: usize) -> usize {
    needed.min(max_frame).min(64 << 10)
}
