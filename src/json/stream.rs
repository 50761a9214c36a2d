//! Splitting a stream of JSON documents before parsing, so each document's nesting is bounded as its bytes arrive.

use super::*;
use super::{fast, seed};

/// What is made of each document read: `value` makes it of the document's value; `line`
/// of a line of JSON Lines, when [`fast::read`] takes it (`None` otherwise, and the
/// document is read by the scan and the serde reader).
pub(super) trait Each: Sync {
    type Out: Send;
    fn value(&self, v: Variant) -> Self::Out;
    fn line(&self, text: &str) -> Option<Self::Out> {
        fast::read(text).map(|v| self.value(v))
    }
}

/// The values themselves, handed to a function.
pub(super) struct Values<F>(pub(super) F);

impl<T: Send, F: Fn(Variant) -> T + Sync> Each for Values<F> {
    type Out = T;
    fn value(&self, v: Variant) -> T {
        (self.0)(v)
    }
}

/// The frames of the values, as [`frame_into`](crate::framing::frame_into) writes them
/// with the format (or the encoder's error).
pub(super) struct Frames(pub(super) crate::format::Format);

impl Frames {
    fn frame(&self, v: &Variant, mut bytes: Vec<u8>) -> Result<Vec<u8>, crate::EncodeError> {
        crate::framing::frame_into(&mut bytes, v, &self.0).map(|()| bytes)
    }
}

impl Each for Frames {
    type Out = Result<Vec<u8>, crate::EncodeError>;
    fn value(&self, v: Variant) -> Self::Out {
        self.frame(&v, Vec::new())
    }
    fn line(&self, text: &str) -> Option<Self::Out> {
        let v = fast::read(text)?;
        // A line's bytes come to about a third of its JSON (a savegame's, 36%): room for
        // them at once instead of growing the buffer from nothing, a few times per line,
        // and never more than the line's own size.
        Some(self.frame(&v, Vec::with_capacity(text.len() / 2)))
    }
}

/// Splits a stream into top-level JSON documents by tracking brackets and strings, so each
/// document's depth is known before it is parsed; each value read is handed to `each`, whose
/// results come out in order.
pub(super) struct Documents<R, E: Each> {
    pub(super) input: Source<R>,
    /// The line the next byte of `input` is on, and how many documents were read.
    pub(super) line: usize,
    pub(super) n: usize,
    failed: bool,
    /// What `each` made of the documents read ahead by [`Documents::fast_lines`], in order.
    ready: std::collections::VecDeque<E::Out>,
    /// Threads that read a buffer of lines at once.
    threads: usize,
    each: E,
}

impl<R: std::io::Read, E: Each> Documents<R, E> {
    pub(super) fn new(input: R, threads: usize, each: E) -> Documents<R, E> {
        Documents {
            input: Source::new(input),
            line: 1,
            n: 0,
            failed: false,
            ready: std::collections::VecDeque::new(),
            threads: threads.max(1),
            each,
        }
    }

    fn fail(&mut self, message: String) -> Option<Result<E::Out, JsonError>> {
        self.failed = true;
        Some(Err(JsonError {
            path: format!("document {}, line {}", self.n, self.line),
            message,
        }))
    }

    pub(super) fn next_value(&mut self) -> Option<Result<E::Out, JsonError>> {
        if self.failed {
            return None;
        }
        if self.ready.is_empty() {
            self.fast_lines();
        }
        if let Some(v) = self.ready.pop_front() {
            return Some(Ok(v));
        }
        self.scan_document()
    }

    /// The next document found by the bracket scan and read by the serde reader (with its
    /// error, which ends the stream), `None` at the end of the input.
    pub(super) fn scan_document(&mut self) -> Option<Result<E::Out, JsonError>> {
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
            // Blanks before a document are not part of it.
            let start = match doc.is_empty() {
                true => buf.iter().position(|c| !c.is_ascii_whitespace()),
                false => Some(0),
            };
            let (used, stop) = match start {
                Some(start) => match nest.scan(&buf[start..], MAX_JSON_DEPTH) {
                    Some((n, stop)) => (start + n, Some(stop)),
                    None => (buf.len(), None),
                },
                None => (buf.len(), None),
            };
            self.line += count_lines(&buf[..used]);
            if let Some(Stop::TooDeep) = stop {
                self.input.consume(used);
                self.n += 1;
                return self.fail(format!("JSON nested deeper than {MAX_JSON_DEPTH} levels"));
            }
            // Copied a buffer at a time, not byte by byte: a document may be many megabytes.
            if let Some(start) = start {
                doc.extend_from_slice(&buf[start..used]);
            }
            self.input.consume(used);
            if stop.is_some() {
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
        Some(r.map(|v| self.each.value(v)))
    }
}

/// One line of JSON Lines, as [`fast::read`] saw it (and what `each` made of its value).
pub(super) enum Line<T> {
    Blank,
    Read(T),
    /// Not a whole document in our writer's layout: the scan reads from here.
    Other,
}

/// A line's text to read as a document (`Read`), or a blank line, or `Other` for bytes that
/// are not UTF-8: the one rule of what a line of JSON Lines is, for every reader of lines.
pub(super) fn line_text(line: &[u8]) -> Line<&str> {
    match std::str::from_utf8(line) {
        Ok(t) if t.trim_ascii().is_empty() => Line::Blank,
        Ok(t) => Line::Read(t),
        Err(_) => Line::Other,
    }
}

/// Reads `lines` in order, stopping at the first that is not a document in our layout.
fn read_lines<E: Each>(lines: &[&[u8]], each: &E) -> Vec<Line<E::Out>> {
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let read = match line_text(line) {
            Line::Blank => Line::Blank,
            Line::Read(t) => each.line(t).map_or(Line::Other, Line::Read),
            Line::Other => Line::Other,
        };
        let stop = matches!(read, Line::Other);
        out.push(read);
        if stop {
            break;
        }
    }
    out
}

/// Buffered bytes below which a batch of lines is read on the calling thread alone.
const PARALLEL_FROM: usize = 64 << 10;

impl<R: std::io::Read, E: Each> Documents<R, E> {
    /// Reads the first line that is not blank into `ready` when it is a document in our
    /// writer's layout (and the blank lines before it), and says whether it was. It is tried
    /// alone, before a batch of lines: a stream that is not JSON Lines (pretty-printed
    /// documents) then costs a line per document here, not a split of a whole buffer.
    pub(super) fn first_line(&mut self) -> bool {
        use std::io::BufRead;
        loop {
            let Ok(buf) = self.input.fill_buf() else {
                return false;
            };
            let Some(nl) = memchr::memchr(b'\n', buf) else {
                return false;
            };
            match read_lines(&[&buf[..=nl]], &self.each).pop() {
                Some(Line::Blank) => {}
                Some(Line::Read(v)) => self.ready.push_back(v),
                Some(Line::Other) | None => return false,
            }
            self.input.consume(nl + 1);
            self.line += 1;
            if !self.ready.is_empty() {
                self.n += 1;
                return true;
            }
        }
    }

    /// The value [`Documents::first_line`] read, if it has not been taken.
    pub(super) fn take_ready(&mut self) -> Option<E::Out> {
        self.ready.pop_front()
    }

    /// Reads the whole lines of the buffer that are documents in our writer's layout (JSON
    /// Lines as our writer writes them) into `ready`: found by their line ends, without the
    /// bracket scan or a copy, and on `threads` threads at once when the buffer is big. It
    /// stops at the first line that is anything else, which [`Documents::next_value`]'s scan
    /// then reads, so every error is the scan's.
    fn fast_lines(&mut self) {
        use std::io::BufRead;
        if !self.first_line() {
            return;
        }
        // Only what is buffered already: a value in hand is not kept waiting on a read.
        let buf = self.input.buffer();
        let Some(end) = memchr::memrchr(b'\n', buf) else {
            return;
        };
        let mut lines: Vec<&[u8]> = Vec::new();
        let mut from = 0;
        for nl in memchr::memchr_iter(b'\n', &buf[..=end]) {
            lines.push(&buf[from..=nl]);
            from = nl + 1;
        }
        let threads = match end < PARALLEL_FROM {
            true => 1,
            false => self.threads.min(lines.len()),
        };
        // Parts of about the same number of bytes, one per thread.
        let mut parts = Vec::with_capacity(threads);
        let mut rest = &lines[..];
        for t in (1..=threads).rev() {
            let target = rest.iter().map(|l| l.len()).sum::<usize>() / t;
            let mut n = 0;
            let mut bytes = 0;
            while n < rest.len() && (bytes < target || n == 0) {
                bytes += rest[n].len();
                n += 1;
            }
            let (part, tail) = rest.split_at(n);
            parts.push(part);
            rest = tail;
        }
        let each = &self.each;
        let read: Vec<Vec<Line<E::Out>>> = match parts.as_slice() {
            [one] => vec![read_lines(one, each)],
            _ => std::thread::scope(|scope| {
                let others: Vec<_> = parts[1..]
                    .iter()
                    .map(|&part| scope.spawn(move || read_lines(part, each)))
                    .collect();
                let mut all = vec![read_lines(parts[0], each)];
                // A thread that panicked is read again here (and panics here).
                all.extend(
                    others
                        .into_iter()
                        .zip(&parts[1..])
                        .map(|(h, &part)| h.join().unwrap_or_else(|_| read_lines(part, each))),
                );
                all
            }),
        };
        let mut used = 0;
        'parts: for (part, lines) in parts.iter().zip(read) {
            let whole = lines.len() == part.len();
            for (line, text) in lines.into_iter().zip(part.iter()) {
                match line {
                    Line::Other => break 'parts,
                    Line::Blank => {}
                    Line::Read(v) => {
                        self.n += 1;
                        self.ready.push_back(v);
                    }
                }
                used += text.len();
                self.line += 1;
            }
            if !whole {
                break;
            }
        }
        self.input.consume(used);
    }
}

/// Bytes read at a time for the scan and for [`Documents::fast_lines`]: room for many lines,
/// so that few documents straddle a refill.
const BUFFER: usize = 1 << 20;

/// The input of [`Documents`]: a buffer in front of the reader, as a `BufReader` keeps one,
/// from which whole lines can also be taken in big owned chunks ([`Source::take_lines`], read
/// straight into the chunk), and into which bytes read ahead can be put back
/// ([`Source::unread`]) when the scan has to read them after all.
pub(super) struct Source<R> {
    /// `buf[pos..end]` is buffered; all of `buf` is initialised, so refills need no zeroing.
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    inner: R,
}

impl<R: std::io::Read> Source<R> {
    fn new(inner: R) -> Source<R> {
        Source {
            buf: Vec::new(),
            pos: 0,
            end: 0,
            inner,
        }
    }

    /// What is buffered, without reading.
    fn buffer(&self) -> &[u8] {
        &self.buf[self.pos..self.end]
    }

    /// Puts `front` back before what is buffered, as if it had not been read.
    pub(super) fn unread(&mut self, front: &[&[u8]]) {
        let len = front.iter().map(|b| b.len()).sum::<usize>() + self.end - self.pos;
        let mut buf = Vec::with_capacity(len.max(BUFFER));
        for b in front {
            buf.extend_from_slice(b);
        }
        buf.extend_from_slice(self.buffer());
        self.buf = buf;
        self.pos = 0;
        self.end = len;
    }

    /// The buffered bytes and then the reader's, in `chunk` (reused: its length is how much it
    /// holds, kept initialised) up to at least `size` bytes or the end of the input; handed
    /// back with the length of its whole lines, the bytes after the last line feed staying
    /// buffered. A line longer than the chunk grows it. `None` (with the bytes buffered again)
    /// when no whole line is left; on a read error the bytes read stay buffered too.
    pub(super) fn take_lines(
        &mut self,
        mut chunk: Vec<u8>,
        size: usize,
    ) -> std::io::Result<Option<(Vec<u8>, usize)>> {
        let held = self.end - self.pos;
        if chunk.len() < size.max(held * 2) {
            zeroed_to(&mut chunk, size.max(held * 2));
        }
        chunk[..held].copy_from_slice(self.buffer());
        (self.pos, self.end) = (0, 0);
        let mut filled = held;
        // The part of `chunk[..filled]` known to hold no line feed.
        let mut searched = 0;
        loop {
            let eof = loop {
                if filled == chunk.len() {
                    break false;
                }
                match self.inner.read(&mut chunk[filled..]) {
                    Ok(0) => break true,
                    Ok(n) => filled += n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        self.keep(&chunk[..filled]);
                        return Err(e);
                    }
                }
            };
            if let Some(nl) = memchr::memrchr(b'\n', &chunk[searched..filled]) {
                let len = searched + nl + 1;
                self.keep(&chunk[len..filled]);
                return Ok(Some((chunk, len)));
            }
            if eof {
                self.keep(&chunk[..filled]);
                return Ok(None);
            }
            searched = filled;
            chunk.resize(chunk.len() * 2, 0);
        }
    }

    /// Makes `bytes` (read last) all that is buffered.
    fn keep(&mut self, bytes: &[u8]) {
        if self.buf.len() < bytes.len() {
            zeroed_to(&mut self.buf, bytes.len());
        }
        self.buf[..bytes.len()].copy_from_slice(bytes);
        (self.pos, self.end) = (0, bytes.len());
    }
}

/// Grows `v` to `len` bytes with zeros. A new buffer is taken zeroed from the allocator, whose
/// big blocks are fresh pages, zero already: `resize` would write every byte (6 MB of zeros
/// for a stream, 7% of the instructions of a 3 MB one).
fn zeroed_to(v: &mut Vec<u8>, len: usize) {
    if v.is_empty() {
        *v = vec![0; len];
    } else {
        v.resize(len, 0);
    }
}

impl<R: std::io::Read> std::io::Read for Source<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        use std::io::BufRead;
        let buf = self.fill_buf()?;
        let n = buf.len().min(out.len());
        out[..n].copy_from_slice(&buf[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: std::io::Read> std::io::BufRead for Source<R> {
    /// The buffered bytes, or one read's worth when none are buffered (as `BufReader` does).
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.pos == self.end {
            if self.buf.len() < BUFFER {
                zeroed_to(&mut self.buf, BUFFER);
            }
            (self.pos, self.end) = (0, 0);
            self.end = self.inner.read(&mut self.buf)?;
        }
        Ok(self.buffer())
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.end);
    }
}

/// The deepest bracket nesting of a JSON text (brackets inside strings do not count).
pub(super) fn nesting_depth(text: &str) -> usize {
    let mut nest = Brackets::default();
    let mut rest = text.as_bytes();
    // A closer at the outermost level stops a scan; the text goes on after it.
    while let Some((n, _)) = nest.scan(rest, usize::MAX) {
        rest = &rest[n..];
    }
    nest.max
}

/// Where the JSON array or object at the start of `text` ends (brackets inside strings do
/// not count), if it ends in `text`.
pub(super) fn value_end(text: &[u8]) -> Option<usize> {
    match Brackets::default().scan(text, usize::MAX)? {
        (n, Stop::Closed) => Some(n),
        (_, Stop::TooDeep) => None,
    }
}

/// The bytes that matter outside strings: a table lookup per byte is cheaper than matching
/// the byte against each of them.
const BRACKETS_OR_QUOTE: [bool; 256] = {
    let mut t = [false; 256];
    t[b'"' as usize] = true;
    t[b'[' as usize] = true;
    t[b']' as usize] = true;
    t[b'{' as usize] = true;
    t[b'}' as usize] = true;
    t
};

/// Why [`Brackets::scan`] stopped.
enum Stop {
    /// The byte read last closed the outermost bracket.
    Closed,
    /// The byte read last opened a bracket deeper than the limit.
    TooDeep,
}

/// Bracket nesting of JSON text read a buffer at a time (brackets inside strings do not
/// count). The state carries over from one buffer to the next.
#[derive(Default)]
struct Brackets {
    depth: usize,
    max: usize,
    in_str: bool,
    escaped: bool,
}

impl Brackets {
    /// Reads `buf` up to the byte that closes the outermost bracket or opens one deeper than
    /// `limit`: how many bytes that took and which it was; `None` when all of `buf` is read
    /// without either. A closer at the outermost level counts as closing it.
    fn scan(&mut self, buf: &[u8], limit: usize) -> Option<(usize, Stop)> {
        let mut i = 0;
        loop {
            if self.in_str {
                // Inside a string only a quote or an escape matters; an escape skips the
                // byte after it, which may be in the next buffer.
                if self.escaped {
                    buf.get(i)?;
                    i += 1;
                    self.escaped = false;
                }
                loop {
                    // Most of a document's bytes are in strings: skipped a word at a time.
                    i += memchr::memchr2(b'"', b'\\', buf.get(i..)?)?;
                    let c = buf[i];
                    i += 1;
                    if c == b'"' {
                        self.in_str = false;
                        break;
                    }
                    if i == buf.len() {
                        self.escaped = true;
                        return None;
                    }
                    i += 1;
                }
            }
            loop {
                let c = *buf.get(i)?;
                i += 1;
                if !BRACKETS_OR_QUOTE[usize::from(c)] {
                    continue;
                }
                match c {
                    b'"' => {
                        self.in_str = true;
                        break;
                    }
                    b'[' | b'{' => {
                        self.depth += 1;
                        if self.depth > self.max {
                            self.max = self.depth;
                            if self.max > limit {
                                return Some((i, Stop::TooDeep));
                            }
                        }
                    }
                    b']' | b'}' => {
                        self.depth = self.depth.saturating_sub(1);
                        if self.depth == 0 {
                            return Some((i, Stop::Closed));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

/// How many line feeds `bytes` holds, counted 255 bytes at a time in `u8` lanes so that the
/// count vectorises (counting in `usize`, byte by byte, cost as much as the bracket scan).
fn count_lines(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|c| usize::from(c.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n'))))
        .sum()
}
