//! Instruction-count harness (not committed): N decodes and encodes of one workload.
#[path = "../benches/common/workloads.rs"]
mod workloads;
use gdvariant::{decode, encode, decode_borrowed, DecodeOptions, Dialect, EncodeOptions};
use std::hint::black_box;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let (what, w, n) = (a[1].as_str(), a[2].as_str(), a[3].parse::<usize>().unwrap());
    let v = workloads::all().into_iter().find(|x| x.name.starts_with(w)).unwrap().value;
    let bytes = encode(&v, Dialect::Godot4, &EncodeOptions::default()).unwrap();
    let o = DecodeOptions::default();
    for _ in 0..n {
        match what {
            "decode" => { black_box(decode(black_box(&bytes), Dialect::Godot4, &o).unwrap()); }
            "borrowed" => { black_box(decode_borrowed(black_box(&bytes), Dialect::Godot4, &o).unwrap()); }
            _ => { black_box(encode(black_box(&v), Dialect::Godot4, &EncodeOptions::default()).unwrap()); }
        }
    }
}
