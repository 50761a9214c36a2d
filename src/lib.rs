//! gdvariant: Godot's binary Variant serialization, byte-exact for Godot 3, Godot 4 and Pandemonium.
//!
//! The bytes of `var_to_bytes` / `bytes_to_var` (Godot 4), `var2bytes` / `bytes2var` (Godot 3),
//! `FileAccess.store_var` / `get_var`, `StreamPeer` and `PacketPeer` `put_var` / `get_var`,
//! read and written exactly as the engines do, safely on untrusted input.
//!
//! # Typed values in one call
//!
//! [`to_vec`], [`from_slice`], [`to_writer`] and [`from_reader`] take any type with
//! `#[derive(GodotVariant)]` (or [`ToVariant`] / [`FromVariant`]), including [`Variant`]
//! itself, and a [`Format`]: the engine, the framing and the options. The default format is
//! the newest Godot 4's bare values. [`serde`] has the same four calls for serde types
//! (feature `serde`).
//!
//! ```
//! use gdvariant::{from_slice, to_vec, Format, GodotVariant};
//!
//! #[derive(GodotVariant, Debug, PartialEq)]
//! struct Player { name: String, hp: i64 }
//!
//! let ann = Player { name: "ann".into(), hp: 90 };
//! let bytes = to_vec(&ann, &Format::godot4())?; // var_to_bytes({"name": "ann", "hp": 90})
//! assert_eq!(from_slice::<Player>(&bytes, &Format::godot4())?, ann);
//! # Ok::<(), gdvariant::Error>(())
//! ```
//!
//! A save file written by `FileAccess.store_var` has a length before each value: say so in
//! the format (`Format::godot4().framing(Framing::STORE_VAR)`, see [`to_writer`]), or read
//! every value of it with [`framing::frames`].
//!
//! # Values
//!
//! [`Variant`] is one model for every dialect and version, with Godot 4 names; it is edited
//! like a `serde_json::Value`. [`decode`] and [`encode`] are the layer below the typed calls:
//! bytes to a `Variant` and back, with [`DecodeOptions`] (objects refused unless asked, nesting
//! and size limits) and [`EncodeOptions`]. Every error carries the byte offset (decoding) or
//! the path inside the value (encoding, conversion). [`decode_borrowed`] reads without
//! copying strings and packed arrays. [`text`] is the engine's `var_to_str` text form.
//!
//! ```
//! use gdvariant::{decode, encode, DecodeOptions, Dialect, EncodeOptions, Variant};
//! let bytes = [2, 0, 0, 0, 42, 0, 0, 0]; // var_to_bytes(42)
//! let (value, used) = decode(&bytes, Dialect::Godot4, &DecodeOptions::default())?;
//! assert_eq!((value.clone(), used), (Variant::Int(42), 8));
//! assert_eq!(encode(&value, Dialect::Godot4, &EncodeOptions::default())?, bytes);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Argument order
//!
//! Every function and type takes its arguments in one order: the data (bytes, reader or
//! writer, then the value), then how (`&Format` for the framed and typed calls; the dialect
//! and `&options` for [`decode`] and [`encode`]). Options are always passed by reference.
//!
//! # Features
//!
//! | feature | adds | dependencies |
//! |---|---|---|
//! | (none, the default) | the codec, views, text form, derive, conversions, framing, migration, `explain`, `guess` | thiserror, bytemuck, compact_str, hashbrown, indexmap, smallvec, the derive (syn) |
//! | `serde` | [`serde`]: serde types to and from `Variant` and bytes | serde |
//! | `json` | [`json`]: the lossless, type-tagged JSON form | serde, serde_json |
//! | `codec` | [`codec`]: a `tokio-util` codec for game servers | tokio-util, bytes |
//! | `debugger` | [`debugger`]: Godot's remote debugger protocol on tokio | tokio, `codec` |
//! | `containers` | [`container`]: encrypted and compressed save files (`GDEC`, `GCPF`) | aes, cfb-mode, md-5, flate2 (zlib), zlib-rs (inflate), zstd, getrandom |
//! | `cli` | the `gdvariant` command (`cargo install gdvariant --features cli`) | clap, `json`, `debugger` |
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// Lets `#[derive(GodotVariant)]` output (which names `::gdvariant`) compile inside this crate too.
extern crate self as gdvariant;

pub mod borrowed;
#[cfg(feature = "codec")]
#[cfg_attr(docsrs, doc(cfg(feature = "codec")))]
pub mod codec;
#[cfg(feature = "containers")]
#[cfg_attr(docsrs, doc(cfg(feature = "containers")))]
pub mod container;
pub mod convert;
#[cfg(feature = "debugger")]
#[cfg_attr(docsrs, doc(cfg(feature = "debugger")))]
pub mod debugger;
mod decode;
mod dialect;
#[cfg(feature = "editor")]
#[cfg_attr(docsrs, doc(cfg(feature = "editor")))]
pub mod editor;
mod encode;
mod error;
pub mod explain;
mod format;
pub mod framing;
mod typed;
// Generated from the spec: complete tables, some of whose entries only some builds use.
#[rustfmt::skip]
#[allow(dead_code)]
mod generated;
pub mod guess;
#[cfg(feature = "json")]
#[cfg_attr(docsrs, doc(cfg(feature = "json")))]
pub mod json;
pub mod math;
pub mod migrate;
mod quirks;
pub mod resource;
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub mod serde;
#[cfg(feature = "json")]
mod stack;
pub mod text;
mod variant;
mod version;

pub use borrowed::{decode_borrowed, VariantRef};
pub use convert::{FromVariant, FromVariantError, ToVariant, TypedArrayElement};
#[doc(hidden)]
pub use decode::decoders_apart;
pub use decode::{decode, DecodeOptions, Limits};
pub use dialect::Dialect;
pub use encode::{encode, encode_into, encoded_len, needs_full_objects, EncodeOptions};
#[cfg(feature = "containers")]
pub use error::ContainerError;
pub use error::{DecodeError, EncodeError, EngineRefusal};
pub use format::Format;
/// `#[derive(GodotVariant)]`: implements [`ToVariant`] and [`FromVariant`]; see [`convert`].
pub use gdvariant_derive::GodotVariant;
pub use generated::kinds::{Feature, FieldInfo, FieldName, Kind, TypeInfo};
pub use text::{from_text, to_text, to_text_exact, TextError};
pub use typed::{from_reader, from_slice, from_slice_partial, to_vec, to_writer, Error};
pub use variant::packed::{PackedElement, PackedRef};
pub use variant::{
    Array, ArrayType, Dictionary, DictionaryType, ElementType, FullObject, GString, NodePath,
    Object, Signal, StrRef, StringName, Variant, VariantIndex,
};
pub use version::{ParseVersionError, Version};

/// The README's Rust examples, compiled and run as doc-tests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

/// The guide's Rust examples (every page of `docs/`), compiled and run as doc-tests like the
/// README's (`tests/docs_links.rs` checks that every page is listed here).
#[cfg(doctest)]
mod guide_examples {
    #[doc = include_str!("../docs/README.md")]
    struct Readme;
    #[doc = include_str!("../docs/adding-a-type.md")]
    struct AddingAType;
    #[doc = include_str!("../docs/architecture.md")]
    struct Architecture;
    #[doc = include_str!("../docs/command.md")]
    struct Command;
    #[doc = include_str!("../docs/debugger.md")]
    struct Debugger;
    #[cfg(feature = "containers")]
    #[doc = include_str!("../docs/save-files.md")]
    struct SaveFiles;
    #[doc = include_str!("../docs/derive-and-serde.md")]
    struct DeriveAndSerde;
    #[doc = include_str!("../docs/dialects.md")]
    struct Dialects;
    #[doc = include_str!("../docs/editor.md")]
    struct Editor;
    #[doc = include_str!("../docs/engine-rules.md")]
    struct EngineRules;
    #[doc = include_str!("../docs/fuzzing.md")]
    struct Fuzzing;
    #[doc = include_str!("../docs/game-servers.md")]
    struct GameServers;
    #[doc = include_str!("../docs/library.md")]
    struct Library;
    #[doc = include_str!("../docs/performance-history.md")]
    struct PerformanceHistory;
    #[doc = include_str!("../docs/performance.md")]
    struct Performance;
    #[doc = include_str!("../docs/python.md")]
    struct Python;
    #[doc = include_str!("../docs/resources.md")]
    struct Resources;
    #[doc = include_str!("../docs/spec-and-generator.md")]
    struct SpecAndGenerator;
    #[doc = include_str!("../docs/testing.md")]
    struct Testing;
    #[doc = include_str!("../docs/text-form.md")]
    struct TextForm;
    #[doc = include_str!("../docs/untrusted-input.md")]
    struct UntrustedInput;
}
