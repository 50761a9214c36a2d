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

/// The generated layout file under `out_dir`: the header's and an external entry's fields
/// per format, and the format-dependent rules, for `explain` (src/resource/explain.rs).
pub fn emit_layout(spec: &ResourceBinary, out_dir: &str) -> Artifact {
    let newest = spec.formats.iter().map(|f| f.version).max().unwrap_or(0);
    let fields = |fields: &[super::Field]| -> Vec<proc_macro2::TokenStream> {
        fields
            .iter()
            .map(|f| {
                let (name, ty, what) = (&f.name, &f.ty, &f.what);
                let count = lit(u64::from(f.count.unwrap_or(1)));
                let since = lit(u64::from(f.since.unwrap_or(1)));
                let until = lit(u64::from(f.until.unwrap_or(newest)));
                let flag = lit(u64::from(f.flag.unwrap_or(0)));
                quote! { Field { name: #name, ty: #ty, count: #count, since: #since, until: #until, flag: #flag, what: #what } }
            })
            .collect()
    };
    let header = fields(&spec.header);
    let external = fields(&spec.external);
    let rules = spec.rules.iter().map(|r| {
        let name = ident(&r.name.to_uppercase());
        let (since, until, what) = (lit(u64::from(r.since)), lit(u64::from(r.until)), &r.what);
        let doc = format!(" {what}");
        quote! {
            #[doc = #doc]
            pub(crate) const #name: Rule = Rule { since: #since, until: #until };
        }
    });
    let tokens = quote! {
        //! The layout of a `.res` file as `explain` walks it: the header's and an external
        //! resource entry's fields, each with the formats (and header flag) that have it, and
        //! the rules of the property encoding that change with the format.

        /// One field: present from format `since` to `until` when `flag` (if not 0) is set.
        pub(crate) struct Field {
            /// What it is called.
            pub name: &'static str,
            /// How it is stored: `magic`, `u32`, `u64` or `string`.
            pub ty: &'static str,
            /// How many times it repeats.
            pub count: u32,
            /// The first format that has it.
            pub since: u32,
            /// The last format that has it.
            pub until: u32,
            /// The FORMAT_FLAG_* bit without which it is absent (0: none).
            pub flag: u32,
            /// What it holds.
            pub what: &'static str,
        }
        impl Field {
            /// Whether the field is in a file of format `format` with header flags `flags`.
            pub(crate) fn present(&self, format: u32, flags: u32) -> bool {
                (self.since..=self.until).contains(&format) && (self.flag == 0 || flags & self.flag != 0)
            }
        }
        /// A rule that holds from format `since` to `until`.
        pub(crate) struct Rule {
            /// The first format it holds in.
            pub since: u32,
            /// The last format it holds in.
            pub until: u32,
        }
        impl Rule {
            /// Whether the rule holds in format `format`.
            pub(crate) fn holds(&self, format: u32) -> bool {
                (self.since..=self.until).contains(&format)
            }
        }
        /// The header, in file order.
        pub(crate) static HEADER: &[Field] = &[#(#header),*];
        /// An external resource entry, in file order.
        pub(crate) static EXTERNAL: &[Field] = &[#(#external),*];
        #(#rules)*
    };
    Artifact {
        path: format!("{out_dir}/resource_layout.rs"),
        sources: vec![SPEC_FILE.to_string()],
        tokens,
    }
}
