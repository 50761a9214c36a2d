//! The subcommands: decode, encode, explain, convert, guess.

use super::{
    open, read_all, shown, text, version_or_newest, DialectArg, Failure, FramingArgs, Out,
    TargetDialect,
};
use clap::{Args, ValueEnum};
use gdvariant::explain::ExplainOptions;
use gdvariant::framing::{frame_into, Frame, FrameError, FrameReader, Framing};
use gdvariant::guess::Confidence;
use gdvariant::migrate::{migrate, Report, Target};
use gdvariant::{json, DecodeOptions, Dialect, EncodeOptions, Format, Variant, Version};
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
    /// Decode only the first value and ignore the bytes after it, as bytes_to_var does
    #[arg(long)]
    first: bool,
    /// Input file; - for standard input
    #[arg(default_value = "-")]
    file: PathBuf,
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
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Input file; - for standard input
    #[arg(default_value = "-")]
    file: PathBuf,
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
    /// Write math types as a Godot 4 `precision=double` build does
    #[arg(long)]
    double_precision: bool,
    /// Input file; - for standard input
    input: PathBuf,
    /// Output file; - for standard output. Not written when the conversion is refused
    output: PathBuf,
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
            let b = &g.best;
            eprintln!(
                "gdvariant: {}: read as {}, {} ({}); pass --dialect to choose",
                shown(path),
                b.era,
                b.framing,
                g.confidence
            );
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
    let dopts = |version| DecodeOptions {
        version: Some(version),
        allow_objects: a.allow_objects,
        // The JSON form keeps every byte; the text form shows what the engine sees.
        keep_leading_bom: a.format == OutFormat::Json,
        ..DecodeOptions::default()
    };
    let mut out = Out::new();
    let print = |dialect: Dialect, v: &Variant, out: &mut Out| match a.format {
        OutFormat::Json => out.line(&json::to_json_string(v)),
        OutFormat::Text => out.line(&text::to_text(v, dialect)),
    };
    // Guessing reads the start of the input (guess::SAMPLE); decoding then streams from the
    // first byte again, the start chained before the rest.
    let mut input = open(&a.file)?;
    let mut start = Vec::new();
    // The start also tells, when bare values fail, whether a length prefix was forgotten.
    std::io::Read::read_to_end(
        &mut std::io::Read::take(&mut input, gdvariant::guess::SAMPLE as u64),
        &mut start,
    )
    .map_err(|e| Failure::io(&a.file, e))?;
    let resolved = if a.dialect == DialectArg::Auto {
        if start.is_empty() {
            return Err(no_value(&a.file));
        }
        // A full sample means more may follow.
        let size = start.len() + usize::from(start.len() == gdvariant::guess::SAMPLE);
        resolve(
            &a.file,
            a.dialect,
            a.engine_version,
            framing,
            Some((&start, size)),
            true,
        )?
    } else {
        resolve(&a.file, a.dialect, a.engine_version, framing, None, false)?
    };
    let (d, v, f) = resolved;
    let format = Format {
        dialect: d,
        framing: f,
        decode: dopts(v),
        encode: EncodeOptions::default(),
    };
    let hint = |e: &FrameError| {
        match e {
        FrameError::Decode(d) if f == Framing::Bare && d.offset() < 8 => {
            gdvariant::framing::likely_framing(&start, &format).map(|fr| {
                format!(
                    "\nhint: these bytes look like values with a length before each ({fr}): use --framing {}",
                    fr.name()
                )
            })
        }
        _ => None,
    }
    };
    let chained = std::io::Read::chain(start.as_slice(), input);
    let reader = FrameReader::new(chained, &format).with_offsets();
    let mut seen = 0usize;
    for frame in reader {
        seen += 1;
        let frame: Frame = match frame {
            Ok(fr) => fr,
            Err(e) => {
                out.flush()?;
                return Err(match hint(&e) {
                    Some(hint) => Failure::data(format!("{}: {e}{hint}", shown(&a.file))),
                    None => frame_failure(&a.file, e),
                });
            }
        };
        print(d, &frame.value, &mut out)?;
        if a.first {
            break;
        }
    }
    // Bare bytes are one value or more (`bytes_to_var` of nothing is an error); a framed
    // file may hold zero frames.
    if seen == 0 && f == Framing::Bare {
        return Err(no_value(&a.file));
    }
    out.flush()
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
    let mut sink = Sink::new(a.output.as_deref())?;
    let mut buf = Vec::new();
    let out_format = Format {
        dialect,
        framing,
        decode: DecodeOptions::default(),
        encode: eopts,
    };
    let mut put = |n: usize, v: &Variant, sink: &mut Sink| -> Result<(), Failure> {
        buf.clear();
        frame_into(&mut buf, v, &out_format)
            .map_err(|e| Failure::data(format!("{}: value {n}: {e}", shown(&a.file))))?;
        sink.write(&buf)
    };
    match a.from {
        InFormat::Json => {
            for (i, v) in json::read_values(open(&a.file)?).enumerate() {
                let v = v.map_err(|e| Failure::data(format!("{}: {e}", shown(&a.file))))?;
                put(i + 1, &v, &mut sink)?;
            }
        }
        InFormat::Text => {
            let bytes = read_all(&a.file)?;
            let s = String::from_utf8(bytes).map_err(|e| {
                Failure::data(format!(
                    "{}: not UTF-8 text (at offset {:#x})",
                    shown(&a.file),
                    e.utf8_error().valid_up_to()
                ))
            })?;
            let values = text::from_text(&s, dialect)?;
            // The text is not needed once parsed: freed before the bytes are made, the peak
            // is the larger of text + values and values + bytes, not their sum.
            drop(s);
            for (i, v) in values.iter().enumerate() {
                put(i + 1, v, &mut sink)?;
            }
        }
    }
    sink.finish()
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
    )?;
    let mut opts = ExplainOptions::new(d);
    opts.decode.version = Some(v);
    opts.decode.allow_objects = a.allow_objects;
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
    let to_stdout = a.output == Path::new("-");
    let partial = partial_path(&a.output);
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
    for frame in FrameReader::new(open(&a.input)?, &in_format).with_offsets() {
        let frame = match frame {
            Ok(f) => f,
            Err(e) => {
                cleanup(file);
                return Err(frame_failure(&a.input, e));
            }
        };
        n += 1;
        let (value, mut r) = migrate(&frame.value, from, to);
        for l in &mut r.losses {
            l.path = format!("#{n}{}", l.path.trim_start_matches("value"));
        }
        report.merge(r);
        buf.clear();
        if let Err(e) = frame_into(&mut buf, &value, &out_format) {
            cleanup(file);
            return Err(Failure::data(format!(
                "{}: value {n} at offset {:#x}: {e}",
                shown(&a.input),
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
    eprintln!(
        "gdvariant: converted {n} value(s) from {from} to {to} ({})",
        framing
    );
    eprint!("{report}");
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
            std::fs::rename(&partial, &a.output).map_err(|e| Failure::io(&a.output, e))?;
        }
        None => {
            let mut out = Out::new();
            out.bytes(&mem)?;
            out.flush()?;
        }
    }
    Ok(())
}

/// `OUT.partial`, beside `OUT`.
fn partial_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    out.with_file_name(name)
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
