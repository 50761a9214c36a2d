//! The driver: reads the root, then fills the innermost open container until the value is done.

use super::*;

impl<'a, 'o, O: Observe> Decoder<'a, 'o, O> {
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
