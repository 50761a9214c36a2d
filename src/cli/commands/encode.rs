//! `gdvariant encode`: JSON or text values to engine bytes, framed as asked.

use crate::cli::batch::{self};
use crate::cli::{
    open, read_all, shown, text, version_or_newest, Failure, FramingArgs, Out, TargetDialect,
};
use clap::{Args, ValueEnum};
use gdvariant::{json, DecodeOptions, Dialect, EncodeOptions, Format, Version};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What `encode` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InFormat {
    /// The JSON form `decode --format json` prints (JSON Lines or concatenated documents).
    Json,
    /// The engine's text form (`var_to_str`).
    Text,
}

/// `gdvariant encode`.
#[derive(Args, Debug)]
// Writing has no bytes to guess from: the shared help's "guessed with --dialect auto" is false
// here (and `encode` takes no `auto`).
#[command(mut_arg("framing", |a| a.help("How values are framed [default: none]")))]
pub struct EncodeArgs {
    /// Engine family to write for
    #[arg(long, short, value_enum)]
    dialect: TargetDialect,
    /// Engine version that will read the bytes [default: the newest]
    #[arg(long, value_name = "V")]
    engine_version: Option<Version>,
    #[command(flatten)]
    framing: FramingArgs,
    /// Input format
    #[arg(long, value_enum, default_value = "json")]
    from: InFormat,
    /// Write math types as a Godot 4 `precision=double` build does (doubles, FLAG_64)
    #[arg(long)]
    double_precision: bool,
    /// Round reals that need double precision to f32 instead of failing
    #[arg(long)]
    round_reals: bool,
    /// Output file [default: standard output]
    #[arg(long, short, conflicts_with = "out_dir")]
    output: Option<PathBuf>,
    /// Write one output per input file into DIR (`NAME.json`/`NAME.txt` becomes `NAME`, any
    /// other name gets `.bin`; each file's path below the directory given kept), files in
    /// parallel; needed for several inputs
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
    /// Input files or directories; - for standard input
    #[arg(default_value = "-", value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// Where encoded bytes go: a file (created only once there is something to write) or stdout.
pub(super) enum Sink {
    File(PathBuf, std::io::BufWriter<std::fs::File>),
    Stdout(Out),
}

impl Sink {
    fn new(path: Option<&Path>) -> Result<Sink, Failure> {
        match path {
            Some(p) if p != Path::new("-") => {
                let f = std::fs::File::create(p).map_err(|e| Failure::io(p, e))?;
                Ok(Sink::File(p.to_path_buf(), std::io::BufWriter::new(f)))
            }
            _ => Ok(Sink::Stdout(Out::new())),
        }
    }
    fn write(&mut self, b: &[u8]) -> Result<(), Failure> {
        match self {
            Sink::File(p, w) => w.write_all(b).map_err(|e| Failure::io(p, e)),
            Sink::Stdout(o) => o.bytes(b),
        }
    }
    fn finish(self) -> Result<(), Failure> {
        match self {
            Sink::File(p, mut w) => w.flush().map_err(|e| Failure::io(&p, e)),
            Sink::Stdout(mut o) => o.flush(),
        }
    }
}

pub fn encode(a: EncodeArgs) -> Result<(), Failure> {
    let dialect: Dialect = a.dialect.into();
    let json = a.from == InFormat::Json;
    if let Some(done) = crate::cli::resource_io::encode(&a.files, a.output.as_deref(), json) {
        return done;
    }
    let framing = a.framing.get()?.unwrap_or_default();
    let eopts = EncodeOptions {
        version: Some(version_or_newest(dialect, a.engine_version)?),
        double_precision: a.double_precision,
        // The input says which objects are full; write them as given.
        full_objects: true,
        round_reals: a.round_reals,
        ..EncodeOptions::default()
    };
    let out_format = Format {
        dialect,
        framing,
        decode: DecodeOptions::default(),
        encode: eopts,
    };
    let Some(dir) = &a.out_dir else {
        let file = batch::single(&a.files)?;
        let mut sink = Sink::new(a.output.as_deref())?;
        // One file: its JSON is read on every core (a reader thread, lines split between
        // threads); several files are already spread over the cores one per thread.
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        encode_file(a.from, &out_format, file, threads, &mut |b| sink.write(b))?;
        return sink.finish();
    };
    // `decode --out-dir` wrote `save.sav.json`: this gives `save.sav` back.
    let from_ext = match a.from {
        InFormat::Json => "json",
        InFormat::Text => "txt",
    };
    let jobs = batch::plan(&a.files, dir, |name| match name.extension() {
        Some(e) if e.eq_ignore_ascii_case(from_ext) => name.with_extension(""),
        _ => batch::add_extension(name, "bin"),
    })?;
    batch::run(&jobs, "encoded", |job, _notes| {
        batch::staged(&job.output, |w, partial| {
            encode_file(a.from, &out_format, &job.input, 1, &mut |b| {
                w.write_all(b).map_err(|e| Failure::io(partial, e))
            })
        })
    })
}

/// The output of [`encode_file`] as a writer, keeping the failure `put` reported (which
/// knows the output's name and a closed pipe) for the error that stopped the writing.
pub(super) struct Put<'a> {
    put: &'a mut dyn FnMut(&[u8]) -> Result<(), Failure>,
    failed: Option<Failure>,
}

impl Write for Put<'_> {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        match (self.put)(b) {
            Ok(()) => Ok(b.len()),
            Err(f) => {
                self.failed = Some(f);
                Err(std::io::Error::other("the output failed"))
            }
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Encodes every value of `file` (JSON or text) and hands each frame's bytes to `put`;
/// JSON is read on up to `threads` threads.
pub(super) fn encode_file(
    from: InFormat,
    out_format: &Format,
    file: &Path,
    threads: usize,
    put: &mut dyn FnMut(&[u8]) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let refused = |n: usize, e: gdvariant::EncodeError| {
        Failure::data(format!("{}: value {n}: {e}", shown(file)))
    };
    match from {
        InFormat::Json => {
            // Each value is encoded (and freed) on the thread that read it; only the frames
            // of a megabyte of JSON come back here at a time, in order.
            let mut input = open(file)?;
            if let Some(text) = crate::cli::config::encode_json(file, &mut input, out_format)? {
                return put(&text);
            }
            let mut sink = Put { put, failed: None };
            match json::encode_values_to(input, threads, out_format, &mut sink) {
                Ok(_) => {}
                Err(json::EncodeToError::Json(e)) => {
                    return Err(Failure::data(format!("{}: {e}", shown(file))))
                }
                Err(json::EncodeToError::Encode { value, error }) => {
                    return Err(refused(value, error))
                }
                Err(e) => {
                    return Err(sink
                        .failed
                        .take()
                        .unwrap_or_else(|| Failure::data(format!("{}: {e}", shown(file)))))
                }
            }
        }
        InFormat::Text => {
            let bytes = read_all(file)?;
            let s = String::from_utf8(bytes).map_err(|e| {
                Failure::data(format!(
                    "{}: not UTF-8 text (at offset {:#x})",
                    shown(file),
                    e.utf8_error().valid_up_to()
                ))
            })?;
            // Each value is encoded as it is parsed (a big top-level container element by
            // element), so the peak is the text and the bytes, not the values as well.
            let mut bytes = Vec::new();
            let encoded = text::encode_text(&s, out_format, &mut bytes)?;
            drop(s);
            put(&bytes)?;
            if let Err((i, e)) = encoded {
                return Err(refused(i + 1, e));
            }
        }
    }
    Ok(())
}
