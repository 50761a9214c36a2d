//! The tokio-util codec on Godot 3.2.3's own streams: fed in pieces of every size, it yields
//! exactly the values the slice reader finds, and writes the engine's files back byte for byte.

mod common;
use bytes::BytesMut;
use common::*;
use gdvariant::codec::{CodecError, VariantCodec};
use gdvariant::framing::{frames, FrameError, Framing};
use gdvariant::{DecodeOptions, Dialect, EncodeOptions, Variant, Version};
use tokio_util::codec::{Decoder, Encoder};

const G323: Version = Version::new(3, 2, 3);

fn opts() -> DecodeOptions {
    DecodeOptions {
        version: Some(G323),
        keep_leading_bom: true,
        ..DecodeOptions::default()
    }
}

fn codec(framing: Framing) -> VariantCodec {
    VariantCodec::new(&format(framing))
}

/// Godot 3.2.3 values framed as `framing`, as the engine streams were made.
fn format(framing: Framing) -> gdvariant::Format {
    gdvariant::Format {
        dialect: Dialect::Godot3,
        framing,
        decode: opts(),
        encode: EncodeOptions {
            version: Some(G323),
            ..EncodeOptions::default()
        },
    }
}

/// Feeds `bytes` `step` at a time, as a socket would, then signals the end.
fn feed(c: &mut VariantCodec, bytes: &[u8], step: usize) -> Result<Vec<Variant>, CodecError> {
    let mut buf = BytesMut::new();
    let mut out = Vec::new();
    for chunk in bytes.chunks(step) {
        buf.extend_from_slice(chunk);
        while let Some(v) = c.decode(&mut buf)? {
            out.push(v);
        }
    }
    while let Some(v) = c.decode_eof(&mut buf)? {
        out.push(v);
    }
    Ok(out)
}

fn streams() -> Vec<(String, Framing, Vec<u8>)> {
    let dir = fixtures().join("godot3/streams");
    let text = std::fs::read_to_string(dir.join("manifest.jsonl")).unwrap();
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let j: serde_json::Value = serde_json::from_str(l).unwrap();
            let name = j["name"].as_str().unwrap().to_string();
            let framing = if j["framing"] == "PacketPeerStream.put_var" {
                Framing::PacketStream
            } else {
                Framing::StoreVar {
                    big_endian: j["endianness"] == "big",
                }
            };
            let bytes = std::fs::read(dir.join(&name)).unwrap();
            (name, framing, bytes)
        })
        .collect()
}

#[test]
fn the_codec_reads_and_writes_every_engine_stream() {
    for (name, framing, bytes) in streams() {
        let want: Vec<Variant> = frames(&bytes, &format(framing))
            .map(Result::unwrap)
            .collect();
        for step in [1, 2, 5, 64, 1 << 20] {
            let got = feed(&mut codec(framing), &bytes, step).unwrap();
            assert_eq!(got, want, "{name}, {step} bytes at a time");
        }
        let mut c = codec(framing);
        let mut wire = BytesMut::new();
        for v in &want {
            c.encode(v, &mut wire).unwrap();
        }
        assert_eq!(&wire[..], &bytes[..], "{name}: written back");
        // The same values without prefixes, as PacketPeer packets back to back.
        let mut bare = BytesMut::new();
        let mut b = codec(Framing::Bare);
        for v in &want {
            b.encode(v.clone(), &mut bare).unwrap();
        }
        for step in [1, 7, 4096] {
            assert_eq!(
                feed(&mut codec(Framing::Bare), &bare, step).unwrap(),
                want,
                "{name} bare"
            );
        }
    }
}

#[test]
fn errors_carry_stream_offsets() {
    let (_, framing, bytes) = streams().remove(0);
    // Cut in the middle of the third frame: the end of the stream is an error there.
    let first_two: usize = frames(&bytes, &format(framing))
        .with_offsets()
        .take(2)
        .map(|f| f.unwrap().len)
        .sum();
    match feed(&mut codec(framing), &bytes[..first_two + 6], 3) {
        Err(CodecError::Frame(FrameError::Truncated { offset, .. })) => {
            assert_eq!(offset, first_two)
        }
        other => panic!("{other:?}"),
    }
    // A lying prefix is refused as soon as it is seen.
    let mut lying = bytes[..first_two].to_vec();
    lying.extend_from_slice(&[0xff, 0xff, 0xff, 0x7f]);
    match feed(&mut codec(framing).with_max_frame(1 << 20), &lying, 4) {
        Err(CodecError::Frame(FrameError::TooLarge { offset, .. })) => {
            assert_eq!(offset, first_two)
        }
        other => panic!("{other:?}"),
    }
    // A bad payload: the decoder's error, at its offset in the stream.
    let mut bad = bytes[..first_two].to_vec();
    bad.extend_from_slice(&[4, 0, 0, 0, 99, 0, 0, 0]);
    match feed(&mut codec(framing), &bad, 1) {
        Err(CodecError::Frame(FrameError::Decode(e))) => assert_eq!(e.offset(), first_two + 4),
        other => panic!("{other:?}"),
    }
}
