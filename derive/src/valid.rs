//! Checks across attributes and shapes: each mistake is reported once, on the token that
//! makes it a mistake.

use crate::ast::{Container, Data, Field, Style};
use crate::attr::Ctxt;
use std::collections::HashMap;

pub fn check(cx: &Ctxt, c: &Container) {
    check_container(cx, c);
    match &c.data {
        Data::Struct(style, fields) => {
            check_fields(cx, fields, *style, false);
            if *style == Style::Named {
                check_distinct_keys(cx, fields, None);
            }
        }
        Data::Enum(variants) => {
            if variants.is_empty() {
                cx.error_spanned_by(
                    c.ident,
                    "`GodotVariant` cannot be derived for an enum with no variants",
                );
            }
            let unit_only = c.is_unit_only_enum();
            let string_enum = c.attrs.as_string.is_set();
            let mut seen: HashMap<&str, &syn::Ident> = HashMap::new();
            for v in variants {
                if unit_only && !string_enum {
                    if let Some(span) = v.attrs.rename.span() {
                        cx.error(
                            span,
                            "`rename` has no effect on a variant written as an int; add `#[godot(as_string)]` to the enum",
                        );
                    }
                }
                if let Some(first) = seen.insert(&v.wire, v.ident) {
                    if unit_only && !string_enum {
                        continue;
                    }
                    cx.error_spanned_by(
                        v.ident,
                        format_args!(
                            "duplicate variant name `{}`: variant `{}` has the same name on the wire as `{}`",
                            v.wire, v.ident, first
                        ),
                    );
                }
                check_fields(cx, &v.fields, v.style, true);
                if v.style == Style::Named {
                    let tag = c.attrs.tag.get().map(String::as_str).unwrap_or("type");
                    check_distinct_keys(cx, &v.fields, Some(tag));
                }
            }
        }
    }
}

fn check_container(cx: &Ctxt, c: &Container) {
    let a = &c.attrs;
    let (is_struct, named, unit_only, data_enum) = match &c.data {
        Data::Struct(style, _) => (true, *style == Style::Named, false, false),
        Data::Enum(_) => (false, false, c.is_unit_only_enum(), !c.is_unit_only_enum()),
    };
    if let Some(span) = a.rename_all.span() {
        if unit_only && !a.as_string.is_set() {
            cx.error(
                span,
                "`rename_all` has no effect on an enum written as an int; add `#[godot(as_string)]`",
            );
        } else if is_struct && !named {
            cx.error(
                span,
                "`rename_all` belongs on a struct with named fields or on an enum",
            );
        }
    }
    if let Some(span) = a.deny_unknown_fields.span() {
        if !(named || data_enum) {
            cx.error(
                span,
                "`deny_unknown_fields` belongs on a struct with named fields or an enum with data",
            );
        }
    }
    if let Some(span) = a.default.span() {
        if !named {
            cx.error(
                span,
                "`default` on the type belongs on a struct with named fields",
            );
        }
    }
    for (attr_span, word) in [(a.tag.span(), "tag"), (a.content.span(), "content")] {
        if let Some(span) = attr_span {
            if !data_enum {
                cx.error(
                    span,
                    format_args!("`{word}` belongs on an enum whose variants have data"),
                );
            }
        }
    }
    if let (Some(tag), Some(content)) = (a.tag.get(), a.content.get()) {
        if tag == content {
            cx.error(
                a.content.span().expect("set"),
                format_args!("`content` and `tag` are both `{tag}`"),
            );
        }
    }
    if let Some(span) = a.as_string.span() {
        if !unit_only {
            cx.error(
                span,
                "`as_string` belongs on an enum whose variants have no fields",
            );
        }
    }
    if let Some(span) = a.object.span() {
        if !named {
            cx.error(span, "`object` belongs on a struct with named fields");
        }
    }
}

fn check_fields(cx: &Ctxt, fields: &[Field], style: Style, in_enum: bool) {
    for f in fields {
        let a = &f.attrs;
        let name = match &f.original.ident {
            Some(id) => format!("`{id}`"),
            None => format!("`{}`", f.wire),
        };
        if let (Some(_), Some(span)) = (a.skip.span(), a.default.span()) {
            cx.error(
                span,
                format_args!(
                    "conflicting: both `skip` and `default` on field {name} (a skipped field is always `Default::default()`)"
                ),
            );
        }
        if let (Some(_), Some(span)) = (a.skip.span(), a.with.span()) {
            cx.error(
                span,
                format_args!("conflicting: both `skip` and `with` on field {name}"),
            );
        }
        if let (Some(_), Some(span)) = (a.array.span(), a.typed_array.span()) {
            cx.error(
                span,
                format_args!("conflicting: both `array` and `typed_array` on field {name}"),
            );
        }
        for (s, word) in [
            (a.array.span(), "array"),
            (a.typed_array.span(), "typed_array"),
        ] {
            if let (Some(span), true) = (s, a.with.is_set()) {
                cx.error(
                    span,
                    format_args!("conflicting: both `with` and `{word}` on field {name}"),
                );
            }
            if let (Some(span), true) = (s, a.skip.is_set()) {
                cx.error(
                    span,
                    format_args!("conflicting: both `skip` and `{word}` on field {name}"),
                );
            }
        }
        if let Some(span) = a.rename.span() {
            if style != Style::Named {
                cx.error(span, "`rename` belongs on a named field");
            }
        }
        if style != Style::Named {
            for alias in &a.aliases {
                cx.error_spanned_by(alias, "`alias` belongs on a named field");
            }
        }
        if let Some(span) = a.flatten.span() {
            if style != Style::Named || in_enum {
                cx.error(span, "`flatten` belongs on a named field of a struct");
            }
            // The flattened struct's own fields are the keys: nothing names or converts this
            // field itself.
            let others = [
                (a.rename.span(), "rename"),
                (a.aliases.first().map(|l| l.span()), "alias"),
                (a.skip.span(), "skip"),
                (a.default.span(), "default"),
                (a.with.span(), "with"),
                (a.array.span(), "array"),
                (a.typed_array.span(), "typed_array"),
            ];
            for (other, word) in others.into_iter().filter_map(|(s, w)| Some((s?, w))) {
                cx.error(
                    other,
                    format_args!("conflicting: both `flatten` and `{word}` on field {name}"),
                );
            }
        }
        if let Some(span) = a.default.span() {
            if style != Style::Named {
                cx.error(
                    span,
                    "`default` belongs on a named field (tuple elements are never missing)",
                );
            }
        }
        if let Some(span) = a.skip.span() {
            if style == Style::Newtype {
                cx.error(
                    span,
                    "`skip` on the only field of a newtype leaves nothing to write",
                );
            }
        }
    }
}

/// Two fields (or a field and the enum tag) with one key would overwrite each other.
fn check_distinct_keys(cx: &Ctxt, fields: &[Field], tag: Option<&str>) {
    let mut seen: HashMap<String, String> = HashMap::new();
    if let Some(tag) = tag {
        seen.insert(tag.to_string(), "the tag".to_string());
    }
    let keyed = || {
        fields
            .iter()
            .filter(|f| !f.attrs.skip.is_set() && !f.attrs.flatten.is_set())
    };
    for f in keyed() {
        let this = match &f.original.ident {
            Some(id) => format!("field `{id}`"),
            None => continue,
        };
        if let Some(first) = seen.get(f.wire.as_str()) {
            cx.error_spanned_by(
                f.original.ident.as_ref().expect("named"),
                format_args!(
                    "duplicate key `{}`: {this} has the same key as {first}",
                    f.wire
                ),
            );
        } else {
            seen.insert(f.wire.clone(), this);
        }
    }
    // Aliases last, against every primary key, so that the error is on the alias whichever
    // field comes first.
    for f in keyed() {
        let Some(id) = &f.original.ident else {
            continue;
        };
        for alias in &f.attrs.aliases {
            let name = alias.value();
            if name == f.wire {
                cx.error_spanned_by(
                    alias,
                    format_args!("alias `{name}` is the key of field `{id}` itself"),
                );
            } else if let Some(first) = seen.get(name.as_str()) {
                cx.error_spanned_by(
                    alias,
                    format_args!(
                        "duplicate key `{name}`: this alias of field `{id}` is the same key as {first}"
                    ),
                );
            } else {
                seen.insert(name, format!("an alias of field `{id}`"));
            }
        }
    }
}
