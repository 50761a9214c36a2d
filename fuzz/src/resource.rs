//! The invariant of the resource file readers (`.res`, `.tres`): any input is read or
//! refused without a panic, and what is read writes back and reads again to the same model;
//! `explain` walks any input without a panic and explains every `.res` the reader reads;
//! the model (`to_variant`) of what is read reads back to the same file, and any decoded
//! value given as a model is taken or refused without a panic.

use gdvariant::resource::ResourceFile;

use crate::Setup;

/// Reads `payload` as a resource file (binary when it starts with `RSRC`, text otherwise);
/// a file that reads must write, and what it writes must read back to the same model.
pub fn check_resource(_setup: &Setup, payload: &[u8]) {
    let explained = gdvariant::explain::explain_resource(payload, 16);
    if let Ok(text) = std::str::from_utf8(payload) {
        gdvariant::explain::explain_resource_text(text);
    }
    let options = gdvariant::DecodeOptions {
        allow_objects: true,
        ..Default::default()
    };
    if let Ok((value, _)) = gdvariant::decode(payload, gdvariant::Dialect::Godot4, &options) {
        let _ = ResourceFile::from_variant(&value);
    }
    let Ok(file) = ResourceFile::read(payload) else {
        return;
    };
    match ResourceFile::from_variant(&file.to_variant()) {
        // Compared as written: a NaN property is not `==` itself.
        Ok(back) => assert!(
            back.write().ok() == file.write().ok(),
            "resource: the model changed the file"
        ),
        Err(e) => panic!("resource: the model of a file read is refused: {e}"),
    }
    // explain walks little-endian files only; the reader also takes big-endian ones.
    let little_endian = payload.get(4..8) == Some(&[0, 0, 0, 0][..]);
    if let Some(e) = explained
        .error
        .filter(|_| payload.starts_with(b"RSRC") && little_endian)
    {
        panic!("resource: the reader reads a .res that explain refuses: {e}");
    }
    // A compressed file the reader reads: explain walks the resource inside it too.
    if payload.starts_with(b"RSCC") {
        let bound = crate::containers::FUZZ_BOUND;
        if let Ok(plain) =
            gdvariant::container::compressed::read_with_magic(payload, b"RSCC", bound)
        {
            let inner = gdvariant::explain::explain_compressed_resource(&plain, 16);
            let little_endian = plain.get(..4) == Some(&[0, 0, 0, 0][..]);
            if let Some(e) = inner.error.filter(|_| little_endian) {
                panic!("resource: the reader reads an RSCC file whose inside explain refuses: {e}");
            }
        }
    }
    // A file can be read whose references point nowhere; writing refuses those.
    let Ok(bytes) = file.write() else {
        return;
    };
    let back = ResourceFile::read(&bytes)
        .unwrap_or_else(|e| panic!("resource: what we wrote does not read back: {e}"));
    assert!(
        back.main.properties.len() == file.main.properties.len()
            && back.sub_resources.len() == file.sub_resources.len(),
        "resource: the model changed through writing"
    );
}
