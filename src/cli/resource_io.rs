//! Resource files (`.tres`, `.tscn`, `.res`) through the value commands: `explain` walks
//! them field by field; `decode`, `encode`, `convert` and `guess` hand them here first
//! (one small hook each), so a save resource needs no special subcommand.

use super::{shown, Failure, Out};
use std::path::Path;

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
        let kind = gdvariant::resource::ResourceFile::describe(bytes).unwrap_or_default();
        out.line(&format!("{}: {} bytes, {kind}", shown(path), bytes.len()))?;
        if !bytes.starts_with(b"RSRC") {
            let text = std::str::from_utf8(bytes).map_err(|e| {
                Failure::data(format!(
                    "{}: not UTF-8 at byte {}",
                    shown(path),
                    e.valid_up_to()
                ))
            })?;
            if bytes.starts_with(b"RSCC") {
                return Err(Failure::data(format!(
                    "{}: a compressed resource (RSCC); explain its decompressed form",
                    shown(path)
                )));
            }
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
