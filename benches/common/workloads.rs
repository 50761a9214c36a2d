//! The workloads of the performance issue (W1–W4), generated on the fly, never checked in.
//!
//! `benches/compare/make_bytes.gd` builds the same values in the real Godot 3 engine, and
//! `tests/workloads.rs` checks that our bytes of them equal the engine's, so every tool in
//! the comparison decodes engine-made bytes.
#![allow(dead_code)]

use gdvariant::math::Vector2;
use gdvariant::{Array, Dictionary, Variant};

/// One workload: a name used in benchmark ids and file names, and its value.
pub struct Workload {
    /// `w1_float32_1m`, …
    pub name: &'static str,
    /// What the issue calls it.
    pub title: &'static str,
    /// The value.
    pub value: Variant,
}

/// W1: a PoolRealArray / PackedFloat32Array of 1,000,000 floats (`float(i) * 0.25`, 4 MB).
pub fn w1() -> Variant {
    Variant::PackedFloat32Array((0..1_000_000).map(|i| i as f32 * 0.25).collect())
}

/// W2: a PoolByteArray / PackedByteArray of 16 MiB (`i % 251`).
pub fn w2() -> Variant {
    Variant::PackedByteArray((0..16usize << 20).map(|i| (i % 251) as u8).collect())
}

/// The record of W3 and W4: `{"id": i, "name": "player_%d" % i, "pos": Vector2(i, 2 * i), "hp": 100.0}`.
pub fn player(i: i64) -> Variant {
    let mut d = Dictionary::new();
    d.insert("id".into(), Variant::Int(i));
    d.insert("name".into(), Variant::from(format!("player_{i}")));
    d.insert(
        "pos".into(),
        Variant::Vector2(Vector2 {
            x: i as f64,
            y: (2 * i) as f64,
        }),
    );
    d.insert("hp".into(), Variant::Float(100.0));
    Variant::Dictionary(d)
}

/// W3: an Array of 100,000 such records (10.4 MB).
pub fn w3() -> Variant {
    Variant::Array(Array::new((0..100_000).map(player).collect()))
}

/// W4: one record (`i = 1`, 100 bytes).
pub fn w4() -> Variant {
    player(1)
}

/// W1–W4 in order.
pub fn all() -> Vec<Workload> {
    vec![
        Workload {
            name: "w1_float32_1m",
            title: "W1 PackedFloat32Array, 1,000,000 floats",
            value: w1(),
        },
        Workload {
            name: "w2_bytes_16mib",
            title: "W2 PackedByteArray, 16 MiB",
            value: w2(),
        },
        Workload {
            name: "w3_dicts_100k",
            title: "W3 Array of 100,000 dicts",
            value: w3(),
        },
        Workload {
            name: "w4_dict",
            title: "W4 one dict",
            value: w4(),
        },
    ]
}
