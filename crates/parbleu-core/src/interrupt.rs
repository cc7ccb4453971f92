//! Cooperative cancellation of long work inside one item (TER's shift search on a huge
//! segment), where checking between items is not enough.
//!
//! The binding installs a hook that looks for Ctrl-C; long loops call [`requested`] often, and
//! it calls the hook at most every [`POLL_EVERY`]. Once the hook says stop, every running
//! loop stops (their partial results are garbage) until the last [`Guard`] of the calls that
//! were running is dropped; the binding then raises instead of returning those results.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Least time between two calls of the hook on one thread.
pub const POLL_EVERY: Duration = Duration::from_millis(50);

static HOOK: OnceLock<fn() -> bool> = OnceLock::new();
static STOP: AtomicBool = AtomicBool::new(false);
static ACTIVE: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static LAST: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Install the function that says whether to stop (the first installation wins).
pub fn install(hook: fn() -> bool) {
    let _ = HOOK.set(hook);
}

/// Whether long work should stop now. Cheap: the hook runs at most every [`POLL_EVERY`].
pub fn requested() -> bool {
    if STOP.load(Ordering::Relaxed) {
        return true;
    }
    // Outside an interruptible call nobody would discard the result: never stop there.
    let Some(hook) = HOOK.get().filter(|_| ACTIVE.load(Ordering::Relaxed) > 0) else {
        return false;
    };
    let now = Instant::now();
    let due = LAST.with(|last| match last.get() {
        Some(t) if now.duration_since(t) < POLL_EVERY => false,
        _ => {
            last.set(Some(now));
            true
        }
    });
    if due && hook() {
        STOP.store(true, Ordering::Relaxed);
        return true;
    }
    false
}

/// Marks one interruptible call; [`Guard::stopped`] says whether its results are garbage.
pub struct Guard(());

impl Guard {
    /// Start an interruptible call.
    pub fn new() -> Self {
        ACTIVE.fetch_add(1, Ordering::SeqCst);
        LAST.with(|last| last.set(Some(Instant::now())));
        Guard(())
    }

    /// Whether a stop was requested while this call (or a concurrent one) ran.
    pub fn stopped(&self) -> bool {
        STOP.load(Ordering::SeqCst)
    }
}

impl Default for Guard {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if ACTIVE.fetch_sub(1, Ordering::SeqCst) == 1 {
            STOP.store(false, Ordering::SeqCst);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_lasts_until_the_last_guard() {
        let a = Guard::new();
        let b = Guard::new();
        STOP.store(true, Ordering::SeqCst);
        assert!(requested() && a.stopped());
        drop(a);
        assert!(b.stopped());
        drop(b);
        assert!(!STOP.load(Ordering::SeqCst));
    }
}
