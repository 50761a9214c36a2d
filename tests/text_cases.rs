//! Regression cases of the text form, each holding the real Godot 3.2.3 engine's answers
//! (tests/fixtures/text_cases/manifest.jsonl): the value's bytes, the engine's `var2str` of
//! it, and the engine's `var2bytes(str2var(that text))`. Offline; the live test found most.

mod common;
use common::*;
use gdvariant::*;

fn dialect(name: &str) -> Dialect {
    name.parse().expect("dialect")
}

#[test]
fn text_cases_match_the_engines_answers() {
    let path = fixtures().join("text_cases/manifest.jsonl");
    let text = std::fs::read_to_string(&path).expect("text_cases manifest");
    let mut bad = Mismatches::default();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        n += 1;
        let c: serde_json::Value = serde_json::from_str(line).expect("json");
        let s = |k: &str| c.get(k).and_then(|v| v.as_str()).unwrap_or("").to_string();
        let (name, d) = (s("name"), dialect(&s("dialect")));
        let (value, _) = match decode(&unhex(&s("hex")), d, &DecodeOptions::default()) {
            Ok(x) => x,
            Err(e) => {
                bad.push(&name, format!("decode: {e}"));
                continue;
            }
        };
        let engine_text = s("engine_text");
        let ours = to_text(&value, d);
        if ours != engine_text {
            bad.push(
                &name,
                format!("to_text\n  engine {engine_text:?}\n  ours   {ours:?}"),
            );
        }
        // Where the engine read its own text back, our reading must give the same bytes,
        // unless the case names why the engine's parser is wrong there.
        let Some(engine_bytes) = c.get("engine_str2var_hex").and_then(|v| v.as_str()) else {
            continue;
        };
        let ours_back = from_text(&engine_text, d)
            .map_err(|e| e.to_string())
            .and_then(|v| encode(&v, d, &EncodeOptions::default()).map_err(|e| e.to_string()));
        let agree = matches!(&ours_back, Ok(b) if hex(b) == engine_bytes);
        let differs_by_design = c.get("str2var_differs").and_then(|v| v.as_str());
        match (agree, differs_by_design) {
            (true, None) | (false, Some(_)) => {}
            (true, Some(why)) => {
                bad.push(&name, format!("now agrees with str2var; unlist {why:?}"))
            }
            (false, None) => bad.push(
                &name,
                format!("from_text+encode {ours_back:?}\n  engine str2var gives {engine_bytes}"),
            ),
        }
    }
    assert!(n > 0);
    bad.check(n);
}
