//! The checks every metric makes of its inputs before extracting statistics.

use crate::error::{Error, Result};

/// One hypothesis per reference segment: `n_hyps` hypotheses for `n_refs` segments.
pub(crate) fn one_per_segment(n_hyps: usize, n_refs: usize) -> Result<()> {
    if n_hyps != n_refs {
        return Err(mismatch(n_refs, n_hyps));
    }
    Ok(())
}

/// The `n` hypotheses of segments `first..first + n` (a block of a corpus) all have a segment
/// among the `n_refs`.
pub(crate) fn block_in_range(first: usize, n: usize, n_refs: usize) -> Result<()> {
    if first + n > n_refs {
        return Err(mismatch(n_refs, first + n));
    }
    Ok(())
}

fn mismatch(expected: usize, found: usize) -> Error {
    Error::LengthMismatch {
        what: "hypotheses vs references".into(),
        expected,
        found,
    }
}
