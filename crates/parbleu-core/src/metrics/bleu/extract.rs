//! Statistics rows of hypotheses against prepared references, and sentence scores without
//! materializing the rows.

use super::refs::{PreparedRefs, RefData, RefSegment};
use super::score::{closest_ref_len, score_of, BleuScoreOpts};
use super::BleuExtract;
use crate::error::Result;
use crate::metrics::check::one_per_segment;
use crate::metrics::extract::Extract;
use crate::metrics::ngram::{match_counts, Scratch};
use crate::metrics::ref_table::{TableScratch, PADDING};
use crate::parallel;
use std::sync::Arc;

/// Statistics of every hypothesis (row-major, `width` columns) and the number of hypotheses
/// ending in " ." (SacreBLEU's "forgot to detokenize" warning).
///
/// `refs` are the references of exactly these hypotheses (a slice of [`PreparedRefs::segments`],
/// so callers can work block by block).
pub fn extract(
    cfg: &BleuExtract,
    hyps: &[String],
    refs: &[RefSegment],
    workers: usize,
) -> Result<(Vec<i64>, usize)> {
    extract_strs(cfg, hyps, refs, workers)
}

/// Which pairs (hypothesis `i` with references `i`) to score, and in which order.
#[derive(Debug, Clone, Copy)]
pub enum Pairs<'a> {
    /// `start..end`, in order.
    Range(usize, usize),
    /// These indices, in this order (such as a slice of [`PreparedRefs::grouped_order`]).
    List(&'a [u32]),
}

impl Pairs<'_> {
    /// Number of pairs.
    pub fn len(&self) -> usize {
        match self {
            Pairs::Range(a, b) => b - a,
            Pairs::List(l) => l.len(),
        }
    }

    /// Whether there is no pair.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Index of the `k`-th pair.
    #[inline]
    fn get(&self, k: usize) -> usize {
        match self {
            Pairs::Range(a, _) => a + k,
            Pairs::List(l) => l[k] as usize,
        }
    }
}

/// [`extract`] for any string type (the binding passes `&str` borrowed from Python strings:
/// no copy while holding the GIL, which is serial time).
pub fn extract_strs<S: AsRef<str> + Sync>(
    cfg: &BleuExtract,
    hyps: &[S],
    refs: &[RefSegment],
    workers: usize,
) -> Result<(Vec<i64>, usize)> {
    extract_pairs(cfg, hyps, refs, Pairs::Range(0, hyps.len()), workers)
}

/// The statistics rows of `pairs` of `hyps` and `refs` (all of them), in the order of
/// `pairs`; and how many of those hypotheses end in " .".
pub fn extract_pairs<S: AsRef<str> + Sync>(
    cfg: &BleuExtract,
    hyps: &[S],
    refs: &[RefSegment],
    pairs: Pairs<'_>,
    workers: usize,
) -> Result<(Vec<i64>, usize)> {
    let w = cfg.width();
    map_pairs(cfg, hyps, refs, pairs, w, workers, |x, h, r, out| {
        x.row(h, r, out);
    })
}

/// Sentence BLEU of every hypothesis (equal to [`finalize`] of its [`extract`] row), without
/// materializing the rows; and the count of hypotheses ending in " .".
pub fn sentence_scores_strs<S: AsRef<str> + Sync>(
    cfg: &BleuExtract,
    hyps: &[S],
    refs: &[RefSegment],
    o: &BleuScoreOpts,
    workers: usize,
) -> Result<(Vec<f64>, usize)> {
    sentence_scores_pairs(cfg, hyps, refs, Pairs::Range(0, hyps.len()), o, workers)
}

/// [`sentence_scores_strs`] of `pairs` only, in their order (see [`extract_pairs`]).
pub fn sentence_scores_pairs<S: AsRef<str> + Sync>(
    cfg: &BleuExtract,
    hyps: &[S],
    refs: &[RefSegment],
    pairs: Pairs<'_>,
    o: &BleuScoreOpts,
    workers: usize,
) -> Result<(Vec<f64>, usize)> {
    map_pairs(cfg, hyps, refs, pairs, 1, workers, |x, h, r, out| {
        out[0] = x.score(h, r, o);
    })
}

/// `f(extractor, hyp, refs, out)` for each of `pairs`, on `workers` threads; `out` is the
/// pair's `width` values of the result, which follows the order of `pairs`. Chunks are
/// fixed-size slices of `pairs`, so results never depend on the thread count. Also counts
/// the hypotheses ending in " ." (SacreBLEU's "forgot to detokenize" warning) where each is
/// read anyway: a separate pass would be serial and read every line from memory again.
fn map_pairs<S, T, F>(
    cfg: &BleuExtract,
    hyps: &[S],
    refs: &[RefSegment],
    pairs: Pairs<'_>,
    width: usize,
    workers: usize,
    f: F,
) -> Result<(Vec<T>, usize)>
where
    S: AsRef<str> + Sync,
    T: Copy + Default + Send + Sync,
    F: Fn(&mut RowExtractor, &str, &RefSegment, &mut [T]) + Sync,
{
    use std::sync::atomic::{AtomicUsize, Ordering};
    one_per_segment(hyps.len(), refs.len())?;
    let n = pairs.len();
    let mut out = vec![T::default(); n * width];
    let periods = AtomicUsize::new(0);
    parallel::for_each_chunk(workers, &mut out, 128 * width, |start, chunk| {
        let mut x = RowExtractor::new(*cfg);
        let mut p = 0;
        let first = start / width;
        for (j, o) in chunk.chunks_mut(width).enumerate() {
            let k = first + j;
            let i = pairs.get(k);
            // Fetch the next pairs' data while this one is scored (a new table only when the
            // references change: in grouped order they mostly do not).
            if k + 2 < n {
                refs[pairs.get(k + 2)].prefetch_header();
            }
            if k + 1 < n {
                let next = pairs.get(k + 1);
                crate::prefetch::prefetch(hyps[next].as_ref().as_bytes(), 256);
                if !Arc::ptr_eq(&refs[next].0, &refs[i].0) {
                    refs[next].prefetch();
                }
            }
            let h = hyps[i].as_ref();
            p += usize::from(h.ends_with(" ."));
            f(&mut x, h, &refs[i], o);
        }
        periods.fetch_add(p, Ordering::Relaxed);
    });
    Ok((out, periods.into_inner()))
}

/// The statistics row of one hypothesis against its references, for one-off sentence scores
/// (no reference table: it would be used once).
pub fn sentence_row<S: AsRef<str>>(cfg: &BleuExtract, hyp: &str, refs: &[S]) -> Vec<i64> {
    let tokenized: Vec<String> = refs
        .iter()
        .map(|r| cfg.tokenizer.preprocess(r.as_ref(), cfg.lowercase))
        .collect();
    let lens = tokenized
        .iter()
        .map(|r| cfg.tokenizer.tokens(r).count() as u32)
        .collect();
    let seg = RefSegment(Arc::new(RefData {
        lens,
        table: None,
        tokenized,
    }));
    let mut row = vec![0; cfg.width()];
    RowExtractor::new(*cfg).row(hyp, &seg, &mut row);
    row
}

/// BLEU's buffers for [`Extract::row`], built on first use with the options of that call.
#[derive(Default)]
pub struct BleuScratch(Option<RowExtractor>);

/// BLEU's references give a segment's row. The binding's loop is [`extract_pairs`] instead:
/// the same rows in the references' grouped order, with prefetching and the count of lines
/// ending in " ." read on the way.
impl Extract for PreparedRefs {
    type Cell = i64;
    type Scratch = BleuScratch;
    const CHUNK: usize = 128;

    fn width(cfg: &BleuExtract) -> usize {
        cfg.width()
    }

    #[inline]
    fn row(&self, cfg: &BleuExtract, hyp: &str, seg: usize, s: &mut BleuScratch, out: &mut [i64]) {
        let x = s.0.get_or_insert_with(|| RowExtractor::new(*cfg));
        x.row(hyp, &self.segments[seg], out);
    }
}

/// One thread's buffers for statistics rows.
struct RowExtractor {
    cfg: BleuExtract,
    s: Scratch,
    ts: TableScratch,
    m: Vec<u64>,
    t: Vec<u64>,
    /// A statistics row (sentence scores).
    row: Vec<i64>,
    /// The tokenized hypothesis (reused: one allocation per thread, not per line).
    buf: String,
}

impl RowExtractor {
    fn new(cfg: BleuExtract) -> Self {
        RowExtractor {
            cfg,
            s: Scratch::default(),
            ts: TableScratch::default(),
            m: vec![0; cfg.max_order],
            t: vec![0; cfg.max_order],
            row: vec![0; cfg.width()],
            buf: String::new(),
        }
    }

    /// Sentence BLEU of `hyp` against `seg`: [`score_of`] its row.
    fn score(&mut self, hyp: &str, seg: &RefSegment, o: &BleuScoreOpts) -> f64 {
        let mut row = std::mem::take(&mut self.row);
        self.row(hyp, seg, &mut row);
        let s = score_of(&row, o);
        self.row = row;
        s
    }

    /// The statistics row of `hyp` against `seg` into `out`.
    fn row(&mut self, hyp: &str, seg: &RefSegment, out: &mut [i64]) {
        let (cfg, n_ord) = (self.cfg, self.cfg.max_order);
        let seg = &*seg.0;
        cfg.tokenizer
            .preprocess_into(hyp, cfg.lowercase, &mut self.buf);
        let n = self.buf.len();
        // Padding lets the table read any token as one 16-byte load.
        self.buf.push_str(PADDING);
        let h = &self.buf[..n];
        let hl = if let Some(table) = &seg.table {
            let toks = cfg.tokenizer.tokens(h);
            table.match_tokens(self.buf.as_bytes(), toks, &mut self.ts, &mut self.m)
        } else {
            let htoks = cfg.tokenizer.split_output(h);
            let r: Vec<Vec<&str>> = seg
                .tokenized
                .iter()
                .map(|r| cfg.tokenizer.split_output(r))
                .collect();
            match_counts(&htoks, &r, n_ord, &mut self.s, &mut self.m, &mut self.t);
            htoks.len()
        };
        out[0] = hl as i64;
        out[1] = closest_ref_len(hl as i64, seg.lens.iter().map(|&l| i64::from(l)));
        for n in 0..n_ord {
            out[2 + n] = self.m[n] as i64;
            out[2 + n_ord + n] = (hl + 1).saturating_sub(n + 1) as i64;
        }
    }
}
