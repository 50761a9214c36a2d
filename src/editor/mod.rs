//! The save editor behind `gdvariant edit`: a local HTTP server whose page shows the files
//! named on the command line as a tree of values beside their bytes, and edits them.
//!
//! The server holds no format knowledge of its own: `guess` names the reading, the decoder
//! (with `explain::decode_with_spans`) gives values and where they lie, `explain` describes
//! the byte under the pointer, the JSON and text forms carry values to and from the page, and
//! the encoder writes (or refuses) each edit. The page's files are in `assets/`, built into
//! the binary. The HTTP API is described in docs/editor.md.
//!
//! Safety on a shared machine: the server listens on loopback only, every request must carry
//! the session's random token, files are named by their index on the command line (never by
//! a path from the page), request bodies are bounded, and each request's work is bounded.

mod api;
mod container;
mod diff;
mod document;
mod files;
mod search;
mod tree;

pub use container::Container;
pub use document::{Document, Reading};
pub use files::FileModel;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Why the editor could not do what was asked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EditorError {
    /// A file could not be read or written.
    #[error("{}: {}", .0.display(), .1)]
    Io(PathBuf, std::io::Error),
    /// No file, frame or child at that index or path.
    #[error("no such node")]
    NoSuchNode,
    /// The value cannot be read or written as asked (the decoder's or encoder's message).
    #[error("{0}")]
    Refused(String),
    /// The file's container needs a password to open (an encrypted save).
    #[error("a password is needed to open this file")]
    NeedsPassword,
}

/// An editing session: the files named on the command line and the session's token.
pub struct Editor {
    files: Vec<Mutex<Document>>,
    token: String,
}

impl Editor {
    /// Opens `paths` (each read whole and its reading guessed) with a fresh random token.
    pub fn open(paths: &[PathBuf]) -> Result<Editor, EditorError> {
        let files = paths
            .iter()
            .map(|p| Document::open(p).map(Mutex::new))
            .collect::<Result<_, _>>()?;
        let mut raw = [0u8; 24];
        getrandom::fill(&mut raw).map_err(|e| {
            EditorError::Io(
                PathBuf::from("(random)"),
                std::io::Error::other(e.to_string()),
            )
        })?;
        let token = raw.iter().map(|b| format!("{b:02x}")).collect();
        Ok(Editor { files, token })
    }

    /// The session's token: every request must carry it (`?token=` or `X-Gdvariant-Token`).
    pub fn token(&self) -> &str {
        &self.token
    }

    /// Serves the page and its API on `listener` (bind it to a loopback address) until the
    /// process ends.
    pub async fn serve(self: Arc<Self>, listener: tokio::net::TcpListener) -> std::io::Result<()> {
        axum::serve(listener, api::router(self)).await
    }
}
