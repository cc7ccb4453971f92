//! Significance testing on additive statistics: bootstrap resampling and approximate
//! randomization (AR), parallel over resamples, identical results at any thread count.
//!
//! Two paths share the resampling loops:
//!
//! - **exact**: statistics are summed as integers (TER: float64 in a fixed order), indices and
//!   masks come from a small counter-based PRNG ([`SplitMix64::stream`]): resample `r` always
//!   uses stream `(seed, r)`, whichever thread computes it and however the work is split.
//!   Scores are the metrics' own `finalize` functions, so a resample's score is exactly the
//!   corpus score of the resampled corpus.
//! - **SacreBLEU-compatible**: the caller supplies numpy's draws; bootstrap sums are float32
//!   added in numpy's order and scored with SacreBLEU's mixed float32 / float64 arithmetic
//!   ([`Num`]), so every value is bit-identical to SacreBLEU 2.6's.
//!
//! AR sums use byte tables: for each group of 8 segments, the 256 possible sums of "this row
//! from system A, that row from system B" are tabulated once, so one trial costs one lookup
//! and one vector addition per 8 segments instead of 8.

//! Files: [`scorer`] (each metric's finalize, exact and SacreBLEU-compatible), [`bootstrap`],
//! [`ar`]; statistics checks are here. The counter-based PRNG is [`crate::rng`] (ROUGE's
//! bootstrap uses it too).

mod ar;
mod bootstrap;
mod rows;
mod scorer;
#[cfg(test)]
mod tests;

pub use crate::rng::{mix64, Domain, SplitMix64};
pub use ar::{ar, ar_masks, ar_sums, mask_bytes};
pub use bootstrap::{bootstrap, bootstrap_compat, bootstrap_indices};
pub use rows::{ar_rows, bootstrap_indices_rows, bootstrap_rows, Rows};
pub use scorer::{Num, Scorer};

use crate::error::{Error, Result};
use crate::metrics::count::Count;

// --- statistics element types -----------------------------------------------------------------

/// An element of a statistics row: `i64` (BLEU, chrF) or `f64` (TER).
pub trait Stat:
    Count
    + Default
    + Send
    + Sync
    + PartialEq
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::AddAssign
    + 'static
{
    /// Sums are exact in any order (integers): `b = total - a` is then exact too.
    const EXACT: bool;
    /// The metric's exact score of a summed row.
    #[inline]
    fn exact(sc: &Scorer, row: &[Self]) -> f64 {
        sc.exact(row)
    }
    /// The element as SacreBLEU holds it in an int64 / float64 numpy row.
    #[inline]
    fn py(self) -> Num {
        Num::Py(self.to_f64())
    }
}

impl Stat for i64 {
    const EXACT: bool = true;
}

impl Stat for f64 {
    const EXACT: bool = false;
}

pub(super) fn check_rows<T>(sc: &Scorer, rows: &[T], n_seg: usize, what: &str) -> Result<()> {
    let w = sc.width();
    if n_seg == 0 {
        return Err(Error::InvalidOption {
            name: what.into(),
            value: "0 segments".into(),
            expected: "at least one segment".into(),
        });
    }
    if rows.len() != n_seg * w {
        return Err(Error::LengthMismatch {
            what: format!("{what}: statistics values ({n_seg} segments x {w} columns)"),
            expected: n_seg * w,
            found: rows.len(),
        });
    }
    Ok(())
}

pub(super) fn check_indices(idxs: &[i64], n_seg: usize) -> Result<usize> {
    let rem = idxs.len() % n_seg;
    if rem > 0 {
        return Err(Error::BadStatsShape {
            expected: n_seg,
            found: rem,
        });
    }
    if let Some(&bad) = idxs.iter().find(|&&i| i < 0 || i as u64 >= n_seg as u64) {
        return Err(Error::InvalidOption {
            name: "resample indices".into(),
            value: bad.to_string(),
            expected: format!("integers in 0..{n_seg}"),
        });
    }
    Ok(idxs.len() / n_seg)
}

/// Resamples (or trials) computed by one task: small enough to balance two to sixty-four
/// threads, large enough that scheduling costs nothing.
pub(super) const TASK: usize = 8;
