//! Migrating values between dialects and versions (Godot 3 → Godot 4 and back, Pandemonium),
//! with a report of everything the target cannot represent.
//!
//! The [`Variant`] model is shared by every dialect, so most of a migration is renumbering
//! that the encoder does by itself (Godot 3 `Quat` id 10 is Godot 4 `Quaternion` id 15,
//! `PoolRealArray` is `PackedFloat32Array`, `REAL` is `FLOAT`). What is left, and what this
//! module does, is finding the values the target has no type or feature for, and (when the
//! caller accepts losses) replacing each with the nearest value the target can hold:
//!
//! | value | target without it | nearest value |
//! |---|---|---|
//! | `StringName` | Godot 3 | `String` (same text) |
//! | `Vector2i`, `Vector3i`, `Rect2i` | Godot 3 | `Vector2`, `Vector3`, `Rect2` (rounded to f32 beyond 2^24) |
//! | `Vector4`, `Vector4i`, `Projection` | Godot 3, Pandemonium < 3.8 | `PackedFloat32Array` / `PackedInt32Array` of the components (Projection: 16, column by column) |
//! | `Callable` | Godot 3, Pandemonium | `null` (the engines send no payload for it) |
//! | `Signal` | Godot 3, Pandemonium | `null` |
//! | typed `Array` | Godot 3, Godot 4.0–4.2, Pandemonium < 5 | the untyped `Array` |
//! | typed `Dictionary` | all but Godot 4.4+ | the untyped `Dictionary` |
//! | `PackedInt64Array`, `PackedFloat64Array` | Godot 3, Pandemonium | `PackedInt32Array` / `PackedFloat32Array` if every element fits, else an `Array` of `int` / `float` (same values) |
//! | `PackedVector4Array` | Godot 3, Godot < 4.3, Pandemonium < 3.8 | `PackedFloat32Array` of the components |
//! | `Packed{Vector2i,Vector3i,Vector4i}Array` (Pandemonium) | Godot 3, Godot 4 | `PackedVector2Array`, `PackedVector3Array`, `PackedInt32Array` |
//! | a RID's id | Godot 3, Pandemonium (they send no id) | `RID` without id |
//! | reals that need double precision | any single-precision target | rounded to f32 (reported once per value) |
//! | a string that is not Unicode (Godot 3 keeps lone surrogates and code points above U+10FFFF) | Godot 4 (it reads only UTF-8) | its text, with U+FFFD for each such code point |
//!
//! The rows of math types and packed arrays of them are the spec's `migrate:` entries
//! (spec/common.yaml), applied component by component.
//!
//! Replacing a value can make two Dictionary keys equal (`StringName &"a"` and `String "a"`);
//! the later entry then wins, as in the engine, and the report says so.

use crate::dialect::Dialect;
use crate::generated::kinds::{Feature, Kind};
use crate::variant::layout::real_to_f32_bits;
use crate::variant::value::{fixed_from, packed_from};
use crate::variant::*;
use crate::version::Version;
use std::collections::BTreeMap;
use std::fmt;

/// One end of a migration: a dialect at a version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// The dialect.
    pub dialect: Dialect,
    /// The engine version.
    pub version: Version,
}

impl Target {
    /// `dialect` at `version`, or at its newest version.
    pub fn new(dialect: Dialect, version: Option<Version>) -> Target {
        Target {
            dialect,
            version: version.unwrap_or_else(|| dialect.newest()),
        }
    }

    fn has(self, kind: Kind) -> bool {
        self.dialect.id_of(self.version, kind).is_some()
    }

    fn feature(self, f: Feature) -> bool {
        self.dialect.has_feature(self.version, f)
    }

    /// The dialect's own name of `kind` (`PoolRealArray`, `Quat`), from the spec when known.
    pub fn type_name(self, kind: Kind) -> String {
        self.name_of(kind).to_string()
    }

    fn name_of(self, kind: Kind) -> &'static str {
        match self.dialect.type_info(self.version, kind) {
            Some(t) if !t.name.is_empty() => t.name,
            _ => kind.name(),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.dialect, self.version)
    }
}

/// Something the target cannot hold, and what it became (or would become with `lossy`).
#[derive(Clone, Debug, PartialEq)]
pub struct Loss {
    /// Where in the value (`value.players[2].pos`).
    pub path: String,
    /// What could not be represented.
    pub what: String,
    /// What it became.
    pub became: String,
}

impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} → {}", self.path, self.what, self.became)
    }
}

/// What a migration did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Values whose type changes id between the dialects, counted per pair:
    /// `(source id, source name, target id, target name) → count`. Informative, not a loss.
    pub renumbered: BTreeMap<(u32, String, u32, String), usize>,
    /// Values whose type keeps its id under another name (`REAL` (3) → `FLOAT` (3)):
    /// `(id, source name, target name) → count`. The bytes of the header do not change.
    pub renamed: BTreeMap<(u32, String, String), usize>,
    /// Everything the target cannot represent, in order.
    pub losses: Vec<Loss>,
}

impl Report {
    /// Whether nothing was lost.
    pub fn is_exact(&self) -> bool {
        self.losses.is_empty()
    }

    /// Adds another value's report.
    pub fn merge(&mut self, other: Report) {
        for (k, n) in other.renumbered {
            *self.renumbered.entry(k).or_default() += n;
        }
        for (k, n) in other.renamed {
            *self.renamed.entry(k).or_default() += n;
        }
        self.losses.extend(other.losses);
    }
}

/// The value converted for `to`, and the report; with `lossy` false the value is still
/// converted (so the report lists every loss), and the caller decides what to do.
pub fn migrate(value: &Variant, from: Target, to: Target) -> (Variant, Report) {
    let mut v = value.clone();
    let report = migrate_in_place(&mut v, from, to);
    (v, report)
}

/// [`migrate`] without a copy: converts `value` for `to` where it is (only the values the
/// target cannot hold are replaced; dictionaries are rebuilt only when a key changes) and
/// gives the report.
///
/// ```
/// use gdvariant::migrate::{migrate_in_place, Target};
/// use gdvariant::{Dialect, StringName, Variant};
/// let mut v = Variant::StringName(StringName("hp".into()));
/// let report = migrate_in_place(&mut v, Target::new(Dialect::Godot4, None), Target::new(Dialect::Godot3, None));
/// assert_eq!(v, Variant::from("hp")); // Godot 3 has no StringName
/// assert_eq!(report.losses.len(), 1);
/// ```
pub fn migrate_in_place(value: &mut Variant, from: Target, to: Target) -> Report {
    let mut m = Migrator {
        from,
        to,
        report: Report::default(),
        counts: [0; KINDS],
        has: [None; KINDS],
        strict: to.feature(Feature::StrictUtf8),
    };
    m.value(value, &Path::ROOT);
    m.count_types();
    m.report
}

/// Slots of [`Migrator::counts`]: one per [`Kind`].
const KINDS: usize = 64;
const _: () = assert!(Kind::ALL.len() <= KINDS);

struct Migrator {
    from: Target,
    to: Target,
    report: Report,
    /// Values of each kind the target has, by `Kind as usize`; they become the report's
    /// `renumbered` and `renamed` once, at the end (keyed by names, those maps cost two
    /// strings per value when they were counted as the values went by).
    counts: [usize; KINDS],
    /// Whether the target has each kind (`None`: not looked up yet), and whether it reads
    /// only UTF-8: looked up once per migration, not per value.
    has: [Option<bool>; KINDS],
    strict: bool,
}

/// Where a value is in the value migrated (`value.players[2].pos`), written out only when
/// something is lost there: formatting every element's path as it was visited was three
/// quarters of converting a savegame.
#[derive(Clone, Copy)]
struct Path<'a> {
    up: Option<&'a Path<'a>>,
    step: Step<'a>,
}

#[derive(Clone, Copy)]
enum Step<'a> {
    /// The value itself: `value`.
    Root,
    /// An array element: `[i]`.
    Item(usize),
    /// The key of a dictionary's `i`-th entry: `[i](key)`.
    Key(usize),
    /// The value of a dictionary's `i`-th entry, named by its key (see [`key_segment`]).
    Entry(&'a Variant, usize),
    /// A full object's property: `.name`.
    Property(&'a str),
}

impl<'a> Path<'a> {
    const ROOT: Path<'static> = Path {
        up: None,
        step: Step::Root,
    };

    fn then(&'a self, step: Step<'a>) -> Path<'a> {
        Path {
            up: Some(self),
            step,
        }
    }

    fn write(&self, out: &mut String) {
        use std::fmt::Write;
        if let Some(up) = self.up {
            up.write(out);
        }
        // Writing to a `String` cannot fail.
        let _ = match self.step {
            Step::Root => write!(out, "value"),
            Step::Item(i) => write!(out, "[{i}]"),
            Step::Key(i) => write!(out, "[{i}](key)"),
            Step::Entry(k, i) => write!(out, "{}", key_segment(k, i)),
            Step::Property(name) => write!(out, ".{name}"),
        };
    }
}

impl Migrator {
    fn lose(&mut self, path: &Path<'_>, what: impl Into<String>, became: impl Into<String>) {
        let mut text = String::new();
        path.write(&mut text);
        self.report.losses.push(Loss {
            path: text,
            what: what.into(),
            became: became.into(),
        });
    }

    fn has(&mut self, kind: Kind) -> bool {
        let slot = &mut self.has[kind as usize];
        *slot.get_or_insert_with(|| self.to.has(kind))
    }

    #[inline]
    fn count(&mut self, kind: Kind) {
        self.counts[kind as usize] += 1;
    }

    /// The report's renumbered and renamed types, from [`Migrator::counts`].
    fn count_types(&mut self) {
        for &kind in Kind::ALL {
            let n = self.counts[kind as usize];
            if n == 0 {
                continue;
            }
            let (Some(a), Some(b)) = (
                self.from.dialect.id_of(self.from.version, kind),
                self.to.dialect.id_of(self.to.version, kind),
            ) else {
                continue;
            };
            let (na, nb) = (self.from.name_of(kind), self.to.name_of(kind));
            if a != b {
                let key = (a, na.to_string(), b, nb.to_string());
                *self.report.renumbered.entry(key).or_default() += n;
            } else if na != nb {
                let key = (a, na.to_string(), nb.to_string());
                *self.report.renamed.entry(key).or_default() += n;
            }
        }
    }

    /// Converts `v` where it is; whether it changed.
    fn value(&mut self, v: &mut Variant, path: &Path<'_>) -> bool {
        let changed = self.convert(v, path);
        if !matches!(
            v,
            Variant::Array(_) | Variant::Dictionary(_) | Variant::Object(_)
        ) {
            self.check_reals(v, path);
        }
        changed
    }

    fn convert(&mut self, v: &mut Variant, path: &Path<'_>) -> bool {
        let kind = v.kind();
        // Every rule below asks whether the target has this value's own kind.
        let has = self.has(kind);
        let to = self.to;
        if has {
            self.count(kind);
        }
        let strict = self.strict;
        *v = match v {
            // Godot 3 keeps strings that are not Unicode; a target that reads only UTF-8
            // gets their text, with U+FFFD for each code point it cannot hold.
            Variant::String(s) if strict && !s.is_unicode() => {
                self.lose(
                    path,
                    format!("String {s:?} (not Unicode)"),
                    "its text with U+FFFD",
                );
                Variant::String(s.to_unicode())
            }
            Variant::StringName(s) if strict && !s.0.is_unicode() && has => {
                self.lose(
                    path,
                    format!("StringName {:?} (not Unicode)", s.0),
                    "its text with U+FFFD",
                );
                Variant::StringName(StringName(s.0.to_unicode()))
            }
            Variant::PackedStringArray(x) if strict && x.iter().any(|s| !s.is_unicode()) => {
                self.lose(
                    path,
                    "PackedStringArray strings that are not Unicode",
                    "their text with U+FFFD",
                );
                Variant::PackedStringArray(x.iter().map(GString::to_unicode).collect())
            }
            Variant::NodePath(p)
                if strict && p.names.iter().chain(&p.subnames).any(|s| !s.is_unicode()) =>
            {
                self.lose(
                    path,
                    "NodePath names that are not Unicode",
                    "their text with U+FFFD",
                );
                let text = |xs: &[GString]| xs.iter().map(GString::to_unicode).collect();
                Variant::NodePath(Box::new(NodePath {
                    names: text(&p.names),
                    subnames: text(&p.subnames),
                    absolute: p.absolute,
                }))
            }
            Variant::StringName(s) if !has => {
                self.lose(path, "StringName", "String");
                Variant::String(s.0.clone())
            }
            // Math values and packed arrays of them that the target lacks: the nearest kind the
            // spec names (`migrate:`), component by component.
            _ if !has && kind.migrate_to().is_some() => self.nearest(v, path),
            Variant::Callable if !has => {
                self.lose(path, "Callable", "null");
                Variant::Nil
            }
            Variant::Signal(s) if !has => {
                self.lose(
                    path,
                    format!("Signal `{}` of object {}", s.name, s.object),
                    "null",
                );
                Variant::Nil
            }
            Variant::Rid(id) if *id != 0 && !to.feature(Feature::RidPayload) => {
                self.lose(
                    path,
                    format!("RID id {id}"),
                    format!("RID without id ({} sends none)", to.dialect),
                );
                Variant::Rid(0)
            }
            Variant::PackedInt64Array(x) if !has => {
                if x.iter().all(|i| i32::try_from(*i).is_ok()) {
                    self.lose(
                        path,
                        "PackedInt64Array",
                        "PackedInt32Array (every element fits)",
                    );
                    Variant::PackedInt32Array(x.iter().map(|i| *i as i32).collect())
                } else {
                    self.lose(path, "PackedInt64Array", "Array of int (same values)");
                    Variant::Array(Array::new(x.iter().map(|i| Variant::Int(*i)).collect()))
                }
            }
            Variant::PackedFloat64Array(x) if !has => {
                if x.iter().all(|f| crate::variant::layout::fits_f32(*f)) {
                    self.lose(
                        path,
                        "PackedFloat64Array",
                        "PackedFloat32Array (every element fits)",
                    );
                    Variant::PackedFloat32Array(
                        x.iter()
                            .map(|f| f32::from_bits(crate::variant::layout::real_to_f32_bits(*f)))
                            .collect(),
                    )
                } else {
                    self.lose(path, "PackedFloat64Array", "Array of float (same values)");
                    Variant::Array(Array::new(x.iter().map(|f| Variant::Float(*f)).collect()))
                }
            }
            Variant::Array(a) => {
                self.array(a, path);
                return false;
            }
            Variant::Dictionary(d) => {
                self.dictionary(d, path);
                return false;
            }
            Variant::Object(Object::Full(o)) => {
                for (n, x) in o.properties.iter_mut() {
                    self.value(x, &path.then(Step::Property(n)));
                }
                return false;
            }
            _ if !has => {
                // A type with no nearest value in the target (none left today, but the
                // tables may grow): say so and drop it.
                self.lose(path, kind.name(), "null");
                Variant::Nil
            }
            _ => return false,
        };
        true
    }

    /// Reals that a single-precision target rounds: Godot 3 and Pandemonium marshal every
    /// real of a math type as f32; a value decoded from a Godot 4 double-precision build may
    /// not fit.
    fn check_reals(&mut self, v: &Variant, path: &Path<'_>) {
        let k = v.kind();
        if self.to.dialect == Dialect::Godot4 && self.to.dialect.flag64_reals(self.to.version, k) {
            return;
        }
        let mut first = None;
        let mut find = |r: f64| {
            if first.is_none() && !crate::variant::layout::fits_f32(r) {
                first = Some(r);
            }
        };
        if let Some(f) = v.as_fixed() {
            f.visit_reals(&mut find);
        } else if let Some(p) = v.as_packed() {
            p.visit_reals(&mut find);
        }
        if let Some(r) = first {
            self.lose(
                path,
                format!(
                    "{} with a real ({r:?}) that needs double precision",
                    k.name()
                ),
                "rounded to single precision",
            );
        }
    }

    /// A math value (or packed array of them) as the kind the spec says is nearest: the same
    /// components in another fixed kind or packed array of one, or flattened into a packed
    /// array of scalars.
    fn nearest(&mut self, v: &Variant, path: &Path<'_>) -> Variant {
        let kind = v.kind();
        let Some(target) = kind.migrate_to() else {
            return v.clone();
        };
        let (values, count) = match (v.as_fixed(), v.as_packed()) {
            (Some(f), _) => (f.values(), 1),
            (_, Some(p)) => (p.values(), p.len()),
            _ => return v.clone(),
        };
        let at = |i: usize| values.get(i).copied().unwrap_or_default();
        let shaped = fixed_from(target, &mut |i| at(i))
            .or_else(|| packed_from(target, count, &mut |i| at(i)));
        let (out, became) = match (shaped, target) {
            (Some(out), _) => (out, target.name().to_string()),
            (None, Kind::PackedInt32Array) => (
                Variant::PackedInt32Array(values.iter().map(|&x| x as i32).collect()),
                format!("{} of the components", target.name()),
            ),
            (None, _) => (
                Variant::PackedFloat32Array(
                    values
                        .iter()
                        .map(|&x| f32::from_bits(real_to_f32_bits(x)))
                        .collect(),
                ),
                format!("{} of the components", Kind::PackedFloat32Array.name()),
            ),
        };
        self.lose(path, kind.name(), became);
        out
    }

    fn array(&mut self, a: &mut Array, path: &Path<'_>) {
        for (i, v) in a.items.iter_mut().enumerate() {
            self.value(v, &path.then(Step::Item(i)));
        }
        a.typed = match a.typed.take() {
            None => None,
            Some(t) => {
                let pandemonium = self.to.feature(Feature::PandemoniumTypedArray);
                let godot = self.to.feature(Feature::TypedArray);
                let element_ok = match &t.element {
                    ElementType::Builtin(k) => self.to.has(*k),
                    ElementType::Class(_) => true,
                    ElementType::Script(_) => godot,
                };
                if (pandemonium || godot) && element_ok {
                    let mut t = t;
                    if godot {
                        t.pandemonium_packed = false;
                    }
                    Some(t)
                } else {
                    self.lose(
                        path,
                        format!("typed Array ({})", element_name(&t.element)),
                        "untyped Array (same elements)",
                    );
                    None
                }
            }
        };
    }

    /// Keys that do not change stay unique, so entries are converted where they are up to
    /// the first key that changes; from there on each entry goes in by the key rule (a key
    /// that became equal to an earlier one replaces its value), in the same order of losses.
    fn dictionary(&mut self, d: &mut Dictionary, path: &Path<'_>) {
        let typed = d.typed().cloned();
        let mut entries = std::mem::take(d).into_entries();
        let mut changed = None;
        for (i, (k, v)) in entries.iter_mut().enumerate() {
            if self.value(k, &path.then(Step::Key(i))) {
                changed = Some(i);
                break;
            }
            self.value(v, &path.then(Step::Entry(k, i)));
        }
        let first = changed.unwrap_or(entries.len());
        let rest = entries.split_off(first);
        let mut out = Dictionary::from_unique(entries, None);
        for (j, (mut k, mut v)) in rest.into_iter().enumerate() {
            let i = first + j;
            let key_path = path.then(Step::Key(i));
            // The first of these keys was converted above.
            if j > 0 {
                self.value(&mut k, &key_path);
            }
            self.value(&mut v, &path.then(Step::Entry(&k, i)));
            // A key already there replaces its value and leaves the length: one lookup.
            let before = out.len();
            out.insert(k, v);
            if out.len() == before {
                self.lose(
                    &key_path,
                    "a key that became equal to an earlier key",
                    "one entry (the later value wins)",
                );
            }
        }
        if let Some(t) = typed {
            if self.to.feature(Feature::TypedDictionary) {
                out.set_typed(Some(t));
            } else {
                self.lose(
                    path,
                    "typed Dictionary",
                    "untyped Dictionary (same entries)",
                );
            }
        }
        *d = out;
    }
}

fn element_name(e: &ElementType) -> String {
    match e {
        ElementType::Builtin(k) => k.name().to_string(),
        ElementType::Class(c) => c.clone(),
        ElementType::Script(s) => s.clone(),
    }
}

fn key_segment(k: &Variant, i: usize) -> String {
    match k {
        Variant::String(s) => format!(".{s}"),
        Variant::StringName(s) => format!(".{}", s.0),
        Variant::Int(n) => format!("[{n}]"),
        _ => format!("[{i}]"),
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.renumbered.is_empty() {
            writeln!(f, "renumbered types:")?;
            for ((a, na, b, nb), n) in &self.renumbered {
                writeln!(f, "  {na} ({a}) → {nb} ({b}): {n}")?;
            }
        }
        if !self.renamed.is_empty() {
            writeln!(f, "renamed types (same id):")?;
            for ((id, na, nb), n) in &self.renamed {
                writeln!(f, "  {na} → {nb} ({id}): {n}")?;
            }
        }
        if self.losses.is_empty() {
            writeln!(f, "nothing lost: every value is represented exactly")?;
        } else {
            writeln!(
                f,
                "not representable in the target ({}):",
                self.losses.len()
            )?;
            for l in &self.losses {
                writeln!(f, "  {l}")?;
            }
        }
        Ok(())
    }
}
