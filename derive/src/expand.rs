//! Code generation: `ToVariant`, `FromVariant` and `TypedArrayElement` impls for a checked
//! container, plus the fallback impls emitted next to compile errors.

use crate::ast::{Container, Data, Field, Style, Variant};
use crate::attr::Default as FieldDefault;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;
use syn::{parse_quote, Generics, Ident, LitStr};

pub fn krate(c: &Container) -> syn::Path {
    c.attrs
        .krate
        .get()
        .cloned()
        .unwrap_or_else(|| parse_quote!(::gdvariant))
}

/// Adds `bound` to every type parameter (`T: ToVariant` for the `ToVariant` impl, ...).
fn bounded(generics: &Generics, bound: &syn::Path) -> Generics {
    let mut g = generics.clone();
    for p in g.type_params_mut() {
        p.bounds.push(parse_quote!(#bound));
    }
    g
}

pub fn expand(c: &Container) -> TokenStream {
    let k = krate(c);
    let ident = c.ident;
    let to = bounded(c.generics, &parse_quote!(#k::ToVariant));
    let (to_impl, _, to_where) = to.split_for_impl();
    let from = bounded(c.generics, &parse_quote!(#k::FromVariant));
    let (from_impl, _, from_where) = from.split_for_impl();
    let to_body = to_variant_body(c, &k);
    let from_body = from_variant_body(c, &k);
    let missing = from_missing(c, &k);
    let element = typed_array_element(c, &k);
    let flatten = flatten_impl(c, &k);
    let (_, ty, _) = c.generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #to_impl #k::ToVariant for #ident #ty #to_where {
            fn to_variant(&self) -> #k::Variant {
                #to_body
            }
        }
        #[automatically_derived]
        impl #from_impl #k::FromVariant for #ident #ty #from_where {
            #[allow(unused_variables, unused_mut, clippy::needless_late_init)]
            fn from_variant(
                __variant: &#k::Variant,
            ) -> ::core::result::Result<Self, #k::FromVariantError> {
                #from_body
            }
            #missing
        }
        #element
        #flatten
    }
}

/// What is emitted next to the errors: impls of both traits, so that code using the type
/// does not add errors of its own ("`Player: ToVariant` is not satisfied").
pub fn fallback(input: &syn::DeriveInput, k: &syn::Path) -> TokenStream {
    let ident = &input.ident;
    let (impl_g, ty_g, where_g) = input.generics.split_for_impl();
    quote! {
        impl #impl_g #k::ToVariant for #ident #ty_g #where_g {
            fn to_variant(&self) -> #k::Variant {
                ::core::unimplemented!()
            }
        }
        impl #impl_g #k::FromVariant for #ident #ty_g #where_g {
            fn from_variant(
                _: &#k::Variant,
            ) -> ::core::result::Result<Self, #k::FromVariantError> {
                ::core::unimplemented!()
            }
        }
    }
}

fn lit(s: &str) -> LitStr {
    LitStr::new(s, Span::call_site())
}

/// The class of an `object` struct: the attribute's, or the type's own name.
fn class_of(c: &Container) -> Option<LitStr> {
    c.attrs.object.get().map(|o| match &o.0 {
        Some(class) => lit(class),
        None => lit(&c.ident.to_string()),
    })
}

/// `tokens` with every span set to `span`, so that a type error in generated code points at
/// the field (its type) rather than at `#[derive(GodotVariant)]`.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    tokens
        .into_iter()
        .map(|mut tt| {
            if let TokenTree::Group(g) = &tt {
                let mut ng = Group::new(g.delimiter(), respan(g.stream(), span));
                ng.set_span(span);
                tt = TokenTree::Group(ng);
            } else {
                tt.set_span(span);
            }
            tt
        })
        .collect()
}

/// The Variant of one field, given an expression of type `&FieldType`.
fn field_to(f: &Field, value: &TokenStream, k: &syn::Path) -> TokenStream {
    let span = f.ty.span();
    let k = respan(k.to_token_stream(), span);
    let value = respan(value.clone(), span);
    if let Some(with) = f.attrs.with.get() {
        quote_spanned!(span=> #with::to_variant(#value))
    } else if f.attrs.array.is_set() {
        quote_spanned!(span=> #k::convert::array_of(#value))
    } else if f.attrs.typed_array.is_set() {
        quote_spanned!(span=> #k::convert::to_typed_array(#value))
    } else {
        quote_spanned!(span=> #k::ToVariant::to_variant(#value))
    }
}

fn written<'a>(fields: &'a [Field<'a>]) -> impl Iterator<Item = &'a Field<'a>> {
    fields.iter().filter(|f| !f.attrs.skip.is_set())
}

/// The fields with a key of their own: not skipped, not flattened.
fn keyed<'a>(fields: &'a [Field<'a>]) -> impl Iterator<Item = &'a Field<'a>> {
    written(fields).filter(|f| !f.attrs.flatten.is_set())
}

/// `<FieldType as FlattenFrom>` (or `FlattenTo`), spanned on the field's type so that a type
/// that cannot be flattened is reported there.
fn flatten_trait(f: &Field, k: &syn::Path, to: bool) -> TokenStream {
    let span = f.ty.span();
    let ty = f.ty;
    let k = respan(k.to_token_stream(), span);
    let tr = if to {
        quote_spanned!(span=> FlattenTo)
    } else {
        quote_spanned!(span=> FlattenFrom)
    };
    quote_spanned!(span=> <#ty as #k::convert::private::#tr>)
}

/// Statements appending the written fields' entries to `__out`, flattened ones in place.
fn push_fields(fields: &[Field], k: &syn::Path) -> Vec<TokenStream> {
    written(fields)
        .map(|f| {
            let m = &f.member;
            if f.attrs.flatten.is_set() {
                let flat = flatten_trait(f, k, true);
                quote!(#flat::__write_fields(&self.#m, __out);)
            } else {
                let wire = lit(&f.wire);
                let v = field_to(f, &quote!(&self.#m), k);
                quote!(__out.push((#wire, #v));)
            }
        })
        .collect()
}

/// `FlattenTo` and `FlattenFrom` for a struct with named fields, so that it can be `#[godot(flatten)]`ed into
/// another: the same entries and the same reading as its own Dictionary, minus the
/// Dictionary itself.
fn flatten_impl(c: &Container, k: &syn::Path) -> TokenStream {
    let Data::Struct(Style::Named, fields) = &c.data else {
        return quote!();
    };
    let ident = c.ident;
    let to = bounded(c.generics, &parse_quote!(#k::ToVariant));
    let (to_impl, _, to_where) = to.split_for_impl();
    let from = bounded(c.generics, &parse_quote!(#k::FromVariant));
    let (from_impl, _, from_where) = from.split_for_impl();
    let (_, ty_g, _) = c.generics.split_for_impl();
    let pushes = push_fields(fields, k);
    let names = keyed(fields)
        .flat_map(|f| {
            std::iter::once(lit(&f.wire)).chain(f.attrs.aliases.iter().map(|a| lit(&a.value())))
        })
        .map(|name| quote!(__name == #name));
    let nested = fields.iter().filter(|f| f.attrs.flatten.is_set()).map(|f| {
        let flat = flatten_trait(f, k, false);
        quote!(#flat::__is_key(__name))
    });
    let read = read_named(c, quote!(Self), fields, &[], false, k);
    quote! {
        #[automatically_derived]
        impl #to_impl #k::convert::private::FlattenTo for #ident #ty_g #to_where {
            fn __write_fields(
                &self,
                __out: &mut ::std::vec::Vec<(&'static str, #k::Variant)>,
            ) {
                #(#pushes)*
            }
        }
        #[automatically_derived]
        impl #from_impl #k::convert::private::FlattenFrom for #ident #ty_g #from_where {
            #[allow(unused_variables, unused_mut, clippy::needless_late_init)]
            fn __read_fields(
                __fields: &#k::convert::private::Fields<'_>,
            ) -> ::core::result::Result<Self, #k::FromVariantError> {
                #read
            }
            fn __is_key(__name: &str) -> bool {
                false #(|| #names)* #(|| #nested)*
            }
        }
    }
}

/// Binding names for fields when matching `self` (`__f0`, `__f1`, …).
fn binding(i: usize) -> Ident {
    format_ident!("__f{}", i)
}

fn to_variant_body(c: &Container, k: &syn::Path) -> TokenStream {
    match &c.data {
        Data::Struct(style, fields) => match style {
            Style::Named if fields.iter().any(|f| f.attrs.flatten.is_set()) => {
                // Keys come from other types too: gathered, then merged (see `merged`).
                let build = match class_of(c) {
                    Some(class) => quote!(#k::convert::private::full_object(#class, __entries)),
                    None => quote!(#k::convert::private::dictionary(__entries)),
                };
                let pushes = push_fields(fields, k);
                quote! {
                    let mut __entries = ::std::vec::Vec::new();
                    let __out = &mut __entries;
                    #(#pushes)*
                    let __entries = #k::convert::private::merged(__entries);
                    #build
                }
            }
            Style::Named => {
                let entries = written(fields).map(|f| {
                    let m = &f.member;
                    let wire = lit(&f.wire);
                    let v = field_to(f, &quote!(&self.#m), k);
                    quote!((#wire, #v))
                });
                match class_of(c) {
                    Some(class) => quote! {
                        #k::convert::private::full_object(#class, ::std::vec![#(#entries),*])
                    },
                    None => quote! {
                        #k::convert::private::dictionary(::std::vec![#(#entries),*])
                    },
                }
            }
            Style::Tuple => {
                let items = written(fields).map(|f| {
                    let m = &f.member;
                    field_to(f, &quote!(&self.#m), k)
                });
                quote!(#k::convert::private::array(::std::vec![#(#items),*]))
            }
            Style::Newtype => field_to(&fields[0], &quote!(&self.0), k),
            Style::Unit => quote!(#k::Variant::Nil),
        },
        Data::Enum(variants) if c.is_unit_only_enum() => {
            let arms = variants.iter().map(|v| {
                let id = v.ident;
                if c.attrs.as_string.is_set() {
                    let wire = lit(&v.wire);
                    quote!(Self::#id => #k::Variant::String(#k::GString::new(#wire)))
                } else {
                    // The discriminant, explicit or implicit, as the compiler numbers it:
                    // the same rule as GDScript enums (start at 0, previous + 1).
                    quote!(Self::#id => #k::Variant::Int(Self::#id as i64))
                }
            });
            quote!(match self { #(#arms,)* })
        }
        Data::Enum(variants) => {
            let tag = lit(tag_key(c));
            let content = lit(content_key(c));
            let arms = variants.iter().map(|v| {
                let id = v.ident;
                let wire = lit(&v.wire);
                let tag_entry =
                    quote!((#tag, #k::Variant::String(#k::GString::new(#wire))));
                match v.style {
                    Style::Unit => quote! {
                        Self::#id => #k::convert::private::dictionary(::std::vec![#tag_entry])
                    },
                    Style::Named => {
                        let pats = v.fields.iter().enumerate().map(|(i, f)| {
                            let m = &f.member;
                            let b = binding(i);
                            quote!(#m: #b)
                        });
                        let entries = v
                            .fields
                            .iter()
                            .enumerate()
                            .filter(|(_, f)| !f.attrs.skip.is_set())
                            .map(|(i, f)| {
                                let wire = lit(&f.wire);
                                let v = field_to(f, &binding(i).into_token_stream(), k);
                                quote!((#wire, #v))
                            });
                        quote! {
                            Self::#id { #(#pats),* } => #k::convert::private::dictionary(
                                ::std::vec![#tag_entry, #(#entries),*]
                            )
                        }
                    }
                    Style::Newtype => {
                        let v0 = field_to(&v.fields[0], &quote!(__f0), k);
                        quote! {
                            Self::#id(__f0) => #k::convert::private::dictionary(
                                ::std::vec![#tag_entry, (#content, #v0)]
                            )
                        }
                    }
                    Style::Tuple => {
                        let pats = (0..v.fields.len()).map(binding);
                        let items = v
                            .fields
                            .iter()
                            .enumerate()
                            .filter(|(_, f)| !f.attrs.skip.is_set())
                            .map(|(i, f)| field_to(f, &binding(i).into_token_stream(), k));
                        quote! {
                            Self::#id(#(#pats),*) => #k::convert::private::dictionary(
                                ::std::vec![
                                    #tag_entry,
                                    (#content, #k::convert::private::array(::std::vec![#(#items),*])),
                                ]
                            )
                        }
                    }
                }
            });
            quote!(match self { #(#arms,)* })
        }
    }
}

fn tag_key<'a>(c: &'a Container) -> &'a str {
    c.attrs.tag.get().map(String::as_str).unwrap_or("type")
}

fn content_key<'a>(c: &'a Container) -> &'a str {
    c.attrs.content.get().map(String::as_str).unwrap_or("value")
}

/// Reads the named fields of `fields` (a `Fields` value named `__fields`) into a struct or
/// variant `path { ... }`. `extra_known` are keys that are not fields (the enum tag).
/// `deny` is false when reading as a flattened field (the parent knows the other keys).
fn read_named(
    c: &Container,
    path: TokenStream,
    fields: &[Field],
    extra_known: &[&str],
    deny: bool,
    k: &syn::Path,
) -> TokenStream {
    let slots: Vec<&Field> = keyed(fields).collect();
    let n = slots.len();
    let arms = slots.iter().enumerate().map(|(i, f)| {
        let names = std::iter::once(lit(&f.wire))
            .chain(f.attrs.aliases.iter().map(|a| lit(&a.value())))
            .map(|name| quote!(::core::option::Option::Some(#name)));
        quote!(#(#names)|* => __slots[#i] = ::core::option::Option::Some(__value))
    });
    let extra = extra_known.iter().map(|e| {
        let e = lit(e);
        quote!(::core::option::Option::Some(#e) => {})
    });
    let flattened: Vec<TokenStream> = fields
        .iter()
        .filter(|f| f.attrs.flatten.is_set())
        .map(|f| flatten_trait(f, k, false))
        .collect();
    let unknown = if deny && c.attrs.deny_unknown_fields.is_set() {
        let error =
            quote!(return ::core::result::Result::Err(#k::convert::private::unknown_field(__key)));
        if flattened.is_empty() {
            error
        } else {
            quote! {
                if !(false #(|| __key.is_some_and(#flattened::__is_key))*) {
                    #error
                }
            }
        }
    } else {
        quote!({})
    };
    let container_default = match c.attrs.default.get() {
        Some(FieldDefault::Trait) => {
            Some(quote!(let __default: Self = ::core::default::Default::default();))
        }
        Some(FieldDefault::Path(p)) => Some(quote!(let __default: Self = #p();)),
        None => None,
    };
    let mut slot = 0usize;
    let inits: Vec<TokenStream> = fields
        .iter()
        .map(|f| {
            let m = &f.member;
            if f.attrs.skip.is_set() {
                return quote!(#m: ::core::default::Default::default());
            }
            if f.attrs.flatten.is_set() {
                let flat = flatten_trait(f, k, false);
                return quote!(#m: #flat::__read_fields(&__fields)?);
            }
            let i = slot;
            slot += 1;
            let wire = lit(&f.wire);
            let span = f.ty.span();
            let present = match f.attrs.with.get() {
                Some(with) => quote_spanned! {span=>
                    #with::from_variant(__v).map_err(|e| e.in_field(#wire))?
                },
                None => {
                    let ty = f.ty;
                    quote_spanned!(span=> #k::convert::private::convert::<#ty>(__v, #wire)?)
                }
            };
            let absent = match (f.attrs.default.get(), &container_default) {
                (Some(FieldDefault::Trait), _) => quote!(::core::default::Default::default()),
                (Some(FieldDefault::Path(p)), _) => quote!(#p()),
                (None, Some(_)) => quote!(__default.#m),
                (None, None) if f.attrs.with.is_set() => quote! {
                    return ::core::result::Result::Err(#k::convert::private::missing_field(#wire))
                },
                (None, None) => {
                    let ty = f.ty;
                    quote_spanned!(span=> #k::convert::private::missing::<#ty>(#wire)?)
                }
            };
            quote! {
                #m: match __slots[#i] {
                    ::core::option::Option::Some(__v) => #present,
                    ::core::option::Option::None => #absent,
                }
            }
        })
        .collect();
    let container_default = container_default.unwrap_or_default();
    quote! {
        let mut __slots: [::core::option::Option<&#k::Variant>; #n] = [::core::option::Option::None; #n];
        for (__key, __value) in __fields.iter() {
            match __key {
                #(#arms,)*
                #(#extra,)*
                _ => #unknown,
            }
        }
        #container_default
        ::core::result::Result::Ok(#path { #(#inits),* })
    }
}

/// Reads tuple fields from `__items` (already checked to have one element per written field).
fn read_tuple(
    path: TokenStream,
    fields: &[Field],
    content: Option<&str>,
    k: &syn::Path,
) -> TokenStream {
    let mut slot = 0usize;
    let k_in = content.map(|c| {
        let c = lit(c);
        quote!(.map_err(|e| e.in_field(#c)))
    });
    let inits = fields.iter().map(|f| {
        if f.attrs.skip.is_set() {
            return quote!(::core::default::Default::default());
        }
        let i = slot;
        slot += 1;
        let span = f.ty.span();
        let k = respan(k.to_token_stream(), span);
        match f.attrs.with.get() {
            Some(with) => quote_spanned! {span=>
                #with::from_variant(&__items[#i]).map_err(|e| e.at_index(#i)) #k_in ?
            },
            None => quote_spanned! {span=>
                #k::convert::private::element(&__items[#i], #i) #k_in ?
            },
        }
    });
    quote!(::core::result::Result::Ok(#path(#(#inits),*)))
}

fn from_variant_body(c: &Container, k: &syn::Path) -> TokenStream {
    match &c.data {
        Data::Struct(style, fields) => match style {
            Style::Named => {
                let open = match class_of(c) {
                    Some(class) => quote! {
                        let __fields = #k::convert::private::Fields::object(__variant, #class)?;
                    },
                    None => quote! {
                        let __fields = #k::convert::private::Fields::dictionary(__variant)?;
                    },
                };
                let read = read_named(c, quote!(Self), fields, &[], true, k);
                quote!(#open #read)
            }
            Style::Tuple => {
                let n = written(fields).count();
                let read = read_tuple(quote!(Self), fields, None, k);
                quote! {
                    let __items = #k::convert::private::array_exact(__variant, #n)?;
                    #read
                }
            }
            Style::Newtype => {
                let f = &fields[0];
                let span = f.ty.span();
                let k = respan(k.to_token_stream(), span);
                match f.attrs.with.get() {
                    Some(with) => quote_spanned! {span=>
                        ::core::result::Result::Ok(Self(#with::from_variant(__variant)?))
                    },
                    None => quote_spanned! {span=>
                        ::core::result::Result::Ok(Self(#k::FromVariant::from_variant(__variant)?))
                    },
                }
            }
            Style::Unit => quote! {
                match __variant {
                    #k::Variant::Nil => ::core::result::Result::Ok(Self),
                    __other => ::core::result::Result::Err(#k::FromVariantError::mismatch("Nil", __other)),
                }
            },
        },
        Data::Enum(variants) if c.is_unit_only_enum() => {
            if c.attrs.as_string.is_set() {
                let arms = variants.iter().map(|v| {
                    let id = v.ident;
                    let wire = lit(&v.wire);
                    quote!(#wire => ::core::result::Result::Ok(Self::#id))
                });
                let names = variants.iter().map(|v| lit(&v.wire));
                quote! {
                    match #k::convert::private::str_of(__variant)? {
                        #(#arms,)*
                        __other => ::core::result::Result::Err(
                            #k::convert::private::unknown_variant(__other, &[#(#names),*])
                        ),
                    }
                }
            } else {
                let checks = variants.iter().map(|v| {
                    let id = v.ident;
                    quote! {
                        if __n == Self::#id as i64 {
                            return ::core::result::Result::Ok(Self::#id);
                        }
                    }
                });
                let names = variants.iter().map(|v| {
                    let id = v.ident;
                    let name = lit(&id.to_string());
                    quote!((#name, Self::#id as i64))
                });
                quote! {
                    let __n = #k::convert::private::int_of(__variant)?;
                    #(#checks)*
                    ::core::result::Result::Err(
                        #k::convert::private::unknown_int_variant(__n, &[#(#names),*])
                    )
                }
            }
        }
        Data::Enum(variants) => {
            let tag = tag_key(c);
            let tag_lit = lit(tag);
            let content = content_key(c);
            let arms = variants.iter().map(|v| read_variant(c, v, tag, content, k));
            let names = variants.iter().map(|v| lit(&v.wire));
            quote! {
                let __fields = #k::convert::private::Fields::dictionary(__variant)?;
                match #k::convert::private::tag(&__fields, #tag_lit)? {
                    #(#arms,)*
                    __other => ::core::result::Result::Err(
                        #k::convert::private::unknown_variant(__other, &[#(#names),*]).in_field(#tag_lit)
                    ),
                }
            }
        }
    }
}

fn read_variant(
    c: &Container,
    v: &Variant,
    tag: &str,
    content: &str,
    k: &syn::Path,
) -> TokenStream {
    let id = v.ident;
    let wire = lit(&v.wire);
    let content_lit = lit(content);
    let body = match v.style {
        Style::Unit => read_named(c, quote!(Self::#id), &[], &[tag], true, k),
        Style::Named => read_named(c, quote!(Self::#id), &v.fields, &[tag], true, k),
        Style::Newtype | Style::Tuple => {
            // Unknown keys besides the tag and the content are checked by an empty read.
            let check = if c.attrs.deny_unknown_fields.is_set() {
                let tag_lit = lit(tag);
                quote! {
                    for (__key, _) in __fields.iter() {
                        match __key {
                            ::core::option::Option::Some(#tag_lit)
                            | ::core::option::Option::Some(#content_lit) => {}
                            _ => return ::core::result::Result::Err(
                                #k::convert::private::unknown_field(__key)
                            ),
                        }
                    }
                }
            } else {
                quote!()
            };
            let f0 = &v.fields[0];
            let span = f0.ty.span();
            let value = quote! {
                let __content = __fields.get(#content_lit);
            };
            if v.style == Style::Newtype {
                let present = match f0.attrs.with.get() {
                    Some(with) => quote_spanned! {span=>
                        #with::from_variant(__v).map_err(|e| e.in_field(#content_lit))?
                    },
                    None => {
                        quote_spanned!(span=> #k::convert::private::convert(__v, #content_lit)?)
                    }
                };
                let absent = if f0.attrs.with.is_set() {
                    quote!(return ::core::result::Result::Err(#k::convert::private::missing_field(#content_lit)))
                } else {
                    quote_spanned!(span=> #k::convert::private::missing(#content_lit)?)
                };
                quote! {
                    #check
                    #value
                    ::core::result::Result::Ok(Self::#id(match __content {
                        ::core::option::Option::Some(__v) => #present,
                        ::core::option::Option::None => #absent,
                    }))
                }
            } else {
                let n = written(&v.fields).count();
                let read = read_tuple(quote!(Self::#id), &v.fields, Some(content), k);
                quote! {
                    #check
                    #value
                    let __content = __content.ok_or_else(|| #k::convert::private::missing_field(#content_lit))?;
                    let __items = #k::convert::private::array_exact(__content, #n).map_err(|e| e.in_field(#content_lit))?;
                    #read
                }
            }
        }
    };
    quote!(#wire => { #body })
}

/// Lets `Option`-like newtypes be absent: `struct Nick(Option<String>)` missing is `Nick(None)`.
fn from_missing(c: &Container, k: &syn::Path) -> TokenStream {
    match &c.data {
        Data::Struct(Style::Newtype, fields) if !fields[0].attrs.with.is_set() => {
            let ty = fields[0].ty;
            quote! {
                fn __from_missing() -> ::core::option::Option<Self> {
                    <#ty as #k::FromVariant>::__from_missing().map(Self)
                }
            }
        }
        _ => quote!(),
    }
}

fn typed_array_element(c: &Container, k: &syn::Path) -> TokenStream {
    let ident = c.ident;
    let (impl_g, ty_g, where_g) = c.generics.split_for_impl();
    let builtin = |kind: &str| {
        let kind = format_ident!("{}", kind);
        quote!(#k::ElementType::Builtin(#k::Kind::#kind))
    };
    let (body, extra_where) = match &c.data {
        Data::Struct(Style::Named, _) => match class_of(c) {
            Some(class) => (
                quote!(#k::ElementType::Class(::std::string::String::from(#class))),
                None,
            ),
            None => (builtin("Dictionary"), None),
        },
        Data::Struct(Style::Tuple, _) => (builtin("Array"), None),
        Data::Struct(Style::Newtype, fields) if !fields[0].attrs.with.is_set() => {
            let ty = fields[0].ty;
            (
                quote!(<#ty as #k::TypedArrayElement>::element_type()),
                Some(quote!(#ty: #k::TypedArrayElement)),
            )
        }
        Data::Struct(..) => return quote!(),
        Data::Enum(_) if c.is_unit_only_enum() => {
            if c.attrs.as_string.is_set() {
                (builtin("String"), None)
            } else {
                (builtin("Int"), None)
            }
        }
        Data::Enum(_) => (builtin("Dictionary"), None),
    };
    let where_clause = match (where_g, extra_where) {
        (Some(w), Some(extra)) => {
            let preds = &w.predicates;
            quote!(where #preds, #extra)
        }
        (Some(w), None) => quote!(#w),
        (None, Some(extra)) => quote!(where #extra),
        (None, None) => quote!(),
    };
    quote! {
        #[automatically_derived]
        impl #impl_g #k::TypedArrayElement for #ident #ty_g #where_clause {
            fn element_type() -> #k::ElementType {
                #body
            }
        }
    }
}
