//! The pairwise contract: what a metric with sentence scores implements to give H × R tables.
//!
//! A pairwise kind is one [`PairMetric`] implementation (strings preprocessed once, then the
//! score of any (hypothesis, reference) pair of them) and one line of the kinds list in
//! `pairwise::table`. Modes beyond the rectangle are capabilities the kind declares
//! ([`PairModes`]); the table refuses an undeclared mode by name, never by trying it.

use crate::error::{Error, Result};
use std::ops::Range;

/// The modes a pairwise kind offers beyond [`PairMetric::score_rect`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PairModes {
    /// [`PairMetric::score_symmetric`]: a list against itself computes the work each
    /// unordered pair shares once (clipped n-gram matches are symmetric; an edit rate is not).
    pub symmetric: bool,
    /// [`PairMetric::score_aggregate`]: reference aggregation (mean n-gram counts are defined;
    /// a mean alignment is not).
    pub aggregate: bool,
}

impl PairModes {
    /// Only the rectangle.
    pub const RECT: PairModes = PairModes {
        symmetric: false,
        aggregate: false,
    };
}

/// A metric's pair table: its strings preprocessed once, scored pair by pair.
pub trait PairMetric: Sized + Send + Sync {
    /// The options a table is built with.
    type Opts: Send + Sync;
    /// The metric's name, for messages.
    const NAME: &'static str;
    /// The modes this kind declares.
    const MODES: PairModes;

    /// Preprocess `strings` (hypotheses and references alike: a pair indexes into them).
    fn build(opts: &Self::Opts, strings: &[String], workers: usize) -> Self;

    /// Number of strings.
    fn len(&self) -> usize;

    /// Whether the table holds no string.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Scores of hypotheses `rows` against references `cols` (indices into this table),
    /// row-major into `out` (`rows.len() * cols.len()`): element `(i, j)` is the metric's
    /// sentence score of string `rows[i]` against the one reference `cols[j]`.
    fn score_rect(&self, rows: &[usize], cols: &[usize], out: &mut [f64], workers: usize);

    /// Rows `rows` of the every-string-against-every-string matrix, `out` the full
    /// `len() × len()` matrix, filling `(i, j)` and `(j, i)` for `i` in `rows`, `j >= i`.
    /// Only for kinds that declare [`PairModes::symmetric`].
    fn score_symmetric(&self, rows: Range<usize>, out: &mut [f64], workers: usize) -> Result<()> {
        let _ = (rows, out, workers);
        Err(undeclared(
            Self::NAME,
            "score_symmetric",
            "a metric that declares it",
        ))
    }

    /// Each hypothesis of `rows` against the weighted mean of the references `cols` (weights
    /// summing to 1). Only for kinds that declare [`PairModes::aggregate`].
    fn score_aggregate(
        &self,
        rows: &[usize],
        cols: &[usize],
        weights: &[f64],
        out: &mut [f64],
        workers: usize,
    ) -> Result<()> {
        let _ = (rows, cols, weights, out, workers);
        Err(undeclared(
            Self::NAME,
            "score_aggregate",
            "a metric that declares it",
        ))
    }
}

/// The error for `mode` on a table of `metric`, which does not declare it; `expected` says
/// which tables do.
pub fn undeclared(metric: &str, mode: &str, expected: &str) -> Error {
    Error::InvalidOption {
        name: mode.into(),
        value: format!("a {metric} pair table (the mode is not declared by {metric})"),
        expected: expected.into(),
    }
}
