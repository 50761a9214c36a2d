//! Raw YAML to the checked model: every rule of the spec is checked here and every violation
//! is reported at once, each naming the file and the YAML key path it concerns.

use crate::model::*;
use crate::raw::*;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

mod layout;

use layout::{check_across, check_ids, check_layout, lower_struct, spacing};

/// One spec error: what is wrong and where.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SpecError {
    /// `spec/godot4.yaml`.
    pub file: String,
    /// `types.Dictionary.fields[1]`.
    pub path: String,
    /// ``field `flags` overlaps `length` (bytes 4..8)``.
    pub message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "error: {}\n  --> {}: {}",
            self.message, self.file, self.path
        )
    }
}

/// All errors of one run.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SpecErrors(pub Vec<SpecError>);

impl fmt::Display for SpecErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            writeln!(f, "{e}")?;
        }
        write!(f, "{} error(s) in the spec", self.0.len())
    }
}

impl std::error::Error for SpecErrors {}

/// The files of the real spec, relative to the workspace root, in dialect order.
pub const DIALECT_FILES: [&str; 3] = [
    "spec/godot3.yaml",
    "spec/godot4.yaml",
    "spec/pandemonium.yaml",
];
/// The shared kinds and features.
pub const COMMON_FILE: &str = "spec/common.yaml";

/// Reads and checks the whole spec under `root`.
pub fn load_spec(root: &Path) -> Result<Spec, SpecErrors> {
    let read = |rel: &str| {
        std::fs::read_to_string(root.join(rel)).map_err(|e| {
            SpecErrors(vec![SpecError {
                file: rel.into(),
                path: "(file)".into(),
                message: format!("cannot read: {e}"),
            }])
        })
    };
    let common = read(COMMON_FILE)?;
    let mut texts = Vec::new();
    for f in DIALECT_FILES {
        texts.push((f.to_string(), read(f)?));
    }
    let refs: Vec<(&str, &str)> = texts
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    lower_texts((COMMON_FILE, &common), &refs)
}

/// Checks a spec given as texts: `(file name, YAML)` for the common file and each dialect.
pub fn lower_texts(common: (&str, &str), dialects: &[(&str, &str)]) -> Result<Spec, SpecErrors> {
    let mut errs = Vec::new();
    let (kinds, features) = lower_common(common.0, common.1, &mut errs);
    let mut out = Vec::new();
    for (file, text) in dialects {
        if let Some(d) = lower_dialect(file, text, &kinds, &features, &mut errs) {
            out.push(d);
        }
    }
    check_across(&out, &kinds, &mut errs);
    if errs.is_empty() {
        Ok(Spec {
            kinds,
            features,
            dialects: out,
        })
    } else {
        Err(SpecErrors(errs))
    }
}

/// Checks one dialect file against already-checked kinds and features (used for documentation
/// revisions and `diff`, which compare one file at a time).
pub fn lower_one(
    file: &str,
    text: &str,
    kinds: &[KindDef],
    features: &[FeatureDecl],
) -> Result<Dialect, SpecErrors> {
    let mut errs = Vec::new();
    let d = lower_dialect(file, text, kinds, features, &mut errs);
    match d {
        Some(d) if errs.is_empty() => Ok(d),
        _ => Err(SpecErrors(errs)),
    }
}

fn err(errs: &mut Vec<SpecError>, file: &str, path: impl Into<String>, message: impl Into<String>) {
    errs.push(SpecError {
        file: file.into(),
        path: path.into(),
        message: message.into(),
    });
}

fn yaml_error(file: &str, e: serde_yaml::Error) -> SpecError {
    let path = match e.location() {
        Some(l) => format!("line {}, column {}", l.line(), l.column()),
        None => "(document)".into(),
    };
    SpecError {
        file: file.into(),
        path,
        message: format!("invalid YAML: {e}"),
    }
}

/// Checks `spec/common.yaml` alone (for `diff`, which lowers one dialect file at a time).
pub fn lower_common_text(
    file: &str,
    text: &str,
) -> Result<(Vec<KindDef>, Vec<FeatureDecl>), SpecErrors> {
    let mut errs = Vec::new();
    let out = lower_common(file, text, &mut errs);
    if errs.is_empty() {
        Ok(out)
    } else {
        Err(SpecErrors(errs))
    }
}

fn lower_common(
    file: &str,
    text: &str,
    errs: &mut Vec<SpecError>,
) -> (Vec<KindDef>, Vec<FeatureDecl>) {
    let raw: RawCommon = match serde_yaml::from_str(text) {
        Ok(r) => r,
        Err(e) => {
            errs.push(yaml_error(file, e));
            return (Vec::new(), Vec::new());
        }
    };
    let mut seen = BTreeSet::new();
    let mut kinds = Vec::new();
    for (i, k) in raw.kinds.into_iter().enumerate() {
        if !is_rust_ident(&k.name) {
            err(
                errs,
                file,
                format!("kinds[{i}]"),
                format!("`{}` is not a Rust identifier", k.name),
            );
        }
        if !seen.insert(k.name.clone()) {
            err(
                errs,
                file,
                format!("kinds[{i}]"),
                format!("kind `{}` declared twice", k.name),
            );
        }
        let path = format!("kinds[{i}]");
        let layout = k
            .fields
            .as_ref()
            .map(|fields| lower_struct(errs, file, &path, fields, &kinds));
        let derived = k.fields.is_some() || k.packed.is_some();
        let model = match (k.model.as_deref(), k.model_ref.as_deref()) {
            (None, None) if derived => Model::Derived,
            (Some("none"), Some("none")) if !derived => Model::Unit,
            (Some("absent"), None) if !derived => Model::Absent,
            (Some(o), Some(b)) if !derived => {
                for t in [o, b] {
                    if syn::parse_str::<syn::Type>(t).is_err() {
                        err(errs, file, &path, format!("`{t}` is not a Rust type"));
                    }
                }
                Model::Types(o.to_string(), b.to_string())
            }
            _ => {
                err(
                    errs,
                    file,
                    &path,
                    "a kind has `fields` or `packed`, or else both `model` and `model_ref` (`none`), or `model: absent`",
                );
                Model::Absent
            }
        };
        kinds.push(KindDef {
            name: k.name,
            description: k.description,
            model,
            layout,
            rust_vec: k.rust_vec.unwrap_or(true),
            packed_of: k.packed,
            migrate: k.migrate,
            text_aliases: k.text_aliases,
        });
    }
    for (i, k) in kinds.iter().enumerate() {
        let path = format!("kinds[{i}]");
        if let Some(e) = &k.packed_of {
            if !kinds.iter().any(|x| &x.name == e && x.is_fixed()) {
                err(
                    errs,
                    file,
                    &path,
                    format!("`packed: {e}` is not a fixed kind"),
                );
            }
        }
        if let Some(m) = &k.migrate {
            if !kinds.iter().any(|x| &x.name == m) || m == &k.name {
                err(
                    errs,
                    file,
                    &path,
                    format!("`migrate: {m}` is not another kind"),
                );
            }
        }
        if !k.rust_vec && k.packed_of.is_none() {
            err(errs, file, &path, "`rust_vec` is for packed arrays");
        }
        for a in &k.text_aliases {
            if !is_rust_ident(a) {
                err(
                    errs,
                    file,
                    &path,
                    format!("text alias `{a}` is not an identifier"),
                );
            }
        }
    }
    let mut seen = BTreeSet::new();
    let mut features = Vec::new();
    for (i, f) in raw.features.into_iter().enumerate() {
        if !is_rust_ident(&f.name) {
            err(
                errs,
                file,
                format!("features[{i}]"),
                format!("`{}` is not a Rust identifier", f.name),
            );
        }
        if !seen.insert(f.name.clone()) {
            err(
                errs,
                file,
                format!("features[{i}]"),
                format!("feature `{}` declared twice", f.name),
            );
        }
        features.push(FeatureDecl {
            name: f.name,
            description: f.description,
        });
    }
    (kinds, features)
}

fn is_rust_ident(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Per-file context for the checks.
struct Cx<'a> {
    file: &'a str,
    errs: &'a mut Vec<SpecError>,
}

impl Cx<'_> {
    fn err(&mut self, path: impl Into<String>, message: impl Into<String>) {
        err(self.errs, self.file, path, message);
    }

    fn ver(&mut self, path: &str, s: &str) -> Option<Ver> {
        let v = Ver::parse(s);
        if v.is_none() {
            self.err(
                path,
                format!("invalid version `{s}`: expected MAJOR.MINOR or MAJOR.MINOR.PATCH, quoted"),
            );
        }
        v
    }

    fn expr(&mut self, path: &str, e: &RawExpr) -> Option<Expr> {
        match e {
            RawExpr::Int(k) => Some(Expr::constant(*k)),
            RawExpr::Text(t) => match Expr::parse(t) {
                Ok(x) => Some(x),
                Err(m) => {
                    self.err(path, m);
                    None
                }
            },
        }
    }
}

fn lower_dialect(
    file: &str,
    text: &str,
    kinds: &[KindDef],
    features: &[FeatureDecl],
    errs: &mut Vec<SpecError>,
) -> Option<Dialect> {
    let raw: RawDialect = match serde_yaml::from_str(text) {
        Ok(r) => r,
        Err(e) => {
            errs.push(yaml_error(file, e));
            return None;
        }
    };
    let before = errs.len();
    let mut cx = Cx { file, errs };
    let oldest = cx.ver("oldest", &raw.oldest).unwrap_or(Ver(0, 0, 0));
    let newest = cx.ver("newest", &raw.newest).unwrap_or(Ver(255, 0, 0));
    if oldest > newest {
        cx.err(
            "newest",
            format!("newest {newest} is older than oldest {oldest}"),
        );
    }
    let in_range = |cx: &mut Cx, path: &str, v: Ver| {
        if v < oldest || v > newest {
            cx.err(path, format!("version {v} is outside {oldest}..={newest}"));
        }
    };

    // `tight` unless said: documentation revisions say nothing of the text form.
    let text_tight = match raw.text_spacing.as_deref() {
        Some(sp) => spacing(&mut cx, "text_spacing", sp).unwrap_or(true),
        None if raw.documentation => true,
        None => {
            cx.err(
                "text_spacing",
                "a dialect needs `text_spacing: padded` or `tight`",
            );
            true
        }
    };

    // Eras: ascending, the first at `oldest`.
    let mut eras = Vec::new();
    for (i, e) in raw.eras.iter().enumerate() {
        let path = format!("eras[{i}]");
        let Some(since) = cx.ver(&format!("{path}.since"), &e.since) else {
            continue;
        };
        in_range(&mut cx, &path, since);
        if let Some(prev) = eras.last().map(|e: &Era| e.since) {
            if since <= prev {
                cx.err(&path, format!("era {since} does not come after era {prev}"));
            }
        } else if since != oldest {
            cx.err(
                &path,
                format!("the first era starts at {since}, not at `oldest` {oldest}"),
            );
        }
        eras.push(Era {
            since,
            count: e.count,
            description: e.description.clone(),
        });
    }
    if eras.is_empty() {
        cx.err("eras", "a dialect needs at least one era");
    }

    // Flags.
    let mut flags = Vec::new();
    for (i, f) in raw.flags.iter().enumerate() {
        let path = format!("flags[{i}]");
        if f.bits[0] > f.bits[1] || f.bits[1] > 31 || f.bits[0] < 8 {
            cx.err(
                &path,
                format!(
                    "bits {}..{} must lie in 8..=31, first <= last",
                    f.bits[0], f.bits[1]
                ),
            );
        }
        if flags.iter().any(|g: &Flag| g.name == f.name) {
            cx.err(&path, format!("flag `{}` declared twice", f.name));
        }
        flags.push(Flag {
            name: f.name.clone(),
            engine_name: f.engine_name.clone(),
            bits: (f.bits[0], f.bits[1].max(f.bits[0])),
            description: f.description.clone(),
            docs: f.docs.clone().into_vec(),
        });
    }

    // Features.
    let mut feats: Vec<FeatureRange> = Vec::new();
    for (i, f) in raw.features.iter().enumerate() {
        let path = format!("features[{i}]");
        if !features.iter().any(|d| d.name == f.feature) {
            cx.err(
                &path,
                format!(
                    "unknown feature `{}` (declare it in {COMMON_FILE})",
                    f.feature
                ),
            );
        }
        let Some(since) = cx.ver(&format!("{path}.since"), &f.since) else {
            continue;
        };
        let until = match &f.until {
            Some(u) => match cx.ver(&format!("{path}.until"), u) {
                Some(u) if u <= since => {
                    cx.err(&path, format!("until {u} is not after since {since}"));
                    None
                }
                u => u,
            },
            None => None,
        };
        for g in feats.iter().filter(|g| g.feature == f.feature) {
            let overlap = g.until.is_none_or(|gu| since < gu) && until.is_none_or(|u| g.since < u);
            if overlap {
                cx.err(&path, format!("feature `{}` ranges overlap", f.feature));
            }
        }
        feats.push(FeatureRange {
            feature: f.feature.clone(),
            since,
            until,
            source: f.source.clone(),
        });
    }

    // Types.
    let mut types = Vec::new();
    for (key, t) in &raw.types {
        let path = format!("types.{key}");
        if !kinds.iter().any(|k| &k.name == key) {
            cx.err(
                &path,
                format!("unknown kind `{key}` (declare it in {COMMON_FILE})"),
            );
        }
        let mut ids = Vec::new();
        if t.ids.is_empty() {
            cx.err(format!("{path}.ids"), "a type needs at least one id");
        }
        for (i, r) in t.ids.iter().enumerate() {
            let ipath = format!("{path}.ids[{i}]");
            let Some(since) = cx.ver(&ipath, &r.since) else {
                continue;
            };
            in_range(&mut cx, &ipath, since);
            if !eras.iter().any(|e| e.since == since) {
                cx.err(
                    &ipath,
                    format!("id change at {since}, which does not start an era"),
                );
            }
            if ids.last().is_some_and(|p: &IdRange| p.since >= since) {
                cx.err(&ipath, "ids must be in ascending version order");
            }
            ids.push(IdRange {
                since,
                id: r.id,
                name: r.name.clone().unwrap_or_else(|| t.name.clone()),
            });
        }
        let mut tflags = Vec::new();
        for (i, f) in t.flags.iter().enumerate() {
            let fpath = format!("{path}.flags[{i}]");
            if !flags.iter().any(|g| g.name == f.flag) {
                cx.err(
                    &fpath,
                    format!("unknown flag `{}` (declare it under `flags:`)", f.flag),
                );
            }
            let Some(since) = cx.ver(&fpath, &f.since) else {
                continue;
            };
            in_range(&mut cx, &fpath, since);
            if let Some(first) = ids.first() {
                if since < first.since {
                    cx.err(
                        &fpath,
                        format!(
                            "flag from {since}, before the type exists ({})",
                            first.since
                        ),
                    );
                }
            }
            tflags.push(TypeFlag {
                flag: f.flag.clone(),
                since,
                description: f.description.clone(),
            });
        }
        let fields = lower_fields(
            &mut cx,
            &format!("{path}.fields"),
            &t.fields,
            &tflags,
            (oldest, newest),
            raw.documentation,
        );
        types.push(Type {
            kind: key.clone(),
            name: t.name.clone(),
            ids,
            description: t.description.clone(),
            flags: tflags,
            fields,
            docs: t.docs.clone().into_vec(),
            text: t.text.clone(),
            text_tight: t
                .text_spacing
                .as_deref()
                .and_then(|sp| spacing(&mut cx, &format!("{path}.text_spacing"), sp)),
        });
    }
    // `Kind` order, not YAML key order.
    types.sort_by_key(|t| {
        kinds
            .iter()
            .position(|k| k.name == t.kind)
            .unwrap_or(usize::MAX)
    });

    check_ids(&mut cx, &eras, &types);
    // A documentation revision records what the page says, its overlaps and missing flags
    // included, so that `cargo codegen diff` can show them; only the engine's layouts must add up.
    if !raw.documentation {
        for t in &types {
            check_layout(&mut cx, t, kinds, oldest);
        }
    }

    let d = Dialect {
        key: raw.dialect,
        title: raw.title,
        source: raw.source,
        file: file.to_string(),
        documentation: raw.documentation,
        oldest,
        newest,
        eras,
        text_tight,
        type_mask: raw.header.type_mask,
        header_description: raw.header.description,
        header_docs: raw.header.docs.into_vec(),
        flags,
        features: feats,
        docs: raw.docs.into_vec(),
        types,
    };
    (errs.len() == before).then_some(d)
}

fn lower_fields(
    cx: &mut Cx,
    path: &str,
    raw: &[RawField],
    tflags: &[TypeFlag],
    (oldest, newest): (Ver, Ver),
    documentation: bool,
) -> Vec<Field> {
    let mut out = Vec::new();
    for (i, f) in raw.iter().enumerate() {
        let fpath = format!("{path}[{i}]");
        if out.iter().any(|g: &Field| g.name == f.name) {
            cx.err(&fpath, format!("field `{}` named twice", f.name));
        }
        let ty = FieldType::parse(&f.ty).unwrap_or_else(|| {
            let known: Vec<&str> = FieldType::ALL.iter().map(|(_, n)| *n).collect();
            cx.err(
                &fpath,
                format!(
                    "unknown field type `{}` (expected one of {})",
                    f.ty,
                    known.join(", ")
                ),
            );
            FieldType::Bytes
        });
        let offset = cx
            .expr(&format!("{fpath}.offset"), &f.offset)
            .unwrap_or_default();
        let len = cx.expr(&format!("{fpath}.len"), &f.len).unwrap_or_default();
        let count = f
            .count
            .as_ref()
            .and_then(|c| cx.expr(&format!("{fpath}.count"), c));
        let ver = |cx: &mut Cx, key: &str, s: &Option<String>| {
            let v = s
                .as_ref()
                .and_then(|s| cx.ver(&format!("{fpath}.{key}"), s));
            if let Some(v) = v {
                if v < oldest || v > newest {
                    cx.err(
                        format!("{fpath}.{key}"),
                        format!("version {v} is outside {oldest}..={newest}"),
                    );
                }
            }
            v
        };
        let since = ver(cx, "since", &f.since);
        let until = ver(cx, "until", &f.until);
        let when = f.when.as_ref().map(|w| {
            let (set, flag) = match w.strip_prefix('!') {
                Some(rest) => (false, rest.trim()),
                None => (true, w.trim()),
            };
            if !documentation && !tflags.iter().any(|t| t.flag == flag) {
                cx.err(
                    format!("{fpath}.when"),
                    format!("condition on flag `{flag}`, which this type does not use"),
                );
            }
            When {
                flag: flag.to_string(),
                set,
            }
        });
        let wide = f.wide.as_ref().map(|w| {
            let wpath = format!("{fpath}.wide");
            let wty = match &w.ty {
                Some(s) => FieldType::parse(s).unwrap_or_else(|| {
                    cx.err(&wpath, format!("unknown field type `{s}`"));
                    ty
                }),
                None => ty,
            };
            Wide {
                offset: cx
                    .expr(&format!("{wpath}.offset"), &w.offset)
                    .unwrap_or_default(),
                len: cx.expr(&format!("{wpath}.len"), &w.len).unwrap_or_default(),
                ty: wty,
            }
        });
        match ty {
            FieldType::Repeat if f.element.is_empty() || count.is_none() => {
                cx.err(&fpath, "a `repeat` field needs `count` and `element`");
            }
            FieldType::Repeat => {}
            _ if !f.element.is_empty() => cx.err(
                &fpath,
                format!("only `repeat` fields have `element` (this is `{}`)", f.ty),
            ),
            _ => {}
        }
        let element = lower_fields(
            cx,
            &format!("{fpath}.element"),
            &f.element,
            tflags,
            (oldest, newest),
            documentation,
        );
        out.push(Field {
            name: f.name.clone(),
            offset,
            len,
            ty,
            description: f.description.clone(),
            accessor: f.accessor.clone(),
            count,
            since,
            until,
            when,
            wide,
            element,
            docs: f.docs.clone().into_vec(),
        });
    }
    out
}
