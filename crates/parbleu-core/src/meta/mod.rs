//! Meta-evaluation: how well metric scores agree with human scores, as Google's
//! mt-metrics-eval (MTME) computes it (correlations, Kendall variants, tie-calibrated accuracy,
//! the PERM-BOTH permutation test).
//!
//! Scores arrive grouped: a flat vector and the lengths of its consecutive groups (one group
//! per system, per item, or one for everything), with missing human scores already removed.

pub mod boot;
pub mod corr;
pub mod kendall;
pub mod perm;
pub mod sums;
pub mod tau_opt;

#[cfg(test)]
mod tests;

pub use corr::Corr;
pub use kendall::{TauStats, Variant};

/// The consecutive groups of a flat vector: `(start, end)` per length.
pub fn bounds(lens: &[usize]) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(lens.len());
    let mut start = 0;
    for &n in lens {
        out.push((start, start + n));
        start += n;
    }
    out
}
