//! The writer: `var2str` (Godot 3), `var_to_str` (Godot 4) and Pandemonium's `var2str`, rule
//! for rule, plus the lossless variant that prints shortest round-trip reals.
//!
//! Sources (each rule below names its case): Godot 3.x `core/variant_parser.cpp`
//! `VariantWriter::write`, Godot 4.3 `core/variant/variant_parser.cpp` `VariantWriter::write`,
//! Pandemonium `core/variant/variant_parser.cpp`. Where the 3.2.3 binary differs from the
//! source text we could read, the binary wins (each such rule says "observed").
//!
//! The writer is iterative (an explicit stack of pending pieces), so no nesting depth can
//! exhaust the thread's stack.

use super::float::{c_format_g, hex_f64, nan_text, shortest_f32, shortest_f64};
use super::grisu2::{num_scientific_f32, num_scientific_f64};
use super::order::{engine_sort, key_less};
use crate::dialect::Dialect;
use crate::generated::kinds::Kind;
use crate::variant::layout::{real_from_f32_bits, real_to_f32_bits, Scalar};
use crate::variant::*;

/// How reals are printed.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reals {
    /// As the engine does: `%lg`, 6 significant digits.
    Engine,
    /// Shortest digits that read back to the same bits (`to_text_exact`).
    Exact,
}

/// Nesting beyond which Godot 4's writer stops (`if (p_recursion_count > MAX_RECURSION)`,
/// printing `[]`, `{}` or `null`); `MAX_RECURSION` is 100 in core/typedefs.h ("Limit the depth
/// of recursive algorithms when dealing with Array/Dictionary"). Godot 3.2.3 has no such
/// limit (its `var2str` crashed between 10,000 and 20,000 levels); we print everything.
/// Only the engine's text stops there: the exact form writes every level.
const GODOT4_MAX_RECURSION: usize = 100;

/// One pending piece of output.
enum Task<'a> {
    Value(&'a Variant, usize),
    Text(&'static str),
    Owned(String),
}

/// What varies between engine versions and between `var_to_str` and a resource file.
#[derive(Clone, Copy, Default)]
pub(crate) struct Style {
    /// Reals in Grisu2's digits (Godot 4.5+, `Feature::TextShortestReals`), not `%lg`.
    pub shortest: bool,
    /// The writer's `p_compat` off, as a text resource of format 4 writes (Godot 4.3+):
    /// PackedByteArray in base64 and -inf as `-inf` (4.5+) rather than `inf_neg`.
    pub resource_format_4: bool,
}

impl Style {
    /// The style of `var_to_str` in `dialect` at `version`.
    pub(crate) fn of(dialect: Dialect, version: crate::Version) -> Style {
        Style {
            shortest: dialect.has_feature(version, crate::Feature::TextShortestReals),
            resource_format_4: false,
        }
    }
}

pub(crate) fn write(v: &Variant, dialect: Dialect, reals: Reals) -> String {
    write_with(v, dialect, reals, false, Style::default())
}

/// [`write`], with resource references (`ExtResource("1")`) printed as a resource file's
/// text does when `references` is set, in `style`.
pub(crate) fn write_with(
    v: &Variant,
    dialect: Dialect,
    reals: Reals,
    references: bool,
    style: Style,
) -> String {
    let w = Writer {
        dialect,
        reals,
        references,
        style,
    };
    let mut out = String::new();
    let mut stack = vec![Task::Value(v, 0)];
    while let Some(task) = stack.pop() {
        match task {
            Task::Text(s) => out.push_str(s),
            Task::Owned(s) => out.push_str(&s),
            Task::Value(v, depth) => w.value(v, depth, &mut out, &mut stack),
        }
    }
    out
}

struct Writer {
    dialect: Dialect,
    reals: Reals,
    references: bool,
    style: Style,
}

impl Writer {
    fn godot4(&self) -> bool {
        self.dialect == Dialect::Godot4
    }

    /// Whether the engine's writer has given up at `depth` (Godot 4's `MAX_RECURSION`): the
    /// engine's text drops what lies deeper, the exact form never does.
    fn beyond_engine_recursion(&self, depth: usize) -> bool {
        self.godot4() && self.reals == Reals::Engine && depth > GODOT4_MAX_RECURSION
    }

    /// `Name(args)` with the constructor name and spacing the spec gives `kind` in the dialect.
    fn kind_ctor(&self, kind: Kind, args: &[String]) -> String {
        let (name, tight) = self.dialect.text_ctor(kind);
        let (open, close) = if tight { ("(", ")") } else { ("( ", " )") };
        format!("{name}{open}{}{close}", args.join(", "))
    }

    /// A real component (`rtosfix` / `rtos_fix`).
    fn real(&self, v: f64) -> String {
        if self.reals == Reals::Exact {
            // Only math components come here in exact mode: the parser narrows them.
            return exact_real(v, true);
        }
        if v == 0.0 {
            // All three writers: "avoid negative zero (-0) being written".
            return "0".into();
        }
        if self.style.shortest && self.dialect == Dialect::Godot4 {
            // 4.5+ `rtos_fix`: `inf_neg` only with `p_compat`; a value that survives f32 is
            // printed as that f32 ("to avoid garbage digits when the underlying float is
            // 32-bit"); NaN fails the comparison and prints `nan` either way.
            if v == f64::NEG_INFINITY && !self.style.resource_format_4 {
                return "inf_neg".into();
            }
            return if f64::from(v as f32) == v {
                num_scientific_f32(v as f32)
            } else {
                num_scientific_f64(v)
            };
        }
        match self.dialect {
            // 4.3 and Pandemonium `rtos_fix`: NaN of either sign is `nan`, -inf is `inf_neg`.
            Dialect::Godot4 | Dialect::Pandemonium => {
                if v.is_nan() {
                    "nan".into()
                } else if v.is_infinite() {
                    if v > 0.0 { "inf" } else { "inf_neg" }.into()
                } else {
                    c_format_g(v, 6)
                }
            }
            // 3.2.3 `rtosfix` only special-cases zero: `%lg` prints `-inf`, `-nan` (observed).
            Dialect::Godot3 => c_format_g(v, 6),
        }
    }

    /// A `float` / `REAL` value: its real, with `.0` appended when the text would read back
    /// as an int (case FLOAT / REAL).
    fn float(&self, v: f64) -> String {
        let s = match (self.reals, self.dialect) {
            (Reals::Exact, _) => exact_real(v, false),
            // 3.x reads the Variant as `real_t`, i.e. `float`: 1e300 prints `inf`, 1e-300 `0`.
            (Reals::Engine, Dialect::Godot3 | Dialect::Pandemonium) => self.real(v as f32 as f64),
            (Reals::Engine, Dialect::Godot4) => self.real(v),
        };
        // 4.3/Pandemonium skip `inf`, `inf_neg`, `nan`; 3.2.3 skips `inf` and `nan` but
        // prints `-inf.0` and `-nan.0` (observed). Exact text's `-nan` and `nan(0x…)` are
        // not numbers either.
        // 4.5+ also skips `-inf`.
        let special = matches!(s.as_str(), "inf" | "nan" | "inf_neg")
            || (s == "-inf" && self.style.shortest)
            || (self.reals == Reals::Exact && s.contains("nan"));
        if !special && !s.contains('.') && !s.contains('e') {
            format!("{s}.0")
        } else {
            s
        }
    }

    /// An `int32` component of Vector2i & co.: Pandemonium prints them through `rtos_fix`
    /// (so 16777217 becomes `1.67772e+07`); Godot 4 through `itos`.
    fn int_component(&self, v: i32) -> String {
        if self.dialect == Dialect::Pandemonium && self.reals == Reals::Engine {
            self.real(f64::from(v))
        } else {
            v.to_string()
        }
    }

    /// One component of a math value, by its scalar type.
    fn component(&self, scalar: Scalar, x: f64) -> String {
        match scalar {
            Scalar::Real => self.real(x),
            Scalar::I32 => self.int_component(x as i32),
            // `Color` is `float` in every engine: print the f32 itself (widened keeping a
            // NaN's payload, which `f64::from` would quiet).
            Scalar::F32 => self.real(real_from_f32_bits(real_to_f32_bits(x))),
        }
    }

    fn value<'a>(&self, v: &'a Variant, depth: usize, out: &mut String, stack: &mut Vec<Task<'a>>) {
        match v {
            Variant::Nil => out.push_str("null"),
            Variant::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Variant::Int(i) => out.push_str(&i.to_string()),
            Variant::Float(f) => out.push_str(&self.float(*f)),
            // case STRING: `"\"" + str.c_escape_multiline() + "\""` (only `\` and `"`).
            Variant::String(s) => {
                out.push('"');
                out.push_str(&escaped(s, c_escape_multiline));
                out.push('"');
            }
            // STRING_NAME: Godot 4 `&"…"`, Pandemonium `@"…"`, both with `c_escape`. Godot 3
            // has no StringName; we print the Godot 4 form, which our parser reads.
            Variant::StringName(s) => {
                let sigil = if self.dialect == Dialect::Pandemonium {
                    '@'
                } else {
                    '&'
                };
                out.push_str(&format!("{sigil}\"{}\"", escaped(&s.0, c_escape)));
            }
            // The path text cannot hold an empty name or one with `/` or `:` (it would read
            // back split or dropped): exact text lists such a path's parts instead.
            Variant::NodePath(p) if self.reals == Reals::Exact && !plain_path(p) => {
                let list = |parts: &[GString]| {
                    let quoted: Vec<String> = parts
                        .iter()
                        .map(|s| format!("\"{}\"", escaped(s, c_escape)))
                        .collect();
                    quoted.join(", ")
                };
                out.push_str(&format!(
                    "NodePath([{}], [{}], {})",
                    list(&p.names),
                    list(&p.subnames),
                    p.absolute
                ));
            }
            Variant::NodePath(p) => {
                out.push_str(&format!("NodePath(\"{}\")", c_escape(&p.to_string())))
            }
            // RID: Godot 4 `RID()` or `RID(id)` (`itos`, so signed). Godot 3 and Pandemonium
            // have no RID case and print nothing at all (observed on 3.2.3: `var2str(RID())`
            // is the empty string).
            Variant::Rid(id) => {
                if self.godot4() || self.reals == Reals::Exact {
                    if *id == 0 {
                        out.push_str("RID()");
                    } else {
                        out.push_str(&format!("RID({})", *id as i64));
                    }
                }
            }
            // "Do not really store these, but ensure that assignments are not empty."
            Variant::Callable => out.push_str("Callable()"),
            // The engines print no data; exact text keeps the name and the object's id.
            Variant::Signal(sig) if self.reals == Reals::Exact && *sig != Signal::default() => {
                out.push_str("Signal(&\"");
                out.push_str(&c_escape(&sig.name));
                out.push_str(&format!("\", {})", sig.object as i64));
            }
            Variant::Signal(_) => out.push_str("Signal()"),
            Variant::Object(o) => self.object(o, depth, out, stack),
            Variant::Dictionary(d) => self.dictionary(d, depth, out, stack),
            Variant::Array(a) => self.array(a, depth, out, stack),
            // Format 4 resources: `PackedByteArray("base64")`, nothing inside when empty.
            Variant::PackedByteArray(b) if self.style.resource_format_4 => {
                use base64::Engine as _;
                let text = base64::engine::general_purpose::STANDARD.encode(b);
                let quoted = if b.is_empty() {
                    String::new()
                } else {
                    format!("\"{text}\"")
                };
                out.push_str(&self.kind_ctor(Kind::PackedByteArray, &[quoted]))
            }
            Variant::PackedByteArray(b) => {
                let a: Vec<String> = b.iter().map(u8::to_string).collect();
                out.push_str(&self.kind_ctor(Kind::PackedByteArray, &a))
            }
            Variant::PackedInt32Array(b) => {
                let a: Vec<String> = b.iter().map(i32::to_string).collect();
                out.push_str(&self.kind_ctor(Kind::PackedInt32Array, &a))
            }
            Variant::PackedInt64Array(b) => {
                let a: Vec<String> = b.iter().map(i64::to_string).collect();
                out.push_str(&self.kind_ctor(Kind::PackedInt64Array, &a))
            }
            Variant::PackedFloat32Array(b) => {
                let a: Vec<String> = b
                    .iter()
                    .map(|&x| match self.reals {
                        Reals::Exact => exact_real(real_from_f32_bits(x.to_bits()), true),
                        Reals::Engine => self.real(f64::from(x)),
                    })
                    .collect();
                out.push_str(&self.kind_ctor(Kind::PackedFloat32Array, &a))
            }
            Variant::PackedFloat64Array(b) => {
                let a: Vec<String> = b
                    .iter()
                    .map(|&x| match self.reals {
                        Reals::Exact => exact_real(x, false),
                        Reals::Engine => self.real(x),
                    })
                    .collect();
                out.push_str(&self.kind_ctor(Kind::PackedFloat64Array, &a))
            }
            // Elements use `c_escape` (unlike a String value).
            Variant::PackedStringArray(b) => {
                let a: Vec<String> = b
                    .iter()
                    .map(|s| format!("\"{}\"", escaped(s, c_escape)))
                    .collect();
                out.push_str(&self.kind_ctor(Kind::PackedStringArray, &a))
            }
            // Fixed layouts and packed arrays of them: the constructor the spec names for the
            // dialect, then every component in wire order (which is also the text order).
            _ => {
                let (kind, comps, values) = if let Some(f) = v.as_fixed() {
                    (f.kind(), f.components(), f.values())
                } else if let Some(p) = v.as_packed() {
                    (p.kind(), p.components(), p.values())
                } else {
                    return;
                };
                let args: Vec<String> = values
                    .iter()
                    .zip(comps.iter().cycle())
                    .map(|(&x, c)| self.component(c.scalar, x))
                    .collect();
                out.push_str(&self.kind_ctor(kind, &args));
            }
        }
    }

    /// case OBJECT: `null` for no object; a Resource with a file path as `Resource("path")`;
    /// else `Object(Class,"prop":value,…)` and a newline, over the properties with storage or
    /// script-variable usage. A decoded object holds exactly what the bytes sent, so we print
    /// those, in the order sent (the engine's property-list order).
    fn object<'a>(&self, o: &'a Object, depth: usize, out: &mut String, stack: &mut Vec<Task<'a>>) {
        if self.beyond_engine_recursion(depth) {
            out.push_str("null");
            return;
        }
        match o {
            // Exact text tells a null object from Nil (two Dictionary keys, an element of an
            // `Array[Object]`): `null` reads back as Nil.
            Object::Null if self.reals == Reals::Exact => out.push_str("Object()"),
            Object::Null => out.push_str("null"),
            // `bytes_to_var` turns an id into an `EncodedObjectAsID` whose one property is
            // `object_id` (an int, so printed signed), then its `script`.
            Object::Id(id) => out.push_str(&format!(
                "Object(EncodedObjectAsID,\"object_id\":{},\"script\":null)\n",
                *id as i64
            )),
            Object::Full(full) if self.references && super::reference_target(o).is_some() => {
                // Godot 4 quotes the id, Godot 3 writes an int id with its spacing.
                match (&full.properties[0].1, self.godot4()) {
                    (Variant::Int(i), true) => out.push_str(&format!("{}({i})", full.class)),
                    (Variant::Int(i), false) => out.push_str(&format!("{}( {i} )", full.class)),
                    (v, _) => out.push_str(&format!(
                        "{}(\"{}\")",
                        full.class,
                        v.as_gstring().map_or("", |s| s.as_str())
                    )),
                }
            }
            Object::Full(full) => {
                out.push_str(&format!("Object({},", self.class_name(&full.class)));
                stack.push(Task::Text(")\n"));
                for (i, (name, value)) in full.properties.iter().enumerate().rev() {
                    // Godot 4 sends `script` as its `res://` path (marshalls.cpp, case
                    // OBJECT); the decoding engine loads that script, which then prints as
                    // an external resource.
                    match (self.godot4(), name.as_str(), value) {
                        (true, "script", Variant::String(path)) if !path.is_empty() => {
                            stack.push(Task::Owned(self.resource_ref(path)));
                        }
                        _ => stack.push(Task::Value(value, depth + 1)),
                    }
                    // The engine prints the name verbatim; exact text escapes it so that
                    // any name reads back.
                    let name = match self.reals {
                        Reals::Engine => std::borrow::Cow::Borrowed(name.as_str()),
                        Reals::Exact => c_escape_multiline(name).into(),
                    };
                    stack.push(Task::Owned(format!("\"{name}\":")));
                    if i > 0 {
                        stack.push(Task::Text(","));
                    }
                }
            }
        }
    }

    fn dictionary<'a>(
        &self,
        d: &'a Dictionary,
        depth: usize,
        out: &mut String,
        stack: &mut Vec<Task<'a>>,
    ) {
        let typed = d.typed();
        if let Some(t) = typed {
            // 4.4+ typed dictionaries: `Dictionary[K, V](…)`, `Variant` for an untyped side.
            out.push_str("Dictionary[");
            let side = |t: &Option<ElementType>| {
                t.as_ref()
                    .map_or("Variant".into(), |t| self.element_type_text(t))
            };
            out.push_str(&side(&t.key));
            out.push_str(", ");
            out.push_str(&side(&t.value));
            out.push_str("](");
            stack.push(Task::Text(")"));
        }
        if self.beyond_engine_recursion(depth) {
            out.push_str("{}");
            return;
        }
        let mut entries: Vec<&'a (Variant, Variant)> = d.entries().iter().collect();
        // The engines print keys sorted, but their parsers keep the order they read: so the
        // exact form keeps the insertion order, which then reads back unchanged.
        if self.reals == Reals::Engine {
            let dialect = self.dialect;
            engine_sort(&mut entries, &|a, b| key_less(&a.0, &b.0, dialect));
        }
        match self.dialect {
            // 4.3: `{}` when empty, else `{\n` + `k: v` joined by `,\n` + `\n}`.
            Dialect::Godot4 if entries.is_empty() => {
                out.push_str("{}");
                return;
            }
            // 3.x: `{\n` + entries joined by `,\n` + `\n}`, so `{\n\n}` when empty.
            Dialect::Godot3 if entries.is_empty() => {
                out.push_str("{\n\n}");
                return;
            }
            // Pandemonium: each entry ends in `,\n` or `\n`, so `{\n}` when empty.
            _ => out.push_str("{\n"),
        }
        stack.push(Task::Text("\n}"));
        let n = entries.len();
        for (i, (k, v)) in entries.into_iter().map(|e| (&e.0, &e.1)).enumerate().rev() {
            if i + 1 < n {
                stack.push(Task::Text(",\n"));
            }
            if !self.godot4() && self.reals == Reals::Engine && godot3_key_lookup_fails(k) {
                // The writer prints `dict[key]`, a lookup by hash and `hash_compare`, and in
                // 3.x a PoolRealArray holding NaN is not equal to itself there: the lookup
                // misses and the engine prints `null` (observed on 3.2.3, also when the
                // PoolRealArray sits inside an Array key or among a Dictionary key's keys).
                stack.push(Task::Text("null"));
            } else {
                stack.push(Task::Value(v, depth + 1));
            }
            stack.push(Task::Text(": "));
            stack.push(Task::Value(k, depth + 1));
        }
        if self.dialect == Dialect::Pandemonium && n == 0 {
            // `{\n` then `}`.
            stack.pop();
            stack.push(Task::Text("}"));
        }
    }

    fn array<'a>(&self, a: &'a Array, depth: usize, out: &mut String, stack: &mut Vec<Task<'a>>) {
        if let Some(t) = a.typed.as_deref() {
            // 4.3+: `Array[T](` … `)`; T is the type name, the class name, or the script as
            // a resource reference. Pandemonium 5's packed typed arrays have no text of their
            // own; exact text names them `PackedTypedArray[T](` … `)`.
            if t.pandemonium_packed && self.reals == Reals::Exact {
                out.push_str("PackedTypedArray[");
            } else {
                out.push_str("Array[");
            }
            out.push_str(&self.element_type_text(&t.element));
            out.push_str("](");
            stack.push(Task::Text(")"));
        }
        if self.beyond_engine_recursion(depth) {
            out.push_str("[]");
            return;
        }
        let (open, sep, close) = if self.godot4() {
            ("[", ", ", "]")
        } else {
            // 3.x: `[ ` … ` ]`, so `[  ]` when empty (observed).
            ("[ ", ", ", " ]")
        };
        out.push_str(open);
        stack.push(Task::Text(close));
        for (i, item) in a.items.iter().enumerate().rev() {
            stack.push(Task::Value(item, depth + 1));
            if i > 0 {
                stack.push(Task::Text(sep));
            }
        }
    }
}

/// Whether a Godot 3 Dictionary key fails to find itself (see the caller).
fn godot3_key_lookup_fails(k: &Variant) -> bool {
    match k {
        Variant::PackedFloat32Array(a) => a.iter().any(|x| x.is_nan()),
        Variant::Array(a) => a.items.iter().any(godot3_key_lookup_fails),
        Variant::Dictionary(d) => d.entries().iter().any(|(k, _)| godot3_key_lookup_fails(k)),
        _ => false,
    }
}

/// A real printed so that it reads back to the same bits. `narrowed`: the parser narrows
/// it to `f32` (math components, PackedFloat32Array, as a single-precision engine stores
/// them), so it prints as the shortest `f32` digits when it is one, and as a hex float
/// (never narrowed) when it needs double precision. `-0` keeps its sign, `-inf` is `inf_neg`
/// (which both engines' parsers know); a NaN keeps its sign and payload (`nan_text`).
fn exact_real(v: f64, narrowed: bool) -> String {
    if v.is_nan() {
        nan_text(v)
    } else if v.is_infinite() {
        if v > 0.0 { "inf" } else { "inf_neg" }.into()
    } else if !narrowed {
        shortest_f64(v)
    } else if f64::from(v as f32) == v {
        shortest_f32(v as f32)
    } else {
        hex_f64(v)
    }
}

impl Writer {
    /// `Resource("path")` as 4.3 writes an external resource (`"Resource(\"" + path +
    /// "\")"`, the path not escaped); exact text escapes it so that any path reads back.
    fn resource_ref(&self, path: &str) -> String {
        match self.reals {
            Reals::Engine => format!("Resource(\"{path}\")"),
            Reals::Exact => format!("Resource(\"{}\")", c_escape_multiline(path)),
        }
    }

    /// A class name: verbatim, as the engines print it; in exact text a name the parser
    /// would not read back as that class (not an identifier) is a quoted string.
    fn class_name(&self, class: &str) -> String {
        // Bare, `EncodedObjectAsID` holding an `object_id` reads back as an object sent by
        // id; quoted, it stays a full object of that class.
        if self.reals == Reals::Exact && (!is_identifier(class) || class == "EncodedObjectAsID") {
            format!("\"{}\"", c_escape_multiline(class))
        } else {
            class.to_string()
        }
    }

    /// The text of a typed container's element type. In exact text a class whose name is
    /// also a builtin type's or `Variant` is quoted too: bare, it would read back as that
    /// type (`Array[Object]` is the builtin OBJECT, as in the engine).
    fn element_type_text(&self, t: &ElementType) -> String {
        match t {
            ElementType::Builtin(k) => type_name(*k).to_string(),
            ElementType::Class(c)
                if self.reals == Reals::Exact && (c == "Variant" || builtin_kind(c).is_some()) =>
            {
                format!("\"{}\"", c_escape_multiline(c))
            }
            ElementType::Class(c) => self.class_name(c),
            ElementType::Script(path) => self.resource_ref(path),
        }
    }
}

/// Whether the path text of `p` reads back as `p`: no name or subname is empty, holds the
/// separators `/` and `:`, or is not Unicode.
fn plain_path(p: &NodePath) -> bool {
    p.names
        .iter()
        .chain(&p.subnames)
        .all(|n| !n.is_empty() && !n.contains(['/', ':']) && n.is_unicode())
}

/// Whether `s` reads back as one identifier token (`[A-Za-z_][A-Za-z0-9_]*`).
fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A builtin type by its `Variant::get_type_name` (Godot 4 names), as a typed container's
/// header names it. Every kind the wire can type a container by is one: `Nil` (the
/// engine's `get_type_by_name("Nil")` is NIL) and Pandemonium's `TypedArray` too; a class
/// with such a name is quoted in exact text.
pub(crate) fn builtin_kind(name: &str) -> Option<Kind> {
    Kind::ALL.iter().copied().find(|k| type_name(*k) == name)
}

/// `Variant::get_type_name` of Godot 4 (core/variant/variant.cpp), plus Pandemonium's
/// extra packed types.
pub(crate) fn type_name(k: Kind) -> &'static str {
    match k {
        Kind::Nil => "Nil",
        Kind::Bool => "bool",
        Kind::Int => "int",
        Kind::Float => "float",
        Kind::String => "String",
        Kind::Aabb => "AABB",
        Kind::Rid => "RID",
        other => other.name(),
    }
}

/// `String::c_escape` (core/string/ustring.cpp): `\\`, `\a`, `\b`, `\f`, `\n`, `\r`, `\t`,
/// `\v`, `\'`, `\?`, `\"`; everything else as is.
pub(crate) fn c_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0b' => out.push_str("\\v"),
            '\'' => out.push_str("\\'"),
            '?' => out.push_str("\\?"),
            '"' => out.push_str("\\\""),
            c => out.push(c),
        }
    }
    out
}

/// A string's text escaped by `escape`; a code point a `str` cannot hold (a string Godot 3
/// keeps that is not Unicode, see [`GString`]) as our own escape `\u{d800}`, which the
/// parser reads back as that code point alone.
fn escaped(s: &GString, escape: fn(&str) -> String) -> String {
    if s.is_unicode() {
        return escape(s);
    }
    let mut out = String::new();
    let mut run = String::new();
    for cp in s.code_points() {
        match char::from_u32(cp) {
            Some(c) => run.push(c),
            None => {
                out.push_str(&escape(&run));
                run.clear();
                out.push_str(&format!("\\u{{{cp:x}}}"));
            }
        }
    }
    out.push_str(&escape(&run));
    out
}

/// `String::c_escape_multiline`: only `\\` and `\"`; newlines and control characters stay raw.
pub(crate) fn c_escape_multiline(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
