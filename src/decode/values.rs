//! The rarer values the driver reads out of line: NodePath, Object, Pandemonium's typed arrays.

use super::*;

impl<'a, 'o, O: Observe> Decoder<'a, 'o, O> {
    /// `n` strings in a row (room made for `cap`), string `i` reported as `text(i)`.
    #[inline(always)]
    pub(crate) fn strings<B: Build<'a>>(
        &mut self,
        n: usize,
        cap: usize,
        text: fn(usize) -> Text,
    ) -> Result<Vec<B::Str>, DecodeError> {
        let mut v = vec_for::<B, _>(cap);
        for i in 0..n {
            let at = self.pos;
            let s = self.string::<B>()?;
            self.obs.text(at, self.pos, text(i));
            keep::<B, _>(&mut v, s);
        }
        Ok(v)
    }

    pub(crate) fn node_path<B: Build<'a>>(&mut self) -> Result<B, DecodeError> {
        let at = self.pos;
        let first = self.u32()?;
        if first & quirks::NODEPATH_NEW_FORMAT == 0 {
            return Err(DecodeError::OldNodePath {
                offset: at,
                dialect: self.dialect,
            });
        }
        let subname_count = self.u32()?;
        let flags = self.u32()?;
        let (names, subnames) = quirks::nodepath_counts(first, subname_count, flags);
        // Each string needs at least its 4-byte length.
        let total = names + subnames;
        if total > self.remaining() / 4 {
            return Err(self.out_of_bounds(at, first));
        }
        self.count_elements(at, total)?;
        self.obs.field(at, 4, FieldName::NameCount);
        self.obs.field(at + 4, 4, FieldName::SubnameCount);
        self.obs.field(at + 8, 4, FieldName::Flags);
        let name_list = self.strings::<B>(names, names, Text::Name)?;
        let subname_list = self.strings::<B>(subnames, subnames, Text::Subname)?;
        let mut absolute = flags & quirks::NODEPATH_ABSOLUTE != 0;
        if self.options.engine_strict {
            let empty = name_list.is_empty() && subname_list.is_empty();
            absolute =
                quirks::engine_nodepath_absolute(self.dialect, self.version, empty, absolute);
        }
        Ok(B::node_path(name_list, subname_list, absolute))
    }

    pub(crate) fn object<B: Build<'a>>(
        &mut self,
        at: usize,
        as_id: bool,
    ) -> Result<Step<'a, B>, DecodeError> {
        if as_id {
            let id_at = self.pos;
            let id = self.u64()?;
            self.obs.field(id_at, 8, FieldName::InstanceId);
            return Ok(Step::Value(B::scalar(if id == quirks::NULL_OBJECT_ID {
                Scalar::ObjectNull
            } else {
                Scalar::ObjectId(id)
            })));
        }
        // ERR_UNAUTHORIZED is checked before anything of the object is read.
        if !self.options.allow_objects {
            return Err(DecodeError::ObjectNotAllowed {
                offset: at,
                dialect: self.dialect,
            });
        }
        let class_at = self.pos;
        let class = self.text()?;
        self.obs
            .text(class_at, self.pos, Text::Field(FieldName::ClassName));
        if class.is_empty() {
            // The full form of a null object (`quirks::NULL_OBJECT_ID`).
            return Ok(Step::Value(B::scalar(Scalar::ObjectNull)));
        }
        if self.checks {
            if let Some(r) = quirks::class_verdict(self.dialect, self.version, &class) {
                self.refuse(class_at, r)?;
            }
        }
        let (left, cap) = self.count_as(8, FieldName::PropertyCount, quirks::property_count)?;
        Ok(Step::Open(Frame::Object {
            class: B::text(class),
            props: vec_for::<B, _>(cap),
            left,
            name: None,
            script_at: None,
        }))
    }

    /// Pandemonium 5's TYPED_ARRAY / PACKED_TYPED_ARRAY: element type, optional class name
    /// (a whole StringName value), count, elements.
    pub(crate) fn pandemonium_typed_array<B: Build<'a>>(
        &mut self,
        kind: Kind,
        as_id: bool,
    ) -> Result<Step<'a, B>, DecodeError> {
        let at = self.pos;
        let id = self.u32()? & quirks::COUNT_MASK;
        let Some(element_kind) = self.dialect.kind_of(self.version, id) else {
            return Err(DecodeError::InvalidElementType {
                offset: at,
                tag: id,
                dialect: self.dialect,
            });
        };
        self.obs.field(at, 4, FieldName::ElementType);
        let element = if element_kind == Kind::Object && !as_id {
            let h = self.pos;
            let header = self.u32()?;
            if self
                .dialect
                .kind_of(self.version, header & quirks::TYPE_MASK)
                != Some(Kind::StringName)
            {
                return Err(DecodeError::InvalidElementType {
                    offset: h,
                    tag: header & quirks::TYPE_MASK,
                    dialect: self.dialect,
                });
            }
            // The class name is a whole StringName value of its own.
            self.obs.value(h, Slot::ClassName);
            self.obs.header(h, header, Kind::StringName);
            let class = self.text()?.into_owned().into_string();
            self.obs.text(h + 4, self.pos, Text::Plain);
            self.obs.end(self.pos);
            ElementType::Class(class)
        } else {
            ElementType::Builtin(element_kind)
        };
        let (left, cap) = self.count(4, FieldName::Count)?;
        let typed = Some(Box::new(ArrayType {
            element,
            pandemonium_packed: kind == Kind::PackedTypedArray,
        }));
        Ok(Step::Open(Frame::Array {
            items: vec_for::<B, _>(cap),
            left,
            typed,
        }))
    }
}
