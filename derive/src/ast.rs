//! The input type as the derive sees it: shape, fields and variants with their parsed
//! attributes and wire names.

use crate::attr::{self, Ctxt};
use crate::case::RenameRule;
use syn::{Data as SynData, DeriveInput, Fields, Ident, Member, Type};

pub struct Container<'a> {
    pub ident: &'a Ident,
    pub generics: &'a syn::Generics,
    pub attrs: attr::Container,
    pub data: Data<'a>,
}

pub enum Data<'a> {
    Struct(Style, Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `struct S { a: T }`
    Named,
    /// `struct S(A, B)`
    Tuple,
    /// `struct S(A)`: transparent
    Newtype,
    /// `struct S;`
    Unit,
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub attrs: attr::Variant,
    pub style: Style,
    pub fields: Vec<Field<'a>>,
    /// The name on the wire (tag value or string form), after `rename` / `rename_all`.
    pub wire: String,
}

pub struct Field<'a> {
    pub member: Member,
    pub attrs: attr::Field,
    pub ty: &'a Type,
    /// The key on the wire, after `rename` / `rename_all` (index text for tuple fields).
    pub wire: String,
    pub original: &'a syn::Field,
}

impl<'a> Container<'a> {
    /// `None` for a union (reported here; nothing else can be checked then).
    pub fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Option<Container<'a>> {
        let attrs = attr::Container::from_ast(cx, input);
        let rule = attrs.rename_all.get().copied();
        let data = match &input.data {
            SynData::Struct(s) => {
                let (style, fields) = fields_from_ast(cx, &s.fields, rule);
                Data::Struct(style, fields)
            }
            SynData::Enum(e) => Data::Enum(
                e.variants
                    .iter()
                    .map(|v| {
                        let vattrs = attr::Variant::from_ast(cx, v);
                        let (style, fields) = fields_from_ast(cx, &v.fields, None);
                        let name = unraw(&v.ident);
                        let wire = match (vattrs.rename.get(), rule) {
                            (Some(r), _) => r.clone(),
                            (None, Some(rule)) => rule.apply(&name),
                            (None, None) => name,
                        };
                        Variant {
                            ident: &v.ident,
                            attrs: vattrs,
                            style,
                            fields,
                            wire,
                        }
                    })
                    .collect(),
            ),
            SynData::Union(u) => {
                cx.error_spanned_by(
                    u.union_token,
                    "`GodotVariant` cannot be derived for a union: use a struct or an enum",
                );
                return None;
            }
        };
        Some(Container {
            ident: &input.ident,
            generics: &input.generics,
            attrs,
            data,
        })
    }

    /// An enum whose variants all lack fields: written as an int (or a String).
    pub fn is_unit_only_enum(&self) -> bool {
        match &self.data {
            Data::Enum(vs) => !vs.is_empty() && vs.iter().all(|v| v.style == Style::Unit),
            Data::Struct(..) => false,
        }
    }
}

fn fields_from_ast<'a>(
    cx: &Ctxt,
    fields: &'a Fields,
    rule: Option<RenameRule>,
) -> (Style, Vec<Field<'a>>) {
    let style = match fields {
        Fields::Named(_) => Style::Named,
        Fields::Unnamed(u) if u.unnamed.len() == 1 => Style::Newtype,
        Fields::Unnamed(_) => Style::Tuple,
        Fields::Unit => Style::Unit,
    };
    let list = fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let attrs = attr::Field::from_ast(cx, f);
            let (member, name) = match &f.ident {
                Some(id) => (Member::Named(id.clone()), unraw(id)),
                None => (Member::Unnamed(i.into()), i.to_string()),
            };
            let wire = match (attrs.rename.get(), rule, &f.ident) {
                (Some(r), _, _) => r.clone(),
                (None, Some(rule), Some(_)) => rule.apply(&name),
                _ => name,
            };
            Field {
                member,
                attrs,
                ty: &f.ty,
                wire,
                original: f,
            }
        })
        .collect();
    (style, list)
}

fn unraw(id: &Ident) -> String {
    let s = id.to_string();
    s.strip_prefix("r#").map(str::to_string).unwrap_or(s)
}
