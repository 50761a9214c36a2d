//! Live differential test of the text form against the real Godot 3.2.3 engine: random value
//! trees of every Godot 3 type go to the engine as our bytes (`bytes2var`, then `var2str`,
//! which must equal our `to_text`), and our text goes to the engine (`str2var`, then
//! `var2bytes`, which must equal our `encode` wherever the text is exact). Each failure found
//! is written out as a regression case for tests/fixtures/text_cases/.
//!
//! Skips with a notice when `godot3-server` is missing, fails when `CI=true`. Honours
//! `PROPTEST_RNG_SEED` (CI sets 20261122) and `PROPTEST_CASES` (default 3000).

mod common;
#[path = "support/godot3.rs"]
mod godot3;

use common::text::text_losses;
use common::textgen::godot3_value;
use common::*;
use gdvariant::*;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

const G3: Dialect = Dialect::Godot3;

// ---------------------------------------------------------------------------------------
// What 3.2.3's own parser cannot read (each one observed on the engine; see the Godot 3
// section of docs/text-form.md): such texts are compared only one way.

fn godot3_parser_reads(v: &Variant) -> bool {
    let finite = |x: f64| x.is_finite();
    match v {
        // `-inf.0` reads as the int 0, `-nan.0` likewise; `inf` and `nan` read fine.
        Variant::Float(x) => {
            let f = *x as f32;
            !f.is_sign_negative() || f.is_finite()
        }
        // `_parse_construct` takes numbers only: `inf`, `nan` inside `Vector2( … )` fail.
        Variant::Vector2(p) => [p.x, p.y].into_iter().all(finite),
        Variant::Vector3(p) => [p.x, p.y, p.z].into_iter().all(finite),
        Variant::Rect2(r) => [r.position.x, r.position.y, r.size.x, r.size.y]
            .into_iter()
            .all(finite),
        Variant::Transform2D(t) => [t.x.x, t.x.y, t.y.x, t.y.y, t.origin.x, t.origin.y]
            .into_iter()
            .all(finite),
        Variant::Plane(p) => [p.normal.x, p.normal.y, p.normal.z, p.d]
            .into_iter()
            .all(finite),
        Variant::Quaternion(q) => [q.x, q.y, q.z, q.w].into_iter().all(finite),
        Variant::Aabb(b) => [
            b.position.x,
            b.position.y,
            b.position.z,
            b.size.x,
            b.size.y,
            b.size.z,
        ]
        .into_iter()
        .all(finite),
        Variant::Basis(b) => b
            .rows
            .iter()
            .all(|r| [r.x, r.y, r.z].into_iter().all(finite)),
        Variant::Transform3D(t) => {
            t.basis
                .rows
                .iter()
                .all(|r| [r.x, r.y, r.z].into_iter().all(finite))
                && [t.origin.x, t.origin.y, t.origin.z].into_iter().all(finite)
        }
        Variant::Color(c) => [c.r, c.g, c.b, c.a].into_iter().all(|x| x.is_finite()),
        Variant::PackedFloat32Array(a) => a.iter().all(|x| x.is_finite()),
        Variant::PackedVector2Array(a) => a.iter().all(|p| [p.x, p.y].into_iter().all(finite)),
        Variant::PackedVector3Array(a) => a.iter().all(|p| [p.x, p.y, p.z].into_iter().all(finite)),
        Variant::PackedColorArray(a) => a
            .iter()
            .all(|c| [c.r, c.g, c.b, c.a].into_iter().all(|x| x.is_finite())),
        // `c_escape` writes BEL and VT as `\a` and `\v`, which 3.2.3 reads as `a` and `v`.
        Variant::PackedStringArray(a) => a.iter().all(|s| !s.contains(['\x07', '\x0b'])),
        Variant::NodePath(p) => !p.to_string().contains(['\x07', '\x0b']),
        // `var2str(RID())` is empty: nothing to read.
        Variant::Rid(_) => false,
        Variant::Array(a) => a.items.iter().all(godot3_parser_reads),
        Variant::Dictionary(d) => d
            .entries()
            .iter()
            .all(|(k, x)| godot3_parser_reads(k) && godot3_parser_reads(x)),
        _ => true,
    }
}

/// Equal but for bytes the engine leaves uninitialised (NodePath name padding): positions
/// where ours is zero may differ.
fn same_but_padding(ours: &[u8], theirs: &[u8]) -> bool {
    ours.len() == theirs.len() && ours.iter().zip(theirs).all(|(a, b)| a == b || *a == 0)
}

fn seed() -> u64 {
    std::env::var("PROPTEST_RNG_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20261122)
}

fn runner(seed: u64) -> TestRunner {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &bytes),
    )
}

fn cases() -> usize {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3000)
}

/// A failure, written as a line of the regression manifest.
fn record(
    found: &mut Vec<String>,
    name: &str,
    bytes: &[u8],
    engine_text: &str,
    s2v: Option<&[u8]>,
    note: &str,
) {
    found.push(
        serde_json::json!({
            "name": name,
            "dialect": "godot3",
            "hex": hex(bytes),
            "engine_text": engine_text,
            "engine_str2var_hex": s2v.map(hex),
            "note": note,
        })
        .to_string(),
    );
}

#[test]
fn random_values_print_and_parse_like_godot3() {
    let Some(engine) = godot3::engine() else {
        return;
    };
    let seed = seed();
    let n = cases();
    println!("text differential vs Godot 3.2.3: {n} cases, PROPTEST_RNG_SEED={seed}");
    let mut runner = runner(seed);
    let strategy = godot3_value();
    let values: Vec<Variant> = (0..n)
        .map(|_| strategy.new_tree(&mut runner).expect("generate").current())
        .collect();
    let ours: Vec<Vec<u8>> = values
        .iter()
        .map(|v| encode(v, G3, &EncodeOptions::default()).expect("generated values encode"))
        .collect();

    // Our bytes -> engine: var2str must be our to_text.
    let replies = engine.bytes2var(&ours.iter().map(|b| (b.clone(), false)).collect::<Vec<_>>());
    let mut found = Vec::new();
    let mut printed_same = 0;
    for (i, ((v, b), reply)) in values.iter().zip(&ours).zip(replies).enumerate() {
        match reply {
            godot3::Reply::Ok { text, .. } => {
                let mine = to_text(v, G3);
                if mine == text {
                    printed_same += 1;
                } else {
                    record(
                        &mut found,
                        &format!("print_{seed}_{i}"),
                        b,
                        &text,
                        None,
                        &format!("to_text gave {mine:?}"),
                    );
                }
            }
            godot3::Reply::Err(e) => record(
                &mut found,
                &format!("refused_{seed}_{i}"),
                b,
                "",
                None,
                &format!("engine refused our bytes: {e}"),
            ),
        }
    }

    // Our text -> engine: where the text is exact and 3.2.3 can read it, var2bytes of
    // str2var must be our bytes.
    let exact: Vec<usize> = (0..n)
        .filter(|&i| text_losses(&values[i], G3).is_empty() && godot3_parser_reads(&values[i]))
        .collect();
    let texts: Vec<String> = exact.iter().map(|&i| to_text(&values[i], G3)).collect();
    let replies = engine.str2var(&texts);
    let mut parsed_same = 0;
    for ((&i, t), reply) in exact.iter().zip(&texts).zip(replies) {
        let ours_back = from_text(t, G3).map(|v| encode(&v, G3, &EncodeOptions::default()));
        match reply {
            godot3::Reply::Ok { bytes, .. } => {
                let agree = matches!(&ours_back, Ok(Ok(b)) if same_but_padding(b, &bytes))
                    && same_but_padding(&ours[i], &bytes);
                if agree {
                    parsed_same += 1;
                } else {
                    record(
                        &mut found,
                        &format!("parse_{seed}_{i}"),
                        &ours[i],
                        t,
                        Some(&bytes),
                        &format!("from_text then encode gave {ours_back:?}"),
                    );
                }
            }
            godot3::Reply::Err(e) => record(
                &mut found,
                &format!("unparsed_{seed}_{i}"),
                &ours[i],
                t,
                None,
                &format!("engine str2var failed: {e}"),
            ),
        }
    }
    println!(
        "  var2str agreed on {printed_same} of {n}; str2var+var2bytes agreed on {parsed_same} of {} exact texts",
        exact.len()
    );
    if !found.is_empty() {
        let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("text_cases_found.jsonl");
        std::fs::write(&path, found.join("\n") + "\n").expect("write found cases");
        panic!(
            "{} disagreements with the engine; written to {} (add them to tests/fixtures/text_cases/manifest.jsonl once understood):\n{}",
            found.len(),
            path.display(),
            found.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
        );
    }
}
