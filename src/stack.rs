//! Growing the stack on demand for the recursive walks of the JSON form, so no library call needs a thread of its own.

/// Runs `f`, one level of a recursive walk, with at least [`RED_ZONE`] bytes of stack left:
/// when less is left, `f` runs on a fresh segment (memory from the allocator, no thread),
/// so a walk is as deep as its value whatever the caller's stack.
#[inline]
pub(crate) fn grow<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}

/// Stack that one level of any walk here needs, with room to spare in a debug build.
const RED_ZONE: usize = 128 << 10;
/// Size of each new segment: a few dozen levels.
const SEGMENT: usize = 4 << 20;
