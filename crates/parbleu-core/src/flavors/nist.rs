//! mteval's per-segment statistics, NIST information weights included.
//!
//! mteval-v13a/v14 count n-grams up to order 9. NIST weighs each matched n-gram by its
//! information `-log2(count(w1..wn) / count(w1..wn-1))` over *all* reference segments (unigrams:
//! `-log2(count(w) / total reference words)`). Perl tests the prefix for truth, so a bigram whose
//! first word is the string `0` (or empty) gets the unigram formula: reproduced here.

use crate::metrics::ngram_stats::Segments;
use rustc_hash::FxHashMap;

/// Per-segment statistics, row-major with `max_n` columns per segment.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MtevalStats {
    pub max_n: usize,
    /// Clipped matches per order.
    pub matches: Vec<u64>,
    /// Hypothesis n-grams per order.
    pub tst: Vec<u64>,
    /// Reference n-grams per order, summed over the segment's references.
    pub refs: Vec<u64>,
    /// Information of the matched n-grams (times their clipped count) per order.
    pub tst_info: Vec<f64>,
    /// Information of the distinct n-grams of each reference, summed over references.
    pub ref_info: Vec<f64>,
    pub hyp_lens: Vec<u64>,
    pub ref_lens: Vec<u64>,
    pub ref_offsets: Vec<u64>,
}

struct Trie<'a> {
    vocab: FxHashMap<&'a str, u32>,
    next: FxHashMap<(u32, u32), u32>,
    /// Per n-gram id: count over all references.
    count: Vec<u64>,
    /// Per n-gram id: id of the (n-1)-gram prefix, or `u32::MAX` when the unigram formula applies.
    prefix: Vec<u32>,
    order: Vec<u8>,
}

impl<'a> Trie<'a> {
    fn new() -> Self {
        Trie {
            vocab: FxHashMap::default(),
            next: FxHashMap::default(),
            count: vec![0],
            prefix: vec![u32::MAX],
            order: vec![0],
        }
    }

    fn token(&mut self, t: &'a str) -> u32 {
        let n = self.vocab.len() as u32 + 1;
        *self.vocab.entry(t).or_insert(n)
    }

    /// Id of the n-gram `prefix_id + token`, created if `create`; 0 = absent. The root (empty
    /// prefix) has id 0.
    fn step(&mut self, prefix_id: u32, tok: u32, falsy_prefix: bool, create: bool) -> u32 {
        if let Some(&id) = self.next.get(&(prefix_id, tok)) {
            return id;
        }
        if !create {
            return 0;
        }
        let id = self.count.len() as u32;
        self.next.insert((prefix_id, tok), id);
        self.count.push(0);
        let ord = if prefix_id == 0 {
            1
        } else {
            self.order[prefix_id as usize] + 1
        };
        self.order.push(ord);
        self.prefix.push(if prefix_id == 0 || falsy_prefix {
            u32::MAX
        } else {
            prefix_id
        });
        id
    }
}

fn ngram_ids<'a>(
    trie: &mut Trie<'a>,
    words: &[&'a str],
    max_n: usize,
    create: bool,
    mut f: impl FnMut(u32, usize),
) {
    let toks: Vec<u32> = words
        .iter()
        .map(|w| {
            if create {
                trie.token(w)
            } else {
                trie.vocab.get(w).copied().unwrap_or(0)
            }
        })
        .collect();
    for i in 0..words.len() {
        let mut id = 0u32;
        for j in 0..max_n.min(words.len() - i) {
            if toks[i + j] == 0 {
                break;
            }
            // The prefix of an (j+1)-gram is "falsy" for Perl when it is the single word "0"
            // or "" (a bigram's first word).
            let falsy = j == 1 && (words[i] == "0" || words[i].is_empty());
            id = trie.step(id, toks[i + j], falsy, create);
            if id == 0 {
                break;
            }
            f(id, j + 1);
        }
    }
}

/// Statistics of every segment of `segs` (hypothesis and references already tokenized).
pub fn mteval_stats<S: Segments + ?Sized>(segs: &S, max_n: usize) -> MtevalStats {
    let n = segs.count();
    // Owned copies of the tokens so that the trie can borrow them for the whole run.
    let mut hyps: Vec<Vec<String>> = Vec::with_capacity(n);
    let mut refs: Vec<Vec<Vec<String>>> = Vec::with_capacity(n);
    for i in 0..n {
        segs.with_tokens(i, &mut |h, r| {
            hyps.push(h.iter().map(|s| (*s).to_owned()).collect());
            refs.push(
                r.iter()
                    .map(|x| x.iter().map(|s| (*s).to_owned()).collect())
                    .collect(),
            );
        });
    }
    let mut trie = Trie::new();
    let ref_tokens: usize = refs.iter().flatten().map(Vec::len).sum();
    trie.next.reserve(ref_tokens * max_n);
    let mut tot_words = 0u64;
    // The n-gram ids of every reference, in order, kept for the per-segment pass.
    let mut ref_ids: Vec<Vec<u32>> = Vec::new();
    for seg in &refs {
        for r in seg {
            let words: Vec<&str> = r.iter().map(String::as_str).collect();
            tot_words += words.len() as u64;
            let mut ids = Vec::with_capacity(words.len() * max_n);
            ngram_ids(&mut trie, &words, max_n, true, |id, _| ids.push(id));
            for &id in &ids {
                trie.count[id as usize] += 1;
            }
            ref_ids.push(ids);
        }
    }
    let mut ref_ids = ref_ids.into_iter();
    let info: Vec<f64> = (0..trie.count.len())
        .map(|id| {
            if id == 0 {
                return 0.0;
            }
            let c = trie.count[id] as f64;
            let p = trie.prefix[id];
            let ratio = if p == u32::MAX {
                c / tot_words as f64
            } else {
                c / trie.count[p as usize] as f64
            };
            -ratio.ln() / std::f64::consts::LN_2
        })
        .collect();
    let mut out = MtevalStats {
        max_n,
        ..Default::default()
    };
    out.ref_offsets.push(0);
    let mut local: FxHashMap<u32, u64> = FxHashMap::default();
    let mut order_seen: Vec<u32> = Vec::new();
    let mut ref_max: FxHashMap<u32, u64> = FxHashMap::default();
    for i in 0..n {
        let (mut m, mut t, mut rc) = (vec![0u64; max_n], vec![0u64; max_n], vec![0u64; max_n]);
        let (mut ti, mut ri) = (vec![0f64; max_n], vec![0f64; max_n]);
        ref_max.clear();
        for r in &refs[i] {
            let words = r.len();
            local.clear();
            order_seen.clear();
            for id in ref_ids.next().unwrap_or_default() {
                let e = local.entry(id).or_insert(0);
                if *e == 0 {
                    order_seen.push(id);
                }
                *e += 1;
            }
            for &id in &order_seen {
                let c = local[&id];
                ri[trie.order[id as usize] as usize - 1] += info[id as usize];
                let mx = ref_max.entry(id).or_insert(0);
                if *mx < c {
                    *mx = c;
                }
            }
            for (k, x) in rc.iter_mut().enumerate() {
                *x += (words + 1).saturating_sub(k + 1) as u64;
            }
            out.ref_lens.push(words as u64);
        }
        out.ref_offsets.push(out.ref_lens.len() as u64);
        let words: Vec<&str> = hyps[i].iter().map(String::as_str).collect();
        for (k, x) in t.iter_mut().enumerate() {
            *x = (words.len() + 1).saturating_sub(k + 1) as u64;
        }
        local.clear();
        order_seen.clear();
        ngram_ids(&mut trie, &words, max_n, false, |id, _| {
            let e = local.entry(id).or_insert(0);
            if *e == 0 {
                order_seen.push(id);
            }
            *e += 1;
        });
        for &id in &order_seen {
            if let Some(&mx) = ref_max.get(&id) {
                let k = local[&id].min(mx);
                let o = trie.order[id as usize] as usize - 1;
                ti[o] += info[id as usize] * k as f64;
                m[o] += k;
            }
        }
        out.hyp_lens.push(words.len() as u64);
        out.matches.extend(m);
        out.tst.extend(t);
        out.refs.extend(rc);
        out.tst_info.extend(ti);
        out.ref_info.extend(ri);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::ngram_stats::Tokenized;

    fn toks(s: &str) -> Vec<String> {
        s.split(' ')
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn information_weights() {
        let hyps = vec![toks("a b a"), toks("0 a")];
        let refs = vec![vec![toks("a b c")], vec![toks("0 a"), toks("a")]];
        let s = mteval_stats(
            &Tokenized {
                hyps: &hyps,
                refs: &refs,
            },
            3,
        );
        // Reference words: 3 + 2 + 1 = 6; count(a) = 3, count(a b) = 1, count(0 a) = 1.
        let log2 = |x: f64| -x.ln() / std::f64::consts::LN_2;
        let (ia, ib) = (log2(3.0 / 6.0), log2(1.0 / 6.0));
        let iab = log2(1.0 / 3.0);
        assert_eq!(s.matches[..3], [2, 1, 0]);
        assert!((s.tst_info[0] - (ia + ib)).abs() < 1e-12);
        assert!((s.tst_info[1] - iab).abs() < 1e-12);
        // "0 a": the prefix "0" is false for Perl, so the bigram uses count / total words.
        let i0a = log2(1.0 / 6.0);
        assert!((s.tst_info[4] - i0a).abs() < 1e-12);
        assert_eq!(s.refs[3..6], [3, 1, 0]);
        assert_eq!(s.ref_lens, vec![3, 2, 1]);
    }
}
