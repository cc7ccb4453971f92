//! Word-level statistics of a report (`parbleu.reporting._words`): clipped n-gram matches of
//! every system against one reference stream, per reference n-gram type and per segment.
//!
//! Lines are tokenized as BLEU tokenizes them ([`Tokenizer::preprocess`], then Python's
//! `str.split()`), tokens get ids in order of first appearance (the reference stream first,
//! then each system), and reference n-gram types are listed in the lexicographic order of
//! their token-id tuples (what sorting dense prefix keys, as the numpy version did, gives).
//! Only reference n-grams can match, so a hypothesis n-gram is looked up, never inserted.

use rustc_hash::FxHashMap;

use crate::error::{Error, Result};
use crate::parallel;
use crate::tokenize::Tokenizer;

/// No reference n-gram (out of the segment, or not in the reference stream).
const NONE: u32 = u32::MAX;

/// Clipped matches of one n-gram order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrderStats {
    /// Per reference n-gram type (lexicographic order of token ids): the position of one
    /// occurrence in the reference stream's flat token array.
    pub first: Vec<i64>,
    /// Occurrences of each type in the reference stream.
    pub ref_counts: Vec<i64>,
    /// Clipped matches of each type, system-major (`matched[s * types + t]`).
    pub matched: Vec<i64>,
}

/// Tokens and matches of a reference stream and `n_sys` systems of `n_seg` segments.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WordStats {
    /// Token strings by id.
    pub vocab: Vec<String>,
    /// Token ids of every corpus (the reference stream first), flat.
    pub ids: Vec<i64>,
    /// Tokens per segment, corpus-major (`seg_lens[c * n_seg + i]`).
    pub seg_lens: Vec<i64>,
    /// Clipped unigram matches per segment, system-major (`seg_matched[s * n_seg + i]`).
    pub seg_matched: Vec<i64>,
    /// Orders `1..=max_order`.
    pub orders: Vec<OrderStats>,
}

/// The reference side of one order: internal type ids and their per-segment counts.
struct RefOrder {
    /// Order 1: token id -> internal type; unused above.
    by_token: Vec<u32>,
    /// Orders 2+: `(prefix type << 32) | last token` -> internal type.
    by_key: FxHashMap<u64, u32>,
    /// Internal type of the n-gram starting at each reference position (NONE past the end).
    at: Vec<u32>,
    /// Per segment, `(internal type, count)` sorted by type: `runs[run_start[i]..run_start[i+1]]`.
    runs: Vec<(u32, u32)>,
    run_start: Vec<usize>,
    /// Internal type -> rank in the output order.
    rank: Vec<u32>,
}

/// Count clipped n-gram matches (orders `1..=max_order`) of every system.
///
/// `corpora[0]` is the reference stream, the others the systems; all have the same length.
pub fn word_stats(
    corpora: &[Vec<&str>],
    tokenizer: Tokenizer,
    lowercase: bool,
    max_order: usize,
    workers: usize,
) -> Result<WordStats> {
    let n_seg = corpora.first().map_or(0, Vec::len);
    for c in corpora {
        if c.len() != n_seg {
            return Err(Error::LengthMismatch {
                what: "word statistics: segments of a system".into(),
                expected: n_seg,
                found: c.len(),
            });
        }
    }
    let n_sys = corpora.len().saturating_sub(1);
    // Tokenize in parallel, one corpus per task; interning is sequential (one vocabulary).
    let mut tokenized: Vec<Vec<String>> = vec![Vec::new(); corpora.len()];
    parallel::for_each_chunk(workers, &mut tokenized, 1, |c, out| {
        out[0] = corpora[c]
            .iter()
            .map(|l| tokenizer.preprocess(l, lowercase))
            .collect();
    });
    let mut index: FxHashMap<&str, u32> = FxHashMap::default();
    let mut vocab: Vec<&str> = Vec::new();
    let mut ids: Vec<u32> = Vec::new();
    let mut seg_lens: Vec<i64> = Vec::with_capacity(corpora.len() * n_seg);
    let mut corpus_start = Vec::with_capacity(corpora.len() + 1);
    for lines in &tokenized {
        corpus_start.push(ids.len());
        for line in lines {
            let before = ids.len();
            for t in tokenizer.tokens(line) {
                let next = vocab.len() as u32;
                let id = *index.entry(t).or_insert_with(|| {
                    vocab.push(t);
                    next
                });
                ids.push(id);
            }
            seg_lens.push((ids.len() - before) as i64);
        }
    }
    corpus_start.push(ids.len());
    // Token offset of every segment, corpus-major, with a final end.
    let mut seg_start = Vec::with_capacity(seg_lens.len() + 1);
    let mut off = 0usize;
    for &l in &seg_lens {
        seg_start.push(off);
        off += l as usize;
    }
    seg_start.push(off);

    let ref_ids = &ids[..corpus_start[1.min(corpus_start.len() - 1)]];
    let refs = ref_orders(ref_ids, &seg_start[..=n_seg], vocab.len(), max_order);

    // Per system, in parallel: type lookups and clipping against the reference runs.
    let mut per_sys: Vec<(Vec<Vec<i64>>, Vec<i64>)> = vec![(Vec::new(), Vec::new()); n_sys];
    parallel::for_each_chunk(workers, &mut per_sys, 1, |s, out| {
        let c = s + 1;
        let starts = &seg_start[c * n_seg..=(c + 1) * n_seg];
        let base = corpus_start[c];
        let toks = &ids[base..corpus_start[c + 1]];
        out[0] = system_matches(toks, starts, base, &refs);
    });

    let mut orders = Vec::with_capacity(max_order);
    for (k, r) in refs.iter().enumerate() {
        let types = r.rank.len();
        let mut first = vec![0i64; types];
        let mut ref_counts = vec![0i64; types];
        for (p, &t) in r.at.iter().enumerate() {
            if t != NONE {
                let q = r.rank[t as usize] as usize;
                if ref_counts[q] == 0 {
                    first[q] = p as i64;
                }
                ref_counts[q] += 1;
            }
        }
        let mut matched = Vec::with_capacity(types * n_sys);
        for (m, _) in &per_sys {
            matched.extend_from_slice(&m[k]);
        }
        orders.push(OrderStats {
            first,
            ref_counts,
            matched,
        });
    }
    let mut seg_matched = Vec::with_capacity(n_sys * n_seg);
    for (_, seg) in &per_sys {
        if seg.is_empty() {
            seg_matched.extend(std::iter::repeat_n(0, n_seg));
        } else {
            seg_matched.extend_from_slice(seg);
        }
    }
    Ok(WordStats {
        vocab: vocab.into_iter().map(str::to_owned).collect(),
        ids: ids.into_iter().map(i64::from).collect(),
        seg_lens,
        seg_matched,
        orders,
    })
}

/// Internal types of the reference stream's n-grams, order by order.
fn ref_orders(
    ref_ids: &[u32],
    starts: &[usize],
    n_vocab: usize,
    max_order: usize,
) -> Vec<RefOrder> {
    let mut out: Vec<RefOrder> = Vec::with_capacity(max_order);
    // Per internal type: (rank of its prefix, last token), to sort types lexicographically.
    let mut sort_key: Vec<(u32, u32)> = Vec::new();
    for n in 1..=max_order {
        let mut by_token = Vec::new();
        let mut by_key = FxHashMap::default();
        let mut at = vec![NONE; ref_ids.len()];
        sort_key.clear();
        if n == 1 {
            by_token = vec![NONE; n_vocab];
            for (p, &tok) in ref_ids.iter().enumerate() {
                let slot = &mut by_token[tok as usize];
                if *slot == NONE {
                    *slot = sort_key.len() as u32;
                    sort_key.push((0, tok));
                }
                at[p] = *slot;
            }
        } else {
            let prev = &out[n - 2];
            for w in starts.windows(2) {
                for p in w[0]..(w[1] + 1).saturating_sub(n) {
                    // Every prefix of a reference n-gram is a reference (n-1)-gram.
                    let pre = prev.at[p];
                    let last = ref_ids[p + n - 1];
                    let key = (u64::from(pre) << 32) | u64::from(last);
                    let next = sort_key.len() as u32;
                    let t = *by_key.entry(key).or_insert_with(|| {
                        sort_key.push((prev.rank[pre as usize], last));
                        next
                    });
                    at[p] = t;
                }
            }
        }
        let mut order: Vec<u32> = (0..sort_key.len() as u32).collect();
        order.sort_unstable_by_key(|&t| sort_key[t as usize]);
        let mut rank = vec![0u32; order.len()];
        for (r, &t) in order.iter().enumerate() {
            rank[t as usize] = r as u32;
        }
        let mut runs = Vec::new();
        let mut run_start = Vec::with_capacity(starts.len());
        let mut buf = Vec::new();
        for w in starts.windows(2) {
            run_start.push(runs.len());
            buf.clear();
            buf.extend(at[w[0]..w[1]].iter().copied().filter(|&t| t != NONE));
            push_runs(&mut buf, &mut runs);
        }
        run_start.push(runs.len());
        out.push(RefOrder {
            by_token,
            by_key,
            at,
            runs,
            run_start,
            rank,
        });
    }
    out
}

/// Sort `types` and append `(type, count)` runs to `runs`.
fn push_runs(types: &mut [u32], runs: &mut Vec<(u32, u32)>) {
    types.sort_unstable();
    let from = runs.len();
    for &t in types.iter() {
        match runs[from..].last_mut() {
            Some((last, c)) if *last == t => *c += 1,
            _ => runs.push((t, 1)),
        }
    }
}

/// One system's clipped matches: per order (by rank), and unigram matches per segment.
fn system_matches(
    toks: &[u32],
    starts: &[usize],
    base: usize,
    refs: &[RefOrder],
) -> (Vec<Vec<i64>>, Vec<i64>) {
    let n_seg = starts.len() - 1;
    let mut per_order = Vec::with_capacity(refs.len());
    let mut seg_matched = vec![0i64; n_seg];
    let mut prev: Vec<u32> = Vec::new();
    let mut cur: Vec<u32> = vec![NONE; toks.len()];
    let mut buf: Vec<u32> = Vec::new();
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for (k, r) in refs.iter().enumerate() {
        let n = k + 1;
        cur.fill(NONE);
        for w in starts.windows(2) {
            let (s, e) = (w[0] - base, w[1] - base);
            for p in s..(e + 1).saturating_sub(n) {
                cur[p] = if n == 1 {
                    r.by_token[toks[p] as usize]
                } else if prev[p] == NONE {
                    NONE
                } else {
                    let key = (u64::from(prev[p]) << 32) | u64::from(toks[p + n - 1]);
                    r.by_key.get(&key).copied().unwrap_or(NONE)
                };
            }
        }
        let mut matched = vec![0i64; r.rank.len()];
        for (i, w) in starts.windows(2).enumerate() {
            let (s, e) = (w[0] - base, w[1] - base);
            buf.clear();
            buf.extend(cur[s..e].iter().copied().filter(|&t| t != NONE));
            runs.clear();
            push_runs(&mut buf, &mut runs);
            let reference = &r.runs[r.run_start[i]..r.run_start[i + 1]];
            // Both sorted by type: a merge join.
            let mut j = 0;
            let mut total = 0i64;
            for &(t, c) in &runs {
                while j < reference.len() && reference[j].0 < t {
                    j += 1;
                }
                if j < reference.len() && reference[j].0 == t {
                    let clip = i64::from(c.min(reference[j].1));
                    matched[r.rank[t as usize] as usize] += clip;
                    total += clip;
                }
            }
            if n == 1 {
                seg_matched[i] = total;
            }
        }
        per_order.push(matched);
        std::mem::swap(&mut prev, &mut cur);
        cur.resize(toks.len(), NONE);
    }
    (per_order, seg_matched)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn ngrams(t: &[&str], n: usize) -> HashMap<Vec<String>, i64> {
        let mut m = HashMap::new();
        if t.len() >= n {
            for w in t.windows(n) {
                *m.entry(w.iter().map(|s| s.to_string()).collect())
                    .or_insert(0) += 1;
            }
        }
        m
    }

    fn text(ws: &WordStats, n: usize, t: usize) -> Vec<String> {
        let p = ws.orders[n - 1].first[t] as usize;
        ws.ids[p..p + n]
            .iter()
            .map(|&i| ws.vocab[i as usize].clone())
            .collect()
    }

    /// Against counting every n-gram of every segment in hash maps.
    fn check(corpora: &[Vec<&str>], max_order: usize) {
        let ws = word_stats(corpora, Tokenizer::None, false, max_order, 2).unwrap();
        let split = |c: &Vec<&str>| -> Vec<Vec<&'static str>> {
            c.iter()
                .map(|l| {
                    l.split_whitespace()
                        .map(|s| &*Box::leak(s.to_string().into_boxed_str()))
                        .collect()
                })
                .collect()
        };
        let toks: Vec<Vec<Vec<&str>>> = corpora.iter().map(split).collect();
        let n_seg = corpora[0].len();
        for n in 1..=max_order {
            let o = &ws.orders[n - 1];
            let types: Vec<Vec<String>> = (0..o.first.len()).map(|t| text(&ws, n, t)).collect();
            // Lexicographic in token ids.
            let keys: Vec<Vec<i64>> = (0..o.first.len())
                .map(|t| {
                    let p = o.first[t] as usize;
                    ws.ids[p..p + n].to_vec()
                })
                .collect();
            assert!(keys.windows(2).all(|w| w[0] < w[1]));
            let mut total = HashMap::new();
            for r in &toks[0] {
                for (g, c) in ngrams(r, n) {
                    *total.entry(g).or_insert(0) += c;
                }
            }
            let got: HashMap<_, _> = types.iter().cloned().zip(o.ref_counts.clone()).collect();
            assert_eq!(got, total);
            for s in 1..corpora.len() {
                let mut clipped: HashMap<Vec<String>, i64> = HashMap::new();
                for (i, (r, h)) in toks[0].iter().zip(&toks[s]).enumerate() {
                    let rc = ngrams(r, n);
                    let mut seg = 0;
                    for (g, c) in ngrams(h, n) {
                        let m = c.min(*rc.get(&g).unwrap_or(&0));
                        if m > 0 {
                            *clipped.entry(g).or_insert(0) += m;
                            seg += m;
                        }
                    }
                    if n == 1 {
                        assert_eq!(ws.seg_matched[(s - 1) * n_seg + i], seg);
                    }
                }
                let row = &o.matched[(s - 1) * types.len()..s * types.len()];
                let got: HashMap<_, _> = types
                    .iter()
                    .cloned()
                    .zip(row.iter().copied())
                    .filter(|&(_, c)| c > 0)
                    .collect();
                assert_eq!(got, clipped);
            }
        }
        for (c, t) in toks.iter().enumerate() {
            for (i, seg) in t.iter().enumerate() {
                assert_eq!(ws.seg_lens[c * n_seg + i], seg.len() as i64);
            }
        }
    }

    #[test]
    fn matches_counting_in_maps() {
        let r = vec!["a b a b c", "", "x y x y x", "a"];
        let h1 = vec!["a b a b a b", "a", "y x y", "b"];
        let h2 = vec!["c c c", "", "x y x y x y", "a a"];
        for n in 1..=5 {
            check(&[r.clone(), h1.clone(), h2.clone()], n);
        }
        check(std::slice::from_ref(&r), 3);
    }

    #[test]
    fn mismatched_lengths_are_refused() {
        let e = word_stats(&[vec!["a"], vec![]], Tokenizer::None, false, 2, 1).unwrap_err();
        assert!(matches!(e, Error::LengthMismatch { .. }));
    }

    #[test]
    fn empty_input() {
        let ws = word_stats(&[], Tokenizer::None, false, 4, 1).unwrap();
        assert!(ws.vocab.is_empty() && ws.orders.len() == 4);
    }

    proptest::proptest! {
        #[test]
        fn equals_maps(
            lines in proptest::collection::vec(
                proptest::collection::vec("[abc]{0,3}( [abc]{1,2}){0,6}", 3), 1..6),
            n in 1usize..5,
        ) {
            // lines[i][c]: segment i of corpus c.
            let corpora: Vec<Vec<&str>> =
                (0..3).map(|c| lines.iter().map(|l| l[c].as_str()).collect()).collect();
            check(&corpora, n);
        }
    }
}
