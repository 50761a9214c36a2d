//! The one-call typed API: `to_vec`, `from_slice`, `to_writer` and `from_reader` for any `ToVariant` / `FromVariant` type, with one `Format`, and their one error type.

use crate::convert::{FromVariant, FromVariantError, ToVariant};
use crate::error::{DecodeError, EncodeError};
use crate::format::Format;
use crate::framing::{self, FrameError, Framing, WriteError};
use crate::variant::Variant;
use std::io::{Read, Write};

/// Why a typed read or write failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The bytes do not hold a value (with the byte offset).
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// The frame around the value is broken, or reading failed.
    #[error(transparent)]
    Frame(FrameError),
    /// The value cannot be written for the format's engine.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// The value read is not the Rust type asked for (with the path inside it).
    #[error(transparent)]
    Convert(#[from] FromVariantError),
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// A serde type could not go to or come from a `Variant` (feature `serde`).
    #[cfg(feature = "serde")]
    #[error(transparent)]
    Serde(crate::error::SerdeError),
    /// The bytes hold more than one value: `used` of `len` bytes made the value. Use
    /// [`from_slice_partial`] to read values laid back to back.
    #[error("trailing bytes: the value ends at offset {used:#x} of {len} bytes")]
    TrailingBytes {
        /// Bytes the value used.
        used: usize,
        /// Bytes given.
        len: usize,
    },
}

impl From<FrameError> for Error {
    fn from(e: FrameError) -> Error {
        match e {
            FrameError::Decode(d) => Error::Decode(d),
            other => Error::Frame(other),
        }
    }
}

#[cfg(feature = "serde")]
impl From<crate::error::SerdeError> for Error {
    fn from(e: crate::error::SerdeError) -> Error {
        match e {
            crate::error::SerdeError::Decode(d) => Error::Decode(d),
            crate::error::SerdeError::Encode(e) => Error::Encode(e),
            other => Error::Serde(other),
        }
    }
}

impl From<WriteError> for Error {
    fn from(e: WriteError) -> Error {
        match e {
            WriteError::Encode(e) => Error::Encode(e),
            WriteError::Io(e) => Error::Io(e),
        }
    }
}

/// The bytes of `value` in `format`, framed.
///
/// ```
/// use gdvariant::{to_vec, Format, Variant};
/// assert_eq!(to_vec(&42i64, &Format::godot4())?, [2, 0, 0, 0, 42, 0, 0, 0]);
/// assert_eq!(to_vec(&Variant::Nil, &Format::godot4())?, [0, 0, 0, 0]);
/// # Ok::<(), gdvariant::Error>(())
/// ```
pub fn to_vec<T: ToVariant + ?Sized>(value: &T, format: &Format) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    framing::frame_into(&mut out, &value.as_variant(), format)?;
    Ok(out)
}

/// Writes `value` in `format`, framed, to `writer` (one `write_all`).
///
/// A `FileAccess.store_var` save file, written and read back:
///
/// ```
/// use gdvariant::framing::Framing;
/// use gdvariant::{from_reader, to_writer, Format, GodotVariant};
///
/// #[derive(GodotVariant, Debug, PartialEq)]
/// struct Save { level: String, coins: i64 }
///
/// let format = Format::godot4().framing(Framing::STORE_VAR);
/// let mut file = Vec::new();
/// to_writer(&mut file, &Save { level: "cave".into(), coins: 7 }, &format)?;
/// let back: Save = from_reader(file.as_slice(), &format)?;
/// assert_eq!(back, Save { level: "cave".into(), coins: 7 });
/// # Ok::<(), gdvariant::Error>(())
/// ```
pub fn to_writer<W: Write, T: ToVariant + ?Sized>(
    mut writer: W,
    value: &T,
    format: &Format,
) -> Result<(), Error> {
    framing::write_frame(&mut writer, &value.as_variant(), format)?;
    Ok(())
}

/// The value of type `T` that `bytes` hold, framed as `format` says. All of `bytes` must be
/// that one value: trailing bytes are an error ([`from_slice_partial`] allows them).
///
/// ```
/// use gdvariant::{from_slice, Format};
/// let n: i64 = from_slice(&[2, 0, 0, 0, 42, 0, 0, 0], &Format::godot4())?;
/// assert_eq!(n, 42);
/// assert!(from_slice::<i64>(&[2, 0, 0, 0, 42, 0, 0, 0, 0], &Format::godot4()).is_err());
/// # Ok::<(), gdvariant::Error>(())
/// ```
pub fn from_slice<T: FromVariant>(bytes: &[u8], format: &Format) -> Result<T, Error> {
    let (value, used) = from_slice_partial(bytes, format)?;
    if used != bytes.len() {
        return Err(Error::TrailingBytes {
            used,
            len: bytes.len(),
        });
    }
    Ok(value)
}

/// The first value of type `T` in `bytes` and the number of bytes it used (its frame
/// included), for values laid back to back (the engine ignores trailing bytes too).
pub fn from_slice_partial<T: FromVariant>(
    bytes: &[u8],
    format: &Format,
) -> Result<(T, usize), Error> {
    let mut frames = framing::frames(bytes, format);
    let value = match frames.next() {
        Some(r) => r?,
        // An empty input: the decoder says why (a header needs 4 bytes).
        None => crate::decode(bytes, format.dialect, &format.decode)?.0,
    };
    Ok((T::from_variant(&value)?, frames.offset()))
}

/// The next value of type `T` from `reader`, framed as `format` says. With a length prefix
/// only that frame is read (call again for the next one); bare values are read to the end of
/// the input, which must hold exactly one value.
pub fn from_reader<R: Read, T: FromVariant>(mut reader: R, format: &Format) -> Result<T, Error> {
    if format.framing == Framing::Bare {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes)?;
        return from_slice(&bytes, format);
    }
    let mut frames = framing::FrameReader::new(reader, format);
    let value: Variant = match frames.next() {
        Some(r) => r?,
        None => {
            return Err(Error::Frame(FrameError::Truncated {
                offset: 0,
                needed: format.framing.prefix_len().max(4),
            }))
        }
    };
    Ok(T::from_variant(&value)?)
}
