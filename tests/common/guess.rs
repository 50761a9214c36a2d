//! Judging `guess` against what a manifest says wrote a file, and the accuracy table that
//! tests/guess_real.rs and tests/guess_saves.rs print.

use gdvariant::guess::{Candidate, Confidence, Container, Guess};
use gdvariant::{Dialect, Version};
use std::collections::BTreeMap;

/// What wrote a file, as far as its manifest knows.
pub struct Truth {
    pub dialect: Dialect,
    pub container: Option<Container>,
    /// The framing's display starts with this (`store_var (big-endian`, `bare`, …), if known.
    pub framing: Option<String>,
    /// The engine version, if known: the reading's era must include its minor release.
    pub version: Option<Version>,
}

/// A manifest's dialect name.
pub fn dialect(name: &str) -> Dialect {
    match name {
        "godot3" => Dialect::Godot3,
        "godot4" => Dialect::Godot4,
        "pandemonium" => Dialect::Pandemonium,
        d => panic!("unknown dialect {d}"),
    }
}

/// A manifest's container name (`none` for bytes without one).
pub fn container(name: &str) -> Option<Container> {
    match name {
        "project-binary" => Some(Container::ProjectBinary),
        "gdscript-bytecode" => Some(Container::GdscriptBytecode),
        "none" => None,
        c => panic!("unknown container {c}"),
    }
}

/// How a guess did on one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The one best reading is the truth.
    Right,
    /// Several readings tie and the truth is among them.
    Ambiguous,
    /// A wrong reading, not claimed with high confidence.
    WrongLow,
    /// A wrong reading claimed with high confidence: the defect these tests catch.
    WrongHigh,
    /// No reading uses every byte.
    NoAnswer,
}

/// Whether reading `t` of guess `g` is the truth.
pub fn is_right(g: &Guess, t: &Candidate, truth: &Truth) -> bool {
    let framing_ok = truth
        .framing
        .as_ref()
        .is_none_or(|want| t.framing.to_string().starts_with(want.as_str()));
    // Eras are named by minor releases (their last may be the spec's newest patch release).
    let minor = |v: Version| (v.major, v.minor);
    let version_ok = truth
        .version
        .is_none_or(|v| minor(t.era.first) <= minor(v) && minor(v) <= minor(t.era.last));
    t.era.dialect == truth.dialect && g.container == truth.container && framing_ok && version_ok
}

/// How `g` did against `truth`.
pub fn judge(g: &Guess, truth: &Truth) -> Outcome {
    let right = |t: &Candidate| is_right(g, t, truth);
    match g.confidence {
        Confidence::None => Outcome::NoAnswer,
        _ if right(&g.best) && g.ties.len() == 1 => Outcome::Right,
        Confidence::Ambiguous if g.ties.iter().any(right) => Outcome::Ambiguous,
        Confidence::High => Outcome::WrongHigh,
        _ => Outcome::WrongLow,
    }
}

#[derive(Default)]
struct Row {
    right: usize,
    ambiguous: usize,
    wrong_low: usize,
    wrong_high: usize,
    no_answer: usize,
}

/// Outcomes counted per kind of file.
#[derive(Default)]
pub struct Table {
    rows: BTreeMap<String, Row>,
}

impl Table {
    pub fn add(&mut self, kind: &str, outcome: Outcome) {
        let row = self.rows.entry(kind.to_string()).or_default();
        *match outcome {
            Outcome::Right => &mut row.right,
            Outcome::Ambiguous => &mut row.ambiguous,
            Outcome::WrongLow => &mut row.wrong_low,
            Outcome::WrongHigh => &mut row.wrong_high,
            Outcome::NoAnswer => &mut row.no_answer,
        } += 1;
    }

    /// The table as Markdown, a row per kind in name order.
    pub fn print(&self) {
        println!("| kind of file | files | right | ambiguous (right among the equals) | wrong, low confidence | wrong, high confidence | no reading fits |");
        println!("|---|---|---|---|---|---|---|");
        for (kind, r) in &self.rows {
            let n = r.right + r.ambiguous + r.wrong_low + r.wrong_high + r.no_answer;
            println!(
                "| {kind} | {n} | {} | {} | {} | {} | {} |",
                r.right, r.ambiguous, r.wrong_low, r.wrong_high, r.no_answer
            );
        }
    }
}
