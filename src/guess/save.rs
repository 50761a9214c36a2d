//! Save files inside a byte container (encrypted `GDEC`, compressed `GCPF`): which container,
//! which generation where the header tells, and what is inside when it can be opened.
//!
//! An encrypted file's header tells Godot 3 from Godot 4 (a mode field and no IV, or an IV);
//! a compressed file's header is the same in both, so only the values inside tell them apart.

use super::{guess, Confidence, Guess};
use crate::container::{compressed, encrypted, sniff, ContainerError, ContainerKind, OpenOptions};
use crate::framing::Framing;
use std::fmt;

/// What a save file's container is and, when it could be opened, what its plain data is.
#[derive(Clone, Debug)]
pub struct SaveGuess {
    /// The container, from its magic.
    pub kind: ContainerKind,
    /// "Godot 3 encrypted file", "compressed file, Zstd": what the header alone says.
    pub header: String,
    /// The file's size.
    pub size: usize,
    /// The guess of the plain data, when it could be opened.
    pub inner: Option<Guess>,
    /// Why it could not be opened (no key, a wrong key, damage).
    pub error: Option<ContainerError>,
}

/// Guesses a save file in a container, or `None` when the bytes are not one. An encrypted
/// file is opened only with `options.key`; without it the answer says a password is needed.
pub fn guess_save(bytes: &[u8], options: &OpenOptions) -> Option<SaveGuess> {
    let kind = sniff(bytes)?;
    let (header, plain) = match kind {
        ContainerKind::Encrypted => {
            let header = match encrypted::header(bytes) {
                Ok(h) => format!("{} encrypted file", h.layout.name()),
                Err(_) => "encrypted file".to_string(),
            };
            let plain = match &options.key {
                Some(key) => encrypted::read(bytes, key),
                None => Err(ContainerError::NeedKey),
            };
            (header, plain)
        }
        ContainerKind::Compressed => {
            let header = match compressed::header(bytes, u64::MAX) {
                Ok(h) => format!("compressed file, {}", h.mode),
                Err(_) => "compressed file".to_string(),
            };
            (header, compressed::read(bytes, options.bound))
        }
    };
    let (inner, error) = match plain {
        Ok(plain) => (Some(guess(&plain, None)), None),
        Err(e) => (None, Some(e)),
    };
    Some(SaveGuess {
        kind,
        header,
        size: bytes.len(),
        inner,
        error,
    })
}

/// `1,208`: thousands separated, as the summary line shows sizes.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl SaveGuess {
    /// The one-line summary: "Godot 4 encrypted file (password needed), 1,208 bytes",
    /// "Godot 3 compressed file, Zstd, 3 store_var values".
    pub fn summary(&self) -> String {
        let inner = self
            .inner
            .as_ref()
            .filter(|g| g.confidence != Confidence::None);
        let mut line = self.header.clone();
        // A compressed header names no generation: the values inside do.
        if let (ContainerKind::Compressed, Some(g)) = (self.kind, inner) {
            line = format!("{} {line}", g.best.era.dialect);
        }
        match (&self.error, inner) {
            (Some(ContainerError::NeedKey), _) => line.push_str(" (password needed)"),
            (Some(e), _) => line.push_str(&format!(" ({e})")),
            (None, Some(g)) => {
                let framing = match g.best.framing {
                    Framing::Bare => "bare",
                    _ => "store_var",
                };
                line.push_str(&format!(", {} {framing} values", g.best.values));
            }
            (None, None) => line.push_str(" (no values read inside)"),
        }
        format!("{line}, {} bytes", grouped(self.size))
    }
}

impl fmt::Display for SaveGuess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.summary())?;
        if let Some(g) = &self.inner {
            write!(f, "inside: {g}")?;
        }
        Ok(())
    }
}
