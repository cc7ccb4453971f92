//! What the metric bindings (`bleu`, `chrf`, `ter`) share: a batch of hypotheses scored block
//! by block, and the width check of statistics rows.

use crate::convert::borrow_hyps;
use crate::error::Result;
use crate::interrupt::{blocks, for_each_block};
use parbleu_core::Error as CoreError;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// `f(start, block)` over the hypotheses `block_len` at a time ([`for_each_block`]),
/// concatenated. `expected` is the number of reference segments.
pub(crate) fn batch<T: Send + Clone>(
    py: Python<'_>,
    hyps: &[Bound<'_, PyString>],
    expected: usize,
    block_len: usize,
    f: impl Fn(usize, &[&str]) -> parbleu_core::Result<Vec<T>> + Sync,
) -> Result<Vec<T>> {
    let hyps = borrow_hyps(hyps, expected)?;
    let mut out = Vec::with_capacity(hyps.len());
    for_each_block(py, blocks(hyps.len(), block_len), |b| {
        out.extend_from_slice(&f(b.start, &hyps[b])?);
        Ok::<_, CoreError>(())
    })?;
    Ok(out)
}

/// Statistics rows of `found` columns where the options give `expected`.
pub(crate) fn check_width(expected: usize, found: usize) -> Result<()> {
    if found != expected {
        return Err(CoreError::BadStatsShape { expected, found }.into());
    }
    Ok(())
}
