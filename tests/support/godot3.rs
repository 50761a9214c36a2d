//! The live Godot 3.2.3 oracle: runs batches of requests through `tests/oracle/harness.gd` in
//! the real engine (`godot3-server`). Include it with
//! `#[path = "support/godot3.rs"] mod godot3;` (std + serde_json only).
//!
//! One engine start costs ~0.1 s, so hand over many values per call. Each call runs the engine
//! in a fresh temporary directory (it writes `logs/` there) and deletes it afterwards.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Requests per engine process; a batch larger than this is split over several runs.
const BATCH: usize = 4000;

/// The Godot 3.2.3 headless binary.
pub struct Engine {
    bin: PathBuf,
}

/// The engine's answer to one request.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// `text` is the engine's `var2str` of the value; `bytes` its `var2bytes`.
    Ok { text: String, bytes: Vec<u8> },
    /// The `ERR_*` name the engine logged (`ERR_INVALID_DATA`, `ERR_FILE_EOF`, …), or
    /// `"ERR_PARSE_ERROR"` for text or an expression that does not parse, or `"error"`.
    Err(String),
}

impl Reply {
    pub fn is_ok(&self) -> bool {
        matches!(self, Reply::Ok { .. })
    }
}

/// The engine, or `None` (after printing a notice) when `godot3-server` is not installed.
/// Panics when the env var `CI` is `"true"` and the engine is missing: CI must run these tests.
/// `GODOT3_BIN` overrides the binary.
pub fn engine() -> Option<Engine> {
    if let Some(bin) = find_binary() {
        return Some(Engine { bin });
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("godot3-server not found but CI=true: install it (apt-get install -y godot3-server) or set GODOT3_BIN");
    }
    println!("notice: godot3-server not found; skipping live-engine test");
    None
}

fn find_binary() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("GODOT3_BIN") {
        let p = PathBuf::from(p);
        return p.is_file().then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("godot3-server"))
        .find(|p| p.is_file())
}

impl Engine {
    /// `bytes2var(bytes, allow_objects)` for each blob; `bytes` of a reply is
    /// `var2bytes(value, allow_objects)` of the decoded value.
    pub fn bytes2var(&self, blobs: &[(Vec<u8>, bool)]) -> Vec<Reply> {
        let reqs: Vec<String> = blobs
            .iter()
            .map(|(b, allow)| format!("b2v\t{}\t{}", hex(b), u8::from(*allow)))
            .collect();
        self.run(&reqs)
            .into_iter()
            .map(|line| parse(&line, Order::TextThenHex))
            .collect()
    }

    /// `str2var(text)` for each text; `bytes` is `var2bytes` of the result.
    pub fn str2var(&self, texts: &[String]) -> Vec<Reply> {
        let reqs: Vec<String> = texts
            .iter()
            .map(|t| format!("s2v\t{}", escape(t)))
            .collect();
        self.run(&reqs)
            .into_iter()
            .map(|line| parse(&line, Order::HexThenText))
            .collect()
    }

    /// Compiles and evaluates each GDScript 3 expression (as the corpus generator does: `G.`
    /// names the helpers of tests/oracle/common.gd); `bytes` is `var2bytes(value)`.
    pub fn eval(&self, exprs: &[String]) -> Vec<Reply> {
        self.eval_with(exprs, false)
    }

    /// Like [`Engine::eval`], with `var2bytes(value, full_objects)`.
    pub fn eval_with(&self, exprs: &[String], full_objects: bool) -> Vec<Reply> {
        let reqs: Vec<String> = exprs
            .iter()
            .map(|e| format!("eval\t{}\t{}", escape(e), u8::from(full_objects)))
            .collect();
        self.run(&reqs)
            .into_iter()
            .map(|line| parse(&line, Order::HexThenText))
            .collect()
    }

    /// Runs raw request lines through harness.gd and returns its response lines, one per request.
    pub fn run(&self, requests: &[String]) -> Vec<String> {
        let mut out = Vec::with_capacity(requests.len());
        for chunk in requests.chunks(BATCH) {
            out.extend(self.run_batch(chunk));
        }
        out
    }

    fn run_batch(&self, requests: &[String]) -> Vec<String> {
        for r in requests {
            assert!(!r.contains('\n'), "a request line holds a newline: {r:?}");
        }
        let dir = TempDir::new();
        let input = dir.0.join("in.txt");
        let output = dir.0.join("out.txt");
        let mut text = String::new();
        for r in requests {
            text.push_str(r);
            text.push('\n');
        }
        std::fs::write(&input, text).expect("write the oracle's request file");
        let harness = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/harness.gd");
        let run = Command::new(&self.bin)
            .arg("-s")
            .arg(&harness)
            .current_dir(&dir.0)
            .env("LANG", "en")
            .env("ORACLE3_IN", &input)
            .env("ORACLE3_OUT", &output)
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", self.bin.display()));
        // The engine exits 0 even when a script fails to parse: trust only the output file.
        let lines: Option<Vec<String>> = std::fs::read(&output).ok().map(|b| {
            let s = String::from_utf8_lossy(&b).into_owned();
            let mut v: Vec<String> = s.split('\n').map(str::to_owned).collect();
            if v.last().is_some_and(|l| l.is_empty()) {
                v.pop();
            }
            v
        });
        match lines {
            Some(v) if v.len() == requests.len() => v,
            other => panic!(
                "godot3 oracle: {} response lines for {} requests (exit {:?})\n--- stderr ---\n{}\n--- stdout ---\n{}",
                other.map_or("no".to_string(), |v| v.len().to_string()),
                requests.len(),
                run.status.code(),
                tail(&run.stderr),
                tail(&run.stdout),
            ),
        }
    }
}

enum Order {
    TextThenHex,
    HexThenText,
}

fn parse(line: &str, order: Order) -> Reply {
    let mut f = line.splitn(3, '\t');
    match (f.next(), f.next(), f.next()) {
        (Some("ok"), Some(a), Some(b)) => {
            let (text, h) = match order {
                Order::TextThenHex => (a, b),
                Order::HexThenText => (b, a),
            };
            Reply::Ok {
                text: unescape(text),
                bytes: unhex(h),
            }
        }
        (Some("err"), Some(e), _) => Reply::Err(e.to_string()),
        _ => panic!("godot3 oracle: unexpected response line {line:?}"),
    }
}

/// The harness's escaping: `\` → `\\`, newline → `\n`, tab → `\t`, CR → `\r`.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

/// Inverse of [`escape`]. A code point UTF-8 cannot carry (a lone surrogate the engine decoded
/// from `ed a0 80`) arrives as `\u{d800}` and is kept as those 8 characters.
pub fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('u') => out.push_str("\\u"),
            Some(c) => out.push(c),
            None => out.push('\\'),
        }
    }
    out
}

fn hex(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len() * 2);
    for x in b {
        s.push_str(&format!("{x:02x}"));
    }
    s
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("godot3 oracle: bad hex"))
        .collect()
}

fn tail(b: &[u8]) -> String {
    let s = String::from_utf8_lossy(b);
    let start = s.len().saturating_sub(8000);
    let start = (start..=s.len())
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(s.len());
    s[start..].to_string()
}

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let p = std::env::temp_dir().join(format!(
            "gdvariant-godot3-{}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed),
            nanos
        ));
        std::fs::create_dir_all(&p).expect("create a temp dir for the engine");
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
