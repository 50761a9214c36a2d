//! The layout checks: ids that cover every era, fields back to back, fixed layouts complete and the same in every dialect.

use super::*;

/// Unique ids covering `0..count` in every era.
pub(super) fn check_ids(cx: &mut Cx, eras: &[Era], types: &[Type]) {
    for (ei, era) in eras.iter().enumerate() {
        let mut by_id: BTreeMap<u32, &str> = BTreeMap::new();
        for t in types {
            let Some(r) = t.id_at(era.since) else {
                continue;
            };
            if r.id >= era.count {
                cx.err(
                    format!("types.{}.ids", t.kind),
                    format!(
                        "id {} is out of range 0..{} in era {}",
                        r.id, era.count, era.since
                    ),
                );
            }
            if let Some(other) = by_id.insert(r.id, &t.kind) {
                cx.err(
                    format!("types.{}.ids", t.kind),
                    format!(
                        "id {} used by both `{other}` and `{}` in era {}",
                        r.id, t.kind, era.since
                    ),
                );
            }
        }
        let missing: Vec<String> = (0..era.count)
            .filter(|i| !by_id.contains_key(i))
            .map(|i| i.to_string())
            .collect();
        if !missing.is_empty() {
            cx.err(
                format!("eras[{ei}]"),
                format!(
                    "era {} has no type for id(s) {}",
                    era.since,
                    missing.join(", ")
                ),
            );
        }
    }
}

/// `padded` or `tight`, as `Some(tight)`.
pub(super) fn spacing(cx: &mut Cx, path: &str, sp: &str) -> Option<bool> {
    match sp {
        "padded" => Some(false),
        "tight" => Some(true),
        other => {
            cx.err(
                path,
                format!("text spacing `{other}` is neither `padded` nor `tight`"),
            );
            None
        }
    }
}

/// A fixed layout's struct: field types resolved against the fixed kinds declared before it,
/// and its components flattened in field order (`rows[0].x`, `rows[0].y`, …).
pub(super) fn lower_struct(
    errs: &mut Vec<SpecError>,
    file: &str,
    path: &str,
    fields: &[RawStructField],
    earlier: &[KindDef],
) -> Layout {
    let mut out = Layout {
        fields: Vec::new(),
        components: Vec::new(),
    };
    for (i, f) in fields.iter().enumerate() {
        let fpath = format!("{path}.fields[{i}]");
        if !is_rust_ident(&f.name) || out.fields.iter().any(|g| g.name == f.name) {
            err(
                errs,
                file,
                &fpath,
                format!("`{}` is not a new Rust field name", f.name),
            );
        }
        let fixed = |name: &str| {
            earlier
                .iter()
                .find(|k| k.name == name)
                .and_then(|k| k.layout.as_ref())
        };
        let ty = match f.ty.trim() {
            "real" => StructType::Scalar(Scalar::Real),
            "i32" => StructType::Scalar(Scalar::I32),
            "f32" => StructType::Scalar(Scalar::F32),
            t => match t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
                Some(inner) => match inner.split_once(';') {
                    Some((k, n)) => match n.trim().parse::<usize>() {
                        Ok(n) if n > 0 => StructType::Array(k.trim().to_string(), n),
                        _ => {
                            err(errs, file, &fpath, format!("`{t}` needs a positive length"));
                            continue;
                        }
                    },
                    None => {
                        err(errs, file, &fpath, format!("`{t}` is not `[Kind; N]`"));
                        continue;
                    }
                },
                None => StructType::Kind(t.to_string()),
            },
        };
        if f.text_default.is_some() && i + 1 != fields.len() {
            err(
                errs,
                file,
                &fpath,
                "only the last field may have a `text_default`",
            );
        }
        let mut push = |prefix: String, inner: Option<&Layout>, scalar: Option<Scalar>| match (
            inner, scalar,
        ) {
            (_, Some(s)) => out.components.push(Component {
                path: prefix,
                scalar: s,
                text_default: f.text_default,
            }),
            (Some(l), None) => out
                .components
                .extend(l.components.iter().map(|c| Component {
                    path: format!("{prefix}.{}", c.path),
                    scalar: c.scalar,
                    text_default: None,
                })),
            (None, None) => {}
        };
        match &ty {
            StructType::Scalar(s) => push(f.name.clone(), None, Some(*s)),
            StructType::Kind(k) | StructType::Array(k, _) => {
                let Some(l) = fixed(k) else {
                    err(
                        errs,
                        file,
                        &fpath,
                        format!("`{k}` is not real, i32, f32 or a fixed kind declared above"),
                    );
                    continue;
                };
                if f.text_default.is_some() {
                    err(errs, file, &fpath, "`text_default` is for a scalar field");
                }
                match &ty {
                    StructType::Array(_, n) => {
                        for j in 0..*n {
                            push(format!("{}[{j}]", f.name), Some(l), None);
                        }
                    }
                    _ => push(f.name.clone(), Some(l), None),
                }
            }
        }
        out.fields.push(StructField {
            name: f.name.clone(),
            ty,
            description: f.description.clone(),
        });
    }
    if out.components.is_empty() {
        err(
            errs,
            file,
            path,
            "a fixed layout needs at least one component",
        );
    }
    out
}

/// Fields back to back, lengths that add up, wide and narrow forms that agree, fixed layouts complete.
pub(super) fn check_layout(cx: &mut Cx, t: &Type, kinds: &[KindDef], oldest: Ver) {
    let path = format!("types.{}.fields", t.kind);
    let index = |f: &Field| t.fields.iter().position(|g| g.name == f.name).unwrap_or(0);
    let wide_flag = t.flag_since("FLAG_64").is_some();
    if t.has_wide() && !wide_flag {
        cx.err(
            &path,
            "fields have a `wide` form but the type does not use FLAG_64",
        );
    }
    let mut whens: Vec<Option<&When>> = t
        .fields
        .iter()
        .filter_map(|f| f.when.as_ref())
        .map(Some)
        .collect();
    whens.dedup();
    if whens.is_empty() {
        whens.push(None);
    }
    let mut reported = BTreeSet::new();
    for (_, _, fields) in t.variants(oldest) {
        for w in &whens {
            let seq: Vec<&Field> = fields
                .iter()
                .filter(|f| f.when.is_none() || f.when.as_ref() == *w)
                .collect();
            let items: Vec<(usize, &Field)> = seq.iter().map(|f| (index(f), *f)).collect();
            check_sequence(cx, &path, &items, Expr::constant(4), false, &mut reported);
            if wide_flag && t.has_wide() {
                check_sequence(cx, &path, &items, Expr::constant(4), true, &mut reported);
            }
        }
    }
    for (i, f) in t.fields.iter().enumerate() {
        check_field(cx, &format!("{path}[{i}]"), f, t, wide_flag);
    }
    let layout = kinds
        .iter()
        .find(|k| k.name == t.kind)
        .and_then(|k| k.layout.as_ref());
    let math = layout.is_some();
    if let Some(l) = layout {
        // The wire fields are the struct's components, one for one, in order: what lets text,
        // JSON, serde and equality work from the components alone.
        let wire: Vec<(Option<&str>, Option<Scalar>)> = t
            .fields
            .iter()
            .map(|f| (f.accessor.as_deref(), Scalar::of_field(f.ty)))
            .collect();
        let model: Vec<(Option<&str>, Option<Scalar>)> = l
            .components
            .iter()
            .map(|c| (Some(c.path.as_str()), Some(c.scalar)))
            .collect();
        if wire != model {
            let show = |v: &[(Option<&str>, Option<Scalar>)]| {
                v.iter()
                    .map(|(p, s)| format!("{}: {:?}", p.unwrap_or("?"), s))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            cx.err(
                &path,
                format!(
                    "the fields of fixed `{}` are not its struct's components in order (wire: {}; struct: {})",
                    t.kind,
                    show(&wire),
                    show(&model)
                ),
            );
        }
    }
    for (i, f) in t.fields.iter().enumerate() {
        let fpath = format!("{path}[{i}]");
        if math {
            match &f.accessor {
                None => cx.err(
                    &fpath,
                    format!(
                        "field `{}` of fixed-size `{}` needs an `accessor`",
                        f.name, t.kind
                    ),
                ),
                Some(a) => {
                    if syn::parse_str::<syn::Expr>(&format!("v.{a}")).is_err() {
                        cx.err(&fpath, format!("accessor `{a}` is not a Rust field path"));
                    }
                }
            }
            if f.offset.as_const().is_none() || f.len.as_const().is_none() {
                cx.err(
                    &fpath,
                    format!(
                        "field `{}` of fixed-size `{}` must have a constant offset and length",
                        f.name, t.kind
                    ),
                );
            }
            if !matches!(f.ty, FieldType::Real | FieldType::I32 | FieldType::F32) {
                cx.err(
                    &fpath,
                    format!("fixed-size field `{}` must be real, i32 or f32", f.name),
                );
            }
        } else if f.accessor.is_some() {
            cx.err(
                &fpath,
                format!(
                    "only fixed-size math kinds have accessors, `{}` is not one",
                    t.kind
                ),
            );
        }
    }
}

/// One field's own rules: real fields widen to 8 bytes, repeats add up to count x stride.
pub(super) fn check_field(cx: &mut Cx, path: &str, f: &Field, t: &Type, wide_flag: bool) {
    if let Some(w) = &f.wide {
        let narrow_len = f.len.as_const();
        match (f.ty, w.ty) {
            (FieldType::Real, FieldType::Real) => {
                if narrow_len != Some(4) || w.len.as_const() != Some(8) {
                    cx.err(
                        path,
                        format!(
                            "real field `{}` must be 4 bytes narrow and 8 wide (is {} / {})",
                            f.name, f.len, w.len
                        ),
                    );
                }
            }
            (FieldType::I32, FieldType::I64) | (FieldType::F32, FieldType::F64) => {
                if narrow_len != Some(4) || w.len.as_const() != Some(8) {
                    cx.err(
                        path,
                        format!("field `{}` must be 4 bytes narrow and 8 wide", f.name),
                    );
                }
            }
            (FieldType::Repeat, FieldType::Repeat) => {}
            (a, b) => cx.err(
                path,
                format!(
                    "field `{}` cannot widen from {} to {}",
                    f.name,
                    a.as_str(),
                    b.as_str()
                ),
            ),
        }
    } else if wide_flag && t.has_wide() && f.ty == FieldType::Real {
        cx.err(
            path,
            format!(
                "real field `{}` has no `wide` form though the type uses FLAG_64",
                f.name
            ),
        );
    }
    let fixed_len = |ty: FieldType| match ty {
        FieldType::U32 | FieldType::I32 | FieldType::F32 => Some(4),
        FieldType::U64 | FieldType::I64 | FieldType::F64 => Some(8),
        FieldType::Real => Some(4),
        _ => None,
    };
    if let (Some(want), Some(have)) = (fixed_len(f.ty), f.len.as_const()) {
        if want != have {
            cx.err(
                path,
                format!(
                    "field `{}` is {} but {have} bytes long (expected {want})",
                    f.name,
                    f.ty.as_str()
                ),
            );
        }
    } else if fixed_len(f.ty).is_some() {
        cx.err(
            path,
            format!(
                "field `{}` is {} but has variable length `{}`",
                f.name,
                f.ty.as_str(),
                f.len
            ),
        );
    }
    if f.ty == FieldType::Repeat {
        let epath = format!("{path}.element");
        let items: Vec<(usize, &Field)> = f.element.iter().enumerate().collect();
        let mut reported = BTreeSet::new();
        let end = check_sequence(cx, &epath, &items, Expr::constant(0), false, &mut reported);
        if let (Some(stride), Some(count)) = (end.as_ref().and_then(|e| e.as_const()), &f.count) {
            let want = count.scale(stride);
            if want != f.len {
                cx.err(
                    path,
                    format!(
                        "length `{}` does not add up: {} elements of {stride} bytes make `{want}`",
                        f.len, count
                    ),
                );
            }
        }
        if f.wide.is_some() {
            let wend = check_sequence(cx, &epath, &items, Expr::constant(0), true, &mut reported);
            if let (Some(stride), Some(count), Some(w)) =
                (wend.as_ref().and_then(|e| e.as_const()), &f.count, &f.wide)
            {
                let want = count.scale(stride);
                if want != w.len {
                    cx.err(path, format!("wide length `{}` does not add up: {} elements of {stride} bytes make `{want}`", w.len, count));
                }
            }
        }
        for (i, e) in f.element.iter().enumerate() {
            check_field(cx, &format!("{epath}[{i}]"), e, t, wide_flag);
        }
    }
}

/// Checks that `items` sit back to back from `start`; returns where the last one ends.
pub(super) fn check_sequence(
    cx: &mut Cx,
    path: &str,
    items: &[(usize, &Field)],
    start: Expr,
    wide: bool,
    reported: &mut BTreeSet<(usize, bool)>,
) -> Option<Expr> {
    let mut at = start;
    let mut prev: Option<&Field> = None;
    for (i, f) in items {
        let (offset, len) = if wide {
            let (o, l, _) = f.widened();
            (if f.wide.is_some() { o } else { at.clone() }, l)
        } else {
            (f.offset.clone(), f.len.clone())
        };
        // A narrow-only field keeps its length in the wide form, at the running wide offset.
        if offset != at && reported.insert((*i, wide)) {
            let form = if wide { "wide " } else { "" };
            let msg = match (offset.as_const(), at.as_const(), prev) {
                (Some(o), Some(a), Some(p)) if o < a => {
                    format!(
                        "{form}field `{}` overlaps `{}` (bytes {o}..{a})",
                        f.name, p.name
                    )
                }
                (Some(o), Some(a), Some(p)) => format!(
                    "{form}gap between `{}` and `{}` (bytes {a}..{o})",
                    p.name, f.name
                ),
                (_, _, Some(p)) => format!(
                    "{form}field `{}` starts at `{offset}` but `{}` ends at `{at}`",
                    f.name, p.name
                ),
                (_, _, None) => format!(
                    "{form}field `{}` starts at `{offset}`, expected `{at}`",
                    f.name
                ),
            };
            cx.err(format!("{path}[{i}]"), msg);
        }
        at = offset.add(&len);
        prev = Some(f);
    }
    Some(at)
}

/// The same fixed layout in every dialect: narrow fields equal, wide fields equal where both exist.
pub(super) fn check_across(dialects: &[Dialect], kinds: &[KindDef], errs: &mut Vec<SpecError>) {
    for k in kinds.iter().filter(|k| k.is_fixed()) {
        let mut first: Option<(&Dialect, &Type)> = None;
        let mut have = false;
        for d in dialects.iter().filter(|d| !d.documentation) {
            let Some(t) = d.ty(&k.name) else { continue };
            have = true;
            let Some((d0, t0)) = first else {
                first = Some((d, t));
                continue;
            };
            for (i, (a, b)) in t0.fields.iter().zip(&t.fields).enumerate() {
                let same = a.name == b.name
                    && a.offset == b.offset
                    && a.len == b.len
                    && a.ty == b.ty
                    && a.accessor == b.accessor;
                let wide_same = match (&a.wide, &b.wide) {
                    (Some(x), Some(y)) => x == y,
                    _ => true,
                };
                if !same || !wide_same {
                    err(
                        errs,
                        &d.file,
                        format!("types.{}.fields[{i}]", k.name),
                        format!(
                            "fixed layout of `{}` differs from {} (field `{}` vs `{}`)",
                            k.name, d0.file, b.name, a.name
                        ),
                    );
                }
            }
            if t0.fields.len() != t.fields.len() {
                err(
                    errs,
                    &d.file,
                    format!("types.{}.fields", k.name),
                    format!(
                        "fixed layout of `{}` has {} fields, {} has {}",
                        k.name,
                        t.fields.len(),
                        d0.file,
                        t0.fields.len()
                    ),
                );
            }
        }
        if !have && !dialects.is_empty() && dialects.iter().any(|d| !d.documentation) {
            let d = &dialects[0];
            err(
                errs,
                &d.file,
                "types",
                format!("math kind `{}` has a layout in no dialect", k.name),
            );
        }
    }
}
