//! The parser: the engines' text syntax (`str2var` / `str_to_var`, and values in `.tres`),
//! both spacings, Godot 3 and 4 names, with errors that say where.
//!
//! What it reads follows `VariantParser::get_token` / `parse_value` of Godot 3.x
//! (core/variant_parser.cpp) and 4.x (core/variant/variant_parser.cpp), and accepts more
//! where that helps hand-written text (each such place says "lenient"). It never runs code
//! and never loads resources: `Resource("…")` is only understood where a value as data can
//! hold it (an object's `script`, a typed container's script type).

use super::lex::{Lexer, Tok};
use super::write::builtin_kind;
use super::TextError;
use crate::dialect::Dialect;
use crate::variant::*;

/// Deepest nesting the parser accepts: a value inside this many containers and objects
/// still reads, one deeper does not. The engines' `MAX_RECURSION_DEPTH` for Variants is
/// 1024, and so is the decoder's default `Limits::max_depth`, counted the same way, so the
/// exact text of anything the decoder accepts reads back (a leaf property of an object may be
/// one level deeper: an object sent by id is a leaf in the bytes and an object in text). The
/// parser keeps open containers on a heap stack, so this bounds memory, not the thread's stack.
pub const MAX_TEXT_DEPTH: usize = 1024;

/// The error of a value that starts at `(line, column)` deeper than [`MAX_TEXT_DEPTH`].
#[cold]
fn too_deep((line, column): (usize, usize)) -> TextError {
    TextError {
        line,
        column,
        message: format!("nesting deeper than {MAX_TEXT_DEPTH} levels"),
    }
}

#[derive(Clone)]
pub(crate) struct Parser<'a> {
    lexer: Lexer<'a>,
    /// The current token (not yet consumed) and where it starts.
    pub(super) tok: Tok,
    pub(super) line: usize,
    pub(super) column: usize,
    /// Inside a `.tres` / `.tscn` file: `ExtResource(…)` and `SubResource(…)` are references
    /// (read as [`crate::text::resource_reference`] objects), not errors.
    pub(super) references: bool,
}

impl<'a> Parser<'a> {
    /// Every dialect's syntax is read in every dialect (the Variant model is shared), so the
    /// dialect does not change what is accepted.
    pub(crate) fn new(text: &'a str, _dialect: Dialect) -> Result<Parser<'a>, TextError> {
        let mut lexer = Lexer::new(text);
        let (tok, line, column) = lexer.next()?;
        Ok(Parser {
            lexer,
            tok,
            line,
            column,
            references: false,
        })
    }

    pub(super) fn advance(&mut self) -> Result<Tok, TextError> {
        let (tok, line, column) = self.lexer.next()?;
        self.line = line;
        self.column = column;
        Ok(std::mem::replace(&mut self.tok, tok))
    }

    pub(super) fn error(&self, message: impl Into<String>) -> TextError {
        TextError {
            line: self.line,
            column: self.column,
            message: message.into(),
        }
    }

    pub(super) fn expected(&self, what: &str) -> TextError {
        self.error(format!("expected {what}, found {}", self.tok.describe()))
    }

    pub(super) fn expect(&mut self, tok: Tok) -> Result<(), TextError> {
        if self.tok == tok {
            self.advance()?;
            Ok(())
        } else {
            Err(self.expected(&tok.describe()))
        }
    }

    /// The whole text: one value, then nothing but blanks and comments.
    pub(crate) fn parse_document(&mut self) -> Result<Variant, TextError> {
        let v = self.value()?;
        if self.tok != Tok::Eof {
            return Err(self.error(format!(
                "unexpected {} after the value",
                self.tok.describe()
            )));
        }
        Ok(v)
    }

    /// Values one after another (whitespace between them) up to the end of the input.
    pub(crate) fn parse_sequence(&mut self) -> Result<Vec<Variant>, TextError> {
        let mut values = Vec::new();
        while self.tok != Tok::Eof {
            values.push(self.value()?);
        }
        Ok(values)
    }

    /// One value. Containers are parsed with an explicit stack of open containers (no
    /// recursion), so nesting is bounded by [`MAX_TEXT_DEPTH`] and not by the thread's stack.
    fn value(&mut self) -> Result<Variant, TextError> {
        self.value_within(0)
    }

    /// [`Parser::value`] for a value inside `outer` containers that are not on its stack
    /// (the streaming encoder's top-level container), which count toward the nesting limit.
    pub(super) fn value_within(&mut self, outer: usize) -> Result<Variant, TextError> {
        // A value of one token (nearly every element of a big container) needs no stack.
        if let Some(v) = self.leaf()? {
            return Ok(v);
        }
        let mut open: Vec<Frame> = Vec::new();
        'value: loop {
            // Expecting a value, or the closer of an open container (empty, or after a
            // trailing comma: both allowed, as in the engine's `_parse_array`).
            let done = match open.last() {
                Some(Frame::Array { .. }) if self.tok == Tok::RBracket => self.close(open.pop())?,
                Some(Frame::Dictionary { key: None, .. }) if self.tok == Tok::RBrace => {
                    self.close(open.pop())?
                }
                _ => {
                    // The value about to start is `open.len() + outer` levels deep: the
                    // decoder's bound (`depth > max_depth`), so that whatever it accepts,
                    // written as exact text, reads back. One exception: an object sent by id
                    // is one leaf in the bytes but `Object(EncodedObjectAsID,"object_id":…)`
                    // in text, so a leaf property of an object may sit one level deeper.
                    let depth = open.len() + outer;
                    let in_object = matches!(open.last(), Some(Frame::Object { .. }));
                    let at = (self.line, self.column);
                    if depth > MAX_TEXT_DEPTH + usize::from(in_object) {
                        return Err(too_deep(at));
                    }
                    let in_script =
                        matches!(open.last(), Some(Frame::Object { name, .. }) if name == "script");
                    match self.start(in_script)? {
                        Start::Value(v) => v,
                        Start::Open(_) if depth > MAX_TEXT_DEPTH => return Err(too_deep(at)),
                        Start::Open(frame) => {
                            let is_object = matches!(frame, Frame::Object { .. });
                            open.push(frame);
                            if is_object && !self.object_property_name(&mut open)? {
                                let frame = open.pop();
                                let v = self.close(frame)?;
                                match self.attach(&mut open, v)? {
                                    Some(v) => return Ok(v),
                                    None => continue 'value,
                                }
                            }
                            continue 'value;
                        }
                    }
                }
            };
            // A complete value: hand it to the container it belongs to.
            if let Some(v) = self.attach(&mut open, done)? {
                return Ok(v);
            }
        }
    }

    /// Puts a finished value into the innermost open container; `Some` when there is none
    /// (the value is the document's). Closes every container that ends right after it.
    fn attach(
        &mut self,
        open: &mut Vec<Frame>,
        mut v: Variant,
    ) -> Result<Option<Variant>, TextError> {
        loop {
            let Some(top) = open.last_mut() else {
                return Ok(Some(v));
            };
            let closer = match top {
                Frame::Array { items, .. } => {
                    items.push(v);
                    Tok::RBracket
                }
                Frame::Dictionary { key, entries, .. } => match key.take() {
                    None => {
                        *key = Some(v);
                        self.expect(Tok::Colon)?;
                        return Ok(None);
                    }
                    Some(k) => {
                        // A repeated key replaces the earlier value in place (`object[key] = v`),
                        // unless an engine keeps such keys apart (Godot 3 Dictionaries, Objects:
                        // `quirks::kept_apart`), as the value read from bytes did.
                        entries.insert_read(k, v, true);
                        Tok::RBrace
                    }
                },
                Frame::Object {
                    properties, name, ..
                } => {
                    properties.push((std::mem::take(name), v));
                    match self.tok {
                        Tok::Comma => {
                            self.advance()?;
                            if self.object_property_name(open)? {
                                return Ok(None);
                            }
                        }
                        Tok::RParen => {
                            self.advance()?;
                        }
                        _ => return Err(self.expected("`,` or `)`")),
                    }
                    let frame = open.pop();
                    v = self.close_object(frame);
                    continue;
                }
            };
            match &self.tok {
                Tok::Comma => {
                    self.advance()?;
                    return Ok(None);
                }
                t if *t == closer => {
                    let frame = open.pop();
                    v = self.close(frame)?;
                }
                _ => return Err(self.expected(&format!("`,` or {}", closer.describe()))),
            }
        }
    }

    /// Reads `"name":` of an object's next property into the frame; `false` at its `)`.
    fn object_property_name(&mut self, open: &mut [Frame]) -> Result<bool, TextError> {
        if self.tok == Tok::RParen {
            self.advance()?;
            return Ok(false);
        }
        let n = match &self.tok {
            Tok::Str(s) => s.to_string(),
            _ => return Err(self.expected("a property name string")),
        };
        self.advance()?;
        self.expect(Tok::Colon)?;
        if let Some(Frame::Object { name, .. }) = open.last_mut() {
            *name = n;
        }
        Ok(true)
    }

    /// Consumes the closer of `frame` and builds its value.
    fn close(&mut self, frame: Option<Frame>) -> Result<Variant, TextError> {
        match frame {
            Some(Frame::Array {
                items,
                element,
                packed,
                paren,
            }) => {
                self.expect(Tok::RBracket)?;
                if paren {
                    self.expect(Tok::RParen)?;
                }
                let mut array = match element {
                    Some(e) => Array::typed(e, items),
                    None => Array::new(items),
                };
                if let Some(t) = array.typed.as_deref_mut() {
                    t.pandemonium_packed = packed;
                }
                Ok(Variant::Array(array))
            }
            Some(Frame::Dictionary {
                mut entries,
                typed,
                paren,
                ..
            }) => {
                self.expect(Tok::RBrace)?;
                if paren {
                    self.expect(Tok::RParen)?;
                }
                entries.set_typed(typed.map(|t| *t));
                Ok(Variant::Dictionary(entries))
            }
            Some(object @ Frame::Object { .. }) => Ok(self.close_object(Some(object))),
            None => Err(self.error("internal: no open container")),
        }
    }

    /// An object whose `)` was consumed. `EncodedObjectAsID` with its `object_id` becomes the
    /// id form again.
    fn close_object(&mut self, frame: Option<Frame>) -> Variant {
        let Some(Frame::Object {
            class,
            quoted,
            properties,
            ..
        }) = frame
        else {
            return Variant::Nil;
        };
        if class == "EncodedObjectAsID" && !quoted {
            let id = properties.iter().find(|(n, _)| n == "object_id");
            let only_id = properties
                .iter()
                .all(|(n, v)| n == "object_id" || (n == "script" && *v == Variant::Nil));
            if let (Some((_, Variant::Int(id))), true) = (id, only_id) {
                return Variant::Object(Object::Id(*id as u64));
            }
        }
        Variant::Object(Object::Full(Box::new(FullObject { class, properties })))
    }

    /// The value of the current token, taken, when that token is a whole value (a number, a
    /// string, a StringName or NodePath literal, a color); `None`, having taken nothing,
    /// for anything else.
    fn leaf(&mut self) -> Result<Option<Variant>, TextError> {
        let v = match &mut self.tok {
            Tok::Int(i, _) => Variant::Int(*i),
            Tok::Float(f) | Tok::HexFloat(f) => Variant::Float(*f),
            Tok::Str(s) => Variant::String(std::mem::take(s)),
            Tok::StrName(s) => Variant::StringName(StringName(std::mem::take(s))),
            Tok::NodePathLit(s) => Variant::NodePath(Box::new(NodePath::parse(s))),
            Tok::Color(c) => Variant::Color(*c),
            _ => return Ok(None),
        };
        self.advance()?;
        Ok(Some(v))
    }

    /// The start of a value: a whole value, or an opened container.
    fn start(&mut self, in_script: bool) -> Result<Start, TextError> {
        if let Some(v) = self.leaf()? {
            return Ok(Start::Value(v));
        }
        let (line, column) = (self.line, self.column);
        Ok(Start::Value(match self.advance()? {
            Tok::LBracket => {
                return Ok(Start::Open(Frame::Array {
                    items: Vec::new(),
                    element: None,
                    packed: false,
                    paren: false,
                }))
            }
            Tok::LBrace => {
                return Ok(Start::Open(Frame::Dictionary {
                    entries: Dictionary::new(),
                    key: None,
                    typed: None,
                    paren: false,
                }))
            }
            // Godot 4 sends an object's script as its `res://` path; its text is the loaded
            // script, `Resource("path")`: read it back as that path.
            Tok::Ident(id) if id == "Resource" && in_script && self.tok == Tok::LParen => {
                self.advance()?;
                let path = self.string_arg()?;
                self.expect(Tok::RParen)?;
                Variant::String(path)
            }
            Tok::Ident(id) => match id.as_str() {
                "Object" => return self.open_object(),
                "Array" => return self.open_typed_array(false).map(Start::Open),
                // Exact text's form of Pandemonium 5's PACKED_TYPED_ARRAY.
                "PackedTypedArray" => return self.open_typed_array(true).map(Start::Open),
                "Dictionary" => return self.open_typed_dictionary().map(Start::Open),
                _ => self.identifier(&id, line, column)?,
            },
            other => {
                return Err(TextError {
                    line,
                    column,
                    message: format!("expected a value, found {}", other.describe()),
                })
            }
        }))
    }

    pub(super) fn string_arg(&mut self) -> Result<GString, TextError> {
        match &self.tok {
            Tok::Str(s) | Tok::StrName(s) | Tok::NodePathLit(s) => {
                let s = s.clone();
                self.advance()?;
                Ok(s)
            }
            _ => Err(self.expected("a string")),
        }
    }

    /// `Object(Class,` … : the frame of an object's properties (`"prop":value`, commas
    /// between, a trailing one allowed, up to `)`; the comma after the class may be left out).
    /// `Object()` is a null object (exact text's form, which `null`, read as Nil, is not).
    fn open_object(&mut self) -> Result<Start, TextError> {
        self.expect(Tok::LParen)?;
        if self.tok == Tok::RParen {
            self.advance()?;
            return Ok(Start::Value(Variant::Object(Object::Null)));
        }
        let (line, column) = (self.line, self.column);
        let (class, quoted) = match self.advance()? {
            // A quoted name: exact text quotes a class name that is not an identifier, and
            // `EncodedObjectAsID` when it is a full object of that class.
            Tok::Ident(c) => (c, false),
            Tok::Str(c) => (c.into_string(), true),
            other => {
                return Err(TextError {
                    line,
                    column,
                    message: format!("expected a class name, found {}", other.describe()),
                })
            }
        };
        if self.tok == Tok::Comma {
            self.advance()?;
        }
        Ok(Start::Open(Frame::Object {
            class,
            quoted,
            properties: Vec::new(),
            name: String::new(),
        }))
    }

    /// The element type inside `Array[…]` / `Dictionary[…, …]`: a builtin type name, a class
    /// name, or a script as `Resource("path")`; `None` for `Variant` (untyped side).
    fn element_type(&mut self) -> Result<Option<ElementType>, TextError> {
        let id = match &self.tok {
            Tok::Ident(id) => id.clone(),
            // A quoted name is a class whatever it says (exact text quotes class names that
            // are not identifiers or that are also a builtin type's name).
            Tok::Str(class) => {
                let class = ElementType::Class(class.to_string());
                self.advance()?;
                return Ok(Some(class));
            }
            _ => return Err(self.expected("a type name")),
        };
        self.advance()?;
        if id == "Variant" {
            return Ok(None);
        }
        if id == "Resource" && self.tok == Tok::LParen {
            self.advance()?;
            let path = self.string_arg()?;
            self.expect(Tok::RParen)?;
            return Ok(Some(ElementType::Script(path.into_string())));
        }
        // The engine looks the name up among `Variant::get_type_name` first, so `Object` is
        // the builtin type, not the class.
        Ok(Some(match builtin_kind(&id) {
            Some(k) => ElementType::Builtin(k),
            None => ElementType::Class(id),
        }))
    }

    /// `Array[T]([` or (lenient) `Array([`: the frame of its items; `packed`: exact text's
    /// `PackedTypedArray[T]([`, which must name its type.
    fn open_typed_array(&mut self, packed: bool) -> Result<Frame, TextError> {
        let mut element = None;
        if packed && self.tok != Tok::LBracket {
            return Err(self.expected("`[` and the element type"));
        }
        if self.tok == Tok::LBracket {
            self.advance()?;
            element = self.element_type()?;
            self.expect(Tok::RBracket)?;
        }
        self.expect(Tok::LParen)?;
        self.expect(Tok::LBracket)?;
        if packed && element.is_none() {
            return Err(self.expected("an element type"));
        }
        Ok(Frame::Array {
            items: Vec::new(),
            element,
            packed,
            paren: true,
        })
    }

    /// `Dictionary[K, V]({` (4.4+) or (lenient) `Dictionary({`: the frame of its entries.
    fn open_typed_dictionary(&mut self) -> Result<Frame, TextError> {
        let mut typed = None;
        if self.tok == Tok::LBracket {
            self.advance()?;
            let key = self.element_type()?;
            self.expect(Tok::Comma)?;
            let value = self.element_type()?;
            self.expect(Tok::RBracket)?;
            if key.is_some() || value.is_some() {
                typed = Some(Box::new(DictionaryType { key, value }));
            }
        }
        self.expect(Tok::LParen)?;
        self.expect(Tok::LBrace)?;
        Ok(Frame::Dictionary {
            entries: Dictionary::new(),
            key: None,
            typed,
            paren: true,
        })
    }
}

/// An open container of [`Parser::value`].
enum Frame {
    Array {
        items: Vec<Variant>,
        element: Option<ElementType>,
        /// Pandemonium 5's PACKED_TYPED_ARRAY (`PackedTypedArray[T]([…])`).
        packed: bool,
        /// `Array[T]([…])`: a `)` follows the `]`.
        paren: bool,
    },
    Dictionary {
        entries: Dictionary,
        /// The key read, while its value is being parsed.
        key: Option<Variant>,
        typed: Option<Box<DictionaryType>>,
        paren: bool,
    },
    Object {
        class: String,
        /// The class was written between quotes: a class by that name, never the id form.
        quoted: bool,
        properties: Vec<(String, Variant)>,
        /// The name of the property whose value is being parsed.
        name: String,
    },
}

enum Start {
    Value(Variant),
    Open(Frame),
}
