//! The scan's table of type ids: how to step over each payload, worked out once per id and decode.

use super::*;

/// What [`vouch`] and [`skip_value`] know of a type id, worked out once per id and decode: the way
/// to step over the payload, and for fixed sizes the payload without and with FLAG_64.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum How {
    // The first four in this order: a value's step tests `Sized | Int` and `Text | Name` as
    // ranges; `Unknown` is tested only after the usual kinds (a table made for the newest
    // version has none).
    /// A payload of fixed size (Nil, Bool, Float, RID, Callable, math values).
    Sized,
    /// An INT (sized, and its value is a key's identity).
    Int,
    /// A String's text.
    Text,
    /// A StringName's text.
    Name,
    /// Not looked up yet.
    Unknown,
    /// Anything the scan does not read: it gives up.
    GiveUp,
    /// A packed array of fixed-size elements.
    Packed,
    PackedBytes,
    PackedStrings,
    Array,
    Dictionary,
    /// A NodePath (the new format only; the old one is an error the driver reports).
    NodePath,
}

/// [`How`] and the two sizes of one type id.
#[derive(Clone, Copy)]
pub(super) struct Entry {
    pub(super) how: How,
    /// The payload's (or a packed element's) size without FLAG_64.
    pub(super) narrow: u8,
    /// With FLAG_64.
    pub(super) wide: u8,
}

/// What the table holds for a type id and FLAG_64: [`How`], and the payload's (or a packed
/// element's) size with that flag.
#[derive(Clone, Copy)]
pub(super) struct Slot {
    pub(super) how: How,
    pub(super) size: u8,
}

pub(super) const UNKNOWN: Slot = Slot {
    how: How::Unknown,
    size: 0,
};

/// Type ids with a table slot; others (none in any dialect) give up. The table has a slot
/// for each and FLAG_64, clear (`id`) or set (`IDS + id`).
pub(super) const IDS: usize = 64;

pub(super) type Table = [Slot; 2 * IDS];

/// The [`Table`] of `dialect` at `version` with every slot looked up, when that is the
/// dialect's newest version (made once per dialect and process).
pub(super) fn newest_table(dialect: Dialect, version: Version) -> Option<&'static Table> {
    static TABLES: PerDialect<Table> = [const { std::sync::OnceLock::new() }; 3];
    once_per_dialect(&TABLES, dialect, version, |dialect| {
        let mut scan = Scan::new(dialect, Some(dialect.newest()), false);
        for tag in 0..IDS as u32 {
            scan.look_up(tag);
        }
        scan.table
    })
}

/// The [`Entry`] of a packed array of `T`.
pub(super) fn packed_of<T: PackedElement>(w: bool) -> Entry {
    Entry {
        how: How::Packed,
        narrow: T::size(false) as u8,
        wide: T::size(w) as u8,
    }
}

impl Scan {
    /// The table slot of `header`'s type id and FLAG_64: [`How::Unknown`] until the
    /// caller has it looked up ([`Scan::looked_up`]).
    #[inline(always)]
    pub(super) fn entry(&mut self, header: u32) -> Slot {
        let tag = (header & quirks::TYPE_MASK) as usize;
        if tag >= IDS {
            return Slot {
                how: How::GiveUp,
                size: 0,
            };
        }
        self.table[tag + usize::from(header & FLAG_64 != 0) * IDS]
    }

    /// The slot of `header` as [`Scan::look_up`] works it out (and keeps it).
    #[cold]
    pub(super) fn looked_up(&mut self, header: u32) -> Slot {
        let e = self.look_up(header & quirks::TYPE_MASK);
        let size = if header & FLAG_64 != 0 {
            e.wide
        } else {
            e.narrow
        };
        Slot { how: e.how, size }
    }

    #[cold]
    #[inline(never)]
    pub(super) fn look_up(&mut self, tag: u32) -> Entry {
        let (dialect, version) = (self.dialect, self.version);
        let sized = |n: usize, w: usize| Entry {
            how: How::Sized,
            narrow: n as u8,
            wide: w as u8,
        };
        let with = |how| Entry {
            how,
            narrow: 0,
            wide: 0,
        };
        let e = match dialect.kind_of(version, tag) {
            None => with(How::GiveUp),
            Some(kind) => {
                // FLAG_64 widens a math value only where the dialect says (as in `one`).
                let w = dialect.flag64_reals(version, kind);
                let fixed = with_fixed!(kind, T => Some((<T as FixedLayout>::size(false), <T as FixedLayout>::size(w))), _ => None);
                let packed = with_packed!(kind, T => Some((<T as PackedElement>::size(false), <T as PackedElement>::size(w))), _ => None);
                match (kind, fixed, packed) {
                    (_, Some((n, w)), _) => sized(n, w),
                    (_, _, Some((n, w))) => Entry {
                        how: How::Packed,
                        narrow: n as u8,
                        wide: w as u8,
                    },
                    (Kind::Nil | Kind::Callable, ..) => sized(0, 0),
                    (Kind::Bool, ..) => sized(4, 4),
                    (Kind::Float, ..) => sized(4, 8),
                    (Kind::Int, ..) => Entry {
                        how: How::Int,
                        narrow: 4,
                        wide: 8,
                    },
                    (Kind::Rid, ..) => {
                        let n = if dialect.has_feature(version, Feature::RidPayload) {
                            8
                        } else {
                            0
                        };
                        sized(n, n)
                    }
                    (Kind::String, ..) => with(How::Text),
                    (Kind::StringName, ..) => with(How::Name),
                    (Kind::PackedInt32Array, ..) => packed_of::<i32>(w),
                    (Kind::PackedInt64Array, ..) => packed_of::<i64>(w),
                    (Kind::PackedFloat32Array, ..) => packed_of::<f32>(w),
                    (Kind::PackedFloat64Array, ..) => packed_of::<f64>(w),
                    (Kind::PackedByteArray, ..) => with(How::PackedBytes),
                    (Kind::PackedStringArray, ..) => with(How::PackedStrings),
                    (Kind::Array, ..) => with(How::Array),
                    (Kind::Dictionary, ..) => with(How::Dictionary),
                    (Kind::NodePath, ..) => with(How::NodePath),
                    _ => with(How::GiveUp),
                }
            }
        };
        if (tag as usize) < IDS {
            self.table[tag as usize] = Slot {
                how: e.how,
                size: e.narrow,
            };
            self.table[tag as usize + IDS] = Slot {
                how: e.how,
                size: e.wide,
            };
        }
        e
    }
}
