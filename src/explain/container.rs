//! The header of an encrypted (`GDEC`) or compressed (`GCPF`) save file, field by field at
//! its offset in the file, read without a key or decompressing (feature `containers`).

use super::Line;
use crate::container::{compressed, encrypted, sniff, ContainerError, ContainerKind};
use std::fmt;

/// The header fields of a container file, and the error that stopped the walk, if any.
#[derive(Debug)]
pub struct ContainerExplanation {
    /// Which container the file is.
    pub kind: ContainerKind,
    /// The fields, in file order; offsets are in the file.
    pub lines: Vec<Line>,
    /// Why the header could not be read to the end.
    pub error: Option<ContainerError>,
}

/// The fields of the container `bytes` are, `None` when they are not one. A compressed file's
/// plain length must be within `bound`, as when reading it; `max_blocks` block table entries
/// and blocks are listed one by one, the rest in one line.
///
/// ```
/// use gdvariant::container::{compressed, Mode};
/// use gdvariant::explain::explain_container;
/// let file = compressed::write(&[0u8; 5000], Mode::Deflate)?;
/// let x = explain_container(&file, compressed::DEFAULT_BOUND, 16).unwrap();
/// assert_eq!((x.lines[1].offset, x.lines[1].value.as_str()), (4, "1 (Deflate)"));
/// assert!(x.error.is_none());
/// # Ok::<(), gdvariant::ContainerError>(())
/// ```
pub fn explain_container(
    bytes: &[u8],
    bound: u64,
    max_blocks: usize,
) -> Option<ContainerExplanation> {
    let kind = sniff(bytes)?;
    let mut lines = Vec::new();
    let mut add = |offset: u64, len: u64, depth, field: &str, value: String, why: &str| {
        lines.push(Line {
            offset: offset as usize,
            len: len as usize,
            depth,
            field: field.to_string(),
            value,
            description: why.to_string(),
        })
    };
    let magic = |add: &mut Add| {
        let m = String::from_utf8_lossy(&bytes[..4]);
        add(
            0,
            4,
            0,
            "magic",
            format!("\"{m}\""),
            "the container's magic",
        )
    };
    let error = match kind {
        ContainerKind::Encrypted => {
            magic(&mut add);
            encrypted_fields(bytes, &mut add).err()
        }
        ContainerKind::Compressed => {
            magic(&mut add);
            compressed_fields(bytes, bound, max_blocks, &mut add).err()
        }
    };
    Some(ContainerExplanation { kind, lines, error })
}

type Add<'a> = dyn FnMut(u64, u64, usize, &str, String, &str) + 'a;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn encrypted_fields(bytes: &[u8], add: &mut Add) -> Result<(), ContainerError> {
    let h = encrypted::header(bytes)?;
    let file = bytes.len() as u64;
    let gen = h.layout.name();
    if h.layout == crate::container::EncryptedLayout::Godot3 {
        add(
            4,
            4,
            0,
            "mode",
            "1 (AES-256)".into(),
            "Godot 3 layout: the encryption mode, always 1",
        );
    }
    let md5_at = h.layout.md5_offset() as u64;
    add(
        md5_at,
        16,
        0,
        "md5",
        hex(&h.md5),
        "MD5 of the plain data (checks the key)",
    );
    add(
        md5_at + 16,
        8,
        0,
        "plain length",
        h.plain_len.to_string(),
        "u64: bytes of plain data",
    );
    if let Some(iv) = h.iv {
        add(
            md5_at + 24,
            16,
            0,
            "iv",
            hex(&iv),
            "Godot 4 layout: the AES-256-CFB IV",
        );
    }
    let start = h.data_offset as u64;
    let padded = h.plain_len.div_ceil(16) * 16;
    let cipher = if h.iv.is_some() { "CFB" } else { "ECB" };
    add(
        start,
        padded,
        0,
        "ciphertext",
        format!("{padded} bytes"),
        &format!("{gen} layout: AES-256-{cipher}, the plain data then its padding"),
    );
    if padded > h.plain_len {
        add(
            start + h.plain_len,
            padded - h.plain_len,
            1,
            "padding",
            format!("{} bytes", padded - h.plain_len),
            "zeros to a multiple of 16, enciphered with the data",
        );
    }
    if start + padded < file {
        add(
            start + padded,
            file - start - padded,
            0,
            "trailing bytes",
            format!("{} bytes", file - start - padded),
            "after the data; the engine ignores them",
        );
    }
    Ok(())
}

fn compressed_fields(
    bytes: &[u8],
    bound: u64,
    max_blocks: usize,
    add: &mut Add,
) -> Result<(), ContainerError> {
    let u32_at = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
    };
    // The fields one by one, so that a damaged header is shown up to the bad one.
    if let Some(mode) = u32_at(4) {
        let name = compressed::Mode::from_id(mode).map_or("unknown", |m| m.name());
        add(
            4,
            4,
            0,
            "mode",
            format!("{mode} ({name})"),
            "u32: the compression mode",
        );
    }
    if let Some(size) = u32_at(8) {
        add(
            8,
            4,
            0,
            "block size",
            size.to_string(),
            "u32: plain bytes per block",
        );
    }
    if let Some(len) = u32_at(12) {
        add(
            12,
            4,
            0,
            "plain length",
            len.to_string(),
            "u32: bytes of plain data",
        );
    }
    let h = compressed::header(bytes, bound)?;
    let count = h.block_sizes.len();
    add(
        16,
        count as u64 * 4,
        0,
        "block table",
        format!("{count} blocks"),
        "u32 compressed size of each block (one more than whole blocks fill)",
    );
    let shown = count.min(max_blocks);
    let mut at = h.data_offset;
    let mut plain_at = 0u64;
    let mut blocks = Vec::with_capacity(shown);
    for (i, &size) in h.block_sizes.iter().enumerate() {
        let want = (u64::from(h.plain_len) - plain_at).min(h.block_size.into());
        if i < shown {
            add(
                16 + i as u64 * 4,
                4,
                1,
                &format!("[{i}]"),
                size.to_string(),
                &format!("block {i} at {at:#x}"),
            );
            blocks.push((i, at, size, plain_at, want));
        }
        at += u64::from(size);
        plain_at += want;
    }
    if shown < count {
        add(
            16 + shown as u64 * 4,
            (count - shown) as u64 * 4,
            1,
            "…",
            format!("{} more", count - shown),
            "(--all lists every block)",
        );
    }
    for (i, offset, size, plain_at, want) in blocks {
        add(
            offset,
            size.into(),
            0,
            &format!("block {i}"),
            format!("{size} → {want} bytes"),
            &format!(
                "{} block, plain data {plain_at:#x}..{:#x}",
                h.mode,
                plain_at + want
            ),
        );
    }
    if shown < count {
        add(
            h.data_offset
                + h.block_sizes[..shown]
                    .iter()
                    .map(|&s| u64::from(s))
                    .sum::<u64>(),
            at - h.data_offset
                - h.block_sizes[..shown]
                    .iter()
                    .map(|&s| u64::from(s))
                    .sum::<u64>(),
            0,
            "…",
            format!("{} more blocks", count - shown),
            "",
        );
    }
    let file = bytes.len() as u64;
    let tail = &bytes[at as usize..];
    if tail.len() >= 4 {
        let ok = &tail[..4] == b"GCPF";
        add(
            at,
            4,
            0,
            "magic",
            format!("\"{}\"", String::from_utf8_lossy(&tail[..4])),
            if ok {
                "the magic again, ending the file"
            } else {
                "where the engine writes the magic again (not checked when reading)"
            },
        );
        at += 4;
    }
    if at < file {
        add(
            at,
            file - at,
            0,
            "trailing bytes",
            format!("{} bytes", file - at),
            "the engine ignores them",
        );
    }
    Ok(())
}

impl fmt::Display for ContainerExplanation {
    /// The fields as [`Explanation`](super::Explanation) shows values, then the error, if any.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::write_lines(f, &self.lines)?;
        match &self.error {
            None => Ok(()),
            Some(e) => writeln!(f, "error: {e}"),
        }
    }
}
