//! JSON Lines framed into one writer by worker threads that live for the whole stream.

use super::stream::{line_text, Documents, Frames, Line};
use super::*;
use crate::format::Format;
use std::io::Write;

/// Why [`encode_values_to`](super::encode_values_to) stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeToError {
    /// The input is not JSON of a value (or could not be read): the reader's error, which
    /// names the document and line.
    #[error(transparent)]
    Json(#[from] JsonError),
    /// Value `value` (counted from 1) cannot be encoded; the values before it were written.
    #[error("value {value}: {error}")]
    Encode {
        /// The value's number.
        value: usize,
        /// The encoder's error.
        #[source]
        error: crate::EncodeError,
    },
    /// The writer failed.
    #[error(transparent)]
    Write(#[from] std::io::Error),
}

/// Bytes of whole lines handed to a worker at a time: big enough that a megabyte of JSON costs
/// one read, one hand-over and one write, small enough that the first frames are written soon
/// and that a few of them in flight keep the peak low.
const CHUNK: usize = 1 << 20;

/// What a worker made of a chunk of whole lines.
struct Done {
    seq: u64,
    /// The chunk, back for reuse (or to be read again by the scan).
    chunk: Vec<u8>,
    /// The bytes of whole lines in `chunk`.
    len: usize,
    /// The frames of the documents read, one after another.
    frames: Vec<u8>,
    /// The lines read (blank ones too), their bytes and the documents among them.
    lines: usize,
    used: usize,
    docs: usize,
    /// Where the chunk stopped short, at line `lines`.
    stop: Option<Stop>,
}

enum Stop {
    /// A line not in our writer's layout: the scan reads from it on.
    Other,
    /// The line's value cannot be encoded.
    Encode(crate::EncodeError),
}

/// Reads the whole lines of `text` with [`fast::read`] and frames their values into `frames`,
/// up to the first line that is not in our layout or whose value is refused.
fn frame_lines(seq: u64, chunk: Vec<u8>, len: usize, mut frames: Vec<u8>, format: &Format) -> Done {
    frames.clear();
    // A savegame's frames come to 36% of its JSON: room for them at once, not grown (and
    // copied) a few times for each new buffer.
    frames.reserve(len / 2);
    let mut done = Done {
        seq,
        chunk: Vec::new(),
        len,
        frames: Vec::new(),
        lines: 0,
        used: 0,
        docs: 0,
        stop: None,
    };
    let mut from = 0;
    for nl in memchr::memchr_iter(b'\n', &chunk[..len]) {
        let line = &chunk[from..=nl];
        match line_text(line) {
            Line::Blank => {}
            Line::Read(t) => match fast::read(t) {
                Some(v) => match crate::framing::frame_into(&mut frames, &v, format) {
                    Ok(()) => done.docs += 1,
                    Err(e) => {
                        done.stop = Some(Stop::Encode(e));
                        break;
                    }
                },
                None => {
                    done.stop = Some(Stop::Other);
                    break;
                }
            },
            Line::Other => {
                done.stop = Some(Stop::Other);
                break;
            }
        }
        done.lines += 1;
        from = nl + 1;
    }
    done.used = from;
    done.chunk = chunk;
    done.frames = frames;
    done
}

/// A chunk to frame.
struct Job {
    seq: u64,
    chunk: Vec<u8>,
    len: usize,
    frames: Vec<u8>,
}

/// Where chunks are framed: on `threads` workers, or on the calling thread when there is one.
struct Pool<'a> {
    jobs: Option<std::sync::mpsc::Sender<Job>>,
    done: std::sync::mpsc::Receiver<std::thread::Result<Done>>,
    /// Chunks framed on the calling thread (without workers), not yet taken.
    here: std::collections::VecDeque<Done>,
    format: &'a Format,
}

impl Pool<'_> {
    fn send(&mut self, job: Job) {
        match &self.jobs {
            Some(jobs) => jobs
                .send(job)
                .expect("the workers live as long as the pool"),
            None => self.here.push_back(frame_lines(
                job.seq,
                job.chunk,
                job.len,
                job.frames,
                self.format,
            )),
        }
    }

    /// The next chunk framed (any order); a worker's panic goes on here.
    fn recv(&mut self) -> Done {
        if let Some(d) = self.here.pop_front() {
            return d;
        }
        match self.done.recv().expect("a chunk was sent") {
            Ok(d) => d,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
}

/// Frames every value of `input` into `out`, JSON Lines in our writer's layout on `threads`
/// workers a chunk at a time while this thread reads the next chunks and writes the frames of
/// the chunks done, in order; anything else by [`Documents`]' scan, on this thread. Returns
/// how many values were written.
pub(super) fn encode_to<R: std::io::Read, W: Write>(
    input: R,
    threads: usize,
    format: &Format,
    out: &mut W,
) -> Result<usize, EncodeToError> {
    let mut docs = Documents::new(input, 1, Frames(format.clone()));
    if threads <= 1 {
        let (_, done) = std::sync::mpsc::channel();
        let mut pool = Pool {
            jobs: None,
            done,
            here: Default::default(),
            format,
        };
        return drive(&mut docs, &mut pool, 1, out);
    }
    let (jobs, queue) = std::sync::mpsc::channel::<Job>();
    let queue = std::sync::Mutex::new(queue);
    let (done_tx, done) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (queue, done_tx) = (&queue, done_tx.clone());
            scope.spawn(move || loop {
                // The lock is held only to take a job; it ends when the pool is dropped.
                let job = match queue.lock().map(|q| q.recv()) {
                    Ok(Ok(job)) => job,
                    _ => return,
                };
                let d = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    frame_lines(job.seq, job.chunk, job.len, job.frames, format)
                }));
                if done_tx.send(d).is_err() {
                    return;
                }
            });
        }
        drop(done_tx);
        let mut pool = Pool {
            jobs: Some(jobs),
            done,
            here: Default::default(),
            format,
        };
        // Returning drops the pool's sender, which ends the workers.
        drive(&mut docs, &mut pool, threads, out)
    })
}

/// The loop of [`encode_to`]: fast phases (chunks on the pool) and the scan between them.
fn drive<R: std::io::Read, W: Write>(
    docs: &mut Documents<R, Frames>,
    pool: &mut Pool,
    threads: usize,
    out: &mut W,
) -> Result<usize, EncodeToError> {
    // Chunks in flight: one more per worker keeps each busy while this thread writes and reads.
    let in_flight_max = 2 * threads;
    let mut spare_chunks: Vec<Vec<u8>> = Vec::new();
    let mut spare_frames: Vec<Vec<u8>> = Vec::new();
    let mut seq = 0u64;
    loop {
        // The first line alone first, as `Documents::fast_lines` does, so that documents
        // that are not JSON Lines cost no chunk read ahead and put back each.
        if docs.first_line() {
            let frame = docs.take_ready().expect("first_line read a value");
            put(docs, frame, out)?;
            // The chunks: sent in order, written in order.
            let mut next_write = seq;
            let mut pending: std::collections::BTreeMap<u64, Done> = Default::default();
            let mut input_done = false;
            let mut stopped: Option<Done> = None;
            while stopped.is_none() {
                let in_flight = (seq - next_write) as usize;
                if !input_done && in_flight < in_flight_max {
                    let chunk = spare_chunks.pop().unwrap_or_default();
                    match docs.input.take_lines(chunk, CHUNK) {
                        Ok(Some((chunk, len))) => {
                            let frames = spare_frames.pop().unwrap_or_default();
                            pool.send(Job {
                                seq,
                                chunk,
                                len,
                                frames,
                            });
                            seq += 1;
                            continue;
                        }
                        // The rest (a last line without a line feed, a read error) is the
                        // scan's, which reports the error.
                        Ok(None) | Err(_) => input_done = true,
                    }
                }
                if seq == next_write {
                    break;
                }
                let d = pool.recv();
                pending.insert(d.seq, d);
                while let Some(d) = pending.remove(&next_write) {
                    next_write += 1;
                    out.write_all(&d.frames)?;
                    docs.line += d.lines;
                    docs.n += d.docs;
                    match d.stop {
                        None => {
                            spare_chunks.push(d.chunk);
                            spare_frames.push(d.frames);
                        }
                        Some(Stop::Encode(error)) => {
                            return Err(EncodeToError::Encode {
                                value: docs.n + 1,
                                error,
                            })
                        }
                        Some(Stop::Other) => {
                            stopped = Some(d);
                            break;
                        }
                    }
                }
            }
            if let Some(d) = stopped {
                // The chunks after it were read ahead: they wait for the scan, in order.
                while pending.len() < (seq - next_write) as usize {
                    let d = pool.recv();
                    pending.insert(d.seq, d);
                }
                let mut back: Vec<&[u8]> = vec![&d.chunk[d.used..d.len]];
                back.extend(pending.values().map(|d| &d.chunk[..d.len]));
                docs.input.unread(&back);
            }
        }
        match docs.scan_document() {
            None => return Ok(docs.n),
            Some(Err(e)) => return Err(e.into()),
            Some(Ok(frame)) => put(docs, frame, out)?,
        }
    }
}

/// Writes the frame of value `docs.n`, or says why it has none.
fn put<R, W: Write>(
    docs: &Documents<R, Frames>,
    frame: Result<Vec<u8>, crate::EncodeError>,
    out: &mut W,
) -> Result<(), EncodeToError> {
    match frame {
        Ok(bytes) => Ok(out.write_all(&bytes)?),
        Err(error) => Err(EncodeToError::Encode {
            value: docs.n,
            error,
        }),
    }
}
