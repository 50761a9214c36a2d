//! Emits `src/generated/resource_binary.rs`: the binary resource encoding's type ids per
//! format version, as a table the `.res` reader and writer look up.

use super::{ResourceBinary, SPEC_FILE};
use crate::emit::{ident, lit, Artifact};
use quote::quote;

/// The generated table file under `out_dir`.
pub fn emit(spec: &ResourceBinary, out_dir: &str) -> Artifact {
    let rows = spec.types.iter().map(|t| {
        let kind = ident(&t.kind);
        let (id, since) = (lit(u64::from(t.id)), lit(u64::from(t.since)));
        let wide = match t.wide {
            Some(w) => {
                let w = lit(u64::from(w));
                quote! { Some(#w) }
            }
            None => quote! { None },
        };
        quote! { (crate::generated::kinds::Kind::#kind, #id, #since, #wide) }
    });
    let formats = spec.formats.iter().map(|f| {
        let v = lit(u64::from(f.version));
        let (engine, change) = (&f.engine, &f.change);
        quote! { (#v, #engine, #change) }
    });
    let newest = lit(u64::from(
        spec.formats.iter().map(|f| f.version).max().unwrap_or(0),
    ));
    let tokens = quote! {
        //! The binary resource encoding (`.res`): each kind's type id, the first format version
        //! that has it, and the id of its 64-bit form.

        /// One kind: (kind, id, first format, id of the 64-bit form).
        pub(crate) type TypeRow = (crate::generated::kinds::Kind, u32, u32, Option<u32>);
        /// Every kind, sorted by id.
        pub(crate) static TYPES: &[TypeRow] = &[#(#rows),*];
        /// Every format version: (version, first engine, what it changed).
        pub(crate) static FORMATS: &[(u32, &str, &str)] = &[#(#formats),*];
        /// The newest format version known.
        pub(crate) const NEWEST_FORMAT: u32 = #newest;
    };
    Artifact {
        path: format!("{out_dir}/resource_binary.rs"),
        sources: vec![SPEC_FILE.to_string()],
        tokens,
    }
}
