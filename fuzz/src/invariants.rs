//! The fuzzing invariants, in one place: the libFuzzer targets in `fuzz/fuzz_targets/` and the stable test `tests/fuzz_invariants.rs` (which includes this file by path) call these functions.
//!
//! An input is two setup bytes and a payload (see [`Setup::split`]): the first byte picks
//! the dialect and version, objects, BOM handling, framing and limits, the second seeds the
//! chunking of streamed input. Every check panics with a message naming the invariant, so a
//! fuzzer finding or a failing fixture says which promise was broken.
#![allow(dead_code)]

use bytes::BytesMut;
use gdvariant::codec::{CodecError, VariantCodec};
use gdvariant::explain::{explain, ExplainOptions};
use gdvariant::framing::{available, frames, Availability, FrameError, FrameReader, Framing};
use gdvariant::{
    decode, decode_borrowed, encode, from_text, to_text, to_text_exact, DecodeError, DecodeOptions,
    Dialect, EncodeError, EncodeOptions, Limits, Object, Variant, VariantRef, Version,
};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use tokio_util::codec::Decoder;

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

// ---------------------------------------------------------------------------------------
// Text and JSON.

/// `to_text_exact` then `from_text` gives the value back bit for bit (every level, as deep as the
/// decoder goes), and the same text again; `to_text` never fails. The payload
/// is also read as text: what parses prints and parses back to the same text.
pub fn check_text(setup: &Setup, payload: &[u8]) {
    if let Ok((v, _)) = decode(payload, setup.dialect, &setup.options) {
        let _ = to_text(&v, setup.dialect);
        let text = to_text_exact(&v, setup.dialect);
        let back = from_text(&text, setup.dialect)
            .unwrap_or_else(|e| panic!("text: our exact text does not parse: {e}\n{text}"));
        // Exact text keeps everything: keys in their order, Signals, Pandemonium's packed
        // typed arrays, every bit.
        assert!(
            back.same(&v),
            "text: value changed through\n{text}\nbefore {v:?}\nafter  {back:?}"
        );
        let again = to_text_exact(&back, setup.dialect);
        assert_eq!(again, text, "text: not a fixed point");
    }
    let text = String::from_utf8_lossy(payload);
    if let Ok(v) = from_text(&text, setup.dialect) {
        let exact = to_text_exact(&v, setup.dialect);
        let back = from_text(&exact, setup.dialect).unwrap_or_else(|e| {
            panic!("text: exact text of parsed input does not parse: {e}\n{exact}")
        });
        let again = to_text_exact(&back, setup.dialect);
        assert_eq!(again, exact, "text: parsed input is not a fixed point");
        let _ = to_text(&v, setup.dialect);
    }
    check_text_stream(setup, &text);
}

/// What `encode --from text` runs, values encoded as they are parsed (a top-level container
/// element by element), gives the bytes of parsing them all and framing each in turn, and
/// stops where that does: the same text error, or the same value refused with the same error.
fn check_text_stream(setup: &Setup, text: &str) {
    use gdvariant::framing::frame_into;
    use gdvariant::text::{encode_text_many, from_text_many};
    let mut streamed = Vec::new();
    match (
        encode_text_many(text, &setup.format, &mut streamed),
        from_text_many(text, setup.dialect),
    ) {
        (Err(a), Err(b)) => assert_eq!(a, b, "text stream: another text error"),
        (Ok(result), Ok(values)) => {
            let mut want = Vec::new();
            let mut refused = None;
            for (i, v) in values.iter().enumerate() {
                if let Err(e) = frame_into(&mut want, v, &setup.format) {
                    refused = Some((i, e));
                    break;
                }
            }
            assert_eq!(result.err(), refused, "text stream: another refusal");
            assert!(streamed == want, "text stream: other bytes");
        }
        (a, b) => panic!("text stream: {a:?} where the whole parse gives {b:?}"),
    }
}

/// The JSON form is lossless: decoded values go to JSON and back bit for bit, and JSON that
/// parses (the payload read as text) goes to JSON and back bit for bit too.
pub fn check_json(setup: &Setup, payload: &[u8]) {
    use gdvariant::json::{from_json_str, read_values, readers_apart, to_json_string};
    if let Ok((v, _)) = decode(payload, setup.dialect, &setup.options) {
        let json = to_json_string(&v);
        let back = from_json_str(&json)
            .unwrap_or_else(|e| panic!("json: our JSON does not parse: {e}\n{json}"));
        assert!(back.same(&v), "json: value changed through {json}");
        // The hand-written text (`append_json`) is what serde_json writes for the one
        // definition of the form.
        let serde = serde_json::to_string(&gdvariant::json::Json(&v)).expect("string keys");
        assert_eq!(json, serde, "json: hand-written text is not serde_json's");
        // Our own layout never takes the serde reader's longer way, printed compact or
        // pretty (where a `serde_json::Value` sorts the keys).
        assert!(
            readers_apart(&json).0.is_some(),
            "json: the fast reader gave up on {json}"
        );
        let pretty =
            serde_json::to_string_pretty(&gdvariant::json::to_json(&v)).unwrap_or_default();
        let (fast, _) = readers_apart(&pretty);
        assert!(
            fast.is_some_and(|f| f.same(&v)),
            "json: the fast reader misread {pretty}"
        );
    }
    // The JSON written straight from the bytes (`decode --format json`'s first way) is
    // serde_json's text of the decoded value, or nothing (buffer untouched) where the
    // scan cannot vouch, which it never does for bytes the decoder refuses.
    let mut from_bytes = b"x".to_vec();
    let taken = gdvariant::json::append_json_of_bytes(
        &mut from_bytes,
        payload,
        setup.dialect,
        &setup.options,
    );
    match (decode(payload, setup.dialect, &setup.options), taken) {
        (Ok((v, used)), Some(n)) => {
            assert_eq!(n, used, "json: the walk used other bytes than decode");
            let serde = serde_json::to_string(&gdvariant::json::Json(&v)).expect("string keys");
            assert_eq!(
                from_bytes[1..],
                *serde.as_bytes(),
                "json: the walk's text is not serde_json's"
            );
        }
        (Err(e), Some(_)) => panic!("json: the walk took bytes decode refuses: {e}"),
        (_, None) => assert_eq!(from_bytes, b"x", "json: the walk left text behind"),
    }
    let text = String::from_utf8_lossy(payload);
    // Where the fast reader of our layout reads anything, the serde reader reads the same.
    if let (Some(fast), serde) = readers_apart(&text) {
        let serde =
            serde.unwrap_or_else(|e| panic!("json: fast reader took what serde refuses: {e}"));
        assert!(
            fast.same(&serde),
            "json: the readers differ: {fast:?} vs {serde:?}"
        );
    }
    if let Ok(v) = from_json_str(&text) {
        let json = to_json_string(&v);
        let back = from_json_str(&json).expect("json: our JSON of parsed input");
        assert!(back.same(&v), "json: parsed value changed through {json}");
    }
    // A stream of JSON values: each that parses prints again.
    for v in read_values(payload).take(64).flatten() {
        let _ = to_json_string(&v);
    }
    // `encode --from json` (`encode_values_on`): the frames of a stream, on one thread and
    // on two, are `frame_into` of the values `read_values` reads, refusals and errors alike.
    let format = gdvariant::Format {
        dialect: setup.dialect,
        framing: setup.framing,
        ..Default::default()
    };
    let whole: Vec<_> = read_values(payload)
        .take(64)
        .map(|r| {
            r.map(|v| {
                let mut b = Vec::new();
                gdvariant::framing::frame_into(&mut b, &v, &format).map(|()| b)
            })
        })
        .collect();
    for threads in [1, 2] {
        let framed: Vec<_> = gdvariant::json::encode_values_on(payload, threads, &format)
            .take(64)
            .collect();
        assert!(
            framed == whole,
            "json: encode_values_on on {threads} thread(s) is not frame_into of read_values"
        );
    }
    // `encode_values_to` (what the command runs): the frames of every value up to the first
    // error, written; then that error, a refusal with its value's number or the reader's.
    let (mut want, mut stop, mut n) = (Vec::new(), None, 0);
    for r in read_values(payload) {
        match r {
            Ok(v) => match gdvariant::framing::frame_into(&mut want, &v, &format) {
                Ok(()) => n += 1,
                Err(_) => {
                    stop = Some(format!("value {}", n + 1));
                    break;
                }
            },
            Err(e) => {
                stop = Some(e.to_string());
                break;
            }
        }
    }
    for threads in [1, 2] {
        let mut out = Vec::new();
        let r = gdvariant::json::encode_values_to(payload, threads, &format, &mut out);
        assert!(
            out == want,
            "json: encode_values_to on {threads} thread(s) wrote other frames"
        );
        match (&r, &stop) {
            (Ok(got), None) => assert_eq!(*got, n, "json: encode_values_to's count"),
            (Err(gdvariant::json::EncodeToError::Encode { value, .. }), Some(s)) => {
                assert_eq!(
                    &format!("value {value}"),
                    s,
                    "json: encode_values_to's refusal"
                )
            }
            (Err(gdvariant::json::EncodeToError::Json(e)), Some(s)) => {
                assert_eq!(&e.to_string(), s, "json: encode_values_to's reader error")
            }
            _ => panic!("json: encode_values_to gave {r:?}, read_values stopped at {stop:?}"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Framing, the codec, explain, guess.

/// The sizes streamed input arrives in: 1 to 64 bytes, from a small deterministic generator.
pub fn chunks(payload: &[u8], seed: u8) -> Vec<&[u8]> {
    let mut state = u32::from(seed).wrapping_mul(2_654_435_761) | 1;
    let mut out = Vec::new();
    let mut rest = payload;
    while !rest.is_empty() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let n = (state % 64 + 1) as usize;
        let (a, b) = rest.split_at(n.min(rest.len()));
        out.push(a);
        rest = b;
    }
    out
}

/// What a reader of framed input saw: the values, then the error that stopped it.
#[derive(Debug)]
struct Seen {
    values: Vec<Variant>,
    error: Option<usize>,
    /// The error was the reader's frame limit (`FrameError::TooLarge`), a policy of
    /// streaming readers that `frames` over a slice does not have.
    too_large: bool,
}

impl Seen {
    fn assert_same(&self, other: &Seen, what: &str) {
        assert_eq!(
            self.values.len(),
            other.values.len(),
            "{what}: another number of values than frames()"
        );
        for (i, (a, b)) in self.values.iter().zip(&other.values).enumerate() {
            assert!(
                a.same(b),
                "{what}: value {i} differs from frames(): {a:?} vs {b:?}"
            );
        }
        if self.too_large {
            assert!(
                other.error.is_some(),
                "{what}: frame limit hit on input that frames() reads whole"
            );
        } else {
            assert_eq!(
                self.error, other.error,
                "{what}: another error offset than frames()"
            );
        }
    }
}

/// A reader that hands out the payload in the given pieces.
struct Pieces<'a> {
    pieces: std::vec::IntoIter<&'a [u8]>,
    current: &'a [u8],
}

impl std::io::Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.current.is_empty() {
            match self.pieces.next() {
                Some(p) => self.current = p,
                None => return Ok(0),
            }
        }
        let n = buf.len().min(self.current.len());
        buf[..n].copy_from_slice(&self.current[..n]);
        self.current = &self.current[n..];
        Ok(n)
    }
}

/// `frames` over the whole input, `FrameReader` over the input in pieces, and `available`
/// at every frame boundary agree; the reader stays within the memory budget.
pub fn check_framing(setup: &Setup, payload: &[u8]) {
    let mut slice = Seen {
        values: Vec::new(),
        error: None,
        too_large: false,
    };
    let mut bounds = Vec::new();
    for f in frames(payload, setup.format()).with_offsets() {
        match f {
            Ok(f) => {
                assert!(
                    f.offset + f.len <= payload.len(),
                    "frames: frame past the end"
                );
                bounds.push((f.offset, f.len));
                slice.values.push(f.value);
            }
            Err(e) => {
                assert!(
                    e.offset() <= payload.len(),
                    "frames: error past the end: {e}"
                );
                slice.error = Some(e.offset());
                break;
            }
        }
    }
    let (streamed, peak) = peak_during(|| {
        let reader = Pieces {
            pieces: chunks(payload, setup.chunk_seed).into_iter(),
            current: &[],
        };
        let mut seen = Seen {
            values: Vec::new(),
            error: None,
            too_large: false,
        };
        for f in FrameReader::new(reader, setup.format()) {
            match f {
                Ok(v) => seen.values.push(v),
                Err(e) => {
                    seen.error = Some(e.offset());
                    seen.too_large = matches!(e, FrameError::TooLarge { .. });
                    break;
                }
            }
        }
        seen
    });
    streamed.assert_same(&slice, "FrameReader");
    assert_within_budget("FrameReader", setup, payload.len(), peak);
    // `next_frame_or` with the JSON walk taking the frames it can (`decode --format json`):
    // the same frames as the same text, and the same error at the same offset.
    let mut reader = FrameReader::new(
        Pieces {
            pieces: chunks(payload, setup.chunk_seed).into_iter(),
            current: &[],
        },
        setup.format(),
    );
    let (dialect, options) = (setup.format().dialect, &setup.format().decode);
    let (mut texts, mut error) = (Vec::new(), None);
    loop {
        let mut buf = Vec::new();
        let Some(f) = reader.next_frame_or(|p| {
            gdvariant::json::append_json_of_bytes(&mut buf, p, dialect, options).is_some()
        }) else {
            break;
        };
        match f {
            Ok(None) => texts.push(String::from_utf8(buf).expect("JSON text is UTF-8")),
            Ok(Some(frame)) => texts.push(gdvariant::json::to_json_string(&frame.value)),
            Err(e) => {
                error = Some(e.offset());
                break;
            }
        }
    }
    let expected: Vec<String> = streamed
        .values
        .iter()
        .map(gdvariant::json::to_json_string)
        .collect();
    assert_eq!(
        texts, expected,
        "next_frame_or: other frames than FrameReader's"
    );
    assert_eq!(error, streamed.error, "next_frame_or: another error offset");
    // Payloads read ahead undecoded and decoded afterwards with `decode_frame` (how `decode`
    // prints frames on several threads): the same values, and the same first error.
    if setup.framing != Framing::Bare {
        let mut reader = FrameReader::new(payload, setup.format());
        let (mut read, mut error) = (Vec::new(), None);
        loop {
            let at = reader.offset();
            let mut taken = None;
            match reader.next_frame_or(|p| {
                taken = Some(p.to_vec());
                true
            }) {
                None => break,
                Some(Ok(_)) => read.push((at, taken.expect("a prefixed payload is offered"))),
                Some(Err(e)) => {
                    error = Some(e.offset());
                    break;
                }
            }
        }
        let mut values = Vec::new();
        for (at, p) in &read {
            match gdvariant::framing::decode_frame(p, *at, setup.format()) {
                Ok(f) => values.push(f.value),
                Err(e) => {
                    error = Some(e.offset());
                    break;
                }
            }
        }
        let ahead = Seen {
            values,
            error,
            too_large: false,
        };
        streamed.assert_same(&ahead, "decode_frame");
    }
    for &(offset, len) in &bounds {
        let frame = &payload[offset..offset + len];
        let whole = available(frame, setup.format(), usize::MAX);
        // A bare value that ends in a PackedByteArray without its padding is whole only at
        // the end of the input (`available` documents this): the engine accepts it there.
        let at_end = offset + len == payload.len();
        if setup.framing == Framing::Bare
            && at_end
            && matches!(whole, Ok(Availability::NeedMore { .. }))
        {
            continue;
        }
        assert!(
            matches!(whole, Ok(Availability::Complete { len: l }) if l == len),
            "available: a whole frame of {len} bytes at {offset:#x} gives {whole:?}"
        );
        if len > 0 {
            let part = available(&frame[..len - 1], setup.format(), usize::MAX);
            assert!(
                matches!(part, Ok(Availability::NeedMore { needed }) if needed >= 1),
                "available: the frame at {offset:#x} less its last byte gives {part:?}"
            );
        }
    }
}

/// The tokio codec fed the input in pieces yields what `frames` reads from the whole input,
/// and stays within the memory budget however the input is cut.
pub fn check_codec(setup: &Setup, payload: &[u8]) {
    let mut slice = Seen {
        values: Vec::new(),
        error: None,
        too_large: false,
    };
    for f in frames(payload, setup.format()) {
        match f {
            Ok(v) => slice.values.push(v),
            Err(e) => {
                slice.error = Some(e.offset());
                break;
            }
        }
    }
    let (seen, peak) = peak_during(|| {
        // With the default limit (256 MiB) the codec reserves whatever a length prefix or a
        // count claims, up to that limit: known finding, fix pending (tests/fuzz_regressions.rs,
        // `a_lying_prefix_does_not_make_the_codec_reserve_it`). A limit a little above the
        // input keeps the budget meaningful for everything else; a claim beyond it is a
        // `TooLarge` error, which `frames` must also see as an error.
        let mut codec = VariantCodec::new(setup.format()).with_max_frame(2 * payload.len() + 64);
        let mut buf = BytesMut::new();
        let mut seen = Seen {
            values: Vec::new(),
            error: None,
            too_large: false,
        };
        let mut failed = false;
        'feed: for piece in chunks(payload, setup.chunk_seed) {
            buf.extend_from_slice(piece);
            loop {
                match codec.decode(&mut buf) {
                    Ok(Some(v)) => seen.values.push(v),
                    Ok(None) => break,
                    Err(e) => {
                        seen.too_large =
                            matches!(&e, CodecError::Frame(FrameError::TooLarge { .. }));
                        seen.error = Some(codec_offset(&e));
                        failed = true;
                        break 'feed;
                    }
                }
            }
        }
        while !failed {
            match codec.decode_eof(&mut buf) {
                Ok(Some(v)) => seen.values.push(v),
                Ok(None) => break,
                Err(e) => {
                    seen.too_large = matches!(&e, CodecError::Frame(FrameError::TooLarge { .. }));
                    seen.error = Some(codec_offset(&e));
                    failed = true;
                }
            }
        }
        seen
    });
    seen.assert_same(&slice, "VariantCodec");
    assert_within_budget("VariantCodec", setup, payload.len(), peak);
}

fn codec_offset(e: &CodecError) -> usize {
    match e {
        CodecError::Frame(f) => f.offset(),
        other => panic!("codec: a decoder error that is not about the input: {other}"),
    }
}

/// `explain` walks exactly as far as `frames` reads: the same number of values and the same
/// error offset; its fields lie inside the input.
pub fn check_explain(setup: &Setup, payload: &[u8]) {
    let mut values = 0;
    let mut error = None;
    for f in frames(payload, setup.format()) {
        match f {
            Ok(_) => values += 1,
            Err(e) => {
                error = Some(e.offset());
                break;
            }
        }
    }
    let options = ExplainOptions {
        dialect: setup.dialect,
        decode: setup.options.clone(),
        framing: setup.framing,
        max_elements: 16,
    };
    let x = explain(payload, &options);
    assert_eq!(
        x.values, values,
        "explain: another number of values than frames()"
    );
    assert_eq!(
        x.error.as_ref().map(|e| e.offset()),
        error,
        "explain: another error offset than frames()"
    );
    for l in &x.lines {
        assert!(
            l.offset <= payload.len(),
            "explain: field {} at {:#x} past the end",
            l.field,
            l.offset
        );
    }
}

/// `guess` reads the sample it says, ranks a complete reading first whenever there is one,
/// and claims high confidence only for a reading that uses every byte. (It tries every
/// dialect and framing itself: the setup is not used.)
pub fn check_guess(_: &Setup, payload: &[u8]) {
    let g = gdvariant::guess::guess(payload, None);
    assert_eq!(
        g.total,
        payload.len().min(gdvariant::guess::SAMPLE),
        "guess: total"
    );
    assert_eq!(g.size, payload.len(), "guess: size");
    // `best` is the top candidate with its era widened over the versions that tie with it.
    let top = &g.candidates[0];
    assert!(
        (
            g.best.era.dialect,
            g.best.framing,
            g.best.values,
            g.best.used,
            &g.best.error
        ) == (
            top.era.dialect,
            top.framing,
            top.values,
            top.used,
            &top.error
        ),
        "guess: best is not the top candidate"
    );
    let any_complete = g.candidates.iter().any(|c| c.complete(g.total));
    assert_eq!(
        g.best.complete(g.total),
        any_complete,
        "guess: a complete reading is not ranked first"
    );
    if g.confidence == gdvariant::guess::Confidence::High {
        assert!(
            g.best.complete(g.total),
            "guess: high confidence in an incomplete reading"
        );
    }
    for c in &g.candidates {
        assert!(
            c.used <= g.total,
            "guess: {} used {} of {}",
            c.era,
            c.used,
            g.total
        );
    }
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
