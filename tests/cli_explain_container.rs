//! `gdvariant explain` on encrypted and compressed saves: the header fields it prints are
//! checked against the engine-made files' own bytes at the printed offsets, then the values
//! inside are explained at their offsets in the plain data.
#![cfg(feature = "cli")]

mod cli_util;
use cli_util::*;
use gdvariant::container::{compressed, open, Key, OpenOptions};

const PASSWORD: &str = "correct horse";
const ENGINES: [&str; 2] = ["godot3.2.3", "godot4.4.1"];

/// One printed header row: offset, length, field, value.
#[derive(Debug)]
struct Row {
    offset: usize,
    len: usize,
    field: String,
    value: String,
    description: String,
}

/// The header rows: the lines between "container header" and the plain data's title line.
fn header_rows(out: &str) -> Vec<Row> {
    let mut lines = out.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .ends_with("container header (offsets in the file)"),
        "{out}"
    );
    assert!(lines.next().unwrap().starts_with("offset"));
    lines
        .take_while(|l| !l.contains(": ") || l.chars().next().unwrap().is_ascii_hexdigit())
        .take_while(|l| !l.contains("bytes of plain data inside"))
        .map(|l| {
            let (offset, rest) = l.split_once(' ').unwrap();
            let rest = rest.trim_start();
            let (len, rest) = rest.split_once(' ').unwrap();
            let parts: Vec<&str> = rest
                .split("  ")
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .collect();
            Row {
                offset: usize::from_str_radix(offset, 16).unwrap(),
                len: len.parse().unwrap(),
                field: parts[0].to_string(),
                value: parts.get(1).unwrap_or(&"").to_string(),
                description: parts.get(2).unwrap_or(&"").to_string(),
            }
        })
        .collect()
}

fn row<'a>(rows: &'a [Row], field: &str) -> &'a Row {
    rows.iter()
        .find(|r| r.field == field)
        .unwrap_or_else(|| panic!("no {field} in {rows:?}"))
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn compressed_headers_match_the_engines_bytes() {
    for engine in ENGINES {
        for tag in ["fastlz", "deflate", "zstd", "gzip"] {
            let path = format!("tests/fixtures/containers/{engine}/compressed-{tag}.bin");
            let file = std::fs::read(&path).unwrap();
            let r = run(&["explain", "--framing", "store-var", &path], b"");
            assert_eq!(r.code, 0, "{path}: {}", r.stderr);
            let out = r.text();
            let rows = header_rows(&out);
            assert_eq!(&file[..4], b"GCPF");
            let mode = row(&rows, "mode");
            assert_eq!(mode.offset, 4);
            assert!(
                mode.value.starts_with(&format!("{} (", u32_at(&file, 4))),
                "{mode:?}"
            );
            for field in ["block size", "plain length"] {
                let r = row(&rows, field);
                assert_eq!(
                    r.value,
                    u32_at(&file, r.offset).to_string(),
                    "{path} {field}"
                );
            }
            let header = compressed::header(&file, compressed::DEFAULT_BOUND).unwrap();
            let mut blocks = 0;
            for (i, size) in header.block_sizes.iter().enumerate() {
                let entry = row(&rows, &format!("[{i}]"));
                assert_eq!(entry.value, u32_at(&file, entry.offset).to_string());
                assert_eq!(entry.value, size.to_string());
                // The entry names where its block starts; the block's row is there.
                let at = entry.description.rsplit("0x").next().unwrap();
                let at = usize::from_str_radix(at, 16).unwrap();
                let block = row(&rows, &format!("block {i}"));
                assert_eq!((block.offset, block.len), (at, *size as usize), "{path}");
                blocks += 1;
            }
            assert_eq!(blocks, header.block_sizes.len());
            let last = rows.last().unwrap();
            assert_eq!(
                (last.field.as_str(), last.offset),
                ("magic", file.len() - 4)
            );
            assert_eq!(&file[last.offset..], b"GCPF");
            // Then the values, at their offsets in the plain data.
            let plain = compressed::read(&file, compressed::DEFAULT_BOUND).unwrap();
            assert!(
                out.contains(&format!(
                    "{} bytes of plain data inside (offsets in the plain data)",
                    plain.len()
                )),
                "{out}"
            );
            let first = format!(
                "00000000     4  frame length          {}",
                u32_at(&plain, 0)
            );
            assert!(out.contains(&first), "{out}");
        }
    }
}

#[test]
fn encrypted_headers_match_the_engines_bytes() {
    for engine in ENGINES {
        let path = format!("tests/fixtures/containers/{engine}/encrypted-pass.bin");
        let file = std::fs::read(&path).unwrap();
        let r = run(
            &[
                "explain",
                "--framing",
                "store-var",
                "--password",
                PASSWORD,
                &path,
            ],
            b"",
        );
        assert_eq!(r.code, 0, "{path}: {}", r.stderr);
        let out = r.text();
        let rows = header_rows(&out);
        assert_eq!(row(&rows, "magic").offset, 0);
        let md5 = row(&rows, "md5");
        assert_eq!(md5.value, hex(&file[md5.offset..md5.offset + 16]));
        let length = row(&rows, "plain length");
        let plain_len = u64::from_le_bytes(file[length.offset..][..8].try_into().unwrap());
        assert_eq!(length.value, plain_len.to_string());
        let plain = open(
            &file,
            &OpenOptions {
                key: Some(Key::password(PASSWORD)),
                ..OpenOptions::default()
            },
        )
        .unwrap();
        assert_eq!(plain_len, plain.len() as u64);
        let data = row(&rows, "ciphertext");
        assert_eq!(data.offset + data.len, file.len(), "{path}");
        assert_eq!(data.len, plain.len().div_ceil(16) * 16);
        let padding = row(&rows, "padding");
        assert_eq!(padding.offset, data.offset + plain.len());
        if engine.starts_with("godot3") {
            assert_eq!(row(&rows, "mode").offset, 4);
            assert_eq!(u32_at(&file, 4), 1);
            assert_eq!((md5.offset, length.offset, data.offset), (8, 24, 32));
            assert!(rows.iter().all(|r| r.field != "iv"));
        } else {
            let iv = row(&rows, "iv");
            assert_eq!(iv.value, hex(&file[iv.offset..iv.offset + 16]));
            assert_eq!((md5.offset, length.offset, iv.offset), (4, 20, 28));
            assert_eq!(data.offset, 44);
        }
        let first = format!(
            "00000000     4  frame length          {}",
            u32_at(&plain, 0)
        );
        assert!(out.contains(&first), "{out}");
        // Without the password: the header, then the error naming what is needed.
        let r = run(&["explain", &path], b"");
        assert_ne!(r.code, 0);
        assert_eq!(header_rows(&r.text()).len(), rows.len(), "{}", r.text());
        assert!(r.stderr.contains("password needed"), "{}", r.stderr);
    }
}
