//! `gdvariant decode`: every value of a file printed as text or JSON, framed files streamed and printed on several threads.

use super::*;
use crate::cli::batch::{self, Notes};
use crate::cli::ordered;
use crate::cli::{open, shown, text, DialectArg, Failure, FramingArgs, Out};
use clap::{Args, ValueEnum};
use gdvariant::framing::{decode_frame, Frame, FrameError, FrameReader, Framing};
use gdvariant::{json, DecodeOptions, Dialect, EncodeOptions, Format, Version};
use std::io::Write;
use std::path::{Path, PathBuf};

/// How `decode` prints values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutFormat {
    /// The engine's text form (`var_to_str`), one value per line.
    Text,
    /// The lossless type-tagged JSON form, one value per line (JSON Lines), for jq.
    Json,
}

/// `gdvariant decode`.
#[derive(Args, Debug)]
pub struct DecodeArgs {
    /// Engine family of the bytes
    #[arg(long, short, value_enum, default_value = "auto")]
    dialect: DialectArg,
    /// Engine version that wrote the bytes, e.g. 4.3 or 3.2.3 [default: the newest]
    #[arg(long, value_name = "V")]
    engine_version: Option<Version>,
    #[command(flatten)]
    framing: FramingArgs,
    /// Output format
    #[arg(long, short, value_enum, default_value = "text")]
    format: OutFormat,
    /// Accept full objects (var_to_bytes_with_objects); they are read as data, no code runs
    #[arg(long)]
    allow_objects: bool,
    /// Refuse what the engine of this dialect and version refuses, and give typed containers
    /// the engine's value (for bytes from strangers; see docs/engine-rules.md)
    #[arg(long)]
    engine_strict: bool,
    /// Decode only the first value and ignore the bytes after it, as bytes_to_var does
    #[arg(long)]
    first: bool,
    /// Write one output per input file into DIR (`NAME.json` or `NAME.txt`, each file's path
    /// below the directory given kept), files in parallel; needed for several inputs
    #[arg(long, short, value_name = "DIR")]
    out_dir: Option<PathBuf>,
    /// Input files or directories; - for standard input
    #[arg(default_value = "-", value_name = "FILE")]
    files: Vec<PathBuf>,
}

pub fn decode(a: DecodeArgs) -> Result<(), Failure> {
    let framing = a.framing.get()?;
    let Some(dir) = &a.out_dir else {
        let file = batch::single(&a.files)?;
        let mut out = Out::new();
        // One file: its frames are printed on every core. Many files are spread over the
        // cores already, a file per thread.
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let r = decode_file(&a, framing, file, threads, &mut out.w, &mut Notes::stderr());
        // What was printed before an error stays printed (and a closed pipe is a quiet stop).
        let flushed = out.flush();
        return r.map_err(|e| e.or_stdout()).and(flushed);
    };
    let ext = match a.format {
        OutFormat::Json => "json",
        OutFormat::Text => "txt",
    };
    let jobs = batch::plan(&a.files, dir, |name| batch::add_extension(name, ext))?;
    batch::run(&jobs, "decoded", |job, notes| {
        batch::staged(&job.output, |w, partial| {
            decode_file(&a, framing, &job.input, 1, w, notes).map_err(|e| e.or_file(partial))
        })
    })
}

/// Why decoding one file stopped: its own failure, or the output refusing bytes (named by
/// the caller, which knows where the output goes).
pub(super) enum DecodeStop {
    Failed(Failure),
    Output(std::io::Error),
}

impl From<Failure> for DecodeStop {
    fn from(f: Failure) -> DecodeStop {
        DecodeStop::Failed(f)
    }
}

impl DecodeStop {
    fn or_stdout(self) -> Failure {
        match self {
            DecodeStop::Failed(f) => f,
            DecodeStop::Output(e) => crate::cli::out_err(e),
        }
    }
    fn or_file(self, path: &Path) -> Failure {
        match self {
            DecodeStop::Failed(f) => f,
            DecodeStop::Output(e) => Failure::io(path, e),
        }
    }
}

/// Bytes of values printed before they are handed to the output in one write.
pub(super) const PRINT_BATCH: usize = 1 << 16;

/// Prints every value of `file` to `out`, on up to `threads` threads.
pub(super) fn decode_file(
    a: &DecodeArgs,
    framing: Option<Framing>,
    file: &Path,
    threads: usize,
    out: &mut dyn Write,
    notes: &mut Notes,
) -> Result<(), DecodeStop> {
    // Guessing reads the start of the input (guess::SAMPLE); decoding then streams from the
    // first byte again, the start chained before the rest.
    let mut input = open(file)?;
    let head = std::io::BufRead::fill_buf(&mut input).map_err(|e| Failure::io(file, e))?;
    if crate::cli::config::looks_like(head) {
        let json = a.format == OutFormat::Json;
        return crate::cli::config::decode(file, &mut input, a.dialect.fixed(), json, out)?
            .map_err(DecodeStop::Output);
    }
    let mut start = Vec::new();
    // The start also tells, when bare values fail, whether a length prefix was forgotten.
    std::io::Read::read_to_end(
        &mut std::io::Read::take(&mut input, gdvariant::guess::SAMPLE as u64),
        &mut start,
    )
    .map_err(|e| Failure::io(file, e))?;
    if crate::cli::resource_io::is_resource(&start) {
        std::io::Read::read_to_end(&mut input, &mut start).map_err(|e| Failure::io(file, e))?;
        let printed = crate::cli::resource_io::decode(file, &start, a.format == OutFormat::Json)?;
        return out.write_all(&printed).map_err(DecodeStop::Output);
    }
    let resolved = if a.dialect == DialectArg::Auto {
        if start.is_empty() {
            return Err(no_value(file).into());
        }
        // A full sample means more may follow: a file says how much (a length prefix is
        // judged against it), a stream does not.
        let more = start.len() == gdvariant::guess::SAMPLE;
        let size = match std::fs::metadata(file) {
            Ok(m) if more && m.is_file() => usize::try_from(m.len()).unwrap_or(usize::MAX),
            _ => start.len() + usize::from(more),
        };
        resolve(
            file,
            a.dialect,
            a.engine_version,
            framing,
            Some((&start, size)),
            true,
            notes,
        )?
    } else {
        resolve(
            file,
            a.dialect,
            a.engine_version,
            framing,
            None,
            false,
            notes,
        )?
    };
    let (d, v, f) = resolved;
    let format = Format {
        dialect: d,
        framing: f,
        decode: DecodeOptions {
            version: Some(v),
            allow_objects: a.allow_objects,
            engine_strict: a.engine_strict,
            // The JSON form keeps every byte; the text form shows what the engine sees.
            keep_leading_bom: a.format == OutFormat::Json,
            ..DecodeOptions::default()
        },
        encode: EncodeOptions::default(),
    };
    let failed = |e: FrameError| -> DecodeStop {
        let hint = match &e {
            FrameError::Decode(de) if f == Framing::Bare && de.offset() < 8 => {
                gdvariant::framing::likely_framing(&start, &format).map(|fr| {
                    format!(
                        "\nhint: these bytes look like values with a length before each ({fr}): use --framing {}",
                        fr.name()
                    )
                })
            }
            _ => None,
        };
        DecodeStop::Failed(match hint {
            Some(hint) => Failure::data(format!("{}: {e}{hint}", shown(file))),
            None => frame_failure(file, e),
        })
    };
    let chained = std::io::Read::chain(start.as_slice(), input);
    let mut reader = FrameReader::new(chained, &format);
    let mut seen = 0usize;
    let mut stop = None;
    if f == Framing::Bare || a.first {
        // Bare values' ends are found by decoding them: one after the other, here.
        let mut buf = Vec::with_capacity(PRINT_BATCH + (PRINT_BATCH >> 2));
        while let Some(frame) = reader.next_frame_or(|payload| {
            a.format == OutFormat::Json && print_json_of_bytes(&mut buf, payload, &format)
        }) {
            match frame {
                Ok(frame) => {
                    if let Some(frame) = frame {
                        print(a.format, &frame, d, &mut buf);
                    }
                    buf.push(b'\n');
                    seen += 1;
                }
                Err(e) => {
                    stop = Some(e);
                    break;
                }
            }
            if buf.len() >= PRINT_BATCH {
                out.write_all(&buf).map_err(DecodeStop::Output)?;
                buf.clear();
            }
            if a.first {
                break;
            }
        }
        out.write_all(&buf).map_err(DecodeStop::Output)?;
    } else {
        // Frames are read here, their payloads a batch at a time, and printed on `threads`
        // threads; the text comes back here in order. No value crosses threads (each is
        // made and freed where it is printed), only bytes: on the benchmarks' savegame, two
        // threads print it in about half the time of one.
        let (mut framing_error, mut ended) = (None, false);
        let mut output_error = None;
        // Every buffer in use at once: the batches queued, in work and waiting, of both kinds.
        let spare = ordered::Spare::new(8 * threads);
        ordered::run(
            threads,
            || {
                let mut batch = Payloads {
                    bytes: spare.take(),
                    frames: Vec::new(),
                };
                while !ended && batch.bytes.len() < PAYLOAD_BATCH {
                    let at = reader.offset();
                    match reader.next_frame_or(|payload| {
                        batch.bytes.extend_from_slice(payload);
                        batch.frames.push((at, batch.bytes.len()));
                        true
                    }) {
                        Some(Ok(_)) => {}
                        Some(Err(e)) => framing_error = Some(e),
                        None => ended = true,
                    }
                    ended |= framing_error.is_some();
                }
                (!batch.frames.is_empty()).then_some(batch)
            },
            |batch| batch.print(a.format, &format, &spare),
            |(text, n, error)| {
                let written = out.write_all(&text);
                spare.give(text);
                if let Err(e) = written {
                    output_error = Some(e);
                    return false;
                }
                seen += n;
                stop = error;
                stop.is_none()
            },
        );
        if let Some(e) = output_error {
            return Err(DecodeStop::Output(e));
        }
        // A frame the input cut short comes after every frame read before it.
        stop = stop.or(framing_error);
    }
    if let Some(e) = stop {
        return Err(failed(e));
    }
    // Bare bytes are one value or more (`bytes_to_var` of nothing is an error); a framed
    // file may hold zero frames.
    if seen == 0 && f == Framing::Bare {
        return Err(no_value(file).into());
    }
    Ok(())
}

/// Bytes of payloads read before they are printed as one batch on a thread of their own.
pub(super) const PAYLOAD_BATCH: usize = 1 << 17;

/// Prints a decoded frame's value (the line's end is the caller's).
pub(super) fn print(format: OutFormat, frame: &Frame, d: Dialect, buf: &mut Vec<u8>) {
    match format {
        OutFormat::Json => json::append_json(buf, &frame.value),
        OutFormat::Text => buf.extend_from_slice(text::to_text(&frame.value, d).as_bytes()),
    }
}

/// Writes a payload's JSON straight from its bytes, where the decoder's scan vouches for them
/// (no value built and freed: on the benchmarks' savegame 40.9 M -> 31.8 M instructions per
/// MB); `false`, with nothing written, for any other payload, which is then decoded and
/// printed, errors included (tests/json_of_bytes.rs holds the two ways together).
pub(super) fn print_json_of_bytes(buf: &mut Vec<u8>, payload: &[u8], format: &Format) -> bool {
    json::append_json_of_bytes(buf, payload, format.dialect, &format.decode).is_some()
}

/// Payloads of prefixed frames read in a row, printed together.
pub(super) struct Payloads {
    bytes: Vec<u8>,
    /// Each frame's offset in the input and the end of its payload in `bytes`.
    frames: Vec<(usize, usize)>,
}

impl Payloads {
    /// The lines of the frames, how many were printed, and the error of the first frame that
    /// does not decode (the lines before it are kept). Both buffers come from `spare`, and
    /// the payloads' goes back to it.
    fn print(
        self,
        to: OutFormat,
        format: &Format,
        spare: &ordered::Spare,
    ) -> (Vec<u8>, usize, Option<FrameError>) {
        let mut buf = spare.take();
        // JSON takes about three times a savegame's bytes.
        buf.reserve(self.bytes.len() * 3);
        let r = self.print_into(&mut buf, to, format);
        spare.give(self.bytes);
        (buf, r.0, r.1)
    }

    fn print_into(
        &self,
        buf: &mut Vec<u8>,
        to: OutFormat,
        format: &Format,
    ) -> (usize, Option<FrameError>) {
        let mut from = 0;
        for (n, &(at, end)) in self.frames.iter().enumerate() {
            let payload = &self.bytes[from..end];
            from = end;
            if !(to == OutFormat::Json && print_json_of_bytes(buf, payload, format)) {
                match decode_frame(payload, at, format) {
                    Ok(frame) => print(to, &frame, format.dialect, buf),
                    Err(e) => return (n, Some(e)),
                }
            }
            buf.push(b'\n');
        }
        (self.frames.len(), None)
    }
}

pub(super) fn no_value(path: &Path) -> Failure {
    Failure::data(format!(
        "{}: empty input: expected a value (a 4-byte header at least) (at offset 0x0)",
        shown(path)
    ))
}
