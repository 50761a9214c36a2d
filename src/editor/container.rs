//! The step between a file's bytes and the values' bytes: where a file format around the
//! values (encrypted, compressed) is taken off when opening and put back when saving.
//!
//! A bare save holds its values directly, so both directions are the identity; an encrypted
//! or compressed save is opened and written back in the same container. A debugger
//! recording (`gdvariant debug listen --record`) holds the game's side of a session: its
//! packets are read as frames, in order, and cannot be written back. A format that needs a
//! password reports [`EditorError::NeedsPassword`]; the page then asks for one and opens the
//! file again with it (see docs/editor.md, "Containers"). A resource file or ConfigFile is
//! opened as its model and written back in its own format (`files.rs`).

use super::EditorError;
use crate::container::{compressed, encrypted, sniff, ContainerKind, EncryptedLayout, Key};
use crate::debugger::capture::{self, Direction};
use crate::framing::Framing;

/// What was around the values in the file.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub enum Container {
    /// Nothing: the file is the values' bytes.
    #[default]
    None,
    /// An encrypted file (`open_encrypted_with_pass`), written back with the same password
    /// and layout (a Godot 4 file gets a new random IV, as the engine gives every save).
    Encrypted {
        /// Godot 3's or Godot 4's layout.
        layout: EncryptedLayout,
        /// The key the file opened with.
        key: Key,
    },
    /// A compressed file (`open_compressed`), written back in the same mode and block size.
    Compressed {
        /// The compression mode.
        mode: compressed::Mode,
        /// The plain block size.
        block_size: u32,
    },
    /// A debugger recording: the values are the messages the game sent, each framed as the
    /// debugger protocol frames them (`PacketPeerStream`).
    DebuggerRecording,
    /// A resource file or ConfigFile text, edited as one value, its model (`files.rs`), and
    /// written back in its own format.
    Model(super::files::FileModel),
}

impl Container {
    /// A short name for the page (`"none"`).
    pub fn name(&self) -> &'static str {
        match self {
            Container::None => "none",
            Container::Encrypted {
                layout: EncryptedLayout::Godot3,
                ..
            } => "Godot 3 encrypted file",
            Container::Encrypted { .. } => "Godot 4 encrypted file",
            Container::Compressed { .. } => "compressed file",
            Container::DebuggerRecording => "debugger recording (read-only)",
            Container::Model(super::files::FileModel::Resource) => "resource file (as its model)",
            Container::Model(_) => "ConfigFile (as its model)",
        }
    }

    /// The framing the container imposes on its values, if any.
    pub fn framing(&self) -> Option<Framing> {
        match self {
            Container::None | Container::Encrypted { .. } | Container::Compressed { .. } => None,
            Container::DebuggerRecording => Some(Framing::PacketStream),
            Container::Model(_) => Some(Framing::Bare),
        }
    }

    /// The dialect the container's values are in, when it decides it (a model's bytes are
    /// Godot 4's).
    pub fn dialect(&self) -> Option<crate::Dialect> {
        match self {
            Container::Model(_) => Some(super::files::MODEL_DIALECT),
            _ => None,
        }
    }

    /// Whether values in this container can be written back.
    pub fn writable(&self) -> bool {
        !matches!(self, Container::DebuggerRecording)
    }
}

/// The values' bytes of a file, and what was around them; `password` for a container that
/// needs one ([`EditorError::NeedsPassword`] without it).
pub fn unwrap(file: Vec<u8>, password: Option<&str>) -> Result<(Container, Vec<u8>), EditorError> {
    match sniff(&file) {
        Some(ContainerKind::Encrypted) => {
            let key = Key::password(password.ok_or(EditorError::NeedsPassword)?);
            let (header, plain) = encrypted::read_with_header(&file, &key).map_err(refused)?;
            return Ok((
                Container::Encrypted {
                    layout: header.layout,
                    key,
                },
                plain,
            ));
        }
        Some(ContainerKind::Compressed) => {
            let header = compressed::header(&file, compressed::DEFAULT_BOUND).map_err(refused)?;
            let plain = compressed::read(&file, compressed::DEFAULT_BOUND).map_err(refused)?;
            let container = Container::Compressed {
                mode: header.mode,
                block_size: header.block_size,
            };
            return Ok((container, plain));
        }
        _ => {}
    }
    if let Some((model, bytes)) = super::files::unwrap(&file)? {
        return Ok((Container::Model(model), bytes));
    }
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
        Container::Encrypted { layout, key } => {
            encrypted::write(payload, key, *layout, None).map_err(refused)
        }
        Container::Compressed { mode, block_size } => {
            compressed::write_with_block_size(payload, *mode, *block_size).map_err(refused)
        }
        Container::DebuggerRecording => Err(read_only()),
        Container::Model(model) => super::files::wrap(model, payload),
    }
}

fn refused(e: crate::container::ContainerError) -> EditorError {
    EditorError::Refused(e.to_string())
}

fn read_only() -> EditorError {
    EditorError::Refused("a debugger recording is read-only".into())
}
