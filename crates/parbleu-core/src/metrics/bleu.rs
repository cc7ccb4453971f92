//! BLEU exactly as SacreBLEU 2.6 computes it.
//!
//! Row layout (SacreBLEU's): `hyp_len, ref_len, match_1..N, total_1..N`.

use super::count::Count;
use super::ngram::{match_counts, Scratch};
use super::ref_table::{Builder, RefTable, TableScratch, PADDING};
use crate::error::{Error, Result};
use crate::parallel;
use crate::pysum::{add_my_log, PySum};
use crate::refset::{RefIndex, RefSet};
use crate::tokenize::Tokenizer;
use std::sync::Arc;

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

/// Smoothing, as SacreBLEU names it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Smooth {
    None,
    Floor(f64),
    AddK(f64),
    Exp,
}

impl Smooth {
    /// SacreBLEU's `(smooth_method, smooth_value)` with its defaults (floor 0.1, add-k 1).
    pub fn from_name(method: &str, value: Option<f64>) -> Result<Self> {
        match method {
            "none" => Ok(Smooth::None),
            "floor" => Ok(Smooth::Floor(value.unwrap_or(0.1))),
            "add-k" => Ok(Smooth::AddK(value.unwrap_or(1.0))),
            "exp" => Ok(Smooth::Exp),
            _ => Err(Error::InvalidOption {
                name: "smooth_method".into(),
                value: format!("{method:?}"),
                expected: "one of none, floor, add-k, exp".into(),
            }),
        }
    }
}

/// Options used only when turning summed statistics into a score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BleuScoreOpts {
    pub smooth: Smooth,
    pub effective_order: bool,
    pub max_order: usize,
}

/// Everything SacreBLEU's `BLEUScore` exposes.
#[derive(Debug, Clone, PartialEq)]
pub struct BleuScore {
    pub score: f64,
    /// Counts and totals as SacreBLEU exposes them (add-k adds k for n >= 2 when matches exist).
    pub counts: Vec<f64>,
    pub totals: Vec<f64>,
    pub precisions: Vec<f64>,
    pub bp: f64,
    pub sys_len: i64,
    pub ref_len: i64,
    /// Orders SacreBLEU's precision loop visited (0 if every count is zero); add-k added its
    /// k to the counts and totals of orders `2..=orders_visited`.
    pub orders_visited: usize,
}

/// `BLEU.compute_bleu`, operation for operation, so floats are bit-identical; the one BLEU
/// finalize (rows of any [`Count`] type: `i64` rows, `f64` sums, pair-table counts).
pub fn finalize<T: Count>(row: &[T], o: &BleuScoreOpts) -> BleuScore {
    let n = o.max_order;
    let (mut counts, mut totals, mut precisions) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    fill(row, n, &mut counts, &mut totals);
    let (score, bp, orders_visited) = compute(
        row[0].to_f64(),
        row[1].to_f64(),
        o,
        &mut counts,
        &mut totals,
        &mut precisions,
    );
    BleuScore {
        score,
        counts,
        totals,
        precisions,
        bp,
        sys_len: row[0].to_f64() as i64,
        ref_len: row[1].to_f64() as i64,
        orders_visited,
    }
}

/// Only the score of [`finalize`], without allocating (batch sentence scores, resamples).
#[inline]
pub fn score_of<T: Count>(row: &[T], o: &BleuScoreOpts) -> f64 {
    let n = o.max_order;
    let (sys_len, ref_len) = (row[0].to_f64(), row[1].to_f64());
    with_buffers(n, |c, t, p| {
        fill(row, n, c, t);
        compute(sys_len, ref_len, o, c, t, p).0
    })
}

/// The score of [`finalize`] from its parts: system length, reference length, matches and
/// totals per order (pairwise tables and reference aggregation hold them apart).
pub fn score_of_parts<T: Count>(
    sys_len: T,
    ref_len: T,
    correct: &[T],
    total: &[T],
    o: &BleuScoreOpts,
) -> f64 {
    let n = o.max_order;
    with_buffers(n, |c, t, p| {
        for k in 0..n {
            c[k] = correct[k].to_f64();
            t[k] = total[k].to_f64();
        }
        compute(sys_len.to_f64(), ref_len.to_f64(), o, c, t, p).0
    })
}

/// Three scratch buffers of `n` floats: on the stack up to 32 orders, else on the heap.
#[inline]
fn with_buffers<R>(n: usize, f: impl FnOnce(&mut [f64], &mut [f64], &mut [f64]) -> R) -> R {
    const STACK: usize = 32;
    if n > STACK {
        let (mut c, mut t, mut p) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        return f(&mut c, &mut t, &mut p);
    }
    let (mut c, mut t, mut p) = ([0.0; STACK], [0.0; STACK], [0.0; STACK]);
    f(&mut c[..n], &mut t[..n], &mut p[..n])
}

/// Matches and totals of a statistics row, as floats.
#[inline]
fn fill<T: Count>(row: &[T], n_ord: usize, correct: &mut [f64], total: &mut [f64]) {
    for n in 0..n_ord {
        correct[n] = row[2 + n].to_f64();
        total[n] = row[2 + n_ord + n].to_f64();
    }
}

/// The arithmetic of [`finalize`] on the counts in `correct` and `total` (updated in place
/// by add-k, as SacreBLEU does); returns `(score, bp, orders visited)`.
fn compute(
    sys_len: f64,
    ref_len: f64,
    o: &BleuScoreOpts,
    correct: &mut [f64],
    total: &mut [f64],
    precisions: &mut [f64],
) -> (f64, f64, usize) {
    let n_ord = o.max_order;
    precisions.fill(0.0);
    let mut bp = 1.0;
    if sys_len < ref_len {
        bp = if sys_len > 0.0 {
            (1.0 - ref_len / sys_len).exp()
        } else {
            0.0
        };
    }
    if correct.iter().all(|&c| c == 0.0) {
        return (0.0, bp, 0);
    }
    let mut smooth_mteval = 1.0f64;
    let mut eff_order = n_ord;
    let mut visited = 0;
    for n in 1..=n_ord {
        visited = n;
        if let Smooth::AddK(k) = o.smooth {
            if n > 1 {
                correct[n - 1] += k;
                total[n - 1] += k;
            }
        }
        if total[n - 1] == 0.0 {
            break;
        }
        if o.effective_order {
            eff_order = n;
        }
        if correct[n - 1] == 0.0 {
            match o.smooth {
                Smooth::Exp => {
                    smooth_mteval *= 2.0;
                    precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1]);
                }
                Smooth::Floor(v) => precisions[n - 1] = 100.0 * v / total[n - 1],
                _ => {}
            }
        } else {
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1];
        }
    }
    // Python's sum() of the my_log values: its float arithmetic depends on the interpreter.
    let mut s = PySum::new();
    for p in &precisions[..eff_order] {
        add_my_log(&mut s, *p);
    }
    (bp * (s.value() / eff_order as f64).exp(), bp, visited)
}

/// Just the score of every row of a row-major matrix (batch sentence scores).
pub fn finalize_many(rows: &[i64], width: usize, o: &BleuScoreOpts, workers: usize) -> Vec<f64> {
    let n = rows.len() / width;
    let mut out = vec![0.0; n];
    parallel::for_each_chunk(workers, &mut out, 4096, |start, chunk| {
        for (j, v) in chunk.iter_mut().enumerate() {
            let i = start + j;
            *v = score_of(&rows[i * width..(i + 1) * width], o);
        }
    });
    out
}

/// SacreBLEU's `_get_closest_ref_len`: the closest length, ties to the shorter; -1 if none.
pub fn closest_ref_len(hyp_len: i64, ref_lens: impl IntoIterator<Item = i64>) -> i64 {
    let (mut closest_diff, mut closest_len) = (-1i64, -1i64);
    for r in ref_lens {
        let diff = (hyp_len - r).abs();
        if closest_diff == -1 || diff < closest_diff {
            closest_diff = diff;
            closest_len = r;
        } else if diff == closest_diff && r < closest_len {
            closest_len = r;
        }
    }
    closest_len
}

/// The references of one segment, tokenized once and turned into a clipping table. Cheap to
/// clone: segments with identical references share one copy.
#[derive(Debug, Clone, Default)]
pub struct RefSegment(Arc<RefData>);

#[derive(Debug, Default)]
struct RefData {
    /// Token count of each reference (the closest-length rule).
    lens: Vec<u32>,
    /// The common case: maximum reference counts precomputed.
    table: Option<RefTable>,
    /// Otherwise (huge segments, high orders): each reference's tokenizer output, split and
    /// matched per hypothesis (one string each, not one per token: such segments are big).
    tokenized: Vec<String>,
}

impl RefSegment {
    fn new<S: AsRef<str>>(cfg: &BleuExtract, refs: &[S], b: &mut Builder) -> Self {
        let tok: Vec<String> = refs
            .iter()
            .map(|r| cfg.tokenizer.preprocess(r.as_ref(), cfg.lowercase))
            .collect();
        let split: Vec<Vec<&str>> = tok.iter().map(|t| cfg.tokenizer.split_output(t)).collect();
        let mut seg = RefData {
            lens: split.iter().map(|r| r.len() as u32).collect(),
            table: RefTable::build(&split, cfg.max_order, b),
            tokenized: Vec::new(),
        };
        if seg.table.is_none() {
            drop(split);
            seg.tokenized = tok;
        }
        RefSegment(Arc::new(seg))
    }

    /// Number of references.
    pub fn len(&self) -> usize {
        self.0.lens.len()
    }

    /// Hint the CPU to fetch this segment's header (two pairs ahead of its use).
    #[inline]
    fn prefetch_header(&self) {
        crate::cache::prefetch(std::slice::from_ref(&*self.0), 128);
    }

    /// Hint the CPU to fetch this segment's lengths and table (one pair ahead of its use).
    #[inline]
    fn prefetch(&self) {
        crate::cache::prefetch(&self.0.lens, 64);
        if let Some(t) = &self.0.table {
            t.prefetch();
        }
    }

    /// Whether the segment has no reference.
    pub fn is_empty(&self) -> bool {
        self.0.lens.is_empty()
    }
}

/// Preprocessed references, segment by segment (`None` references already removed).
///
/// The unit BLEU prepares is the whole segment, not the single text: a segment's references
/// are merged into one clipping table (the maximum count of each n-gram over them), so two
/// segments share a preparation only if they have the same texts in the same order
/// ([`RefIndex::segment_sources`]).
#[derive(Debug, Clone)]
pub struct PreparedRefs {
    pub segments: Vec<RefSegment>,
    /// See [`PreparedRefs::grouped_order`].
    order: Option<Vec<u32>>,
    /// Number of distinct reference segments.
    distinct: usize,
    index: RefIndex,
}

impl PreparedRefs {
    /// Tokenize references given segment by segment (see [`PreparedRefs::from_set`]).
    pub fn new<S, R>(cfg: &BleuExtract, segments: Vec<R>, workers: usize) -> Self
    where
        S: AsRef<str>,
        R: AsRef<[S]>,
    {
        Self::from_set(cfg, RefSet::from_segments(&segments), workers)
    }

    /// Tokenize the references of `set`; identical segments are tokenized once (test sets
    /// scored against many systems repeat their references).
    pub fn from_set(cfg: &BleuExtract, set: RefSet<'_>, workers: usize) -> Self {
        let source = set.index().segment_sources();
        let mut out = vec![RefSegment::default(); source.len()];
        parallel::for_each_chunk(workers, &mut out, 128, |start, chunk| {
            let mut b = Builder::default();
            let mut refs: Vec<&str> = Vec::new();
            for (j, seg) in chunk.iter_mut().enumerate() {
                let i = start + j;
                if source[i] == i {
                    refs.clear();
                    refs.extend(set.segment(i));
                    *seg = RefSegment::new(cfg, &refs, &mut b);
                }
            }
        });
        for i in 0..out.len() {
            if source[i] != i {
                out[i] = out[source[i]].clone();
            }
        }
        PreparedRefs {
            segments: out,
            order: grouped(&source),
            distinct: source.iter().enumerate().filter(|&(i, &s)| s == i).count(),
            index: set.into_index(),
        }
    }

    /// Number of distinct reference segments (prepared tables).
    pub fn distinct(&self) -> usize {
        self.distinct
    }

    /// Which references each segment has (counts, segments without any).
    pub fn index(&self) -> &RefIndex {
        &self.index
    }

    /// Indices of all segments, ordered so that segments sharing references are scored one
    /// after the other: their table then stays in cache, and their hypotheses (translations
    /// of one source) train the branch predictor for each other, which makes scoring many
    /// systems at once about a third faster. `None` when no two segments share references
    /// (the natural order is then as good).
    pub fn grouped_order(&self) -> Option<&[u32]> {
        self.order.as_deref()
    }
}

/// The segments grouped by their first occurrence `source[i]` (groups in order of their first
/// segment, each in increasing order): a counting sort. `None` if all are distinct (or too
/// many to index with `u32`).
fn grouped(source: &[usize]) -> Option<Vec<u32>> {
    let n = source.len();
    if n >= u32::MAX as usize || source.iter().enumerate().all(|(i, &s)| s == i) {
        return None;
    }
    // next[g]: where the next member of the group first seen at `g` goes.
    let mut next = vec![0u32; n + 1];
    for &s in source {
        next[s + 1] += 1;
    }
    for g in 0..n {
        next[g + 1] += next[g];
    }
    let mut order = vec![0u32; n];
    for (i, &s) in source.iter().enumerate() {
        order[next[s] as usize] = i as u32;
        next[s] += 1;
    }
    Some(order)
}

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
    F: Fn(&mut RowExtractor<'_>, &str, &RefSegment, &mut [T]) + Sync,
{
    use std::sync::atomic::{AtomicUsize, Ordering};
    if hyps.len() != refs.len() {
        return Err(Error::LengthMismatch {
            what: "hypotheses vs references".into(),
            expected: refs.len(),
            found: hyps.len(),
        });
    }
    let n = pairs.len();
    let mut out = vec![T::default(); n * width];
    let periods = AtomicUsize::new(0);
    parallel::for_each_chunk(workers, &mut out, 128 * width, |start, chunk| {
        let mut x = RowExtractor::new(cfg);
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
                crate::cache::prefetch(hyps[next].as_ref().as_bytes(), 256);
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
    RowExtractor::new(cfg).row(hyp, &seg, &mut row);
    row
}

/// One thread's buffers for statistics rows.
struct RowExtractor<'c> {
    cfg: &'c BleuExtract,
    s: Scratch,
    ts: TableScratch,
    m: Vec<u64>,
    t: Vec<u64>,
    /// A statistics row (sentence scores).
    row: Vec<i64>,
    /// The tokenized hypothesis (reused: one allocation per thread, not per line).
    buf: String,
}

impl<'c> RowExtractor<'c> {
    fn new(cfg: &'c BleuExtract) -> Self {
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

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The one finalize gives the same bits whatever number type holds the counts (i64
        /// rows, f64 sums, u32 pair-table parts), for every smoothing.
        #[test]
        fn finalize_same_bits_for_every_count_type(
            lens in (0u32..60, 0u32..60),
            m in proptest::collection::vec((0u32..30, 0u32..30), 1..6),
            smooth in 0usize..4,
            effective_order: bool,
        ) {
            let n = m.len();
            let correct: Vec<u32> = m.iter().map(|&(a, b)| a.min(b)).collect();
            let total: Vec<u32> = m.iter().map(|&(a, b)| a.max(b)).collect();
            let mut row = vec![i64::from(lens.0), i64::from(lens.1)];
            row.extend(correct.iter().map(|&c| i64::from(c)));
            row.extend(total.iter().map(|&t| i64::from(t)));
            let smooth = [Smooth::None, Smooth::Floor(0.1), Smooth::AddK(1.0), Smooth::Exp][smooth];
            let o = BleuScoreOpts { smooth, effective_order, max_order: n };
            let want = finalize(&row, &o).score;
            let floats: Vec<f64> = row.iter().map(|&x| x as f64).collect();
            proptest::prop_assert_eq!(score_of(&row, &o).to_bits(), want.to_bits());
            proptest::prop_assert_eq!(score_of(&floats, &o).to_bits(), want.to_bits());
            let parts = score_of_parts(lens.0, lens.1, &correct, &total, &o);
            proptest::prop_assert_eq!(parts.to_bits(), want.to_bits());
        }
    }

    proptest::proptest! {
        #[test]
        fn prop_sentence_scores_equal_finalized_rows(
            pairs in proptest::collection::vec(("[ab. ]{0,12}", "[abc, ]{0,12}"), 1..20),
            order in 1usize..7,
            smooth in 0usize..4,
            effective_order: bool,
        ) {
            let cfg = BleuExtract { tokenizer: Tokenizer::T13a, lowercase: false, max_order: order };
            let o = BleuScoreOpts {
                smooth: [Smooth::None, Smooth::Floor(0.1), Smooth::AddK(1.0), Smooth::Exp][smooth],
                effective_order,
                max_order: order,
            };
            let hyps: Vec<&str> = pairs.iter().map(|p| p.0.as_str()).collect();
            let refs = PreparedRefs::new(&cfg, pairs.iter().map(|p| vec![p.1.as_str()]).collect(), 1);
            let (rows, _) = extract_strs(&cfg, &hyps, &refs.segments, 1).unwrap();
            let (scores, _) = sentence_scores_strs(&cfg, &hyps, &refs.segments, &o, 1).unwrap();
            for (i, s) in scores.iter().enumerate() {
                let want = finalize(&rows[i * cfg.width()..(i + 1) * cfg.width()], &o).score;
                proptest::prop_assert_eq!(s.to_bits(), want.to_bits());
            }
        }
    }

    proptest::proptest! {
        /// Scoring any list of pairs gives their rows and scores of the plain order, for any
        /// sharing pattern and thread count; the grouped order is a permutation.
        #[test]
        fn prop_pairs_in_any_order_change_nothing(
            pairs in proptest::collection::vec(("[ab. ]{0,10}", 0usize..4), 1..40),
            seed in 0u64..1000,
            workers in 1usize..3,
        ) {
            let cfg = BleuExtract { tokenizer: Tokenizer::T13a, lowercase: false, max_order: 4 };
            let o = BleuScoreOpts { smooth: Smooth::Exp, effective_order: true, max_order: 4 };
            let texts = ["a b", "a . b", "b b a", ""];
            let hyps: Vec<&str> = pairs.iter().map(|p| p.0.as_str()).collect();
            let refs = PreparedRefs::new(&cfg, pairs.iter().map(|p| vec![texts[p.1]]).collect(), 1);
            let n = hyps.len();
            let r = &refs.segments;
            let (rows, periods) = extract_strs(&cfg, &hyps, r, workers).unwrap();
            let (scores, _) = sentence_scores_strs(&cfg, &hyps, r, &o, 1).unwrap();
            let mut lists = vec![(0..n as u32)
                .rev()
                .filter(|i| !(u64::from(*i) + seed).is_multiple_of(3))
                .collect::<Vec<_>>()];
            if let Some(order) = refs.grouped_order() {
                let mut sorted = order.to_vec();
                sorted.sort_unstable();
                proptest::prop_assert_eq!(sorted, (0..n as u32).collect::<Vec<_>>());
                lists.push(order.to_vec());
            }
            for list in &lists {
                let (got, p) = extract_pairs(&cfg, &hyps, r, Pairs::List(list), workers).unwrap();
                let (s, _) = sentence_scores_pairs(&cfg, &hyps, r, Pairs::List(list), &o, workers).unwrap();
                let mut want_p = 0;
                for (k, &i) in list.iter().enumerate() {
                    let i = i as usize;
                    proptest::prop_assert_eq!(&got[k * 10..(k + 1) * 10], &rows[i * 10..(i + 1) * 10]);
                    proptest::prop_assert_eq!(s[k].to_bits(), scores[i].to_bits());
                    want_p += usize::from(hyps[i].ends_with(" ."));
                }
                proptest::prop_assert_eq!(p, want_p);
                if list.len() == n {
                    proptest::prop_assert_eq!(p, periods);
                }
            }
        }
    }

    #[test]
    fn grouped_order_puts_shared_references_together() {
        let cfg = BleuExtract {
            tokenizer: Tokenizer::None,
            lowercase: false,
            max_order: 4,
        };
        let refs = PreparedRefs::new(
            &cfg,
            ["x", "y", "x", "z", "y", "x"].map(|r| vec![r]).to_vec(),
            1,
        );
        assert_eq!(refs.grouped_order(), Some(&[0, 2, 5, 1, 4, 3][..]));
        assert_eq!(refs.distinct(), 3);
        let distinct = PreparedRefs::new(&cfg, ["x", "y"].map(|r| vec![r]).to_vec(), 1);
        assert_eq!(distinct.grouped_order(), None);
        assert_eq!(distinct.distinct(), 2);
    }

    #[test]
    fn closest_ref_len_ties_to_shorter() {
        assert_eq!(closest_ref_len(5, [4, 6]), 4);
        assert_eq!(closest_ref_len(5, [6, 4]), 4);
        assert_eq!(closest_ref_len(5, []), -1);
    }

    #[test]
    fn perfect_match_scores_100() {
        let cfg = BleuExtract {
            tokenizer: Tokenizer::None,
            lowercase: false,
            max_order: 4,
        };
        let refs = PreparedRefs::new(&cfg, vec![vec!["a b c d e"]], 1);
        let (rows, _) = extract(&cfg, &["a b c d e".into()], &refs.segments, 1).unwrap();
        assert_eq!(rows, vec![5, 5, 5, 4, 3, 2, 5, 4, 3, 2]);
        let o = BleuScoreOpts {
            smooth: Smooth::Exp,
            effective_order: false,
            max_order: 4,
        };
        assert!((finalize(&rows, &o).score - 100.0).abs() < 1e-12);
    }
}
