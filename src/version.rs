//! Engine versions: which Godot (or Pandemonium) release a byte layout belongs to.

use std::fmt;
use std::str::FromStr;

/// An engine release, `major.minor.patch`.
///
/// The wire format changes between releases (Godot 4.3 added typed arrays, 4.4 typed
/// dictionaries, Pandemonium renumbered its types twice), so options carry the version
/// of the engine on the other side.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Version {
    /// Major release (3, 4, 5).
    pub major: u8,
    /// Minor release.
    pub minor: u8,
    /// Patch release.
    pub patch: u8,
}

impl Version {
    /// `Version::new(4, 3, 0)` is Godot 4.3.
    pub const fn new(major: u8, minor: u8, patch: u8) -> Version {
        Version {
            major,
            minor,
            patch,
        }
    }

    /// Whether this is a release of a minor version from `oldest`'s to `newest`'s, whatever
    /// its patch number: a patch release never changes the wire format of its minor version
    /// (Godot's patch releases only take fixes; the 4.6.3 NodePath padding fix zeroes bytes
    /// that were garbage), so `3.6.1` is known when the spec's newest Godot 3 is `3.6`.
    pub fn in_minor_range(self, oldest: Version, newest: Version) -> bool {
        let minor = |v: Version| (v.major, v.minor);
        minor(oldest) <= minor(self) && minor(self) <= minor(newest)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.patch == 0 {
            write!(f, "{}.{}", self.major, self.minor)
        } else {
            write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
        }
    }
}

/// The error of parsing a version string such as `4.3` or `3.2.3`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid engine version `{0}`: expected MAJOR.MINOR or MAJOR.MINOR.PATCH")]
pub struct ParseVersionError(pub String);

impl FromStr for Version {
    type Err = ParseVersionError;

    fn from_str(s: &str) -> Result<Version, ParseVersionError> {
        let err = || ParseVersionError(s.to_string());
        let mut parts = s
            .trim()
            .split('.')
            .map(|p| p.parse::<u8>().map_err(|_| err()));
        let major = parts.next().ok_or_else(err)??;
        let minor = parts.next().ok_or_else(err)??;
        let patch = parts.next().transpose()?.unwrap_or(0);
        if parts.next().is_some() {
            return Err(err());
        }
        Ok(Version::new(major, minor, patch))
    }
}

#[cfg(test)]
mod tests {
    use super::Version;

    #[test]
    fn every_patch_release_of_a_known_minor_version_is_in_range() {
        let (g3, g3_newest) = (Version::new(3, 0, 0), Version::new(3, 6, 0));
        let (g4, g4_newest) = (Version::new(4, 0, 0), Version::new(4, 7, 2));
        for v in ["3.6.1", "3.6.9", "3.0", "3.2.3"] {
            assert!(
                v.parse::<Version>().unwrap().in_minor_range(g3, g3_newest),
                "{v}"
            );
        }
        for v in [
            "4.2.2", "4.6.2", "4.6.4", "4.0.1", "4.7.0", "4.7.2", "4.7.3",
        ] {
            assert!(
                v.parse::<Version>().unwrap().in_minor_range(g4, g4_newest),
                "{v}"
            );
        }
        for v in ["3.7", "2.1.6", "4.8.0"] {
            let v: Version = v.parse().unwrap();
            assert!(
                !v.in_minor_range(g3, g3_newest) && !v.in_minor_range(g4, g4_newest),
                "{v}"
            );
        }
    }
}
