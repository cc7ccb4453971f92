//! parbleu-core: the pure-Rust engine behind parbleu.
//!
//! Every metric is a triple (extract, +, finalize): `extract` turns one segment into a
//! fixed-width row of statistics, rows add element-wise, and `finalize` turns a summed row into
//! a score. Corpus scores, sentence scores, resampling and merging all follow from that.

pub mod error;
pub mod flavors;
pub mod ids;
pub mod interrupt;
pub mod meta;
pub mod metrics;
pub mod pairwise;
pub mod parallel;
pub mod prefetch;
pub mod pysum;
pub mod refset;
pub mod rng;
pub mod significance;
pub mod text;
pub mod tokenize;
pub(crate) mod vocab;
pub mod wordstats;

pub use error::{Error, Result};
