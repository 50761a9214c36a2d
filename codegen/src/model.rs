//! The checked model of the spec: versions, eras, types and byte layouts that `lower` has validated.

use std::collections::BTreeMap;
use std::fmt;

/// An engine version as the spec writes it (`4.6.3`, `3.5`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Ver(pub u8, pub u8, pub u8);

impl Ver {
    /// Parses `MAJOR.MINOR` or `MAJOR.MINOR.PATCH`.
    pub fn parse(s: &str) -> Option<Ver> {
        let parts: Vec<&str> = s.trim().split('.').collect();
        if !(2..=3).contains(&parts.len()) {
            return None;
        }
        let n = |i: usize| parts.get(i).map_or(Some(0), |p| p.parse::<u8>().ok());
        Some(Ver(n(0)?, n(1)?, n(2)?))
    }
}

impl fmt::Display for Ver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.2 == 0 {
            write!(f, "{}.{}", self.0, self.1)
        } else {
            write!(f, "{}.{}.{}", self.0, self.1, self.2)
        }
    }
}

/// A linear expression over the symbols of a layout: `8 + length + pad4(length)`, `count*8`.
///
/// Offsets after a variable-length field are symbolic; keeping them linear lets `lower`
/// check that fields sit back to back without evaluating anything.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Expr {
    /// The constant part.
    pub konst: i64,
    /// Symbol (`length`, `pad4(length)`) to coefficient; zero coefficients are dropped.
    pub terms: BTreeMap<String, i64>,
}

impl Expr {
    /// A constant.
    pub fn constant(k: i64) -> Expr {
        Expr {
            konst: k,
            terms: BTreeMap::new(),
        }
    }

    /// The value when the expression has no symbols.
    pub fn as_const(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.konst)
    }

    /// `self + other`.
    pub fn add(&self, other: &Expr) -> Expr {
        let mut out = self.clone();
        out.konst += other.konst;
        for (s, c) in &other.terms {
            *out.terms.entry(s.clone()).or_insert(0) += c;
        }
        out.terms.retain(|_, c| *c != 0);
        out
    }

    /// `self * k`.
    pub fn scale(&self, k: i64) -> Expr {
        let mut out = Expr::constant(self.konst * k);
        for (s, c) in &self.terms {
            if c * k != 0 {
                out.terms.insert(s.clone(), c * k);
            }
        }
        out
    }

    /// The expression with the symbols of absent fields (and their `pad4`) taken as zero.
    pub fn without(&self, absent: &[&str]) -> Expr {
        let mut out = self.clone();
        out.terms.retain(|s, _| {
            let inner = s
                .strip_prefix("pad4(")
                .and_then(|r| r.strip_suffix(')'))
                .unwrap_or(s);
            !absent.contains(&inner)
        });
        out
    }

    /// Parses `term (+ term)*` where a term is `N`, `sym`, `N*sym`, `sym*N` or `pad4(sym)`.
    pub fn parse(s: &str) -> Result<Expr, String> {
        let mut out = Expr::default();
        for raw in s.split('+') {
            let term = raw.trim();
            if term.is_empty() {
                return Err(format!("empty term in expression `{s}`"));
            }
            let (coef, sym) = match term.split_once('*') {
                Some((a, b)) => {
                    let (a, b) = (a.trim(), b.trim());
                    match (a.parse::<i64>(), b.parse::<i64>()) {
                        (Ok(k), Err(_)) => (k, b),
                        (Err(_), Ok(k)) => (k, a),
                        _ => return Err(format!("term `{term}` must be a number times a symbol")),
                    }
                }
                None => match term.parse::<i64>() {
                    Ok(k) => {
                        out.konst += k;
                        continue;
                    }
                    Err(_) => (1, term),
                },
            };
            if !valid_symbol(sym) {
                return Err(format!("`{sym}` is not a symbol (a name, or pad4(name))"));
            }
            *out.terms.entry(sym.to_string()).or_insert(0) += coef;
        }
        out.terms.retain(|_, c| *c != 0);
        Ok(out)
    }
}

fn valid_symbol(s: &str) -> bool {
    let ident = |t: &str| {
        !t.is_empty()
            && t.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    match s.strip_prefix("pad4(").and_then(|r| r.strip_suffix(')')) {
        Some(inner) => ident(inner),
        None => ident(s),
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if self.konst != 0 || self.terms.is_empty() {
            parts.push(self.konst.to_string());
        }
        for (s, c) in &self.terms {
            parts.push(if *c == 1 {
                s.clone()
            } else {
                format!("{c}*{s}")
            });
        }
        f.write_str(&parts.join("+"))
    }
}

/// The machine type of a field.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FieldType {
    /// Little-endian u32.
    U32,
    /// Little-endian i32.
    I32,
    /// Little-endian u64.
    U64,
    /// Little-endian i64.
    I64,
    /// IEEE single.
    F32,
    /// IEEE double.
    F64,
    /// A real: f32, or f64 in the FLAG_64 form.
    Real,
    /// UTF-8 bytes.
    Utf8,
    /// Raw bytes.
    Bytes,
    /// Padding to a multiple of 4.
    Padding,
    /// One or more nested encoded Variants.
    Variant,
    /// Typed-container type data (none, a u32 type, or a string), by header bits.
    ContainerType,
    /// Repeated elements, described by `element`.
    Repeat,
}

impl FieldType {
    /// Every type with its spec spelling.
    pub const ALL: [(FieldType, &'static str); 13] = [
        (FieldType::U32, "u32"),
        (FieldType::I32, "i32"),
        (FieldType::U64, "u64"),
        (FieldType::I64, "i64"),
        (FieldType::F32, "f32"),
        (FieldType::F64, "f64"),
        (FieldType::Real, "real"),
        (FieldType::Utf8, "utf8"),
        (FieldType::Bytes, "bytes"),
        (FieldType::Padding, "padding"),
        (FieldType::Variant, "variant"),
        (FieldType::ContainerType, "container_type"),
        (FieldType::Repeat, "repeat"),
    ];

    /// Parses the spec spelling.
    pub fn parse(s: &str) -> Option<FieldType> {
        FieldType::ALL
            .iter()
            .find(|(_, n)| *n == s)
            .map(|(t, _)| *t)
    }

    /// The spec spelling.
    pub fn as_str(self) -> &'static str {
        FieldType::ALL
            .iter()
            .find(|(t, _)| *t == self)
            .map(|(_, n)| *n)
            .unwrap_or("?")
    }

    /// The official page's Type column (`Integer`, `Float`, `Bytes`).
    pub fn docs_column(self) -> &'static str {
        match self {
            FieldType::U32 | FieldType::I32 | FieldType::U64 | FieldType::I64 => "Integer",
            FieldType::F32 | FieldType::F64 | FieldType::Real => "Float",
            FieldType::Utf8 | FieldType::Bytes | FieldType::Padding => "Bytes",
            FieldType::Variant | FieldType::ContainerType | FieldType::Repeat => "<variable>",
        }
    }
}

/// The header-flag condition of a field (`when: OBJECT_AS_ID` / `when: "!OBJECT_AS_ID"`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct When {
    /// Flag name.
    pub flag: String,
    /// Whether the flag must be set (else clear).
    pub set: bool,
}

impl fmt::Display for When {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.set {
            f.write_str(&self.flag)
        } else {
            write!(f, "!{}", self.flag)
        }
    }
}

/// A field's FLAG_64 form.
#[derive(Clone, PartialEq, Debug)]
pub struct Wide {
    /// Offset in the wide layout.
    pub offset: Expr,
    /// Length in the wide layout.
    pub len: Expr,
    /// Type in the wide layout.
    pub ty: FieldType,
}

/// One row of a layout table.
#[derive(Clone, PartialEq, Debug)]
pub struct Field {
    /// Field name, unique in its list.
    pub name: String,
    /// Offset from the start of the value (header included) or of the repetition.
    pub offset: Expr,
    /// Length in bytes.
    pub len: Expr,
    /// Machine type.
    pub ty: FieldType,
    /// The docs' description.
    pub description: String,
    /// `crate::math` accessor path for fixed layouts.
    pub accessor: Option<String>,
    /// Number of repetitions for `repeat` / `variant`.
    pub count: Option<Expr>,
    /// First version with this field.
    pub since: Option<Ver>,
    /// First version without it.
    pub until: Option<Ver>,
    /// Header-flag condition.
    pub when: Option<When>,
    /// The FLAG_64 form.
    pub wide: Option<Wide>,
    /// Fields of one repetition.
    pub element: Vec<Field>,
    /// Where the official page disagrees.
    pub docs: Vec<String>,
}

impl Field {
    /// Whether the field exists at `v`.
    pub fn active_at(&self, v: Ver) -> bool {
        self.since.is_none_or(|s| s <= v) && self.until.is_none_or(|u| v < u)
    }

    /// The field in its FLAG_64 form (unchanged where no `wide` is given, except the offset
    /// which the caller supplies from the running wide position).
    pub fn widened(&self) -> (Expr, Expr, FieldType) {
        match &self.wide {
            Some(w) => (w.offset.clone(), w.len.clone(), w.ty),
            None => (self.offset.clone(), self.len.clone(), self.ty),
        }
    }
}

/// The id of a type from `since` on.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct IdRange {
    /// First version.
    pub since: Ver,
    /// The id (`header & 0xFF`).
    pub id: u32,
    /// The dialect's name for the type in this range.
    pub name: String,
}

/// A header flag a type uses.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TypeFlag {
    /// Flag name (`FLAG_64`).
    pub flag: String,
    /// First version.
    pub since: Ver,
    /// What it means for this type.
    pub description: String,
}

/// A Variant type of one dialect.
#[derive(Clone, PartialEq, Debug)]
pub struct Type {
    /// The `Kind` name.
    pub kind: String,
    /// The dialect's newest name.
    pub name: String,
    /// Ids by version, ascending.
    pub ids: Vec<IdRange>,
    /// What it is.
    pub description: String,
    /// Header flags it uses.
    pub flags: Vec<TypeFlag>,
    /// Its layout.
    pub fields: Vec<Field>,
    /// Where the official page disagrees.
    pub docs: Vec<String>,
    /// The text form's constructor name, when it is not the kind's.
    pub text: Option<String>,
    /// Whether this type's constructor is `tight`, when it differs from the dialect's.
    pub text_tight: Option<bool>,
}

impl Type {
    /// The id range in force at `v`, if the type exists then.
    pub fn id_at(&self, v: Ver) -> Option<&IdRange> {
        self.ids.iter().rev().find(|r| r.since <= v)
    }

    /// The version a flag starts in for this type.
    pub fn flag_since(&self, flag: &str) -> Option<Ver> {
        self.flags.iter().find(|f| f.flag == flag).map(|f| f.since)
    }

    /// Whether any field has a FLAG_64 form.
    pub fn has_wide(&self) -> bool {
        fn any(fs: &[Field]) -> bool {
            fs.iter().any(|f| f.wide.is_some() || any(&f.element))
        }
        any(&self.fields)
    }

    /// Versions at which this type's id, name or field set may change, ascending.
    pub fn boundaries(&self, oldest: Ver) -> Vec<Ver> {
        let mut b: Vec<Ver> = vec![oldest];
        b.extend(self.ids.iter().map(|r| r.since));
        for f in &self.fields {
            b.extend(f.since);
            b.extend(f.until);
        }
        b.retain(|v| *v >= oldest);
        b.sort();
        b.dedup();
        b
    }

    /// The distinct layouts over time: `(since, name, fields)`, only where the type exists.
    ///
    /// A field absent at a version has length zero there, so the symbol it defines (its name)
    /// is dropped from the offsets of the fields after it: `4+element_type` is `4` before 4.3.
    pub fn variants(&self, oldest: Ver) -> Vec<(Ver, String, Vec<Field>)> {
        let mut out: Vec<(Ver, String, Vec<Field>)> = Vec::new();
        for v in self.boundaries(oldest) {
            let Some(r) = self.id_at(v) else { continue };
            let absent: Vec<&str> = self
                .fields
                .iter()
                .filter(|f| !f.active_at(v))
                .map(|f| f.name.as_str())
                .collect();
            let fields: Vec<Field> = self
                .fields
                .iter()
                .filter(|f| f.active_at(v))
                .map(|f| {
                    let mut f = f.clone();
                    f.offset = f.offset.without(&absent);
                    f.len = f.len.without(&absent);
                    if let Some(w) = &mut f.wide {
                        w.offset = w.offset.without(&absent);
                        w.len = w.len.without(&absent);
                    }
                    f
                })
                .collect();
            if let Some(last) = out.last() {
                if last.1 == r.name && last.2 == fields {
                    continue;
                }
            }
            out.push((v, r.name.clone(), fields));
        }
        out
    }
}

/// A type table and the versions it holds for.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Era {
    /// First version.
    pub since: Ver,
    /// Number of types (`VARIANT_MAX`).
    pub count: u32,
    /// What changed.
    pub description: String,
}

/// A header flag.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Flag {
    /// Spec name (`FLAG_64`).
    pub name: String,
    /// Engine constant.
    pub engine_name: String,
    /// First and last bit.
    pub bits: (u32, u32),
    /// What it means.
    pub description: String,
    /// Where the official page disagrees.
    pub docs: Vec<String>,
}

impl Flag {
    /// The header mask of the flag's bits.
    pub fn mask(&self) -> u32 {
        let width = self.bits.1 - self.bits.0 + 1;
        (((1u64 << width) - 1) as u32) << self.bits.0
    }
}

/// A feature's version range.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FeatureRange {
    /// Feature name.
    pub feature: String,
    /// First version.
    pub since: Ver,
    /// First version without it.
    pub until: Option<Ver>,
    /// Where the behaviour comes from.
    pub source: String,
}

/// A shared kind.
#[derive(Clone, PartialEq, Debug)]
pub struct KindDef {
    /// Godot 4 name, also the Rust variant.
    pub name: String,
    /// What it is.
    pub description: String,
    /// The struct of a fixed layout; `None` for every other kind.
    pub layout: Option<Layout>,
    /// A packed array of this fixed kind.
    pub packed_of: Option<String>,
    /// Whether a Rust `Vec` of the element converts to this packed array.
    pub rust_vec: bool,
    /// The nearest kind for a migration target without this one.
    pub migrate: Option<String>,
    /// Older constructor names the text parser also reads.
    pub text_aliases: Vec<String>,
    /// How `Variant` and `VariantRef` hold it.
    pub model: Model,
}

/// How the value enums hold a kind.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Model {
    /// A fixed layout's struct (boxed when large) or a packed array of one.
    Derived,
    /// A unit variant.
    Unit,
    /// No variant: the kind decodes to another (Pandemonium's typed arrays are `Array`s).
    Absent,
    /// Payload types, owned and borrowed (Rust type syntax, checked by `lower`).
    Types(String, String),
}

impl KindDef {
    /// Whether this is a fixed layout (a math struct of the model).
    pub fn is_fixed(&self) -> bool {
        self.layout.is_some()
    }

    /// Whether this is a packed array: of a fixed kind, or held as a `Vec` of scalars or strings.
    pub fn is_packed(&self) -> bool {
        self.packed_of.is_some()
            || matches!(&self.model, Model::Types(owned, _) if owned.starts_with("Vec<"))
    }
}

/// The scalar type of one component of a fixed layout.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scalar {
    /// A real: f32 on the wire, f64 with FLAG_64; f64 in the model.
    Real,
    /// A 32-bit integer.
    I32,
    /// A 32-bit float whatever FLAG_64 says (Color).
    F32,
}

impl Scalar {
    /// The scalar a wire field type stands for, if it is one.
    pub fn of_field(ty: FieldType) -> Option<Scalar> {
        match ty {
            FieldType::Real => Some(Scalar::Real),
            FieldType::I32 => Some(Scalar::I32),
            FieldType::F32 => Some(Scalar::F32),
            _ => None,
        }
    }
}

/// The type of a struct field of a fixed layout.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum StructType {
    /// One scalar.
    Scalar(Scalar),
    /// Another fixed kind.
    Kind(String),
    /// `[Kind; N]`.
    Array(String, usize),
}

/// One field of a fixed layout's struct.
#[derive(Clone, PartialEq, Debug)]
pub struct StructField {
    /// Rust field name.
    pub name: String,
    /// Its type.
    pub ty: StructType,
    /// What it is.
    pub description: String,
}

/// One scalar of a fixed layout, in wire order.
#[derive(Clone, PartialEq, Debug)]
pub struct Component {
    /// The field path from the struct (`rows[0].x`).
    pub path: String,
    /// Its scalar type.
    pub scalar: Scalar,
    /// The value a text form may leave out.
    pub text_default: Option<f64>,
}

/// A fixed layout: the struct and its flattened components.
#[derive(Clone, PartialEq, Debug)]
pub struct Layout {
    /// The struct's fields.
    pub fields: Vec<StructField>,
    /// Every scalar, flattened in field order (which `lower` checked is the wire order).
    pub components: Vec<Component>,
}

/// A declared feature.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FeatureDecl {
    /// Rust variant name.
    pub name: String,
    /// What it means.
    pub description: String,
}

/// One dialect, validated.
#[derive(Clone, PartialEq, Debug)]
pub struct Dialect {
    /// `godot4`.
    pub key: String,
    /// `Godot 4`.
    pub title: String,
    /// Engine source.
    pub source: String,
    /// The spec file it came from (`spec/godot4.yaml`).
    pub file: String,
    /// A transcription of an official page.
    pub documentation: bool,
    /// Oldest version covered.
    pub oldest: Ver,
    /// Newest version covered.
    pub newest: Ver,
    /// Type tables.
    pub eras: Vec<Era>,
    /// The text form writes `Name(1, 2)` (tight) rather than `Name( 1, 2 )`.
    pub text_tight: bool,
    /// `header & type_mask` is the type id.
    pub type_mask: u32,
    /// Header description.
    pub header_description: String,
    /// Header notes on the docs.
    pub header_docs: Vec<String>,
    /// Header flags.
    pub flags: Vec<Flag>,
    /// Feature ranges.
    pub features: Vec<FeatureRange>,
    /// Dialect-wide docs notes.
    pub docs: Vec<String>,
    /// Types, in `Kind` order.
    pub types: Vec<Type>,
}

impl Dialect {
    /// The type of a kind.
    pub fn ty(&self, kind: &str) -> Option<&Type> {
        self.types.iter().find(|t| t.kind == kind)
    }

    /// The era in force at `v`.
    pub fn era_at(&self, v: Ver) -> Option<&Era> {
        self.eras.iter().rev().find(|e| e.since <= v)
    }
}

/// Everything: shared kinds and features, and the dialects.
#[derive(Clone, PartialEq, Debug)]
pub struct Spec {
    /// Kinds in `Kind` order.
    pub kinds: Vec<KindDef>,
    /// Features in `Feature` order.
    pub features: Vec<FeatureDecl>,
    /// Dialects in file order.
    pub dialects: Vec<Dialect>,
}

impl Spec {
    /// A dialect by key.
    pub fn dialect(&self, key: &str) -> Option<&Dialect> {
        self.dialects.iter().find(|d| d.key == key)
    }
}
