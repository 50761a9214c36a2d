//! From bytes to messages: `PacketPeerStream` frames, the Godot 3 name/count/arguments
//! assembly and the Godot 4 `[name, thread, data]` Array, with every fault one error.

use super::message::{Message, RawMessage};
use super::Protocol;
use crate::framing::{self, Availability, FrameError, Framing};
use crate::{DecodeOptions, Variant};
use bytes::BytesMut;

/// The largest frame a game sends: its output buffer is 8 MiB (4.3
/// `core/debugger/remote_debugger_peer.cpp` 77-89; 3.2 `set_output_buffer_max_size`).
pub const MAX_FRAME: usize = 8 << 20;

/// Godot 3 messages give their argument count in advance; no engine message comes near this
/// many arguments (a scene tree of 250 000 nodes has a million), and a larger count would make
/// the reader take every later frame as an argument.
const MAX_ARGS: i64 = 1 << 22;

/// A message that could not be read. The session goes on after it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{reason} (at offset {offset:#x})")]
pub struct MessageError {
    /// Stream offset of the frame (or of the first frame of the Godot 3 message) at fault.
    pub offset: u64,
    /// What is wrong.
    pub reason: String,
    /// The message as far as it could be read, when its frames decoded.
    pub raw: Option<RawMessage>,
}

impl MessageError {
    fn new(offset: u64, reason: impl Into<String>) -> MessageError {
        MessageError {
            offset,
            reason: reason.into(),
            raw: None,
        }
    }
}

/// A Godot 3 message being assembled from its frames.
struct Pending {
    offset: u64,
    name: String,
    /// The argument count, once its frame has arrived.
    count: Option<usize>,
    args: Vec<Variant>,
    /// The first argument frame that did not decode: the message is reported as an error once
    /// all its frames are in, so the frames after it are not mistaken for new messages.
    bad: Option<MessageError>,
}

/// Turns the bytes of one game connection into messages. Holds no I/O: the session feeds it.
pub(crate) struct Assembler {
    /// Bytes received and not yet used.
    pub(crate) buf: BytesMut,
    /// Stream offset of `buf[0]`.
    offset: u64,
    protocol: Option<Protocol>,
    pending: Option<Pending>,
    options: DecodeOptions,
}

impl Assembler {
    /// An assembler for `protocol`, or one that tells it from the first frame.
    pub(crate) fn new(protocol: Option<Protocol>) -> Assembler {
        Assembler {
            buf: BytesMut::with_capacity(1 << 16),
            offset: 0,
            protocol,
            pending: None,
            // Objects travel as ids; a full object from the network is refused, as the editor's
            // `get_var` does (allow_objects false).
            options: DecodeOptions::default(),
        }
    }

    pub(crate) fn protocol(&self) -> Option<Protocol> {
        self.protocol
    }

    /// How many bytes of the stream have arrived.
    pub(crate) fn received(&self) -> u64 {
        self.offset + self.buf.len() as u64
    }

    /// The next message or error the buffered bytes hold, or `None` until more arrive.
    pub(crate) fn next_event(&mut self) -> Option<Result<Message, MessageError>> {
        loop {
            let (at, frame) = self.next_frame()?;
            let protocol = self.protocol.expect("set by next_frame");
            let done = match protocol {
                Protocol::Godot3 => self.godot3(at, frame),
                Protocol::Godot4 => Some(frame.and_then(|v| godot4(at, v))),
            };
            let raw = match done {
                None => continue,
                Some(Ok(raw)) => raw,
                Some(Err(e)) => return Some(Err(e)),
            };
            return Some(
                Message::parse(raw, protocol).map_err(|(reason, raw)| MessageError {
                    offset: at,
                    reason,
                    raw: Some(raw),
                }),
            );
        }
    }

    /// At the end of the stream: what was left unfinished, if anything.
    pub(crate) fn finish(&mut self) -> Option<MessageError> {
        if let Some(p) = self.pending.take() {
            let reason = match p.count {
                Some(n) => format!(
                    "the connection closed inside message `{}` ({} of {n} arguments)",
                    p.name,
                    p.args.len()
                ),
                None => format!(
                    "the connection closed inside message `{}` (before its argument count)",
                    p.name
                ),
            };
            self.buf.clear();
            return Some(MessageError::new(p.offset, reason));
        }
        if !self.buf.is_empty() {
            let e = MessageError::new(
                self.offset,
                format!(
                    "the connection closed inside a frame ({} bytes of it arrived)",
                    self.buf.len()
                ),
            );
            self.offset += self.buf.len() as u64;
            self.buf.clear();
            return Some(e);
        }
        None
    }

    /// The next whole frame, decoded, with its stream offset; `None` until one is there.
    fn next_frame(&mut self) -> Option<(u64, Result<Variant, MessageError>)> {
        let protocol = match self.protocol {
            Some(p) => p,
            None => {
                let p = detect(&self.buf)?;
                self.protocol = Some(p);
                p
            }
        };
        let at = self.offset;
        let dialect = protocol.dialect();
        let format = crate::Format {
            dialect,
            framing: Framing::PacketStream,
            decode: self.options.clone(),
            encode: Default::default(),
        };
        match framing::available(&self.buf, &format, MAX_FRAME) {
            Ok(Availability::NeedMore { .. }) => None,
            Ok(Availability::Complete { len }) => {
                let frame = self.buf.split_to(len);
                self.offset += len as u64;
                let payload_at = at as usize + 4;
                let value = match crate::decode(&frame[4..], dialect, &self.options) {
                    Ok((v, _)) => Ok(v),
                    Err(e) => Err(MessageError::new(
                        at,
                        format!("a frame does not decode: {}", e.shifted(payload_at)),
                    )),
                };
                Some((at, value))
            }
            Err(e) => {
                // A length prefix over the limit: skip the prefix and read on, as the 4.3 engine
                // does (remote_debugger_peer.cpp 131-145). What follows may be garbage until the
                // stream lines up again; each such frame is one more error, never the end.
                let _ = self.buf.split_to(4);
                self.offset += 4;
                let reason = match e {
                    FrameError::TooLarge { len, limit, .. } => format!(
                        "a frame length of {len} bytes is over the {limit}-byte limit; its prefix was skipped"
                    ),
                    other => other.to_string(),
                };
                Some((at, Err(MessageError::new(at, reason))))
            }
        }
    }

    /// Godot 3: a String frame (name), an int frame (count), then count argument frames
    /// (3.2 `editor/script_editor_debugger.cpp` 1460-1530 reads them the same way).
    fn godot3(
        &mut self,
        at: u64,
        frame: Result<Variant, MessageError>,
    ) -> Option<Result<RawMessage, MessageError>> {
        let Some(p) = self.pending.as_mut() else {
            return match frame {
                Ok(Variant::String(name)) => {
                    self.pending = Some(Pending {
                        offset: at,
                        name: name.to_string(),
                        count: None,
                        args: Vec::new(),
                        bad: None,
                    });
                    None
                }
                Ok(other) => Some(Err(MessageError::new(
                    at,
                    format!(
                        "expected a message name (a String frame), got {:?}; frame skipped",
                        other.kind()
                    ),
                ))),
                Err(e) => Some(Err(e)),
            };
        };
        let Some(count) = p.count else {
            let p = self.pending.take().expect("matched above");
            return match frame {
                Ok(Variant::Int(n)) if (0..=MAX_ARGS).contains(&n) => {
                    if n == 0 {
                        return Some(Ok(RawMessage {
                            name: p.name,
                            thread: None,
                            args: Vec::new(),
                        }));
                    }
                    self.pending = Some(Pending {
                        count: Some(n as usize),
                        ..p
                    });
                    None
                }
                Ok(other) => Some(Err(MessageError::new(
                    p.offset,
                    format!(
                        "message `{}`: expected its argument count (an int from 0 to {MAX_ARGS}), got {}",
                        p.name,
                        brief(&other)
                    ),
                ))),
                Err(e) => Some(Err(MessageError::new(
                    p.offset,
                    format!("message `{}`: its argument count: {}", p.name, e),
                ))),
            };
        };
        match frame {
            Ok(v) => p.args.push(v),
            Err(e) => {
                p.bad.get_or_insert(e);
                p.args.push(Variant::Nil);
            }
        }
        if p.args.len() < count {
            return None;
        }
        let p = self.pending.take().expect("matched above");
        let raw = RawMessage {
            name: p.name,
            thread: None,
            args: p.args,
        };
        Some(match p.bad {
            None => Ok(raw),
            Some(bad) => Err(MessageError {
                offset: p.offset,
                reason: format!("message `{}`: an argument: {bad}", raw.name),
                raw: Some(raw),
            }),
        })
    }
}

/// Godot 4: one Array `[name, thread_id, data]` (4.2+) or `[name, data]` (4.0, 4.1)
/// (4.3 `core/debugger/remote_debugger.cpp` `_poll_messages` 353-375).
fn godot4(at: u64, v: Variant) -> Result<RawMessage, MessageError> {
    let bad = |why: String| MessageError::new(at, format!("not a Godot 4 debugger message: {why}"));
    let Variant::Array(a) = v else {
        return Err(bad(format!("expected an Array, got {}", brief(&v))));
    };
    let mut items = a.items.into_iter();
    let (name, thread, data) = match (items.next(), items.next(), items.next(), items.next()) {
        (Some(name), Some(Variant::Int(t)), Some(data), None) => (name, Some(t), data),
        (Some(name), Some(data), None, None) => (name, None, data),
        _ => return Err(bad("expected [name, thread_id, data]".into())),
    };
    let name = match name {
        Variant::String(s) => s.to_string(),
        other => return Err(bad(format!("the name is {}", brief(&other)))),
    };
    let args = match data {
        Variant::Array(a) => a.items,
        other => return Err(bad(format!("the data of `{name}` is {}", brief(&other)))),
    };
    Ok(RawMessage { name, thread, args })
}

/// A short description of a value for error messages: its kind, and its value when small.
fn brief(v: &Variant) -> String {
    match v {
        Variant::Int(i) => format!("int {i}"),
        Variant::String(s) if s.len() <= 40 => format!("String {:?}", s.as_str()),
        other => format!("{:?}", other.kind()),
    }
}

/// Tells the protocol from the first frame: a Godot 3 game starts with a message name (a
/// String), a Godot 4 game with an Array (`set_pid`). `None` until 8 bytes are there.
fn detect(buf: &[u8]) -> Option<Protocol> {
    let header = buf.get(4..8)?;
    // The low 16 bits of the header are the type: String is 4 in both, Array 19 in Godot 3 and
    // 28 in Godot 4 (Godot 3 has no type 28).
    Some(match header[0] {
        4 | 19 => Protocol::Godot3,
        _ => Protocol::Godot4,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framing::frame_into;
    use crate::Array;

    fn frames(protocol: Protocol, values: &[Variant]) -> Vec<u8> {
        let mut out = Vec::new();
        for v in values {
            frame_into(
                &mut out,
                v,
                &crate::Format::new(protocol.dialect()).framing(Framing::PacketStream),
            )
            .unwrap();
        }
        out
    }

    fn all(a: &mut Assembler) -> Vec<Result<Message, MessageError>> {
        let mut out = Vec::new();
        while let Some(e) = a.next_event() {
            out.push(e);
        }
        out.extend(a.finish().map(Err));
        out
    }

    #[test]
    fn godot3_bad_argument_ends_only_its_message() {
        let mut bytes = frames(Protocol::Godot3, &["output".into(), 1.into()]);
        // One argument frame holding type id 99, then a good message.
        bytes.extend_from_slice(&[4, 0, 0, 0, 99, 0, 0, 0]);
        bytes.extend(frames(Protocol::Godot3, &["debug_exit".into(), 0.into()]));
        let mut a = Assembler::new(None);
        a.buf.extend_from_slice(&bytes);
        let got = all(&mut a);
        assert_eq!(got.len(), 2, "{got:?}");
        let e = got[0].as_ref().unwrap_err();
        assert_eq!(e.offset, 0);
        assert!(e.reason.contains("`output`"), "{e}");
        assert_eq!(got[1], Ok(Message::DebugExit));
    }

    #[test]
    fn oversized_prefix_and_truncation_are_errors_not_the_end() {
        let mut bytes = vec![0xff, 0xff, 0xff, 0x7f];
        let good = Variant::Array(Array::new(vec![
            "debug_exit".into(),
            1.into(),
            Variant::Array(Array::default()),
        ]));
        bytes.extend(frames(Protocol::Godot4, &[good]));
        bytes.extend_from_slice(&[100, 0, 0, 0, 1]);
        let mut a = Assembler::new(Some(Protocol::Godot4));
        a.buf.extend_from_slice(&bytes);
        let got = all(&mut a);
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(got[0].as_ref().unwrap_err().reason.contains("limit"));
        assert_eq!(got[1], Ok(Message::DebugExit));
        assert!(got[2]
            .as_ref()
            .unwrap_err()
            .reason
            .contains("closed inside a frame"));
    }
}
