//! Godot's text form of values: `var2str` / `str2var` (Godot 3), `var_to_str` /
//! `str_to_var` (Godot 4), and the value syntax of `.tres` / `.tscn` files.
//!
//! [`to_text`] prints a value exactly as the engine of a dialect prints it (checked
//! character for character against Godot 3.2.3 and Godot 4.3); [`from_text`] reads that
//! syntax back, and what people write by hand; [`to_text_exact`] is a lossless variant.
//!
//! ```
//! use gdvariant::{from_text, to_text, to_text_exact, Dialect, Variant};
//!
//! // Read hand-written text; print it as Godot 4's var_to_str and Godot 3's var2str do
//! // (keys sorted, one per line, each engine's spacing).
//! let value = from_text(r#"{"pos": Vector2(1, 2), "hp": 2.5}"#, Dialect::Godot4)?;
//! assert_eq!(to_text(&value, Dialect::Godot4), "{\n\"hp\": 2.5,\n\"pos\": Vector2(1, 2)\n}");
//! assert_eq!(to_text(&value, Dialect::Godot3), "{\n\"hp\": 2.5,\n\"pos\": Vector2( 1, 2 )\n}");
//!
//! // The engines print 6 significant digits; to_text_exact keeps every bit.
//! let third = Variant::Float(1.0 / 3.0);
//! assert_eq!(to_text(&third, Dialect::Godot4), "0.333333");
//! assert_eq!(from_text(&to_text_exact(&third, Dialect::Godot4), Dialect::Godot4)?, third);
//!
//! // Errors say where.
//! let err = from_text("[1, 2,\n Vector2(1)]", Dialect::Godot4).unwrap_err();
//! assert_eq!(err.to_string(), "`Vector2` takes 2 arguments, found 1 at line 2, column 9");
//! # Ok::<(), gdvariant::TextError>(())
//! ```
//!
//! # What the engine's text loses
//!
//! The engine's text is meant for people, and it drops information. `to_text` reproduces
//! that faithfully, so `from_text(&to_text(v, d), d)` gives back `v` only when none of these
//! apply (use [`to_text_exact`] when you need the value back):
//!
//! - **Reals** are printed with 6 significant digits (`%lg`): `1.0 / 3.0` is `0.333333`,
//!   `16777217.0` is `1.67772e+07`. `-0.0` prints as `0`. NaN payloads and the sign of NaN
//!   are lost (Godot 3 prints `-nan`, which no parser reads).
//! - **Godot 3 `float`s** are printed through `real_t` (single precision): `1e300` prints
//!   `inf`, `1e-300` prints `0.0`. Godot 3 prints `-INF` as `-inf.0`, which its own `str2var`
//!   reads as the int `0`; our parser reads it as `-inf`.
//! - **Dictionary key order**: both engines sort keys when printing (bytes keep insertion
//!   order), so a dictionary parsed from their text has its keys in the engine's sort order.
//!   The exact form keeps the insertion order (the parsers keep the order they read).
//! - **Signal** prints as `Signal()` and **Callable** as `Callable()` (no name, no object);
//!   the exact form writes a Signal's name and object id: `Signal(&"hit", 1234)`.
//! - **RID**: Godot 3 and Pandemonium print nothing at all for an RID (the text is empty).
//! - **Objects**: a null object prints `null` (and reads back as Nil, which is what the
//!   engines send for a null object anyway). An object sent by id prints as the engine's
//!   `EncodedObjectAsID` and reads back as the same id. A full object prints the properties
//!   the bytes carried; the engine's own text also lists its script's plain variables and
//!   any property the bytes did not carry, which a value as data cannot know.
//! - `Array[Object]` typed by the class `Object` and by the builtin type `OBJECT` print the
//!   same; the text reads back as the builtin form (as in the engine).
//! - StringName, NodePath and PackedStringArray elements are escaped with `c_escape`, which
//!   writes `\a` and `\v`; the engines read those back as `a` and `v`, we read them as the
//!   control characters they stand for.
//! - **Nesting**: Godot 4 stops printing 100 levels deep (its `MAX_RECURSION`): a deeper
//!   Array, Dictionary or Object prints as `[]`, `{}` or `null`. Godot 3 and Pandemonium
//!   print every level.
//! - **Names** print verbatim: a class name that is not an identifier, a property name or a
//!   script path holding `"` make text that does not parse; NodePath names that are empty or
//!   hold `/` or `:` read back split or dropped.
//!
//! # The exact form
//!
//! [`to_text_exact`] prints the engine's text wherever that text reads back as the very same
//! value, and one of these forms only where it does not (the engines' parsers do not read
//! them; [`from_text`] does):
//!
//! - **Reals**: shortest round-trip digits (`f32` digits for math components and
//!   `PackedFloat32Array`, which the parser narrows to `f32` as a single-precision engine
//!   does; `f64` digits for `float` and `PackedFloat64Array`); `-0` keeps its sign.
//! - A math component that single precision cannot hold (Godot 4 `FLAG_64` data) is a C99
//!   hex float, `0x1.999999999999ap-4`, which the parser never narrows (it refuses a hex
//!   float that is not exactly a double).
//! - **NaN**: `nan` is the positive quiet NaN, `-nan` the negative one; any other NaN is
//!   `nan(0x…)` with the 64 bits of the double (a single-precision NaN as the double it
//!   widens to, payload bits shifted up by 29, which narrow back to the same `f32`).
//! - **Null object**: `Object()`, so that it stays apart from Nil (`null`), as a Dictionary
//!   key or an element.
//! - **Names**: a class name that is not an identifier is a quoted string (`Object("a b",…)`);
//!   in a typed header a class named like a builtin type or `Variant` is quoted too
//!   (`Array["Object"]`, `Dictionary["Nil", Variant]`: bare, those are the builtin types).
//!   Property names and script paths (`Resource("…")`) are escaped like strings.
//! - **NodePath** with an empty name or subname, or one holding `/` or `:`:
//!   `NodePath(["names", …], ["subnames", …], absolute)`, each part escaped like a string.
//!
//! - **Pandemonium 5's packed typed arrays**: `PackedTypedArray[T]([…])` (the engine prints
//!   them as typed arrays).
//!
//! The exact form loses nothing a value holds (a Callable holds nothing: the engines send no
//! data for it). (A full object of class `EncodedObjectAsID` prints its class
//! quoted, so it does not read back as an object sent by id.)
//!
//! # Leniency of [`from_text`]
//!
//! Besides what the engines write, the parser accepts both spacings (`Vector2( 1, 2 )`,
//! `Vector2(1,2)`), Godot 2/3/4 names (`Quat`, `Transform`, `PoolIntArray`, `Matrix32`, …),
//! trailing commas everywhere, `;` comments, `Color(r, g, b)`, `#rrggbb` colors, `inf`,
//! `-inf`, `inf_neg`, `nan`, StringNames as `&"…"` or `@"…"`, NodePaths as `NodePath("…")`
//! or `^"…"`, escapes `\n \t \r \b \f \a \v \" \\ \uXXXX \UXXXXXX` (UTF-16 pairs too), and
//! raw newlines in strings, and the forms of the exact text above. Reals of math types are
//! narrowed to `f32`, as a single-precision engine stores them (hex floats and `nan(0x…)`
//! excepted); `float` values stay `f64`. It refuses what a value as data cannot
//! hold (`Resource("…")` outside an object's `script` or a typed container's type) and
//! anything after the value.

mod config_file;
mod construct;
mod float;
mod grisu2;
mod lex;
mod order;
mod parse;
mod stream;
mod write;

use crate::dialect::Dialect;
use crate::variant::Variant;

#[cfg(feature = "containers")]
pub use config_file::{config_file_from_encrypted, config_file_to_encrypted};
pub use config_file::{ConfigError, ConfigFile};
pub(crate) use order::sort_entries_by_key;
pub use parse::MAX_TEXT_DEPTH;

/// Why text could not be parsed: what was wrong and where (1-based line and column, in
/// characters).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} at line {line}, column {column}")]
pub struct TextError {
    /// Line of the offending token, from 1.
    pub line: usize,
    /// Column of the offending token, from 1, counted in characters.
    pub column: usize,
    /// What was wrong, e.g. ``expected `)`, found `,` ``.
    pub message: String,
}

/// Prints `value` exactly as the dialect's engine prints it: Godot 3.2.3's `var2str`,
/// Godot 4.3's `var_to_str`, Pandemonium's `var2str`.
///
/// The text is lossy where the engine's is (see the [module docs](self)). In particular
/// Godot 4's `var_to_str` stops at its recursion limit (`MAX_RECURSION`, 100 levels): an
/// Array, Dictionary or Object nested deeper prints as `[]`, `{}` or `null`, and so does it
/// here. [`to_text_exact`] writes every level.
///
/// ```
/// use gdvariant::math::Vector2;
/// use gdvariant::{to_text, from_text, Dialect, Variant};
///
/// let v = Variant::Vector2(Vector2::new(1.5, -2.0));
/// assert_eq!(to_text(&v, Dialect::Godot4), "Vector2(1.5, -2)");
/// assert_eq!(to_text(&v, Dialect::Godot3), "Vector2( 1.5, -2 )");
/// assert_eq!(from_text("Vector2( 1.5, -2 )", Dialect::Godot3).unwrap(), v);
/// ```
pub fn to_text(value: &Variant, dialect: Dialect) -> String {
    write::write(value, dialect, write::Reals::Engine)
}

/// `var_to_str` as the engine of `version` writes it. [`to_text`] writes as Godot 3 and
/// Godot 4.0 to 4.4 do; from 4.5 the engine prints reals with Grisu2's digits, which read
/// back to the same float (as a 32-bit float's when the value survives narrowing to `f32`),
/// where older engines print six significant digits.
///
/// ```
/// use gdvariant::{text::to_text_version, to_text, Dialect, Variant, Version};
///
/// let v = Variant::Float(78.23043_f32 as f64);
/// assert_eq!(to_text(&v, Dialect::Godot4), "78.2304");
/// let v47: Version = "4.7".parse().unwrap();
/// assert_eq!(to_text_version(&v, Dialect::Godot4, v47), "78.23043");
/// let third = Variant::Float(1.0 / 3.0);
/// assert_eq!(to_text_version(&third, Dialect::Godot4, v47), "0.3333333333333333");
/// ```
pub fn to_text_version(value: &Variant, dialect: Dialect, version: crate::Version) -> String {
    write::write_with(
        value,
        dialect,
        write::Reals::Engine,
        false,
        write::Style::of(dialect, version),
    )
}

/// Like [`to_text`], but every real is printed with the shortest digits that read back to
/// the same bits (`f32` components as `f32`, `float` as `f64`), `-0.0` keeps its sign and an
/// RID keeps its id, Dictionary keys keep their insertion order and a Signal its name and
/// object, so that [`from_text`] gives back the same value bit for bit. Where the engine's syntax cannot hold a value
/// (NaN payloads, double-precision math reals, odd names, a null object) it uses the forms
/// listed under [the exact form](self#the-exact-form), which only [`from_text`] reads;
/// everything else is syntax the engines' parsers read.
///
/// ```
/// use gdvariant::{to_text, to_text_exact, from_text, Dialect, Variant};
///
/// let v = Variant::Float(1.0 / 3.0);
/// assert_eq!(to_text(&v, Dialect::Godot4), "0.333333");
/// assert_eq!(to_text_exact(&v, Dialect::Godot4), "0.3333333333333333");
/// assert_eq!(from_text(&to_text_exact(&v, Dialect::Godot4), Dialect::Godot4).unwrap(), v);
/// ```
pub fn to_text_exact(value: &Variant, dialect: Dialect) -> String {
    write::write(value, dialect, write::Reals::Exact)
}

/// Parses one value in the engines' text syntax (see the [module docs](self) for what is
/// accepted beyond what the engines write). The syntax of every dialect is accepted whatever
/// `dialect` says (Godot 3 names in Godot 4 text and the reverse); a value the dialect cannot
/// hold, such as a StringName for Godot 3, is refused later by [`encode`](fn@crate::encode).
///
/// ```
/// use gdvariant::{from_text, Dialect};
///
/// let err = from_text("[1, Vector2(1, 2]", Dialect::Godot4).unwrap_err();
/// assert_eq!(err.to_string(), "expected `,` or `)`, found `]` at line 1, column 17");
/// assert_eq!((err.line, err.column), (1, 17));
/// ```
pub fn from_text(text: &str, dialect: Dialect) -> Result<Variant, TextError> {
    parse::Parser::new(text, dialect)?.parse_document()
}

/// Parses any number of values written one after another (as `gdvariant decode --format
/// text` prints a file of several values), with the same syntax as [`from_text`].
///
/// ```
/// use gdvariant::{text::from_text_many, Dialect, Variant};
///
/// let values = from_text_many("42\n\"hi\"\n[ 1, 2 ]\n", Dialect::Godot3)?;
/// assert_eq!(values.len(), 3);
/// assert_eq!(values[0], Variant::Int(42));
/// # Ok::<(), gdvariant::TextError>(())
/// ```
pub fn from_text_many(text: &str, dialect: Dialect) -> Result<Vec<Variant>, TextError> {
    parse::Parser::new(text, dialect)?.parse_sequence()
}

/// Parses values written one after another, as [`from_text_many`] does, and appends each
/// one's bytes to `out`, framed as `format` says (what [`frame_into`] appends for each
/// parsed value), without holding the values: a top-level Array or Dictionary is encoded
/// element by element as it is read, so a text of one Dictionary of a million entries takes
/// about its own size again in memory, not the five times its values would.
///
/// The outer error is the text's (nothing of `out` is kept then, as nothing would have been
/// encoded after a failed parse). The inner one is the first value the encoder refuses, with
/// its index from 0: `out` then holds the frames of the values before it, and the rest of the
/// text has still been checked to parse.
///
/// [`frame_into`]: crate::framing::frame_into
///
/// ```
/// use gdvariant::{text::encode_text_many, Format};
///
/// let format = Format::godot4(); // bare values
/// let mut out = Vec::new();
/// encode_text_many("{\"hp\": 2}", &format, &mut out)?.expect("encodable");
/// assert_eq!(out, [27, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0, 2, 0, 0, 0, 2, 0, 0, 0]);
/// # Ok::<(), gdvariant::TextError>(())
/// ```
pub fn encode_text_many(
    text: &str,
    format: &crate::Format,
    out: &mut Vec<u8>,
) -> Result<Result<(), (usize, crate::EncodeError)>, TextError> {
    let start = out.len();
    let mut parser = parse::Parser::new(text, format.dialect)?;
    let mut refused = None;
    let mut i = 0;
    while !parser.at_end() {
        let read = match refused {
            // After a refused value the encoder has nothing more to say: the text is only
            // checked.
            Some(_) => parser.skip_value(),
            None => parser.encode_next(out, format).map(|r| {
                if let Err(e) = r {
                    refused = Some((i, e));
                }
            }),
        };
        if let Err(e) = read {
            out.truncate(start);
            return Err(e);
        }
        i += 1;
    }
    Ok(match refused {
        None => Ok(()),
        Some(r) => Err(r),
    })
}

/// The engine's text form, as Godot 4's `var_to_str` prints it ([`to_text`] with
/// [`Dialect::Godot4`]); `{:#}` prints [`to_text_exact`]'s lossless form instead. It lives
/// here, in the text layer, because the value model names none of the layers above it.
///
/// ```
/// use gdvariant::math::Vector2;
/// use gdvariant::Variant;
///
/// let mut v = Variant::Nil;
/// v["pos"] = Vector2::new(1.0, 2.0).into();
/// v["third"] = (1.0 / 3.0).into();
/// assert_eq!(v.to_string(), "{\n\"pos\": Vector2(1, 2),\n\"third\": 0.333333\n}");
/// assert_eq!(format!("{:#}", v["third"]), "0.3333333333333333");
/// ```
impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = if f.alternate() {
            to_text_exact(self, Dialect::Godot4)
        } else {
            to_text(self, Dialect::Godot4)
        };
        f.write_str(&text)
    }
}

/// The class names that mark a resource file's references inside a value: an object of
/// class `ExtResource` or `SubResource` whose one property `id` is the section's id (a
/// string in Godot 4 files, an int in Godot 3's). No engine class has these names.
pub const REFERENCE_CLASSES: [&str; 2] = ["ExtResource", "SubResource"];

/// A reference to an `[ext_resource]` (`class` `"ExtResource"`) or a `[sub_resource]`
/// (`"SubResource"`) of a resource file, as a value: an object of that class holding the id.
///
/// ```
/// use gdvariant::text::{reference_of, resource_reference};
/// use gdvariant::Variant;
///
/// let r = resource_reference("SubResource", Variant::from("Resource_xy0r6"));
/// let (class, id) = reference_of(&r).unwrap();
/// assert_eq!((class, id), ("SubResource", &Variant::from("Resource_xy0r6")));
/// ```
pub fn resource_reference(class: &str, id: Variant) -> Variant {
    Variant::Object(crate::variant::Object::Full(Box::new(
        crate::variant::FullObject {
            class: class.to_string(),
            properties: vec![("id".to_string(), id)],
        },
    )))
}

/// The class (`"ExtResource"` or `"SubResource"`) and id of a reference made by
/// [`resource_reference`], or `None` for any other value.
pub fn reference_of(value: &Variant) -> Option<(&str, &Variant)> {
    match value {
        Variant::Object(o) => reference_target(o),
        _ => None,
    }
}

pub(crate) fn reference_target(o: &crate::variant::Object) -> Option<(&str, &Variant)> {
    match o {
        crate::variant::Object::Full(full)
            if REFERENCE_CLASSES.contains(&full.class.as_str())
                && full.properties.len() == 1
                && full.properties[0].0 == "id"
                && matches!(full.properties[0].1, Variant::Int(_) | Variant::String(_)) =>
        {
            Some((full.class.as_str(), &full.properties[0].1))
        }
        _ => None,
    }
}

/// One value of a resource file's property, with references read as [`resource_reference`]
/// objects, and the byte length of `text` it took up to the next token (or the end).
pub(crate) fn parse_resource_value(
    text: &str,
    dialect: Dialect,
) -> Result<(Variant, usize), TextError> {
    let mut parser = parse::Parser::new(text, dialect)?;
    parser.references = true;
    let value = parser.value_within(0)?;
    if parser.at_end() {
        return Ok((value, text.len()));
    }
    // The parser holds the next token: its line and column give where it starts.
    let (line, column) = (parser.line, parser.column);
    let mut at = 0;
    for _ in 1..line {
        at += text[at..].find('\n').map_or(text.len() - at, |n| n + 1);
    }
    let offset = text[at..]
        .char_indices()
        .nth(column - 1)
        .map_or(text.len(), |(i, _)| at + i);
    Ok((value, offset))
}

/// A resource file property's text: [`to_text`] with references printed as the file's
/// `ExtResource(…)` / `SubResource(…)`, in a file of format 4 (Godot 4.3+: base64
/// PackedByteArray) when `format_4` is set, with Godot 4.5's reals when `shortest` is.
pub(crate) fn write_resource_value(
    value: &Variant,
    dialect: Dialect,
    format_4: bool,
    shortest: bool,
) -> String {
    let style = write::Style {
        resource_format_4: format_4,
        shortest,
    };
    write::write_with(value, dialect, write::Reals::Engine, true, style)
}
