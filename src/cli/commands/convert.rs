//! `gdvariant convert`: values moved between dialects and versions, with a report of what the target cannot hold.

use super::*;
use crate::cli::batch::{self, Notes};
use crate::cli::{
    open, partial_path, shown, version_or_newest, Failure, FramingArgs, Out, TargetDialect,
};
use clap::Args;
use gdvariant::framing::{frame_into, FrameReader};
use gdvariant::migrate::{migrate_in_place, Report, Target};
use gdvariant::{DecodeOptions, EncodeOptions, Format, Version};
use std::io::Write;
use std::path::{Path, PathBuf};

/// `gdvariant convert`.
#[derive(Args, Debug)]
// `--from` names the dialect: the framing is not guessed either.
#[command(mut_arg("framing", |a| a.help("How values are framed [default: none]")))]
pub struct ConvertArgs {
    /// Dialect of the input
    #[arg(long, value_enum)]
    from: TargetDialect,
    /// Dialect to write
    #[arg(long, value_enum)]
    to: TargetDialect,
    /// Engine version of the input [default: the newest of --from]
    #[arg(long, value_name = "V")]
    from_version: Option<Version>,
    /// Engine version to write for [default: the newest of --to]
    #[arg(long, value_name = "V")]
    to_version: Option<Version>,
    #[command(flatten)]
    framing: FramingArgs,
    /// Convert what the target cannot represent to the nearest value it can (listed in the
    /// report) instead of refusing with exit code 3
    #[arg(long)]
    lossy: bool,
    /// Accept full objects (read as data)
    #[arg(long)]
    allow_objects: bool,
    /// Refuse what the engine of this dialect and version refuses, and give typed containers
    /// the engine's value (for bytes from strangers; see docs/engine-rules.md)
    #[arg(long)]
    engine_strict: bool,
    /// Write math types as a Godot 4 `precision=double` build does
    #[arg(long)]
    double_precision: bool,
    /// Write one output per input file into DIR (same name, each file's path below the
    /// directory given kept), files in parallel; then every path given is an input
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
    /// Input file (- for standard input), then the output file (- for standard output; not
    /// written when the conversion is refused). With --out-dir: input files or directories
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,
}

pub fn convert(a: ConvertArgs) -> Result<(), Failure> {
    let Some(dir) = &a.out_dir else {
        let [input, output] = a.paths.as_slice() else {
            return Err(Failure::usage(format!(
                "expected an input and an output file, got {} path(s); pass --out-dir DIR to convert several files",
                a.paths.len()
            )));
        };
        return convert_file(&a, input, output, &mut Notes::stderr());
    };
    let jobs = batch::plan(&a.paths, dir, Path::to_path_buf)?;
    batch::run(&jobs, "converted", |job, notes| {
        if let Some(parent) = job.output.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Failure::io(parent, e))?;
        }
        convert_file(&a, &job.input, &job.output, notes)
    })
}

/// Converts the values of `input` into `output` (`-`: standard output), with the report in
/// `notes`.
pub(super) fn convert_file(
    a: &ConvertArgs,
    input: &Path,
    output: &Path,
    notes: &mut Notes,
) -> Result<(), Failure> {
    if let Some(done) =
        crate::cli::resource_io::convert(input, output, a.from.into(), a.to.into(), a.lossy, notes)
    {
        return done;
    }
    let from = Target::new(
        a.from.into(),
        Some(version_or_newest(a.from.into(), a.from_version)?),
    );
    let to = Target::new(
        a.to.into(),
        Some(version_or_newest(a.to.into(), a.to_version)?),
    );
    let framing = a.framing.get()?.unwrap_or_default();
    let dopts = DecodeOptions {
        version: Some(from.version),
        allow_objects: a.allow_objects,
        engine_strict: a.engine_strict,
        keep_leading_bom: true,
        ..DecodeOptions::default()
    };
    let eopts = EncodeOptions {
        version: Some(to.version),
        full_objects: true,
        double_precision: a.double_precision,
        round_reals: a.lossy,
        ..EncodeOptions::default()
    };
    // The output is assembled first (in memory for stdout, in a side file otherwise) so that
    // a refused conversion leaves nothing behind.
    let to_stdout = output == Path::new("-");
    let partial = partial_path(output);
    let mut mem = Vec::new();
    let mut file = if to_stdout {
        None
    } else {
        let f = std::fs::File::create(&partial).map_err(|e| Failure::io(&partial, e))?;
        Some(std::io::BufWriter::new(f))
    };
    let cleanup = |file: Option<std::io::BufWriter<std::fs::File>>| {
        drop(file);
        let _ = std::fs::remove_file(&partial);
    };
    let mut report = Report::default();
    let mut buf = Vec::new();
    let mut n = 0usize;
    let in_format = Format {
        dialect: from.dialect,
        framing,
        decode: dopts,
        encode: EncodeOptions::default(),
    };
    let out_format = Format {
        dialect: to.dialect,
        framing,
        decode: DecodeOptions::default(),
        encode: eopts,
    };
    let mut reader = open(input)?;
    let head = std::io::BufRead::fill_buf(&mut reader).map_err(|e| Failure::io(input, e))?;
    if crate::cli::config::looks_like(head) {
        // ConfigFile text: rewritten whole, then no frames to read.
        let (text, r, count) = crate::cli::config::convert(input, &mut reader, from, to)?;
        (report, n, reader) = (r, count, Box::new(std::io::empty()));
        match &mut file {
            Some(w) => w.write_all(&text).map_err(|e| Failure::io(&partial, e))?,
            None => mem = text,
        }
    }
    for frame in FrameReader::new(reader, &in_format).with_offsets() {
        let mut frame = match frame {
            Ok(f) => f,
            Err(e) => {
                cleanup(file);
                return Err(frame_failure(input, e));
            }
        };
        n += 1;
        let mut r = migrate_in_place(&mut frame.value, from, to);
        let value = frame.value;
        for l in &mut r.losses {
            l.path = format!("#{n}{}", l.path.trim_start_matches("value"));
        }
        report.merge(r);
        buf.clear();
        if let Err(e) = frame_into(&mut buf, &value, &out_format) {
            cleanup(file);
            return Err(Failure::data(format!(
                "{}: value {n} at offset {:#x}: {e}",
                shown(input),
                frame.offset
            )));
        }
        match &mut file {
            Some(w) => {
                if let Err(e) = w.write_all(&buf) {
                    cleanup(file);
                    return Err(Failure::io(&partial, e));
                }
            }
            None => mem.extend_from_slice(&buf),
        }
    }
    let summary = |notes: &mut Notes| {
        notes.add(format_args!(
            "gdvariant: converted {n} value(s) from {from} to {to} ({framing})\n{report}"
        ))
    };
    // A batch prints a file's notes only if it fails: the report is written out for those
    // (formatting it for every file was a tenth of converting a directory of saves).
    if !notes.is_kept() {
        summary(notes);
    }
    let finished = (|| {
        if !report.is_exact() && !a.lossy {
            cleanup(file);
            return Err(Failure::lossy(format!(
                "{} value(s) cannot be represented in {to}; nothing written (pass --lossy to convert them to the nearest values listed above)",
                report.losses.len()
            )));
        }
        match file {
            Some(mut w) => {
                w.flush().map_err(|e| Failure::io(&partial, e))?;
                drop(w);
                crate::cli::container::seal_file(&partial, to.dialect)?;
                std::fs::rename(&partial, output).map_err(|e| Failure::io(output, e))?;
            }
            None => {
                let mut out = Out::new();
                out.bytes(&crate::cli::container::seal(
                    std::mem::take(&mut mem),
                    to.dialect,
                )?)?;
                out.flush()?;
            }
        }
        Ok(())
    })();
    if finished.is_err() && notes.is_kept() {
        summary(notes);
    }
    finished
}
