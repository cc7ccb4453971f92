//! chrF (Popović 2015) and chrF++ (Popović 2017) exactly as SacreBLEU 2.6 computes them.
//!
//! Row layout (SacreBLEU's): one `hyp, ref, match` triple per order, character orders
//! `1..=char_order` first, then word orders `1..=word_order`.
//!
//! With several references, each segment keeps the triples of the reference with the best
//! sentence-level F-score (computed with the metric's own beta and smoothing), ties going to
//! the first reference in the order given. The choice therefore depends on `beta` and
//! `eps_smoothing`: they are extraction options, not only finalize options.

mod compat;
mod dense;
mod direct;
mod extract;
mod hashed;
mod hyp;
mod live;
mod multi;
mod packed_keys;
mod refs;
mod score;
mod symbols;
#[cfg(test)]
mod tests;

pub use extract::{extract, sentence_scores_block, Scratch};
pub use multi::extract_many;
pub use refs::{PreparedRef, PreparedRefs};
pub use score::{f_score, finalize_many, ChrfExtract, ChrfScoreOpts};
pub use symbols::{for_each_word, remove_punctuation};

use crate::error::Result;
use crate::metrics::count::Count;
use crate::metrics::metric::Metric;
use crate::metrics::sacrebleu_compat::Num;

/// chrF's finalize step in the metric contract (integer rows, one `hyp, ref, match` triple per
/// order).
impl Metric for ChrfScoreOpts {
    const FLOAT_ROWS: bool = false;

    fn width(&self) -> usize {
        ChrfScoreOpts::width(self)
    }

    fn check(&self) -> Result<()> {
        ChrfScoreOpts::check(self)
    }

    #[inline]
    fn finalize<T: Count>(&self, row: &[T]) -> f64 {
        score::f_score(row, self)
    }

    fn compat(&self, row: &[Num], _int_storage: bool) -> Num {
        compat::compat(row, self)
    }
}
