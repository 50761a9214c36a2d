//! Parsing `#[godot(...)]` attributes: every mistake is recorded (spanned on its token) and
//! parsing goes on, so one compile reports them all.

use crate::case::RenameRule;
use proc_macro2::Span;
use quote::ToTokens;
use std::cell::RefCell;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, Lit, LitStr, Token};

/// Collects the errors of one derive.
#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    pub fn error(&self, span: Span, message: impl std::fmt::Display) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new(span, message));
    }

    pub fn error_spanned_by(&self, tokens: impl ToTokens, message: impl std::fmt::Display) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new_spanned(tokens, message));
    }

    pub fn syn_error(&self, e: syn::Error) {
        self.errors.borrow_mut().push(e);
    }

    /// All errors, combined into one (each keeps its own span), or `None`.
    pub fn finish(self) -> Option<syn::Error> {
        let mut errors = self.errors.into_inner().into_iter();
        let mut first = errors.next()?;
        for e in errors {
            first.combine(e);
        }
        Some(first)
    }
}

/// One attribute's value and the span of the word that set it; a second setting is an error.
pub struct Attr<T> {
    name: &'static str,
    value: Option<(Span, T)>,
}

impl<T> Attr<T> {
    fn none(name: &'static str) -> Attr<T> {
        Attr { name, value: None }
    }

    fn set(&mut self, cx: &Ctxt, span: Span, value: T) {
        if self.value.is_some() {
            cx.error(span, format_args!("duplicate attribute `{}`", self.name));
        } else {
            self.value = Some((span, value));
        }
    }

    pub fn get(&self) -> Option<&T> {
        self.value.as_ref().map(|(_, v)| v)
    }

    pub fn span(&self) -> Option<Span> {
        self.value.as_ref().map(|(s, _)| *s)
    }

    pub fn is_set(&self) -> bool {
        self.value.is_some()
    }
}

/// `default` or `default = "path"`.
pub enum Default {
    /// `Default::default()`.
    Trait,
    /// A function to call.
    Path(syn::ExprPath),
}

/// `object` (class = the type's name) or `object = "Class"`.
pub struct ObjectClass(pub Option<String>);

const CONTAINER: &[&str] = &[
    "rename_all",
    "deny_unknown_fields",
    "default",
    "tag",
    "content",
    "as_string",
    "object",
    "crate",
];
const VARIANT: &[&str] = &["rename"];
const FIELD: &[&str] = &[
    "rename",
    "alias",
    "skip",
    "default",
    "with",
    "array",
    "typed_array",
    "flatten",
];

/// Attributes of the struct or enum.
pub struct Container {
    pub rename_all: Attr<RenameRule>,
    pub deny_unknown_fields: Attr<()>,
    pub default: Attr<Default>,
    pub tag: Attr<String>,
    pub content: Attr<String>,
    pub as_string: Attr<()>,
    pub object: Attr<ObjectClass>,
    pub krate: Attr<syn::Path>,
}

/// Attributes of an enum variant.
pub struct Variant {
    pub rename: Attr<String>,
}

/// Attributes of a field.
pub struct Field {
    pub rename: Attr<String>,
    pub skip: Attr<()>,
    pub default: Attr<Default>,
    pub with: Attr<syn::Path>,
    pub array: Attr<()>,
    pub typed_array: Attr<()>,
    pub flatten: Attr<()>,
    /// `alias = "old"`, repeatable: more names accepted when reading, each with its literal
    /// (the span of a collision error).
    pub aliases: Vec<LitStr>,
}

/// Where an attribute list sits, for "belongs on" messages.
#[derive(Clone, Copy)]
enum Place {
    Container,
    Variant,
    Field,
}

impl Place {
    fn known(self) -> &'static [&'static str] {
        match self {
            Place::Container => CONTAINER,
            Place::Variant => VARIANT,
            Place::Field => FIELD,
        }
    }

    fn here(self) -> &'static str {
        match self {
            Place::Container => "the struct or enum",
            Place::Variant => "a variant",
            Place::Field => "a field",
        }
    }
}

/// Why `word` is not accepted at `place`: it belongs elsewhere, or it is unknown.
fn misplaced(place: Place, word: &str) -> String {
    let mut homes = Vec::new();
    for other in [Place::Container, Place::Variant, Place::Field] {
        if other.known().contains(&word) {
            homes.push(other.here());
        }
    }
    if homes.is_empty() {
        let known = place
            .known()
            .iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ");
        format!(
            "unknown attribute `{word}` on {}: expected one of {known}",
            place.here()
        )
    } else {
        format!(
            "`{word}` belongs on {}, not on {}",
            homes.join(" or "),
            place.here()
        )
    }
}

/// The value after `=`, if any; parenthesised lists are consumed and reported.
fn value(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<Expr>> {
    if meta.input.peek(Token![=]) {
        let expr: Expr = meta.value()?.parse()?;
        Ok(Some(expr))
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        let rest: proc_macro2::TokenStream = content.parse()?;
        cx.error(
            meta.path.span(),
            format_args!(
                "`{}` takes no list; write `{0} = \"...\"` or `{0}`",
                word(&meta.path)
            ),
        );
        drop(rest);
        Ok(None)
    } else {
        Ok(None)
    }
}

fn word(path: &syn::Path) -> String {
    path.to_token_stream().to_string().replace(' ', "")
}

fn lit_str(cx: &Ctxt, name: &str, path: &syn::Path, v: Option<Expr>) -> Option<LitStr> {
    match v {
        Some(Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        })) => Some(s),
        Some(other) => {
            cx.error_spanned_by(
                other,
                format_args!("`{name}` takes a string literal: `{name} = \"...\"`"),
            );
            None
        }
        None => {
            cx.error_spanned_by(
                path,
                format_args!("`{name}` needs a value: `{name} = \"...\"`"),
            );
            None
        }
    }
}

fn flag(cx: &Ctxt, name: &str, v: Option<Expr>) -> bool {
    match v {
        Some(e) => {
            cx.error_spanned_by(e, format_args!("`{name}` takes no value"));
            false
        }
        None => true,
    }
}

fn parse_path<T: syn::parse::Parse>(cx: &Ctxt, s: &LitStr, what: &str) -> Option<T> {
    match s.parse::<T>() {
        Ok(p) => Some(p),
        Err(_) => {
            cx.error_spanned_by(s, format_args!("`{}` is not a {what}", s.value()));
            None
        }
    }
}

fn default_value(cx: &Ctxt, path: &syn::Path, v: Option<Expr>) -> Option<Default> {
    match v {
        None => Some(Default::Trait),
        Some(e) => {
            let s = lit_str(cx, "default", path, Some(e))?;
            parse_path::<syn::ExprPath>(cx, &s, "path to a function").map(Default::Path)
        }
    }
}

/// Runs `each` on every item of every `#[godot(...)]` attribute; errors are recorded.
fn for_each_item(
    cx: &Ctxt,
    attrs: &[syn::Attribute],
    place: Place,
    mut each: impl FnMut(&str, &ParseNestedMeta, Option<Expr>),
) {
    for attr in attrs {
        if !attr.path().is_ident("godot") {
            continue;
        }
        if let syn::Meta::Path(p) = &attr.meta {
            cx.error_spanned_by(p, "expected `#[godot(...)]` with a list of attributes");
            continue;
        }
        let result = attr.parse_nested_meta(|meta| {
            let name = word(&meta.path);
            let v = value(cx, &meta)?;
            if place.known().contains(&name.as_str()) {
                each(&name, &meta, v);
            } else {
                cx.error_spanned_by(&meta.path, misplaced(place, &name));
            }
            Ok(())
        });
        if let Err(e) = result {
            cx.syn_error(e);
        }
    }
}

impl Container {
    pub fn from_ast(cx: &Ctxt, input: &syn::DeriveInput) -> Container {
        let mut c = Container {
            rename_all: Attr::none("rename_all"),
            deny_unknown_fields: Attr::none("deny_unknown_fields"),
            default: Attr::none("default"),
            tag: Attr::none("tag"),
            content: Attr::none("content"),
            as_string: Attr::none("as_string"),
            object: Attr::none("object"),
            krate: Attr::none("crate"),
        };
        for_each_item(cx, &input.attrs, Place::Container, |name, meta, v| {
            let span = meta.path.span();
            match name {
                "rename_all" => {
                    if let Some(s) = lit_str(cx, name, &meta.path, v) {
                        match RenameRule::from_str(&s.value()) {
                            Some(rule) => c.rename_all.set(cx, span, rule),
                            None => cx.error_spanned_by(
                                &s,
                                format_args!(
                                    "unknown case `{}`: expected one of {}",
                                    s.value(),
                                    RenameRule::NAMES
                                        .iter()
                                        .map(|n| format!("`{n}`"))
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                ),
                            ),
                        }
                    }
                }
                "deny_unknown_fields" => {
                    if flag(cx, name, v) {
                        c.deny_unknown_fields.set(cx, span, ());
                    }
                }
                "default" => {
                    if let Some(d) = default_value(cx, &meta.path, v) {
                        c.default.set(cx, span, d);
                    }
                }
                "tag" => {
                    if let Some(s) = lit_str(cx, name, &meta.path, v) {
                        c.tag.set(cx, span, s.value());
                    }
                }
                "content" => {
                    if let Some(s) = lit_str(cx, name, &meta.path, v) {
                        c.content.set(cx, span, s.value());
                    }
                }
                "as_string" => {
                    if flag(cx, name, v) {
                        c.as_string.set(cx, span, ());
                    }
                }
                "object" => match v {
                    None => c.object.set(cx, span, ObjectClass(None)),
                    Some(e) => {
                        if let Some(s) = lit_str(cx, name, &meta.path, Some(e)) {
                            if s.value().is_empty() {
                                cx.error_spanned_by(&s, "the class name of `object` is empty");
                            } else {
                                c.object.set(cx, span, ObjectClass(Some(s.value())));
                            }
                        }
                    }
                },
                "crate" => {
                    if let Some(s) = lit_str(cx, name, &meta.path, v) {
                        if let Some(p) = parse_path::<syn::Path>(cx, &s, "path") {
                            c.krate.set(cx, span, p);
                        }
                    }
                }
                _ => unreachable!("every name of CONTAINER has an arm"),
            }
        });
        c
    }
}

impl Variant {
    pub fn from_ast(cx: &Ctxt, variant: &syn::Variant) -> Variant {
        let mut v = Variant {
            rename: Attr::none("rename"),
        };
        for_each_item(
            cx,
            &variant.attrs,
            Place::Variant,
            |name, meta, val| match name {
                "rename" => {
                    if let Some(s) = lit_str(cx, name, &meta.path, val) {
                        v.rename.set(cx, meta.path.span(), s.value());
                    }
                }
                _ => unreachable!("every name of VARIANT has an arm"),
            },
        );
        v
    }
}

impl Field {
    pub fn from_ast(cx: &Ctxt, field: &syn::Field) -> Field {
        let mut f = Field {
            rename: Attr::none("rename"),
            skip: Attr::none("skip"),
            default: Attr::none("default"),
            with: Attr::none("with"),
            array: Attr::none("array"),
            typed_array: Attr::none("typed_array"),
            flatten: Attr::none("flatten"),
            aliases: Vec::new(),
        };
        for_each_item(cx, &field.attrs, Place::Field, |name, meta, v| {
            let span = meta.path.span();
            match name {
                "rename" => {
                    if let Some(s) = lit_str(cx, name, &meta.path, v) {
                        f.rename.set(cx, span, s.value());
                    }
                }
                "skip" => {
                    if flag(cx, name, v) {
                        f.skip.set(cx, span, ());
                    }
                }
                "default" => {
                    if let Some(d) = default_value(cx, &meta.path, v) {
                        f.default.set(cx, span, d);
                    }
                }
                "with" => {
                    if let Some(s) = lit_str(cx, name, &meta.path, v) {
                        if let Some(p) = parse_path::<syn::Path>(cx, &s, "module path") {
                            f.with.set(cx, span, p);
                        }
                    }
                }
                "array" => {
                    if flag(cx, name, v) {
                        f.array.set(cx, span, ());
                    }
                }
                "typed_array" => {
                    if flag(cx, name, v) {
                        f.typed_array.set(cx, span, ());
                    }
                }
                "flatten" => {
                    if flag(cx, name, v) {
                        f.flatten.set(cx, span, ());
                    }
                }
                "alias" => {
                    if let Some(s) = lit_str(cx, name, &meta.path, v) {
                        f.aliases.push(s);
                    }
                }
                _ => unreachable!("every name of FIELD has an arm"),
            }
        });
        f
    }
}
