//! Emits one dialect module (`godot3.rs`, `godot4.rs`, `pandemonium.rs`): ids, flags, features and layout tables by version.

use super::{hex, ident, lit};
use crate::model::{Dialect, Expr, Field, Spec, Type, Ver};
use crate::special_cases::{flag64_rule, Flag64Rule};
use proc_macro2::TokenStream;
use quote::quote;

fn version(v: Ver) -> TokenStream {
    let (a, b, c) = (lit(v.0.into()), lit(v.1.into()), lit(v.2.into()));
    quote! { Version::new(#a, #b, #c) }
}

/// `version >= since && version < until`, simplified when a bound is absent.
fn range_test(since: Ver, until: Option<Ver>) -> TokenStream {
    let s = version(since);
    match until {
        Some(u) => {
            let u = version(u);
            quote! { (version >= #s && version < #u) }
        }
        None => quote! { version >= #s },
    }
}

/// One dialect module.
pub fn emit_dialect(d: &Dialect, spec: &Spec) -> TokenStream {
    let title = &d.title;
    let module_doc = format!("The {title} dialect, generated from {}: type ids, header flags, features and layout tables by version.", d.file);
    let oldest = version(d.oldest);
    let newest = version(d.newest);
    let oldest_doc = format!("The oldest {title} version the spec covers ({}).", d.oldest);
    let newest_doc = format!("The newest {title} version the spec covers ({}).", d.newest);
    let mask = hex(d.type_mask);
    let mask_doc = format!(
        "`header & TYPE_MASK` is the type id. {}",
        d.header_description
    );

    let flag_consts = d.flags.iter().map(|f| {
        let name = ident(&format!("FLAG_{}", f.name.trim_start_matches("FLAG_")));
        let m = hex(f.mask());
        let doc = format!(
            "Header bits {}..={} (`{}`): {}.",
            f.bits.0, f.bits.1, f.engine_name, f.description
        );
        quote! { #[doc = #doc] pub const #name: u32 = #m; }
    });

    // kind_of / id_of: one match per era, newest first.
    let era_matches = |by_kind: bool| -> TokenStream {
        let mut branches: Vec<(Ver, TokenStream)> = Vec::new();
        for era in &d.eras {
            let arms = d.types.iter().filter_map(|t| {
                let r = t.id_at(era.since)?;
                let k = ident(&t.kind);
                let id = lit(r.id.into());
                Some(if by_kind {
                    quote! { Kind::#k => Some(#id), }
                } else {
                    quote! { #id => Some(Kind::#k), }
                })
            });
            let all_kinds = d
                .types
                .iter()
                .filter(|t| t.id_at(era.since).is_some())
                .count()
                == spec.kinds.len();
            let fallback = if by_kind && all_kinds {
                quote!()
            } else {
                quote! { _ => None, }
            };
            let scrutinee = if by_kind { quote!(kind) } else { quote!(id) };
            branches.push((
                era.since,
                quote! { match #scrutinee { #(#arms)* #fallback } },
            ));
        }
        // Oldest era innermost: `if version >= 4.3 { .. } else { <older> }`.
        let mut iter = branches.into_iter();
        let mut body = iter.next().map(|b| b.1).unwrap_or_else(|| quote!(None));
        let mut nested = false;
        for (since, b) in iter {
            let v = version(since);
            body = quote! { if version >= #v { #b } else { #body } };
            nested = true;
        }
        if !nested {
            body = quote! { let _ = version; #body };
        }
        body
    };
    let kind_of_body = era_matches(false);
    let id_of_body = era_matches(true);

    // kind_table: each era's kinds as a static table indexed by type id (the decoder's one
    // load per header), and the pick of a version's table, newest era first.
    let slots = lit(u64::from(d.type_mask) + 1);
    // Each era's table is the era before it with the ids that changed.
    let mut tables = Vec::new();
    let mut picks: Vec<(Ver, proc_macro2::Ident)> = Vec::new();
    let mut before: Vec<(u32, &str)> = Vec::new();
    for era in &d.eras {
        let Ver(a, b, c) = era.since;
        let name = ident(&format!("KINDS_{a}_{b}_{c}"));
        let now: Vec<(u32, &str)> = d
            .types
            .iter()
            .filter_map(|t| Some((t.id_at(era.since)?.id, t.kind.as_str())))
            .collect();
        let sets = now.iter().filter(|e| !before.contains(e)).map(|(id, k)| {
            let (k, id) = (ident(k), lit((*id).into()));
            quote! { t[#id] = Some(Kind::#k); }
        });
        let gone = before
            .iter()
            .filter(|(id, _)| !now.iter().any(|(n, _)| n == id))
            .map(|(id, _)| {
                let id = lit((*id).into());
                quote! { t[#id] = None; }
            });
        let start = match picks.last() {
            Some((_, prev)) => quote!(#prev),
            None => quote!([None; #slots]),
        };
        let doc = format!(
            "The kind of each type id in {title} {a}.{b}.{c} and later (until the next table)."
        );
        tables.push(quote! {
            #[doc = #doc]
            static #name: [Option<Kind>; #slots] = {
                let mut t = #start;
                #(#gone)*
                #(#sets)*
                t
            };
        });
        picks.push((era.since, name));
        before = now;
    }
    let mut picks = picks.into_iter();
    let mut kind_table_body = picks
        .next()
        .map(|(_, name)| quote!(&#name))
        .unwrap_or_else(|| quote!(&[None; #slots]));
    let mut one_era = true;
    for (since, name) in picks {
        let v = version(since);
        kind_table_body = quote! { if version >= #v { &#name } else { #kind_table_body } };
        one_era = false;
    }
    if one_era {
        kind_table_body = quote! { let _ = version; #kind_table_body };
    }

    // flag64_reals: kinds grouped by the version their build-driven FLAG_64 starts.
    let mut groups: Vec<(Ver, Vec<&Type>)> = Vec::new();
    for t in &d.types {
        let Some(since) = t.flag_since("FLAG_64") else {
            continue;
        };
        if flag64_rule(&t.kind) != Flag64Rule::ByBuild {
            continue;
        }
        match groups.iter_mut().find(|g| g.0 == since) {
            Some(g) => g.1.push(t),
            None => groups.push((since, vec![t])),
        }
    }
    groups.sort_by_key(|g| g.0);
    let flag64_body = if groups.is_empty() {
        quote! { let _ = (version, kind); false }
    } else {
        let arms = groups.iter().map(|(since, ts)| {
            let ks = ts.iter().map(|t| ident(&t.kind));
            let v = version(*since);
            quote! { #(Kind::#ks)|* => version >= #v, }
        });
        quote! { match kind { #(#arms)* _ => false, } }
    };

    // has_feature: one arm per feature, its ranges or-ed.
    let mut feats: Vec<(&str, Vec<TokenStream>)> = Vec::new();
    for f in &d.features {
        let test = range_test(f.since, f.until);
        match feats.iter_mut().find(|g| g.0 == f.feature) {
            Some(g) => g.1.push(test),
            None => feats.push((&f.feature, vec![test])),
        }
    }
    let all_features = feats.len() == spec.features.len();
    let feature_body = if feats.is_empty() {
        quote! { let _ = (version, feature); false }
    } else {
        let arms = feats.iter().map(|(name, tests)| {
            let v = ident(name);
            quote! { Feature::#v => #(#tests)||*, }
        });
        let fallback = if all_features {
            quote!()
        } else {
            quote! { _ => false, }
        };
        quote! { match feature { #(#arms)* #fallback } }
    };

    // TYPES: one entry per distinct layout (or name) over time.
    let mut entries = Vec::new();
    let mut picks = Vec::new();
    for t in &d.types {
        let variants = t.variants(d.oldest);
        let mut choices: Vec<(Ver, proc_macro2::Literal)> = Vec::new();
        for (since, name, fields) in &variants {
            let index = lit(entries.len() as u64);
            entries.push(type_info(t, name, fields));
            choices.push((*since, index));
        }
        let k = ident(&t.kind);
        let mut expr = {
            let (_, i) = choices.remove(0);
            quote!(#i)
        };
        for (since, i) in choices {
            let v = version(since);
            expr = quote! { if version >= #v { #i } else { #expr } };
        }
        picks.push(quote! { Kind::#k => #expr, });
    }
    let all_types = d.types.len() == spec.kinds.len();
    let pick_fallback = if all_types {
        quote!()
    } else {
        quote! { _ => return None, }
    };

    // text_ctor: the constructor name and spacing of the text form; kinds the dialect lacks
    // get their Godot 4 name, so that any value can still be printed (and read back).
    let text_arms = d.types.iter().filter_map(|t| {
        if t.text.is_none() && t.text_tight.is_none() {
            return None;
        }
        let k = ident(&t.kind);
        let name = t.text.clone().unwrap_or_else(|| t.kind.clone());
        let tight = t.text_tight.unwrap_or(d.text_tight);
        Some(quote! { Kind::#k => (#name, #tight), })
    });
    let dialect_tight = d.text_tight;
    let text_doc = format!("The text form's constructor name of `kind` in {title} and whether it is written tight (`Vector2(1, 2)`) rather than padded (`Vector2( 1, 2 )`).");
    let kind_of_doc = format!("The kind of type id `id` (`header & 0xFF`) in {title} `version`; `None` for an id the engine rejects.");
    let kind_table_doc = format!("[`kind_of`] of every type id (`header & TYPE_MASK`) in {title} `version`, as one static table.");
    let id_of_doc = format!(
        "The type id of `kind` in {title} `version`; `None` if that version has no such type."
    );
    let flag64_doc = format!(
        "Whether a double-precision {title} build of `version` writes `kind`'s reals as doubles and sets FLAG_64 (INT and FLOAT set it per value instead, see `special_cases.rs`)."
    );
    let feature_doc = format!("Whether `feature` holds for {title} `version`.");
    let types_doc = format!("Every {title} type's layout; a type whose layout or name changed appears once per form, oldest first.");
    let type_info_doc =
        format!("The layout of `kind` in {title} `version`, if the type exists then.");
    quote! {
        #![doc = #module_doc]

        use crate::generated::kinds::{Feature, FieldInfo, FieldName, Kind, TypeInfo};
        use crate::version::Version;

        #[doc = #oldest_doc]
        pub const OLDEST: Version = #oldest;

        #[doc = #text_doc]
        pub fn text_ctor(kind: Kind) -> (&'static str, bool) {
            match kind { #(#text_arms)* _ => (kind.name(), #dialect_tight) }
        }
        #[doc = #newest_doc]
        pub const NEWEST: Version = #newest;
        #[doc = #mask_doc]
        pub const TYPE_MASK: u32 = #mask;
        #(#flag_consts)*

        #[doc = #kind_of_doc]
        pub fn kind_of(version: Version, id: u32) -> Option<Kind> {
            #kind_of_body
        }

        #(#tables)*

        #[doc = #kind_table_doc]
        pub fn kind_table(version: Version) -> &'static [Option<Kind>; #slots] {
            #kind_table_body
        }

        #[doc = #id_of_doc]
        pub fn id_of(version: Version, kind: Kind) -> Option<u32> {
            #id_of_body
        }

        #[doc = #flag64_doc]
        pub fn flag64_reals(version: Version, kind: Kind) -> bool {
            #flag64_body
        }

        #[doc = #feature_doc]
        pub fn has_feature(version: Version, feature: Feature) -> bool {
            #feature_body
        }

        #[doc = #types_doc]
        pub static TYPES: &[TypeInfo] = &[#(#entries),*];

        #[doc = #type_info_doc]
        pub fn type_info(version: Version, kind: Kind) -> Option<&'static TypeInfo> {
            id_of(version, kind)?;
            let index = match kind {
                #(#picks)*
                #pick_fallback
            };
            Some(&TYPES[index])
        }
    }
}

fn const_or_variable(e: &Expr) -> u32 {
    match e.as_const() {
        Some(k) if (0..i64::from(u32::MAX)).contains(&k) => k as u32,
        _ => u32::MAX,
    }
}

/// One row, with the rows of one repetition when it is a `repeat` (offsets from its start).
fn field_info(f: &Field, offset: &Expr, len: &Expr, ty: &str) -> TokenStream {
    let (name, description) = (&f.name, &f.description);
    let element = f
        .element
        .iter()
        .map(|e| field_info(e, &e.offset, &e.len, e.ty.as_str()));
    let (o, l) = (const_or_variable(offset), const_or_variable(len));
    let o = if o == u32::MAX {
        quote!(FieldInfo::VARIABLE)
    } else {
        let o = lit(o.into());
        quote!(#o)
    };
    let l = if l == u32::MAX {
        quote!(FieldInfo::VARIABLE)
    } else {
        let l = lit(l.into());
        quote!(#l)
    };
    let id = if super::kinds::is_plain_field_name(name) {
        let v = ident(&super::kinds::field_variant(name));
        quote!(Some(FieldName::#v))
    } else {
        quote!(None)
    };
    quote! { FieldInfo { name: #name, offset: #o, len: #l, ty: #ty, description: #description, element: &[#(#element),*], id: #id } }
}

fn type_info(t: &Type, name: &str, fields: &[Field]) -> TokenStream {
    let k = ident(&t.kind);
    let description = &t.description;
    let narrow = fields
        .iter()
        .map(|f| field_info(f, &f.offset, &f.len, f.ty.as_str()));
    let wide: Vec<TokenStream> = if t.has_wide() {
        // Fields without a `wide` form keep their length at the running wide offset; fields under a
        // header-flag condition restart where the unconditional ones end, as in the narrow table.
        let mut at = Expr::constant(crate::special_cases::HEADER_LEN);
        fields
            .iter()
            .map(|f| {
                let (o, l, ty) = f.widened();
                let o = if f.wide.is_some() { o } else { at.clone() };
                at = o.add(&l);
                field_info(f, &o, &l, ty.as_str())
            })
            .collect()
    } else {
        Vec::new()
    };
    quote! {
        TypeInfo { kind: Kind::#k, name: #name, description: #description, fields: &[#(#narrow),*], wide_fields: &[#(#wide),*] }
    }
}
