//! An annotated dump of encoded bytes, every field at its offset, as the decoder reads them.
//!
//! Each field has its length, value and the spec's description; nested values are indented;
//! a malformed input is shown up to the bad byte.
//!
//! `explain` does not read the format itself: it runs the decoder's own driver (with the
//! validating `Probe` builder) and watches it read (`observer.rs`, through `decode::Observe`),
//! so the two agree on every offset, on where input stops being valid and on the error, by
//! construction; and as the driver is iterative, no nesting needs a deep stack. Field names
//! and descriptions come from the generated tables ([`Dialect::type_info`], by
//! [`FieldName`](crate::FieldName)).

#[cfg(feature = "containers")]
mod container;
mod format;
mod observer;
mod resource;
mod spans;

#[cfg(feature = "containers")]
pub use container::{explain_container, ContainerExplanation};
pub use resource::{
    explain_compressed_resource, explain_resource, explain_resource_text, ResourceExplanation,
};
pub use spans::{decode_with_spans, ValueSpan, ValueSpans};

use crate::decode::{DecodeOptions, Decoder, Probe};
use crate::dialect::Dialect;
use crate::framing::{FrameError, Framing};
use format::hex_preview;
use observer::Explainer;
use std::fmt;

/// What to explain and how much.
#[derive(Clone, Debug)]
pub struct ExplainOptions {
    /// The dialect of the bytes.
    pub dialect: Dialect,
    /// Decoding options (version, objects, limits).
    pub decode: DecodeOptions,
    /// How values are framed in the input.
    pub framing: Framing,
    /// Most elements of one array (packed or not) listed one by one; the rest are summarised
    /// in one line. `usize::MAX` lists everything.
    pub max_elements: usize,
}

impl ExplainOptions {
    /// Options for `dialect` at its newest version, bare values, 16 elements per array.
    pub fn new(dialect: Dialect) -> ExplainOptions {
        ExplainOptions {
            dialect,
            decode: DecodeOptions {
                keep_leading_bom: true,
                ..DecodeOptions::default()
            },
            framing: Framing::Bare,
            max_elements: 16,
        }
    }
}

/// One annotated field.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// Absolute offset of the field.
    pub offset: usize,
    /// Bytes of the field.
    pub len: usize,
    /// Nesting level (0 for a top-level value's own fields).
    pub depth: usize,
    /// The field's name (`header`, `length`, `[3]`, `key`, …).
    pub field: String,
    /// What the bytes hold, readably.
    pub value: String,
    /// The spec's description of the field (may be empty).
    pub description: String,
}

/// The explanation of a whole input: its lines and, for malformed input, the error that
/// stopped the walk.
#[derive(Debug)]
pub struct Explanation {
    /// The fields, in byte order.
    pub lines: Vec<Line>,
    /// Why the walk stopped before the end, if it did.
    pub error: Option<FrameError>,
    /// How many values (frames) were explained completely.
    pub values: usize,
}

/// Explains `bytes`, which hold values framed as `options.framing` says.
pub fn explain(bytes: &[u8], options: &ExplainOptions) -> Explanation {
    let mut x = Explainer::new(
        bytes,
        options.dialect,
        &options.decode,
        options.max_elements,
    );
    let mut pos = 0;
    let mut values = 0;
    let error = loop {
        if pos >= bytes.len() {
            break None;
        }
        match frame(&mut x, options, pos) {
            Ok(end) => {
                values += 1;
                pos = end;
            }
            Err(e) => break Some(e),
        }
    };
    Explanation {
        lines: x.lines,
        error,
        values,
    }
}

/// One frame at `at`: its prefix, then its value. Returns where the next frame starts.
fn frame(x: &mut Explainer, options: &ExplainOptions, at: usize) -> Result<usize, FrameError> {
    let framing = options.framing;
    let bytes = x.bytes;
    let (start, end) = match framing {
        Framing::Bare => (at, bytes.len()),
        _ => {
            let rest = bytes.len() - at;
            if rest < 4 {
                return Err(FrameError::Truncated {
                    offset: at,
                    needed: 4 - rest,
                });
            }
            let b = [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]];
            let big = matches!(framing, Framing::StoreVar { big_endian: true });
            let len = if big {
                u32::from_be_bytes(b)
            } else {
                u32::from_le_bytes(b)
            } as usize;
            let order = if big { "big-endian" } else { "little-endian" };
            x.line(
                at,
                4,
                0,
                "frame length",
                len.to_string(),
                format!("{framing}: u32 {order} length of the value that follows"),
            );
            if rest - 4 < len {
                return Err(FrameError::Truncated {
                    offset: at,
                    needed: len - (rest - 4),
                });
            }
            (at + 4, at + 4 + len)
        }
    };
    // The value may not read past its frame: the driver reads a view that ends there (its
    // offsets stay those of the whole input).
    let mut d = Decoder::observed(
        &bytes[..end],
        start,
        options.dialect,
        &options.decode,
        &mut *x,
    );
    let read = d.run::<Probe>();
    let used_end = d.pos.min(end);
    if let Err(e) = read {
        x.reset();
        return Err(FrameError::Decode(e));
    }
    if framing == Framing::Bare {
        return Ok(used_end);
    }
    if used_end < end {
        x.line(
            used_end,
            end - used_end,
            0,
            "trailing bytes",
            hex_preview(&bytes[used_end..end]),
            "inside the frame but not part of the value; the engine ignores them",
        );
    }
    Ok(end)
}

impl fmt::Display for Explanation {
    /// The dump: `offset  len  field  value  description`, one field a line, nested values
    /// indented two spaces a level, then the error (if any) at its offset.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_lines(f, &self.lines)?;
        match &self.error {
            None => writeln!(f, "{} value(s), every byte explained", self.values),
            Some(e) => writeln!(f, "{:08x} error: {e}", e.offset()),
        }
    }
}

/// The field lines: `offset  len  field  value  description`, nested ones indented two
/// spaces a level.
fn write_lines(f: &mut fmt::Formatter<'_>, lines: &[Line]) -> fmt::Result {
    let label = |l: &Line| format!("{}{}", "  ".repeat(l.depth), l.field);
    let lw = lines
        .iter()
        .map(|l| label(l).chars().count())
        .max()
        .unwrap_or(5)
        .clamp(5, 36);
    let vw = lines
        .iter()
        .map(|l| l.value.chars().count())
        .max()
        .unwrap_or(5)
        .clamp(5, 44);
    writeln!(f, "{:<8} {:>5}  {:<lw$}  value", "offset", "len", "field")?;
    for l in lines {
        let row = format!(
            "{:08x} {:>5}  {:<lw$}  {:<vw$}  {}",
            l.offset,
            l.len,
            label(l),
            l.value,
            l.description
        );
        writeln!(f, "{}", row.trim_end())?;
    }
    Ok(())
}
