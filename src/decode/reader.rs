//! The reader: one value at a time from the bytes, every length checked against what is left.

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

    /// The driver (after the fast path of `quick.rs`, where it applies): reads the root, then
    /// fills the innermost open container until it is full (and hands it to its parent) or
    /// until one of its elements opens a container of its own.
    pub(crate) fn run<B: Build<'a>>(&mut self) -> Result<B, DecodeError> {
        if self.quick_applies::<B>() {
            let saved = (self.pos, self.elements, self.unpromised, self.replaced);
            let mut scratch = Scratch::<'a, B>::default();
            if let Some(v) = self.quick::<B>(&mut scratch) {
                return Ok(v);
            }
            // Given up: the driver reads it all again, from the same state.
            (self.pos, self.elements, self.unpromised, self.replaced) = saved;
        }
        self.run_driver()
    }

    /// [`Decoder::run`] by the driver alone.
    pub(crate) fn run_driver<B: Build<'a>>(&mut self) -> Result<B, DecodeError> {
        let mut root = None;
        match self.one::<B>(|v| root = Some(v))? {
            Some(frame) => self.finish(frame),
            None => Ok(root.expect("a leaf was put")),
        }
    }

    /// [`Decoder::run`] from a container that is open (its header and count read).
    pub(crate) fn finish<B: Build<'a>>(&mut self, frame: Frame<'a, B>) -> Result<B, DecodeError> {
        self.finish_within(frame, 0, &mut Scratch::<'a, B>::default())
    }

    /// [`Decoder::finish`] of a container that `base` open containers hold (the fast path
    /// hands the driver what nests deeper than it goes).
    pub(crate) fn finish_within<B: Build<'a>>(
        &mut self,
        frame: Frame<'a, B>,
        base: usize,
        scratch: &mut Scratch<'a, B>,
    ) -> Result<B, DecodeError> {
        let mut stack: SmallVec<[Frame<'a, B>; INLINE_DEPTH]> = SmallVec::new();
        stack.push(frame);
        loop {
            let depth = base + stack.len();
            let top = stack.last_mut().expect("the stack is never empty here");
            if let Some(child) = self.fill(top, depth, scratch)? {
                stack.push(child);
                continue;
            }
            let frame = stack.pop().expect("top exists");
            if let Frame::Dict { fill, .. } = &frame {
                self.replaced |= fill.replaced;
                fill.entries.close(scratch);
            }
            let done = close(frame);
            self.obs.end(self.pos);
            if let Some(Frame::Object { script_at, .. }) = stack.last_mut() {
                if let Some(at) = script_at.take() {
                    self.check_script_value(at)?;
                }
            }
            match stack.last_mut() {
                Some(parent) => accept(parent, done, scratch, self.retype),
                None => return Ok(done),
            }
        }
    }

    /// Reads elements of `frame` (at nesting `depth`) until it is full (`None`) or an element
    /// opens a container (returned; a dictionary keeps the key read, an object the name).
    /// Each leaf goes straight to its place (`put`), not back through a returned value: that
    /// keeps it in registers instead of bouncing through the stack.
    #[inline]
    pub(crate) fn fill<B: Build<'a>>(
        &mut self,
        frame: &mut Frame<'a, B>,
        depth: usize,
        scratch: &mut Scratch<'a, B>,
    ) -> Result<Option<Frame<'a, B>>, DecodeError> {
        match frame {
            Frame::Array { items, left, typed } => {
                if let (Some(r), Some(t)) = (self.retype, typed.as_deref()) {
                    while *left > 0 {
                        self.check_depth(depth)?;
                        self.obs.value(self.pos, Slot::Item);
                        if let Some(child) =
                            self.one::<B>(|v| push_typed::<B>(items, &t.element, v, r))?
                        {
                            return Ok(Some(child));
                        }
                        *left -= 1;
                    }
                    return Ok(None);
                }
                while *left > 0 {
                    self.check_depth(depth)?;
                    self.obs.value(self.pos, Slot::Item);
                    if let Some(child) = self.one::<B>(
                        #[inline(always)]
                        |v| keep::<B, _>(items, v),
                    )? {
                        return Ok(Some(child));
                    }
                    *left -= 1;
                }
            }
            Frame::Dict {
                fill,
                left,
                key,
                typed,
            } => {
                let key_type = typed.as_deref().and_then(|t| t.key.as_ref());
                if let Some(r) = self.retype.filter(|r| r.checks_keys(key_type)) {
                    while *left > 0 {
                        if key.is_none() {
                            self.check_depth(depth)?;
                            self.obs.value(self.pos, Slot::Key);
                            if let Some(child) = self.one::<B>(|v| *key = Some(v))? {
                                return Ok(Some(child));
                            }
                        }
                        self.check_depth(depth)?;
                        self.obs.value(self.pos, Slot::Value);
                        if let Some(child) = self.one::<B>(|v| {
                            if let Some(k) = key.take() {
                                insert_typed::<B>(fill, scratch, key_type, k, v, r)
                            }
                        })? {
                            return Ok(Some(child));
                        }
                        *left -= 1;
                    }
                    return Ok(None);
                }
                while *left > 0 {
                    if key.is_none() {
                        self.check_depth(depth)?;
                        self.obs.value(self.pos, Slot::Key);
                        if let Some(child) = self.one::<B>(
                            #[inline(always)]
                            |v| *key = Some(v),
                        )? {
                            return Ok(Some(child));
                        }
                    }
                    self.check_depth(depth)?;
                    self.obs.value(self.pos, Slot::Value);
                    // A value that opens a container leaves the key pending in the frame.
                    if let Some(child) = self.one::<B>(
                        // Inlined, so that the value goes from registers to its place.
                        #[inline(always)]
                        |v| {
                            if let Some(k) = key.take() {
                                fill.insert(scratch, k, v)
                            }
                        },
                    )? {
                        return Ok(Some(child));
                    }
                    *left -= 1;
                }
            }
            Frame::Object {
                props,
                left,
                name,
                script_at,
                ..
            } => {
                while *left > 0 {
                    // The name is read before the depth is checked, as the engine does.
                    let mut is_script = false;
                    if name.is_none() {
                        let at = self.pos;
                        let text = self.str_text()?;
                        is_script = self.checks
                            && quirks::checks_script_property(self.dialect)
                            && text == "script";
                        *name = Some(B::text(text));
                        self.obs.text(at, self.pos, Text::PropertyName);
                    }
                    self.check_depth(depth)?;
                    self.obs.value(self.pos, Slot::Property);
                    if is_script {
                        // Checked once the value is read whole, as the engine does.
                        *script_at = Some(self.pos);
                    }
                    if let Some(child) = self.one::<B>(
                        #[inline(always)]
                        |v| {
                            if let Some(n) = name.take() {
                                keep::<B, _>(props, (n, v))
                            }
                        },
                    )? {
                        return Ok(Some(child));
                    }
                    if let Some(at) = script_at.take() {
                        self.check_script_value(at)?;
                    }
                    *left -= 1;
                }
            }
        }
        Ok(None)
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
            return Ok(quirks::engine_float32(bits));
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

    /// Reads one header and, for a leaf, the whole value, which goes to `put`; a container
    /// comes back opened. The common leaf types are read here, inline in the driver's loop;
    /// the rest (and containers) in [`Decoder::other`], which keeps this function small.
    // Inlined in optimised builds only: in a debug build each of the fast path's six calls
    // would put all of this function's temporaries in its recursive frame (30 KiB a level).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn one<B: Build<'a>>(
        &mut self,
        put: impl FnOnce(B),
    ) -> Result<Option<Frame<'a, B>>, DecodeError> {
        let at = self.pos;
        let header = self.u32()?;
        let tag = header & quirks::TYPE_MASK;
        let Some(kind) = self.kind_of(tag) else {
            return Err(self.unknown_type(at, tag));
        };
        self.obs.header(at, header, kind);
        let flag = header & FLAG_64 != 0;
        let s = match kind {
            Kind::Nil => Scalar::Nil,
            Kind::Bool => Scalar::Bool(self.u32()? != 0),
            Kind::Int => Scalar::Int(self.int_payload(flag)?),
            Kind::Float => Scalar::Float(self.float_payload(flag)?),
            Kind::String => {
                let text_at = self.pos;
                let text = self.str_text()?;
                self.obs.text(text_at, self.pos, Text::Plain);
                put(B::string(text));
                self.obs.end(self.pos);
                return Ok(None);
            }
            // The commonest math value, read here rather than through `fixed_value`'s match
            // on the kind (its call and returned `Result` cost W4 about 30 of its 57).
            Kind::Vector2 => {
                let v = self.vector2_payload(flag)?;
                put(B::from(v));
                self.obs.end(self.pos);
                return Ok(None);
            }
            // Math values (a Vector2 in every game state): straight to their layout.
            k if k.is_fixed() => {
                let wide = flag && self.dialect.flag64_reals(self.version, k);
                put(self.fixed_value::<B>(k, wide, header)?);
                self.obs.end(self.pos);
                return Ok(None);
            }
            _ => {
                return match self.other(at, header, kind)? {
                    Step::Value(v) => {
                        put(v);
                        self.obs.end(self.pos);
                        Ok(None)
                    }
                    Step::Open(frame) => Ok(Some(frame)),
                }
            }
        };
        put(B::scalar(s));
        self.obs.end(self.pos);
        Ok(None)
    }

    /// [`Decoder::one`] for the other types, after the header.
    #[inline(never)]
    pub(crate) fn other<B: Build<'a>>(
        &mut self,
        at: usize,
        header: u32,
        kind: Kind,
    ) -> Result<Step<'a, B>, DecodeError> {
        let tag = header & quirks::TYPE_MASK;
        let (dialect, version) = (self.dialect, self.version);
        let flag = header & FLAG_64 != 0;
        let wide = flag && dialect.flag64_reals(version, kind);
        // Packed arrays of fixed layouts: one generic read each (the spec's kinds).
        let packed = with_packed!(kind, T => Some(self.packed::<B, T>(wide)?), _ => None);
        if let Some(v) = packed {
            return Ok(Step::Value(v));
        }
        let s = match kind {
            Kind::StringName => {
                let text_at = self.pos;
                let text = self.str_text()?;
                self.obs.text(text_at, self.pos, Text::Plain);
                return Ok(Step::Value(B::string_name(text)));
            }
            Kind::NodePath => return Ok(Step::Value(self.node_path::<B>()?)),
            Kind::Rid => {
                if dialect.has_feature(version, Feature::RidPayload) {
                    Scalar::Rid(self.u64()?)
                } else {
                    Scalar::Rid(0)
                }
            }
            Kind::Object => return self.object(at, header & quirks::OBJECT_AS_ID != 0),
            Kind::Callable => Scalar::Callable,
            Kind::Signal => {
                let name_at = self.pos;
                let name = self.string::<B>()?;
                self.obs
                    .text(name_at, self.pos, Text::Field(FieldName::Name));
                let object_at = self.pos;
                let object = self.u64()?;
                self.obs.field(object_at, 8, FieldName::ObjectId);
                return Ok(Step::Value(B::signal(name, object)));
            }
            Kind::Dictionary => {
                // No container-kind bits means no type data, whatever the version says.
                let kinds = header & (quirks::TYPED_KEY | quirks::TYPED_VALUE);
                let typed = if kinds != 0 && dialect.has_feature(version, Feature::TypedDictionary)
                {
                    let key = quirks::container_kind(header, quirks::TYPED_KEY);
                    let mut key = self.element_type(key, FieldName::KeyType)?;
                    let value = quirks::container_kind(header, quirks::TYPED_VALUE);
                    let mut value = self.element_type(value, FieldName::ValueType)?;
                    if self.options.engine_strict {
                        (key, value) = quirks::engine_dictionary_types(
                            dialect,
                            version,
                            self.options.allow_objects,
                            key,
                            value,
                        );
                    }
                    (key.is_some() || value.is_some())
                        .then(|| Box::new(DictionaryType { key, value }))
                } else {
                    None
                };
                let (left, cap) = self.count(8, FieldName::Count)?;
                return Ok(Step::Open(Frame::Dict {
                    fill: DictFill::with_capacity(
                        cap,
                        !self
                            .dialect
                            .has_feature(self.version, Feature::DictionaryKeysByValue),
                    ),
                    left,
                    key: None,
                    typed,
                }));
            }
            Kind::Array => {
                let typed = if quirks::container_kind(header, quirks::TYPED_ARRAY) != 0
                    && dialect.has_feature(version, Feature::TypedArray)
                {
                    let kind = quirks::container_kind(header, quirks::TYPED_ARRAY);
                    self.element_type(kind, FieldName::ElementType)?
                        .map(|element| {
                            Box::new(ArrayType {
                                element,
                                pandemonium_packed: false,
                            })
                        })
                } else {
                    None
                };
                let (left, cap) = self.count(4, FieldName::Count)?;
                return Ok(Step::Open(Frame::Array {
                    items: vec_for::<B, _>(cap),
                    left,
                    typed,
                }));
            }
            Kind::TypedArray | Kind::PackedTypedArray => {
                return self.pandemonium_typed_array(kind, flag)
            }
            Kind::PackedByteArray => {
                let at = self.pos;
                let raw = self.u32()?;
                let n = raw as i32;
                if n < 0 || n as usize > self.remaining() {
                    return Err(self.out_of_bounds(at, raw));
                }
                let n = n as usize;
                self.count_elements(at, n)?;
                self.obs.field(at, 4, FieldName::Count);
                self.obs.field(self.pos, n, FieldName::Data);
                let buf: &'a [u8] = self.buf;
                let v = &buf[self.pos..self.pos + n];
                // The padding is counted but need not be present (decode_variant checks only
                // `count <= len`), so `used` stops at the end of the input.
                self.pos = (self.pos + n + quirks::pad4(n)).min(self.buf.len());
                return Ok(Step::Value(B::byte_array(v)));
            }
            Kind::PackedInt32Array => return Ok(Step::Value(self.packed::<B, i32>(wide)?)),
            Kind::PackedInt64Array => return Ok(Step::Value(self.packed::<B, i64>(wide)?)),
            Kind::PackedFloat32Array => return Ok(Step::Value(self.packed::<B, f32>(wide)?)),
            Kind::PackedFloat64Array => return Ok(Step::Value(self.packed::<B, f64>(wide)?)),
            Kind::PackedStringArray => {
                let at = self.pos;
                let n = self.u32()? as i32;
                // A negative count is an empty array, not an error (the decoder never checks it).
                let n = n.max(0) as usize;
                self.count_elements(at, n)?;
                self.obs.field(at, 4, FieldName::Count);
                let cap = self.reserve(n, 4);
                let v = self.strings::<B>(n, cap, Text::Item)?;
                return Ok(Step::Value(B::string_array(v)));
            }
            // Nil, Bool, Int, Float, String and Vector2 are read in `one`; nothing else is left.
            _ => {
                return Err(DecodeError::UnknownType {
                    offset: at,
                    tag,
                    dialect,
                    version,
                })
            }
        };
        Ok(Step::Value(B::scalar(s)))
    }
}

/// [`Decoder::plain_text`] of the string at the start of `rest`: the text, and the bytes it
/// takes (length, text, padding). Apart so that a caller holding the input from the string
/// on (`string_key`, after its header) does not look up its position again.
#[inline(always)]
pub(crate) fn plain_text_in(rest: &[u8]) -> Option<(&str, usize)> {
    let (head, rest) = rest.split_first_chunk::<4>()?;
    let n = u32::from_le_bytes(*head);
    if n > i32::MAX as u32 {
        return None;
    }
    // The length and its padding to 4, which cannot overflow below 2^31 (no overflow
    // check, which took a dozen instructions of every string).
    let n = n as usize;
    let padded = rest.get(..n + quirks::pad4(n))?;
    if !ascii_without_nul(padded, n) {
        return None;
    }
    // SAFETY: every byte is in 0x01..=0x7F, and ASCII is valid UTF-8.
    let text = unsafe { std::str::from_utf8_unchecked(&padded[..n]) };
    Some((text, 4 + padded.len()))
}

/// Fingerprint mixing: FxHash's multiplier (its high bits mix best; the scan's `seen` bits
/// take the top six).
pub(crate) const K: u64 = 0xf135_7aea_2e62_a9c5;

#[inline(always)]
pub(crate) fn mix(h: u64, x: u64) -> u64 {
    (h.rotate_left(26) ^ x).wrapping_mul(K)
}

/// Whether the `n` bytes at `start` of `buf` (a string; the caller has checked they are in
/// the input) are ASCII without NUL (which the engine's reading leaves as it is), and, when `key`, their
/// fingerprint (else 0). Eight bytes at a time: the bytes after the string, where the input
/// has them, are read too but masked off, so a short key costs one load.
#[inline(always)]
pub(crate) fn plain_ascii(buf: &[u8], start: usize, n: usize, key: bool) -> (bool, u64) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let word = |at: usize| {
        let b: [u8; 8] = buf[at..at + 8].try_into().expect("eight bytes");
        u64::from_le_bytes(b)
    };
    let mut flags = 0u64;
    let mut h = n as u64;
    let full = n / 8;
    for i in 0..full {
        let x = word(start + 8 * i);
        flags |= (x.wrapping_sub(ONES) | x) & HIGH;
        if key {
            h = mix(h, x);
        }
    }
    let rem = n % 8;
    if rem != 0 {
        let at = start + 8 * full;
        let x = if at + 8 <= buf.len() {
            word(at)
        } else {
            last_word(&buf[at..at + rem])
        };
        // The bytes past the string: zero for the hash, 0x01 for the check.
        let keep = u64::MAX >> (8 * (8 - rem));
        let x = x & keep;
        let y = x | (ONES & !keep);
        flags |= (y.wrapping_sub(ONES) | y) & HIGH;
        if key {
            h = mix(h, x);
        }
    }
    (flags == 0, if key { h.wrapping_mul(K) } else { 0 })
}

/// Up to eight bytes as a little-endian word, zero above (the end of the input).
#[cold]
pub(crate) fn last_word(b: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w[..b.len()].copy_from_slice(b);
    u64::from_le_bytes(w)
}

/// Whether the first `n` bytes of `padded` (a string and its padding to 4) are all in
/// `0x01..=0x7F`. Four bytes at a time, padding included but forced to `0x01`: `x - 0x01…01`
/// sets a byte's top bit when the lowest zero byte borrows, and `x` sets it for bytes >= 0x80;
/// a borrow can also flag a later byte, which only sends the string down the careful path.
#[inline(always)]
pub(crate) fn ascii_without_nul(padded: &[u8], n: usize) -> bool {
    const ONES: u32 = 0x0101_0101;
    const HIGH: u32 = 0x8080_8080;
    let check = |x: u32| (x.wrapping_sub(ONES) | x) & HIGH;
    // The last word apart (it holds the padding), the others by `chunks_exact`, which needs
    // no bound check per word: a short key is one word and no loop.
    let Some((body, last)) = padded.split_last_chunk::<4>() else {
        return true;
    };
    let mut flags = 0u32;
    for w in body.chunks_exact(4) {
        flags |= check(u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
    }
    // The top `pad` bytes of the last word are padding, read as 0x01.
    let pad = padded.len() - n;
    debug_assert!(
        pad < 4 && padded.len().is_multiple_of(4),
        "`padded` is the text and its padding"
    );
    let keep = u32::MAX >> (8 * pad);
    flags |= check((u32::from_le_bytes(*last) & keep) | (ONES & !keep));
    flags == 0
}
