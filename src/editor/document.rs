//! One open file: its bytes, how they are read (dialect, version, framing), its frames, the
//! values decoded on demand, and its edits with their undo and redo.
//!
//! Edits are whole frames: the edited value is encoded again and its frame's bytes replace
//! the old ones, so every byte of every other frame stays exactly as it was read.

use super::container::{self, Container};
use super::EditorError;
use crate::explain::{decode_with_spans, explain, ExplainOptions, Line, ValueSpans};
use crate::framing::{available, frame_bytes, Availability, Framing};
use crate::guess::{guess_start, Confidence};
use crate::{encode, Dialect, Format, Variant, Version};
use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How much of a file `guess` reads to name its reading: enough for every dialect to show,
/// little enough that opening a large file is immediate.
const GUESS_SAMPLE: usize = 64 << 10;
/// Most decoded frames kept at once (a frame is decoded again when it is needed again).
const CACHED_FRAMES: usize = 256;
/// Most edits that can be undone.
const HISTORY: usize = 200;
/// Most elements one decode may produce: a hostile file cannot make the server build more.
const MAX_ELEMENTS: usize = 50_000_000;

/// How the bytes are read, as `guess` named it or as the user chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The engine family.
    pub dialect: Dialect,
    /// The engine version.
    pub version: Version,
    /// How values are framed.
    pub framing: Framing,
}

impl Reading {
    /// The library's format for this reading: objects read as data (no code runs), every
    /// byte of strings kept, so that an unedited value encodes to its own bytes again.
    pub fn format(&self) -> Format {
        let mut f = Format::new(self.dialect)
            .version(self.version)
            .framing(self.framing);
        f.decode.allow_objects = true;
        f.decode.keep_leading_bom = true;
        f.decode.limits.max_elements = MAX_ELEMENTS;
        f
    }
}

/// A value decoded from one frame, with where each of its parts lies in the file.
pub struct Decoded {
    /// The value.
    pub value: Variant,
    /// Its parts' bytes, absolute in the file.
    pub spans: ValueSpans,
    /// The `explain` lines of the frame, made when first asked for.
    explained: std::sync::OnceLock<Vec<Line>>,
}

/// An edit as it can be undone: frame `frame`'s bytes before and after.
struct Change {
    frame: usize,
    before: Vec<u8>,
    after: Vec<u8>,
}

/// One file named on the command line.
pub struct Document {
    /// Where it lives.
    pub path: PathBuf,
    /// What was around the values (see `container.rs`).
    pub container: Container,
    /// Whether the file waits for a password (its container needs one).
    pub locked: bool,
    /// Whether the file as it was opened is kept as `NAME.bak` already.
    backed_up: bool,
    /// The bytes as they are now (edits applied).
    bytes: Vec<u8>,
    /// How they are read.
    pub reading: Reading,
    /// What `guess` said.
    pub confidence: Confidence,
    /// Each frame's bytes (prefix included).
    frames: Vec<Range<usize>>,
    /// Why reading stopped before the end, and where.
    pub error: Option<(usize, String)>,
    decoded: HashMap<usize, Arc<Decoded>>,
    undo: Vec<Change>,
    redo: Vec<Change>,
    /// How many edits the undo history held when the bytes were last as on disk, if it
    /// still leads there.
    clean: Option<usize>,
}

impl Document {
    /// Reads the file at `path` and names its reading with `guess`. A file whose container
    /// needs a password opens locked (no values) until [`Document::unlock`].
    pub fn open(path: &Path) -> Result<Document, EditorError> {
        let mut doc = Document {
            path: path.into(),
            container: Container::None,
            locked: false,
            backed_up: false,
            bytes: Vec::new(),
            reading: Reading {
                dialect: Dialect::Godot4,
                version: Dialect::Godot4.newest(),
                framing: Framing::Bare,
            },
            confidence: Confidence::None,
            frames: Vec::new(),
            error: None,
            decoded: HashMap::new(),
            undo: Vec::new(),
            redo: Vec::new(),
            clean: Some(0),
        };
        match doc.unlock(None) {
            Err(EditorError::NeedsPassword) => doc.locked = true,
            other => other?,
        }
        Ok(doc)
    }

    /// Reads the file again, through its container with `password` if it needs one.
    pub fn unlock(&mut self, password: Option<&str>) -> Result<(), EditorError> {
        let raw = std::fs::read(&self.path).map_err(|e| EditorError::Io(self.path.clone(), e))?;
        let (container, bytes) = container::unwrap(raw, password)?;
        let sample = &bytes[..bytes.len().min(GUESS_SAMPLE)];
        let g = guess_start(sample, bytes.len(), container.framing());
        self.reading = Reading {
            dialect: g.best.era.dialect,
            version: g.best.era.last,
            framing: g.best.framing,
        };
        self.confidence = g.confidence;
        if let Some(dialect) = container.dialect() {
            // A model's bytes: no guess needed.
            self.reading.dialect = dialect;
            self.reading.version = dialect.newest();
            self.reading.framing = Framing::Bare;
            self.confidence = Confidence::High;
        }
        self.container = container;
        self.bytes = bytes;
        self.locked = false;
        self.undo.clear();
        self.redo.clear();
        self.clean = Some(0);
        self.find_frames();
        Ok(())
    }

    /// Reads the bytes another way; the edit history is dropped (its frames no longer exist).
    pub fn set_reading(&mut self, reading: Reading) {
        self.reading = reading;
        self.clean = if self.dirty() { None } else { Some(0) };
        self.undo.clear();
        self.redo.clear();
        self.find_frames();
    }

    /// The bytes as they are now.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The frames' bytes, in order.
    pub fn frames(&self) -> &[Range<usize>] {
        &self.frames
    }

    /// Where the frames lie: each found from its prefix (or, bare, by decoding its value),
    /// up to the first that does not read.
    fn find_frames(&mut self) {
        self.frames.clear();
        self.decoded.clear();
        self.error = None;
        let format = self.reading.format();
        let mut at = 0;
        while at < self.bytes.len() {
            match available(&self.bytes[at..], &format, usize::MAX) {
                Ok(Availability::Complete { len }) if len > 0 => {
                    self.frames.push(at..at + len);
                    at += len;
                }
                Ok(Availability::Complete { .. }) => break,
                Ok(Availability::NeedMore { needed }) => {
                    self.error = Some((
                        at,
                        format!("the input ends inside a frame: {needed} more bytes needed"),
                    ));
                    break;
                }
                Err(e) => {
                    self.error = Some((at + e.offset(), e.to_string()));
                    break;
                }
            }
        }
        // A frame whose value does not decode is found when it is opened: its error is shown
        // there. A bare file's values were decoded to be found, so they all read.
    }

    /// Frame `i` decoded, from the cache or now.
    pub fn frame(&mut self, i: usize) -> Result<Arc<Decoded>, EditorError> {
        if let Some(d) = self.decoded.get(&i) {
            return Ok(d.clone());
        }
        let range = self.frames.get(i).ok_or(EditorError::NoSuchNode)?.clone();
        let format = self.reading.format();
        let start = range.start + self.reading.framing.prefix_len();
        let (value, _, spans) = decode_with_spans(
            &self.bytes[..range.end],
            start,
            self.reading.dialect,
            &format.decode,
        )
        .map_err(|e| EditorError::Refused(e.to_string()))?;
        if self.decoded.len() >= CACHED_FRAMES {
            self.decoded.clear();
        }
        let d = Arc::new(Decoded {
            value,
            spans,
            explained: std::sync::OnceLock::new(),
        });
        self.decoded.insert(i, d.clone());
        Ok(d)
    }

    /// The `explain` line of frame `i` that is innermost at byte `offset`.
    pub fn explain_at(&mut self, i: usize, offset: usize) -> Result<Option<Line>, EditorError> {
        let d = self.frame(i)?;
        let range = self.frames[i].clone();
        let lines = d.explained.get_or_init(|| {
            let mut options = ExplainOptions::new(self.reading.dialect);
            options.decode = self.reading.format().decode;
            options.framing = self.reading.framing;
            options.max_elements = 64;
            let mut lines = explain(&self.bytes[range.clone()], &options).lines;
            for l in &mut lines {
                l.offset += range.start;
            }
            lines
        });
        Ok(lines
            .iter()
            .filter(|l| l.offset <= offset && offset < l.offset + l.len.max(1))
            .max_by_key(|l| l.depth)
            .cloned())
    }

    /// The frame that holds byte `offset`.
    pub fn frame_at(&self, offset: usize) -> Option<usize> {
        let i = self.frames.partition_point(|r| r.end <= offset);
        self.frames
            .get(i)
            .filter(|r| r.contains(&offset))
            .map(|_| i)
    }

    /// Replaces frame `i`'s value with `value`, if the engine can hold it: the encoder's
    /// error otherwise, and nothing changes.
    pub fn replace(&mut self, i: usize, value: &Variant) -> Result<(), EditorError> {
        if !self.container.writable() {
            let what = self.container.name();
            return Err(EditorError::Refused(format!(
                "{what}: nothing can be written"
            )));
        }
        let format = self.reading.format();
        let mut options = format.encode.clone();
        options.version = Some(self.reading.version);
        options.full_objects = crate::encode::needs_full_objects(value);
        let payload = encode(value, self.reading.dialect, &options)
            .map_err(|e| EditorError::Refused(e.to_string()))?;
        let after = frame_bytes(&payload, self.reading.framing);
        let before = self.bytes[self.frames[i].clone()].to_vec();
        self.apply(i, &after);
        self.undo.push(Change {
            frame: i,
            before,
            after,
        });
        if self.clean.is_some_and(|c| c >= self.undo.len()) {
            // The state on disk was in the redo history, which this edit drops.
            self.clean = None;
        }
        if self.undo.len() > HISTORY {
            self.undo.remove(0);
            self.clean = self.clean.and_then(|c| c.checked_sub(1));
        }
        self.redo.clear();
        Ok(())
    }

    /// Puts `bytes` in place of frame `i`'s, moving the frames after it.
    fn apply(&mut self, i: usize, bytes: &[u8]) {
        let old = self.frames[i].clone();
        self.bytes.splice(old.clone(), bytes.iter().copied());
        let new_end = old.start + bytes.len();
        let shift = new_end as isize - old.end as isize;
        self.frames[i] = old.start..new_end;
        for r in &mut self.frames[i + 1..] {
            *r = (r.start as isize + shift) as usize..(r.end as isize + shift) as usize;
        }
        if let Some((at, _)) = &mut self.error {
            *at = (*at as isize + shift) as usize;
        }
        // Spans of later frames moved too.
        self.decoded.retain(|&k, _| k < i);
    }

    /// Undoes the last edit; the frame it changed, if any.
    pub fn undo(&mut self) -> Option<usize> {
        self.step(true)
    }

    /// Does again the last edit undone; the frame it changed, if any.
    pub fn redo(&mut self) -> Option<usize> {
        self.step(false)
    }

    /// One step back (undo) or forward (redo) through the history.
    fn step(&mut self, back: bool) -> Option<usize> {
        let c = if back {
            self.undo.pop()?
        } else {
            self.redo.pop()?
        };
        self.apply(c.frame, if back { &c.before } else { &c.after });
        let frame = c.frame;
        if back {
            self.redo.push(c);
        } else {
            self.undo.push(c);
        }
        Some(frame)
    }

    /// Whether the bytes differ from the file on disk (edits made and not saved, or undone
    /// past the last save).
    pub fn dirty(&self) -> bool {
        self.clean != Some(self.undo.len())
    }

    /// How many edits can be undone and redone.
    pub fn history(&self) -> (usize, usize) {
        (self.undo.len(), self.redo.len())
    }

    /// Writes the bytes back to the file, atomically: a temporary file beside it, renamed
    /// over it; the file as it was before the first save is kept as `NAME.bak`.
    pub fn save(&mut self) -> Result<PathBuf, EditorError> {
        let io = |e| EditorError::Io(self.path.clone(), e);
        let out = container::wrap(&self.container, &self.bytes)?;
        let name = self.path.file_name().unwrap_or_default().to_string_lossy();
        let dir = self.path.parent().unwrap_or(Path::new("."));
        let backup = dir.join(format!("{name}.bak"));
        let temp = dir.join(format!(".{name}.gdvariant-{}.tmp", std::process::id()));
        if !self.backed_up {
            std::fs::copy(&self.path, &backup).map_err(io)?;
            self.backed_up = true;
        }
        let written = (|| {
            use std::io::Write;
            let mut f = std::fs::File::create(&temp)?;
            f.write_all(&out)?;
            f.sync_all()?;
            if let Ok(meta) = std::fs::metadata(&self.path) {
                f.set_permissions(meta.permissions())?;
            }
            std::fs::rename(&temp, &self.path)
        })();
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temp);
            return Err(io(e));
        }
        self.clean = Some(self.undo.len());
        Ok(backup)
    }
}
