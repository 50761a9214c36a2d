//! Instruction counts of the codec on W1–W4, for `valgrind --tool=callgrind` (repeatable where
//! wall-clock timings on a shared machine are not): `icount decode|borrowed|encode w3 N` runs N
//! operations; subtract the count of `N = 0` (building the workload) and divide by N. A fourth
//! argument `godot3` uses Godot 3 bytes instead of Godot 4's. `int`, `empty` and `one` (a
//! dictionary of one entry) in place of a workload give W4's fixed costs apart.
#[path = "../common/workloads.rs"]
mod workloads;

use gdvariant::{
    decode, decode_borrowed, encode, DecodeOptions, Dialect, Dictionary, EncodeOptions, Variant,
};
use std::hint::black_box;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(what), Some(w), Some(n)) = (args.first(), args.get(1), args.get(2)) else {
        eprintln!("usage: icount decode|borrowed|encode w1|w2|w3|w4|int|empty|one N");
        std::process::exit(2);
    };
    let n: usize = n.parse().unwrap_or(0);
    // Only the named workload is built, so that the count of `N = 0` is small beside the
    // operations' (building all four takes 417 M instructions, W4's decode 1,700).
    let value = match w.as_str() {
        "w1" => workloads::w1(),
        "w2" => workloads::w2(),
        "w3" => workloads::w3(),
        "w4" => workloads::w4(),
        // W4's fixed costs apart from its entries': a lone value, an empty dictionary, one entry.
        "int" => Variant::Int(1),
        "empty" => Variant::Dictionary(Dictionary::new()),
        "one" => Variant::Dictionary([("id".into(), Variant::Int(1))].into_iter().collect()),
        _ => {
            eprintln!("icount: no workload {w}");
            std::process::exit(2);
        }
    };
    let dialect = match args.get(3).map(String::as_str) {
        Some("godot3") => Dialect::Godot3,
        _ => Dialect::Godot4,
    };
    let encode_options = EncodeOptions::default();
    let bytes = encode(&value, dialect, &encode_options).unwrap_or_default();
    let decode_options = DecodeOptions::default();
    for _ in 0..n {
        match what.as_str() {
            "decode" => drop(black_box(decode(
                black_box(&bytes),
                dialect,
                &decode_options,
            ))),
            "borrowed" => drop(black_box(decode_borrowed(
                black_box(&bytes),
                dialect,
                &decode_options,
            ))),
            _ => drop(black_box(encode(
                black_box(&value),
                dialect,
                &encode_options,
            ))),
        }
    }
}
