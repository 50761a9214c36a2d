//! Splitting a stream of JSON documents before parsing, so each document's nesting is bounded as its bytes arrive.

use super::seed;
use super::*;

/// Splits a stream into top-level JSON documents by tracking brackets and strings, so each
/// document's depth is known before it is parsed.
pub(super) struct Documents<R> {
    input: std::io::BufReader<R>,
    line: usize,
    n: usize,
    failed: bool,
}

impl<R: std::io::Read> Documents<R> {
    pub(super) fn new(input: R) -> Documents<R> {
        Documents {
            input: std::io::BufReader::new(input),
            line: 1,
            n: 0,
            failed: false,
        }
    }

    fn fail(&mut self, message: String) -> Option<Result<Variant, JsonError>> {
        self.failed = true;
        Some(Err(JsonError {
            path: format!("document {}, line {}", self.n, self.line),
            message,
        }))
    }

    pub(super) fn next_value(&mut self) -> Option<Result<Variant, JsonError>> {
        use std::io::BufRead;
        if self.failed {
            return None;
        }
        let mut doc: Vec<u8> = Vec::new();
        let mut nest = Brackets::default();
        let start_line = self.line;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) => return self.fail(format!("read error: {e}")),
            };
            if buf.is_empty() {
                break;
            }
            let mut used = 0;
            let mut start = None;
            let mut done = false;
            for &c in buf {
                used += 1;
                if c == b'\n' {
                    self.line += 1;
                }
                if start.is_none() {
                    if doc.is_empty() && c.is_ascii_whitespace() {
                        continue;
                    }
                    start = Some(used - 1);
                }
                if nest.step(c) {
                    done = true;
                    break;
                }
                if nest.max > MAX_JSON_DEPTH {
                    self.input.consume(used);
                    self.n += 1;
                    return self.fail(format!("JSON nested deeper than {MAX_JSON_DEPTH} levels"));
                }
            }
            // Copied a buffer at a time, not byte by byte: a document may be many megabytes.
            if let Some(start) = start {
                doc.extend_from_slice(&buf[start..used]);
            }
            self.input.consume(used);
            if done {
                break;
            }
        }
        if doc.is_empty() {
            return None;
        }
        self.n += 1;
        let n = self.n;
        let r = std::str::from_utf8(&doc)
            .map_err(|e| JsonError {
                path: format!("document {n}"),
                message: format!("not UTF-8: {e}"),
            })
            // The splitting above bounded the nesting already.
            .and_then(seed::read_document)
            .map_err(|e| JsonError {
                path: format!("document {n} (from line {start_line}): {}", e.path),
                message: e.message,
            });
        if r.is_err() {
            self.failed = true;
        }
        Some(r)
    }
}

/// The deepest bracket nesting of a JSON text (brackets inside strings do not count).
pub(super) fn nesting_depth(text: &str) -> usize {
    let mut nest = Brackets::default();
    text.bytes().for_each(|c| {
        nest.step(c);
    });
    nest.max
}

/// Bracket nesting of JSON text read byte by byte (brackets inside strings do not count).
#[derive(Default)]
struct Brackets {
    depth: usize,
    max: usize,
    in_str: bool,
    escaped: bool,
}

impl Brackets {
    /// Takes the next byte; true when it closes the outermost bracket.
    fn step(&mut self, c: u8) -> bool {
        if self.in_str {
            match c {
                _ if self.escaped => self.escaped = false,
                b'\\' => self.escaped = true,
                b'"' => self.in_str = false,
                _ => {}
            }
            return false;
        }
        match c {
            b'"' => self.in_str = true,
            b'[' | b'{' => {
                self.depth += 1;
                self.max = self.max.max(self.depth);
            }
            b']' | b'}' => {
                self.depth = self.depth.saturating_sub(1);
                return self.depth == 0;
            }
            _ => {}
        }
        false
    }
}
