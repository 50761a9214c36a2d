//! Framing against engine-made streams: Godot 3.2.3's `File.store_var` (both byte orders),
//! `StreamPeerBuffer.put_var`, `PacketPeerStream.put_var` and a savegame, read whole, read
//! in dribbles, checked for availability byte by byte, and written back byte for byte.

mod common;
use common::*;
use gdvariant::framing::{
    available, frame_into, frames, Availability, FrameError, FrameReader, Framing,
    DEFAULT_MAX_FRAME,
};
use gdvariant::{DecodeOptions, Dialect, EncodeOptions, Variant, Version};
use std::io::Read;

const G323: Version = Version::new(3, 2, 3);

struct Stream {
    name: String,
    framing: Framing,
    bytes: Vec<u8>,
    /// The engine's `var2bytes` of each value, in order (from the manifest).
    values: Vec<Vec<u8>>,
}

/// The engine's framing names (manifest `framing` + `endianness`) as ours.
fn streams() -> Vec<Stream> {
    let dir = fixtures().join("godot3/streams");
    let text = std::fs::read_to_string(dir.join("manifest.jsonl")).expect("streams manifest");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let j: serde_json::Value = serde_json::from_str(l).unwrap();
            let name = j["name"].as_str().unwrap().to_string();
            let big = j["endianness"] == "big";
            let framing = match j["framing"].as_str().unwrap() {
                "PacketPeerStream.put_var" => Framing::PacketStream,
                "File.store_var" | "StreamPeer.put_var" => Framing::StoreVar { big_endian: big },
                other => panic!("{name}: unknown framing {other}"),
            };
            let values = j["value_hex"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| unhex(h.as_str().unwrap()))
                .collect();
            Stream {
                bytes: std::fs::read(dir.join(&name)).unwrap(),
                name,
                framing,
                values,
            }
        })
        .collect()
}

fn g3() -> DecodeOptions {
    DecodeOptions {
        version: Some(G323),
        keep_leading_bom: true,
        ..DecodeOptions::default()
    }
}

#[test]
fn engine_streams_have_the_expected_shapes() {
    let s = streams();
    assert_eq!(s.len(), 6, "six engine-made stream files");
    let kinds: Vec<Framing> = s.iter().map(|s| s.framing).collect();
    assert!(kinds.contains(&Framing::StoreVar { big_endian: true }));
    assert!(kinds.contains(&Framing::PacketStream));
    assert!(s.iter().all(|s| s.values.len() >= 5));
}

/// Every frame's payload is exactly the engine's `var2bytes` of that value, and writing the
/// decoded values back with the same framing gives the engine's file byte for byte.
#[test]
fn slices_read_and_write_every_engine_stream_exactly() {
    let opts = g3();
    let mut bad = Mismatches::default();
    let all = streams();
    for s in &all {
        let got: Result<Vec<_>, _> =
            frames(&s.bytes, &fmt(Dialect::Godot3, s.framing, opts.clone()))
                .with_offsets()
                .collect();
        let got = match got {
            Ok(g) => g,
            Err(e) => {
                bad.push(&s.name, e);
                continue;
            }
        };
        if got.len() != s.values.len() {
            bad.push(
                &s.name,
                format!("{} frames, want {}", got.len(), s.values.len()),
            );
            continue;
        }
        let mut written = Vec::new();
        for (f, want) in got.iter().zip(&s.values) {
            let payload = &s.bytes[f.payload_offset(s.framing)..f.offset + f.len];
            if payload != &want[..] {
                bad.push(&s.name, format!("frame at {:#x} differs", f.offset));
            }
            let eopts = EncodeOptions {
                version: Some(G323),
                ..EncodeOptions::default()
            };
            frame_into(
                &mut written,
                &f.value,
                &fmt_out(Dialect::Godot3, s.framing, eopts.clone()),
            )
            .unwrap();
        }
        if written != s.bytes {
            bad.push(&s.name, "re-framed bytes differ from the engine's file");
        }
    }
    bad.check(all.len());
}

/// A reader that hands out at most `step` bytes per call, like a slow socket.
struct Dribble<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Dribble<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn the_streaming_reader_agrees_with_the_slice_reader_at_any_read_size() {
    for s in streams() {
        let whole: Vec<Variant> = frames(&s.bytes, &fmt(Dialect::Godot3, s.framing, g3()))
            .map(Result::unwrap)
            .collect();
        for step in [1, 3, 4, 7, 4096] {
            let r = FrameReader::new(
                Dribble {
                    data: &s.bytes,
                    step,
                },
                &fmt(Dialect::Godot3, s.framing, g3()),
            );
            let got: Vec<Variant> = r.map(Result::unwrap).collect();
            assert_eq!(got, whole, "{} read {step} bytes at a time", s.name);
        }
    }
}

/// The same values without prefixes (`PacketPeer.put_var` packets back to back): the reader
/// has to find each value's end by decoding.
#[test]
fn bare_values_stream_too() {
    let s = &streams()[0];
    let bare: Vec<u8> = s.values.concat();
    let whole: Vec<Variant> = frames(&bare, &fmt(Dialect::Godot3, Framing::Bare, g3()))
        .map(Result::unwrap)
        .collect();
    assert_eq!(whole.len(), s.values.len());
    for step in [1, 5, 64] {
        let r = FrameReader::new(
            Dribble { data: &bare, step },
            &fmt(Dialect::Godot3, Framing::Bare, g3()),
        );
        let got: Vec<Variant> = r.map(Result::unwrap).collect();
        assert_eq!(got, whole, "bare, {step} bytes at a time");
    }
}

/// Feeding a stream one byte at a time, `available` says "need more" (never an error) until
/// each frame is whole, then gives exactly that frame's length.
#[test]
fn availability_is_need_more_until_each_frame_is_whole() {
    for s in streams() {
        let lens: Vec<usize> = frames(&s.bytes, &fmt(Dialect::Godot3, s.framing, g3()))
            .with_offsets()
            .map(|f| f.unwrap().len)
            .collect();
        check_availability(&s.name, &s.bytes, s.framing, &lens);
        let bare: Vec<u8> = s.values.concat();
        let bare_lens: Vec<usize> = s.values.iter().map(Vec::len).collect();
        check_availability(&s.name, &bare, Framing::Bare, &bare_lens);
    }
}

fn check_availability(name: &str, bytes: &[u8], framing: Framing, lens: &[usize]) {
    let mut start = 0;
    for &len in lens {
        for have in 0..len {
            let a = available(
                &bytes[start..start + have],
                &gdvariant::Format {
                    dialect: Dialect::Godot3,
                    framing,
                    decode: g3().clone(),
                    encode: Default::default(),
                },
                DEFAULT_MAX_FRAME,
            );
            match a {
                Ok(Availability::NeedMore { needed }) => {
                    assert!(
                        needed >= 1 && needed <= len - have,
                        "{name}: needed {needed} with {have} of {len}"
                    )
                }
                other => panic!("{name} ({framing}): {other:?} with {have} of {len} bytes"),
            }
        }
        let a = available(
            &bytes[start..start + len],
            &gdvariant::Format {
                dialect: Dialect::Godot3,
                framing,
                decode: g3().clone(),
                encode: Default::default(),
            },
            DEFAULT_MAX_FRAME,
        );
        assert_eq!(a.unwrap(), Availability::Complete { len }, "{name}");
        start += len;
    }
}

/// Reference §8.3 #37–#39: `File.store_var(null)` and `store_var(42)` in Godot 3.3
/// (godot-docs issue #4945), `put_var("asd")` from the PR #17257 text.
#[test]
fn engine_vectors_from_issue_reports() {
    let e = EncodeOptions::default();
    let mut out = Vec::new();
    frame_into(
        &mut out,
        &Variant::Nil,
        &fmt_out(Dialect::Godot3, Framing::STORE_VAR, e.clone()),
    )
    .unwrap();
    assert_eq!(out, unhex("0400000000000000"));
    out.clear();
    frame_into(
        &mut out,
        &Variant::Int(42),
        &fmt_out(Dialect::Godot3, Framing::STORE_VAR, e.clone()),
    )
    .unwrap();
    assert_eq!(out, unhex("08000000020000002a000000"));
    out.clear();
    frame_into(
        &mut out,
        &"asd".into(),
        &fmt_out(Dialect::Godot3, Framing::STORE_VAR, e.clone()),
    )
    .unwrap();
    assert_eq!(out, unhex("0c000000040000000300000061736400"));
}

#[test]
fn truncated_and_lying_frames_are_errors_with_offsets() {
    let s = &streams()[0];
    // Cut inside the third frame.
    let lens: Vec<usize> = frames(&s.bytes, &fmt(Dialect::Godot3, s.framing, g3()))
        .with_offsets()
        .map(|f| f.unwrap().len)
        .collect();
    let third = lens[0] + lens[1];
    let cut = &s.bytes[..third + 6];
    let r: Vec<_> = frames(cut, &fmt(Dialect::Godot3, s.framing, g3()))
        .with_offsets()
        .collect();
    assert_eq!(r.len(), 3);
    match &r[2] {
        Err(FrameError::Truncated { offset, needed }) => {
            assert_eq!(*offset, third);
            assert_eq!(*needed, lens[2] - 6);
        }
        other => panic!("{other:?}"),
    }
    // A prefix of 0xffffffff: the streaming reader refuses it before reading anything more.
    let lying = [0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0];
    let mut r = FrameReader::new(&lying[..], &fmt(Dialect::Godot3, Framing::STORE_VAR, g3()))
        .with_offsets();
    assert!(matches!(
        r.next(),
        Some(Err(FrameError::TooLarge { offset: 0, .. }))
    ));
    assert!(r.next().is_none(), "the reader stops after an error");
    // A payload that does not decode: the error offset is absolute in the file.
    let bad = [4, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 99, 0, 0, 0, 0, 0, 0, 0];
    let r: Vec<_> = frames(&bad, &fmt(Dialect::Godot3, Framing::STORE_VAR, g3()))
        .with_offsets()
        .collect();
    match &r[1] {
        Err(FrameError::Decode(e)) => assert_eq!(e.offset(), 12, "{e}"),
        other => panic!("{other:?}"),
    }
}

/// Random bytes and every cut of an engine stream: errors, never panics, in every framing.
#[test]
fn garbage_never_panics() {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let framings = [
        Framing::Bare,
        Framing::STORE_VAR,
        Framing::StoreVar { big_endian: true },
        Framing::PacketStream,
    ];
    for _ in 0..2000 {
        let len = (next() % 64) as usize;
        let mut b: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        if len > 0 {
            b[0] %= 40;
        }
        for f in framings {
            for d in Dialect::ALL {
                let _ = frames(&b, &fmt(d, f, DecodeOptions::default())).count();
                let _ = FrameReader::new(&b[..], &fmt(d, f, DecodeOptions::default())).count();
                let _ = available(&b, &fmt(d, f, DecodeOptions::default()), 1 << 20);
            }
        }
    }
    let s = &streams()[5];
    for cut in 0..s.bytes.len() {
        let _ = frames(&s.bytes[..cut], &fmt(Dialect::Godot3, s.framing, g3())).count();
    }
}

/// Every small value of the Godot 3.2.3 corpus, bare: each cut of it is "need more", the
/// whole is complete (the engine's values cover every type, so every length rule is met).
#[test]
fn availability_of_every_small_godot3_value() {
    let mut n = 0;
    for f in load("godot3").iter().filter(|f| f.bytes.len() <= 256) {
        let full = f.bool("full_objects");
        let opts = DecodeOptions {
            allow_objects: full,
            ..g3()
        };
        for have in 0..f.bytes.len() {
            match available(
                &f.bytes[..have],
                &fmt(Dialect::Godot3, Framing::Bare, opts.clone()),
                1 << 20,
            ) {
                Ok(Availability::NeedMore { .. }) => {}
                other => panic!(
                    "{}: {other:?} with {have} of {} bytes",
                    f.name,
                    f.bytes.len()
                ),
            }
        }
        let a = available(
            &f.bytes,
            &fmt(Dialect::Godot3, Framing::Bare, opts.clone()),
            1 << 20,
        );
        assert_eq!(
            a.unwrap(),
            Availability::Complete { len: f.bytes.len() },
            "{}",
            f.name
        );
        n += 1;
    }
    assert!(n > 200, "{n} values checked");
}

/// The format of the reading calls: `dialect` values framed as `framing`.
fn fmt(dialect: Dialect, framing: Framing, decode: DecodeOptions) -> gdvariant::Format {
    gdvariant::Format {
        dialect,
        framing,
        decode,
        encode: EncodeOptions::default(),
    }
}

/// The format of the writing calls.
fn fmt_out(dialect: Dialect, framing: Framing, encode: EncodeOptions) -> gdvariant::Format {
    gdvariant::Format {
        dialect,
        framing,
        decode: DecodeOptions::default(),
        encode,
    }
}
