//! Metrics as (extract, +, finalize) triples over fixed-width statistics rows.

pub mod bleu;
pub mod bleu_pairs;
mod check;
pub mod chrf;
pub mod count;
pub mod mean;
pub(crate) mod ngram;
pub mod ngram_stats;
pub mod ref_table;
pub mod ter;
