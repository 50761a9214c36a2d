//! The command's view through save-file containers: `--password`, `--key-hex`, `--key-file`
//! and `--max-plain-mib` for every command; each input that is an encrypted or compressed file
//! is opened to its plain data, and `convert` writes its output back in the same container.

use super::{shown, Failure};
use clap::{Args, ValueEnum};
use gdvariant::container::{
    compressed, encrypted, sniff, ContainerKind, EncryptedLayout, Key, Mode, OpenOptions,
};
use gdvariant::Dialect;
use std::cell::RefCell;
use std::io::{BufRead, Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Options for encrypted and compressed save files (`open_encrypted*`, `open_compressed`).
#[derive(Args, Debug, Default)]
pub struct ContainerArgs {
    /// Password of an encrypted save (`open_encrypted_with_pass`); or set GDVARIANT_PASSWORD
    #[arg(long, global = true, value_name = "PASSWORD")]
    password: Option<String>,
    /// Key of an encrypted save (`open_encrypted`) as 64 hexadecimal digits
    #[arg(long, global = true, value_name = "HEX")]
    key_hex: Option<String>,
    /// File holding the 32-byte key of an encrypted save
    #[arg(long, global = true, value_name = "FILE")]
    key_file: Option<PathBuf>,
    /// Most plain data a compressed save may hold, in MiB [default: 64]
    #[arg(long, global = true, value_name = "MIB")]
    max_plain_mib: Option<u64>,
    /// Write the output compressed (`open_compressed`) in this mode
    #[arg(long, global = true, value_enum, value_name = "MODE")]
    compress: Option<CompressArg>,
    /// Write the output encrypted with the key given (`open_encrypted*`)
    #[arg(long, global = true)]
    encrypt: bool,
}

/// A compression mode the engines write.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum CompressArg {
    Fastlz,
    Deflate,
    Zstd,
    Gzip,
}

impl From<CompressArg> for Mode {
    fn from(m: CompressArg) -> Mode {
        match m {
            CompressArg::Fastlz => Mode::FastLz,
            CompressArg::Deflate => Mode::Deflate,
            CompressArg::Zstd => Mode::Zstd,
            CompressArg::Gzip => Mode::Gzip,
        }
    }
}

/// How outputs are sealed when their input was not a container.
#[derive(Clone, Copy, Debug)]
enum Seal {
    Encrypted,
    Compressed(Mode),
}

struct Settings {
    open: OpenOptions,
    output: Option<Seal>,
}

static SETTINGS: OnceLock<Settings> = OnceLock::new();

thread_local! {
    /// The container of the input this thread opened last: `convert` writes its output in it.
    static OPENED: RefCell<Option<Seal>> = const { RefCell::new(None) };
}

/// Takes the options once, before any command runs.
pub(super) fn configure(args: ContainerArgs) -> Result<(), Failure> {
    let password = args
        .password
        .or_else(|| std::env::var("GDVARIANT_PASSWORD").ok());
    let key = match (password, args.key_hex, args.key_file) {
        (Some(p), None, None) => Some(Key::password(p)),
        (None, Some(hex), None) => {
            Some(Key::from_hex(&hex).map_err(|e| Failure::usage(format!("--key-hex: {e}")))?)
        }
        (None, None, Some(path)) => {
            let bytes = std::fs::read(&path).map_err(|e| Failure::io(&path, e))?;
            Some(
                Key::raw(&bytes)
                    .map_err(|e| Failure::usage(format!("--key-file {}: {e}", path.display())))?,
            )
        }
        (None, None, None) => None,
        _ => {
            return Err(Failure::usage(
                "give one of --password, --key-hex and --key-file",
            ))
        }
    };
    let output = match (args.encrypt, args.compress) {
        (true, Some(_)) => {
            return Err(Failure::usage(
                "--encrypt and --compress together: the engines nest neither",
            ))
        }
        (true, None) if key.is_none() => {
            return Err(Failure::usage(
                "--encrypt needs --password, --key-hex or --key-file",
            ))
        }
        (true, None) => Some(Seal::Encrypted),
        (false, mode) => mode.map(|m| Seal::Compressed(m.into())),
    };
    let mut open = OpenOptions {
        key,
        ..OpenOptions::default()
    };
    if let Some(mib) = args.max_plain_mib {
        open.bound = mib.saturating_mul(1 << 20);
    }
    let _ = SETTINGS.set(Settings { open, output });
    Ok(())
}

fn settings() -> &'static Settings {
    SETTINGS.get_or_init(|| Settings {
        open: OpenOptions::default(),
        output: None,
    })
}

/// The plain data of `input` when it is an encrypted or compressed file (with a note on
/// standard error naming the container), else `input` itself.
pub(super) fn see_through(
    path: &Path,
    mut input: Box<dyn BufRead + Send>,
) -> Result<Box<dyn BufRead + Send>, Failure> {
    OPENED.with(|o| *o.borrow_mut() = None);
    let start = input.fill_buf().map_err(|e| Failure::io(path, e))?;
    let Some(kind) = sniff(start) else {
        return Ok(input);
    };
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::io(path, e))?;
    let options = &settings().open;
    let summary = gdvariant::guess::guess_save(&bytes, options)
        .map(|g| g.summary())
        .unwrap_or_default();
    let (plain, seal) = match kind {
        ContainerKind::Encrypted => {
            let Some(key) = &options.key else {
                return Err(Failure::data(format!(
                    "{}: {summary}: give --password, --key-hex or --key-file",
                    shown(path)
                )));
            };
            let plain = encrypted::read(&bytes, key)
                .map_err(|e| Failure::data(format!("{}: {e}", shown(path))))?;
            (plain, Seal::Encrypted)
        }
        ContainerKind::Compressed => {
            let header = compressed::header(&bytes, options.bound)
                .map_err(|e| Failure::data(format!("{}: {e}", shown(path))))?;
            let plain = compressed::read(&bytes, options.bound)
                .map_err(|e| Failure::data(format!("{}: {e}", shown(path))))?;
            (plain, Seal::Compressed(header.mode))
        }
        _ => return Ok(Box::new(Cursor::new(bytes))),
    };
    eprintln!(
        "gdvariant: {}: {summary}: {} bytes of plain data inside",
        shown(path),
        plain.len()
    );
    OPENED.with(|o| *o.borrow_mut() = Some(seal));
    Ok(Box::new(Cursor::new(plain)))
}

/// `bytes` in the container of the input just read (or the one `--encrypt`/`--compress`
/// asks for), encrypted in the layout of the output's dialect.
pub(super) fn seal(bytes: Vec<u8>, to: Dialect) -> Result<Vec<u8>, Failure> {
    let seal = OPENED.with(|o| o.borrow_mut().take()).or(settings().output);
    let failed =
        |e: gdvariant::ContainerError| Failure::data(format!("writing the container: {e}"));
    match seal {
        None => Ok(bytes),
        Some(Seal::Compressed(mode)) => compressed::write(&bytes, mode).map_err(failed),
        Some(Seal::Encrypted) => {
            let key = settings()
                .open
                .key
                .as_ref()
                .expect("a key opened or asked for this");
            let layout = match to {
                Dialect::Godot4 => EncryptedLayout::Godot4,
                _ => EncryptedLayout::Godot3,
            };
            encrypted::write(&bytes, key, layout, None).map_err(failed)
        }
    }
}

/// [`seal`] of a file written in place.
pub(super) fn seal_file(path: &Path, to: Dialect) -> Result<(), Failure> {
    let sealing = OPENED.with(|o| o.borrow().is_some()) || settings().output.is_some();
    if !sealing {
        return Ok(());
    }
    let bytes = std::fs::read(path).map_err(|e| Failure::io(path, e))?;
    let sealed = seal(bytes, to)?;
    std::fs::write(path, sealed).map_err(|e| Failure::io(path, e))
}

/// A container's header fields as text (when the input is one), and the plain data or why
/// it could not be opened.
pub(super) type Explained = (Option<String>, Result<Vec<u8>, Failure>);

/// For `explain`: the raw bytes of `path` read once; when they are a container, its header
/// fields at their file offsets (`max_blocks` blocks listed), and the plain data inside (or
/// why it cannot be opened); else the bytes themselves.
pub(super) fn read_explained(path: &Path, max_blocks: usize) -> Result<Explained, Failure> {
    let mut raw = Vec::new();
    let mut input: Box<dyn Read> = if path == Path::new("-") {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| Failure::io(path, e))?)
    };
    input
        .read_to_end(&mut raw)
        .map_err(|e| Failure::io(path, e))?;
    let header = gdvariant::explain::explain_container(&raw, settings().open.bound, max_blocks)
        .map(|x| x.to_string());
    let plain = see_through(path, Box::new(Cursor::new(raw))).and_then(|mut r| {
        let mut plain = Vec::new();
        r.read_to_end(&mut plain)
            .map_err(|e| Failure::io(path, e))?;
        Ok(plain)
    });
    Ok((header, plain))
}
