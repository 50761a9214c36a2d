//! A dialect frozen at one version: the types, ids, flags, layouts and features in force then.
//! `diff` compares two snapshots; `docs` renders one page per range of identical snapshots.

use crate::model::{Dialect, Field, Flag, KindDef, Type, Ver};
use std::collections::BTreeSet;

/// One type at one version.
#[derive(Clone, Debug, PartialEq)]
pub struct SnapType {
    /// `Kind` name.
    pub kind: String,
    /// The dialect's name then.
    pub name: String,
    /// Its id then.
    pub id: u32,
    /// Header flags it uses then.
    pub flags: BTreeSet<String>,
    /// Whether it has a FLAG_64 form (`wide` fields).
    pub wide: bool,
    /// Its fields then (symbols of absent fields dropped).
    pub fields: Vec<Field>,
    /// What it is.
    pub description: String,
    /// Where the official page disagrees.
    pub docs: Vec<String>,
}

/// A dialect at one version.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// What the user asked for (`godot4@4.3`, `docs-godot4`).
    pub label: String,
    /// The dialect key.
    pub dialect: String,
    /// The version.
    pub version: Ver,
    /// Whether it transcribes an official page.
    pub documentation: bool,
    /// `header & type_mask`.
    pub type_mask: u32,
    /// Number of types (`VARIANT_MAX`).
    pub count: u32,
    /// Declared header flags.
    pub flags: Vec<Flag>,
    /// Features that hold.
    pub features: BTreeSet<String>,
    /// Types in `Kind` order.
    pub types: Vec<SnapType>,
}

impl Snapshot {
    /// `d` at version `v` (which `d` must cover).
    pub fn of(d: &Dialect, v: Ver, label: &str) -> Snapshot {
        let types = d
            .types
            .iter()
            .filter_map(|t| snap_type(t, d.oldest, v))
            .collect();
        let features = d
            .features
            .iter()
            .filter(|f| f.since <= v && f.until.is_none_or(|u| v < u))
            .map(|f| f.feature.clone())
            .collect();
        Snapshot {
            label: label.to_string(),
            dialect: d.key.clone(),
            version: v,
            documentation: d.documentation,
            type_mask: d.type_mask,
            count: d.era_at(v).map_or(0, |e| e.count),
            flags: d.flags.clone(),
            features,
            types,
        }
    }

    /// A type by kind.
    pub fn ty(&self, kind: &str) -> Option<&SnapType> {
        self.types.iter().find(|t| t.kind == kind)
    }
}

fn snap_type(t: &Type, oldest: Ver, v: Ver) -> Option<SnapType> {
    let r = t.id_at(v)?;
    let (_, _, fields) = t
        .variants(oldest)
        .into_iter()
        .rev()
        .find(|(since, _, _)| *since <= v)?;
    Some(SnapType {
        kind: t.kind.clone(),
        name: r.name.clone(),
        id: r.id,
        flags: t
            .flags
            .iter()
            .filter(|f| f.since <= v)
            .map(|f| f.flag.clone())
            .collect(),
        wide: t.has_wide(),
        fields,
        description: t.description.clone(),
        docs: t.docs.clone(),
    })
}

/// Versions where a dialect's layout tables (type table, ids, flags in use, fields) change:
/// the first version of each docs page. Features are listed per page, not split on.
pub fn layout_boundaries(d: &Dialect) -> Vec<Ver> {
    let mut b = vec![d.oldest];
    b.extend(d.eras.iter().map(|e| e.since));
    for t in &d.types {
        b.extend(t.boundaries(d.oldest));
        b.extend(t.flags.iter().map(|f| f.since));
    }
    b.retain(|v| *v >= d.oldest && *v <= d.newest);
    b.sort();
    b.dedup();
    b
}

/// The position of a kind in `Kind` order, for sorting.
pub fn kind_index(kinds: &[KindDef], kind: &str) -> usize {
    kinds
        .iter()
        .position(|k| k.name == kind)
        .unwrap_or(usize::MAX)
}
