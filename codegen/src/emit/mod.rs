//! Emitters: each turns the checked model into one generated file's `TokenStream`; only `write` touches disk.

pub mod dialect;
pub mod kinds;
pub mod markdown;
pub mod model;

use crate::model::Spec;
use proc_macro2::TokenStream;

/// One generated file before formatting.
pub struct Artifact {
    /// Path relative to the workspace root.
    pub path: String,
    /// The spec files it comes from, for the `@generated` header.
    pub sources: Vec<String>,
    /// The file's body.
    pub tokens: TokenStream,
}

/// Every generated Rust file of the spec, under `out_dir` (`src/generated`); `common_file` is
/// the file of the shared kinds, a source of the files that every dialect feeds.
pub fn rust_artifacts(spec: &Spec, out_dir: &str, common_file: &str) -> Vec<Artifact> {
    let mut all: Vec<String> = vec![common_file.to_string()];
    all.extend(spec.dialects.iter().map(|d| d.file.clone()));
    let mut out = vec![
        Artifact {
            path: format!("{out_dir}/mod.rs"),
            sources: all.clone(),
            tokens: kinds::emit_mod(spec),
        },
        Artifact {
            path: format!("{out_dir}/kinds.rs"),
            sources: all.clone(),
            tokens: kinds::emit_kinds(spec),
        },
        Artifact {
            path: format!("{out_dir}/math.rs"),
            sources: all.clone(),
            tokens: model::emit_math(spec),
        },
        Artifact {
            path: format!("{out_dir}/value.rs"),
            sources: all.clone(),
            tokens: model::emit_value(spec),
        },
        Artifact {
            path: format!("{out_dir}/value_ref.rs"),
            sources: all,
            tokens: model::emit_value_ref(spec),
        },
    ];
    for d in &spec.dialects {
        out.push(Artifact {
            path: format!("{out_dir}/{}.rs", d.key),
            sources: vec![d.file.clone()],
            tokens: dialect::emit_dialect(d, spec),
        });
    }
    out
}

/// `proc_macro2::Ident` from a string.
pub(crate) fn ident(s: &str) -> proc_macro2::Ident {
    proc_macro2::Ident::new(s, proc_macro2::Span::call_site())
}

/// An unsuffixed integer literal (`8`, not `8usize`), as a person would write it.
pub(crate) fn lit(n: u64) -> proc_macro2::Literal {
    proc_macro2::Literal::u64_unsuffixed(n)
}

/// A hexadecimal literal (`0x0003_0000`), for header masks.
pub(crate) fn hex(n: u32) -> proc_macro2::Literal {
    let text = format!("0x{:04x}_{:04x}", n >> 16, n & 0xffff);
    text.parse()
        .unwrap_or_else(|_| proc_macro2::Literal::u32_unsuffixed(n))
}
