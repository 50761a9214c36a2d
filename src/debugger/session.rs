//! An editor-side debugger session on tokio: accepts a game's connection (or replays a capture
//! file), yields its messages and sends it commands.

use super::capture::{self, Direction, Recorder};
use super::wire::{Assembler, MessageError};
use super::{Command, Message, Protocol};
use crate::framing::{frame_into, Framing};
use std::io;
use std::net::SocketAddr;
use std::path::Path;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The editor's default debugger port (`network/debug/remote_port`), in Godot 3 and 4.
pub const DEFAULT_PORT: u16 = 6007;

type Reader = Box<dyn AsyncRead + Send + Unpin>;
type Writer = Box<dyn AsyncWrite + Send + Unpin>;

/// One game's debugger connection, seen from the editor's side.
///
/// [`Session::next`] is cancel-safe (its state lives in the session, and it awaits only a
/// read), so it can sit in a `tokio::select!` beside a source of commands.
pub struct Session {
    reader: Reader,
    writer: Writer,
    assembler: Assembler,
    recorder: Option<Recorder>,
    eof: bool,
    peer: Option<SocketAddr>,
}

impl Session {
    /// Waits for a game to connect to `listener`. `protocol` `None` tells Godot 3 from Godot 4
    /// by the game's first frame.
    pub async fn accept(listener: &TcpListener, protocol: Option<Protocol>) -> io::Result<Session> {
        let (stream, peer) = listener.accept().await?;
        let mut s = Session::from_stream(stream, protocol);
        s.peer = Some(peer);
        Ok(s)
    }

    /// A session over a connected stream.
    pub fn from_stream(stream: TcpStream, protocol: Option<Protocol>) -> Session {
        let _ = stream.set_nodelay(true);
        let peer = stream.peer_addr().ok();
        let (r, w) = stream.into_split();
        let mut s = Session::from_io(r, w, protocol);
        s.peer = peer;
        s
    }

    /// A session over any pair of byte streams (from the game, to the game).
    pub fn from_io(
        reader: impl AsyncRead + Send + Unpin + 'static,
        writer: impl AsyncWrite + Send + Unpin + 'static,
        protocol: Option<Protocol>,
    ) -> Session {
        Session {
            reader: Box::new(reader),
            writer: Box::new(writer),
            assembler: Assembler::new(protocol),
            recorder: None,
            eof: false,
            peer: None,
        }
    }

    /// A session that plays back what a game sent in a capture file; commands go nowhere.
    pub fn replay(path: &Path, protocol: Option<Protocol>) -> io::Result<Session> {
        let from_game: Vec<u8> = capture::read(path)?
            .into_iter()
            .filter(|r| r.direction == Direction::FromGame)
            .flat_map(|r| r.bytes)
            .collect();
        Ok(Session::from_io(
            io::Cursor::new(from_game),
            tokio::io::sink(),
            protocol,
        ))
    }

    /// Saves every byte read and written from now on to a capture file at `path`.
    pub fn record(&mut self, path: &Path) -> io::Result<()> {
        self.recorder = Some(Recorder::create(path)?);
        Ok(())
    }

    /// The game's protocol, once known (given, or seen in its first frame).
    pub fn protocol(&self) -> Option<Protocol> {
        self.assembler.protocol()
    }

    /// The game's address, for a TCP session.
    pub fn peer(&self) -> Option<SocketAddr> {
        self.peer
    }

    /// The next message, or the error that ended one message; `None` once the game has gone.
    pub async fn next(&mut self) -> Option<Result<Message, MessageError>> {
        loop {
            if let Some(event) = self.assembler.next_event() {
                return Some(event);
            }
            if self.eof {
                return self.assembler.finish().map(Err);
            }
            let before = self.assembler.buf.len();
            match self.reader.read_buf(&mut self.assembler.buf).await {
                Ok(0) => self.eof = true,
                Ok(_) => {
                    if let Some(rec) = &mut self.recorder {
                        let fresh = &self.assembler.buf[before..];
                        if let Err(e) = rec.write(Direction::FromGame, fresh) {
                            self.recorder = None;
                            return Some(Err(MessageError {
                                offset: self.assembler.received(),
                                reason: format!(
                                    "writing the capture file failed, recording stopped: {e}"
                                ),
                                raw: None,
                            }));
                        }
                    }
                }
                Err(e) => {
                    self.eof = true;
                    return Some(Err(MessageError {
                        offset: self.assembler.received(),
                        reason: format!("reading from the game failed: {e}"),
                        raw: None,
                    }));
                }
            }
        }
    }

    /// Sends a command. Fails before the game's protocol is known (nothing has arrived yet and
    /// none was given), when the value cannot be encoded, or when the connection is gone.
    pub async fn send(&mut self, command: &Command) -> io::Result<()> {
        let protocol = self.protocol().ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::WouldBlock,
                "the game's protocol is not known yet: wait for its first message",
            )
        })?;
        let value = command.to_variant(protocol);
        let mut out = Vec::new();
        frame_into(
            &mut out,
            &value,
            &crate::Format::new(protocol.dialect()).framing(Framing::PacketStream),
        )
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
        if let Some(rec) = &mut self.recorder {
            rec.write(Direction::ToGame, &out)?;
        }
        self.writer.write_all(&out).await?;
        self.writer.flush().await
    }
}
