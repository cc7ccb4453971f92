//! BLEU exactly as SacreBLEU 2.6 computes it.
//!
//! Row layout (SacreBLEU's): `hyp_len, ref_len, match_1..N, total_1..N`.

mod compat;
mod extract;
mod refs;
mod score;
#[cfg(test)]
mod tests;

pub use extract::{
    extract, extract_pairs, extract_strs, sentence_row, sentence_scores_pairs,
    sentence_scores_strs, BleuScratch, Pairs,
};
pub use refs::{PreparedRefs, RefSegment};
pub use score::{
    brevity_penalty, closest_ref_len, finalize, finalize_many, score_of, score_of_parts, BleuScore,
    BleuScoreOpts, Smooth,
};

use crate::tokenize::Tokenizer;

/// Options that change the statistics rows (two row sets merge only if these agree).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BleuExtract {
    pub tokenizer: Tokenizer,
    pub lowercase: bool,
    pub max_order: usize,
}

impl BleuExtract {
    /// Width of one statistics row.
    pub fn width(&self) -> usize {
        2 + 2 * self.max_order
    }
}

use crate::error::{Error, Result};
use crate::metrics::count::Count;
use crate::metrics::metric::{Metric, Prepare};
use crate::metrics::sacrebleu_compat::Num;
use crate::refset::{RefIndex, RefSet};

/// BLEU's finalize step in the metric contract (integer rows `hyp_len, ref_len, matches,
/// totals`).
impl Metric for BleuScoreOpts {
    const FLOAT_ROWS: bool = false;

    fn width(&self) -> usize {
        2 + 2 * self.max_order
    }

    fn check(&self) -> Result<()> {
        if self.max_order == 0 {
            return Err(Error::InvalidOption {
                name: "max_ngram_order".into(),
                value: "0".into(),
                expected: "an integer >= 1".into(),
            });
        }
        Ok(())
    }

    #[inline]
    fn finalize<T: Count>(&self, row: &[T]) -> f64 {
        score::score_of(row, self)
    }

    fn compat(&self, row: &[Num], int_storage: bool) -> Num {
        compat::compat(row, self, int_storage)
    }
}

/// BLEU's references: n-gram tables of each distinct segment.
impl Prepare for PreparedRefs {
    type Cfg = BleuExtract;
    fn prepare(cfg: &Self::Cfg, set: RefSet<'_>, workers: usize) -> Self {
        Self::from_set(cfg, set, workers)
    }
    fn segments(&self) -> usize {
        self.segments.len()
    }
    fn index(&self) -> &RefIndex {
        PreparedRefs::index(self)
    }
    fn distinct(&self) -> usize {
        PreparedRefs::distinct(self)
    }
}
