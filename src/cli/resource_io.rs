//! Resource files (`.tres`, `.tscn`, `.res`) through the value commands: `explain` walks
//! them field by field; `decode`, `encode`, `convert` and `guess` hand them here first
//! (one small hook each), so a save resource needs no special subcommand.

use super::batch::Notes;
use super::{shown, Failure, Out};
use gdvariant::resource::{Encoding, ResourceFile};
use gdvariant::Dialect;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Whether `bytes` are a resource file: `RSRC`/`RSCC` magic or a `[gd_resource`/`[gd_scene`
/// text header.
pub fn is_resource(bytes: &[u8]) -> bool {
    bytes.starts_with(b"RSRC")
        || bytes.starts_with(b"RSCC")
        || bytes.starts_with(b"[gd_resource")
        || bytes.starts_with(b"[gd_scene")
}

/// `gdvariant explain` of a resource file: `None` when `bytes` are not one.
pub fn explain(path: &Path, bytes: &[u8], all: bool) -> Option<Result<(), Failure>> {
    if !is_resource(bytes) {
        return None;
    }
    Some((|| {
        let mut out = Out::new();
        let kind = ResourceFile::describe(bytes).unwrap_or_default();
        out.line(&format!("{}: {} bytes, {kind}", shown(path), bytes.len()))?;
        if bytes.starts_with(b"RSCC") {
            return explain_compressed(path, bytes, all, &mut out);
        }
        if !bytes.starts_with(b"RSRC") {
            let text = std::str::from_utf8(bytes).map_err(|e| {
                Failure::data(format!(
                    "{}: not UTF-8 at byte {}",
                    shown(path),
                    e.valid_up_to()
                ))
            })?;
            out.bytes(gdvariant::explain::explain_resource_text(text).as_bytes())?;
            return out.flush();
        }
        let max = if all { usize::MAX } else { 16 };
        let e = gdvariant::explain::explain_resource(bytes, max);
        out.bytes(e.to_string().as_bytes())?;
        out.flush()?;
        match &e.error {
            None => Ok(()),
            Some(err) => Err(Failure::data(format!("{}: {err}", shown(path)))),
        }
    })())
}

/// A compressed `.res` (`RSCC`): the `FileAccessCompressed` stream's header and blocks, then
/// the resource inside, explained as a `.res` with its `RSRC` magic put back (the engine
/// compresses what follows the magic, resource_format_binary.cpp `save`).
fn explain_compressed(path: &Path, bytes: &[u8], all: bool, out: &mut Out) -> Result<(), Failure> {
    use gdvariant::container::compressed;
    let failed = |e: &dyn std::fmt::Display| Failure::data(format!("{}: {e}", shown(path)));
    let bound = compressed::DEFAULT_BOUND;
    let h = compressed::header_with_magic(bytes, b"RSCC", bound).map_err(|e| failed(&e))?;
    out.line("offset     len  field       value")?;
    out.line(&format!(
        "{:08x}     4  magic       RSCC   a compressed resource",
        0
    ))?;
    out.line(&format!("{:08x}     4  mode        {}", 4, h.mode))?;
    out.line(&format!("{:08x}     4  block size  {}", 8, h.block_size))?;
    out.line(&format!("{:08x}     4  plain size  {}", 12, h.plain_len))?;
    let mut at = h.data_offset;
    for (i, size) in h.block_sizes.iter().enumerate() {
        out.line(&format!(
            "{:08x} {size:>5}  block {i}     compressed; its size is at {:08x}",
            at,
            16 + 4 * i
        ))?;
        at += u64::from(*size);
    }
    let plain = compressed::read_with_magic(bytes, b"RSCC", bound).map_err(|e| failed(&e))?;
    out.line(&format!(
        "the resource inside ({} bytes; offsets below count from its RSRC magic, put back):",
        plain.len() + 4
    ))?;
    let max = if all { usize::MAX } else { 16 };
    let e = gdvariant::explain::explain_compressed_resource(&plain, max);
    out.bytes(e.to_string().as_bytes())?;
    out.flush()?;
    match &e.error {
        None => Ok(()),
        Some(err) => Err(failed(err)),
    }
}

fn read_resource(path: &Path, bytes: &[u8]) -> Result<ResourceFile, Failure> {
    ResourceFile::read(bytes).map_err(|e| Failure::data(format!("{}: {e}", shown(path))))
}

fn dialect_of(file: &ResourceFile) -> Dialect {
    if file.is_godot3() {
        Dialect::Godot3
    } else {
        Dialect::Godot4
    }
}

/// `gdvariant decode` of a resource file: its model ([`ResourceFile::to_variant`]) as one
/// line of lossless JSON, or the engine's text form of the file (`.tres`: a Dictionary's text
/// form sorts its keys, which would lose the properties' order).
pub fn decode(path: &Path, bytes: &[u8], json: bool) -> Result<Vec<u8>, Failure> {
    let file = read_resource(path, bytes)?;
    if !json {
        return file
            .to_text()
            .write()
            .map_err(|e| Failure::data(format!("{}: {e}", shown(path))));
    }
    let mut out = gdvariant::json::to_json_string(&file.to_variant());
    out.push('\n');
    Ok(out.into_bytes())
}

/// Whether `path` names a resource file by its extension: `Some(true)` binary (`.res`,
/// `.scn`), `Some(false)` text (`.tres`, `.tscn`).
fn resource_extension(path: &Path) -> Option<bool> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "res" | "scn" => Some(true),
        "tres" | "tscn" => Some(false),
        _ => None,
    }
}

/// `file` in the encoding `binary` asks for (a text file becomes the `.res` its engine
/// writes, and back).
fn in_encoding(file: ResourceFile, binary: bool) -> ResourceFile {
    match (&file.encoding, binary) {
        (Encoding::Text { .. }, true) => {
            let (major, minor) = if file.is_godot3() { (3, 2) } else { (4, 3) };
            file.to_binary(major, minor)
        }
        (Encoding::Binary(_), false) => file.to_text(),
        _ => file,
    }
}

/// Writes `file` to `path`, through a side file so that a failure leaves nothing behind.
fn write_resource(path: &Path, file: &ResourceFile) -> Result<(), Failure> {
    let bytes = file
        .write()
        .map_err(|e| Failure::data(format!("{}: {e}", shown(path))))?;
    if path == Path::new("-") {
        let mut out = Out::new();
        out.bytes(&bytes)?;
        return out.flush();
    }
    let partial = crate::cli::partial_path(path);
    std::fs::write(&partial, bytes).map_err(|e| Failure::io(&partial, e))?;
    std::fs::rename(&partial, path).map_err(|e| Failure::io(path, e))
}

/// `gdvariant encode -o FILE.tres|.res|.tscn|.scn`: what `decode` printed (the JSON model,
/// or with `--from text` the `.tres` text) written as that resource file; `None` when the
/// output is no resource file.
pub fn encode(
    inputs: &[PathBuf],
    output: Option<&Path>,
    json: bool,
) -> Option<Result<(), Failure>> {
    let output = output?;
    let binary = resource_extension(output)?;
    Some((|| {
        let input = crate::cli::batch::single(inputs)?;
        let bytes = crate::cli::read_all(input)?;
        let failed = |e: &dyn std::fmt::Display| Failure::data(format!("{}: {e}", shown(input)));
        let file = if json {
            let text = std::str::from_utf8(&bytes).map_err(|e| failed(&e))?;
            let model = gdvariant::json::from_json_str(text.trim()).map_err(|e| failed(&e))?;
            ResourceFile::from_variant(&model).map_err(|e| failed(&e))?
        } else {
            // The text `decode` prints: the file as `.tres`.
            read_resource(input, &bytes)?
        };
        write_resource(output, &in_encoding(file, binary))
    })())
}

/// `gdvariant convert --from D --to D IN OUT` of a resource file: `.tres` ↔ `.res` by the
/// output's extension, Godot 3 → Godot 4 migrated with the report (in `notes`) of what
/// changed and what Godot 4 cannot hold (refused without `lossy`); `None` when `input` is no
/// resource file.
pub fn convert(
    input: &Path,
    output: &Path,
    from: Dialect,
    to: Dialect,
    lossy: bool,
    notes: &mut Notes,
) -> Option<Result<(), Failure>> {
    if input == Path::new("-") {
        return None;
    }
    let mut start = [0u8; 12];
    let n = std::fs::File::open(input)
        .ok()
        .and_then(|mut f| f.read(&mut start).ok())?;
    if !is_resource(&start[..n]) {
        return None;
    }
    Some((|| {
        let bytes = crate::cli::read_all(input)?;
        let mut file = read_resource(input, &bytes)?;
        if dialect_of(&file) != from {
            return Err(Failure::usage(format!(
                "{}: a {} resource file, not {from}",
                shown(input),
                dialect_of(&file)
            )));
        }
        match (from, to) {
            (Dialect::Godot3, Dialect::Godot4) => {
                let (migrated, report) = file.migrate_to_godot4();
                for r in &report.renamed {
                    notes.add(format_args!("renamed class {} → {}\n", r.from, r.to));
                }
                notes.add(format_args!("{}", report.values));
                if !report.values.is_exact() && !lossy {
                    return Err(Failure::lossy(format!(
                        "{} value(s) cannot be represented in {to}; nothing written (pass --lossy to convert them to the nearest values listed above)",
                        report.values.losses.len()
                    )));
                }
                file = migrated;
            }
            (a, b) if a == b => {}
            _ => {
                return Err(Failure::usage(format!(
                    "resource files convert from Godot 3 to Godot 4 or within one engine, not from {from} to {to}"
                )))
            }
        }
        let binary = resource_extension(output).unwrap_or(false);
        write_resource(output, &in_encoding(file, binary))
    })())
}
