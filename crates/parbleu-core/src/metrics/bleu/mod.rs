//! BLEU exactly as SacreBLEU 2.6 computes it.
//!
//! Row layout (SacreBLEU's): `hyp_len, ref_len, match_1..N, total_1..N`.

mod extract;
mod refs;
mod score;
#[cfg(test)]
mod tests;

pub use extract::{
    extract, extract_pairs, extract_strs, sentence_row, sentence_scores_pairs,
    sentence_scores_strs, Pairs,
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
