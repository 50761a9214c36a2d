//! `gdvariant explain` of engine-made resource files: every line of a `.res` dump is read
//! back from the printed text and checked against the file's bytes at its offset (numbers,
//! strings, type ids, string-table names, math components), and the lines cover every byte
//! exactly once; a `.tres` is listed section by section with its line numbers.
#![cfg(feature = "cli")]

mod cli_util;
use cli_util::*;

/// One printed row: offset, length, field label, value, description.
struct Row {
    offset: usize,
    len: usize,
    field: String,
    value: String,
    what: String,
}

/// The rows of the dump, cut by the header's column positions.
fn rows(out: &str) -> Vec<Row> {
    let mut lines = out.lines();
    lines.next(); // the file line
    let header = lines.next().expect("table header");
    let field_col = header.find("field").unwrap();
    let value_col = header.find("value").unwrap();
    let mut rows = Vec::new();
    for l in lines {
        if l == "every byte explained" {
            return rows;
        }
        let rest = &l[value_col..];
        let (value, what) = match rest.find("  ") {
            Some(at) => (&rest[..at], rest[at..].trim_start()),
            None => (rest, ""),
        };
        rows.push(Row {
            offset: usize::from_str_radix(&l[..8], 16).unwrap(),
            len: l[9..14].trim().parse().unwrap(),
            field: l[field_col..value_col].trim().to_string(),
            value: value.trim_end().to_string(),
            what: what.to_string(),
        });
    }
    panic!("the dump does not end with `every byte explained`:\n{out}");
}

fn unquote(s: &str) -> String {
    let inner = s
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .expect(s);
    inner
        .replace("\\n", "\n")
        .replace("\\t", "\t")
        .replace("\\\"", "\"")
        .replace("\\\\", "\\")
}

/// The numbers inside `Name(a, b, …)`.
fn components(s: &str) -> Vec<f64> {
    let inner = &s[s.find('(').unwrap() + 1..s.rfind(')').unwrap()];
    inner.split(", ").map(|x| x.parse().unwrap()).collect()
}

/// Checks every row of `file`'s dump against its bytes; the number of rows checked.
fn check(file: &str) -> usize {
    let bytes = std::fs::read(file).unwrap();
    let r = run(&["explain", file], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    check_dump(file, &bytes, &r.text())
}

/// [`check`] of a dump `out` of `bytes`.
fn check_dump(file: &str, bytes: &[u8], out: &str) -> usize {
    let rows = rows(out);
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let lead = |v: &str| v.split_whitespace().next().unwrap_or("").to_string();
    let mut strings: Vec<String> = Vec::new();
    let mut in_table = false;
    let mut checked = 0;
    for row in &rows {
        let raw = &bytes[row.offset..row.offset + row.len];
        let what = row.what.as_str();
        let context = format!("{:#x} {} {} ({what})", row.offset, row.field, row.value);
        if row.field == "string table" {
            in_table = true;
        } else if row.field == "external resources" {
            in_table = false;
        }
        if row.field == "magic" || row.field == "end magic" {
            assert_eq!(raw, b"RSRC", "{context}");
        } else if what == "u32: type id" {
            let id: u32 = row
                .value
                .rsplit("id ")
                .next()
                .unwrap()
                .trim_end_matches(')')
                .parse()
                .unwrap();
            assert_eq!((row.len, u32_at(row.offset)), (4, id), "{context}");
        } else if what.starts_with("u32: string table index") {
            let (index, name) = row.value.split_once(" → ").expect(&context);
            let index: usize = index.parse().unwrap();
            assert_eq!(u32_at(row.offset) as usize, index, "{context}");
            assert_eq!(strings[index], unquote(name), "{context}");
        } else if what.starts_with("u32:") {
            assert_eq!(row.len, 4, "{context}");
            assert_eq!(
                lead(&row.value),
                u32_at(row.offset).to_string(),
                "{context}"
            );
        } else if what.starts_with("u16:") {
            let v = u16::from_le_bytes(raw.try_into().unwrap()) & 0x7fff;
            assert_eq!(lead(&row.value), v.to_string(), "{context}");
        } else if what.starts_with("u64:") {
            let v = u64_at(row.offset);
            let shown = match row.value.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16).unwrap(),
                None => row.value.parse().unwrap(),
            };
            assert_eq!((row.len, shown), (8, v), "{context}");
        } else if what == "i32" {
            assert_eq!(
                row.value,
                (u32_at(row.offset) as i32).to_string(),
                "{context}"
            );
        } else if what == "i64" {
            assert_eq!(
                row.value,
                (u64_at(row.offset) as i64).to_string(),
                "{context}"
            );
        } else if what == "f32" {
            let v: f32 = row.value.parse().unwrap();
            assert_eq!(v.to_bits(), u32_at(row.offset), "{context}");
        } else if what == "f64" {
            let v: f64 = row.value.parse().unwrap();
            assert_eq!(v.to_bits(), u64_at(row.offset), "{context}");
        } else if what.starts_with("UTF-8 + NUL:") {
            let text = unquote(&row.value);
            assert_eq!(raw, [text.as_bytes(), b"\0"].concat(), "{context}");
            if in_table && row.field.starts_with('[') {
                strings.push(text);
            }
        } else if what.starts_with("i32 components") {
            let want: Vec<f64> = raw
                .chunks(4)
                .map(|c| f64::from(i32::from_le_bytes(c.try_into().unwrap())))
                .collect();
            assert_eq!(components(&row.value), want, "{context}");
        } else if what.starts_with("f32 components") {
            let got = components(&row.value);
            let want: Vec<f32> = raw
                .chunks(4)
                .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
                .collect();
            assert_eq!(got.len(), want.len(), "{context}");
            for (g, w) in got.iter().zip(&want) {
                // The text form prints six significant digits.
                assert!(
                    (g - f64::from(*w)).abs() <= 1e-5 * f64::from(w.abs().max(1.0)),
                    "{context}"
                );
            }
        } else if what == "the bytes" {
            // The first 16 bytes, then `… (N bytes)` for a longer run.
            let mut hex: Vec<String> = raw.iter().take(16).map(|b| format!("{b:02x}")).collect();
            if raw.len() > 16 {
                hex.push(format!("… ({} bytes)", raw.len()));
            }
            assert_eq!(row.value, hex.join(" "), "{context}");
        } else if what.starts_with("zero padding") {
            assert!(raw.iter().all(|&b| b == 0), "{context}");
        } else {
            assert_eq!(
                row.len, 0,
                "a row with bytes that no check reads: {context}"
            );
            continue;
        }
        checked += 1;
    }
    // Every byte in exactly one row.
    let mut spans: Vec<(usize, usize)> = rows
        .iter()
        .filter(|r| r.len > 0)
        .map(|r| (r.offset, r.len))
        .collect();
    spans.sort();
    let mut at = 0;
    for (offset, len) in spans {
        assert_eq!(offset, at, "{file}: a gap or an overlap at {at:#x}");
        at += len;
    }
    assert_eq!(at, bytes.len(), "{file}: not every byte explained");
    checked
}

#[test]
fn godot3_res_every_line_is_its_bytes() {
    let n = check("tests/fixtures/resource/godot3.2/save.res");
    assert!(n > 200, "{n} rows checked");
}

#[test]
fn godot4_res_every_line_is_its_bytes() {
    for file in [
        "tests/fixtures/resource/godot4.3/save.res",
        "tests/fixtures/resource/godot4.4/save.res",
    ] {
        let n = check(file);
        assert!(n > 200, "{file}: {n} rows checked");
    }
}

#[test]
fn godot4_byte_array_res_every_line_is_its_bytes() {
    // Packed byte arrays of several sizes (tests/fixtures/resource/bytes/make.gd).
    for engine in ["godot4.3", "godot4.4"] {
        for name in ["small", "big"] {
            let file = format!("tests/fixtures/resource/bytes/{engine}/{name}.res");
            let n = check(&file);
            assert!(n > 40, "{file}: {n} rows checked");
        }
    }
}

#[test]
fn compressed_res_every_line_is_its_bytes() {
    // FLAG_COMPRESS saves of each engine: the stream's header and blocks, then the resource
    // inside checked against the decompressed bytes behind a restored RSRC magic.
    for engine in ["godot3.2", "godot4.3", "godot4.4"] {
        for name in ["save_c.res", "packed_c.res", "tree_c.scn"] {
            let file = format!("tests/fixtures/resource/{engine}/{name}");
            let bytes = std::fs::read(&file).unwrap();
            let r = run(&["explain", "--all", &file], b"");
            assert_eq!(r.code, 0, "{file}: {}", r.stderr);
            let out = r.text();
            let head = &out[..out.find("the resource inside").expect("inner part")];
            let plain_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap());
            assert!(
                head.contains(&format!("plain size  {plain_len}\n")),
                "{head}"
            );
            assert!(head.contains("00000000     4  magic       RSCC"), "{head}");
            let plain =
                gdvariant::container::compressed::read_with_magic(&bytes, b"RSCC", 64 << 20)
                    .unwrap();
            let mut inner = b"RSRC".to_vec();
            inner.extend_from_slice(&plain);
            let dump = &out[out.find("the resource inside").unwrap()..];
            assert!(check_dump(&file, &inner, dump) > 10, "{file}");
        }
    }
}

#[test]
fn godot4_res_has_flags_and_uids_godot3_has_fourteen_reserved_words() {
    let g4 = run(
        &["explain", "tests/fixtures/resource/godot4.4/save.res"],
        b"",
    )
    .text();
    let g3 = run(
        &["explain", "tests/fixtures/resource/godot3.2/save.res"],
        b"",
    )
    .text();
    let fields = |out: &str| rows(out).into_iter().map(|r| r.field).collect::<Vec<_>>();
    let (f4, f3) = (fields(&g4), fields(&g3));
    assert!(f4.contains(&"flags".to_string()) && f4.contains(&"uid".to_string()));
    assert!(!f3.contains(&"flags".to_string()) && !f3.contains(&"uid".to_string()));
    let reserved = |f: &[String]| f.iter().filter(|x| x.starts_with("reserved")).count();
    assert_eq!((reserved(&f3), reserved(&f4)), (14, 11));
    // 64-bit int in Godot 4 (`big = 1 << 40`), a sub-resource reference by position.
    assert!(g4.contains("Int 64-bit (id 40)"), "{g4}");
    assert!(
        g4.contains("position in the internal resource table"),
        "{g4}"
    );
    assert!(g3.contains("local number (local://N)"), "{g3}");
}

#[test]
fn truncated_res_is_shown_up_to_the_error() {
    let bytes = std::fs::read("tests/fixtures/resource/godot4.4/save.res").unwrap();
    let dir = std::env::temp_dir().join(format!("gdv-explain-res-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cut = dir.join("cut.res");
    std::fs::write(&cut, &bytes[..0x300]).unwrap();
    let r = run(&["explain", cut.to_str().unwrap()], b"");
    assert_eq!(r.code, 1);
    let out = r.text();
    let last = out.lines().last().unwrap();
    assert!(last.contains("error:") && last.contains("left"), "{out}");
    assert!(out.contains("string table"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn tres_lists_sections_and_properties_with_line_numbers() {
    let file = "tests/fixtures/resource/godot3.2/save.tres";
    let text = std::fs::read_to_string(file).unwrap();
    let r = run(&["explain", file], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.text();
    let mut sections = 0;
    for l in out.lines().skip(2) {
        let Some((n, rest)) = l.trim_start().split_once("  ") else {
            continue;
        };
        let Ok(n) = n.parse::<usize>() else { continue };
        let source = text.lines().nth(n - 1).unwrap();
        let rest = rest.trim_start();
        if rest.starts_with('[') {
            assert_eq!(source, rest, "line {n}");
            sections += 1;
        } else {
            let name = rest.split(" = ").next().unwrap();
            assert!(
                source.starts_with(&format!("{name} = ")),
                "line {n}: {source}"
            );
        }
    }
    assert_eq!(
        sections,
        text.lines().filter(|l| l.starts_with('[')).count()
    );
}

#[test]
fn every_cut_and_flipped_byte_is_walked_without_panic_and_agrees_with_the_reader() {
    for file in [
        "tests/fixtures/resource/godot3.2/save.res",
        "tests/fixtures/resource/godot4.4/save.res",
    ] {
        let bytes = std::fs::read(file).unwrap();
        let mut inputs: Vec<Vec<u8>> = (0..bytes.len()).map(|n| bytes[..n].to_vec()).collect();
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0xff;
            inputs.push(b);
        }
        for b in inputs {
            let e = gdvariant::explain::explain_resource(&b, 16);
            if gdvariant::resource::ResourceFile::read(&b).is_ok() {
                assert!(
                    e.error.is_none(),
                    "{file}: read but not explained: {:?}",
                    e.error
                );
            }
        }
    }
}

#[test]
fn a_count_with_the_top_bit_set_is_refused_before_allocating() {
    // Found by the `resource` fuzz target: the internal table's count 0x8000_0002 passed a
    // check that masked the top bit, then sized the table unmasked.
    let mut b = std::fs::read("tests/fixtures/resource/godot4.4/save.res").unwrap();
    let e = gdvariant::explain::explain_resource(&b, 16);
    let count_at = e
        .lines
        .iter()
        .find(|l| l.field == "internal resources")
        .unwrap()
        .offset;
    b[count_at..count_at + 4].copy_from_slice(&0x8000_0002u32.to_le_bytes());
    let e = gdvariant::explain::explain_resource(&b, 16);
    let err = e.error.expect("refused").to_string();
    assert!(err.contains("larger than the rest of the file"), "{err}");
    assert!(gdvariant::resource::ResourceFile::read(&b).is_err());
}
