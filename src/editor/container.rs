//! The step between a file's bytes and the values' bytes: where a file format around the
//! values (encrypted, compressed) is taken off when opening and put back when saving.
//!
//! A save holds its values directly, so both directions are the identity. A debugger
//! recording (`gdvariant debug listen --record`) holds the game's side of a session: its
//! packets are read as frames, in order, and cannot be written back. A format that needs a
//! password reports [`EditorError::NeedsPassword`]; the page then asks for one and opens the
//! file again with it (see docs/editor.md, "Containers").

use super::EditorError;
use crate::debugger::capture::{self, Direction};
use crate::framing::Framing;

/// What was around the values in the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Container {
    /// Nothing: the file is the values' bytes.
    #[default]
    None,
    /// A debugger recording: the values are the messages the game sent, each framed as the
    /// debugger protocol frames them (`PacketPeerStream`).
    DebuggerRecording,
}

impl Container {
    /// A short name for the page (`"none"`).
    pub fn name(&self) -> &'static str {
        match self {
            Container::None => "none",
            Container::DebuggerRecording => "debugger recording (read-only)",
        }
    }

    /// The framing the container imposes on its values, if any.
    pub fn framing(&self) -> Option<Framing> {
        match self {
            Container::None => None,
            Container::DebuggerRecording => Some(Framing::PacketStream),
        }
    }

    /// Whether values in this container can be written back.
    pub fn writable(&self) -> bool {
        matches!(self, Container::None)
    }
}

/// The values' bytes of a file, and what was around them; `password` for a container that
/// needs one ([`EditorError::NeedsPassword`] without it).
pub fn unwrap(file: Vec<u8>, password: Option<&str>) -> Result<(Container, Vec<u8>), EditorError> {
    // No container takes a password yet: an encrypted one will, here.
    let _ = password;
    if file.starts_with(capture::MAGIC) {
        let records = capture::parse(&file).map_err(|e| EditorError::Refused(e.to_string()))?;
        let from_game = records
            .into_iter()
            .filter(|r| r.direction == Direction::FromGame)
            .flat_map(|r| r.bytes)
            .collect();
        return Ok((Container::DebuggerRecording, from_game));
    }
    Ok((Container::None, file))
}

/// The file's bytes for the values' bytes `payload`, in the container it came in.
pub fn wrap(container: &Container, payload: &[u8]) -> Result<Vec<u8>, EditorError> {
    match container {
        Container::None => Ok(payload.to_vec()),
        Container::DebuggerRecording => Err(read_only()),
    }
}

fn read_only() -> EditorError {
    EditorError::Refused("a debugger recording is read-only".into())
}
