//! Every rule of the engines that is not table data, in one place, each with its source.
//!
//! The byte tables (type ids, field offsets) come from `spec/*.yaml` through the generated
//! code; what is here is behaviour: when a number goes out wide, how strings are cut (how
//! dictionary keys compare is the value model's, in `variant/key.rs`). References are to `core/io/marshalls.cpp` (`encode_variant` /
//! `decode_variant`) unless said otherwise; see ../shared/reference/engine-wire-format.md.

/// Header bit 16: FLAG_64 on INT/FLOAT/math types, OBJECT_AS_ID on OBJECT. Taken from the
/// spec, where every dialect declares it (the assertion below keeps them one value).
pub const FLAG_64: u32 = crate::generated::godot4::FLAG_64;
/// The type id is the header's low byte; byte 1 is unused and never checked.
/// (`ENCODE_MASK` / `HEADER_TYPE_MASK`, 0xFF in every version; the docs say 0xFFFF.)
pub const TYPE_MASK: u32 = crate::generated::godot4::TYPE_MASK;

// The decoder reads the header before it knows which table applies, so the dialects must agree.
const _: () = {
    use crate::generated::{godot3, pandemonium};
    assert!(godot3::TYPE_MASK == TYPE_MASK && pandemonium::TYPE_MASK == TYPE_MASK);
    assert!(godot3::FLAG_64 == FLAG_64 && pandemonium::FLAG_64 == FLAG_64);
};
/// Godot 4.3+: the bits of an ARRAY header that hold the element type's container kind;
/// 4.4+: those of a DICTIONARY header for the key's and the value's (from the spec's flags).
pub const TYPED_ARRAY: u32 = crate::generated::godot4::FLAG_TYPED_ARRAY;
/// See [`TYPED_ARRAY`].
pub const TYPED_KEY: u32 = crate::generated::godot4::FLAG_TYPED_DICTIONARY_KEY;
/// See [`TYPED_ARRAY`].
pub const TYPED_VALUE: u32 = crate::generated::godot4::FLAG_TYPED_DICTIONARY_VALUE;
/// OBJECT header bit: the payload is an instance id.
pub const OBJECT_AS_ID: u32 = crate::generated::godot4::FLAG_OBJECT_AS_ID;

/// The container kind held in the `field` bits of `header` (one of [`TYPED_ARRAY`] …).
#[inline]
pub fn container_kind(header: u32, field: u32) -> u32 {
    (header & field) >> field.trailing_zeros()
}

/// Header bits that put container kind `kind` in `field`.
#[inline]
pub fn container_bits(kind: u32, field: u32) -> u32 {
    (kind << field.trailing_zeros()) & field
}
/// Bit 31 of an Array/Dictionary count was the "shared" flag; decoders mask it off.
pub const COUNT_MASK: u32 = 0x7FFF_FFFF;

/// An Array's or Dictionary's element count: the word without its "shared" bit 31
/// (`count &= 0x7FFFFFFF` in `decode_variant`, every version).
#[inline(always)]
pub fn container_count(word: u32) -> u32 {
    word & COUNT_MASK
}

/// A full object's property count: the engine reads it as `int32_t` and loops
/// `for (int i = 0; i < count; i++)`, so a count with bit 31 set is no properties, and the
/// object is read as one without any (`decode_variant` case OBJECT: core/io/marshalls.cpp:671-677,
/// 4.3-stable; the same `int32_t count` in 3.2.3 and 4.4.1).
#[inline]
pub fn property_count(word: u32) -> u32 {
    if (word as i32) < 0 {
        0
    } else {
        word
    }
}
/// Bit 31 of a NodePath's first word marks the "new" format (the only one decodable).
pub const NODEPATH_NEW_FORMAT: u32 = 0x8000_0000;
/// NodePath flags: bit 0 absolute; bit 1 the obsolete "property" flag, which adds one subname.
pub const NODEPATH_ABSOLUTE: u32 = 1;
/// See [`NODEPATH_ABSOLUTE`].
pub const NODEPATH_OBSOLETE_PROPERTY: u32 = 2;

/// How many of a NodePath's strings are names and how many subnames, from its first word,
/// subname count and flags. The engine adds the obsolete property flag's subname and then the
/// two counts in 32 bits, wrapping, and reads that many strings, string `i` a name while
/// `i < namecount`: so 1 name and 0xFFFFFFFF subnames is an empty NodePath
/// (`decode_variant` case NODE_PATH, `uint32_t total = namecount + subnamecount`:
/// core/io/marshalls.cpp:576-603, 4.3-stable; the same in 3.2.3, 4.4.1 and Pandemonium).
pub fn nodepath_counts(first: u32, subnames: u32, flags: u32) -> (usize, usize) {
    let names = first & !NODEPATH_NEW_FORMAT;
    let subnames = if flags & NODEPATH_OBSOLETE_PROPERTY != 0 {
        subnames.wrapping_add(1)
    } else {
        subnames
    };
    let total = names.wrapping_add(subnames);
    let read_as_names = total.min(names);
    (read_as_names as usize, (total - read_as_names) as usize)
}

/// Container kinds of typed Array/Dictionary type data (`ContainerTypeKind`, 4.3+).
pub const KIND_NONE: u32 = 0;
/// `BUILTIN`: a `u32` type id follows.
pub const KIND_BUILTIN: u32 = 1;
/// `CLASS_NAME`: a string (native class) follows.
pub const KIND_CLASS_NAME: u32 = 2;
/// `SCRIPT`: a string (`res://` path) follows.
pub const KIND_SCRIPT: u32 = 3;

/// INT goes out as 64-bit only outside the i32 range, with `widening` (the spec's
/// `Int64Widening`, Godot 3.1+). `encode_variant`, case INT:
/// `if (val > (int64_t)INT_MAX || val < (int64_t)INT_MIN)`.
/// Godot 3.0.x compared `val < -0x80000000`, where `-0x80000000` is the *unsigned* 2^31, so
/// every INT took FLAG_64: `put_var(5)` from 3.0-beta sends `02 00 01 00 05 00 00 00 00 00 00
/// 00` (godotengine/godot issue #15383), as exported 3.0.6 projects do for 800; fixed by
/// PR #22223 for 3.1.
#[inline]
pub fn int_is_wide(v: i64, widening: bool) -> bool {
    !widening || v > i64::from(i32::MAX) || v < i64::from(i32::MIN)
}

/// The instance id of a null Object in the id form. Before the engines wrote a null object as
/// a bare NIL (the spec's `NullObjectAsNil`: Godot 3.2.3, Pandemonium, 4.x), `encode_variant`
/// case OBJECT wrote it like any object: without full objects `OBJECT|OBJECT_AS_ID` and this
/// id, with full objects `OBJECT` and an empty class name (the 3.2-era marshalls.cpp, which
/// has no null pre-check; exported 3.0 and 3.1 projects hold `InputEventKey`s whose `script`
/// is such an object). Both forms decode to a null Object in every version.
pub const NULL_OBJECT_ID: u64 = 0;

/// FLOAT goes out as a double only when it does not survive `float`:
/// `float f = d; if (double(f) != d) flags |= ENCODE_FLAG_64;` so NaN (NaN != NaN) is always
/// a double, while ±inf and ±0.0 are floats. The same in every dialect and build.
#[inline]
pub fn float_is_wide(v: f64) -> bool {
    f64::from(v as f32) != v
}

/// Padding after `len` bytes of string or byte data: up to the next multiple of 4.
#[inline]
pub fn pad4(len: usize) -> usize {
    (4 - len % 4) % 4
}

/// How the engine turns string bytes into a String (`_decode_string` → `String::parse_utf8`):
/// it stops at the first NUL (so PackedStringArray's trailing NUL and any embedded NUL end
/// the string) and skips a leading UTF-8 BOM (observed in Godot 3.2.3 and 4.3).
/// With `keep_bom` the BOM is kept, so that the value re-encodes to the same bytes. With
/// `strict` (the spec's `StrictUtf8`: Godot 4.3+) anything but valid UTF-8 is refused, as
/// `parse_utf8` then fails; otherwise the lenient reader [`engine_code_points`] is the
/// engine's, and what it reads is kept whole (a [`GString`](crate::GString) holds the
/// surrogates and code points above U+10FFFF that a `str` cannot).
/// Returns `Err(index)` of the first byte the engine rejects.
pub fn engine_string(
    bytes: &[u8],
    keep_bom: bool,
    strict: bool,
) -> Result<crate::StrRef<'_>, usize> {
    let end = bytes.iter().position(|&c| c == 0).unwrap_or(bytes.len());
    let body = &bytes[..end];
    let (skip, body) = match body {
        [0xEF, 0xBB, 0xBF, rest @ ..] if !keep_bom => (3, rest),
        _ => (0, body),
    };
    match std::str::from_utf8(body) {
        Ok(s) => Ok(crate::StrRef::Borrowed(s)),
        Err(e) if strict => Err(skip + e.valid_up_to()),
        Err(_) => match engine_code_points(body) {
            Ok(points) => Ok(crate::StrRef::Owned(
                crate::GString::from_code_points(points).expect("at most 31 bits a code point"),
            )),
            Err(i) => Err(skip + i),
        },
    }
}

/// The engine's own UTF-8 reader, for bytes that are not strict UTF-8 (Godot 3.x
/// `String::parse_utf8`, confirmed on 3.2.3 by tests/fixtures/godot3/malformed/): the lead
/// byte gives the length (up to 6 bytes), continuation bytes must be `10xxxxxx`, a 2-byte
/// overlong (lead C0/C1) and the bytes FE/FF are rejected, and so is a longer form whose lead
/// and first continuation bytes carry no bits and whose second carries none above its low
/// `7 - len` (`if (unichar == 0 && i == 2 && ((p_utf8[i] & 0x7F) >> (7 - len)) == 0)`,
/// "invalid utf8 overlong": `e0 80 80` to `e0 80 8f`, `f0 80 80 80` to `f0 80 87 bf`, …; seen
/// on the installed 3.2.3, which refuses `e0 80 81`). Nothing else is checked — so other
/// overlongs (`e0 80 af`), UTF-16 surrogates and code points above U+10FFFF (up to
/// 0x7FFFFFFF, in 5- and 6-byte forms) are accepted, and kept: 3.2.3 writes `ed a0 80`,
/// `f4 90 80 80` and `f8 88 80 80 80` back unchanged (the malformed fixtures' `reencoded_hex`).
/// Returns the code points, or `Err(index)` of the first byte the engine rejects.
pub fn engine_code_points(body: &[u8]) -> Result<Vec<u32>, usize> {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        let c = body[i];
        let (extra, init) = match c {
            0x00..=0x7F => (0, u32::from(c)),
            0xC0..=0xC1 => return Err(i),
            0xC2..=0xDF => (1, u32::from(c & 0x1F)),
            0xE0..=0xEF => (2, u32::from(c & 0x0F)),
            0xF0..=0xF7 => (3, u32::from(c & 0x07)),
            0xF8..=0xFB => (4, u32::from(c & 0x03)),
            0xFC..=0xFD => (5, u32::from(c & 0x01)),
            _ => return Err(i),
        };
        if i + extra >= body.len() && extra > 0 {
            return Err(i);
        }
        let mut cp = init;
        for k in 1..=extra {
            let b = body[i + k];
            if b & 0xC0 != 0x80 {
                return Err(i + k);
            }
            // The engine's overlong check, at the second continuation byte (see above): it
            // refuses the overlong NUL among others.
            if k == 2 && cp == 0 && (u32::from(b & 0x7F) >> (6 - extra)) == 0 {
                return Err(i);
            }
            cp = (cp << 6) | u32::from(b & 0x3F);
        }
        out.push(cp);
        i += extra + 1;
    }
    Ok(out)
}

/// How Godot 3 writes a code point (`String::utf8`, core/ustring.cpp, 3.2.3): the shortest
/// form, a surrogate as three bytes like any code point below U+10000, and code points above
/// U+10FFFF in four, five or six bytes as the original UTF-8 of RFC 2279 did.
pub(crate) fn push_engine_utf8(cp: u32, out: &mut Vec<u8>) {
    let n = match cp {
        0..=0x7F => return out.push(cp as u8),
        0x80..=0x7FF => 2,
        0x800..=0xFFFF => 3,
        0x1_0000..=0x1F_FFFF => 4,
        0x20_0000..=0x3FF_FFFF => 5,
        _ => 6,
    };
    // The lead byte: n high bits set, then the top bits of the code point.
    let lead = (0xFF00u32 >> n) as u8;
    out.push(lead | (cp >> (6 * (n - 1))) as u8);
    for k in (0..n - 1).rev() {
        out.push(0x80 | ((cp >> (6 * k)) & 0x3F) as u8);
    }
}

/// The class an engine writes as the element type of a class- or script-typed container when
/// it encodes without full objects (`var_to_bytes`, `put_var`): the objects inside go out as
/// instance ids, and the type says so.
pub const ENCODED_OBJECT_AS_ID: &str = "EncodedObjectAsID";

/// A container's element (or key, or value) type as the engine writes it: a builtin type, or
/// the name that follows the container kind `CLASS_NAME` or `SCRIPT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WrittenElement<'a> {
    /// `BUILTIN` and the type.
    Builtin(crate::Kind),
    /// `CLASS_NAME` and the class.
    Class(&'a str),
    /// `SCRIPT` and the `res://` path.
    Script(&'a str),
}

/// A container's element (or key, or value) type as the engine writes it. Without full
/// objects a class or a script goes out as the class [`ENCODED_OBJECT_AS_ID`] (container kind
/// `CLASS_NAME`): Godot 4.3's `encode_variant`, case ARRAY (core/io/marshalls.cpp:1316-1321
/// for the header, 1785-1796 for the data, 4.3-stable), and 4.4.1's `_encode_container_type`
/// and `_encode_container_type_header` for Arrays and both sides of Dictionaries
/// (core/io/marshalls.cpp:1324-1356, 4.4.1-stable). A builtin type goes out as it is.
pub fn element_as_written(t: &crate::ElementType, full_objects: bool) -> WrittenElement<'_> {
    use crate::ElementType as E;
    match t {
        E::Builtin(k) => WrittenElement::Builtin(*k),
        E::Class(_) | E::Script(_) if !full_objects => WrittenElement::Class(ENCODED_OBJECT_AS_ID),
        E::Class(c) => WrittenElement::Class(c),
        E::Script(p) => WrittenElement::Script(p),
    }
}

/// A typed container's builtin element (or key, or value) type as the engine keeps it:
/// `NIL` leaves that side untyped. Godot 4.3's `decode_variant` calls
/// `varr.set_typed(builtin_type, …)` (core/io/marshalls.cpp:850, 4.3-stable), and a
/// `ContainerTypeValidate` whose type is `NIL` accepts anything and is written back untyped
/// (core/variant/array.cpp:792); Godot 4.4.1 does the same for each side of a Dictionary.
pub fn builtin_element(kind: crate::Kind) -> Option<crate::ElementType> {
    (kind != crate::Kind::Nil).then_some(crate::ElementType::Builtin(kind))
}

// ---- The engine's verdict on full objects and typed containers (`DecodeOptions::engine_strict`).
// Default decoding reads these as data; engine mode refuses or retypes as the engine does, and
// `explain` notes the refusals. Each rule is one function, with the engine source it follows.

/// The engines' class lists (`spec/classes/`, generated from each engine's own class data).
#[path = "generated/classes.rs"]
#[rustfmt::skip]
// `REFCOUNTED` is data for the RefCounted rules (a negative property count), not yet used.
#[allow(dead_code)]
mod classes;

use crate::error::EngineRefusal;

/// A class of the engine's list: its flags and its parent's index.
fn class_list(
    dialect: crate::Dialect,
    version: crate::Version,
) -> Option<&'static [(&'static str, u16, u8)]> {
    let major = match dialect {
        crate::Dialect::Godot3 => 3,
        crate::Dialect::Godot4 => 4,
        // No Pandemonium class data: its class checks are skipped.
        _ => return None,
    };
    classes::LISTS
        .iter()
        .find(|(a, b, _)| u32::from(*a) == major && *b == version.minor)
        .map(|(_, _, list)| *list)
}

fn find_class(list: &[classes::Class], name: &str) -> Option<usize> {
    list.binary_search_by(|(n, _, _)| (*n).cmp(name)).ok()
}

/// The engine's verdict on a full object's class name (not empty: that is a null object).
/// `None`: the engine instantiates it, or there is no class list for this version (Godot 3
/// 3.0, 3.1, 3.3 and 3.6, Pandemonium), where the check is skipped.
///
/// Godot 4.3 `decode_variant`, OBJECT: `ERR_FAIL_COND_V(!ClassDB::can_instantiate(str),
/// ERR_INVALID_DATA)` (core/io/marshalls.cpp:655, 4.3-stable; :681 in 4.4.1-stable).
/// Godot 3.2.3 instead calls `ClassDB::instance(str)`, which is null for an unknown, abstract
/// or editor class, and fails with `ERR_UNAVAILABLE` (core/io/marshalls.cpp:417, seen on the
/// installed `godot3-server`). A global script class (`class_name`) of the game's own is
/// instantiable in the engine but in no class list: engine mode refuses it.
pub(crate) fn class_verdict(
    dialect: crate::Dialect,
    version: crate::Version,
    class: &str,
) -> Option<EngineRefusal> {
    let list = class_list(dialect, version)?;
    match find_class(list, class) {
        None => Some(EngineRefusal::UnknownClass(class.to_string())),
        Some(i) if list[i].2 & classes::INSTANTIABLE == 0 => {
            Some(EngineRefusal::AbstractClass(class.to_string()))
        }
        Some(_) => None,
    }
}

/// Whether `class` is `ancestor` or inherits from it (`ClassDB::is_parent_class`); `None`
/// when there is no class list for this version.
pub(crate) fn class_inherits(
    dialect: crate::Dialect,
    version: crate::Version,
    class: &str,
    ancestor: &str,
) -> Option<bool> {
    let list = class_list(dialect, version)?;
    let mut at = find_class(list, class);
    // The lists are trees (the codegen checks every parent exists); the bound is belt and braces.
    for _ in 0..list.len() {
        let Some(i) = at else { return Some(false) };
        if list[i].0 == ancestor {
            return Some(true);
        }
        at = (list[i].1 != classes::NO_PARENT).then_some(usize::from(list[i].1));
    }
    Some(false)
}

/// Whether the engine checks a full object's `script` property: Godot 4 (4.3's
/// `decode_variant`, OBJECT: `if (str == "script" && value.get_type() != Variant::NIL)`, the
/// value must be a String path, core/io/marshalls.cpp:698–704, 4.3-stable; the same in
/// 4.4.1). Godot 3.2.3 passes it to `obj->set`, which ignores what it cannot use (seen on
/// the installed `godot3-server`: `script` = 5, "" or "res://nope.gd" all decode).
pub(crate) fn checks_script_property(dialect: crate::Dialect) -> bool {
    dialect == crate::Dialect::Godot4
}

/// A script path the engine refuses whatever the project holds: `path.is_empty() ||
/// !path.begins_with("res://") || !ResourceLoader::exists(path, "Script")`
/// (core/io/marshalls.cpp:701 and :823, 4.3-stable; `_decode_container_type` in 4.4.1).
/// A path that climbs above `res://` with `..` exists in no project. Whether any other path
/// exists is the project's business: `existing` is the caller's list, if any.
pub(crate) fn script_path_verdict(
    path: &str,
    existing: Option<&std::collections::BTreeSet<String>>,
) -> Option<EngineRefusal> {
    let Some(rest) = path.strip_prefix("res://") else {
        return Some(EngineRefusal::BadScriptPath(path.to_string()));
    };
    let mut depth = 0usize;
    for part in rest.split('/') {
        match part {
            ".." if depth == 0 => return Some(EngineRefusal::BadScriptPath(path.to_string())),
            ".." => depth -= 1,
            "" | "." => {}
            _ => depth += 1,
        }
    }
    match existing {
        Some(set) if !set.contains(path) => Some(EngineRefusal::MissingScript(path.to_string())),
        _ => None,
    }
}

/// What the engine's typed container does with one element (or a typed Dictionary with one
/// key) it is given while decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fate {
    Keep,
    Drop,
    /// An int into a float container: `(float)` of it, a 32-bit float.
    IntToFloat,
    /// A StringName into a String container.
    ToString,
    /// A String into a StringName container.
    ToStringName,
}

/// What the element is, as far as the rule needs (from the decoded value).
pub(crate) enum Seen<'s> {
    /// The builder does not know (the validating pass): kept.
    Unknown,
    Value {
        kind: crate::Kind,
        /// For objects: `None` null, `Some(None)` by instance id (an `EncodedObjectAsID`),
        /// `Some(Some((class, script)))` a full object.
        object: Option<Option<(&'s str, Option<&'s str>)>>,
    },
}

/// `ContainerTypeValidate::validate` (core/variant/container_type_validate.h:76–104 and
/// `validate_object` :106–145, 4.3-stable; the same in 4.4.1), which `Array::push_back`
/// (core/variant/array.cpp:285) and a typed Dictionary's key lookup
/// (core/variant/dictionary.cpp:90, 4.4.1) apply: NIL accepts anything; a mismatched type is
/// dropped unless it converts (StringName ↔ String, int → `(float)`); Nil goes into an Object
/// container; objects must inherit from the class, and carry the script. Without
/// `allow_objects` an object container is typed `EncodedObjectAsID`, which objects sent by id
/// (the only ones then) are. A script-typed container's class is the script's base class,
/// unknown from the bytes, and a script other than the container's may inherit from it:
/// both are taken as passing.
pub(crate) fn element_fate(
    ty: &crate::ElementType,
    seen: &Seen<'_>,
    allow_objects: bool,
    dialect: crate::Dialect,
    version: crate::Version,
) -> Fate {
    use crate::{ElementType, Kind};
    let Seen::Value { kind, object } = seen else {
        return Fate::Keep;
    };
    let want = match ty {
        ElementType::Builtin(k) => *k,
        ElementType::Class(_) | ElementType::Script(_) => Kind::Object,
    };
    if want == Kind::Nil {
        return Fate::Keep;
    }
    if *kind != want {
        return match (want, kind) {
            (Kind::Object, Kind::Nil) => Fate::Keep,
            (Kind::String, Kind::StringName) => Fate::ToString,
            (Kind::StringName, Kind::String) => Fate::ToStringName,
            (Kind::Float, Kind::Int) => Fate::IntToFloat,
            _ => Fate::Drop,
        };
    }
    if want != Kind::Object || !allow_objects {
        return Fate::Keep;
    }
    let Some(Some(object)) = object else {
        // Null passes; an object by id is an EncodedObjectAsID, with no script.
        return match (ty, object) {
            (_, None) => Fate::Keep,
            (ElementType::Class(c), _) if !c.is_empty() => {
                keep_if(class_inherits(dialect, version, "EncodedObjectAsID", c) != Some(false))
            }
            (ElementType::Script(_), _) => Fate::Drop,
            _ => Fate::Keep,
        };
    };
    let (class, script) = object;
    match ty {
        ElementType::Class(c) if !c.is_empty() && c != class => {
            keep_if(class_inherits(dialect, version, class, c) != Some(false))
        }
        ElementType::Script(_) => keep_if(script.is_some()),
        _ => Fate::Keep,
    }
}

fn keep_if(keep: bool) -> Fate {
    if keep {
        Fate::Keep
    } else {
        Fate::Drop
    }
}

/// A class-typed container whose class name is empty, read with objects allowed: the engine's
/// `set_typed(OBJECT, "", null)` makes it `Array[Object]` (`_decode_container_type`,
/// CLASS_NAME: `r_type.class_name = str`, core/io/marshalls.cpp:151, 4.4.1-stable; :806 in
/// 4.3-stable).
pub(crate) fn class_element(class: String, allow_objects: bool) -> crate::ElementType {
    if class.is_empty() && allow_objects {
        crate::ElementType::Builtin(crate::Kind::Object)
    } else {
        crate::ElementType::Class(class)
    }
}

/// Whether the engine keeps this Dictionary key apart from every other key, equal or not:
/// reading bytes, it makes each key a new value, and it compares Objects by instance (a
/// decoded object, `EncodedObjectAsID` included, is a new instance: `Variant::hash_compare`
/// falls through to `OP_EQUAL`, core/variant/variant.cpp:3510-3514 of 4.3-stable) and, with
/// `dicts_by_identity` (Godot 3, which lacks the spec's `DictionaryKeysByValue`),
/// Dictionaries by their shared data. So a key holding a non-null Object anywhere, or in Godot
/// 3 a Dictionary anywhere, never merges with another: `{{}: 1, {}: 2}` from Godot 3.2.3 bytes
/// is two entries, and so are two keys that are the same object id in every engine (observed
/// on 3.2.3, 4.3 and 4.4.1, tests/keys_kept_apart.rs). Null objects are one key.
pub fn kept_apart(key: &crate::Variant, dicts_by_identity: bool) -> bool {
    use crate::{Object, Variant as V};
    if !matches!(key, V::Object(_) | V::Array(_) | V::Dictionary(_)) {
        return false;
    }
    // Iterative: a key can be as deep as a value. On the stack for the usual small keys: the
    // decoder allocates nothing its result does not keep.
    let mut todo: smallvec::SmallVec<[&crate::Variant; 16]> = smallvec::smallvec![key];
    while let Some(v) = todo.pop() {
        match v {
            V::Object(Object::Null) => {}
            V::Object(_) => return true,
            V::Dictionary(_) if dicts_by_identity => return true,
            V::Dictionary(d) => todo.extend(d.entries().iter().flat_map(|(k, v)| [k, v])),
            V::Array(a) => todo.extend(&a.items),
            _ => {}
        }
    }
    false
}

// ---- The engine's value (`DecodeOptions::engine_strict`). Default decoding keeps what the
// bytes say; engine mode gives what the engine's `bytes_to_var` holds, rule by rule, each
// gated to the dialects and versions whose source has it. Each is checked live against the
// engine that has it (tests/differential_engines.rs, tests/engine_verdict.rs).

/// A 32-bit FLOAT (`REAL` in Godot 3) as the engine holds it: `float val =
/// decode_float(buf); r_variant = val;` widens it to the Variant's double
/// (core/io/marshalls.cpp:171-174 in 4.3-stable, :244-247 in 4.4.1-stable; the same
/// `decode_variant` case REAL in 3.2.3 and Pandemonium), and the FPU's conversion sets a
/// signalling NaN's quiet bit (bit 22 of the float; IEEE 754 §6.2). Every dialect and
/// version. A 64-bit FLOAT is copied as it is, and math components stay `float` in the
/// single-precision builds (`real_t`), so neither changes.
/// Returns the float's bits as the engine holds them (widened, they are the double's).
#[inline]
pub(crate) fn engine_float32(bits: u32) -> u32 {
    const EXPONENT: u32 = 0x7f80_0000;
    const QUIET: u32 = 0x0040_0000;
    let signalling = bits & EXPONENT == EXPONENT && bits & 0x007f_ffff != 0 && bits & QUIET == 0;
    if signalling {
        bits | QUIET
    } else {
        bits
    }
}

/// An empty NodePath's absolute flag as the engine holds it: the constructor
/// `NodePath(names, subnames, absolute)` that `decode_variant` case NODE_PATH calls
/// (core/io/marshalls.cpp:607, 4.3-stable) returned before storing anything when both lists
/// were empty, so `NodePath("/")` came out relative: every Godot 3 (`if (p_path.size() == 0 &&
/// p_subpath.size() == 0) return;`, core/node_path.cpp, seen on the installed 3.2.3),
/// Pandemonium (a 3.x fork, not checked against its source) and Godot 4.0–4.2. Since 4.3 it
/// returns only when `!p_absolute` (core/string/node_path.cpp:374-377, 4.3-stable; :380-383
/// in 4.4.1-stable): the spec's `EmptyNodePathAbsoluteKept`.
pub(crate) fn engine_nodepath_absolute(
    dialect: crate::Dialect,
    version: crate::Version,
    empty: bool,
    absolute: bool,
) -> bool {
    // The flag survives unless the path is empty in a version that drops it.
    let kept = !empty
        || dialect.has_feature(
            version,
            crate::generated::kinds::Feature::EmptyNodePathAbsoluteKept,
        );
    absolute && kept
}

/// Whether the engine stores a StringName Dictionary key as a String: Godot 4.0–4.3's
/// `Dictionary::operator[]`, which `decode_variant` case DICTIONARY fills through (`d[key] =
/// value`, core/io/marshalls.cpp:771, 4.3-stable), turns a STRING_NAME key into its String
/// (core/variant/dictionary.cpp:100-102, 4.3-stable), so `{&"a": 1}` comes back `{"a": 1}` and
/// merges with a String key `"a"` (the later value in the first one's place). 4.4 keeps the
/// StringName (4.4.1's `operator[]`, core/variant/dictionary.cpp:88-108, has no such case): the
/// spec's `StringNameKeysKept`. Godot 3 has no StringName values.
pub(crate) fn stringname_keys_become_strings(
    dialect: crate::Dialect,
    version: crate::Version,
) -> bool {
    dialect == crate::Dialect::Godot4
        && !dialect.has_feature(
            version,
            crate::generated::kinds::Feature::StringNameKeysKept,
        )
}

/// A typed container's element (or Dictionary side) type read without objects allowed, as the
/// engine holds it: typed by the builtin OBJECT, by a class or by a script, it becomes the
/// class `EncodedObjectAsID`, which the objects sent by id then are (`_decode_container_type`,
/// `if (!p_allow_objects && r_type.builtin_type == Variant::OBJECT)` and the CLASS_NAME and
/// SCRIPT cases, core/io/marshalls.cpp:126-177, 4.4.1-stable; the same in 4.3's case ARRAY,
/// core/io/marshalls.cpp:776-830). Every version with typed containers (Array 4.3+,
/// Dictionary 4.4+).
pub(crate) fn engine_element_without_objects(ty: crate::ElementType) -> crate::ElementType {
    use crate::{ElementType, Kind};
    match ty {
        ElementType::Builtin(Kind::Object) | ElementType::Class(_) | ElementType::Script(_) => {
            ElementType::Class(ENCODED_OBJECT_AS_ID.into())
        }
        other => other,
    }
}

/// A typed Dictionary's types as the engine sets them: before the spec's
/// `DictionaryValueScriptKept` (4.4.0 to 4.7.2), `Dictionary::set_typed(key_type, value_type)`
/// passes the key's script as the value's (core/variant/dictionary.cpp:598-600, 4.4.1-stable),
/// and the six-argument `set_typed` then fails and leaves the Dictionary untyped when that
/// script is set and the value side names no class ("Script class can only be set together
/// with base class name", :610-611). So, with objects allowed (without them no side has a
/// script), a script-typed key gives its script to a class- or script-typed value, and makes
/// a Dictionary with any other value type untyped. A script-typed value under a key without a
/// script loses its script and is typed by the script's base class, which the bytes do not
/// hold: that one side is kept as written.
pub(crate) fn engine_dictionary_types(
    dialect: crate::Dialect,
    version: crate::Version,
    allow_objects: bool,
    key: Option<crate::ElementType>,
    value: Option<crate::ElementType>,
) -> (Option<crate::ElementType>, Option<crate::ElementType>) {
    use crate::ElementType;
    if !allow_objects
        || dialect.has_feature(
            version,
            crate::generated::kinds::Feature::DictionaryValueScriptKept,
        )
    {
        return (key, value);
    }
    match (key, value) {
        (Some(ElementType::Script(path)), Some(ElementType::Class(_) | ElementType::Script(_))) => {
            (
                Some(ElementType::Script(path.clone())),
                Some(ElementType::Script(path)),
            )
        }
        (Some(ElementType::Script(_)), _) => (None, None),
        sides => sides,
    }
}
