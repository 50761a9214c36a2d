//! `gdvariant explain`: every field of the bytes at its offset.

use super::*;
use crate::cli::batch::Notes;
use crate::cli::{shown, DialectArg, Failure, FramingArgs, Out};
use clap::Args;
use gdvariant::explain::ExplainOptions;
use gdvariant::Version;
use std::path::PathBuf;

/// `gdvariant explain`.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// Engine family of the bytes
    #[arg(long, short, value_enum, default_value = "auto")]
    dialect: DialectArg,
    /// Engine version that wrote the bytes [default: the newest]
    #[arg(long, value_name = "V")]
    engine_version: Option<Version>,
    #[command(flatten)]
    framing: FramingArgs,
    /// Accept full objects (read as data)
    #[arg(long)]
    allow_objects: bool,
    /// Refuse what the engine of this dialect and version refuses, and give typed containers
    /// the engine's value (for bytes from strangers; see docs/engine-rules.md)
    #[arg(long)]
    engine_strict: bool,
    /// List every element of every array (default: the first 16 of each)
    #[arg(long)]
    all: bool,
    /// Input file; - for standard input
    file: PathBuf,
}

pub fn explain(a: ExplainArgs) -> Result<(), Failure> {
    let framing = a.framing.get()?;
    let max = if a.all { usize::MAX } else { 16 };
    let (header, bytes) = crate::cli::container::read_explained(&a.file, max)?;
    let mut out = Out::new();
    if let Some(header) = &header {
        out.line(&format!(
            "{}: container header (offsets in the file)",
            shown(&a.file)
        ))?;
        out.bytes(header.as_bytes())?;
        out.flush()?;
    }
    let bytes = bytes?;
    if let Some(done) = crate::cli::resource_io::explain(&a.file, &bytes, a.all) {
        return done;
    }
    let (d, v, f) = resolve(
        &a.file,
        a.dialect,
        a.engine_version,
        framing,
        Some((&bytes, bytes.len())),
        true,
        &mut Notes::stderr(),
    )?;
    let mut opts = ExplainOptions::new(d);
    opts.decode.version = Some(v);
    opts.decode.allow_objects = a.allow_objects;
    opts.decode.engine_strict = a.engine_strict;
    opts.framing = f;
    if a.all {
        opts.max_elements = usize::MAX;
    }
    let e = gdvariant::explain::explain(&bytes, &opts);
    let inside = if header.is_some() {
        " of plain data inside (offsets in the plain data)"
    } else {
        ""
    };
    out.line(&format!(
        "{}: {} bytes{inside}, {} {}, {}",
        shown(&a.file),
        bytes.len(),
        d,
        v,
        f
    ))?;
    out.bytes(e.to_string().as_bytes())?;
    out.flush()?;
    match &e.error {
        None => Ok(()),
        Some(err) => Err(Failure::data(format!("{}: {err}", shown(&a.file)))),
    }
}
