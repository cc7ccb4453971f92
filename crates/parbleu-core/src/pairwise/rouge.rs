//! ROUGE pair scores: every string tokenized once (ids of one vocabulary), each pair scored
//! with rouge-score 0.1.2's statistics of one rouge type and one of its measures.

use super::metric::{PairMetric, PairModes};
use crate::interrupt;
use crate::metrics::rouge::intern::prepare_all;
use crate::metrics::rouge::score::{prf, Text};
use crate::metrics::rouge::tokenize::RougeTokenizer;
use crate::metrics::rouge::{type_stats, Measure, PredMasks, RougeType};
use crate::parallel;

/// What a ROUGE pair table scores: `100 * measure` of `rouge_type`, as
/// `RougeScorer([rouge_type]).score(reference, hypothesis)[rouge_type].<measure> * 100`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RougePairOpts {
    pub rouge_type: RougeType,
    pub tokenizer: RougeTokenizer,
    pub measure: Measure,
}

/// Strings tokenized once for pairwise ROUGE.
pub struct RougeTable {
    opts: RougePairOpts,
    texts: Vec<Text>,
    vocab: usize,
}

/// An id no token of the table has: "not in this prediction".
const UNSEEN: u32 = u32::MAX;

/// One chunk's buffers: each table id's id in the current prediction (or [`UNSEEN`]), and the
/// pair's two texts in those ids.
struct Scratch {
    local: Vec<u32>,
    pred: Text,
    reff: Text,
}

/// About this many pairs per work chunk (whole rows).
const CHUNK_PAIRS: usize = 1024;

impl RougeTable {
    /// Scores of prediction `i` against `cols` into `out`.
    ///
    /// The prediction's distinct tokens are numbered `0..k` and every other token `k`: a token
    /// the prediction lacks matches none of its tokens, so the n-gram, LCS and union-LCS counts
    /// are those of the pair's own numbering (rouge-score's counts depend only on which tokens
    /// are equal), while the prediction's masks are built once for the whole row.
    fn score_row(&self, i: usize, cols: &[usize], out: &mut [f64], s: &mut Scratch) {
        let t = self.opts.rouge_type;
        let p = &self.texts[i];
        let mut k = 0u32;
        s.pred.all.clear();
        for &g in &p.all {
            let l = &mut s.local[g as usize];
            if *l == UNSEEN {
                *l = k;
                k += 1;
            }
            s.pred.all.push(*l);
        }
        s.pred.ends.clone_from(&p.ends);
        let vocab = k as usize + 1;
        let pm = PredMasks::new(&[t], &s.pred, vocab);
        for (o, &j) in out.iter_mut().zip(cols) {
            let r = &self.texts[j];
            s.reff.all.clear();
            let local = &s.local;
            s.reff
                .all
                .extend(r.all.iter().map(|&g| match local[g as usize] {
                    UNSEEN => k,
                    l => l,
                }));
            s.reff.ends.clone_from(&r.ends);
            let stats = type_stats(t, &s.pred, &pm, &s.reff, vocab, 1);
            *o = 100.0 * prf(stats)[self.opts.measure.index()];
        }
        for &g in &p.all {
            s.local[g as usize] = UNSEEN;
        }
    }
}

/// ROUGE: rectangles only (precision and recall swap with the roles; a mean reference has no
/// LCS).
impl PairMetric for RougeTable {
    type Opts = RougePairOpts;
    const NAME: &'static str = "ROUGE";
    const MODES: PairModes = PairModes::RECT;

    fn build(opts: &RougePairOpts, strings: &[String], _workers: usize) -> Self {
        // One vocabulary for all strings: serial (Porter runs once per distinct word).
        let (texts, vocab) = prepare_all(&opts.tokenizer, strings);
        RougeTable {
            opts: *opts,
            texts,
            vocab,
        }
    }

    fn len(&self) -> usize {
        self.texts.len()
    }

    fn score_rect(&self, rows: &[usize], cols: &[usize], out: &mut [f64], workers: usize) {
        let nc = cols.len();
        assert_eq!(out.len(), rows.len() * nc, "output has the wrong size");
        if nc == 0 {
            return;
        }
        let chunk_rows = (CHUNK_PAIRS / nc).max(1);
        parallel::for_each_chunk(workers, out, chunk_rows * nc, |start, chunk| {
            let mut s = Scratch {
                local: vec![UNSEEN; self.vocab],
                pred: Text::default(),
                reff: Text::default(),
            };
            for (r, orow) in chunk.chunks_mut(nc).enumerate() {
                if interrupt::requested() {
                    return; // the binding raises; the rows left are garbage
                }
                self.score_row(rows[start / nc + r], cols, orow, &mut s);
            }
        });
    }
}
