//! NLTK's per-sentence arithmetic (`sentence_bleu`, `sentence_gleu`, `sentence_chrf`, and
//! `corpus_gleu` segment by segment) on clipped n-gram counts, operation for operation, so that
//! one call from Python is one call into Rust.
//!
//! NLTK computes in Python floats: integer true divisions (correctly rounded, as `u64 as f64`
//! divisions are for counts below 2**53), `math.log`/`math.exp` (the C library's `log`/`exp`,
//! which `f64::ln`/`f64::exp` also call) and `math.fsum` ([`fsum`], CPython's algorithm).

use super::clipped_counts::{clipped_by_maps, fits, ngram_count, CharIds, Counter};
use crate::metrics::ngram_stats::{stats, Segments, TokensFn};
use crate::pysum::PySum;
use rustc_hash::FxHashMap;

/// Clipped matches and hypothesis n-gram totals of one hypothesis against its references, for
/// orders `1..=max_order`: `(matches, totals)`. The same numbers as
/// [`ngram_stats::stats`](crate::metrics::ngram_stats::stats), with less set-up for one short
/// segment (token ids packed into one `u64` per n-gram, one small table for all orders).
pub fn sentence_counts<R: AsRef<[S]> + Sync, S: AsRef<str> + Sync>(
    hyp: &[S],
    refs: &[R],
    max_order: usize,
) -> (Vec<u64>, Vec<u64>) {
    if max_order == 0 {
        return (Vec::new(), Vec::new());
    }
    // Ids for the hypothesis' tokens only (from 1); a reference token that is not in the
    // hypothesis gets 0, and no n-gram containing it can match.
    let mut vocab: FxHashMap<&str, u64> =
        FxHashMap::with_capacity_and_hasher(hyp.len(), Default::default());
    let mut hyp_ids = Vec::with_capacity(hyp.len());
    for t in hyp {
        let next = vocab.len() as u64 + 1;
        hyp_ids.push(*vocab.entry(t.as_ref()).or_insert(next));
    }
    let totals: Vec<u64> = (1..=max_order)
        .map(|n| (hyp.len() + 1).saturating_sub(n) as u64)
        .collect();
    if max_order > 4 || vocab.len() >= 1 << 16 {
        let one = One { hyp, refs };
        let s = stats(&one, max_order, 1);
        return (s.matches, totals);
    }
    // One open-addressing table for every order: keys pack up to four ids of 16 bits, the
    // first one non-zero, so the order of a key is where its highest set bit lies.
    let n_grams: u64 = totals.iter().sum();
    let cap = (2 * n_grams as usize).next_power_of_two().max(8);
    let mask = cap - 1;
    let mut table = vec![Slot::default(); cap];
    let slot_of = |table: &[Slot], k: u64| -> usize {
        let mut i = (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask;
        while table[i].key != 0 && table[i].key != k {
            i = (i + 1) & mask;
        }
        i
    };
    let mut keys = Vec::with_capacity(n_grams as usize);
    packed_ngrams(&hyp_ids, max_order, &mut keys);
    for &k in &keys {
        let i = slot_of(&table, k);
        table[i].key = k;
        table[i].hyp += 1;
    }
    let mut ref_ids = Vec::new();
    for (stamp, r) in (1u32..).zip(refs) {
        ref_ids.clear();
        ref_ids.extend(
            r.as_ref()
                .iter()
                .map(|t| vocab.get(t.as_ref()).copied().unwrap_or(0)),
        );
        packed_ngrams(&ref_ids, max_order, &mut keys);
        for &k in &keys {
            let i = slot_of(&table, k);
            let slot = &mut table[i];
            if slot.key == 0 {
                continue;
            }
            if slot.stamp != stamp {
                slot.stamp = stamp;
                slot.cur = 0;
            }
            slot.cur += 1;
            slot.best = slot.best.max(slot.cur);
        }
    }
    let mut matches = vec![0u64; max_order];
    for s in table.iter().filter(|s| s.key != 0) {
        matches[(63 - s.key.leading_zeros() as usize) / 16] += u64::from(s.hyp.min(s.best));
    }
    (matches, totals)
}

/// A hypothesis n-gram: its count, and its count in the current and the best reference.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    hyp: u32,
    best: u32,
    cur: u32,
    stamp: u32,
}

/// The n-grams of orders `1..=max_order` of `ids` (each below 2**16) that contain no 0, each
/// packed into one key.
fn packed_ngrams(ids: &[u64], max_order: usize, out: &mut Vec<u64>) {
    out.clear();
    for (start, &first) in ids.iter().enumerate() {
        if first == 0 {
            continue;
        }
        let mut key = first;
        out.push(key);
        for &x in ids[start + 1..].iter().take(max_order - 1) {
            if x == 0 {
                break;
            }
            key = (key << 16) | x;
            out.push(key);
        }
    }
}

/// One segment as [`Segments`], for the general counter.
struct One<'a, R, S> {
    hyp: &'a [S],
    refs: &'a [R],
}

impl<R: AsRef<[S]> + Sync, S: AsRef<str> + Sync> Segments for One<'_, R, S> {
    fn count(&self) -> usize {
        1
    }

    fn with_tokens(&self, _i: usize, f: &mut TokensFn<'_>) {
        let h: Vec<&str> = self.hyp.iter().map(AsRef::as_ref).collect();
        let r: Vec<Vec<&str>> = self
            .refs
            .iter()
            .map(|x| x.as_ref().iter().map(AsRef::as_ref).collect())
            .collect();
        f(&h, &r);
    }
}

/// Smoothing methods whose precisions are closed forms of the counts (NLTK's methods 0-3).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Smoothing {
    /// No smoothing: a zero precision becomes `sys.float_info.min` (NLTK warns).
    Method0,
    /// `epsilon / denominator` for zero numerators.
    Method1 { epsilon: f64 },
    /// Add one to numerator and denominator of orders 2 and up.
    Method2,
    /// The k-th zero order gets `1 / (2**k * denominator)`.
    Method3,
}

/// What NLTK's `sentence_bleu` returns for one weight tuple.
#[derive(Debug, Clone, PartialEq)]
pub enum SentenceBleu {
    /// The integer `0`: no unigram matches.
    Zero,
    /// A float score; `zero_orders` are the (1-based) orders without a match that method0
    /// warns about, in order.
    Score { score: f64, zero_orders: Vec<usize> },
    /// A value NLTK's arithmetic would not keep finite (an infinite or NaN weighted log, an
    /// intermediate overflow in `fsum`): left to the Python implementation.
    Unsupported,
}

/// NLTK's `sentence_bleu` of one segment from its counts: `matches[n - 1]` clipped matches and
/// `totals[n - 1]` hypothesis n-grams for `n` in `1..=weights.len()`, the hypothesis length and
/// every reference's length (at least one). `auto_reweigh` is NLTK's flag already combined with
/// its condition `weights == (0.25, 0.25, 0.25, 0.25)`.
pub fn sentence_bleu(
    matches: &[u64],
    totals: &[u64],
    hyp_len: u64,
    ref_lens: &[u64],
    weights: &[f64],
    smoothing: Smoothing,
    auto_reweigh: bool,
) -> SentenceBleu {
    let max_order = weights.len();
    debug_assert!(matches.len() >= max_order && totals.len() >= max_order);
    if max_order == 0 || matches[0] == 0 || ref_lens.is_empty() {
        return SentenceBleu::Zero;
    }
    // NLTK's closest_ref_length: the smallest |r - c|, ties to the shorter reference.
    let closest = ref_lens
        .iter()
        .copied()
        .min_by_key(|&r| (r.abs_diff(hyp_len), r))
        .unwrap_or(0);
    let bp = if hyp_len > closest {
        1.0
    } else {
        (1.0 - closest as f64 / hyp_len as f64).exp()
    };
    let mut zero_orders = Vec::new();
    let mut p = Vec::with_capacity(max_order);
    let mut incvnt = 1u32;
    for (i, (&m, &t)) in matches.iter().zip(totals).take(max_order).enumerate() {
        let d = t.max(1);
        let pi = if m != 0 {
            match smoothing {
                Smoothing::Method2 if i > 0 => (m + 1) as f64 / (d + 1) as f64,
                _ => m as f64 / d as f64,
            }
        } else {
            match smoothing {
                Smoothing::Method0 => {
                    zero_orders.push(i + 1);
                    f64::MIN_POSITIVE
                }
                Smoothing::Method1 { epsilon } => (0.0 + epsilon) / d as f64,
                Smoothing::Method2 => 1.0 / (d + 1) as f64,
                Smoothing::Method3 => {
                    let scaled = 2f64.powi(incvnt as i32) * d as f64;
                    incvnt += 1;
                    1.0 / scaled
                }
            }
        };
        p.push(pi);
    }
    let reweighed;
    let weights = if auto_reweigh && hyp_len < 4 {
        reweighed = vec![1.0 / hyp_len as f64; hyp_len as usize];
        &reweighed[..]
    } else {
        weights
    };
    let terms: Vec<f64> = weights
        .iter()
        .zip(&p)
        .filter(|(_, &pi)| pi > 0.0)
        .map(|(&w, &pi)| w * pi.ln())
        .collect();
    match fsum(&terms) {
        Some(s) => SentenceBleu::Score {
            score: bp * s.exp(),
            zero_orders,
        },
        None => SentenceBleu::Unsupported,
    }
}

/// NLTK's `sentence_gleu` from per-reference counts: for reference `j`, `tp[j]` matches,
/// `tpfp` hypothesis n-grams and `tpfn[j]` reference n-grams over the orders counted. The
/// reference with the highest `tp / max(tpfp, tpfn)` wins (the first on ties); `0.0` when no
/// reference has an n-gram on either side.
pub fn sentence_gleu(tp: &[u64], tpfp: u64, tpfn: &[u64]) -> f64 {
    let mut best = GleuBest::default();
    for (&t, &f) in tp.iter().zip(tpfn) {
        best.offer(t, tpfp.max(f));
    }
    match best.0 {
        Some((t, n)) => t as f64 / n as f64,
        None => 0.0,
    }
}

/// NLTK's choice of a reference for GLEU: `(tp, n_all)` with the highest `tp / n_all`, the
/// first on ties (Python's `max` with a key), references with `n_all == 0` skipped.
#[derive(Default, Clone, Copy)]
pub struct GleuBest(pub Option<(u64, u64)>);

impl GleuBest {
    /// Consider one reference's `(tp, n_all)`.
    #[inline]
    pub fn offer(&mut self, tp: u64, n_all: u64) {
        if n_all == 0 {
            return;
        }
        let better = match self.0 {
            None => true,
            Some((bt, bn)) => tp as f64 / n_all as f64 > bt as f64 / bn as f64,
        };
        if better {
            self.0 = Some((tp, n_all));
        }
    }
}

/// Scratch memory for scoring NLTK's GLEU or chrF one segment after another.
#[derive(Default)]
pub struct Scratch {
    counter: Counter,
    chars: CharIds,
    tp: Vec<u64>,
    hyp_ids: Vec<u32>,
    ref_ids: Vec<u32>,
}

/// GLEU's `(tp, n_all)` of one segment (`1 <= min_len <= max_len`): per reference, the matches
/// of orders `min_len..=max_len` against that reference alone and `max(tpfp, tpfn)`; the
/// reference NLTK chooses, `None` when no reference has an n-gram on either side.
pub fn gleu_segment<'a>(
    s: &mut Scratch,
    tokens: &mut FxHashMap<&'a str, u32>,
    hyp: &[&'a str],
    refs: &[&[&'a str]],
    min_len: usize,
    max_len: usize,
) -> Option<(u64, u64)> {
    debug_assert!(1 <= min_len && min_len <= max_len);
    let orders = min_len - 1..max_len;
    let lens = |len: usize| -> u64 { (min_len..=max_len).map(|n| ngram_count(len, n)).sum() };
    let tpfp = lens(hyp.len());
    let mut best = GleuBest::default();
    if refs.is_empty() {
        return None;
    }
    if s.counter.load_hyp(tokens, hyp.iter().copied(), max_len) {
        s.tp.clear();
        s.tp.resize(max_len, 0);
        for r in refs {
            s.tp.fill(0);
            s.counter.add_ref(tokens, r.iter().copied(), &mut s.tp);
            best.offer(s.tp[orders.clone()].iter().sum(), tpfp.max(lens(r.len())));
        }
    } else {
        for r in refs {
            let tp = clipped_by_maps(hyp, r, max_len);
            best.offer(tp[orders.clone()].iter().sum(), tpfp.max(lens(r.len())));
        }
    }
    best.0
}

/// NLTK's `corpus_gleu` of token lists (`1 <= min_len <= max_len`): `Σ tp / Σ n_all` over the
/// segments with a chosen reference, `0.0` when there is none.
pub fn corpus_gleu<'a, 'b>(
    s: &mut Scratch,
    segments: impl IntoIterator<Item = (&'b [&'a str], &'b [&'b [&'a str]])>,
    min_len: usize,
    max_len: usize,
) -> f64
where
    'a: 'b,
{
    let mut tokens = FxHashMap::default();
    let (mut tp, mut n_all) = (0u64, 0u64);
    for (h, rs) in segments {
        if let Some((t, n)) = gleu_segment(s, &mut tokens, h, rs, min_len, max_len) {
            tp += t;
            n_all += n;
        }
    }
    if n_all == 0 {
        0.0
    } else {
        tp as f64 / n_all as f64
    }
}

/// NLTK's `epsilon` of `chrf_precision_recall_fscore_support` (as `corpus_chrf` calls it).
const CHRF_EPSILON: f64 = 1e-16;

/// NLTK's `sentence_chrf(reference, hypothesis, min_len, max_len, beta, ignore_whitespace)` of
/// two strings (`1 <= min_len <= max_len`), given `factor = beta**2` as Python computes it
/// (a float, or an integer exactly representable as one). With `ignore_whitespace`, Unicode
/// `White_Space` is removed first (NLTK's `redos.sub(r"\s+", "", s)`); n-grams are of code
/// points.
pub fn sentence_chrf(
    s: &mut Scratch,
    reference: &str,
    hypothesis: &str,
    min_len: usize,
    max_len: usize,
    factor: f64,
    ignore_whitespace: bool,
) -> f64 {
    debug_assert!(1 <= min_len && min_len <= max_len);
    let keep = |c: &char| !(ignore_whitespace && super::perl_space(*c));
    s.chars.reset();
    s.hyp_ids.clear();
    for c in hypothesis.chars().filter(keep) {
        s.hyp_ids.push(s.chars.insert(c));
    }
    s.ref_ids.clear();
    s.ref_ids
        .extend(reference.chars().filter(keep).map(|c| s.chars.get(c)));
    let (hyp_len, ref_len) = (s.hyp_ids.len(), s.ref_ids.len());
    s.tp.clear();
    if fits(s.chars.len(), max_len) {
        s.tp.resize(max_len, 0);
        s.counter.load_ids(&s.hyp_ids, max_len);
        s.counter.add_ref_ids(&s.ref_ids, &mut s.tp);
    } else {
        let hyp: Vec<char> = hypothesis.chars().filter(keep).collect();
        let reference: Vec<char> = reference.chars().filter(keep).collect();
        s.tp = clipped_by_maps(&hyp, &reference, max_len);
    }
    let tp = &s.tp;
    // NLTK: prec = tp / tpfp; rec = tp / tpfn; factor = beta**2;
    // fscore = (1 + factor) * (prec * rec) / (factor * prec + rec); any ZeroDivisionError
    // gives epsilon. Then the sum over orders (Python's sum(), which CPython 3.12 compensates)
    // divided by the number of orders.
    let mut total = PySum::new();
    for n in min_len..=max_len {
        let tpfp = ngram_count(hyp_len, n);
        let tpfn = ngram_count(ref_len, n);
        let f = if tpfp == 0 || tpfn == 0 {
            CHRF_EPSILON
        } else {
            let t = tp[n - 1] as f64;
            let prec = t / tpfp as f64;
            let rec = t / tpfn as f64;
            let denom = factor * prec + rec;
            if denom == 0.0 {
                CHRF_EPSILON
            } else {
                (1.0 + factor) * (prec * rec) / denom
            }
        };
        total.add_float(f);
    }
    total.value() / (max_len - min_len + 1) as f64
}

/// Python's `math.fsum` of finite values: the correctly rounded sum (CPython's algorithm:
/// Shewchuk's partials, then half-even rounding across partials). `None` where CPython's
/// result would not be a finite float (a non-finite summand, an intermediate overflow).
pub fn fsum(values: &[f64]) -> Option<f64> {
    let mut partials: Vec<f64> = Vec::with_capacity(values.len() + 1);
    for &v in values {
        if !v.is_finite() {
            return None;
        }
        let mut x = v;
        let mut i = 0;
        for j in 0..partials.len() {
            let mut y = partials[j];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let lo = y - (hi - x);
            if lo != 0.0 {
                partials[i] = lo;
                i += 1;
            }
            x = hi;
        }
        partials.truncate(i);
        if x != 0.0 {
            if !x.is_finite() {
                return None;
            }
            partials.push(x);
        }
    }
    let mut n = partials.len();
    if n == 0 {
        return Some(0.0);
    }
    n -= 1;
    let mut hi = partials[n];
    let mut lo = 0.0;
    while n > 0 {
        let x = hi;
        n -= 1;
        let y = partials[n];
        hi = x + y;
        lo = y - (hi - x);
        if lo != 0.0 {
            break;
        }
    }
    if n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0)) {
        let y = lo * 2.0;
        let x = hi + y;
        if y == x - hi {
            hi = x;
        }
    }
    Some(hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::ngram_stats::token_stats;
    use proptest::prelude::*;

    fn sent() -> impl Strategy<Value = Vec<String>> {
        prop::collection::vec(prop::sample::select(vec!["a", "b", "c", "é", ""]), 0..12)
            .prop_map(|v| v.into_iter().map(str::to_owned).collect())
    }

    proptest! {
        #[test]
        fn sentence_counts_equal_the_general_counter(
            hyp in sent(),
            refs in prop::collection::vec(sent(), 0..4),
            max_order in 1usize..7,
        ) {
            let s = token_stats(
                std::slice::from_ref(&hyp),
                std::slice::from_ref(&refs),
                max_order,
                1,
            );
            let (m, t) = sentence_counts(&hyp, &refs, max_order);
            prop_assert_eq!(m, s.matches);
            prop_assert_eq!(t, s.totals);
        }
    }

    #[test]
    fn sentence_counts_many_distinct_tokens() {
        // Past 2**16 distinct tokens the ids do not pack: the general counter takes over.
        let hyp: Vec<String> = (0..70_000).map(|i| i.to_string()).collect();
        let refs = vec![hyp[..100].to_vec()];
        let (m, t) = sentence_counts(&hyp, &refs, 4);
        assert_eq!(m, vec![100, 99, 98, 97]);
        assert_eq!(t, vec![70_000, 69_999, 69_998, 69_997]);
    }

    #[test]
    fn fsum_is_correctly_rounded() {
        assert_eq!(fsum(&[]), Some(0.0));
        assert_eq!(fsum(&[0.1; 10]), Some(1.0));
        assert_eq!(
            fsum(&[1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50]),
            Some(1e-100)
        );
        // Half-even across partials (CPython's own test values).
        assert_eq!(fsum(&[1e-16, 1.0, 1e16]), Some(1.0000000000000002e16));
        assert_eq!(
            fsum(&[2.0f64.powi(53), -0.5, -2.0f64.powi(-54)]),
            Some(2.0f64.powi(53) - 1.0)
        );
        assert_eq!(fsum(&[f64::MAX, f64::MAX]), None);
        assert_eq!(fsum(&[f64::NEG_INFINITY]), None);
    }

    #[test]
    fn sentence_bleu_by_hand() {
        // 4 unigram, 2 bigram, 0 trigram matches of 5/4/3 n-grams, hypothesis 5, refs 6 and 4.
        let (m, t) = ([4, 2, 0], [5, 4, 3]);
        let w = [1.0 / 3.0; 3];
        // References 6 and 4 tie at distance 1: the shorter wins, so no brevity penalty.
        let bp = 1.0;
        let got = sentence_bleu(&m, &t, 5, &[6, 4], &w, Smoothing::Method3, false);
        let want = [4.0 / 5.0f64, 2.0 / 4.0, 1.0 / 6.0]
            .iter()
            .map(|p| w[0] * p.ln())
            .sum::<f64>();
        match got {
            SentenceBleu::Score { score, zero_orders } => {
                assert!((score - bp * want.exp()).abs() < 1e-15, "{score}");
                assert!(zero_orders.is_empty());
            }
            other => panic!("{other:?}"),
        }
        match sentence_bleu(&m, &t, 5, &[5], &w, Smoothing::Method0, false) {
            SentenceBleu::Score { zero_orders, .. } => assert_eq!(zero_orders, vec![3]),
            other => panic!("{other:?}"),
        }
        let none = sentence_bleu(
            &[0, 0],
            &[3, 2],
            3,
            &[3],
            &[0.5, 0.5],
            Smoothing::Method1 { epsilon: 0.1 },
            false,
        );
        assert_eq!(none, SentenceBleu::Zero);
    }

    #[test]
    fn sentence_gleu_first_best_reference() {
        assert_eq!(sentence_gleu(&[], 3, &[]), 0.0);
        assert_eq!(sentence_gleu(&[0], 0, &[0]), 0.0);
        assert_eq!(sentence_gleu(&[1, 2, 2], 4, &[2, 5, 8]), 2.0 / 5.0);
    }
}
