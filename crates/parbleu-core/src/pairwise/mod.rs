//! Pairwise sentence scores (MBR utilities, data selection): H × R matrices.
//!
//! Each metric with sentence scores is one [`PairMetric`] implementation (`metric.rs`: build
//! from strings and options, `len`, `score_rect`, and the modes it declares, [`PairModes`])
//! and one line of the kinds list (`table.rs`: [`Table`], [`PairOptions`]): BLEU and chrF
//! ([`NgramTable`], below), TER ([`TerTable`]), ROUGE ([`RougeTable`]: one rouge type and
//! measure).
//!
//! BLEU and chrF: every string is preprocessed once and its n-grams are interned once in one table shared by
//! all strings (an n-gram's id is its trie key `(id of its first n-1 units, last unit)`, so ids
//! are exact: no hashing of content, no collisions). A string becomes a sorted bag of
//! `(id, count)` per order. A pair is then scored by scattering the hypothesis bag into a dense
//! count array once per matrix row and walking the reference bag:
//! `matches_n = Σ min(count_hyp, count_ref)`.
//!
//! With one reference per pair, SacreBLEU's statistics of `sentence_score(h, [r])` are:
//!
//! * BLEU: `hyp_len = |h|`, `ref_len = |r|`, `match_n` as above, `total_n = max(|h| - n + 1, 0)`;
//! * chrF: per order `(hyp_n if ref_n > 0 else 0, ref_n, match_n)`.
//!
//! Clipped matches are symmetric in `h` and `r`, so a list scored against itself computes the
//! matches of each unordered pair once ([`NgramTable::score_symmetric`]).
//!
//! The reference-aggregation mode ([`NgramTable::score_aggregate`]) is an approximation of the
//! mean utility (DeNero et al. 2009; Vamvas & Sennrich 2024): the references are replaced by one
//! "expected" reference whose n-gram counts and lengths are the weighted means of theirs, and
//! each hypothesis is scored once against it, with the same formulas on fractional statistics.

mod bags;
mod metric;
mod ngram;
mod rouge;
mod table;
mod ter;
#[cfg(test)]
mod tests;

pub use metric::{PairMetric, PairModes};
pub use ngram::{bleu_score, chrf_score, BleuPairs, ChrfPairs, NgramKind, NgramTable};
pub use rouge::{RougePairOpts, RougeTable};
pub use table::{PairOptions, Table};
pub use ter::TerTable;
