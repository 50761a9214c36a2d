//! Dialects (Godot 3, Godot 4, Pandemonium), their versions, and the decode/encode options.

use crate::generated::kinds::{Feature, Kind, TypeInfo};
use crate::generated::{godot3, godot4, pandemonium};
use crate::version::Version;
use std::fmt;
use std::str::FromStr;

/// Which engine family wrote (or will read) the bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// Godot 3.x (`var2bytes` / `bytes2var`).
    Godot3,
    /// Godot 4.x (`var_to_bytes` / `bytes_to_var`).
    Godot4,
    /// The Pandemonium engine (a Godot 3 fork with its own type enums).
    Pandemonium,
}

impl Dialect {
    /// Every dialect.
    pub const ALL: [Dialect; 3] = [Dialect::Godot3, Dialect::Godot4, Dialect::Pandemonium];

    /// The newest engine version the spec describes (the default of the options).
    pub fn newest(self) -> Version {
        match self {
            Dialect::Godot3 => godot3::NEWEST,
            Dialect::Godot4 => godot4::NEWEST,
            Dialect::Pandemonium => pandemonium::NEWEST,
        }
    }

    /// The oldest engine version the spec describes.
    pub fn oldest(self) -> Version {
        match self {
            Dialect::Godot3 => godot3::OLDEST,
            Dialect::Godot4 => godot4::OLDEST,
            Dialect::Pandemonium => pandemonium::OLDEST,
        }
    }

    /// The kind behind a type id (the header's low byte) at `version`.
    #[inline]
    pub fn kind_of(self, version: Version, id: u32) -> Option<Kind> {
        match self {
            Dialect::Godot3 => godot3::kind_of(version, id),
            Dialect::Godot4 => godot4::kind_of(version, id),
            Dialect::Pandemonium => pandemonium::kind_of(version, id),
        }
    }

    /// [`kind_of`](Self::kind_of) of every type id (`header & 0xFF`) at `version`, as one
    /// generated static table: the decoder looks each header up with one load.
    #[inline]
    pub(crate) fn kind_table(self, version: Version) -> &'static [Option<Kind>; 256] {
        match self {
            Dialect::Godot3 => godot3::kind_table(version),
            Dialect::Godot4 => godot4::kind_table(version),
            Dialect::Pandemonium => pandemonium::kind_table(version),
        }
    }

    /// The type id of `kind` at `version`, if the dialect has that type then.
    #[inline]
    pub fn id_of(self, version: Version, kind: Kind) -> Option<u32> {
        match self {
            Dialect::Godot3 => godot3::id_of(version, kind),
            Dialect::Godot4 => godot4::id_of(version, kind),
            Dialect::Pandemonium => pandemonium::id_of(version, kind),
        }
    }

    /// Whether FLAG_64 means "reals are doubles" for `kind` at `version`.
    #[inline]
    pub fn flag64_reals(self, version: Version, kind: Kind) -> bool {
        match self {
            Dialect::Godot3 => godot3::flag64_reals(version, kind),
            Dialect::Godot4 => godot4::flag64_reals(version, kind),
            Dialect::Pandemonium => pandemonium::flag64_reals(version, kind),
        }
    }

    /// The text form's constructor name of `kind` (`Quat`, `PoolVector2Array`) and whether it
    /// is written tight (`Vector2(1, 2)`) rather than padded (`Vector2( 1, 2 )`), from the spec.
    pub fn text_ctor(self, kind: Kind) -> (&'static str, bool) {
        match self {
            Dialect::Godot3 => godot3::text_ctor(kind),
            Dialect::Godot4 => godot4::text_ctor(kind),
            Dialect::Pandemonium => pandemonium::text_ctor(kind),
        }
    }

    /// Whether the dialect has `feature` at `version`.
    #[inline]
    pub fn has_feature(self, version: Version, feature: Feature) -> bool {
        match self {
            Dialect::Godot3 => godot3::has_feature(version, feature),
            Dialect::Godot4 => godot4::has_feature(version, feature),
            Dialect::Pandemonium => pandemonium::has_feature(version, feature),
        }
    }

    /// The spec's description of `kind` (name, fields, offsets) at `version`.
    pub fn type_info(self, version: Version, kind: Kind) -> Option<&'static TypeInfo> {
        match self {
            Dialect::Godot3 => godot3::type_info(version, kind),
            Dialect::Godot4 => godot4::type_info(version, kind),
            Dialect::Pandemonium => pandemonium::type_info(version, kind),
        }
    }

    /// The command-line name: `godot3`, `godot4`, `pandemonium`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Godot3 => "godot3",
            Dialect::Godot4 => "godot4",
            Dialect::Pandemonium => "pandemonium",
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dialect::Godot3 => "Godot 3",
            Dialect::Godot4 => "Godot 4",
            Dialect::Pandemonium => "Pandemonium",
        })
    }
}

impl FromStr for Dialect {
    type Err = String;
    fn from_str(s: &str) -> Result<Dialect, String> {
        match s.to_ascii_lowercase().as_str() {
            "godot3" | "3" | "g3" => Ok(Dialect::Godot3),
            "godot4" | "4" | "g4" => Ok(Dialect::Godot4),
            "pandemonium" => Ok(Dialect::Pandemonium),
            _ => Err(format!(
                "unknown dialect `{s}`: expected godot3, godot4 or pandemonium"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generated static tables the decoder reads say what the generated `kind_of` says,
    /// for every type id, in every minor and patch release from each dialect's oldest to its
    /// newest version (the tables are built era on era, so a missed change would show here).
    #[test]
    fn kind_tables_agree_with_kind_of() {
        for d in Dialect::ALL {
            let (old, new) = (d.oldest(), d.newest());
            for major in old.major..=new.major {
                for minor in 0..=9 {
                    for patch in 0..=9 {
                        let v = Version::new(major, minor, patch);
                        if v < old || v > new {
                            continue;
                        }
                        let table = d.kind_table(v);
                        for id in 0..256u32 {
                            assert_eq!(table[id as usize], d.kind_of(v, id), "{d} {v} id {id}");
                        }
                    }
                }
            }
        }
    }
}
