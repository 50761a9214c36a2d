//! `#[derive(GodotVariant)]`: implements gdvariant's `ToVariant` and `FromVariant` (and
//! `TypedArrayElement`) for structs and enums. The attributes are documented in
//! `gdvariant::convert`.
//!
//! Layout (as thiserror / serde_derive): this entry point → `ast` (the input with parsed
//! attributes) → `attr` (the `#[godot(...)]` parser) → `valid` (checks across attributes) →
//! `expand` (code). Every mistake is collected, each spanned on its token, and reported at
//! once, together with a fallback impl so that one mistake gives one error.

mod ast;
mod attr;
mod case;
mod expand;
mod valid;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Implements `ToVariant`, `FromVariant` and `TypedArrayElement`; see `gdvariant::convert`
/// for the mapping and the `#[godot(...)]` attributes.
#[proc_macro_derive(GodotVariant, attributes(godot))]
pub fn derive_godot_variant(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(&input).into()
}

fn derive(input: &DeriveInput) -> proc_macro2::TokenStream {
    let cx = attr::Ctxt::default();
    let container = ast::Container::from_ast(&cx, input);
    if let Some(c) = &container {
        valid::check(&cx, c);
    }
    match (cx.finish(), container) {
        (None, Some(c)) => expand::expand(&c),
        (Some(errors), container) => {
            let krate = container
                .as_ref()
                .map(expand::krate)
                .unwrap_or_else(|| syn::parse_quote!(::gdvariant));
            let mut out = errors.to_compile_error();
            out.extend(expand::fallback(input, &krate));
            out
        }
        (None, None) => unreachable!("a container is only missing after an error"),
    }
}
