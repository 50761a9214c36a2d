//! Emits `layouts.rs`: size, decode and encode of every fixed-size math payload, one straight-line function each.

use super::{ident, lit};
use crate::model::{Field, FieldType, Spec, Type};
use crate::special_cases::HEADER_LEN;
use proc_macro2::TokenStream;
use quote::quote;

/// The layout a math kind is generated from: the dialect that has its FLAG_64 form if any
/// (`lower` checked that the narrow forms agree everywhere), else the first that has it.
pub fn layout_source<'a>(spec: &'a Spec, kind: &str) -> Option<&'a Type> {
    let real = || spec.dialects.iter().filter(|d| !d.documentation);
    real()
        .filter_map(|d| d.ty(kind))
        .find(|t| t.has_wide())
        .or_else(|| real().find_map(|d| d.ty(kind)))
}

/// The snake_case stem of a math kind's functions: plain lowercase keeps digit-letter pairs
/// together (`transform2d`, `rect2i`, `aabb`) as the contract names them.
pub fn layout_stem(kind: &str) -> String {
    kind.to_ascii_lowercase()
}

fn payload_offset(e: &crate::model::Expr) -> proc_macro2::Literal {
    lit((e.as_const().unwrap_or(0) - HEADER_LEN) as u64)
}

fn accessor(f: &Field) -> TokenStream {
    let path = format!("v.{}", f.accessor.as_deref().unwrap_or(&f.name));
    syn::parse_str::<syn::Expr>(&path)
        .map(|e| quote!(#e))
        .unwrap_or_else(|_| quote!(v))
}

/// `src/generated/layouts.rs`.
pub fn emit_layouts(spec: &Spec) -> TokenStream {
    let mut items = Vec::new();
    for k in spec.kinds.iter().filter(|k| k.math) {
        let Some(t) = layout_source(spec, &k.name) else {
            continue;
        };
        items.push(emit_one(&k.name, t));
    }
    quote! {
        #![doc = "Fixed-size payloads: byte size, decode and encode, straight from the spec's field tables."]
        #![doc = ""]
        #![doc = "Offsets are relative to the payload (the 4-byte header excluded); `wide` selects the"]
        #![doc = "FLAG_64 form (8-byte reals). Integer and Color layouts ignore it."]
        #![allow(clippy::field_reassign_with_default)]

        use crate::layout::{read_f32_bits, read_i32, read_real, write_f32, write_i32, write_real};

        #(#items)*
    }
}

fn emit_one(kind: &str, t: &Type) -> TokenStream {
    let stem = layout_stem(kind);
    let size_fn = ident(&format!("{stem}_size"));
    let decode_fn = ident(&format!("decode_{stem}"));
    let encode_fn = ident(&format!("encode_{stem}"));
    let ty = ident(kind);
    let narrow: usize = t
        .fields
        .iter()
        .map(|f| f.len.as_const().unwrap_or(0) as usize)
        .sum();
    let wide_size: usize = t
        .fields
        .iter()
        .map(|f| f.widened().1.as_const().unwrap_or(0) as usize)
        .sum();
    let has_wide = t.has_wide();
    let names: Vec<String> = t.fields.iter().map(|f| format!("`{}`", f.name)).collect();
    let field_list = names.join(", ");

    let size_doc = if has_wide {
        format!("Payload bytes of a `{kind}`: {narrow}, or {wide_size} when `wide` (FLAG_64).")
    } else {
        format!("Payload bytes of a `{kind}`: always {narrow} (`wide` is ignored).")
    };
    let (narrow_lit, wide_lit) = (lit(narrow as u64), lit(wide_size as u64));
    let size_body = if has_wide {
        quote! { if wide { #wide_lit } else { #narrow_lit } }
    } else {
        quote! { let _ = wide; #narrow_lit }
    };

    let read = |f: &Field, wide: bool| -> TokenStream {
        let target = accessor(f);
        match f.ty {
            FieldType::Real => {
                let at = if wide {
                    payload_offset(&f.widened().0)
                } else {
                    payload_offset(&f.offset)
                };
                quote! { #target = read_real(b, #at, #wide); }
            }
            FieldType::I32 => {
                let at = payload_offset(&f.offset);
                quote! { #target = read_i32(b, #at); }
            }
            _ => {
                let at = payload_offset(&f.offset);
                quote! { #target = f32::from_bits(read_f32_bits(b, #at)); }
            }
        }
    };
    let decode_body = if has_wide {
        let w = t.fields.iter().map(|f| read(f, true));
        let n = t.fields.iter().map(|f| read(f, false));
        quote! { if wide { #(#w)* } else { #(#n)* } }
    } else {
        let n = t.fields.iter().map(|f| read(f, false));
        quote! { let _ = wide; #(#n)* }
    };
    let writes = t.fields.iter().map(|f| {
        let src = accessor(f);
        match f.ty {
            FieldType::Real => quote! { write_real(out, #src, wide); },
            FieldType::I32 => quote! { write_i32(out, #src); },
            _ => quote! { write_f32(out, #src); },
        }
    });
    let encode_prelude = if has_wide {
        quote!()
    } else {
        quote! { let _ = wide; }
    };
    let decode_doc = format!(
        "Decodes a `{kind}` payload ({field_list}) from `b[0..]`; the caller guarantees `b.len() >= {stem}_size(wide)`."
    );
    let encode_doc = format!("Appends a `{kind}` payload ({field_list}).");
    quote! {
        #[doc = #size_doc]
        pub const fn #size_fn(wide: bool) -> usize {
            #size_body
        }

        #[doc = #decode_doc]
        pub fn #decode_fn(b: &[u8], wide: bool) -> crate::math::#ty {
            let mut v = crate::math::#ty::default();
            #decode_body
            v
        }

        #[doc = #encode_doc]
        pub fn #encode_fn(v: &crate::math::#ty, wide: bool, out: &mut Vec<u8>) {
            #encode_prelude
            #(#writes)*
        }
    }
}
