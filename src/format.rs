//! `Format` and `Framing`: how bytes are laid out (engine, version, framing, options), the one value every framed and typed entry point takes.
//!
//! Every framed or typed entry point takes its options the same way: the data first (the
//! bytes, reader or writer, then the value), then `&Format` last. `decode` and `encode`, the
//! unframed layer below, take `(bytes or value, dialect, &options)` in the same order.

use crate::decode::DecodeOptions;
use crate::dialect::Dialect;
use crate::encode::EncodeOptions;
use crate::version::Version;
use std::fmt;
use std::str::FromStr;

/// How values are laid out as bytes: the engine (dialect and version), the framing, and the
/// decode and encode options.
///
/// The default is what most Rust programs talking to Godot 4 want: the newest Godot 4, bare
/// values (`var_to_bytes` / `bytes_to_var`), objects refused.
///
/// ```
/// use gdvariant::framing::Framing;
/// use gdvariant::{Dialect, Format, Version};
///
/// // A Godot 3.5 save file written with `File.store_var` (a length before each value).
/// let save = Format::godot3().version(Version::new(3, 5, 0)).framing(Framing::STORE_VAR);
/// assert_eq!(save.dialect, Dialect::Godot3);
/// assert_eq!(save.decode.version, Some(Version::new(3, 5, 0)));
/// assert_eq!(Format::default(), Format::godot4());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Format {
    /// The engine family.
    pub dialect: Dialect,
    /// How values are framed (bare, or with a length before each).
    pub framing: Framing,
    /// How bytes are read.
    pub decode: DecodeOptions,
    /// How values are written.
    pub encode: EncodeOptions,
}

impl Default for Format {
    fn default() -> Format {
        Format::godot4()
    }
}

impl Format {
    /// Bare values of `dialect` at its newest version, default options.
    pub fn new(dialect: Dialect) -> Format {
        Format {
            dialect,
            framing: Framing::Bare,
            decode: DecodeOptions::default(),
            encode: EncodeOptions::default(),
        }
    }

    /// Bare Godot 4 values (`var_to_bytes`), newest version.
    pub fn godot4() -> Format {
        Format::new(Dialect::Godot4)
    }

    /// Bare Godot 3 values (`var2bytes`), newest version.
    pub fn godot3() -> Format {
        Format::new(Dialect::Godot3)
    }

    /// Bare Pandemonium values, newest version.
    pub fn pandemonium() -> Format {
        Format::new(Dialect::Pandemonium)
    }

    /// The engine version that reads and writes the bytes (both ways).
    pub fn version(mut self, version: Version) -> Format {
        self.decode.version = Some(version);
        self.encode.version = Some(version);
        self
    }

    /// The framing: [`Framing::STORE_VAR`] for `FileAccess.store_var` files, a PacketPeer
    /// stream's, or [`Framing::Bare`].
    pub fn framing(mut self, framing: Framing) -> Format {
        self.framing = framing;
        self
    }

    /// Full objects both ways (`var_to_bytes_with_objects`, `allow_objects`): read as data,
    /// never instantiated. Off by default, as in the engine.
    pub fn with_objects(mut self) -> Format {
        self.decode.allow_objects = true;
        self.encode.full_objects = true;
        self
    }
}

/// How values are laid out in a file or stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Framing {
    /// No prefix: `var_to_bytes` output, or one `PacketPeer.put_var` packet. Several values in
    /// one buffer are simply back to back.
    #[default]
    Bare,
    /// A `u32` length prefix before each value, as `store_var` and `StreamPeer.put_var` write.
    StoreVar {
        /// The prefix is big-endian (`FileAccess.big_endian`, `File.endian_swap`,
        /// `StreamPeer.big_endian`). The payload stays little-endian.
        big_endian: bool,
    },
    /// `PacketPeerStream`: a little-endian `u32` length prefix, whatever the stream's byte order.
    PacketStream,
}

impl Framing {
    /// `store_var` with a little-endian prefix (the engines' default).
    pub const STORE_VAR: Framing = Framing::StoreVar { big_endian: false };

    /// Bytes of the length prefix (0 or 4).
    pub fn prefix_len(self) -> usize {
        match self {
            Framing::Bare => 0,
            _ => 4,
        }
    }

    /// Reads a prefix (the caller has checked there are 4 bytes).
    pub(crate) fn read_prefix(self, b: &[u8]) -> u32 {
        let a = [b[0], b[1], b[2], b[3]];
        match self {
            Framing::StoreVar { big_endian: true } => u32::from_be_bytes(a),
            _ => u32::from_le_bytes(a),
        }
    }

    pub(crate) fn prefix_bytes(self, len: u32) -> [u8; 4] {
        match self {
            Framing::StoreVar { big_endian: true } => len.to_be_bytes(),
            _ => len.to_le_bytes(),
        }
    }

    /// The command-line name: `none`, `store-var`, `store-var-be`, `packet-stream`.
    pub fn name(self) -> &'static str {
        match self {
            Framing::Bare => "none",
            Framing::StoreVar { big_endian: false } => "store-var",
            Framing::StoreVar { big_endian: true } => "store-var-be",
            Framing::PacketStream => "packet-stream",
        }
    }
}

impl fmt::Display for Framing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Framing::Bare => "bare values (no prefix)",
            Framing::StoreVar { big_endian: false } => "store_var (little-endian prefix)",
            Framing::StoreVar { big_endian: true } => "store_var (big-endian prefix)",
            Framing::PacketStream => "PacketPeerStream (little-endian prefix)",
        })
    }
}

impl FromStr for Framing {
    type Err = String;
    fn from_str(s: &str) -> Result<Framing, String> {
        match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "none" | "bare" | "packet" => Ok(Framing::Bare),
            "store-var" | "put-var" | "store-var-le" => Ok(Framing::STORE_VAR),
            "store-var-be" | "put-var-be" => Ok(Framing::StoreVar { big_endian: true }),
            "packet-stream" | "packetpeerstream" => Ok(Framing::PacketStream),
            _ => Err(format!(
                "unknown framing `{s}`: expected none, store-var, store-var-be or packet-stream"
            )),
        }
    }
}
