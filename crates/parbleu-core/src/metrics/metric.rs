//! The metric contract: prepare references once, extract additive cells per segment, finalize
//! a summed row.
//!
//! - [`Prepare`]: a metric's references, prepared once from a [`RefSet`] with its extraction
//!   options and reused across systems (BLEU, chrF, TER).
//! - `Extract` (`metrics::extract`): the prepared
//!   references give one fixed-width row of cells per segment's hypothesis; the block loops
//!   (`extract`, `extract_block`, `sentence_scores_block`) are generic over it (BLEU's binding
//!   also walks its rows in the references' grouped order, `bleu::extract_pairs`; ROUGE and the
//!   caption metrics score pairs and give mean rows, `metrics::mean`).
//! - [`Metric`]: the finalize step with its options: row width, option check, the exact score
//!   of a summed row, and SacreBLEU's arithmetic where SacreBLEU has the metric.
//!
//! Significance, the binding's `Scorer` and the row dispatch go through the one list of metric
//! kinds in `metrics::kinds`, so a new metric is an implementation of [`Metric`] and one line
//! there; pair tables go through the list of pairwise kinds (`pairwise::table`, the contract
//! `pairwise::PairMetric`).

use crate::error::Result;
use crate::metrics::count::Count;
use crate::metrics::sacrebleu_compat::Num;
use crate::refset::{PreparedText, RefIndex, RefSet, TextPool};

/// A metric's finalize step with its options.
pub trait Metric: Copy + std::fmt::Debug + PartialEq + Send + Sync {
    /// Cells are `f64` (sums that depend on the order: TER, the mean metrics) rather than
    /// `i64` counts.
    const FLOAT_ROWS: bool;

    /// Width of a statistics row.
    fn width(&self) -> usize;

    /// Refuse options no score can be computed with.
    fn check(&self) -> Result<()> {
        Ok(())
    }

    /// The exact score of a summed row, for integer and float rows alike.
    fn finalize<T: Count>(&self, row: &[T]) -> f64;

    /// The score as SacreBLEU's significance code computes it on a row typed as it holds it
    /// (`int_storage`: an int64 numpy row). A metric SacreBLEU does not have: the exact
    /// finalize of the row's values.
    fn compat(&self, row: &[Num], int_storage: bool) -> Num {
        let _ = int_storage;
        let values: Vec<f64> = row.iter().map(|v| v.value()).collect();
        Num::Py(self.finalize(&values))
    }
}

/// A metric's references prepared once from a [`RefSet`] (each distinct text once) with its
/// extraction options.
pub trait Prepare: Sized + Send + Sync {
    /// The extraction options the references are prepared with.
    type Cfg: Copy + Send + Sync;
    fn prepare(cfg: &Self::Cfg, set: RefSet<'_>, workers: usize) -> Self;
    /// Number of segments.
    fn segments(&self) -> usize;
    fn index(&self) -> &RefIndex;
    /// Number of distinct reference segments (identical ones share one preparation).
    fn distinct(&self) -> usize;
}

/// References prepared text by text (chrF, TER).
impl<P: PreparedText + Sync> Prepare for TextPool<P>
where
    P::Cfg: Copy + Send,
{
    type Cfg = P::Cfg;
    fn prepare(cfg: &Self::Cfg, set: RefSet<'_>, workers: usize) -> Self {
        Self::from_set(cfg, set, workers)
    }
    fn segments(&self) -> usize {
        self.len()
    }
    fn index(&self) -> &RefIndex {
        TextPool::index(self)
    }
    fn distinct(&self) -> usize {
        TextPool::index(self).distinct_segments()
    }
}
