//! The step between a file's bytes and the values' bytes: where a file format around the
//! values (encrypted, compressed) is taken off when opening and put back when saving.
//!
//! Every file the editor opens today holds its values directly, so both directions are the
//! identity. A format that needs a password reports [`EditorError::NeedsPassword`]; the page
//! then asks for one and opens the file again with it (see docs/editor.md, "Containers").

use super::EditorError;

/// What was around the values in the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Container {
    /// Nothing: the file is the values' bytes.
    #[default]
    None,
}

impl Container {
    /// A short name for the page (`"none"`).
    pub fn name(&self) -> &'static str {
        match self {
            Container::None => "none",
        }
    }
}

/// The values' bytes of a file, and what was around them.
pub fn unwrap(file: Vec<u8>) -> Result<(Container, Vec<u8>), EditorError> {
    Ok((Container::None, file))
}

/// The file's bytes for the values' bytes `payload`, in the container it came in.
pub fn wrap(container: &Container, payload: &[u8]) -> Result<Vec<u8>, EditorError> {
    match container {
        Container::None => Ok(payload.to_vec()),
    }
}
