//! The parser: the engines' text syntax (`str2var` / `str_to_var`, and values in `.tres`),
//! both spacings, Godot 3 and 4 names, with errors that say where.
//!
//! What it reads follows `VariantParser::get_token` / `parse_value` of Godot 3.x
//! (core/variant_parser.cpp) and 4.x (core/variant/variant_parser.cpp), and accepts more
//! where that helps hand-written text (each such place says "lenient"). It never runs code
//! and never loads resources: `Resource("…")` is only understood where a value as data can
//! hold it (an object's `script`, a typed container's script type).

use super::write::type_name;
use super::TextError;
use crate::dialect::Dialect;
use crate::generated::kinds::Kind;
use crate::math::*;
use crate::variant::layout::{components_of, Scalar};
use crate::variant::value::{fixed_from, packed_from};
use crate::variant::*;

/// Deepest nesting of containers and objects the parser accepts (the engines'
/// `MAX_RECURSION_DEPTH` for Variants is 1024). The parser keeps open containers on a heap
/// stack, so this bounds memory, not the thread's stack.
pub const MAX_TEXT_DEPTH: usize = 1024;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    LParen,
    RParen,
    Colon,
    Comma,
    Ident(String),
    Str(String),
    /// `&"…"` (Godot 4) or `@"…"` (Pandemonium, and 4.x's compatibility with it).
    StrName(String),
    /// `^"…"`: GDScript's NodePath literal (lenient; the engines' text parsers lack it).
    NodePathLit(String),
    /// An integer, and whether it was written with a `-` (so `-0` can be a negative zero
    /// where a real is expected).
    Int(i64, bool),
    Float(f64),
    /// `#rrggbb` and friends (`Color::html`).
    Color(Color),
    Eof,
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::LBrace => "`{`".into(),
            Tok::RBrace => "`}`".into(),
            Tok::LBracket => "`[`".into(),
            Tok::RBracket => "`]`".into(),
            Tok::LParen => "`(`".into(),
            Tok::RParen => "`)`".into(),
            Tok::Colon => "`:`".into(),
            Tok::Comma => "`,`".into(),
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Str(_) => "a string".into(),
            Tok::StrName(_) => "a StringName".into(),
            Tok::NodePathLit(_) => "a NodePath".into(),
            Tok::Int(..) | Tok::Float(_) => "a number".into(),
            Tok::Color(_) => "a color".into(),
            Tok::Eof => "the end of the text".into(),
        }
    }
}

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            chars: text.chars().peekable(),
            line: 1,
            column: 1,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn error(&self, line: usize, column: usize, message: impl Into<String>) -> TextError {
        TextError {
            line,
            column,
            message: message.into(),
        }
    }

    /// The next token and where it starts.
    fn next(&mut self) -> Result<(Tok, usize, usize), TextError> {
        loop {
            match self.peek() {
                // `;` starts a comment to the end of the line (get_token, case ';').
                Some(';') => {
                    while let Some(c) = self.bump() {
                        if c == '\n' {
                            break;
                        }
                    }
                }
                // The engine skips every character <= 32 (get_token, default case).
                Some(c) if (c as u32) <= 32 => {
                    self.bump();
                }
                _ => break,
            }
        }
        let (line, column) = (self.line, self.column);
        let Some(c) = self.bump() else {
            return Ok((Tok::Eof, line, column));
        };
        let tok =
            match c {
                '{' => Tok::LBrace,
                '}' => Tok::RBrace,
                '[' => Tok::LBracket,
                ']' => Tok::RBracket,
                '(' => Tok::LParen,
                ')' => Tok::RParen,
                ':' => Tok::Colon,
                ',' => Tok::Comma,
                '"' => Tok::Str(self.string(line, column)?),
                '&' | '@' | '^' => {
                    if self.peek() != Some('"') {
                        return Err(self.error(line, column, format!("expected `\"` after `{c}`")));
                    }
                    self.bump();
                    let s = self.string(line, column)?;
                    if c == '^' {
                        Tok::NodePathLit(s)
                    } else {
                        Tok::StrName(s)
                    }
                }
                '#' => {
                    let mut hex = String::new();
                    while let Some(h) = self.peek().filter(char::is_ascii_hexdigit) {
                        hex.push(h);
                        self.bump();
                    }
                    Tok::Color(html_color(&hex).ok_or_else(|| {
                        self.error(line, column, format!("invalid color `#{hex}`"))
                    })?)
                }
                '-' | '+' | '.' | '0'..='9' => self.number(c, line, column)?,
                c if c.is_ascii_alphabetic() || c == '_' => {
                    let mut id = String::from(c);
                    while let Some(n) = self
                        .peek()
                        .filter(|n| n.is_ascii_alphanumeric() || *n == '_')
                    {
                        id.push(n);
                        self.bump();
                    }
                    Tok::Ident(id)
                }
                c => return Err(self.error(line, column, format!("unexpected character `{c}`"))),
            };
        Ok((tok, line, column))
    }

    /// A number: `-`? digits (`.` digits)? (`e` sign? digits)?; also `-inf`, `-nan` and a
    /// leading `+` or `.` (lenient). Integers must fit `i64`.
    fn number(&mut self, first: char, line: usize, column: usize) -> Result<Tok, TextError> {
        let mut text = String::new();
        let mut c = first;
        if c == '-' || c == '+' {
            if c == '-' {
                text.push('-');
            }
            match self.peek() {
                Some(n) if n.is_ascii_digit() || n == '.' => c = self.bump().unwrap_or(n),
                Some(n) if n.is_ascii_alphabetic() => {
                    let mut id = String::new();
                    while let Some(n) = self.peek().filter(char::is_ascii_alphanumeric) {
                        id.push(n);
                        self.bump();
                    }
                    let v = match id.as_str() {
                        "inf" => f64::INFINITY,
                        "nan" => f64::NAN,
                        _ => {
                            return Err(self.error(
                                line,
                                column,
                                format!("expected a number after `{first}`"),
                            ))
                        }
                    };
                    // Godot 3.2.3 writes `-inf.0` and `-nan.0` (its `.0` rule only skips
                    // `inf` and `nan`); read them as what they were (lenient).
                    if self.peek() == Some('.') {
                        let mut ahead = self.chars.clone();
                        ahead.next();
                        if ahead.next() == Some('0')
                            && !ahead.next().is_some_and(|c| c.is_ascii_alphanumeric())
                        {
                            self.bump();
                            self.bump();
                        }
                    }
                    return Ok(Tok::Float(if first == '-' { -v } else { v }));
                }
                _ => {
                    return Err(self.error(
                        line,
                        column,
                        format!("expected a number after `{first}`"),
                    ))
                }
            }
        }
        let mut is_float = false;
        let mut seen_digit = false;
        let mut state = 0; // 0 int part, 1 fraction, 2 exponent
        loop {
            match (state, c) {
                (_, '0'..='9') => {
                    seen_digit = true;
                    text.push(c);
                }
                (0, '.') => {
                    state = 1;
                    is_float = true;
                    text.push(c);
                }
                (0 | 1, 'e' | 'E') if seen_digit => {
                    state = 2;
                    is_float = true;
                    text.push('e');
                    if let Some(s) = self.peek().filter(|s| *s == '-' || *s == '+') {
                        text.push(s);
                        self.bump();
                    }
                }
                _ => {
                    return Err(self.error(
                        self.line,
                        self.column - 1,
                        format!("unexpected `{c}` in a number"),
                    ))
                }
            }
            match self.peek() {
                Some(n)
                    if n.is_ascii_digit()
                        || (state == 0 && n == '.')
                        || (state < 2 && (n == 'e' || n == 'E')) =>
                {
                    c = n;
                    self.bump();
                }
                _ => break,
            }
        }
        if !seen_digit || text.ends_with(['e', '-', '+']) {
            return Err(self.error(line, column, format!("malformed number `{text}`")));
        }
        if is_float {
            text.parse::<f64>()
                .map(Tok::Float)
                .map_err(|_| self.error(line, column, format!("malformed number `{text}`")))
        } else {
            let negative = text.starts_with('-');
            text.parse::<i64>()
                .map(|i| Tok::Int(i, negative))
                .map_err(|_| {
                    self.error(
                        line,
                        column,
                        format!("integer `{text}` does not fit in 64 bits"),
                    )
                })
        }
    }

    /// The body of a string after its opening `"` (get_token, case '"'): raw newlines are
    /// kept; escapes `\b \t \n \f \r \uXXXX \UXXXXXX` and UTF-16 surrogate pairs as the
    /// engine reads them; also `\a \v` (which `c_escape` writes but the engine reads back as
    /// `a` and `v`); any other escaped character stands for itself.
    fn string(&mut self, line: usize, column: usize) -> Result<String, TextError> {
        let mut out = String::new();
        let mut lead: Option<u32> = None;
        loop {
            let (el, ec) = (self.line, self.column);
            let Some(c) = self.bump() else {
                return Err(self.error(line, column, "unterminated string"));
            };
            let code = match c {
                '"' => break,
                '\\' => {
                    let Some(n) = self.bump() else {
                        return Err(self.error(line, column, "unterminated string"));
                    };
                    match n {
                        'b' => 8,
                        't' => 9,
                        'n' => 10,
                        'f' => 12,
                        'r' => 13,
                        'a' => 7,
                        'v' => 11,
                        'u' | 'U' => {
                            let len = if n == 'U' { 6 } else { 4 };
                            let mut v = 0u32;
                            for _ in 0..len {
                                let d =
                                    self.bump().and_then(|h| h.to_digit(16)).ok_or_else(|| {
                                        self.error(
                                            el,
                                            ec,
                                            format!("expected {len} hex digits after `\\{n}`"),
                                        )
                                    })?;
                                v = v * 16 + d;
                            }
                            v
                        }
                        other => other as u32,
                    }
                }
                c => c as u32,
            };
            if (0xD800..0xDC00).contains(&code) {
                if lead.is_some() {
                    return Err(self.error(el, ec, "unpaired UTF-16 lead surrogate"));
                }
                lead = Some(code);
                continue;
            }
            let code = if (0xDC00..0xE000).contains(&code) {
                let Some(hi) = lead.take() else {
                    return Err(self.error(el, ec, "unpaired UTF-16 trail surrogate"));
                };
                0x10000 + ((hi - 0xD800) << 10) + (code - 0xDC00)
            } else {
                if lead.is_some() {
                    return Err(self.error(el, ec, "unpaired UTF-16 lead surrogate"));
                }
                code
            };
            out.push(
                char::from_u32(code).ok_or_else(|| {
                    self.error(el, ec, format!("`\\u{code:x}` is not a character"))
                })?,
            );
        }
        if lead.is_some() {
            return Err(self.error(line, column, "unpaired UTF-16 lead surrogate"));
        }
        Ok(out)
    }
}

/// `Color::html`: `rgb`, `rgba`, `rrggbb`, `rrggbbaa`.
fn html_color(hex: &str) -> Option<Color> {
    let digits: Vec<u32> = hex.chars().map(|c| c.to_digit(16)).collect::<Option<_>>()?;
    let (r, g, b, a) = match digits.len() {
        3 | 4 => {
            let f = |d: u32| (d * 17) as f32 / 255.0;
            (
                f(digits[0]),
                f(digits[1]),
                f(digits[2]),
                digits.get(3).map_or(1.0, |&d| f(d)),
            )
        }
        6 | 8 => {
            let f = |i: usize| (digits[i] * 16 + digits[i + 1]) as f32 / 255.0;
            (f(0), f(2), f(4), if digits.len() == 8 { f(6) } else { 1.0 })
        }
        _ => return None,
    };
    Some(Color { r, g, b, a })
}

pub(crate) struct Parser<'a> {
    lexer: Lexer<'a>,
    tok: Tok,
    line: usize,
    column: usize,
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
        })
    }

    fn advance(&mut self) -> Result<Tok, TextError> {
        let (tok, line, column) = self.lexer.next()?;
        self.line = line;
        self.column = column;
        Ok(std::mem::replace(&mut self.tok, tok))
    }

    fn error(&self, message: impl Into<String>) -> TextError {
        TextError {
            line: self.line,
            column: self.column,
            message: message.into(),
        }
    }

    fn expected(&self, what: &str) -> TextError {
        self.error(format!("expected {what}, found {}", self.tok.describe()))
    }

    fn expect(&mut self, tok: Tok) -> Result<(), TextError> {
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
                    let in_script =
                        matches!(open.last(), Some(Frame::Object { name, .. }) if name == "script");
                    match self.start(in_script)? {
                        Start::Value(v) => v,
                        Start::Open(frame) => {
                            if open.len() >= MAX_TEXT_DEPTH {
                                return Err(self.error(format!(
                                    "nesting deeper than {MAX_TEXT_DEPTH} levels"
                                )));
                            }
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
                        // A repeated key replaces the earlier value in place (`object[key] = v`).
                        entries.insert(k, v);
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
            Tok::Str(s) => s.clone(),
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
                paren,
            }) => {
                self.expect(Tok::RBracket)?;
                if paren {
                    self.expect(Tok::RParen)?;
                }
                Ok(Variant::Array(match element {
                    Some(e) => Array::typed(e, items),
                    None => Array::new(items),
                }))
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
            class, properties, ..
        }) = frame
        else {
            return Variant::Nil;
        };
        if class == "EncodedObjectAsID" {
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

    /// The start of a value: a whole value, or an opened container.
    fn start(&mut self, in_script: bool) -> Result<Start, TextError> {
        let (line, column) = (self.line, self.column);
        Ok(Start::Value(match self.advance()? {
            Tok::Int(i, _) => Variant::Int(i),
            Tok::Float(f) => Variant::Float(f),
            Tok::Str(s) => Variant::String(s.into()),
            Tok::StrName(s) => Variant::StringName(StringName(s.into())),
            Tok::NodePathLit(s) => Variant::NodePath(Box::new(NodePath::parse(&s))),
            Tok::Color(c) => Variant::Color(c),
            Tok::LBracket => {
                return Ok(Start::Open(Frame::Array {
                    items: Vec::new(),
                    element: None,
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
                Variant::String(path.into())
            }
            Tok::Ident(id) => match id.as_str() {
                "Object" => return self.open_object().map(Start::Open),
                "Array" => return self.open_typed_array().map(Start::Open),
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

    /// Numbers between `(` and `)`, commas between, a trailing comma allowed (lenient: the
    /// engine's `_parse_construct` refuses it). `inf`, `inf_neg`, `nan` count as numbers.
    fn numbers(&mut self) -> Result<Vec<(f64, Option<i64>)>, TextError> {
        self.expect(Tok::LParen)?;
        let mut out = Vec::new();
        loop {
            let n = match &self.tok {
                Tok::RParen => {
                    self.advance()?;
                    return Ok(out);
                }
                // `-0` as a real is negative zero (our exact text writes it).
                Tok::Int(0, true) => (-0.0, Some(0)),
                Tok::Int(i, _) => (*i as f64, Some(*i)),
                Tok::Float(f) => (*f, None),
                Tok::Ident(id) => match special_float(id) {
                    Some(f) => (f, None),
                    None => return Err(self.expected("a number")),
                },
                _ => return Err(self.expected("a number")),
            };
            out.push(n);
            self.advance()?;
            match self.tok {
                Tok::Comma => {
                    self.advance()?;
                }
                Tok::RParen => {}
                _ => return Err(self.expected("`,` or `)`")),
            }
        }
    }

    /// Constructor arguments, exactly `count` of them (or any multiple when `multiple`).
    fn args(&mut self, name: &str, counts: &[usize]) -> Result<Vec<(f64, Option<i64>)>, TextError> {
        let (line, column) = (self.line, self.column);
        let args = self.numbers()?;
        if !counts.contains(&args.len()) {
            let want: Vec<String> = counts.iter().map(usize::to_string).collect();
            return Err(TextError {
                line,
                column,
                message: format!(
                    "`{name}` takes {} arguments, found {}",
                    want.join(" or "),
                    args.len()
                ),
            });
        }
        Ok(args)
    }

    /// A packed array of `width`-component elements.
    fn packed(&mut self, name: &str, width: usize) -> Result<Vec<(f64, Option<i64>)>, TextError> {
        let (line, column) = (self.line, self.column);
        let args = self.numbers()?;
        if args.len() % width != 0 {
            return Err(TextError {
                line,
                column,
                message: format!(
                    "`{name}` needs a multiple of {width} numbers, found {}",
                    args.len()
                ),
            });
        }
        Ok(args)
    }

    fn identifier(&mut self, id: &str, line: usize, column: usize) -> Result<Variant, TextError> {
        let v = match id {
            "null" | "nil" => Variant::Nil,
            "true" => Variant::Bool(true),
            "false" => Variant::Bool(false),
            "inf" | "inf_neg" | "nan" => Variant::Float(special_float(id).unwrap_or(f64::NAN)),
            "NodePath" => {
                self.expect(Tok::LParen)?;
                let s = self.string_arg()?;
                self.expect(Tok::RParen)?;
                Variant::NodePath(Box::new(NodePath::parse(&s)))
            }
            "StringName" => {
                self.expect(Tok::LParen)?;
                let s = self.string_arg()?;
                self.expect(Tok::RParen)?;
                Variant::StringName(StringName(s.into()))
            }
            // `RID()` or `RID(id)`; 4.x reads the id as a 64-bit number.
            "RID" => {
                let a = self.args(id, &[0, 1])?;
                match a.first() {
                    None => Variant::Rid(0),
                    Some((_, Some(i))) => Variant::Rid(*i as u64),
                    Some(_) => {
                        return Err(TextError {
                            line,
                            column,
                            message: "`RID` takes an integer id".into(),
                        })
                    }
                }
            }
            // "Load as empty": the engines keep no data for these.
            "Callable" => {
                self.args(id, &[0])?;
                Variant::Callable
            }
            "Signal" => {
                self.args(id, &[0])?;
                Variant::Signal(Signal::default())
            }
            "Resource" | "ExtResource" | "SubResource" => {
                return Err(TextError {
                    line,
                    column,
                    message: format!(
                        "`{id}(…)` refers to a resource file, which a value as data cannot hold"
                    ),
                })
            }
            "PackedByteArray" | "PoolByteArray" | "ByteArray" => {
                let a = self.packed(id, 1)?;
                let mut out = Vec::with_capacity(a.len());
                for (f, i) in a {
                    match i {
                        Some(b @ 0..=255) => out.push(b as u8),
                        _ => {
                            return Err(TextError {
                                line,
                                column,
                                message: format!(
                                    "`{id}` elements must be integers 0 to 255, found {f}"
                                ),
                            })
                        }
                    }
                }
                Variant::PackedByteArray(out)
            }
            "PackedInt32Array" | "PackedIntArray" | "PoolIntArray" | "IntArray" => {
                let a = self.packed(id, 1)?;
                Variant::PackedInt32Array(ints32(a, id, line, column)?)
            }
            "PackedInt64Array" => {
                let a = self.packed(id, 1)?;
                let mut out = Vec::with_capacity(a.len());
                for (_, i) in a {
                    out.push(i.ok_or(TextError {
                        line,
                        column,
                        message: format!("`{id}` elements must be integers"),
                    })?);
                }
                Variant::PackedInt64Array(out)
            }
            "PackedFloat32Array" | "PackedRealArray" | "PoolRealArray" | "FloatArray"
            | "RealArray" => {
                let a = self.packed(id, 1)?;
                Variant::PackedFloat32Array(a.into_iter().map(|(f, _)| f as f32).collect())
            }
            "PackedFloat64Array" => {
                let a = self.packed(id, 1)?;
                Variant::PackedFloat64Array(a.into_iter().map(|(f, _)| f).collect())
            }
            "PackedStringArray" | "PoolStringArray" | "StringArray" => {
                self.expect(Tok::LParen)?;
                let mut out = Vec::new();
                loop {
                    if self.tok == Tok::RParen {
                        self.advance()?;
                        break;
                    }
                    out.push(self.string_arg()?);
                    match self.tok {
                        Tok::Comma => {
                            self.advance()?;
                        }
                        Tok::RParen => {}
                        _ => return Err(self.expected("`,` or `)`")),
                    }
                }
                Variant::PackedStringArray(out)
            }
            // Math types and packed arrays of them, by any constructor name of any dialect.
            _ if Kind::from_text_name(id).is_some() => self.math(id)?,
            _ => {
                return Err(TextError {
                    line,
                    column,
                    message: format!("unknown identifier `{id}`"),
                })
            }
        };
        Ok(v)
    }

    /// A math value or a packed array of them: numbers read by each component's scalar type
    /// (reals narrowed to `f32` as the engines' `real_t` parse does), trailing components with
    /// a text default optional.
    fn math(&mut self, name: &str) -> Result<Variant, TextError> {
        // Errors point at the arguments, as those of every constructor do.
        let (line, column) = (self.line, self.column);
        let err = |message: String| TextError {
            line,
            column,
            message,
        };
        let kind = Kind::from_text_name(name)
            .ok_or_else(|| err(format!("unknown identifier `{name}`")))?;
        let comps =
            components_of(kind).ok_or_else(|| err(format!("`{name}` is not a math type")))?;
        let n = comps.len();
        let args = self.numbers()?;
        let packed = kind.packed_element().is_some();
        if packed && args.len() % n != 0 {
            return Err(err(format!(
                "`{name}` needs a multiple of {n} numbers, found {}",
                args.len()
            )));
        }
        let optional = comps
            .iter()
            .rev()
            .take_while(|c| c.text_default.is_some())
            .count();
        if !packed && !(n - optional..=n).contains(&args.len()) {
            let want: Vec<String> = (n - optional..=n).map(|c| c.to_string()).collect();
            return Err(err(format!(
                "`{name}` takes {} arguments, found {}",
                want.join(" or "),
                args.len()
            )));
        }
        let mut values = Vec::with_capacity(args.len().max(n));
        for (i, (f, int)) in args.into_iter().enumerate() {
            values.push(match comps[i % n].scalar {
                Scalar::Real => narrow(f),
                Scalar::F32 => f,
                Scalar::I32 => int
                    .and_then(|i| i32::try_from(i).ok())
                    .map(f64::from)
                    .ok_or_else(|| err(format!("`{name}` takes 32-bit integers, found {f}")))?,
            });
        }
        if !packed {
            let missing = comps.get(values.len()..).unwrap_or(&[]);
            values.extend(missing.iter().filter_map(|c| c.text_default));
        }
        let at = |i: usize| values.get(i).copied().unwrap_or(0.0);
        let v = if packed {
            packed_from(kind, values.len() / n, &mut |i| at(i))
        } else {
            fixed_from(kind, &mut |i| at(i))
        };
        v.ok_or_else(|| err(format!("`{name}` is not a math type")))
    }

    fn string_arg(&mut self) -> Result<String, TextError> {
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
    fn open_object(&mut self) -> Result<Frame, TextError> {
        self.expect(Tok::LParen)?;
        let (line, column) = (self.line, self.column);
        let class = match self.advance()? {
            Tok::Ident(c) => c,
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
        Ok(Frame::Object {
            class,
            properties: Vec::new(),
            name: String::new(),
        })
    }

    /// The element type inside `Array[…]` / `Dictionary[…, …]`: a builtin type name, a class
    /// name, or a script as `Resource("path")`; `None` for `Variant` (untyped side).
    fn element_type(&mut self) -> Result<Option<ElementType>, TextError> {
        let id = match &self.tok {
            Tok::Ident(id) => id.clone(),
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
            return Ok(Some(ElementType::Script(path)));
        }
        // The engine looks the name up among `Variant::get_type_name` first, so `Object` is
        // the builtin type, not the class.
        Ok(Some(match builtin_kind(&id) {
            Some(k) => ElementType::Builtin(k),
            None => ElementType::Class(id),
        }))
    }

    /// `Array[T]([` or (lenient) `Array([`: the frame of its items.
    fn open_typed_array(&mut self) -> Result<Frame, TextError> {
        let mut element = None;
        if self.tok == Tok::LBracket {
            self.advance()?;
            element = self.element_type()?;
            self.expect(Tok::RBracket)?;
        }
        self.expect(Tok::LParen)?;
        self.expect(Tok::LBracket)?;
        Ok(Frame::Array {
            items: Vec::new(),
            element,
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
        properties: Vec<(String, Variant)>,
        /// The name of the property whose value is being parsed.
        name: String,
    },
}

enum Start {
    Value(Variant),
    Open(Frame),
}

fn special_float(id: &str) -> Option<f64> {
    // `stor_fix` / parse_value: `inf`, `inf_neg` (and 4.x `-inf`), `nan`.
    match id {
        "inf" => Some(f64::INFINITY),
        "inf_neg" => Some(f64::NEG_INFINITY),
        "nan" => Some(f64::NAN),
        _ => None,
    }
}

fn narrow(f: f64) -> f64 {
    f64::from(f as f32)
}

fn ints32(
    a: Vec<(f64, Option<i64>)>,
    name: &str,
    line: usize,
    column: usize,
) -> Result<Vec<i32>, TextError> {
    a.into_iter()
        .map(|(f, i)| {
            i.and_then(|i| i32::try_from(i).ok())
                .ok_or_else(|| TextError {
                    line,
                    column,
                    message: format!("`{name}` takes 32-bit integers, found {f}"),
                })
        })
        .collect()
}

/// A builtin type by its `Variant::get_type_name` (Godot 4 names).
fn builtin_kind(name: &str) -> Option<Kind> {
    Kind::ALL
        .iter()
        .copied()
        .filter(|k| !matches!(k, Kind::TypedArray | Kind::PackedTypedArray | Kind::Nil))
        .find(|k| type_name(*k) == name)
}
