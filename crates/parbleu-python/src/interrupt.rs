//! The GIL and Ctrl-C: work runs with the GIL released, in blocks, and stops on Ctrl-C.
//!
//! [`for_each_block`] is the one loop every batch call uses: each block runs with the GIL
//! released and [`interruptible`] (long single items, such as TER's shift search on a huge
//! segment, stop on Ctrl-C: [`parbleu_core::interrupt`]), and Ctrl-C is checked between blocks.
//! Blocks are small enough that Ctrl-C is seen within about a second.

use crate::error::Result;
use parbleu_core::interrupt;
use pyo3::prelude::*;
use std::ops::Range;

/// The interrupt hook: Ctrl-C seen (its `KeyboardInterrupt` is left set on this thread).
fn ctrl_c_pressed() -> bool {
    Python::attach(|py| match py.check_signals() {
        Ok(()) => false,
        Err(e) => {
            e.restore(py);
            true
        }
    })
}

/// Install the Ctrl-C hook of the core's long loops.
pub(crate) fn install() {
    interrupt::install(ctrl_c_pressed);
}

/// Run `f` with the GIL released where long single items stop on Ctrl-C
/// ([`parbleu_core::interrupt`]); a stopped run's result is dropped and the interrupt raised.
pub(crate) fn interruptible<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    let guard = interrupt::Guard::new();
    let out = py.detach(f);
    if guard.stopped() {
        // The hook left KeyboardInterrupt set on the thread that saw it; a concurrent call
        // stopped by it raises one of its own.
        return Err(PyErr::take(py)
            .unwrap_or_else(|| pyo3::exceptions::PyKeyboardInterrupt::new_err("interrupted")));
    }
    Ok(out)
}

/// `0..n` cut into blocks of `size` (none when `n` is 0).
pub(crate) fn blocks(n: usize, size: usize) -> impl Iterator<Item = Range<usize>> {
    let size = size.max(1);
    (0..n).step_by(size).map(move |s| s..(s + size).min(n))
}

/// [`blocks`], but one empty block when `n` is 0 (for calls whose core function checks its
/// inputs, so that an empty batch still gets that check).
pub(crate) fn blocks_at_least_one(n: usize, size: usize) -> impl Iterator<Item = Range<usize>> {
    blocks(n, size).chain((n == 0).then_some(0..0))
}

/// Run `f` on each block with the GIL released ([`interruptible`]), checking Ctrl-C after each;
/// `f` keeps its results (it is called on one thread, one block after another). The first
/// error stops the loop.
pub(crate) fn for_each_block<E>(
    py: Python<'_>,
    blocks: impl IntoIterator<Item = Range<usize>>,
    mut f: impl FnMut(Range<usize>) -> std::result::Result<(), E> + Send,
) -> Result<()>
where
    E: Send,
    crate::error::Error: From<E>,
{
    for b in blocks {
        interruptible(py, || f(b))??;
        py.check_signals()?;
    }
    Ok(())
}
