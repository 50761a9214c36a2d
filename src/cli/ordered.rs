//! Work on batches spread over threads, its results handed back in the batches' order: the one pipe of `decode` that uses every core on one file.
//!
//! The calling thread makes the batches (reading the input) and consumes the results (writing
//! the output); `threads` workers turn batches into results. At most four batches per worker
//! are out at once (queued, in work, or done and waiting for an earlier one), so memory stays
//! a few batches whatever the input's size, even behind one slow batch, and a slow output
//! holds the reading back.

use std::collections::BTreeMap;
use std::sync::mpsc;
use std::sync::Mutex;

/// Runs `work` on every batch `next` makes, on `threads` threads, and hands each result to
/// `done` in the order of the batches. `done` returning `false` stops the run: no batch is
/// read after that and the results not yet handed out are dropped. With one thread, or
/// none, everything happens on the calling thread.
pub fn run<B, R>(
    threads: usize,
    mut next: impl FnMut() -> Option<B>,
    work: impl Fn(B) -> R + Sync,
    mut done: impl FnMut(R) -> bool,
) where
    B: Send,
    R: Send,
{
    if threads <= 1 {
        while let Some(b) = next() {
            if !done(work(b)) {
                return;
            }
        }
        return;
    }
    let (to_work, jobs) = mpsc::sync_channel::<(usize, B)>(2 * threads);
    let jobs = Mutex::new(jobs);
    let (to_main, results) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (jobs, to_main, work) = (&jobs, to_main.clone(), &work);
            scope.spawn(move || loop {
                // The lock is held only while a batch is taken, not while it is worked on.
                let job = match jobs.lock() {
                    Ok(rx) => rx.recv(),
                    Err(_) => return,
                };
                let Ok((seq, batch)) = job else { return };
                if to_main.send((seq, work(batch))).is_err() {
                    return;
                }
            });
        }
        drop(to_main);
        // Results that came early, until the ones before them have come.
        let mut early: BTreeMap<usize, R> = BTreeMap::new();
        let mut handed = 0;
        let mut made = 0;
        let mut stopped = false;
        let mut hand = |r: (usize, R), early: &mut BTreeMap<usize, R>, handed: &mut usize| {
            early.insert(r.0, r.1);
            while let Some(r) = early.remove(handed) {
                *handed += 1;
                if !done(r) {
                    return false;
                }
            }
            true
        };
        // Batches out at once: beyond this, the reading waits for results.
        let most_out = 4 * threads;
        while let Some(b) = next() {
            if to_work.send((made, b)).is_err() {
                break;
            }
            made += 1;
            loop {
                // An earlier batch is always queued or in work while any is out, so a
                // result is on its way when this waits.
                let r = if made - handed >= most_out {
                    results.recv().ok()
                } else {
                    results.try_recv().ok()
                };
                let Some(r) = r else { break };
                if !hand(r, &mut early, &mut handed) {
                    stopped = true;
                    break;
                }
            }
            if stopped {
                break;
            }
        }
        // No more batches: the workers stop once the queue is empty.
        drop(to_work);
        if !stopped {
            while handed < made {
                let Ok(r) = results.recv() else { break };
                if !hand(r, &mut early, &mut handed) {
                    break;
                }
            }
        }
        // Dropping the receiver makes a worker still busy stop at its next result.
        drop(results);
    });
}

/// Byte buffers handed back once used, for the next batch: fresh big buffers cost a page
/// fault per 4 KiB each time (glibc gives them back to the system when freed), which on the
/// the benchmarks' savegame was a fifth of the CPU time of `decode`.
pub struct Spare {
    kept: Mutex<Vec<Vec<u8>>>,
    most: usize,
}

impl Spare {
    /// A pool that keeps `most` buffers at most.
    pub fn new(most: usize) -> Spare {
        Spare {
            kept: Mutex::new(Vec::new()),
            most,
        }
    }

    /// An empty buffer, one handed back if there is one.
    pub fn take(&self) -> Vec<u8> {
        let kept = self.kept.lock().ok().and_then(|mut k| k.pop());
        kept.unwrap_or_default()
    }

    /// Keeps `buf` for a later [`Spare::take`] (emptied), unless enough are kept.
    pub fn give(&self, mut buf: Vec<u8>) {
        buf.clear();
        if let Ok(mut kept) = self.kept.lock() {
            if kept.len() < self.most {
                kept.push(buf);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::run;

    /// Results come in the batches' order however the threads finish, and a stop ends the
    /// reading.
    #[test]
    fn in_order_and_stops() {
        for threads in [1, 2, 5] {
            let mut n = 0;
            let mut seen = Vec::new();
            run(
                threads,
                || {
                    (n < 200).then(|| {
                        n += 1;
                        n
                    })
                },
                // Later batches finish sooner: out of order on several threads.
                |b: u32| {
                    std::thread::sleep(std::time::Duration::from_micros(u64::from(200 - b)));
                    b * 2
                },
                |r| {
                    seen.push(r);
                    true
                },
            );
            assert_eq!(seen, (1..=200).map(|b| b * 2).collect::<Vec<_>>());

            let mut n = 0;
            let mut seen = Vec::new();
            run(
                threads,
                || {
                    n += 1;
                    Some(n)
                },
                |b: u32| b,
                |r| {
                    seen.push(r);
                    r < 50
                },
            );
            assert_eq!(seen, (1..=50).collect::<Vec<_>>());
            // Reading stopped soon after: no more than the batches out at once were read
            // past the stop.
            assert!(n <= 50 + 4 * threads as u32 + 1, "{n} batches read");
        }
    }

    /// One slow batch holds the reading back: the batches after it, done and waiting for it,
    /// stay within the bound, however many the input has.
    #[test]
    fn a_slow_batch_bounds_what_is_read_ahead() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let threads = 3;
        let read = AtomicUsize::new(0);
        let most_ahead = AtomicUsize::new(0);
        let mut n = 0;
        let mut handed = 0;
        run(
            threads,
            || {
                (n < 300).then(|| {
                    n += 1;
                    read.store(n, Ordering::SeqCst);
                    n
                })
            },
            |b: usize| {
                if b == 10 {
                    std::thread::sleep(std::time::Duration::from_millis(300));
                    // Everything read while this batch was worked on.
                    most_ahead.store(read.load(Ordering::SeqCst) - b, Ordering::SeqCst);
                }
                b
            },
            |r| {
                handed += 1;
                assert_eq!(r, handed);
                true
            },
        );
        assert_eq!(handed, 300);
        let ahead = most_ahead.load(Ordering::SeqCst);
        assert!(
            ahead < 4 * threads,
            "{ahead} batches read past the slow one"
        );
    }
}
