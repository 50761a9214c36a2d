//! The reader's state and its primitive reads (words, text, counts, type data), every length checked.

use super::*;

pub(crate) struct Decoder<'a, 'o, O: Observe = ()> {
    pub(crate) buf: &'a [u8],
    pub(crate) pos: usize,
    pub(crate) dialect: Dialect,
    pub(crate) version: Version,
    pub(crate) options: &'o DecodeOptions,
    pub(crate) elements: usize,
    /// Whether some dictionary had a repeated key (see [`DictFill::replaced`]).
    pub(crate) replaced: bool,
    /// Input bytes not yet promised to the elements of a container whose room was reserved.
    /// Every element takes at least `min_size` bytes of its own, so real input never needs
    /// more than its length in promised bytes; lying counts nested inside one another cannot
    /// make the reservations add up to more than that (a multiple of the input, not a power).
    pub(crate) unpromised: usize,
    /// Who watches the read (`explain`); `()` for ordinary decoding.
    pub(crate) obs: O,
    /// Whether to run the engine-verdict checks (engine mode, or an observer taking notes);
    /// ordinary decoding never looks at the class lists.
    pub(crate) checks: bool,
    /// Engine mode's typed-container rule, where it applies (Godot 4).
    pub(crate) retype: Option<Retype>,
    /// The kind of each type id at this version (the generated table), so that the header of
    /// each value is one load.
    pub(crate) kinds: &'static KindTable,
}

/// Type ids with a slot in a [`KindTable`]: every id a header's type byte
/// (`quirks::TYPE_MASK`) can hold, so that the lookup of each header needs no bound check.
pub(crate) const KIND_IDS: usize = quirks::TYPE_MASK as usize + 1;

/// The kind of each type id below [`KIND_IDS`], for one dialect and version (generated from
/// the spec, one static per era: `Dialect::kind_table`).
pub(crate) type KindTable = [Option<Kind>; KIND_IDS];

/// A table of each dialect, for its newest version.
pub(crate) type PerDialect<T> = [std::sync::OnceLock<T>; 3];

/// `dialect`'s table in `tables`, made by `make` the first time, when `version` is the
/// dialect's newest (what decoding without a version asks for), so that a small input does
/// not pay for working out each slot it uses; `None` for other versions, which work them out
/// as they go.
#[inline]
pub(crate) fn once_per_dialect<T>(
    tables: &'static PerDialect<T>,
    dialect: Dialect,
    version: Version,
    make: fn(Dialect) -> T,
) -> Option<&'static T> {
    if version != dialect.newest() {
        return None;
    }
    let table = &tables[match dialect {
        Dialect::Godot3 => 0,
        Dialect::Godot4 => 1,
        Dialect::Pandemonium => 2,
    }];
    // Made once: the making stays out of line, so that the common case is a load and a test.
    #[cold]
    fn made<T>(
        table: &'static std::sync::OnceLock<T>,
        dialect: Dialect,
        make: fn(Dialect) -> T,
    ) -> &'static T {
        table.get_or_init(|| make(dialect))
    }
    Some(match table.get() {
        Some(t) => t,
        None => made(table, dialect, make),
    })
}

/// What [`Decoder::other`] read: a finished value or an opened container.
pub(crate) enum Step<'a, B: Build<'a>> {
    Value(B),
    Open(Frame<'a, B>),
}

impl<'a, 'o> Decoder<'a, 'o> {
    pub(crate) fn new(
        buf: &'a [u8],
        pos: usize,
        dialect: Dialect,
        options: &'o DecodeOptions,
    ) -> Decoder<'a, 'o> {
        Decoder::observed(buf, pos, dialect, options, ())
    }
}

impl<'a, 'o, O: Observe> Decoder<'a, 'o, O> {
    /// [`Decoder::new`], telling `obs` what it reads.
    pub(crate) fn observed(
        buf: &'a [u8],
        pos: usize,
        dialect: Dialect,
        options: &'o DecodeOptions,
        obs: O,
    ) -> Decoder<'a, 'o, O> {
        let version = options.version.unwrap_or_else(|| dialect.newest());
        Decoder {
            buf,
            pos,
            dialect,
            version,
            options,
            elements: 0,
            replaced: false,
            unpromised: buf.len(),
            obs,
            checks: options.engine_strict || O::NOTES,
            retype: (options.engine_strict && dialect == Dialect::Godot4).then_some(Retype {
                dialect,
                version,
                allow_objects: options.allow_objects,
                string_name_keys_to_string: quirks::stringname_keys_become_strings(
                    dialect, version,
                ),
            }),
            kinds: dialect.kind_table(version),
        }
    }

    /// An engine refusal of what was read at `at`: the error in engine mode, else a note for
    /// the observer.
    #[cold]
    pub(crate) fn refuse(&mut self, at: usize, refusal: EngineRefusal) -> Result<(), DecodeError> {
        if self.options.engine_strict {
            return Err(DecodeError::EngineRefuses {
                offset: at,
                refusal,
                dialect: self.dialect,
            });
        }
        self.obs.refusal(at, &refusal);
        Ok(())
    }

    /// A script path read at `at` (an object's `script`, a script-typed container's type).
    #[cold]
    pub(crate) fn check_script_path(&mut self, at: usize, path: &str) -> Result<(), DecodeError> {
        let existing = self.options.existing_scripts.as_deref();
        match quirks::script_path_verdict(path, existing) {
            Some(r) => self.refuse(at, r),
            None => Ok(()),
        }
    }

    /// The value of a full object's `script` property, read whole at `at`: Nil, or a String
    /// whose path the engine can load (`quirks::checks_script_property`).
    #[cold]
    pub(crate) fn check_script_value(&mut self, at: usize) -> Result<(), DecodeError> {
        let header = read_u32(self.buf, at);
        match self
            .dialect
            .kind_of(self.version, header & quirks::TYPE_MASK)
        {
            Some(Kind::Nil) => Ok(()),
            Some(Kind::String) => {
                let resume = self.pos;
                self.pos = at + 4;
                let path = self.text();
                self.pos = resume;
                self.check_script_path(at + 4, &path?)
            }
            _ => self.refuse(at, EngineRefusal::ScriptNotString),
        }
    }

    /// The kind of type id `tag` in this dialect and version.
    #[inline(always)]
    pub(crate) fn kind_of(&self, tag: u32) -> Option<Kind> {
        // Every id past the table's (none: the tag is a header's type byte) is unknown.
        self.kinds.get(tag as usize).copied().flatten()
    }

    #[inline]
    pub(crate) fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    #[cold]
    pub(crate) fn eof(&self, needed: usize) -> DecodeError {
        DecodeError::UnexpectedEof {
            offset: self.pos,
            needed: needed - self.remaining(),
            dialect: self.dialect,
        }
    }

    #[inline]
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        let buf: &'a [u8] = self.buf;
        // Two comparisons (the rest, then its first `n`), where slicing `pos..pos + n` makes
        // three (the sum's overflow too): this is every header and number read.
        match buf.get(self.pos..).and_then(|rest| rest.get(..n)) {
            Some(s) => {
                self.pos += n;
                Ok(s)
            }
            None => Err(self.eof(n)),
        }
    }

    #[inline]
    pub(crate) fn u32(&mut self) -> Result<u32, DecodeError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes(b.try_into().unwrap_or_default()))
    }

    #[inline]
    pub(crate) fn u64(&mut self) -> Result<u64, DecodeError> {
        let b = self.take(8)?;
        Ok(u64::from_le_bytes(b.try_into().unwrap_or_default()))
    }

    #[cold]
    pub(crate) fn out_of_bounds(&self, at: usize, len: u32) -> DecodeError {
        DecodeError::LengthOutOfBounds {
            offset: at,
            len,
            remaining: self.buf.len() - (at + 4).min(self.buf.len()),
            dialect: self.dialect,
        }
    }

    #[cold]
    pub(crate) fn string_out_of_bounds(&self, at: usize, len: u32) -> DecodeError {
        let remaining = self.buf.len() - (at + 4).min(self.buf.len());
        DecodeError::StringOutOfBounds {
            offset: at,
            len,
            remaining,
            dialect: self.dialect,
        }
    }

    /// `_decode_string`: i32 length, bytes, padding that must be present. The text borrows
    /// from the input unless the engine's reading changes it (its lenient UTF-8).
    #[inline]
    pub(crate) fn text(&mut self) -> Result<StrRef<'a>, DecodeError> {
        let at = self.pos;
        let len = self.u32()?;
        let n = len as i32;
        if n < 0 {
            return Err(self.string_out_of_bounds(at, len));
        }
        let n = n as usize;
        let total = n + quirks::pad4(n);
        if total > self.remaining() {
            return Err(self.string_out_of_bounds(at, len));
        }
        let start = self.pos;
        let buf: &'a [u8] = self.buf;
        let bytes = &buf[start..start + n];
        self.pos += total;
        // The common case: ASCII without NUL is valid UTF-8 that the engine's reading leaves
        // as it is (no NUL to stop at, no BOM to drop), so it needs no further look.
        if ascii_without_nul(&buf[start..start + total], n) {
            // SAFETY: every byte is in 0x01..=0x7F, and ASCII is valid UTF-8.
            return Ok(StrRef::Borrowed(unsafe {
                std::str::from_utf8_unchecked(bytes)
            }));
        }
        let strict = self.dialect.has_feature(self.version, Feature::StrictUtf8);
        match quirks::engine_string(bytes, self.options.keep_leading_bom, strict) {
            Ok(s) => Ok(s),
            Err(i) => Err(DecodeError::InvalidUtf8 {
                offset: start + i,
                dialect: self.dialect,
            }),
        }
    }

    /// A string as the result holds it. The common case (in bounds, ASCII without NUL) is
    /// [`Decoder::plain_text`], inlined into the reading loop; anything else, errors
    /// included, goes the full way through [`Decoder::text`].
    #[inline(always)]
    pub(crate) fn string<B: Build<'a>>(&mut self) -> Result<B::Str, DecodeError> {
        Ok(B::text(self.str_text()?))
    }

    /// [`Decoder::text`], with the common case first (see [`Decoder::string`]).
    #[inline(always)]
    pub(crate) fn str_text(&mut self) -> Result<StrRef<'a>, DecodeError> {
        match self.plain_text() {
            Some(s) => Ok(StrRef::Borrowed(s)),
            None => self.text(),
        }
    }

    /// The next string if it is in bounds and plain ASCII without NUL (which the engine's
    /// reading leaves as it is); `None`, having read nothing, otherwise. Inlined: its call
    /// cost W4's five strings 77 of 2,509 instructions, and W3 4% of its time.
    #[inline(always)]
    pub(crate) fn plain_text(&mut self) -> Option<&'a str> {
        let buf: &'a [u8] = self.buf;
        let (s, used) = plain_text_in(buf.get(self.pos..)?)?;
        self.pos += used;
        Some(s)
    }

    /// A packed array's element count and the bytes of its elements (`stride` each).
    #[inline]
    pub(crate) fn packed_bytes(&mut self, stride: usize) -> Result<&'a [u8], DecodeError> {
        let at = self.pos;
        let raw = self.u32()?;
        let n = raw as i32;
        if n < 0 {
            return Err(self.out_of_bounds(at, raw));
        }
        let n = n as usize;
        let bytes = n
            .checked_mul(stride)
            .filter(|&b| b <= self.remaining())
            .ok_or_else(|| self.out_of_bounds(at, raw))?;
        self.count_elements(at, n)?;
        self.obs.field(at, 4, FieldName::Count);
        let buf: &'a [u8] = self.buf;
        let s = &buf[self.pos..self.pos + bytes];
        self.pos += bytes;
        Ok(s)
    }

    #[inline]
    pub(crate) fn packed<B: Build<'a> + From<PackedRef<'a, T>>, T: PackedElement>(
        &mut self,
        wide: bool,
    ) -> Result<B, DecodeError> {
        let b = self.packed_bytes(T::size(wide))?;
        Ok(B::from(PackedRef::<T>::new(b, wide)))
    }

    #[inline]
    pub(crate) fn count_elements(&mut self, at: usize, n: usize) -> Result<(), DecodeError> {
        self.elements = self.elements.saturating_add(n);
        if self.elements > self.options.limits.max_elements {
            return Err(DecodeError::TooManyElements {
                offset: at,
                limit: self.options.limits.max_elements,
                dialect: self.dialect,
            });
        }
        Ok(())
    }

    /// A math value of fixed kind `kind` (`wide`: FLAG_64 reals), through its layout.
    #[inline]
    pub(crate) fn fixed_value<B: Build<'a>>(
        &mut self,
        kind: Kind,
        wide: bool,
        header: u32,
    ) -> Result<B, DecodeError> {
        with_fixed!(kind, T => {
            let v = self.fixed(<T as FixedLayout>::size(wide), |b| <T as FixedLayout>::read(b, wide))?;
            Ok(B::from(v))
        }, _ => Err(DecodeError::UnknownType {
            offset: self.pos - 4,
            tag: header & quirks::TYPE_MASK,
            dialect: self.dialect,
            version: self.version,
        }))
    }

    /// The count of an Array/Dictionary/Object (the spec's field `id`); capacity is bounded by
    /// what the input can hold.
    #[inline]
    pub(crate) fn count(
        &mut self,
        min_size: usize,
        id: FieldName,
    ) -> Result<(u32, usize), DecodeError> {
        self.count_as(min_size, id, quirks::container_count)
    }

    /// [`count`](Self::count), the count word read by `read` (the engine's rule for that count).
    #[inline(always)]
    pub(crate) fn count_as(
        &mut self,
        min_size: usize,
        id: FieldName,
        read: fn(u32) -> u32,
    ) -> Result<(u32, usize), DecodeError> {
        let at = self.pos;
        let n = read(self.u32()?);
        self.count_elements(at, n as usize)?;
        self.obs.field(at, 4, id);
        Ok((n, self.reserve(n as usize, min_size)))
    }

    /// How many elements of at least `min_size` bytes to make room for when a container says
    /// it has `n`: no more than the rest of the input, and no more than the input not yet
    /// promised to other containers, can hold.
    // Inlined, so that `min_size` (a constant at each call) makes the division a shift; one
    // division, as `min(a / m, b / m) == min(a, b) / m`.
    #[inline(always)]
    pub(crate) fn reserve(&mut self, n: usize, min_size: usize) -> usize {
        let cap = n.min(self.remaining().min(self.unpromised) / min_size);
        self.unpromised -= cap * min_size;
        cap
    }

    #[inline]
    pub(crate) fn fixed<T>(
        &mut self,
        size: usize,
        f: impl FnOnce(&[u8]) -> T,
    ) -> Result<T, DecodeError> {
        let b = self.take(size)?;
        Ok(f(b))
    }

    /// Typed-container type data for one side (4.3+ Array, 4.4+ Dictionary), the spec's field
    /// `side`.
    pub(crate) fn element_type(
        &mut self,
        container_kind: u32,
        side: FieldName,
    ) -> Result<Option<ElementType>, DecodeError> {
        let at = self.pos;
        let typed = match container_kind {
            quirks::KIND_NONE => return Ok(None),
            quirks::KIND_BUILTIN => {
                let id = self.u32()?;
                match self.dialect.kind_of(self.version, id) {
                    Some(k) => {
                        self.obs.field(at, 4, side);
                        return Ok(quirks::builtin_element(k).map(|t| self.as_engine_types(t)));
                    }
                    None => {
                        return Err(DecodeError::InvalidElementType {
                            offset: at,
                            tag: id,
                            dialect: self.dialect,
                        })
                    }
                }
            }
            quirks::KIND_CLASS_NAME => {
                // Class names and script paths are Godot 4's, whose strings are Unicode.
                let class = self.text()?.into_owned().into_string();
                if self.options.engine_strict {
                    quirks::class_element(class, self.options.allow_objects)
                } else {
                    ElementType::Class(class)
                }
            }
            _ => {
                let path = self.text()?;
                // Without objects the engine does not look at the path (it types the
                // container EncodedObjectAsID).
                if self.checks && self.options.allow_objects {
                    self.check_script_path(at + 4, &path)?;
                }
                ElementType::Script(path.into_owned().into_string())
            }
        };
        self.obs.text(at, self.pos, Text::Field(side));
        Ok(Some(self.as_engine_types(typed)))
    }

    /// An element type as the engine holds it: in engine mode without objects, an object
    /// type is `EncodedObjectAsID` (`quirks::engine_element_without_objects`).
    fn as_engine_types(&self, typed: ElementType) -> ElementType {
        if self.options.engine_strict && !self.options.allow_objects {
            quirks::engine_element_without_objects(typed)
        } else {
            typed
        }
    }

    #[cold]
    pub(crate) fn unknown_type(&self, at: usize, tag: u32) -> DecodeError {
        DecodeError::UnknownType {
            offset: at,
            tag,
            dialect: self.dialect,
            version: self.version,
        }
    }

    /// The engine's "Variant is too deep" before reading a value nested `depth` deep.
    #[inline(always)]
    pub(crate) fn check_depth(&self, depth: usize) -> Result<(), DecodeError> {
        if depth > self.options.limits.max_depth {
            return Err(self.too_deep());
        }
        Ok(())
    }

    #[cold]
    pub(crate) fn too_deep(&self) -> DecodeError {
        DecodeError::TooDeep {
            offset: self.pos,
            limit: self.options.limits.max_depth,
            dialect: self.dialect,
        }
    }

    /// An INT after its header (`wide`: the header's FLAG_64, a 64-bit integer).
    #[inline(always)]
    pub(crate) fn int_payload(&mut self, wide: bool) -> Result<i64, DecodeError> {
        Ok(match wide {
            true => self.u64()? as i64,
            false => self.u32()? as i32 as i64,
        })
    }

    /// A FLOAT after its header (`wide`: the header's FLAG_64, a double). Its bits as sent;
    /// in engine mode a signalling NaN comes out quiet, as in the engine
    /// (`quirks::engine_float32`).
    #[inline(always)]
    pub(crate) fn float_payload(&mut self, wide: bool) -> Result<f64, DecodeError> {
        if wide {
            return Ok(f64::from_bits(self.u64()?));
        }
        let bits = self.u32()?;
        let v = crate::variant::layout::real_from_f32_bits(bits);
        if v.is_nan() && self.options.engine_strict {
            let quiet = quirks::engine_float32(bits);
            return Ok(crate::variant::layout::real_from_f32_bits(quiet));
        }
        Ok(v)
    }

    /// A Vector2 after its header (`flag`: the header's FLAG_64, which makes its reals
    /// doubles only in the versions whose Vector2 has that form).
    #[inline(always)]
    pub(crate) fn vector2_payload(
        &mut self,
        flag: bool,
    ) -> Result<crate::variant::math::Vector2, DecodeError> {
        let wide = flag && self.dialect.flag64_reals(self.version, Kind::Vector2);
        let size = <crate::variant::math::Vector2 as FixedLayout>::size(wide);
        self.fixed(size, |b| {
            <crate::variant::math::Vector2 as FixedLayout>::read(b, wide)
        })
    }
}
