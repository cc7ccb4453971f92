//! BLEU and chrF pair scores of a list of strings whose n-grams are interned once.

use super::bags::{Bags, Interner, ROOT_A, ROOT_B};
use crate::metrics::bleu::{self, BleuExtract, BleuScoreOpts};
use crate::metrics::chrf::{self, remove_punctuation, ChrfExtract, ChrfScoreOpts};
use crate::parallel;
use crate::text::{py_is_space, py_lower, py_split};
use crate::vocab::push_ids;
use rustc_hash::FxHashMap;
use std::borrow::Cow;

/// How pairs are scored.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Bleu(BleuScoreOpts),
    Chrf(ChrfScoreOpts),
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

/// A list of strings, preprocessed, with their n-grams interned once.
pub struct NgramTable {
    bags: Bags,
    kind: Kind,
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

    fn finish(mut self, kind: Kind) -> NgramTable {
        self.bags.n_ids = self.inter.trie.len();
        NgramTable {
            bags: self.bags,
            kind,
        }
    }
}

/// Small per-chunk buffers of the pair loops.
struct Work {
    m: Vec<u32>,
    a: Vec<f64>,
    b: Vec<f64>,
}

impl Work {
    fn new(orders: usize) -> Self {
        Work {
            m: vec![0; orders],
            a: vec![0.0; 3 * orders],
            b: vec![0.0; 3 * orders],
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

impl NgramTable {
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
        b.finish(Kind::Bleu(opts))
    }

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
        b.finish(Kind::Chrf(o))
    }

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
        let (ti, tj) = (b.totals(i), b.totals(j));
        match &self.kind {
            Kind::Bleu(o) => {
                let n = b.orders;
                for k in 0..n {
                    w.a[k] = f64::from(m[k]);
                    w.b[k] = f64::from(ti[k]);
                }
                bleu_score(
                    f64::from(b.lens[i]),
                    f64::from(b.lens[j]),
                    &w.a[..n],
                    &w.b[..n],
                    o,
                )
            }
            Kind::Chrf(o) => {
                for k in 0..b.orders {
                    let r = tj[k];
                    w.a[3 * k] = if r > 0 { f64::from(ti[k]) } else { 0.0 };
                    w.a[3 * k + 1] = f64::from(r);
                    w.a[3 * k + 2] = f64::from(m[k]);
                }
                chrf_score(&w.a, o)
            }
        }
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
            let mut a = vec![0.0f64; 3 * orders];
            let mut t = vec![0.0f64; orders];
            for (r, o) in chunk.iter_mut().enumerate() {
                let i = rows[start + r];
                for (k, mk) in m.iter_mut().enumerate() {
                    let mut acc = 0.0f64;
                    for g in b.slot(i, k) {
                        acc += f64::from(g.count).min(expected[g.id as usize]);
                    }
                    *mk = acc;
                }
                let ti = b.totals(i);
                *o = match &self.kind {
                    Kind::Bleu(opts) => {
                        for k in 0..orders {
                            t[k] = f64::from(ti[k]);
                        }
                        bleu_score(f64::from(b.lens[i]), mean_len, &m, &t, opts)
                    }
                    Kind::Chrf(opts) => {
                        for k in 0..orders {
                            let rt = mean_totals[k];
                            a[3 * k] = if rt > 0.0 { f64::from(ti[k]) } else { 0.0 };
                            a[3 * k + 1] = rt;
                            a[3 * k + 2] = m[k];
                        }
                        chrf_score(&a, opts)
                    }
                };
            }
        });
    }
}
