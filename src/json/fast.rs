//! A reader for JSON laid out as our writer lays it out, which builds values straight from the bytes and gives up on anything else, so that the serde reader judges it.
//!
//! Decoding a save to JSON and encoding it back is the command's common pipe, and reading
//! through serde's visitors took 4 s of CPU for the 280 MB of JSON of a 100 MB savegame.
//! This reader takes value objects whose `type` comes before their `value` (compact or with
//! blanks, other keys such as `element_type` before, between or after them), Arrays and
//! Dictionaries with or without element types, and leaves as the writer writes them: plain
//! JSON tokens, math values and packed arrays with numbers for components, objects (a
//! NodePath, a Transform3D) with exactly the writer's keys in its order. Any other leaf's
//! `value` (a real written as "inf", a string as `engine_utf8`, an Object…) is parsed into a
//! [`Value`] and converted by [`Reader`], as the serde reader converts it. On anything else (a `value` before the `type`, a repeated key, a mistake,
//! nesting past [`MAX_FAST_DEPTH`]) it answers `None`, and [`super::seed::read_document`]
//! reads the document from its start: results are the serde reader's, and every error is
//! its own. `tests/json_fast.rs` and the fuzz target `json` check that both agree.

use super::read::Reader;
use super::scalars::ESCAPED;
use super::*;
use crate::variant::key::same_key;

/// Value objects nested deeper than this go to the serde reader (each takes two JSON levels).
const MAX_FAST_DEPTH: u32 = MAX_JSON_DEPTH as u32 / 2;

/// How many bytes at the start of `s` run before an [`ESCAPED`] byte, which ends the plain
/// run of a JSON string (all of them if none), found eight bytes at a time.
fn plain_run(s: &[u8]) -> usize {
    let mut n = 0;
    while let Some(w) = s.get(n..n + 8) {
        let stop = stops(u64::from_le_bytes(w.try_into().unwrap_or_default()));
        if stop != 0 {
            return n + (stop.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    let tail = &s[n..];
    n + tail
        .iter()
        .position(|&c| ESCAPED[usize::from(c)])
        .unwrap_or(tail.len())
}

/// Marks (high bits) the bytes of `x`, eight bytes of a JSON string read little-endian, that
/// end a plain run: quotes, backslashes, control characters. The lowest mark is exact, any
/// above it may be false: the lowest is the answer.
#[inline]
fn stops(x: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // `(x - ONES * n) & !x & HIGH` marks the bytes of `x` below `n`: exactly at the lowest
    // one, so the lowest mark of the three is the first of the bytes.
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    below(x ^ (ONES * u64::from(b'"')), 1)
        | below(x ^ (ONES * u64::from(b'\\')), 1)
        | below(x, 0x20)
}

/// The bytes of a hex string, when it is only pairs of hex digits (blanks, signs and odd
/// lengths are the serde reader's).
fn hex_bytes(s: &str) -> Option<Vec<u8>> {
    let nibble = |c: u8| (c as char).to_digit(16);
    let s = s.as_bytes();
    if s.len() % 2 == 1 {
        return None;
    }
    s.chunks_exact(2)
        .map(|p| Some((nibble(p[0])? << 4 | nibble(p[1])?) as u8))
        .collect()
}

/// The keys beside `type` and `value` read so far (`none`, an empty map, when `None`).
fn keys<'a>(
    beside: &'a Option<Map<String, Value>>,
    none: &'static Map<String, Value>,
) -> &'a Map<String, Value> {
    beside.as_ref().unwrap_or(none)
}

/// Scratch stacks ([`Fast::items`], [`Fast::entries`]) of fewer elements than this are kept
/// for the next document read on the thread, so that their room is made once, not for each
/// line of JSON Lines; bigger ones are freed with their document.
const SCRATCH_KEPT: usize = 1 << 12;

thread_local! {
    static SCRATCH: std::cell::Cell<Scratch> = const { std::cell::Cell::new((Vec::new(), Vec::new())) };
}

type Scratch = (Vec<Variant>, Vec<(Variant, Variant)>);

/// The value of `text`, one JSON document, if it is laid out as our writer lays it out.
pub(super) fn read(text: &str) -> Option<Variant> {
    static NONE: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    let (items, entries) = SCRATCH.take();
    let mut p = Fast {
        text,
        s: text.as_bytes(),
        i: 0,
        depth: 0,
        items,
        entries,
        no_keys: NONE.get_or_init(Map::new),
    };
    let v = p.value();
    p.blanks();
    let whole = p.i == p.s.len();
    let (mut items, mut entries) = (p.items, p.entries);
    // A document given up on leaves elements behind.
    items.clear();
    entries.clear();
    if items.capacity() < SCRATCH_KEPT && entries.capacity() < SCRATCH_KEPT {
        SCRATCH.set((items, entries));
    }
    v.filter(|_| whole)
}

/// The elements from `start` on, taken off the end of a scratch stack. Most containers are
/// small and get an allocation of their own size; a big one (past [`SCRATCH_KEPT`]
/// elements, and the larger part of the stack) keeps the stack's own buffer and the few
/// elements below it move to a new stack: copying a million dictionary entries out of the
/// stack held both copies at once (330 MB instead of 231 MB for a 70 MB JSON document).
fn take_from<T>(stack: &mut Vec<T>, start: usize) -> Vec<T> {
    let n = stack.len() - start;
    if n >= SCRATCH_KEPT && start <= n {
        let mut all = std::mem::take(stack);
        *stack = all.drain(..start).collect();
        return all;
    }
    stack.split_off(start)
}

struct Fast<'t> {
    text: &'t str,
    s: &'t [u8],
    i: usize,
    depth: u32,
    /// The elements of the Arrays being read, innermost last: each Array takes its own from
    /// the end (`split_off`: one allocation of their number), instead of growing a vector of
    /// its own.
    items: Vec<Variant>,
    /// The same for the entries of the Dictionaries being read.
    entries: Vec<(Variant, Variant)>,
    /// An empty map: the keys beside `type` and `value` of most value objects.
    no_keys: &'static Map<String, Value>,
}

impl<'t> Fast<'t> {
    /// Skips JSON's four blanks.
    #[inline]
    fn blanks(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.s.get(self.i) {
            self.i += 1;
        }
    }

    /// The next byte after blanks, not consumed.
    #[inline]
    fn peek(&mut self) -> Option<u8> {
        self.blanks();
        self.s.get(self.i).copied()
    }

    #[inline]
    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    #[inline]
    fn literal(&mut self, lit: &[u8]) -> Option<()> {
        self.blanks();
        self.s[self.i..]
            .starts_with(lit)
            .then(|| self.i += lit.len())
    }

    /// One value object.
    fn value(&mut self) -> Option<Variant> {
        self.depth += 1;
        if self.depth > MAX_FAST_DEPTH {
            return None;
        }
        // The walk recurses once per level: the stack is checked every few levels only.
        let v = match self.depth % 16 {
            0 => crate::stack::grow(|| self.object()),
            _ => self.object(),
        };
        self.depth -= 1;
        v
    }

    fn object(&mut self) -> Option<Variant> {
        // The writer's exact bytes are matched whole; blanks between tokens, and keys before
        // `type` (a `serde_json::Value` sorts `element_type` first), take the longer way.
        // Most objects have no other keys: no map is made (or dropped) for them.
        let mut beside: Option<Map<String, Value>> = None;
        let kind = match self.s[self.i..].starts_with(b"{\"type\":\"") {
            true => {
                self.i += 9;
                self.name()?
            }
            false => {
                self.eat(b'{')?;
                loop {
                    if self.peek()? == b'"' && self.s[self.i..].starts_with(b"\"type\"") {
                        self.i += 6;
                        break;
                    }
                    // A `value` before the `type` is the serde reader's.
                    if self.beside(&mut beside)? {
                        return None;
                    }
                    self.eat(b',')?;
                }
                self.eat(b':')?;
                self.eat(b'"')?;
                self.name()?
            }
        };
        let mut v = loop {
            if self.s[self.i..].starts_with(b",\"value\":") {
                self.i += 9;
                break self.payload(kind, keys(&beside, self.no_keys))?;
            }
            match self.peek()? {
                // Without a `value`, the serde reader converts `null`.
                b'}' => {
                    break Reader::at_root()
                        .payload(kind, &Value::Null, keys(&beside, self.no_keys))
                        .ok()?
                }
                b',' => self.i += 1,
                _ => return None,
            }
            match self.beside(&mut beside)? {
                true => break self.payload(kind, keys(&beside, self.no_keys))?,
                false => continue,
            }
        };
        // Most objects end right after their `value`, with no other keys: nothing is left
        // to check (what the lines below do for them, without their map lookups).
        if beside.is_none() && self.s.get(self.i) == Some(&b'}') {
            self.i += 1;
            return Some(v);
        }
        let before = keys(&beside, self.no_keys).len();
        while self.peek()? == b',' {
            self.i += 1;
            // A second `value` is the serde reader's (the last one counts there).
            if self.beside(&mut beside)? {
                return None;
            }
        }
        self.eat(b'}')?;
        let beside = keys(&beside, self.no_keys);
        match &mut v {
            _ if beside.is_empty() => {}
            Variant::Array(a) => a.typed = Reader::at_root().array_type(kind, beside).ok()?,
            Variant::Dictionary(d) => d.set_typed(Reader::at_root().dictionary_type(beside).ok()?),
            // A leaf's conversion reads the keys beside it: those after it came too late.
            _ if beside.len() > before => return None,
            _ => {}
        }
        Some(v)
    }

    /// A key of a value object other than its `type`, after the comma: `true` when it is
    /// `value` (its colon read), else the key and its JSON value are put in `beside`.
    fn beside(&mut self, beside: &mut Option<Map<String, Value>>) -> Option<bool> {
        match self.string()?.as_ref() {
            "value" => {
                self.eat(b':')?;
                Some(true)
            }
            // A repeated `type` (or one spelled with an escape) is the serde reader's.
            "type" => None,
            key => {
                let key = key.to_owned();
                self.eat(b':')?;
                let v = self.json()?;
                // So is any repeated key (the last one counts there).
                match beside.get_or_insert_with(Map::new).insert(key, v) {
                    Some(_) => None,
                    None => Some(false),
                }
            }
        }
    }

    /// The kind a `type` names, its opening quote read (a name with an escape is the serde
    /// reader's).
    fn name(&mut self) -> Option<Kind> {
        let at = self.i;
        // Every kind's name is shorter than 24 bytes: when the text goes on for 24, the name
        // is read in place, a word at a time up to the first byte that ends its plain run
        // (it cannot hold a NUL, which JSON strings escape, so the zeros after it pad).
        let Some(window) = self.s.get(at..at + 24) else {
            return self.long_name();
        };
        let mut words = [0u64; 3];
        let mut len = 24;
        for (k, w) in window.chunks_exact(8).enumerate() {
            let w = u64::from_le_bytes(w.try_into().unwrap_or_default());
            let stop = stops(w);
            if stop != 0 {
                let kept = stop.trailing_zeros() / 8;
                words[k] = w & ((1u64 << (kept * 8)) - 1);
                len = k * 8 + kept as usize;
                break;
            }
            words[k] = w;
        }
        // Not a plain name (an escape), or too long for a kind's.
        if window.get(len) != Some(&b'"') {
            return self.long_name();
        }
        self.i = at + len + 1;
        kind_by_words(words).or_else(|| kind_named(self.text.get(at..at + len)?))
    }

    /// [`Fast::name`] of a name that does not end within 24 bytes.
    fn long_name(&mut self) -> Option<Kind> {
        let at = self.i;
        let len = plain_run(&self.s[at..]);
        if self.s.get(at + len) != Some(&b'"') {
            return None;
        }
        self.i = at + len + 1;
        kind_named(self.text.get(at..at + len)?)
    }

    /// The `value` of an object of type `kind`, with the object's other keys `beside` it.
    fn payload(&mut self, kind: Kind, beside: &Map<String, Value>) -> Option<Variant> {
        let c = self.peek()?;
        let container = matches!(
            kind,
            Kind::Array | Kind::Dictionary | Kind::TypedArray | Kind::PackedTypedArray
        );
        if !beside.is_empty() && !container {
            return self.other(kind, beside);
        }
        Some(match (kind, c) {
            (Kind::Int, b'-' | b'0'..=b'9') => Variant::Int(self.int()?),
            (Kind::Float, b'-' | b'0'..=b'9') => Variant::Float(self.real()?),
            (Kind::Bool, b't' | b'f') => Variant::Bool(self.bool()?),
            (Kind::String, b'"') => Variant::String(GString::from(&*self.string()?)),
            (Kind::StringName, b'"') => {
                Variant::StringName(StringName(GString::from(&*self.string()?)))
            }
            (Kind::Array | Kind::TypedArray | Kind::PackedTypedArray, b'[') => {
                let start = self.items.len();
                self.elements(|p| {
                    let v = p.value()?;
                    p.items.push(v);
                    Some(())
                })?;
                let items = take_from(&mut self.items, start);
                // Its element type, if any, is set once the object is read.
                Variant::Array(Array { items, typed: None })
            }
            (Kind::Dictionary, b'[') => {
                let start = self.entries.len();
                self.elements(|p| {
                    p.eat(b'[')?;
                    let k = p.value()?;
                    p.eat(b',')?;
                    let v = p.value()?;
                    p.eat(b']')?;
                    p.entries.push((k, v));
                    Some(())
                })?;
                Variant::Dictionary(self.dictionary(start))
            }
            // Containers of any other shape are the serde reader's.
            _ if container => return None,
            _ => {
                // A leaf written otherwise (a real as "inf", a string as `engine_utf8`, a
                // path's keys in another order…) takes the longer way.
                let at = self.i;
                match self.leaf(kind) {
                    Some(v) => v,
                    None => {
                        self.i = at;
                        self.other(kind, beside)?
                    }
                }
            }
        })
    }

    /// The Dictionary of the entries read from `start` on, as the key rule of every reader
    /// builds it (see `Dictionary::insert_read`).
    fn dictionary(&mut self, start: usize) -> Dictionary {
        // Without two keys that are the same, every entry is kept as it comes: checked for a
        // few keys at once, instead of an entry at a time against the ones before it.
        let e = &self.entries[start..];
        let unique = e.len() <= 32
            && (1..e.len()).all(|j| e[..j].iter().all(|(k, _)| !same_key(k, &e[j].0)));
        let entries = take_from(&mut self.entries, start);
        if unique {
            return Dictionary::from_unique(entries, None);
        }
        Dictionary::from_read(entries, true)
    }

    /// The `value` of a leaf other than an Int, Float, Bool or String, as the writer writes
    /// it (the JSON form's table in the module docs of [`super`]).
    fn leaf(&mut self, kind: Kind) -> Option<Variant> {
        Some(match kind {
            Kind::PackedByteArray => Variant::PackedByteArray(hex_bytes(&self.string()?)?),
            Kind::PackedInt32Array => {
                Variant::PackedInt32Array(self.each(|p| i32::try_from(p.int()?).ok())?)
            }
            Kind::PackedInt64Array => Variant::PackedInt64Array(self.each(Self::int)?),
            Kind::PackedFloat32Array => Variant::PackedFloat32Array(
                self.each(|p| Some(f32::from_bits(real_to_f32_bits(p.real()?))))?,
            ),
            Kind::PackedFloat64Array => Variant::PackedFloat64Array(self.each(Self::real)?),
            Kind::PackedStringArray => Variant::PackedStringArray(self.each(Self::gstring)?),
            Kind::NodePath => Variant::NodePath(Box::new(self.node_path()?)),
            _ if components_of(kind).is_some() => self.math(kind)?,
            _ => return None,
        })
    }

    /// A NodePath: a path string, or the writer's object (its keys in its order).
    fn node_path(&mut self) -> Option<NodePath> {
        if self.peek()? == b'"' {
            return Some(NodePath::parse(&self.string()?));
        }
        self.eat(b'{')?;
        self.key("names")?;
        let names = self.each(Self::gstring)?;
        self.eat(b',')?;
        self.key("subnames")?;
        let subnames = self.each(Self::gstring)?;
        self.eat(b',')?;
        self.key("absolute")?;
        let absolute = self.bool()?;
        self.eat(b'}')?;
        Some(NodePath {
            names,
            subnames,
            absolute,
        })
    }

    /// The key `name` of an object and its colon. Objects other than value objects are read
    /// only with exactly the writer's keys in its order: then a repeated, missing or unknown
    /// key, which the serde reader judges, cannot be among them.
    fn key(&mut self, name: &str) -> Option<()> {
        (self.string()? == name).then_some(())?;
        self.eat(b':')
    }

    fn bool(&mut self) -> Option<bool> {
        match self.peek()? {
            b't' => self.literal(b"true").map(|()| true),
            _ => self.literal(b"false").map(|()| false),
        }
    }

    /// A string that is a JSON string (not `engine_utf8`).
    fn gstring(&mut self) -> Option<GString> {
        Some(GString::from(&*self.string()?))
    }

    /// A JSON array whose elements `one` reads.
    fn each<T>(&mut self, mut one: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        let mut out = Vec::new();
        self.elements(|p| {
            out.push(one(p)?);
            Some(())
        })?;
        Some(out)
    }

    /// A JSON array (its `[` next) whose elements `one` reads, with their commas.
    fn elements(&mut self, mut one: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.eat(b'[')?;
        if self.peek()? == b']' {
            self.i += 1;
            return Some(());
        }
        loop {
            one(self)?;
            match self.peek()? {
                b',' => self.i += 1,
                b']' => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// A math value, or a packed array of them, in its shape (the module docs of [`super`]).
    fn math(&mut self, kind: Kind) -> Option<Variant> {
        let Some(element) = kind.packed_element() else {
            let mut out = [0.0; 16];
            self.shaped(tree_of(kind)?, components_of(kind)?, &mut out)?;
            return fixed_from(kind, &mut |i| out.get(i).copied().unwrap_or_default());
        };
        let (shape, comps) = (tree_of(element)?, components_of(element)?);
        let n = comps.len().max(1);
        let mut vals = Vec::new();
        let mut len = 0;
        self.elements(|p| {
            let at = vals.len();
            vals.resize(at + n, 0.0);
            len += 1;
            p.shaped(shape, comps, &mut vals[at..])
        })?;
        packed_from(kind, len, &mut |i| vals.get(i).copied().unwrap_or_default())
    }

    /// The components of a math value laid out in `shape`, into `out` (as [`Reader`] reads
    /// them; a component written as a string, such as "inf", is the serde reader's).
    fn shaped(&mut self, shape: &Tree, comps: &[Component], out: &mut [f64]) -> Option<()> {
        let (items, fields): (&[Tree], &[(&str, Tree)]) = match shape {
            Tree::Scalar(i) => {
                *out.get_mut(*i)? = match comps.get(*i)?.scalar {
                    Scalar::I32 => f64::from(i32::try_from(self.int()?).ok()?),
                    // What `Reader::real32` makes of a number, widened as `shaped` widens it.
                    Scalar::F32 => real_from_f32_bits(real_to_f32_bits(self.real()?)),
                    Scalar::Real => self.real()?,
                };
                return Some(());
            }
            Tree::Struct(fields) if !shape.is_flat() => {
                self.eat(b'{')?;
                for (k, (name, t)) in fields.iter().enumerate() {
                    if k > 0 {
                        self.eat(b',')?;
                    }
                    self.key(name)?;
                    self.shaped(t, comps, out)?;
                }
                return self.eat(b'}');
            }
            // An array, or a struct of scalars written as one.
            Tree::Struct(fields) => (&[], fields),
            Tree::Array(items) => (items, &[]),
        };
        self.eat(b'[')?;
        let trees = items.iter().chain(fields.iter().map(|(_, t)| t));
        for (k, t) in trees.enumerate() {
            if k > 0 {
                self.eat(b',')?;
            }
            self.shaped(t, comps, out)?;
        }
        self.eat(b']')
    }

    /// Any other leaf: its `value` parsed by serde_json and converted as the serde reader
    /// converts it.
    fn other(&mut self, kind: Kind, beside: &Map<String, Value>) -> Option<Variant> {
        let v = self.json()?;
        Reader::at_root().payload(kind, &v, beside).ok()
    }

    /// The JSON value here, parsed by serde_json as the serde reader parses it (an object's
    /// properties may nest as deep as the document).
    fn json(&mut self) -> Option<Value> {
        let first = self.peek()?;
        let rest = &self.text[self.i..];
        match first {
            b'[' | b'{' => {
                let end = value_end(rest.as_bytes())?;
                let v = parse_unbounded(&rest[..end]).ok()?;
                self.i += end;
                Some(v)
            }
            _ => {
                let mut values = serde_json::Deserializer::from_str(rest).into_iter();
                let v: Value = values.next()?.ok()?;
                self.i += values.byte_offset();
                Some(v)
            }
        }
    }

    /// A JSON string: borrowed when it has no escape, unescaped by serde_json when it has.
    fn string(&mut self) -> Option<std::borrow::Cow<'t, str>> {
        if self.peek()? != b'"' {
            return None;
        }
        let start = self.i + 1;
        let mut j = start;
        let mut escaped = false;
        loop {
            j += plain_run(self.s.get(j..)?);
            match *self.s.get(j)? {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    j += 2;
                }
                // Control characters must be escaped: serde_json refuses them.
                _ => return None,
            }
        }
        self.i = j + 1;
        // Both ends are quotes, so both are character boundaries.
        let text: &'t str = self.text;
        Some(match escaped {
            false => text.get(start..j)?.into(),
            true => serde_json::from_str::<String>(text.get(start - 1..=j)?)
                .ok()?
                .into(),
        })
    }

    /// A JSON number token (JSON's grammar: no leading zeros, no `+`, digits on both sides
    /// of a point).
    fn number(&mut self) -> Option<Number<'t>> {
        self.blanks();
        let start = self.i;
        let s = self.s;
        let negative = s.get(start) == Some(&b'-');
        let mut j = start + usize::from(negative);
        let mut mantissa = 0u64;
        // Past 19 digits the mantissa wraps: it is used only for fewer.
        let digits = |j: &mut usize, m: &mut u64| {
            let from = *j;
            while let Some(&c @ b'0'..=b'9') = s.get(*j) {
                *m = m.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
                *j += 1;
            }
            *j - from
        };
        let first = s.get(j).copied();
        let whole = digits(&mut j, &mut mantissa);
        if whole == 0 || (whole > 1 && first == Some(b'0')) {
            return None;
        }
        let mut frac = 0;
        if s.get(j) == Some(&b'.') {
            j += 1;
            frac = digits(&mut j, &mut mantissa);
            if frac == 0 {
                return None;
            }
        }
        let mut exponent = false;
        if let Some(b'e' | b'E') = s.get(j) {
            j += 1;
            if let Some(b'+' | b'-') = s.get(j) {
                j += 1;
            }
            if digits(&mut j, &mut 0) == 0 {
                return None;
            }
            exponent = true;
        }
        self.i = j;
        let text: &'t str = self.text;
        Some(Number {
            text: &text[start..j],
            negative,
            mantissa,
            digits: whole + frac,
            frac,
            exponent,
        })
    }

    /// An `Int`: a JSON integer that fits an `i64` (anything else is the serde reader's).
    fn int(&mut self) -> Option<i64> {
        let n = self.number()?;
        match n.digits {
            _ if n.frac > 0 || n.exponent => None,
            // `-0` is a double to serde_json, which an Int refuses.
            _ if n.negative && n.text == "-0" => None,
            // Below 10^18: no overflow either way.
            ..=18 => Some(match n.negative {
                true => -(n.mantissa as i64),
                false => n.mantissa as i64,
            }),
            _ => n.text.parse().ok(),
        }
    }

    /// A `Float` written as a number: what serde_json's `Number::as_f64` gives for it.
    fn real(&mut self) -> Option<f64> {
        let n = self.number()?;
        // Up to 15 digits are exactly a double, as is 10^22 and every power of ten below:
        // their quotient is the decimal correctly rounded, which serde_json reads too
        // (`float_roundtrip`), and widening an integer is exact. `-0` is -0.0 both ways.
        if n.digits <= 15 && n.frac < POW10.len() && !n.exponent {
            let x = n.mantissa as f64 / POW10[n.frac];
            return Some(if n.negative { -x } else { x });
        }
        let t = n.text;
        let x = match (n.frac == 0 && !n.exponent, n.negative) {
            // serde_json keeps integers as integers and widens them.
            (true, true) => t.parse::<i64>().ok()? as f64,
            (true, false) => t.parse::<u64>().ok()? as f64,
            // Both read decimals correctly rounded; a number beyond the doubles is
            // serde_json's error.
            (false, _) => t.parse::<f64>().ok().filter(|x| x.is_finite())?,
        };
        Some(x)
    }
}

/// A JSON number token, scanned.
struct Number<'t> {
    text: &'t str,
    negative: bool,
    /// Its digits before and after the point, as one integer (when there are at most 19).
    mantissa: u64,
    /// How many digits there are before and after the point.
    digits: usize,
    /// How many of them come after the point.
    frac: usize,
    exponent: bool,
}

/// The powers of ten that are exactly doubles.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];
