//! Metrics as (extract, +, finalize) triples over fixed-width statistics rows.

pub mod bleu;
mod ngram;
