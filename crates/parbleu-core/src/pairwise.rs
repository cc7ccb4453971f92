//! Pairwise sentence scores (MBR utilities, data selection): H × R matrices.
//!
//! Every string is preprocessed once and its n-grams are interned once in one table shared by
//! all strings (an n-gram's id is its trie key `(id of its first n-1 units, last unit)`, so ids
//! are exact: no hashing of content, no collisions). A string becomes a sorted bag of
//! `(id, count)` per order. A pair is then scored by scattering the hypothesis bag into a dense
//! count array once per matrix row and walking the reference bag:
//! `matches_n = Σ min(count_hyp, count_ref)`.
//!
//! With one reference per pair, SacreBLEU's statistics of `sentence_score(h, [r])` are:
//!
//! * BLEU: `hyp_len = |h|`, `ref_len = |r|`, `match_n` as above, `total_n = max(|h| - n + 1, 0)`;
//! * chrF: per order `(hyp_n if ref_n > 0 else 0, ref_n, match_n)`.
//!
//! Clipped matches are symmetric in `h` and `r`, so a list scored against itself computes the
//! matches of each unordered pair once ([`NgramTable::score_symmetric`]).
//!
//! The reference-aggregation mode ([`NgramTable::score_aggregate`]) is an approximation of the
//! mean utility (DeNero et al. 2009; Vamvas & Sennrich 2024): the references are replaced by one
//! "expected" reference whose n-gram counts and lengths are the weighted means of theirs, and
//! each hypothesis is scored once against it, with the same formulas on fractional statistics.

use crate::metrics::bleu::{self, BleuExtract, BleuScoreOpts};
use crate::metrics::chrf::{self, remove_punctuation, ChrfExtract, ChrfScoreOpts};
use crate::metrics::ter::{self, TercomOpts};
use crate::parallel;
use crate::text::{py_is_space, py_lower, py_split};
use rustc_hash::FxHashMap;
use std::borrow::Cow;

/// Prefix of unigrams of the first level (BLEU tokens, chrF characters).
const ROOT_A: u32 = u32::MAX;
/// Prefix of unigrams of the second level (chrF++ words).
const ROOT_B: u32 = u32::MAX - 1;

#[inline]
fn key(prefix: u32, sym: u32) -> u64 {
    (u64::from(prefix) << 32) | u64::from(sym)
}

/// One distinct n-gram of a string and how often it occurs there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Gram {
    id: u32,
    count: u32,
}

/// N-gram ids shared by every string of a table.
#[derive(Default)]
struct Interner {
    trie: FxHashMap<u64, u32>,
}

impl Interner {
    #[inline]
    fn id(&mut self, k: u64) -> u32 {
        let next = self.trie.len() as u32;
        *self.trie.entry(k).or_insert(next)
    }

    /// Ids of every n-gram of `syms` for orders `1..=max_order`, appended to `per_order[n-1]`.
    fn level(&mut self, root: u32, syms: &[u32], max_order: usize, per_order: &mut [Vec<u32>]) {
        let mut cur: Vec<u32> = syms.iter().map(|&s| self.id(key(root, s))).collect();
        for n in 1..=max_order.min(syms.len()) {
            if n > 1 {
                let m = syms.len() + 1 - n;
                for i in 0..m {
                    cur[i] = self.id(key(cur[i], syms[i + n - 1]));
                }
                cur.truncate(m);
            }
            per_order[n - 1].extend_from_slice(&cur);
        }
    }
}

/// Bags of n-grams of a list of strings, `orders` slots per string.
struct Bags {
    orders: usize,
    /// `offs[s * (orders + 1) + k]`: start of slot `k` of string `s` in `grams`.
    offs: Vec<usize>,
    grams: Vec<Gram>,
    /// `totals[s * orders + k]`: n-grams in slot `k` of string `s`, with repetition.
    totals: Vec<u32>,
    /// Units of the first level (BLEU: tokens).
    lens: Vec<u32>,
    n_ids: usize,
}

impl Bags {
    fn new(orders: usize) -> Self {
        Bags {
            orders,
            offs: Vec::new(),
            grams: Vec::new(),
            totals: Vec::new(),
            lens: Vec::new(),
            n_ids: 0,
        }
    }

    fn push(&mut self, len: usize, per_order: &mut [Vec<u32>]) {
        for ids in per_order.iter_mut() {
            self.offs.push(self.grams.len());
            self.totals.push(ids.len() as u32);
            ids.sort_unstable();
            let mut k = 0;
            while k < ids.len() {
                let id = ids[k];
                let mut e = k + 1;
                while e < ids.len() && ids[e] == id {
                    e += 1;
                }
                self.grams.push(Gram {
                    id,
                    count: (e - k) as u32,
                });
                k = e;
            }
            ids.clear();
        }
        self.offs.push(self.grams.len());
        self.lens.push(len as u32);
    }

    fn len(&self) -> usize {
        self.lens.len()
    }

    #[inline]
    fn slot(&self, s: usize, k: usize) -> &[Gram] {
        let base = s * (self.orders + 1);
        &self.grams[self.offs[base + k]..self.offs[base + k + 1]]
    }

    #[inline]
    fn all(&self, s: usize) -> &[Gram] {
        let base = s * (self.orders + 1);
        &self.grams[self.offs[base]..self.offs[base + self.orders]]
    }

    #[inline]
    fn totals(&self, s: usize) -> &[u32] {
        &self.totals[s * self.orders..(s + 1) * self.orders]
    }

    fn scatter(&self, s: usize, dense: &mut [u32]) {
        for g in self.all(s) {
            dense[g.id as usize] = g.count;
        }
    }

    fn unscatter(&self, s: usize, dense: &mut [u32]) {
        for g in self.all(s) {
            dense[g.id as usize] = 0;
        }
    }

    /// Clipped matches per slot of string `j` against the scattered bag in `dense`.
    #[inline]
    fn matches(&self, dense: &[u32], j: usize, m: &mut [u32]) {
        for (k, mk) in m.iter_mut().enumerate() {
            let mut acc = 0u32;
            for g in self.slot(j, k) {
                acc += dense[g.id as usize].min(g.count);
            }
            *mk = acc;
        }
    }
}

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
        let mut inter = Interner::default();
        let mut bags = Bags::new(orders);
        let mut per_order = vec![Vec::new(); orders];
        let mut syms = Vec::new();
        for t in &toks {
            syms.clear();
            for w in py_split(t) {
                let next = vocab.len() as u32;
                syms.push(*vocab.entry(w).or_insert(next));
            }
            inter.level(ROOT_A, &syms, orders, &mut per_order);
            bags.push(syms.len(), &mut per_order);
        }
        bags.n_ids = inter.trie.len();
        NgramTable {
            bags,
            kind: Kind::Bleu(opts),
        }
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
        let orders = o.order();
        let mut words: FxHashMap<&str, u32> = FxHashMap::default();
        let mut inter = Interner::default();
        let mut bags = Bags::new(orders);
        let mut per_order = vec![Vec::new(); orders];
        let mut syms = Vec::new();
        for t in &texts {
            let chars = char_syms(t, cfg.whitespace);
            inter.level(ROOT_A, &chars, o.char_order, &mut per_order[..o.char_order]);
            if o.word_order > 0 {
                syms.clear();
                for w in remove_punctuation(t) {
                    let next = words.len() as u32;
                    syms.push(*words.entry(w).or_insert(next));
                }
                inter.level(ROOT_B, &syms, o.word_order, &mut per_order[o.char_order..]);
            }
            bags.push(chars.len(), &mut per_order);
        }
        bags.n_ids = inter.trie.len();
        NgramTable {
            bags,
            kind: Kind::Chrf(o),
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::bleu::Smooth;
    use crate::tokenize::Tokenizer;

    fn bleu_cfg() -> (BleuExtract, BleuScoreOpts) {
        (
            BleuExtract {
                tokenizer: Tokenizer::T13a,
                lowercase: false,
                max_order: 4,
            },
            BleuScoreOpts {
                smooth: Smooth::Exp,
                effective_order: true,
                max_order: 4,
            },
        )
    }

    fn strings() -> Vec<String> {
        [
            "The cat sat on the mat.",
            "the cat the cat sat",
            "A dog, a cat and the mat!",
            "",
            "mat mat mat on on the",
            "The cat sat on the mat.",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    fn bleu_direct(h: &str, r: &str) -> f64 {
        let (cfg, o) = bleu_cfg();
        let p = bleu::PreparedRefs::new(&cfg, vec![vec![r.to_string()]], 1);
        let (rows, _) = bleu::extract(&cfg, &[h.to_string()], &p.segments, 1).unwrap();
        bleu::finalize(&rows, &o).score
    }

    fn chrf_direct(c: &ChrfExtract, h: &str, r: &str) -> f64 {
        let p = chrf::PreparedRefs::new(c, vec![vec![r.to_string()]], 1);
        let rows = chrf::extract(c, &[h.to_string()], &p, 1).unwrap();
        chrf::f_score(&rows, &c.score)
    }

    #[test]
    fn bleu_rect_and_symmetric_equal_direct() {
        let (cfg, o) = bleu_cfg();
        let s = strings();
        let n = s.len();
        let t = NgramTable::bleu(&cfg, o, &s, 1);
        let idx: Vec<usize> = (0..n).collect();
        let mut rect = vec![0.0; n * n];
        t.score_rect(&idx, &idx, &mut rect, 2);
        let mut sym = vec![0.0; n * n];
        t.score_symmetric(0..2, &mut sym, 1);
        t.score_symmetric(2..n, &mut sym, 2);
        for i in 0..n {
            for j in 0..n {
                let d = bleu_direct(&s[i], &s[j]);
                assert_eq!(rect[i * n + j].to_bits(), d.to_bits(), "{i} {j}");
                assert_eq!(sym[i * n + j].to_bits(), d.to_bits(), "{i} {j}");
            }
        }
    }

    #[test]
    fn chrf_pairs_equal_direct() {
        for (nw, lc, ws) in [(0, false, false), (2, true, false), (2, false, true)] {
            let c = ChrfExtract {
                score: ChrfScoreOpts::new(6, nw, 2.0, false),
                lowercase: lc,
                whitespace: ws,
            };
            let s = strings();
            let n = s.len();
            let t = NgramTable::chrf(&c, &s, 1);
            let mut sym = vec![0.0; n * n];
            t.score_symmetric(0..n, &mut sym, 1);
            for i in 0..n {
                for j in 0..n {
                    let d = chrf_direct(&c, &s[i], &s[j]);
                    assert_eq!(sym[i * n + j].to_bits(), d.to_bits(), "{i} {j} {nw}");
                }
            }
        }
    }

    #[test]
    fn aggregate_of_one_reference_is_the_pair_score() {
        let (cfg, o) = bleu_cfg();
        let s = strings();
        let t = NgramTable::bleu(&cfg, o, &s, 1);
        let rows: Vec<usize> = (0..s.len()).collect();
        let mut agg = vec![0.0; s.len()];
        t.score_aggregate(&rows, &[2], &[1.0], &mut agg, 1);
        for i in 0..s.len() {
            assert_eq!(agg[i].to_bits(), bleu_direct(&s[i], &s[2]).to_bits());
        }
    }

    #[test]
    fn float_finalizers_equal_integer_ones() {
        let o = ChrfScoreOpts::new(6, 0, 2.0, false);
        let stats = [
            98i64, 105, 84, 97, 104, 59, 96, 103, 48, 95, 102, 42, 94, 101, 36, 93, 100, 31,
        ];
        let f: Vec<f64> = stats.iter().map(|&x| x as f64).collect();
        assert_eq!(chrf_score(&f, &o), chrf::f_score(&stats, &o));
        for smooth in [
            Smooth::None,
            Smooth::Exp,
            Smooth::Floor(0.1),
            Smooth::AddK(1.0),
        ] {
            for eff in [false, true] {
                let bo = BleuScoreOpts {
                    smooth,
                    effective_order: eff,
                    max_order: 4,
                };
                for row in [
                    [7i64, 9, 5, 2, 0, 0, 7, 6, 5, 4],
                    [3, 2, 2, 0, 0, 0, 3, 2, 1, 0],
                ] {
                    let c: Vec<f64> = row[2..6].iter().map(|&x| x as f64).collect();
                    let tt: Vec<f64> = row[6..].iter().map(|&x| x as f64).collect();
                    let got = bleu_score(row[0] as f64, row[1] as f64, &c, &tt, &bo);
                    assert_eq!(got.to_bits(), bleu::finalize(&row, &bo).score.to_bits());
                }
            }
        }
    }

    #[test]
    fn ter_pairs_equal_direct() {
        let o = TercomOpts::default();
        let s = strings();
        let n = s.len();
        let t = TerTable::new(&o, &s, 1);
        let idx: Vec<usize> = (0..n).collect();
        let mut out = vec![0.0; n * n];
        t.score_rect(&idx, &idx, &mut out, 2);
        for i in 0..n {
            for j in 0..n {
                let p = ter::PreparedRefs::new(&o, vec![vec![s[j].clone()]], 1);
                let r = ter::extract(&o, &[s[i].clone()], &p, 1).unwrap();
                assert_eq!(out[i * n + j], ter::finalize(r[0], r[1]));
            }
        }
    }
}
