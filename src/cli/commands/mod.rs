//! The subcommands: decode, encode, explain, convert, guess, one file each, and what they share (reading the dialect, version and framing).

use crate::cli::batch::Notes;
use crate::cli::{shown, version_or_newest, DialectArg, Failure};
use gdvariant::framing::{FrameError, Framing};
use gdvariant::guess::Confidence;
use gdvariant::{Dialect, Version};
use std::path::Path;

mod convert;
mod decode;
mod encode;
mod explain;
mod guess;

pub use convert::{convert, ConvertArgs};
pub use decode::{decode, DecodeArgs};
pub use encode::{encode, EncodeArgs};
pub use explain::{explain, ExplainArgs};
pub use guess::{guess, GuessArgs};

/// A frame error, naming the file.
pub(super) fn frame_failure(path: &Path, e: FrameError) -> Failure {
    match e {
        FrameError::Io { source, .. } => Failure::io(path, source),
        e => Failure::data(format!("{}: {e}", shown(path))),
    }
}

/// Dialect, version and framing: as given, or guessed from `bytes` (the start of the input
/// and the input's size). With `partial`, bytes that no reading decodes to the end get the
/// reading that went furthest (explain shows where it stops) instead of an error.
pub(super) fn resolve(
    path: &Path,
    dialect: DialectArg,
    version: Option<Version>,
    framing: Option<Framing>,
    bytes: Option<(&[u8], usize)>,
    partial: bool,
    notes: &mut Notes,
) -> Result<(Dialect, Version, Framing), Failure> {
    match dialect.fixed() {
        Some(d) => Ok((
            d,
            version_or_newest(d, version)?,
            framing.unwrap_or_default(),
        )),
        None => {
            let (start, size) = bytes.expect("bytes are read when guessing");
            let g = gdvariant::guess::guess_start(start, size, framing);
            if g.confidence == Confidence::None && !partial {
                return Err(Failure::data(format!(
                    "{}: cannot tell the dialect (no reading uses every byte); pass --dialect\n{g}",
                    shown(path)
                )));
            }
            if let (Some(c), false) = (g.container, partial) {
                return Err(Failure::data(format!(
                    "{}: the values are inside {c}, not a stream of values (`gdvariant guess` names their dialect)\n{g}",
                    shown(path)
                )));
            }
            let b = &g.best;
            notes.add(format_args!(
                "gdvariant: {}: read as {}, {} ({}); pass --dialect to choose\n",
                shown(path),
                b.era,
                b.framing,
                g.confidence
            ));
            Ok((
                b.era.dialect,
                match version {
                    Some(_) => version_or_newest(b.era.dialect, version)?,
                    None => b.era.last,
                },
                framing.unwrap_or(b.framing),
            ))
        }
    }
}
