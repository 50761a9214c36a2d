//! Allocation bounds, measured with a counting global allocator: a decode never reserves more
//! than the input can justify, whatever its length fields claim.

mod common;
use gdvariant::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// Tests in this binary run one at a time, so the counters belong to one measurement.
static SERIAL: Mutex<()> = Mutex::new(());

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let now = LIVE.fetch_add(l.size(), Relaxed) + l.size();
        PEAK.fetch_max(now, Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        if new > l.size() {
            let now = LIVE.fetch_add(new - l.size(), Relaxed) + new - l.size();
            PEAK.fetch_max(now, Relaxed);
        } else {
            LIVE.fetch_sub(l.size() - new, Relaxed);
        }
        unsafe { System.realloc(p, l, new) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Peak bytes allocated (above what was live before) while `f` runs.
pub fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let out = f();
    (out, PEAK.load(Relaxed) - base)
}

#[test]
fn lying_counts_allocate_almost_nothing() {
    let _g = SERIAL.lock().unwrap();
    for hex in [
        "1c000000 ffffff7f 00000000",          // Array of 2^31-1
        "1b000000 ffffff7f 00000000 00000000", // Dictionary
        "22000000 ffffff7f 00000000",          // PackedStringArray
        "1d000000 ffffff7f",                   // PackedByteArray
        "16000000 ffffff8f ffffff7f 00000000", // NodePath
    ] {
        let bytes = common::unhex(hex);
        let (r, peak) =
            peak_during(|| decode(&bytes, Dialect::Godot4, &DecodeOptions::default()).map(|_| ()));
        drop(r);
        assert!(peak < 1024, "{hex}: {peak} bytes");
    }
}

#[test]
fn allocation_is_proportional_to_the_input() {
    let _g = SERIAL.lock().unwrap();
    // Every engine-made fixture: peak allocation stays within a small multiple of its size
    // (a 4-byte element becomes a 40-byte Variant at most, plus container bookkeeping).
    for f in common::load("godot4") {
        let o = DecodeOptions {
            allow_objects: true,
            ..Default::default()
        };
        let (r, peak) = peak_during(|| decode(&f.bytes, Dialect::Godot4, &o).map(|_| ()));
        drop(r);
        assert!(
            peak <= 32 * f.bytes.len() + 4096,
            "{}: {peak} bytes for {} input bytes",
            f.name,
            f.bytes.len()
        );
    }
}
