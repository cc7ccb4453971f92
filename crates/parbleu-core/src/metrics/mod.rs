//! Metrics as (extract, +, finalize) triples over fixed-width statistics rows: the contract is
//! [`metric`] (prepare, finalize) and [`extract`] (a segment's row, and the block loops generic
//! over it); the one list of kinds that resample is [`kinds`].

pub mod bleu;
pub mod bleu_pairs;
pub mod caption;
mod check;
pub mod chrf;
pub mod count;
pub mod extract;
pub mod kinds;
pub mod mean;
pub mod metric;
pub(crate) mod ngram;
pub mod ngram_stats;
pub mod ref_table;
pub mod rouge;
pub mod sacrebleu_compat;
pub mod ter;
