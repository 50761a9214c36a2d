//! Command-line parsing (clap derive), the shared options, errors and exit codes.
//!
//! Exit codes: 0 success; 1 the data is bad (bytes that do not decode, a value that cannot be
//! encoded, invalid JSON or text); 2 usage (unknown flag, bad value; clap's own code); 3 a
//! conversion would lose information and `--lossy` was not given; 4 a file could not be
//! read or written.

mod batch;
mod commands;
mod config;
mod container;
mod debug;
mod edit;
mod ordered;
mod resource;
mod resource_io;
mod text;

use clap::{Args, Parser, Subcommand, ValueEnum};
use gdvariant::framing::Framing;
use gdvariant::{Dialect, Version};
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Godot's binary Variant serialization: read, write, explain, convert and identify the bytes
/// of `var_to_bytes` / `var2bytes`, `store_var` and `put_var` (Godot 3, Godot 4, Pandemonium).
///
/// Exit codes: 0 ok, 1 bad data (decode/encode error), 2 usage, 3 lossy conversion refused,
/// 4 file not readable or writable.
#[derive(Parser, Debug)]
#[command(name = "gdvariant", version, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    containers: container::ContainerArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print every value in a file (text or lossless JSON, one value a line).
    Decode(commands::DecodeArgs),
    /// Write values given as JSON (or text) as engine bytes: the inverse of `decode`.
    Encode(commands::EncodeArgs),
    /// Annotated dump: every field at its offset, with length, value and meaning.
    Explain(commands::ExplainArgs),
    /// Convert values between dialects and versions (Godot 3 → Godot 4 and back), with a
    /// report of anything the target cannot represent.
    Convert(commands::ConvertArgs),
    /// Guess the dialect, version and framing of unknown bytes, and say why.
    Guess(commands::GuessArgs),
    /// Talk to a running Godot game through its remote debugger (`--remote-debug`): listen,
    /// print its messages, send commands; or replay a recorded session.
    Debug(debug::DebugArgs),
    /// Open files in the save editor: a local page with the values as a tree beside their
    /// bytes, edited in place and saved back.
    Edit(edit::EditArgs),
    /// Read, edit and convert resource files (`.tres`, `.res`) as the engine saves them.
    Resource(resource::ResourceArgs),
}

/// The engine family, or `auto` to guess it from the bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum DialectArg {
    /// Godot 3.x (`var2bytes`).
    Godot3,
    /// Godot 4.x (`var_to_bytes`).
    Godot4,
    /// The Pandemonium engine.
    Pandemonium,
    /// Guess from the bytes (see `gdvariant guess`).
    Auto,
}

impl DialectArg {
    fn fixed(self) -> Option<Dialect> {
        match self {
            DialectArg::Godot3 => Some(Dialect::Godot3),
            DialectArg::Godot4 => Some(Dialect::Godot4),
            DialectArg::Pandemonium => Some(Dialect::Pandemonium),
            DialectArg::Auto => None,
        }
    }
}

/// A dialect that must be named (for writing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum TargetDialect {
    /// Godot 3.x.
    Godot3,
    /// Godot 4.x.
    Godot4,
    /// The Pandemonium engine.
    Pandemonium,
}

impl From<TargetDialect> for Dialect {
    fn from(d: TargetDialect) -> Dialect {
        match d {
            TargetDialect::Godot3 => Dialect::Godot3,
            TargetDialect::Godot4 => Dialect::Godot4,
            TargetDialect::Pandemonium => Dialect::Pandemonium,
        }
    }
}

/// How values are laid out in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FramingArg {
    /// Bare values, back to back (`var_to_bytes`, one `PacketPeer` packet).
    None,
    /// A u32 length before each value (`store_var`, `StreamPeer.put_var`); see --big-endian.
    StoreVar,
    /// `PacketPeerStream`: a little-endian u32 length before each value.
    PacketStream,
}

/// Framing flags shared by the subcommands.
#[derive(Args, Debug, Clone, Copy)]
struct FramingArgs {
    /// How values are framed [default: none; guessed with --dialect auto]
    #[arg(long, value_enum)]
    framing: Option<FramingArg>,
    /// The store-var length prefix is big-endian (File.endian_swap, FileAccess.big_endian,
    /// StreamPeer.big_endian). The payload is little-endian regardless.
    #[arg(long)]
    big_endian: bool,
}

impl FramingArgs {
    /// The framing asked for, if any.
    fn get(self) -> Result<Option<Framing>, Failure> {
        match (self.framing, self.big_endian) {
            (None, false) => Ok(None),
            (None | Some(FramingArg::StoreVar), true) => {
                Ok(Some(Framing::StoreVar { big_endian: true }))
            }
            (Some(FramingArg::StoreVar), false) => Ok(Some(Framing::STORE_VAR)),
            (Some(FramingArg::None), false) => Ok(Some(Framing::Bare)),
            (Some(FramingArg::PacketStream), false) => Ok(Some(Framing::PacketStream)),
            (Some(f), true) => Err(Failure::usage(format!(
                "--big-endian applies to --framing store-var only (PacketPeerStream prefixes are always little-endian; `{}` has none)",
                f.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default()
            ))),
        }
    }
}

/// What went wrong, and the exit code that says so.
#[derive(Debug)]
pub struct Failure {
    code: u8,
    message: String,
}

/// Exit code: the data is bad.
const EXIT_DATA: u8 = 1;
/// Exit code: the command line is wrong (clap uses 2 too).
const EXIT_USAGE: u8 = 2;
/// Exit code: a conversion would lose information without `--lossy`.
const EXIT_LOSSY: u8 = 3;
/// Exit code: a file could not be read or written.
const EXIT_IO: u8 = 4;

impl Failure {
    fn data(message: impl fmt::Display) -> Failure {
        Failure {
            code: EXIT_DATA,
            message: message.to_string(),
        }
    }
    fn usage(message: impl fmt::Display) -> Failure {
        Failure {
            code: EXIT_USAGE,
            message: message.to_string(),
        }
    }
    fn lossy(message: impl fmt::Display) -> Failure {
        Failure {
            code: EXIT_LOSSY,
            message: message.to_string(),
        }
    }
    fn io(path: &Path, e: io::Error) -> Failure {
        Failure {
            code: EXIT_IO,
            message: format!("{}: {e}", shown(path)),
        }
    }
    fn editor(e: gdvariant::editor::EditorError) -> Failure {
        Failure {
            code: EXIT_IO,
            message: e.to_string(),
        }
    }
    /// A failure that has already been reported (or needs no message).
    fn quiet(code: u8) -> Failure {
        Failure {
            code,
            message: String::new(),
        }
    }
}

/// How a path is named in messages (`-` is standard input/output).
fn shown(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// Opens `path` for reading, buffered; `-` is standard input.
fn open(path: &Path) -> Result<Box<dyn BufRead + Send>, Failure> {
    if path == Path::new("-") {
        container::see_through(
            path,
            Box::new(BufReader::with_capacity(1 << 16, io::stdin())),
        )
    } else {
        let f = std::fs::File::open(path).map_err(|e| Failure::io(path, e))?;
        container::see_through(path, Box::new(BufReader::with_capacity(1 << 16, f)))
    }
}

/// `OUT.partial`, beside `OUT`: where an output is written until it is complete.
fn partial_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    out.with_file_name(name)
}

/// Reads all of `path` (or standard input).
fn read_all(path: &Path) -> Result<Vec<u8>, Failure> {
    let mut r = open(path)?;
    let mut v = Vec::new();
    r.read_to_end(&mut v).map_err(|e| Failure::io(path, e))?;
    Ok(v)
}

/// Writes to standard output, turning a closed pipe (`| head`) into a quiet stop.
struct Out {
    w: io::BufWriter<io::StdoutLock<'static>>,
}

impl Out {
    fn new() -> Out {
        Out {
            w: io::BufWriter::with_capacity(1 << 16, io::stdout().lock()),
        }
    }
    fn line(&mut self, s: &str) -> Result<(), Failure> {
        writeln!(self.w, "{s}").map_err(out_err)
    }
    fn bytes(&mut self, b: &[u8]) -> Result<(), Failure> {
        self.w.write_all(b).map_err(out_err)
    }
    fn flush(&mut self) -> Result<(), Failure> {
        self.w.flush().map_err(out_err)
    }
}

fn out_err(e: io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure::quiet(0)
    } else {
        Failure::io(Path::new("<stdout>"), e)
    }
}

/// The version to use: the flag (which must be one the spec describes), or the newest.
fn version_or_newest(dialect: Dialect, v: Option<Version>) -> Result<Version, Failure> {
    match v {
        None => Ok(dialect.newest()),
        // Any patch release of a known minor version (3.6.1, 4.2.2).
        Some(v) if v.in_minor_range(dialect.oldest(), dialect.newest()) => Ok(v),
        Some(v) => Err(Failure::usage(format!(
            "{dialect} has no version {v}: expected {} to {}",
            dialect.oldest(),
            dialect.newest()
        ))),
    }
}

/// Runs the command line; the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    // The JSON form and the explain walker recurse once per nesting level; the decoder allows
    // 1024 levels, which a debug build's 8 MiB main stack does not always hold. A thread with
    // a roomy stack (reserved, not committed) makes every accepted input safe.
    let worker = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || run(cli));
    match worker.map(|w| w.join()) {
        Ok(Ok(code)) => code,
        _ => {
            eprintln!("gdvariant: error: internal failure");
            ExitCode::from(EXIT_DATA)
        }
    }
}

fn run(cli: Cli) -> ExitCode {
    let r = container::configure(cli.containers).and_then(|()| match cli.command {
        Command::Decode(a) => commands::decode(a),
        Command::Encode(a) => commands::encode(a),
        Command::Explain(a) => commands::explain(a),
        Command::Convert(a) => commands::convert(a),
        Command::Guess(a) => commands::guess(a),
        Command::Debug(a) => debug::debug(a),
        Command::Edit(a) => edit::edit(a),
        Command::Resource(a) => resource::resource(a),
    });
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            if !f.message.is_empty() {
                eprintln!("gdvariant: error: {}", f.message);
            }
            ExitCode::from(f.code)
        }
    }
}
