//! BLEU and chrF pair scores of a list of strings whose n-grams are interned once.

use super::bags::{Bags, Interner, ROOT_A, ROOT_B};
use super::metric::{PairMetric, PairModes};
use crate::error::Result;
use crate::metrics::bleu::{self, BleuExtract, BleuScoreOpts};
use crate::metrics::chrf::{self, remove_punctuation, ChrfExtract, ChrfScoreOpts};
use crate::parallel;
use crate::text::{py_is_space, py_lower, py_split};
use crate::vocab::push_ids;
use rustc_hash::FxHashMap;
use std::borrow::Cow;

/// How an n-gram metric scores a pair from the bags' counts: one implementation per metric
/// ([`BleuPairs`], [`ChrfPairs`]); the table's loops are generic over it.
pub trait NgramKind: Copy + Send + Sync {
    /// The options a table is built with.
    type Opts: Send + Sync;
    /// The metric's name, for messages.
    const NAME: &'static str;

    /// The table of `strings`, preprocessed and interned as the metric does.
    fn build(opts: &Self::Opts, strings: &[String], workers: usize) -> NgramTable<Self>;

    /// Score of a hypothesis of `lens[0]` units and slot totals `totals[0]` against a reference
    /// (`lens[1]`, `totals[1]`) given their clipped matches `m`; `buf` holds `6 * orders`
    /// floats of scratch.
    fn pair(&self, lens: [u32; 2], totals: [&[u32]; 2], m: &[u32], buf: &mut [f64]) -> f64;

    /// Score of a hypothesis (`hyp_len`, `hyp_totals`) against the expected reference
    /// (`mean_len`, `mean_totals`) given fractional matches `m`; `buf` as in [`Self::pair`].
    fn aggregate(&self, hyp: (u32, &[u32]), mean: (f64, &[f64]), m: &[f64], buf: &mut [f64])
        -> f64;
}

/// Sentence BLEU of each pair, with its finalize options.
#[derive(Debug, Clone, Copy)]
pub struct BleuPairs(pub BleuScoreOpts);

/// Sentence chrF / chrF++ of each pair.
#[derive(Debug, Clone, Copy)]
pub struct ChrfPairs(pub ChrfScoreOpts);

impl NgramKind for BleuPairs {
    type Opts = (BleuExtract, BleuScoreOpts);
    const NAME: &'static str = "BLEU";

    fn build(opts: &Self::Opts, strings: &[String], workers: usize) -> NgramTable<Self> {
        NgramTable::bleu(&opts.0, opts.1, strings, workers)
    }

    #[inline]
    fn pair(&self, lens: [u32; 2], totals: [&[u32]; 2], m: &[u32], buf: &mut [f64]) -> f64 {
        let n = m.len();
        let (a, b) = buf.split_at_mut(n);
        for k in 0..n {
            a[k] = f64::from(m[k]);
            b[k] = f64::from(totals[0][k]);
        }
        bleu_score(
            f64::from(lens[0]),
            f64::from(lens[1]),
            &a[..n],
            &b[..n],
            &self.0,
        )
    }

    fn aggregate(
        &self,
        hyp: (u32, &[u32]),
        mean: (f64, &[f64]),
        m: &[f64],
        buf: &mut [f64],
    ) -> f64 {
        let n = m.len();
        let t = &mut buf[..n];
        for (tk, &h) in t.iter_mut().zip(hyp.1) {
            *tk = f64::from(h);
        }
        bleu_score(f64::from(hyp.0), mean.0, m, t, &self.0)
    }
}

impl NgramKind for ChrfPairs {
    type Opts = ChrfExtract;
    const NAME: &'static str = "chrF";

    fn build(opts: &Self::Opts, strings: &[String], workers: usize) -> NgramTable<Self> {
        NgramTable::chrf(opts, strings, workers)
    }

    #[inline]
    fn pair(&self, _lens: [u32; 2], totals: [&[u32]; 2], m: &[u32], buf: &mut [f64]) -> f64 {
        let (ti, tj) = (totals[0], totals[1]);
        let n = m.len();
        let a = &mut buf[..3 * n];
        for k in 0..n {
            let r = tj[k];
            a[3 * k] = if r > 0 { f64::from(ti[k]) } else { 0.0 };
            a[3 * k + 1] = f64::from(r);
            a[3 * k + 2] = f64::from(m[k]);
        }
        chrf_score(a, &self.0)
    }

    fn aggregate(
        &self,
        hyp: (u32, &[u32]),
        mean: (f64, &[f64]),
        m: &[f64],
        buf: &mut [f64],
    ) -> f64 {
        let n = m.len();
        let a = &mut buf[..3 * n];
        for k in 0..n {
            let rt = mean.1[k];
            a[3 * k] = if rt > 0.0 { f64::from(hyp.1[k]) } else { 0.0 };
            a[3 * k + 1] = rt;
            a[3 * k + 2] = m[k];
        }
        chrf_score(a, &self.0)
    }
}

/// `BLEU.compute_bleu(...).score` on floating-point statistics: the metric's own finalize.
#[inline]
pub fn bleu_score(
    sys_len: f64,
    ref_len: f64,
    correct: &[f64],
    total: &[f64],
    o: &BleuScoreOpts,
) -> f64 {
    bleu::score_of_parts(sys_len, ref_len, correct, total, o)
}

/// `CHRF._compute_f_score` on floating-point statistics: the metric's own finalize.
#[inline]
pub fn chrf_score(stats: &[f64], o: &ChrfScoreOpts) -> f64 {
    chrf::f_score(stats, o)
}

/// Characters n-grams are taken from: all, or all but Python whitespace (chrF's rule).
fn char_syms(text: &str, whitespace: bool) -> Vec<u32> {
    text.chars()
        .filter(|&c| whitespace || !py_is_space(c))
        .map(u32::from)
        .collect()
}

/// A list of strings, preprocessed, with their n-grams interned once, scored as `K` does.
pub struct NgramTable<K> {
    bags: Bags,
    kind: K,
}

/// A table being built: the n-gram interner, the bags, and the per-string scratch (each
/// order's ids, the string's symbol ids).
struct Builder {
    inter: Interner,
    bags: Bags,
    per_order: Vec<Vec<u32>>,
    syms: Vec<u32>,
}

impl Builder {
    fn new(orders: usize) -> Self {
        Builder {
            inter: Interner::default(),
            bags: Bags::new(orders),
            per_order: vec![Vec::new(); orders],
            syms: Vec::new(),
        }
    }

    fn finish<K>(mut self, kind: K) -> NgramTable<K> {
        self.bags.n_ids = self.inter.trie.len();
        NgramTable {
            bags: self.bags,
            kind,
        }
    }
}

/// Small per-chunk buffers of the pair loops: the matches per slot, the kind's scratch.
struct Work {
    m: Vec<u32>,
    buf: Vec<f64>,
}

impl Work {
    fn new(orders: usize) -> Self {
        Work {
            m: vec![0; orders],
            buf: vec![0.0; 6 * orders],
        }
    }
}

thread_local! {
    /// Each worker thread's dense count array, all zeros between uses.
    static DENSE: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Dense arrays larger than this are not kept between calls (bounded memory in long runs).
const KEEP_DENSE: usize = 1 << 22;

/// Run `f` with this thread's zeroed dense array of at least `n` entries; `f` must leave it
/// zeroed. After a panic inside `f` the array is dropped, never reused dirty.
fn with_dense<R>(n: usize, f: impl FnOnce(&mut [u32]) -> R) -> R {
    let mut v = DENSE.with(|d| std::mem::take(&mut *d.borrow_mut()));
    if v.len() < n {
        v = vec![0; n];
    }
    let r = f(&mut v[..n]);
    if v.len() <= KEEP_DENSE {
        DENSE.with(|d| *d.borrow_mut() = v);
    }
    r
}

impl NgramTable<BleuPairs> {
    /// Tokenize `strings` as BLEU does and intern their word n-grams (orders `1..=max_order`).
    pub fn bleu(
        cfg: &BleuExtract,
        opts: BleuScoreOpts,
        strings: &[String],
        workers: usize,
    ) -> Self {
        let mut toks = vec![String::new(); strings.len()];
        parallel::for_each_chunk(workers, &mut toks, 32, |start, chunk| {
            for (j, t) in chunk.iter_mut().enumerate() {
                *t = cfg.tokenizer.preprocess(&strings[start + j], cfg.lowercase);
            }
        });
        let orders = cfg.max_order;
        let mut vocab: FxHashMap<&str, u32> = FxHashMap::default();
        let mut b = Builder::new(orders);
        for t in &toks {
            push_ids(&mut vocab, py_split(t), 0, &mut b.syms);
            b.inter.level(ROOT_A, &b.syms, orders, &mut b.per_order);
            b.bags.push(b.syms.len(), &mut b.per_order);
        }
        b.finish(BleuPairs(opts))
    }
}

impl NgramTable<ChrfPairs> {
    /// Preprocess `strings` as chrF does and intern their character and word n-grams.
    pub fn chrf(cfg: &ChrfExtract, strings: &[String], workers: usize) -> Self {
        let o = cfg.score;
        let mut texts: Vec<Cow<'_, str>> = vec![Cow::Borrowed(""); strings.len()];
        if cfg.lowercase {
            parallel::for_each_chunk(workers, &mut texts, 32, |start, chunk| {
                for (j, t) in chunk.iter_mut().enumerate() {
                    *t = Cow::Owned(py_lower(&strings[start + j]));
                }
            });
        } else {
            for (t, s) in texts.iter_mut().zip(strings) {
                *t = Cow::Borrowed(s.as_str());
            }
        }
        let mut words: FxHashMap<&str, u32> = FxHashMap::default();
        let mut b = Builder::new(o.order());
        for t in &texts {
            let chars = char_syms(t, cfg.whitespace);
            let (char_bags, word_bags) = b.per_order.split_at_mut(o.char_order);
            b.inter.level(ROOT_A, &chars, o.char_order, char_bags);
            if o.word_order > 0 {
                push_ids(&mut words, remove_punctuation(t), 0, &mut b.syms);
                b.inter.level(ROOT_B, &b.syms, o.word_order, word_bags);
            }
            b.bags.push(chars.len(), &mut b.per_order);
        }
        b.finish(ChrfPairs(o))
    }
}

impl<K: NgramKind> NgramTable<K> {
    /// Number of strings.
    pub fn len(&self) -> usize {
        self.bags.len()
    }

    /// Whether the table holds no string.
    pub fn is_empty(&self) -> bool {
        self.bags.len() == 0
    }

    fn work(&self) -> Work {
        Work::new(self.bags.orders)
    }

    /// Score of hypothesis `i` against reference `j` given their clipped matches `m`.
    #[inline]
    fn pair_score(&self, i: usize, j: usize, m: &[u32], w: &mut Work) -> f64 {
        let b = &self.bags;
        self.kind.pair(
            [b.lens[i], b.lens[j]],
            [b.totals(i), b.totals(j)],
            m,
            &mut w.buf,
        )
    }

    /// Scores of hypotheses `rows` against references `cols` (indices into this table),
    /// row-major into `out` (`rows.len() * cols.len()`).
    pub fn score_rect(&self, rows: &[usize], cols: &[usize], out: &mut [f64], workers: usize) {
        let nc = cols.len();
        assert_eq!(out.len(), rows.len() * nc, "output has the wrong size");
        if nc == 0 {
            return;
        }
        let chunk_rows = (4096 / nc).max(1);
        parallel::for_each_chunk(workers, out, chunk_rows * nc, |start, chunk| {
            let mut w = self.work();
            let mut m = std::mem::take(&mut w.m);
            with_dense(self.bags.n_ids, |dense| {
                for (r, orow) in chunk.chunks_mut(nc).enumerate() {
                    let i = rows[start / nc + r];
                    self.bags.scatter(i, dense);
                    for (o, &j) in orow.iter_mut().zip(cols) {
                        self.bags.matches(dense, j, &mut m);
                        *o = self.pair_score(i, j, &m, &mut w);
                    }
                    self.bags.unscatter(i, dense);
                }
            });
        });
    }

    /// Rows `rows` (a range of string indices) of the square matrix of every string against
    /// every string; `out` is the full `len() × len()` matrix (row-major). Each unordered pair's
    /// matches are computed once: pairs `(i, j)` with `i` in `rows` and `j > i` fill both
    /// `out[i][j]` and `out[j][i]`.
    pub fn score_symmetric(&self, rows: std::ops::Range<usize>, out: &mut [f64], workers: usize) {
        let n = self.len();
        assert_eq!(out.len(), n * n, "output has the wrong size");
        let (a, b) = (rows.start, rows.end.min(n));
        if a >= b {
            return;
        }
        // Row i of `both`: [score(i, j) for all j | score(j, i) for all j]; only j >= i is
        // filled. The transposed half is mirrored after the parallel part.
        let mut both = vec![0.0f64; (b - a) * 2 * n];
        parallel::for_each_chunk(workers, &mut both, 2 * n, |start, chunk| {
            let mut w = self.work();
            let mut m = std::mem::take(&mut w.m);
            let i = a + start / (2 * n);
            let (fwd, rev) = chunk.split_at_mut(n);
            with_dense(self.bags.n_ids, |dense| {
                self.bags.scatter(i, dense);
                for j in i..n {
                    self.bags.matches(dense, j, &mut m);
                    fwd[j] = self.pair_score(i, j, &m, &mut w);
                    rev[j] = if j == i {
                        fwd[j]
                    } else {
                        self.pair_score(j, i, &m, &mut w)
                    };
                }
                self.bags.unscatter(i, dense);
            });
        });
        for (r, row) in both.chunks(2 * n).enumerate() {
            let i = a + r;
            out[i * n + i..(i + 1) * n].copy_from_slice(&row[i..n]);
            for j in i + 1..n {
                out[j * n + i] = row[n + j];
            }
        }
    }

    /// Approximate expected utility of each hypothesis in `rows` against the references `cols`
    /// with weights `weights` (summing to 1): each hypothesis is scored once against the
    /// weighted mean of the references' n-gram counts and lengths (reference aggregation).
    pub fn score_aggregate(
        &self,
        rows: &[usize],
        cols: &[usize],
        weights: &[f64],
        out: &mut [f64],
        workers: usize,
    ) {
        assert_eq!(cols.len(), weights.len(), "one weight per reference");
        assert_eq!(out.len(), rows.len(), "output has the wrong size");
        let b = &self.bags;
        let orders = b.orders;
        // The expected reference: mean counts per n-gram id, mean totals and length.
        let mut expected = vec![0.0f64; b.n_ids];
        let mut mean_totals = vec![0.0f64; orders];
        let mut mean_len = 0.0f64;
        for (&j, &wj) in cols.iter().zip(weights) {
            for g in b.all(j) {
                expected[g.id as usize] += wj * f64::from(g.count);
            }
            for (k, &t) in b.totals(j).iter().enumerate() {
                mean_totals[k] += wj * f64::from(t);
            }
            mean_len += wj * f64::from(b.lens[j]);
        }
        let expected = &expected;
        let mean_totals = &mean_totals;
        parallel::for_each_chunk(workers, out, 64, |start, chunk| {
            let mut m = vec![0.0f64; orders];
            let mut buf = vec![0.0f64; 6 * orders];
            for (r, o) in chunk.iter_mut().enumerate() {
                let i = rows[start + r];
                for (k, mk) in m.iter_mut().enumerate() {
                    let mut acc = 0.0f64;
                    for g in b.slot(i, k) {
                        acc += f64::from(g.count).min(expected[g.id as usize]);
                    }
                    *mk = acc;
                }
                *o = self.kind.aggregate(
                    (b.lens[i], b.totals(i)),
                    (mean_len, mean_totals),
                    &m,
                    &mut buf,
                );
            }
        });
    }
}

/// BLEU and chrF: clipped matches are symmetric and mean counts are defined, so both modes.
impl<K: NgramKind> PairMetric for NgramTable<K> {
    type Opts = K::Opts;
    const NAME: &'static str = K::NAME;
    const MODES: PairModes = PairModes {
        symmetric: true,
        aggregate: true,
    };

    fn build(opts: &Self::Opts, strings: &[String], workers: usize) -> Self {
        K::build(opts, strings, workers)
    }

    fn len(&self) -> usize {
        self.bags.len()
    }

    fn score_rect(&self, rows: &[usize], cols: &[usize], out: &mut [f64], workers: usize) {
        NgramTable::score_rect(self, rows, cols, out, workers);
    }

    fn score_symmetric(
        &self,
        rows: std::ops::Range<usize>,
        out: &mut [f64],
        workers: usize,
    ) -> Result<()> {
        NgramTable::score_symmetric(self, rows, out, workers);
        Ok(())
    }

    fn score_aggregate(
        &self,
        rows: &[usize],
        cols: &[usize],
        weights: &[f64],
        out: &mut [f64],
        workers: usize,
    ) -> Result<()> {
        NgramTable::score_aggregate(self, rows, cols, weights, out, workers);
        Ok(())
    }
}
