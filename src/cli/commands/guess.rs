//! `gdvariant guess`: which engine, version and framing wrote these bytes, and why.

use crate::cli::{open, shown, Failure, FramingArgs, Out};
use clap::Args;
use gdvariant::guess::Confidence;
use std::path::PathBuf;

/// `gdvariant guess`.
#[derive(Args, Debug)]
// `guess` has no `--dialect`: it guesses the framing unless told.
#[command(mut_arg("framing", |a| a.help("How values are framed [default: guessed]")))]
pub struct GuessArgs {
    #[command(flatten)]
    framing: FramingArgs,
    /// Input file; - for standard input
    file: PathBuf,
}

pub fn guess(a: GuessArgs) -> Result<(), Failure> {
    let framing = a.framing.get()?;
    // Only the start is examined (guess::SAMPLE); read no more than that, plus one byte to
    // know whether there is more.
    let mut bytes = Vec::new();
    let mut r = open(&a.file)?;
    std::io::Read::read_to_end(
        &mut std::io::Read::take(&mut r, gdvariant::guess::SAMPLE as u64),
        &mut bytes,
    )
    .map_err(|e| Failure::io(&a.file, e))?;
    let mut rest = 0u64;
    if bytes.len() == gdvariant::guess::SAMPLE {
        rest = std::io::copy(&mut r, &mut std::io::sink()).map_err(|e| Failure::io(&a.file, e))?;
    }
    if bytes.is_empty() {
        return Err(Failure::data(format!("{}: empty input", shown(&a.file))));
    }
    if let Some(what) = gdvariant::resource::ResourceFile::describe(&bytes) {
        return Out::new().line(&format!("{}: {what}", shown(&a.file)));
    }
    if let Some(what) = crate::cli::config::describe(&bytes, rest > 0) {
        return Out::new().line(&format!("{}: {what}", shown(&a.file)));
    }
    let g = gdvariant::guess::guess_start(&bytes, bytes.len() + rest as usize, framing);
    let mut out = Out::new();
    out.line(&format!(
        "{}: {} bytes",
        shown(&a.file),
        bytes.len() as u64 + rest
    ))?;
    out.bytes(g.to_string().as_bytes())?;
    out.flush()?;
    if g.confidence == Confidence::None {
        return Err(Failure::quiet(crate::cli::EXIT_DATA));
    }
    Ok(())
}
