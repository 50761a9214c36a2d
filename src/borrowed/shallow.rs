//! Reading validated bytes again, lazily, for the borrowed views: one value's header, or a
//! container opened at its first element.

use crate::decode::DecodeOptions;
use crate::decode::*;
use crate::dialect::Dialect;
use crate::error::DecodeError;
use crate::generated::kinds::Kind;
use crate::quirks;
use crate::variant::layout::read_u32;
use crate::variant::*;
use crate::version::Version;

/// What lazy borrowed values need to read their elements later: how the bytes were read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ctx {
    pub dialect: Dialect,
    pub version: Version,
    pub keep_leading_bom: bool,
    pub allow_objects: bool,
}

impl Ctx {
    pub(crate) fn new(dialect: Dialect, options: &DecodeOptions) -> Ctx {
        Ctx {
            dialect,
            version: options.version.unwrap_or_else(|| dialect.newest()),
            keep_leading_bom: options.keep_leading_bom,
            allow_objects: options.allow_objects,
        }
    }

    /// Options that read validated bytes as they were read the first time. The limits are
    /// lifted: the whole value passed them, and any part of it is smaller and shallower.
    pub(crate) fn options(&self) -> DecodeOptions {
        DecodeOptions {
            version: Some(self.version),
            allow_objects: self.allow_objects,
            limits: Limits {
                max_depth: usize::MAX,
                max_elements: usize::MAX,
            },
            keep_leading_bom: self.keep_leading_bom,
            // Lazy views are never made in engine mode (see `decode_borrowed`).
            ..DecodeOptions::default()
        }
    }
}

/// The validating pass of lazy borrowed decoding: every check of [`decode`], nothing built.
/// Gives `used`, and whether some dictionary repeated a key (lazy views read entries as
/// they lie, so such input is built eagerly instead).
pub(crate) fn validate(
    bytes: &[u8],
    dialect: Dialect,
    options: &DecodeOptions,
) -> Result<(usize, bool), DecodeError> {
    // The fast scan vouches for the input games send; anything else (errors included) is
    // judged by the driver, so the verdict is the driver's either way.
    if let Some(used) = vouch(bytes, dialect, options) {
        debug_assert_eq!(
            validate_fully(bytes, dialect, options),
            Ok((used, false)),
            "the scan vouched for input the driver judges otherwise"
        );
        return Ok((used, false));
    }
    validate_fully(bytes, dialect, options)
}

/// [`validate`] by the driver alone.
fn validate_fully(
    bytes: &[u8],
    dialect: Dialect,
    options: &DecodeOptions,
) -> Result<(usize, bool), DecodeError> {
    let mut d = Decoder::new(bytes, 0, dialect, options);
    d.run::<Probe>()?;
    Ok((d.pos, d.replaced))
}

/// Whether the value at the start of `bytes` is an `Array` or a `Dictionary` (which lazy
/// borrowed decoding leaves unread), judged by its header alone.
#[inline]
pub(crate) fn is_container(bytes: &[u8], ctx: &Ctx) -> bool {
    let Some(head) = bytes.get(..4) else {
        return false;
    };
    matches!(
        ctx.dialect
            .kind_of(ctx.version, read_u32(head, 0) & quirks::TYPE_MASK),
        Some(Kind::Array | Kind::Dictionary | Kind::TypedArray | Kind::PackedTypedArray)
    )
}

/// One value of validated bytes, read lazily: an `Array` or `Dictionary` only opened (its
/// elements start at `first`), anything else in full.
pub(crate) enum Shallow<'a> {
    Value(crate::borrowed::VariantRef<'a>),
    Array {
        typed: Option<Box<ArrayType>>,
        len: u32,
        first: usize,
    },
    Dictionary {
        typed: Option<Box<DictionaryType>>,
        len: u32,
        first: usize,
    },
}

/// Reads the value at `pos` of bytes that [`validate`] accepted with the same `ctx`, and
/// where the next value starts (after a container's last element when `skip`, else at its
/// first element). Errors cannot happen on such bytes; they are passed on, not hidden.
#[inline(always)]
pub(crate) fn read_shallow<'a>(
    buf: &'a [u8],
    pos: usize,
    ctx: &Ctx,
    skip: bool,
) -> Result<(Shallow<'a>, usize), DecodeError> {
    if is_container(&buf[pos.min(buf.len())..], ctx) {
        return open_container(buf, pos, ctx, skip);
    }
    // A leaf (or an object, read in full): inline, so that the value reaches the caller's
    // iterator without being copied through the layers in between.
    let options = ctx.options();
    let mut d = Decoder::new(buf, pos, ctx.dialect, &options);
    let mut leaf = None;
    let v = match (
        d.one::<crate::borrowed::VariantRef<'a>>(|v| leaf = Some(v))?,
        leaf,
    ) {
        (None, Some(v)) => v,
        (Some(object), _) => d.finish(object)?,
        // `one` puts every value it does not open; should it not, read it the long way.
        (None, None) => {
            d.pos = pos;
            d.run()?
        }
    };
    Ok((Shallow::Value(v), d.pos))
}

/// [`read_shallow`] of an `Array` or `Dictionary`.
#[inline(never)]
pub(crate) fn open_container<'a>(
    buf: &'a [u8],
    pos: usize,
    ctx: &Ctx,
    skip: bool,
) -> Result<(Shallow<'a>, usize), DecodeError> {
    let options = ctx.options();
    let mut d = Decoder::new(buf, pos, ctx.dialect, &options);
    if let Some(mut frame) = d.one::<Probe>(|_| {})? {
        let first = d.pos;
        let shallow = match &mut frame {
            Frame::Array { typed, left, .. } => Some(Shallow::Array {
                typed: typed.take(),
                len: *left,
                first,
            }),
            Frame::Dict { typed, left, .. } => Some(Shallow::Dictionary {
                typed: typed.take(),
                len: *left,
                first,
            }),
            // Only objects open object frames; read in full below.
            Frame::Object { .. } => None,
        };
        if let Some(shallow) = shallow {
            if !skip {
                return Ok((shallow, first));
            }
            // Over validated bytes, by the fast scan where it reads them.
            let end = match skip_value(buf, pos, ctx.dialect, ctx.version, ctx.keep_leading_bom) {
                Some(end) => end,
                None => {
                    d.finish(frame)?;
                    d.pos
                }
            };
            return Ok((shallow, end));
        }
    }
    d.pos = pos;
    let v = d.run::<crate::borrowed::VariantRef<'a>>()?;
    Ok((Shallow::Value(v), d.pos))
}

/// The owned value at `pos` of bytes that [`validate`] accepted with the same `ctx`.
pub(crate) fn decode_at(buf: &[u8], pos: usize, ctx: &Ctx) -> Result<Variant, DecodeError> {
    let options = ctx.options();
    Decoder::new(buf, pos, ctx.dialect, &options).run::<Variant>()
}
