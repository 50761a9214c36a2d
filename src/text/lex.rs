//! The lexer of the text form: tokens (numbers, strings, StringName and NodePath literals,
//! `#rrggbb` colors, punctuation) with the line and column each starts at.

use super::TextError;
use crate::math::Color;
use crate::GString;

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    LParen,
    RParen,
    Colon,
    Comma,
    Ident(String),
    Str(GString),
    /// `&"…"` (Godot 4) or `@"…"` (Pandemonium, and 4.x's compatibility with it).
    StrName(GString),
    /// `^"…"`: GDScript's NodePath literal (lenient; the engines' text parsers lack it).
    NodePathLit(GString),
    /// An integer, and whether it was written with a `-` (so `-0` can be a negative zero
    /// where a real is expected).
    Int(i64, bool),
    Float(f64),
    /// A C99 hex float (`0x1.999999999999ap-4`): exact text writes a math real that single
    /// precision cannot hold this way, and it is never narrowed.
    HexFloat(f64),
    /// A hex integer (`0x7ff0000000000001`): the bits in `nan(0x…)`.
    Hex(u64),
    /// `#rrggbb` and friends (`Color::html`).
    Color(Color),
    Eof,
}

impl Tok {
    pub(super) fn describe(&self) -> String {
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
            Tok::Int(..) | Tok::Float(_) | Tok::HexFloat(_) => "a number".into(),
            Tok::Hex(_) => "a hex number".into(),
            Tok::Color(_) => "a color".into(),
            Tok::Eof => "the end of the text".into(),
        }
    }
}

#[derive(Clone)]
pub(super) struct Lexer<'a> {
    /// The rest of the text; plain runs (blanks, integers, strings without escapes) are
    /// taken from its slice at once rather than a character at a time.
    chars: std::str::Chars<'a>,
    line: usize,
    column: usize,
}

impl<'a> Lexer<'a> {
    pub(super) fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            chars: text.chars(),
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
        self.chars.clone().next()
    }

    /// Goes on `n` bytes into the rest, all on the current line, holding `chars` characters.
    fn skip_in_line(&mut self, n: usize, chars: usize) {
        let rest = self.chars.as_str();
        self.chars = rest.get(n..).unwrap_or_default().chars();
        self.column += chars;
    }

    /// Skips blanks: every character <= 32, as the engine does (get_token, default case).
    fn skip_blanks(&mut self) {
        let rest = self.chars.as_str();
        let mut n = 0;
        for &b in rest.as_bytes() {
            if b > 32 {
                break;
            }
            if b == b'\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
            n += 1;
        }
        self.chars = rest.get(n..).unwrap_or_default().chars();
    }

    /// `at` (the text from a token's first character, already taken) when it starts with
    /// an integer in plain decimal (`-`? digits, then neither `.`, an exponent nor `x`) that
    /// fits `i64`: the token, read from the slice. Anything else is left to [`Self::number`],
    /// which reads every form and words every error.
    fn plain_int(&mut self, at: &str) -> Option<Tok> {
        let bytes = at.as_bytes();
        let negative = bytes.first() == Some(&b'-');
        // Summed on the side of the sign, so that i64::MIN fits; None on overflow.
        let mut i: i64 = 0;
        let mut len = usize::from(negative);
        while let Some(&b) = bytes.get(len).filter(|b| b.is_ascii_digit()) {
            let d = i64::from(b - b'0');
            i = i.checked_mul(10)?;
            i = if negative {
                i.checked_sub(d)?
            } else {
                i.checked_add(d)?
            };
            len += 1;
        }
        if len == usize::from(negative)
            || matches!(bytes.get(len), Some(b'.' | b'e' | b'E' | b'x' | b'X'))
        {
            return None;
        }
        // The first character was taken already.
        self.skip_in_line(len - 1, len - 1);
        Some(Tok::Int(i, negative))
    }

    fn error(&self, line: usize, column: usize, message: impl Into<String>) -> TextError {
        TextError {
            line,
            column,
            message: message.into(),
        }
    }

    /// The next token and where it starts.
    pub(super) fn next(&mut self) -> Result<(Tok, usize, usize), TextError> {
        // Looked at a byte at a time: a byte below 128 is a whole character, and no other
        // character starts with one.
        loop {
            match self.chars.as_str().as_bytes().first() {
                // `;` starts a comment to the end of the line (get_token, case ';').
                Some(b';') => {
                    while let Some(c) = self.bump() {
                        if c == '\n' {
                            break;
                        }
                    }
                }
                // The engine skips every character <= 32 (get_token, default case).
                Some(&b) if b <= 32 => self.skip_blanks(),
                _ => break,
            }
        }
        let (line, column) = (self.line, self.column);
        let at = self.chars.as_str();
        let punctuation = match at.as_bytes().first() {
            Some(b'{') => Some(Tok::LBrace),
            Some(b'}') => Some(Tok::RBrace),
            Some(b'[') => Some(Tok::LBracket),
            Some(b']') => Some(Tok::RBracket),
            Some(b'(') => Some(Tok::LParen),
            Some(b')') => Some(Tok::RParen),
            Some(b':') => Some(Tok::Colon),
            Some(b',') => Some(Tok::Comma),
            _ => None,
        };
        if let Some(tok) = punctuation {
            self.skip_in_line(1, 1);
            return Ok((tok, line, column));
        }
        let Some(c) = self.bump() else {
            return Ok((Tok::Eof, line, column));
        };
        let tok =
            match c {
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
                '-' | '+' | '.' | '0'..='9' => match self.plain_int(at) {
                    Some(tok) => tok,
                    None => self.number(c, line, column)?,
                },
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
        if c == '0' && matches!(self.peek(), Some('x' | 'X')) {
            self.bump();
            return self.hex(first == '-', line, column);
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

    /// After `0x` (lenient: the engines' parsers read no hex): a hex integer, or with a `p`
    /// exponent a C99 hex float, whose value must be exact in 64 bits.
    fn hex(&mut self, negative: bool, line: usize, column: usize) -> Result<Tok, TextError> {
        let (mut mantissa, mut shift, mut digits, mut point) = (0u64, 0i64, 0, false);
        loop {
            match self.peek() {
                Some(h) if h.is_ascii_hexdigit() => {
                    self.bump();
                    if mantissa >> 60 != 0 {
                        return Err(self.error(line, column, "hex number over 64 bits"));
                    }
                    mantissa = mantissa << 4 | u64::from(h.to_digit(16).unwrap_or(0));
                    digits += 1;
                    if point {
                        shift -= 4;
                    }
                }
                Some('.') if !point => {
                    self.bump();
                    point = true;
                }
                _ => break,
            }
        }
        if digits == 0 {
            return Err(self.error(line, column, "malformed hex number"));
        }
        if !matches!(self.peek(), Some('p' | 'P')) {
            if point || negative {
                return Err(self.error(line, column, "a hex float needs a `p` exponent"));
            }
            return Ok(Tok::Hex(mantissa));
        }
        self.bump();
        let mut exp = String::new();
        if let Some(s) = self.peek().filter(|s| *s == '-' || *s == '+') {
            exp.push(s);
            self.bump();
        }
        while let Some(d) = self.peek().filter(char::is_ascii_digit) {
            exp.push(d);
            self.bump();
        }
        let value = exp
            .parse::<i64>()
            .ok()
            .and_then(|e| exact_hex_float(mantissa, e.checked_add(shift)?))
            .ok_or_else(|| self.error(line, column, "hex float is not exact in 64 bits"))?;
        Ok(Tok::HexFloat(if negative { -value } else { value }))
    }

    /// The body of a string after its opening `"` (get_token, case '"'): raw newlines are
    /// kept; escapes `\b \t \n \f \r \uXXXX \UXXXXXX` and UTF-16 surrogate pairs as the
    /// engine reads them; also `\a \v` (which `c_escape` writes but the engine reads back as
    /// `a` and `v`); any other escaped character stands for itself. And one escape of our
    /// own, `\u{HEX}`: that code point, never paired, for the strings Godot 3 keeps that
    /// are not Unicode (a lone surrogate, a code point above U+10FFFF: see `GString`).
    fn string(&mut self, line: usize, column: usize) -> Result<GString, TextError> {
        // Most strings hold no escape and no line break: taken as one slice.
        let rest = self.chars.as_str();
        let plain = rest
            .bytes()
            .position(|b| b == b'"' || b == b'\\' || b == b'\n');
        if let Some(end) = plain.filter(|&end| rest.as_bytes().get(end) == Some(&b'"')) {
            let body = rest.get(..end).unwrap_or_default();
            // Columns count characters: every byte that does not continue one.
            let chars = body.bytes().filter(|&b| b & 0xC0 != 0x80).count();
            self.skip_in_line(end + 1, chars + 1);
            return Ok(GString::copied(body));
        }
        let mut out: Vec<u32> = Vec::new();
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
                        'u' if self.peek() == Some('{') => {
                            self.bump();
                            let mut v = 0u32;
                            let mut digits = 0;
                            while let Some(d) = self.peek().and_then(|h| h.to_digit(16)) {
                                self.bump();
                                digits += 1;
                                v = v.saturating_mul(16).saturating_add(d);
                            }
                            if digits == 0 || digits > 8 || self.bump() != Some('}') {
                                return Err(self.error(el, ec, "expected `\\u{HEX}`"));
                            }
                            if v > 0x7FFF_FFFF {
                                return Err(self.error(
                                    el,
                                    ec,
                                    format!("`\\u{{{v:x}}}` is beyond 0x7fffffff"),
                                ));
                            }
                            if lead.is_some() {
                                return Err(self.error(el, ec, "unpaired UTF-16 lead surrogate"));
                            }
                            out.push(v);
                            continue;
                        }
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
            if char::from_u32(code).is_none() {
                return Err(self.error(el, ec, format!("`\\u{code:x}` is not a character")));
            }
            out.push(code);
        }
        if lead.is_some() {
            return Err(self.error(line, column, "unpaired UTF-16 lead surrogate"));
        }
        Ok(GString::from_code_points(out).expect("checked: at most 0x7fffffff"))
    }
}

/// `mantissa × 2^exp` as an `f64`, or `None` when it is not exactly one (more than 53
/// significant bits, or out of range): the hex float of exact text is bits, never rounded.
fn exact_hex_float(mantissa: u64, exp: i64) -> Option<f64> {
    if mantissa == 0 {
        return Some(0.0);
    }
    let odd = mantissa >> mantissa.trailing_zeros();
    let mut exp = exp.checked_add(i64::from(mantissa.trailing_zeros()))?;
    let top = exp + i64::from(63 - odd.leading_zeros());
    if odd >> 53 != 0 || exp < -1074 || top > 1023 {
        return None;
    }
    // Scaling by powers of two is exact while the result is representable, which the range
    // check above ensures for every step (each moves toward the final value).
    let mut v = odd as f64;
    while exp != 0 {
        let step = exp.clamp(-1000, 1000);
        v *= 2f64.powi(step as i32);
        exp -= step;
    }
    Some(v)
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
