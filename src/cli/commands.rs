//! The subcommands: decode, encode, explain, convert, guess.

use super::batch::{self, Notes};
use super::ordered;
use super::{
    open, partial_path, read_all, shown, text, version_or_newest, DialectArg, Failure, FramingArgs,
    Out, TargetDialect,
};
use clap::{Args, ValueEnum};
use gdvariant::explain::ExplainOptions;
use gdvariant::framing::{decode_frame, frame_into, Frame, FrameError, FrameReader, Framing};
use gdvariant::guess::Confidence;
use gdvariant::migrate::{migrate_in_place, Report, Target};
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

/// What `encode` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InFormat {
    /// The JSON form `decode --format json` prints (JSON Lines or concatenated documents).
    Json,
    /// The engine's text form (`var_to_str`).
    Text,
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
    /// the engine's value (for bytes from strangers; see the README's Engine rules)
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
    /// the engine's value (for bytes from strangers; see the README's Engine rules)
    #[arg(long)]
    engine_strict: bool,
    /// List every element of every array (default: the first 16 of each)
    #[arg(long)]
    all: bool,
    /// Input file; - for standard input
    file: PathBuf,
}

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
    /// the engine's value (for bytes from strangers; see the README's Engine rules)
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

/// A frame error, naming the file.
fn frame_failure(path: &Path, e: FrameError) -> Failure {
    match e {
        FrameError::Io { source, .. } => Failure::io(path, source),
        e => Failure::data(format!("{}: {e}", shown(path))),
    }
}

/// Dialect, version and framing: as given, or guessed from `bytes` (the start of the input
/// and the input's size). With `partial`, bytes that no reading decodes to the end get the
/// reading that went furthest (explain shows where it stops) instead of an error.
fn resolve(
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
enum DecodeStop {
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
            DecodeStop::Output(e) => super::out_err(e),
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
const PRINT_BATCH: usize = 1 << 16;

/// Prints every value of `file` to `out`, on up to `threads` threads.
fn decode_file(
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
    let mut start = Vec::new();
    // The start also tells, when bare values fail, whether a length prefix was forgotten.
    std::io::Read::read_to_end(
        &mut std::io::Read::take(&mut input, gdvariant::guess::SAMPLE as u64),
        &mut start,
    )
    .map_err(|e| Failure::io(file, e))?;
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
        // made and freed where it is printed), only bytes: on the README's savegame, two
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
const PAYLOAD_BATCH: usize = 1 << 17;

/// Prints a decoded frame's value (the line's end is the caller's).
fn print(format: OutFormat, frame: &Frame, d: Dialect, buf: &mut Vec<u8>) {
    match format {
        OutFormat::Json => json::append_json(buf, &frame.value),
        OutFormat::Text => buf.extend_from_slice(text::to_text(&frame.value, d).as_bytes()),
    }
}

/// Writes a payload's JSON straight from its bytes, where the decoder's scan vouches for them
/// (no value built and freed: on the README's savegame 40.9 M -> 31.8 M instructions per
/// MB); `false`, with nothing written, for any other payload, which is then decoded and
/// printed, errors included (tests/json_of_bytes.rs holds the two ways together).
fn print_json_of_bytes(buf: &mut Vec<u8>, payload: &[u8], format: &Format) -> bool {
    json::append_json_of_bytes(buf, payload, format.dialect, &format.decode).is_some()
}

/// Payloads of prefixed frames read in a row, printed together.
struct Payloads {
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

fn no_value(path: &Path) -> Failure {
    Failure::data(format!(
        "{}: empty input: expected a value (a 4-byte header at least) (at offset 0x0)",
        shown(path)
    ))
}

/// Where encoded bytes go: a file (created only once there is something to write) or stdout.
enum Sink {
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
struct Put<'a> {
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
fn encode_file(
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
            let mut sink = Put { put, failed: None };
            match json::encode_values_to(open(file)?, threads, out_format, &mut sink) {
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

pub fn explain(a: ExplainArgs) -> Result<(), Failure> {
    let framing = a.framing.get()?;
    let bytes = read_all(&a.file)?;
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
    let mut out = Out::new();
    out.line(&format!(
        "{}: {} bytes, {} {}, {}",
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
fn convert_file(
    a: &ConvertArgs,
    input: &Path,
    output: &Path,
    notes: &mut Notes,
) -> Result<(), Failure> {
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
    for frame in FrameReader::new(open(input)?, &in_format).with_offsets() {
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
                std::fs::rename(&partial, output).map_err(|e| Failure::io(output, e))?;
            }
            None => {
                let mut out = Out::new();
                out.bytes(&mem)?;
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
        return Err(Failure::quiet(super::EXIT_DATA));
    }
    Ok(())
}
