//! The one-call API for serde types: the crate root's `to_vec`, `from_slice`, `to_writer` and `from_reader`, with the same `Format`.

use super::types::Active;
use super::VariantDeserializer;
use crate::format::Format;
use crate::typed::Error;
use crate::variant::Variant;
use std::io::{Read, Write};

/// The bytes of `value` in `format`, framed (see [`crate::to_vec`]).
pub fn to_vec<T: ::serde::Serialize + ?Sized>(
    value: &T,
    format: &Format,
) -> Result<Vec<u8>, Error> {
    crate::to_vec(&super::to_variant(value)?, format)
}

/// Writes `value` in `format`, framed, to `writer` (see [`crate::to_writer`]).
pub fn to_writer<W: Write, T: ::serde::Serialize + ?Sized>(
    writer: W,
    value: &T,
    format: &Format,
) -> Result<(), Error> {
    crate::to_writer(writer, &super::to_variant(value)?, format)
}

/// The `T` that `bytes` hold, framed as `format` says; trailing bytes are an error (see
/// [`crate::from_slice`]).
///
/// ```
/// use gdvariant::Format;
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Hp { hp: i64 }
/// // var_to_bytes({"hp": 90})
/// let bytes = [27, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0, 2, 0, 0, 0, 90, 0, 0, 0];
/// assert_eq!(gdvariant::serde::from_slice::<Hp>(&bytes, &Format::godot4())?, Hp { hp: 90 });
/// # Ok::<(), gdvariant::Error>(())
/// ```
pub fn from_slice<T: ::serde::de::DeserializeOwned>(
    bytes: &[u8],
    format: &Format,
) -> Result<T, Error> {
    read(crate::from_slice(bytes, format)?)
}

/// The first `T` in `bytes` and the bytes it used (see [`crate::from_slice_partial`]).
pub fn from_slice_partial<T: ::serde::de::DeserializeOwned>(
    bytes: &[u8],
    format: &Format,
) -> Result<(T, usize), Error> {
    let (v, used) = crate::from_slice_partial(bytes, format)?;
    Ok((read(v)?, used))
}

/// The next `T` from `reader` (see [`crate::from_reader`]).
pub fn from_reader<R: Read, T: ::serde::de::DeserializeOwned>(
    reader: R,
    format: &Format,
) -> Result<T, Error> {
    read(crate::from_reader(reader, format)?)
}

fn read<T: ::serde::de::DeserializeOwned>(v: Variant) -> Result<T, Error> {
    let _active = Active::enter();
    Ok(T::deserialize(VariantDeserializer::new(v))?)
}
