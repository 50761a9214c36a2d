//! Godot's remote debugger protocol (feature `debugger`): typed messages of Godot 3 and Godot 4
//! games, the commands an editor sends back, and an async session on tokio.
//!
//! The editor listens and the game connects (`--remote-debug 127.0.0.1:6007` in Godot 3,
//! `--remote-debug tcp://127.0.0.1:6007` in Godot 4). There is no handshake: each side sends
//! `PacketPeerStream` frames (a little-endian `u32` length, then one Variant):
//! - Godot 3 (`ScriptDebuggerRemote`): a game message is a String frame (its name), an int frame
//!   (the argument count) and that many frames, one per argument; a command is one frame holding
//!   the Array `[command, args…]`.
//! - Godot 4.2+ (`RemoteDebugger`): every message, both ways, is one frame holding the Array
//!   `[name, thread_id, data]` (4.0 and 4.1 sent `[name, data]`, which is read too).
//!
//! [`Session`] reads either (it tells them apart by the game's first frame), yields each message
//! as a [`Message`] and sends [`Command`]s. A message the engine sends that this module does not
//! know is kept whole ([`Message::Unknown`]); a frame that does not decode, or a known message
//! with the wrong shape, is one [`MessageError`] and the session reads on. A session can record
//! its raw bytes to a capture file and a capture file can be replayed through the same session
//! type ([`capture`]).
//!
//! Sources: the protocol reference in the repository's shared notes, and the engines' source:
//! Godot 3.2 `scene/debugger/script_debugger_remote.cpp`, Godot 4.3
//! `core/debugger/remote_debugger.cpp`, `core/debugger/debugger_marshalls.cpp` and
//! `scene/debugger/scene_debugger.cpp`.

pub mod capture;
mod command;
mod message;
mod session;
mod wire;

pub use command::Command;
pub use message::{
    DebugEnter, ErrorReport, InspectedObject, Message, OutputKind, OutputLine, Property,
    RawMessage, SceneNode, StackFrame, StackVariable, VarScope,
};
pub use session::{Session, DEFAULT_PORT};
pub use wire::MessageError;

use crate::Dialect;

/// Which generation of the protocol a game speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// Godot 3.x: loose frames per message, `[command, args…]` commands.
    Godot3,
    /// Godot 4.x: one `[name, thread_id, data]` Array per message.
    Godot4,
}

impl Protocol {
    /// The Variant dialect the frames are written in.
    pub fn dialect(self) -> Dialect {
        match self {
            Protocol::Godot3 => Dialect::Godot3,
            Protocol::Godot4 => Dialect::Godot4,
        }
    }
}

impl std::fmt::Display for Protocol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Protocol::Godot3 => "Godot 3",
            Protocol::Godot4 => "Godot 4",
        })
    }
}
