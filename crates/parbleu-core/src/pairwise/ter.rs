//! TER pair scores: strings tokenized once, every pair running the edit search.

use super::metric::{PairMetric, PairModes};
use crate::metrics::ter::{self, TercomOpts};
use crate::parallel;

/// Strings tokenized once for pairwise TER (no n-grams: every pair runs the edit search).
pub struct TerTable {
    toks: Vec<String>,
}

impl TerTable {
    /// Tokenize `strings` as TER does.
    pub fn new(cfg: &TercomOpts, strings: &[String], workers: usize) -> Self {
        let mut toks = vec![String::new(); strings.len()];
        parallel::for_each_chunk(workers, &mut toks, 32, |start, chunk| {
            for (j, t) in chunk.iter_mut().enumerate() {
                *t = ter::tokenizer::preprocess(&strings[start + j], cfg);
            }
        });
        TerTable { toks }
    }

    /// Number of strings.
    pub fn len(&self) -> usize {
        self.toks.len()
    }

    /// Whether the table holds no string.
    pub fn is_empty(&self) -> bool {
        self.toks.is_empty()
    }

    /// TER of hypotheses `rows` against references `cols`, row-major into `out`.
    pub fn score_rect(&self, rows: &[usize], cols: &[usize], out: &mut [f64], workers: usize) {
        let nc = cols.len();
        assert_eq!(out.len(), rows.len() * nc, "output has the wrong size");
        if nc == 0 {
            return;
        }
        parallel::for_each_chunk(workers, out, 16, |start, chunk| {
            let mut s = ter::Scratch::default();
            for (k, o) in chunk.iter_mut().enumerate() {
                let p = start + k;
                let (i, j) = (rows[p / nc], cols[p % nc]);
                let [edits, len] = ter::segment_stats(
                    &self.toks[i],
                    std::iter::once(self.toks[j].as_str()),
                    &mut s,
                );
                *o = ter::finalize(edits, len);
            }
        });
    }
}

/// TER: every pair runs its own edit search, normalised by the reference: no other mode.
impl PairMetric for TerTable {
    type Opts = TercomOpts;
    const NAME: &'static str = "TER";
    const MODES: PairModes = PairModes::RECT;

    fn build(opts: &TercomOpts, strings: &[String], workers: usize) -> Self {
        TerTable::new(opts, strings, workers)
    }

    fn len(&self) -> usize {
        self.toks.len()
    }

    fn score_rect(&self, rows: &[usize], cols: &[usize], out: &mut [f64], workers: usize) {
        TerTable::score_rect(self, rows, cols, out, workers);
    }
}
