//! The decoder: bytes of any dialect and version to a [`Variant`] (or, through the same
//! driver, a borrowed [`VariantRef`](crate::borrowed::VariantRef)), safe on untrusted input.
//!
//! One driver reads the bytes for every result; what it builds from them is the business of a
//! `Build` implementation (owned values; borrowed values, see `borrowed/`; nothing but
//! dictionary-key fingerprints, `Probe`, for the validating pass of lazy views), so
//! validation, errors and offsets are the same for both by construction. It is iterative
//! (containers are an explicit stack), so no input can overflow the thread stack whatever
//! `max_depth` is; every length is checked against the remaining input before anything is
//! reserved, so a lying count costs nothing; errors carry the absolute offset. Apart from the
//! duplicate-key index of dictionaries with 16 or more entries, and a container stack deeper
//! than 16, it allocates only what the result keeps.
//!
//! Building decodes first try the same reading steps as plain recursion (`quick.rs`), 16
//! levels at most, which hands deeper containers to the driver's loop and gives up on any
//! error, so that the driver judges.
//!
//! `explain` watches this same driver read (an `Observe` implementation; ordinary decoding
//! observes with `()`, which compiles to nothing), so its fields, offsets and errors are the
//! decoder's by construction too.

use crate::dialect::Dialect;
use crate::error::{DecodeError, EngineRefusal};
use crate::generated::kinds::{Feature, FieldName, Kind};
use crate::quirks::{self, FLAG_64};
use crate::variant::key::{self, hash_key_real, hash_variant_key, KeyIndex, INDEX_FROM};
use crate::variant::layout::read_u32;
use crate::variant::layout::FixedLayout;
use crate::variant::math::{FromFixed, FromPackedFixed};
use crate::variant::packed::{PackedElement, PackedRef};
use crate::variant::value::{with_fixed, with_packed};
use crate::variant::*;
use crate::version::Version;
use smallvec::SmallVec;
use std::hash::{BuildHasher, Hash, Hasher};

/// Limits that keep decoding of untrusted bytes bounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting of containers and objects (the engine's `MAX_RECURSION_DEPTH`, 1024).
    /// The decoder is iterative, so any value is safe for the thread stack.
    pub max_depth: usize,
    /// Most elements (array items, dictionary entries, packed-array elements, object
    /// properties) one decode may produce in total.
    pub max_elements: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_depth: 1024,
            max_elements: usize::MAX,
        }
    }
}

/// Options of [`decode`](fn@crate::decode).
///
/// ```
/// use gdvariant::{decode, DecodeOptions, Dialect, Limits, Version};
/// // Bytes from a Godot 3.5 game, from a stranger: objects refused (the default), small limits.
/// let options = DecodeOptions {
///     version: Some(Version::new(3, 5, 0)),
///     limits: Limits { max_depth: 64, max_elements: 100_000 },
///     ..DecodeOptions::default()
/// };
/// let object_by_id = [17, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0]; // OBJECT with FLAG_64: an id
/// assert!(decode(&object_by_id, Dialect::Godot3, &options).is_ok());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct DecodeOptions {
    /// The engine version that wrote the bytes; `None` is the newest of the dialect.
    pub version: Option<Version>,
    /// Accept full objects (`var_to_bytes_with_objects`), decoded as data only. Off by
    /// default, as in the engine: in the engine this can run code.
    pub allow_objects: bool,
    /// Bounds on nesting and size.
    pub limits: Limits,
    /// Keep a leading U+FEFF (byte order mark) of strings. The engines drop it when
    /// decoding (their UTF-8 reader skips a BOM), so by default so do we; set this to keep
    /// every byte, e.g. to re-encode a file exactly.
    pub keep_leading_bom: bool,
    /// The engine's verdict, for bytes from strangers: refuse what the engine of this dialect
    /// and version refuses ([`DecodeError::EngineRefuses`]: with `allow_objects`, a full
    /// object of a class the engine lacks or cannot instantiate, a `script` property that is
    /// not a String path, a bad script path of an object or a script-typed container), and
    /// give the value the engine holds: typed containers as the engine fills them (elements
    /// of the wrong type dropped, ints in a float container made floats, …), an object-typed
    /// container read without objects typed `EncodedObjectAsID`, a 32-bit signalling NaN
    /// quiet, an empty absolute NodePath relative (Godot 3, 4.0–4.2), StringName Dictionary
    /// keys as Strings (4.0–4.3), and typed Dictionaries typed as 4.4–4.7.2 set them (a
    /// script-typed key's script given to the value side). Each rule, with its engine source
    /// and versions, is in `quirks.rs`; docs/engine-rules.md lists them. Off by default:
    /// decoding then reads the bytes as data, exactly as written.
    pub engine_strict: bool,
    /// With `engine_strict`: the script paths that exist in the receiving project
    /// (`res://…`). The engine refuses a script it cannot load; the bytes cannot tell, so
    /// without this list that check is skipped (paths are still checked for `res://` and
    /// `..`).
    pub existing_scripts: Option<std::sync::Arc<std::collections::BTreeSet<String>>>,
}

/// Decodes one value from the start of `bytes`.
///
/// Returns the value and the number of bytes it used; trailing bytes are not an error (the
/// engine ignores them too), so `used` lets a caller walk values laid back to back.
///
/// ```
/// use gdvariant::{decode, Dialect, DecodeOptions, Variant};
/// let bytes = [2, 0, 0, 0, 42, 0, 0, 0];
/// let (value, used) = decode(&bytes, Dialect::Godot4, &DecodeOptions::default())?;
/// assert_eq!((value, used), (Variant::Int(42), 8));
/// # Ok::<(), gdvariant::DecodeError>(())
/// ```
pub fn decode(
    bytes: &[u8],
    dialect: Dialect,
    options: &DecodeOptions,
) -> Result<(Variant, usize), DecodeError> {
    drive(bytes, dialect, options)
}

/// A value decoded, and the bytes it used.
type Decoded = (Variant, usize);

/// The two ways [`decode`] reads, one at a time, for tests and the fuzz target `decode` to
/// check that they agree: the fast path of `quick.rs` (`None` where it gives up or does not
/// apply to `options`), and the driver alone, which judges everything.
#[doc(hidden)]
pub fn decoders_apart(
    bytes: &[u8],
    dialect: Dialect,
    options: &DecodeOptions,
) -> (Option<Decoded>, Result<Decoded, DecodeError>) {
    let mut d = Decoder::new(bytes, 0, dialect, options);
    let quick = d
        .quick_applies::<Variant>()
        .then(|| d.quick::<Variant>(&mut ()).map(|v| (v, d.pos)))
        .flatten();
    let mut d = Decoder::new(bytes, 0, dialect, options);
    let driven = d.run_driver::<Variant>().map(|v| (v, d.pos));
    (quick, driven)
}

/// Runs the one decoder over `bytes`, building a `B`.
pub(crate) fn drive<'a, B: Build<'a>>(
    bytes: &'a [u8],
    dialect: Dialect,
    options: &DecodeOptions,
) -> Result<(B, usize), DecodeError> {
    let mut d = Decoder::new(bytes, 0, dialect, options);
    let v = d.run::<B>()?;
    Ok((v, d.pos))
}

mod build;
mod drive;
mod fill;
mod observe;
mod probe;
mod quick;
mod reader;
mod scan;
mod text_bytes;
mod values;

pub(crate) use build::*;
pub(crate) use fill::*;
pub(crate) use observe::*;
pub(crate) use probe::*;
pub(crate) use reader::*;
pub(crate) use scan::{skip_value, vouch};
pub(crate) use text_bytes::*;
