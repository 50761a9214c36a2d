//! The fuzzing invariants, in one place: the libFuzzer targets in `fuzz/fuzz_targets/` and the stable test `tests/fuzz_invariants.rs` (which includes this file by path) call these functions.
//!
//! An input is two setup bytes and a payload (see [`Setup::split`]): the first byte picks
//! the dialect and version, objects, BOM handling, framing and limits, the second seeds the
//! chunking of streamed input. Every check panics with a message naming the invariant, so a
//! fuzzer finding or a failing fixture says which promise was broken.
#![allow(dead_code)]

mod streams;
pub use streams::*;

use gdvariant::framing::Framing;
use gdvariant::{
    decode, decode_borrowed, encode, DecodeError, DecodeOptions, Dialect, EncodeError,
    EncodeOptions, Limits, Object, Variant, VariantRef, Version,
};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The engines an input can be read as (`setup & 7`). The seed script (`fuzz/seed.sh`) and
/// the fixture test pick their indices from here.
pub const TARGETS: [(Dialect, Version); 8] = [
    (Dialect::Godot3, Version::new(3, 2, 3)),
    (Dialect::Godot3, Version::new(3, 6, 0)),
    (Dialect::Godot4, Version::new(4, 2, 0)),
    (Dialect::Godot4, Version::new(4, 3, 0)),
    (Dialect::Godot4, Version::new(4, 4, 1)),
    (Dialect::Pandemonium, Version::new(3, 7, 0)),
    (Dialect::Pandemonium, Version::new(4, 0, 0)),
    (Dialect::Pandemonium, Version::new(5, 2, 0)),
];

/// The framings an input can be read in (`setup >> 5 & 3`).
pub const FRAMINGS: [Framing; 4] = [
    Framing::Bare,
    Framing::StoreVar { big_endian: false },
    Framing::StoreVar { big_endian: true },
    Framing::PacketStream,
];

/// How one input is read.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The dialect.
    pub dialect: Dialect,
    /// Decoding options (version, objects, BOM, limits).
    pub options: DecodeOptions,
    /// Framing of the payload for the streaming entry points.
    pub framing: Framing,
    /// Seed of the chunk sizes streamed input arrives in.
    pub chunk_seed: u8,
    /// The dialect, framing and options as one `Format`, for the framed entry points.
    format: gdvariant::Format,
}

impl Setup {
    /// The setup byte: bits 0–2 the target ([`TARGETS`]), bit 3 `allow_objects`, bit 4
    /// `keep_leading_bom`, bits 5–6 the framing ([`FRAMINGS`]), bit 7 tight limits (depth
    /// 8, 64 elements) so that the limit paths are reached too.
    pub fn from_byte(b: u8, chunk_seed: u8) -> Setup {
        let (dialect, version) = TARGETS[usize::from(b & 7)];
        let limits = if b & 0x80 != 0 {
            Limits {
                max_depth: 8,
                max_elements: 64,
            }
        } else {
            Limits::default()
        };
        let options = DecodeOptions {
            version: Some(version),
            allow_objects: b & 8 != 0,
            keep_leading_bom: b & 16 != 0,
            limits,
            ..DecodeOptions::default()
        };
        let framing = FRAMINGS[usize::from(b >> 5 & 3)];
        Setup {
            dialect,
            options: options.clone(),
            framing,
            chunk_seed,
            format: gdvariant::Format {
                dialect,
                framing,
                decode: options,
                encode: Default::default(),
            },
        }
    }

    /// The dialect, framing and decoding options as a `Format`.
    pub fn format(&self) -> &gdvariant::Format {
        &self.format
    }

    /// The setup byte that gives `target`, objects, BOM and framing (limits default).
    pub fn byte(target: usize, allow_objects: bool, keep_bom: bool, framing: usize) -> u8 {
        target as u8 & 7
            | u8::from(allow_objects) << 3
            | u8::from(keep_bom) << 4
            | (framing as u8 & 3) << 5
    }

    /// Splits a fuzz input into its setup and payload; `None` when it is too short.
    pub fn split(data: &[u8]) -> Option<(Setup, &[u8])> {
        match data {
            [b, seed, payload @ ..] => Some((Setup::from_byte(*b, *seed), payload)),
            _ => None,
        }
    }

    fn version(&self) -> Version {
        self.options
            .version
            .unwrap_or_else(|| self.dialect.newest())
    }
}

// ---------------------------------------------------------------------------------------
// Memory: a counting allocator whose peak is measured per thread.

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

/// A global allocator that counts the bytes live on the current thread (install it with
/// `#[global_allocator]`); [`peak_during`] reads it. Per thread, so tests running in
/// parallel do not disturb each other's numbers.
pub struct CountingAlloc;

fn account(delta: isize) {
    // `try_with`: never panic inside the allocator, even while a thread is being torn down.
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            account(l.size() as isize);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(l) };
        if !p.is_null() {
            account(l.size() as isize);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) };
        account(-(l.size() as isize));
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, l, new) };
        if !q.is_null() {
            account(new as isize - l.size() as isize);
        }
        q
    }
}

/// Runs `f` and returns its result with the most bytes it had live at once on this thread
/// (above what was live before).
pub fn peak_during<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let base = LIVE.with(Cell::get);
    let outer = PEAK.with(|p| p.replace(base));
    let r = f();
    let peak = PEAK.with(|p| p.replace(outer.max(p.get())));
    (r, (peak - base).max(0) as usize)
}

/// Whether [`CountingAlloc`] is the global allocator (a bound checked without it would
/// pass whatever happens).
pub fn counting_installed() -> bool {
    let (v, peak) = peak_during(|| std::hint::black_box(vec![0u8; 4096]));
    drop(v);
    peak >= 4096
}

/// The most a decode may allocate for a payload of `len` bytes. Nesting costs most per input
/// byte: 8 bytes (an Array of one element) become a 32-byte `Variant`, its element vector
/// and a stack entry (which the stack doubles as it grows), 250 to 500 bytes per level; a
/// container of 4-byte values (an `Array` of nulls) costs 8 times its bytes. The constant
/// covers fixed costs such as the 64 KiB read buffer of a stream reader. What must not
/// happen is a cost that grows faster than the input (a reservation per nesting level).
pub fn decode_budget(len: usize) -> usize {
    64 * len + 128 * 1024
}

/// The budget the targets check: [`decode_budget`] (nested containers that lie about their
/// counts share one reservation budget, see tests/fuzz_regressions.rs).
pub fn checked_budget(len: usize) -> usize {
    decode_budget(len)
}

fn assert_within_budget(what: &str, setup: &Setup, len: usize, peak: usize) {
    assert!(
        peak <= checked_budget(len),
        "memory: {what} of {len} bytes ({} {}) allocated {peak} bytes at its peak, over the budget of {}",
        setup.dialect,
        setup.version(),
        checked_budget(len)
    );
}

// ---------------------------------------------------------------------------------------
// Decode: owned, borrowed, validate-only.

/// `decode`, `decode_borrowed` (its validating pass, then every view read) agree: same
/// success, same bytes used, same error at the same offset, the same value bit for bit; errors
/// stay inside the input; neither allocates beyond [`decode_budget`].
pub fn check_decode(setup: &Setup, payload: &[u8]) {
    let (owned, peak) = peak_during(|| decode(payload, setup.dialect, &setup.options));
    assert_within_budget("decode", setup, payload.len(), peak);
    match &owned {
        Ok((_, used)) => assert!(
            *used <= payload.len() + 3,
            "decode: used {used} of {}",
            payload.len()
        ),
        Err(e) => assert!(
            e.offset() <= payload.len(),
            "decode: error past the end: {e}"
        ),
    }
    // The fast path builds exactly what the driver builds, wherever it does not give up.
    let (quick, driven) = gdvariant::decoders_apart(payload, setup.dialect, &setup.options);
    if let Some((q, qused)) = &quick {
        match &driven {
            Ok((v, used)) => assert!(
                q.same(v) && qused == used,
                "fast path: {q:?} ({qused} bytes), the driver {v:?} ({used} bytes)"
            ),
            Err(e) => panic!("fast path read what the driver refuses: {e}"),
        }
    }
    match (&owned, &driven) {
        (Ok((v, used)), Ok((d, dused))) => assert!(v.same(d) && used == dused, "decode: driver"),
        (Err(a), Err(b)) => assert_eq!(a, b, "decode: another error than the driver"),
        _ => panic!("decode and the driver disagree"),
    }
    // The validating pass alone (a container is checked whole before a view is returned).
    let (borrowed, peak) = peak_during(|| {
        decode_borrowed(payload, setup.dialect, &setup.options).map(|(v, used)| (v.kind(), used))
    });
    assert_within_budget("decode_borrowed", setup, payload.len(), peak);
    let borrowed_full = decode_borrowed(payload, setup.dialect, &setup.options);
    match (&owned, &borrowed_full) {
        (Ok((v, used)), Ok((r, rused))) => {
            assert_eq!(used, rused, "borrowed: used differs from decode");
            assert_eq!(
                borrowed.as_ref().ok().map(|b| b.0),
                Some(v.kind()),
                "borrowed: kind"
            );
            assert_agrees(r, v, "$");
            assert!(
                r.to_owned().same(v),
                "borrowed: to_owned differs from decode"
            );
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "borrowed: another error than decode"),
        (a, b) => panic!(
            "borrowed: decode gave {:?}, decode_borrowed {:?}",
            a.as_ref().map(|x| x.1),
            b.as_ref().map(|x| x.1)
        ),
    }
    check_engine_mode(setup, payload, &owned);
}

/// Engine mode (`engine_strict`) refuses more than default decoding, never less: what default
/// decoding refuses it refuses with the same error unless an engine refusal comes first; what
/// it accepts, default decoding accepts with the same bytes used; its own refusals are
/// `EngineRefuses`; `decode_borrowed` agrees with `decode` in it too.
fn check_engine_mode(
    setup: &Setup,
    payload: &[u8],
    default: &Result<(Variant, usize), DecodeError>,
) {
    let options = DecodeOptions {
        engine_strict: true,
        ..setup.options.clone()
    };
    let strict = decode(payload, setup.dialect, &options);
    match (default, &strict) {
        (Err(a), Err(b)) => assert!(
            a == b || matches!(b, DecodeError::EngineRefuses { .. }) && b.offset() <= a.offset(),
            "engine mode: {b} where decode says {a}"
        ),
        (Err(a), Ok(_)) => panic!("engine mode accepts what decode refuses: {a}"),
        (Ok((_, used)), Ok((_, strict_used))) => {
            assert_eq!(used, strict_used, "engine mode: bytes used differ")
        }
        (Ok(_), Err(b)) => assert!(
            matches!(b, DecodeError::EngineRefuses { .. }),
            "engine mode refuses with {b} what decode accepts"
        ),
    }
    match (&strict, &decode_borrowed(payload, setup.dialect, &options)) {
        (Ok((v, used)), Ok((r, rused))) => {
            assert_eq!(used, rused, "engine mode: borrowed used differs");
            assert!(r.to_owned().same(v), "engine mode: borrowed value differs");
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "engine mode: borrowed error differs"),
        (a, b) => panic!(
            "engine mode: decode gave {:?}, decode_borrowed {:?}",
            a.as_ref().map(|x| x.1),
            b.as_ref().map(|x| x.1)
        ),
    }
}

/// A borrowed view reads, through its public API, the same tree as the owned value.
fn assert_agrees(r: &VariantRef<'_>, v: &Variant, path: &str) {
    match (r, v) {
        (VariantRef::Array(a), Variant::Array(b)) => {
            assert_eq!(a.len(), b.items.len(), "borrowed: length of {path}");
            assert_eq!(a.typed, b.typed, "borrowed: element type of {path}");
            let mut n = 0;
            for (i, (x, y)) in a.iter().zip(&b.items).enumerate() {
                assert_agrees(&x, y, &format!("{path}[{i}]"));
                n += 1;
            }
            assert_eq!(
                n,
                b.items.len(),
                "borrowed: iteration of {path} stopped early"
            );
        }
        (VariantRef::Dictionary(a), Variant::Dictionary(b)) => {
            assert_eq!(a.len(), b.len(), "borrowed: size of {path}");
            assert_eq!(a.typed(), b.typed(), "borrowed: key/value types of {path}");
            let mut n = 0;
            for (i, ((k, x), (l, y))) in a.iter().zip(b.entries()).enumerate() {
                assert_agrees(&k, l, &format!("{path}.key{i}"));
                assert_agrees(&x, y, &format!("{path}.value{i}"));
                n += 1;
            }
            assert_eq!(n, b.len(), "borrowed: iteration of {path} stopped early");
        }
        _ => assert!(
            r.to_owned().same(v),
            "borrowed: {path} is {r:?}, decode says {v:?}"
        ),
    }
}

// ---------------------------------------------------------------------------------------
// Encode what was decoded.

/// Calls `f` on `v` and every value inside it.
pub fn visit(v: &Variant, f: &mut dyn FnMut(&Variant)) {
    f(v);
    match v {
        Variant::Array(a) => a.items.iter().for_each(|x| visit(x, f)),
        Variant::Dictionary(d) => d.entries().iter().for_each(|(k, x)| {
            visit(k, f);
            visit(x, f);
        }),
        Variant::Object(Object::Full(o)) => o.properties.iter().for_each(|(_, x)| visit(x, f)),
        _ => {}
    }
}

/// Encodes a decoded value back for the engine it came from: full objects as full objects,
/// and (Godot 4) FLAG_64 reals as a `precision=double` build writes them.
pub fn reencode(v: &Variant, setup: &Setup) -> Result<Vec<u8>, EncodeError> {
    let options = EncodeOptions {
        version: Some(setup.version()),
        full_objects: gdvariant::needs_full_objects(v),
        max_depth: Some(setup.options.limits.max_depth.max(1024)),
        ..EncodeOptions::default()
    };
    match encode(v, setup.dialect, &options) {
        Err(EncodeError::InexactReal { .. }) if setup.dialect == Dialect::Godot4 => encode(
            v,
            setup.dialect,
            &EncodeOptions {
                double_precision: true,
                ..options
            },
        ),
        r => r,
    }
}

/// `a` and `b` are the same bit for bit, except that a null Object in `a` may be Nil in `b`:
/// the engines write a null object as a bare NIL (docs/engine-rules.md; `encode_variant`,
/// case OBJECT), so an `OBJECT` header with an empty class comes back as Nil.
fn same_but_null_objects(a: &Variant, b: &Variant) -> bool {
    match (a, b) {
        (Variant::Object(Object::Null), Variant::Nil) => true,
        (Variant::Array(x), Variant::Array(y)) => {
            x.typed == y.typed
                && x.items.len() == y.items.len()
                && x.items
                    .iter()
                    .zip(&y.items)
                    .all(|(p, q)| same_but_null_objects(p, q))
        }
        (Variant::Dictionary(x), Variant::Dictionary(y)) => {
            x.typed() == y.typed()
                && x.len() == y.len()
                && x.entries().iter().zip(y.entries()).all(|((k, p), (l, q))| {
                    same_but_null_objects(k, l) && same_but_null_objects(p, q)
                })
        }
        (Variant::Object(Object::Full(x)), Variant::Object(Object::Full(y))) => {
            x.class == y.class
                && x.properties.len() == y.properties.len()
                && x.properties
                    .iter()
                    .zip(&y.properties)
                    .all(|((m, p), (n, q))| m == n && same_but_null_objects(p, q))
        }
        _ => a.same(b),
    }
}

/// Whether some Dictionary has a null Object as a key.
fn has_null_object_key(v: &Variant) -> bool {
    let mut found = false;
    visit(v, &mut |x| {
        if let Variant::Dictionary(d) = x {
            found |= d
                .entries()
                .iter()
                .any(|(k, _)| matches!(k, Variant::Object(Object::Null)));
        }
    });
    found
}

/// The round trip from a value that has no null-object keys any more.
fn reencode_checked_value(setup: &Setup, v: Variant) -> Option<Vec<u8>> {
    let bytes = reencode(&v, setup).expect("roundtrip: a decoded value does not encode");
    let (w, _) = decode(&bytes, setup.dialect, &setup.options)
        .expect("roundtrip: our own bytes do not decode");
    assert!(
        w.same(&v),
        "roundtrip: value changed\nbefore {v:?}\nafter  {w:?}"
    );
    assert_eq!(
        reencode(&w, setup).expect("second encode"),
        bytes,
        "roundtrip: not a fixed point"
    );
    Some(bytes)
}

/// What decodes re-encodes, the re-encoding decodes to the same value bit for bit, and
/// re-encoding that gives the same bytes again (the engines' output is a fixed point). For
/// input that is already canonical (every fixture the engines wrote) the first re-encoding
/// is the input itself: the fixture test checks that with the engines' bytes.
pub fn check_roundtrip(setup: &Setup, payload: &[u8]) {
    let _ = reencode_checked(setup, payload);
    if let Ok((v, _)) = decode(payload, setup.dialect, &setup.options) {
        check_migrate(setup, &v);
    }
}

/// What `convert --lossy` writes: `migrate` gives every dialect (at its newest version) a
/// value it can encode. (`migrate` is a copy and `migrate_in_place`: one code path.)
pub fn check_migrate(setup: &Setup, v: &Variant) {
    use gdvariant::migrate::{migrate, Target};
    let from = Target::new(setup.dialect, Some(setup.version()));
    for dialect in [Dialect::Godot3, Dialect::Godot4, Dialect::Pandemonium] {
        let to = Target::new(dialect, None);
        let (m, report) = migrate(v, from, to);
        let options = EncodeOptions {
            version: Some(to.version),
            full_objects: true,
            round_reals: true,
            // A packed array that becomes an Array (PackedInt64Array for Godot 3) nests its
            // elements one level deeper.
            max_depth: Some(setup.options.limits.max_depth.max(1024) + 1),
            ..EncodeOptions::default()
        };
        if let Err(e) = encode(&m, dialect, &options) {
            panic!("migrate: the value migrated from {from} to {to} does not encode: {e}\n{v:?}\n{report}");
        }
    }
}

/// [`check_roundtrip`], returning the re-encoding of what decoded (`None` if nothing did).
pub fn reencode_checked(setup: &Setup, payload: &[u8]) -> Option<Vec<u8>> {
    let (v, _) = decode(payload, setup.dialect, &setup.options).ok()?;
    let bytes = reencode(&v, setup)
        .unwrap_or_else(|e| panic!("roundtrip: a decoded value does not encode: {e}\n{v:?}"));
    let (w, used) = decode(&bytes, setup.dialect, &setup.options)
        .unwrap_or_else(|e| panic!("roundtrip: our own bytes do not decode: {e}"));
    assert_eq!(
        used,
        bytes.len(),
        "roundtrip: the re-encoding is not one whole value"
    );
    if has_null_object_key(&v) {
        // A null Object is written as NIL (the engines' rule), so a Dictionary keyed by both
        // a null object and Nil comes back with one entry, as in the engine: start from there.
        return reencode_checked_value(setup, w);
    }
    assert!(
        same_but_null_objects(&v, &w),
        "roundtrip: value changed\nbefore {v:?}\nafter  {w:?}"
    );
    let again = reencode(&w, setup).expect("roundtrip: second encode");
    assert_eq!(again, bytes, "roundtrip: re-encoding is not a fixed point");
    Some(bytes)
}

/// Every check, in the order of the targets.
pub const CHECKS: [(&str, Check); 8] = [
    ("decode", check_decode),
    ("roundtrip", check_roundtrip),
    ("text", check_text),
    ("json", check_json),
    ("framing", check_framing),
    ("codec", check_codec),
    ("explain", check_explain),
    ("guess", check_guess),
];

/// One invariant over one input.
pub type Check = fn(&Setup, &[u8]);

/// Runs `check` on a whole fuzz input (setup bytes first); inputs shorter than the setup are
/// skipped.
pub fn run_input(check: Check, data: &[u8]) {
    if let Some((setup, payload)) = Setup::split(data) {
        check(&setup, payload);
    }
}

/// For the plain (non-libFuzzer) build of a target: runs `check` over every file named on the
/// command line (or in a directory named there), as libFuzzer would over a corpus, and exits
/// with status 1 naming every input whose check failed.
pub fn run_files(check: Check) {
    let mut files = Vec::new();
    for arg in std::env::args_os().skip(1) {
        let path = std::path::PathBuf::from(arg);
        if path.is_dir() {
            let mut v: Vec<_> = std::fs::read_dir(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect();
            v.sort();
            files.extend(v);
        } else {
            files.push(path);
        }
    }
    let mut failed = Vec::new();
    for f in &files {
        let data = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        if std::panic::catch_unwind(|| run_input(check, &data)).is_err() {
            eprintln!("^ failed on {}", f.display());
            failed.push(f);
        }
    }
    eprintln!("checked {} inputs, {} failed", files.len(), failed.len());
    if !failed.is_empty() {
        std::process::exit(1);
    }
}
