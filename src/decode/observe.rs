//! What the driver reports as it reads, for `explain`.
//!
//! Ordinary decoding observes with `()`, whose methods are empty and inlined away, so it pays
//! nothing.

use crate::generated::kinds::FieldName;

/// Where the value the driver is about to read goes in the value that holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// An element of an Array (or of a Pandemonium typed array).
    Item,
    /// A Dictionary entry's key.
    Key,
    /// A Dictionary entry's value.
    Value,
    /// A full Object's property value (its name was a [`Text::PropertyName`]).
    Property,
    /// The class name (a whole StringName value) of a Pandemonium typed array of objects.
    ClassName,
}

/// Which string the driver read: the field it is, for the strings of a value's own layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Text {
    /// A String or StringName value's text.
    Plain,
    /// The string field `FieldName` of the value (an Object's `class_name`, a Signal's
    /// `name`), or the class or script of a typed container's `key_type`, `value_type` or
    /// `element_type`.
    Field(FieldName),
    /// NodePath name `i`.
    Name(usize),
    /// NodePath subname `i`.
    Subname(usize),
    /// PackedStringArray element `i`.
    Item(usize),
    /// The name of a full Object's next property.
    PropertyName,
}

/// What the driver tells as it reads, in byte order. Every method is called once the decoder
/// has accepted what it reports, so an observer sees exactly the input the decoder accepted,
/// up to the byte where it stops with an error. Defaults do nothing (`()` is the ordinary
/// decode's observer).
pub(crate) trait Observe {
    /// Whether the observer wants the engine's refusals as notes ([`Observe::refusal`]) when
    /// decoding does not refuse them itself: the decoder then runs those checks (`explain`).
    const NOTES: bool = false;
    /// Whether anything is watched at all: only the ordinary decode's `()` says no, which lets
    /// the decoder take its unwatched fast path (`decode/quick.rs`).
    const WATCHES: bool = true;
    /// The engine would refuse what was read at `at` (only called when [`Observe::NOTES`]).
    #[inline(always)]
    fn refusal(&mut self, at: usize, refusal: &crate::error::EngineRefusal) {
        let _ = (at, refusal);
    }
    /// The next value, at `at`, goes into the innermost value being read as `slot`.
    #[inline(always)]
    fn value(&mut self, at: usize, slot: Slot) {
        let _ = (at, slot);
    }
    /// A value starts: its header at `at` names `kind`.
    #[inline(always)]
    fn header(&mut self, at: usize, header: u32, kind: crate::generated::kinds::Kind) {
        let _ = (at, header, kind);
    }
    /// A field of the value being read: `len` bytes at `at`, the spec's field `id`.
    #[inline(always)]
    fn field(&mut self, at: usize, len: usize, id: FieldName) {
        let _ = (at, len, id);
    }
    /// A string of the value being read, from its length at `at` to the end of its padding.
    #[inline(always)]
    fn text(&mut self, at: usize, end: usize, text: Text) {
        let _ = (at, end, text);
    }
    /// The innermost value being read (a leaf or a container) ends at `end`.
    #[inline(always)]
    fn end(&mut self, end: usize) {
        let _ = end;
    }
}

/// The ordinary decode: nothing observed.
impl Observe for () {
    const WATCHES: bool = false;
}

impl<T: Observe> Observe for &mut T {
    const NOTES: bool = T::NOTES;
    const WATCHES: bool = T::WATCHES;
    #[inline(always)]
    fn refusal(&mut self, at: usize, refusal: &crate::error::EngineRefusal) {
        (**self).refusal(at, refusal)
    }
    #[inline(always)]
    fn value(&mut self, at: usize, slot: Slot) {
        (**self).value(at, slot)
    }
    #[inline(always)]
    fn header(&mut self, at: usize, header: u32, kind: crate::generated::kinds::Kind) {
        (**self).header(at, header, kind)
    }
    #[inline(always)]
    fn field(&mut self, at: usize, len: usize, id: FieldName) {
        (**self).field(at, len, id)
    }
    #[inline(always)]
    fn text(&mut self, at: usize, end: usize, text: Text) {
        (**self).text(at, end, text)
    }
    #[inline(always)]
    fn end(&mut self, end: usize) {
        (**self).end(end)
    }
}
