//! Running deeply recursive work (the JSON form, the explain walker) on a stack that holds it.

/// Runs `f`, one level of a recursive walk, with at least [`RED_ZONE`] bytes of stack left:
/// when less is left, `f` runs on a fresh segment (memory from the allocator, no thread),
/// so a walk is as deep as its value whatever the caller's stack.
#[cfg(feature = "json")]
#[inline]
pub(crate) fn grow<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}

/// Stack that one level of any walk here needs, with room to spare in a debug build.
#[cfg(feature = "json")]
const RED_ZONE: usize = 128 << 10;
/// Size of each new segment: a few dozen levels.
#[cfg(feature = "json")]
const SEGMENT: usize = 4 << 20;

/// Runs `f`, which recurses about once per level of a value `depth` levels deep, on a stack
/// that holds it: inline for shallow values, else on a helper thread with a stack sized for
/// the depth. The decoder accepts 1024 levels, more than a 2 MiB thread stack can recurse
/// through in a debug build; this keeps every value it accepts safe to walk.
pub(crate) fn with_stack_for<T: Send>(depth: usize, f: impl FnOnce() -> T + Send) -> T {
    const INLINE: usize = 64;
    if depth <= INLINE {
        return f();
    }
    let stack = (depth.saturating_mul(64 << 10)).max(8 << 20);
    std::thread::scope(|s| {
        match std::thread::Builder::new()
            .stack_size(stack)
            .spawn_scoped(s, f)
        {
            Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            Err(e) => panic!("cannot start a thread for a value {depth} levels deep: {e}"),
        }
    })
}
