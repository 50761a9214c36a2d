//! `src/generated/containers.rs`: the magics, each generation's encrypted header offsets and
//! cipher, the compressed header and its modes, as constants for `src/container/layout.rs`.

use super::model::Containers;
use super::CONTAINERS_FILE;
use crate::emit::{ident, lit, Artifact};
use quote::quote;

fn opt(v: Option<u32>) -> proc_macro2::TokenStream {
    match v {
        Some(v) => {
            let v = lit(u64::from(v));
            quote! { Some(#v) }
        }
        None => quote! { None },
    }
}

/// The generated file.
pub fn emit_containers(c: &Containers, out_dir: &str) -> Artifact {
    let layouts = c.layouts.iter().map(|l| {
        let name = ident(&format!("ENCRYPTED_{}", l.name.to_uppercase()));
        let doc = format!(
            "Encrypted files of {} ({}, {}): {}.",
            l.name,
            l.versions,
            if l.cfb {
                "AES-256-CFB128"
            } else {
                "AES-256-ECB"
            },
            l.source
        );
        let (header_len, md5, length) = (
            lit(u64::from(l.header_len)),
            lit(u64::from(l.md5)),
            lit(u64::from(l.length)),
        );
        let iv = opt(l.iv);
        let mode_offset = opt(l.mode.map(|m| m.0));
        let mode_value = lit(u64::from(l.mode.map_or(0, |m| m.1)));
        let cfb = l.cfb;
        quote! {
            #[doc = #doc]
            pub(crate) const #name: EncryptedFields = EncryptedFields {
                header_len: #header_len,
                mode_offset: #mode_offset,
                mode_value: #mode_value,
                md5: #md5,
                length: #length,
                iv: #iv,
                cfb: #cfb,
            };
        }
    });
    let [a, b, cc, d] = c.encrypted_magic;
    let [e, f, g, h] = c.compressed_magic;
    let padding = lit(u64::from(c.padding));
    let block = lit(u64::from(c.default_block_size));
    let modes = c.modes.iter().map(|(id, name, writes)| {
        let id = lit(u64::from(*id));
        quote! { (#id, #name, #writes) }
    });
    let offsets = c.compressed_fields.iter().map(|(name, offset, _)| {
        let name = ident(&format!("COMPRESSED_{}_OFFSET", name.to_uppercase()));
        let offset = lit(u64::from(*offset));
        quote! { pub(crate) const #name: usize = #offset; }
    });
    let compressed_doc = format!(
        "The compressed layout ({}): {}.",
        c.compressed_versions, c.compressed_source
    );
    let tokens = quote! {
        //! The save-file containers' layouts by generation, from `spec/containers.yaml`.

        /// One generation's encrypted header: offsets from the file's start.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) struct EncryptedFields {
            /// The header's size, magic included.
            pub header_len: usize,
            /// The mode field's offset, when there is one.
            pub mode_offset: Option<usize>,
            /// The value the engine writes in the mode field.
            pub mode_value: u32,
            /// The MD5's offset.
            pub md5: usize,
            /// The plain length's offset.
            pub length: usize,
            /// The IV's offset, when there is one.
            pub iv: Option<usize>,
            /// AES-256-CFB128 with the IV (else AES-256-ECB).
            pub cfb: bool,
        }
        /// The encrypted files' magic.
        pub(crate) const ENCRYPTED_MAGIC: &[u8; 4] = &[#a, #b, #cc, #d];
        /// The enciphered data is padded with zeros to a multiple of this.
        pub(crate) const ENCRYPTED_PADDING: usize = #padding;
        #(#layouts)*
        #[doc = #compressed_doc]
        pub(crate) const COMPRESSED_MAGIC: &[u8; 4] = &[#e, #f, #g, #h];
        /// `open_compressed`'s block size.
        pub(crate) const DEFAULT_BLOCK_SIZE: u32 = #block;
        #(#offsets)*
        /// The compression modes: (id, name, whether the engines write it).
        pub(crate) const COMPRESSION_MODES: &[(u32, &str, bool)] = &[#(#modes),*];
    };
    Artifact {
        path: format!("{out_dir}/containers.rs"),
        sources: vec![CONTAINERS_FILE.to_string()],
        tokens,
    }
}
