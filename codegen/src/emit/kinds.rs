//! Emits `mod.rs` (the module list) and `kinds.rs` (`Kind`, `Feature`, `FieldName`, `FieldInfo`,
//! `TypeInfo`).

use super::ident;
use crate::model::{Field, Spec};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::BTreeMap;

/// `src/generated/mod.rs`.
pub fn emit_mod(spec: &Spec) -> TokenStream {
    let dialects = spec.dialects.iter().map(|d| {
        let m = ident(&d.key);
        let doc = format!(
            "The {} dialect: type ids, flags, features and layouts by version.",
            d.title
        );
        quote! { #[doc = #doc] pub mod #m; }
    });
    quote! {
        #![doc = "Code generated from the spec: kinds and one module per dialect."]
        #![doc = ""]
        #![doc = "The other generated files belong to the layer that uses them and are included there:"]
        #![doc = "`math.rs` and `value.rs` by the value model (`crate::variant`), `value_ref.rs` by the"]
        #![doc = "borrowed views (`crate::borrowed`), so no layer reaches up into another."]
        #[doc = "Every Variant kind, feature and layout description shared by the dialects."]
        pub mod kinds;
        #(#dialects)*
    }
}

/// `src/generated/kinds.rs`.
pub fn emit_kinds(spec: &Spec) -> TokenStream {
    let variants = spec.kinds.iter().map(|k| {
        let v = ident(&k.name);
        let doc = format!("{}.", k.description);
        quote! { #[doc = #doc] #v, }
    });
    let all = spec.kinds.iter().map(|k| ident(&k.name));
    let names = spec.kinds.iter().map(|k| {
        let v = ident(&k.name);
        let n = &k.name;
        quote! { Kind::#v => #n, }
    });
    // A match on `self` with these arms, or just `None` when there are none (clippy).
    let lookup = |arms: Vec<TokenStream>| {
        if arms.is_empty() {
            quote! { let _ = self; None }
        } else {
            quote! { match self { #(#arms)* _ => None } }
        }
    };
    let packed_elem = lookup(
        spec.kinds
            .iter()
            .filter_map(|k| {
                let v = ident(&k.name);
                let e = ident(k.packed_of.as_deref()?);
                Some(quote! { Kind::#v => Some(Kind::#e), })
            })
            .collect(),
    );
    let migrate = lookup(
        spec.kinds
            .iter()
            .filter_map(|k| {
                let v = ident(&k.name);
                let m = ident(k.migrate.as_deref()?);
                Some(quote! { Kind::#v => Some(Kind::#m), })
            })
            .collect(),
    );
    let fixed = spec
        .kinds
        .iter()
        .filter(|k| k.is_fixed())
        .map(|k| ident(&k.name));
    let packed = spec
        .kinds
        .iter()
        .filter(|k| k.is_packed())
        .map(|k| ident(&k.name))
        .collect::<Vec<_>>();
    // `matches!(self,)` does not parse: a spec without packed kinds says `false` outright.
    let packed_body = if packed.is_empty() {
        quote! { let _ = self; false }
    } else {
        quote! { matches!(self, #(Kind::#packed)|*) }
    };
    // Every constructor name of the text form in any dialect, and the older aliases: `lower`
    // checked that each names one kind.
    let mut text: BTreeMap<String, String> = BTreeMap::new();
    for k in &spec.kinds {
        if k.is_fixed() || k.packed_of.is_some() {
            text.insert(k.name.clone(), k.name.clone());
            for a in &k.text_aliases {
                text.insert(a.clone(), k.name.clone());
            }
            for d in spec.dialects.iter().filter(|d| !d.documentation) {
                if let Some(t) = d.ty(&k.name).and_then(|t| t.text.clone()) {
                    text.insert(t, k.name.clone());
                }
            }
        }
    }
    let text_arms = text.iter().map(|(t, k)| {
        let v = ident(k);
        quote! { #t => Some(Kind::#v), }
    });
    let fvariants = spec.features.iter().map(|f| {
        let v = ident(&f.name);
        let doc = format!("{}.", f.description);
        quote! { #[doc = #doc] #v, }
    });
    let fall = spec.features.iter().map(|f| ident(&f.name));
    let fnames = spec.features.iter().map(|f| {
        let v = ident(&f.name);
        let n = &f.name;
        quote! { Feature::#v => #n, }
    });
    let mut field_names = std::collections::BTreeSet::new();
    for d in &spec.dialects {
        for t in &d.types {
            collect_field_names(&t.fields, &mut field_names);
        }
    }
    let fname_variants = field_names.iter().map(|n| {
        let v = ident(&field_variant(n));
        let doc = format!("`{n}`.");
        quote! { #[doc = #doc] #v, }
    });
    let fname_names = field_names.iter().map(|n| {
        let v = ident(&field_variant(n));
        quote! { FieldName::#v => #n, }
    });
    let fname_lookup = if field_names.is_empty() {
        quote! { let _ = self; "" }
    } else {
        quote! { match self { #(#fname_names)* } }
    };
    let kind_extra = quote! {
        impl Kind {
            /// Whether this kind is a fixed layout (a math type of [`crate::math`]).
            pub fn is_fixed(self) -> bool {
                matches!(self, #(Kind::#fixed)|*)
            }
            /// Whether this kind is a packed array (`Packed*Array`, Godot 3's `Pool*Array`).
            pub fn is_packed(self) -> bool {
                #packed_body
            }
            /// The fixed kind whose values this packed array holds.
            pub fn packed_element(self) -> Option<Kind> {
                #packed_elem
            }
            /// The nearest kind for a migration target without this one.
            pub fn migrate_to(self) -> Option<Kind> {
                #migrate
            }
            /// The fixed or packed kind a text-form constructor names (`Quat`, `PoolVector2Array`,
            /// `Matrix32`), in any dialect.
            pub fn from_text_name(name: &str) -> Option<Kind> {
                match name { #(#text_arms)* _ => None }
            }
        }
    };
    quote! {
        #![doc = "Variant kinds (the union of every dialect's types, Godot 4 names), features and layout tables."]

        #[doc = "A Variant type, by its Godot 4 name; each dialect maps it to its own id."]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Kind {
            #(#variants)*
        }
        #kind_extra

        impl Kind {
            #[doc = "Every kind, in declaration order."]
            pub const ALL: &'static [Kind] = &[#(Kind::#all),*];

            #[doc = "The Godot 4 name (`\"Vector2\"`)."]
            pub fn name(self) -> &'static str {
                match self {
                    #(#names)*
                }
            }
        }

        #[doc = "Behaviour that is not a byte layout and holds for some versions of a dialect."]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Feature {
            #(#fvariants)*
        }

        impl Feature {
            #[doc = "Every feature, in declaration order."]
            pub const ALL: &'static [Feature] = &[#(Feature::#fall),*];

            #[doc = "The feature's name (`\"TypedArray\"`)."]
            pub fn name(self) -> &'static str {
                match self {
                    #(#fnames)*
                }
            }
        }

        #[doc = "A layout field whose name is a plain word (`count`, `class_name_length`), so that code that means one field names it with a variant, which a renamed field in the spec turns into a compile error. Fields named by a `crate::math` accessor path (`origin.x`) have none."]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum FieldName {
            #(#fname_variants)*
        }

        impl FieldName {
            #[doc = "The field's name in the spec (`\"class_name_length\"`)."]
            pub fn name(self) -> &'static str {
                #fname_lookup
            }
        }

        #[doc = "One row of a layout table, as the official page's columns."]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct FieldInfo {
            #[doc = "Field name (for fixed layouts, the `crate::math` accessor path)."]
            pub name: &'static str,
            #[doc = "Offset from the start of the value, header included; `FieldInfo::VARIABLE` when it depends on earlier fields."]
            pub offset: u32,
            #[doc = "Length in bytes; `FieldInfo::VARIABLE` when it depends on the data."]
            pub len: u32,
            #[doc = "Machine type as the spec spells it (`u32`, `real`, `utf8`, `variant`, ...)."]
            pub ty: &'static str,
            #[doc = "What the bytes mean."]
            pub description: &'static str,
            #[doc = "The fields of one repetition of a `repeat` field (offsets from its start); empty otherwise."]
            pub element: &'static [FieldInfo],
            #[doc = "The field's name as a [`FieldName`], if it is a plain word."]
            pub id: Option<FieldName>,
        }

        impl FieldInfo {
            #[doc = "The `offset` or `len` of a field whose position or size depends on the data."]
            pub const VARIABLE: u32 = u32::MAX;
        }

        #[doc = "A type of one dialect at one version: its names and layout."]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct TypeInfo {
            #[doc = "The kind."]
            pub kind: Kind,
            #[doc = "The dialect's own name (`\"PoolRealArray\"`, `\"REAL\"`)."]
            pub name: &'static str,
            #[doc = "What the type is."]
            pub description: &'static str,
            #[doc = "The layout."]
            pub fields: &'static [FieldInfo],
            #[doc = "The FLAG_64 layout; empty if the type has none."]
            pub wide_fields: &'static [FieldInfo],
        }

        impl TypeInfo {
            #[doc = "The field `id` of the layout (the FLAG_64 one when `wide` and there is one), or of one repetition of a `repeat` field."]
            pub fn field(&self, id: FieldName, wide: bool) -> Option<&'static FieldInfo> {
                let fields = if wide && !self.wide_fields.is_empty() { self.wide_fields } else { self.fields };
                fields
                    .iter()
                    .chain(fields.iter().flat_map(|f| f.element))
                    .find(|f| f.id == Some(id))
            }
        }
    }
}

/// Whether a field's name is a plain word that gets a [`FieldName`] variant (not an accessor
/// path such as `rows[0].x`).
pub(crate) fn is_plain_field_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// `class_name_length` as the variant `ClassNameLength`.
pub(crate) fn field_variant(name: &str) -> String {
    name.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn collect_field_names(fields: &[Field], out: &mut std::collections::BTreeSet<String>) {
    for f in fields {
        if is_plain_field_name(&f.name) {
            out.insert(f.name.clone());
        }
        collect_field_names(&f.element, out);
    }
}
