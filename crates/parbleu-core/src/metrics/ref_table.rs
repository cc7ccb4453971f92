//! A reference segment's clipping table, built once so that scoring a hypothesis costs only
//! the hypothesis' own n-grams.
//!
//! SacreBLEU caches each reference's n-gram counts for the same reason. Here the references'
//! distinct tokens get segment-local ids `1..=d` (found through a small open-addressed table),
//! every reference n-gram of order >= 2 is packed into a `u64` with `bits` bits per id, and the
//! maximum count over references is kept per packed key in a sorted array. A hypothesis n-gram
//! is then one binary search, and since every prefix of a reference n-gram is itself a reference
//! n-gram, extending a hypothesis n-gram stops at the first miss.

use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;

/// Precomputed maximum reference counts of one segment (see the module documentation).
#[derive(Debug)]
pub struct RefTable {
    /// Bits per local id in a packed key.
    bits: u32,
    /// Open-addressed token lookup: local id, 0 for an empty slot. Length is a power of two.
    slots: Box<[u16]>,
    /// Distinct tokens, concatenated; local id `i + 1` is `text[tok_end[i - 1]..tok_end[i]]`.
    text: Box<str>,
    tok_end: Box<[u32]>,
    /// Maximum count over references of local id `i` (index 0 unused).
    uni_max: Box<[u16]>,
    /// Packed keys of orders 2..=max_order, sorted within each order.
    keys: Box<[u64]>,
    /// Maximum count over references, parallel to `keys`.
    max_count: Box<[u16]>,
    /// `keys[order_start[n - 2]..order_start[n - 1]]` are the keys of order `n`.
    order_start: Box<[u32]>,
}

/// Reusable buffers for [`RefTable::build`] (one per thread: building is per segment, and
/// allocation would otherwise dominate it).
#[derive(Default)]
pub struct Builder {
    slots: Vec<u16>,
    text: String,
    tok_end: Vec<u32>,
    ids: Vec<u16>,
    ends: Vec<usize>,
    count: Vec<u16>,
    uni_max: Vec<u16>,
    runs: Vec<(u64, u16)>,
    keys: Vec<u64>,
    out_keys: Vec<u64>,
    out_max: Vec<u16>,
    order_start: Vec<u32>,
}

/// Reusable per-thread buffers for [`RefTable::match_counts`].
#[derive(Default)]
pub struct TableScratch {
    ids: Vec<u16>,
    uni: Vec<u16>,
    counts: Vec<u16>,
    touched: Vec<u32>,
}

#[inline]
fn hash(token: &str) -> usize {
    FxBuildHasher.hash_one(token) as usize
}

/// Find `tok` in an open-addressed table; `Err(slot)` is the empty slot where it would go.
#[inline]
fn probe(slots: &[u16], text: &str, tok_end: &[u32], tok: &str) -> Result<u16, usize> {
    let mask = slots.len() - 1;
    let mut i = hash(tok) & mask;
    loop {
        match slots[i] {
            0 => return Err(i),
            id => {
                let k = usize::from(id) - 1;
                let start = if k == 0 { 0 } else { tok_end[k - 1] as usize };
                if &text[start..tok_end[k] as usize] == tok {
                    return Ok(id);
                }
                i = (i + 1) & mask;
            }
        }
    }
}

#[inline]
fn pack(bits: u32, ids: &[u16]) -> u64 {
    ids.iter().fold(0u64, |k, &id| (k << bits) | u64::from(id))
}

impl RefTable {
    /// The table of `refs` for orders up to `max_order`, or `None` where ids or counts would not
    /// fit (65,535 reference tokens or more, or keys wider than 64 bits): the caller then
    /// matches token by token.
    pub fn build<'t, R: AsRef<[&'t str]>>(
        refs: &[R],
        max_order: usize,
        b: &mut Builder,
    ) -> Option<Self> {
        let total: usize = refs.iter().map(|r| r.as_ref().len()).sum();
        let bytes: usize = refs.iter().flat_map(|r| r.as_ref()).map(|t| t.len()).sum();
        if total >= usize::from(u16::MAX) || bytes > u32::MAX as usize || max_order == 0 {
            return None;
        }
        // Distinct tokens are at most `total`: a load factor of at most 1/2.
        let cap = (2 * total).next_power_of_two().max(2);
        b.slots.clear();
        b.slots.resize(cap, 0);
        b.text.clear();
        b.tok_end.clear();
        b.ids.clear();
        b.ends.clear();
        for r in refs {
            for tok in r.as_ref() {
                let id = match probe(&b.slots, &b.text, &b.tok_end, tok) {
                    Ok(id) => id,
                    Err(slot) => {
                        b.text.push_str(tok);
                        b.tok_end.push(b.text.len() as u32);
                        let id = b.tok_end.len() as u16;
                        b.slots[slot] = id;
                        id
                    }
                };
                b.ids.push(id);
            }
            b.ends.push(b.ids.len());
        }
        let d = b.tok_end.len();
        let bits = usize::BITS - d.leading_zeros();
        if bits as usize * max_order > 64 && max_order > 1 {
            return None;
        }
        // Unigrams: per reference counts, max over references.
        b.uni_max.clear();
        b.uni_max.resize(d + 1, 0);
        b.count.clear();
        b.count.resize(d + 1, 0);
        let mut start = 0;
        for &end in &b.ends {
            let ids = &b.ids[start..end];
            start = end;
            for &id in ids {
                b.count[id as usize] += 1;
            }
            for &id in ids {
                let c = std::mem::take(&mut b.count[id as usize]);
                let m = &mut b.uni_max[id as usize];
                *m = (*m).max(c);
            }
        }
        // Orders >= 2: (key, count) runs of every reference, then the max per key.
        b.out_keys.clear();
        b.out_max.clear();
        b.order_start.clear();
        b.order_start.push(0);
        for n in 2..=max_order {
            b.runs.clear();
            let mut start = 0;
            for &end in &b.ends {
                let ids = &b.ids[start..end];
                start = end;
                if ids.len() < n {
                    continue;
                }
                b.keys.clear();
                b.keys.extend(ids.windows(n).map(|w| pack(bits, w)));
                b.keys.sort_unstable();
                let first = b.runs.len();
                for &k in &b.keys {
                    // Runs of one reference only: the previous reference's must stay apart.
                    match b.runs[first..].last_mut() {
                        Some((last, c)) if *last == k => *c += 1,
                        _ => b.runs.push((k, 1)),
                    }
                }
            }
            if refs.len() > 1 {
                b.runs.sort_unstable();
            }
            for &(k, c) in &b.runs {
                // Sorted by (key, count): the last run of a key holds its maximum.
                if b.out_keys.last() == Some(&k) {
                    *b.out_max.last_mut().expect("parallel to keys") = c;
                } else {
                    b.out_keys.push(k);
                    b.out_max.push(c);
                }
            }
            b.order_start.push(b.out_keys.len() as u32);
        }
        Some(RefTable {
            bits,
            slots: b.slots.as_slice().into(),
            text: b.text.as_str().into(),
            tok_end: b.tok_end.as_slice().into(),
            uni_max: b.uni_max.as_slice().into(),
            keys: b.out_keys.as_slice().into(),
            max_count: b.out_max.as_slice().into(),
            order_start: b.order_start.as_slice().into(),
        })
    }

    /// Local id of `tok`, 0 if no reference has it.
    #[inline]
    fn lookup(&self, tok: &str) -> u16 {
        probe(&self.slots, &self.text, &self.tok_end, tok).unwrap_or(0)
    }

    /// Clipped matches of `hyp` for orders `1..=matches.len()` (at most the table's order).
    pub fn match_counts(&self, hyp: &[&str], s: &mut TableScratch, matches: &mut [u64]) {
        self.match_tokens(hyp.iter().copied(), s, matches);
    }

    /// [`RefTable::match_counts`] for tokens given one by one (no token list is built);
    /// returns the number of tokens.
    pub fn match_tokens<'a>(
        &self,
        hyp: impl Iterator<Item = &'a str>,
        s: &mut TableScratch,
        matches: &mut [u64],
    ) -> usize {
        matches.fill(0);
        s.ids.clear();
        if self.tok_end.is_empty() {
            return hyp.count();
        }
        s.ids.extend(hyp.map(|t| self.lookup(t)));
        let hyp_len = s.ids.len();
        if s.uni.len() < self.uni_max.len() {
            s.uni.resize(self.uni_max.len(), 0);
        }
        let mut m1 = 0;
        for &id in &s.ids {
            if id != 0 {
                let c = &mut s.uni[id as usize];
                m1 += u64::from(*c < self.uni_max[id as usize]);
                *c += 1;
            }
        }
        for &id in &s.ids {
            s.uni[id as usize] = 0;
        }
        matches[0] = m1;

        let top = matches.len().min(self.order_start.len());
        if top < 2 {
            return hyp_len;
        }
        if s.counts.len() < self.keys.len() {
            s.counts.resize(self.keys.len(), 0);
        }
        let ids = &s.ids;
        for i in 0..ids.len() {
            if ids[i] == 0 {
                continue;
            }
            let mut k = u64::from(ids[i]);
            for n in 2..=top.min(ids.len() - i) {
                let id = ids[i + n - 1];
                if id == 0 {
                    break;
                }
                k = (k << self.bits) | u64::from(id);
                let lo = self.order_start[n - 2] as usize;
                let hi = self.order_start[n - 1] as usize;
                // A miss ends the extension: a longer n-gram would contain this one.
                let Ok(p) = self.keys[lo..hi].binary_search(&k) else {
                    break;
                };
                let p = lo + p;
                let c = &mut s.counts[p];
                if *c == 0 {
                    s.touched.push(p as u32);
                }
                matches[n - 1] += u64::from(*c < self.max_count[p]);
                *c += 1;
            }
        }
        for &p in &s.touched {
            s.counts[p as usize] = 0;
        }
        s.touched.clear();
        hyp_len
    }

    /// Approximate heap bytes held (for memory accounting in tests and benchmarks).
    pub fn heap_bytes(&self) -> usize {
        self.slots.len() * 2
            + self.text.len()
            + self.tok_end.len() * 4
            + self.uni_max.len() * 2
            + self.keys.len() * 10
            + self.order_start.len() * 4
    }
}

#[cfg(test)]
mod tests {
    use super::super::ngram::{match_counts, Scratch};
    use super::*;

    fn check(
        hyp: &[&str],
        refs: &[Vec<&str>],
        order: usize,
        s: &mut TableScratch,
        b: &mut Builder,
    ) {
        let mut want = vec![0; order];
        let mut totals = vec![0; order];
        match_counts(
            hyp,
            refs,
            order,
            &mut Scratch::default(),
            &mut want,
            &mut totals,
        );
        let Some(t) = RefTable::build(refs, order, b) else {
            return;
        };
        let mut got = vec![7; order];
        t.match_counts(hyp, s, &mut got);
        assert_eq!(got, want, "hyp {hyp:?} refs {refs:?} order {order}");
    }

    #[test]
    fn clips_by_the_best_reference() {
        let hyp: Vec<&str> = "the cat the cat sat on the mat".split(' ').collect();
        let refs: Vec<Vec<&str>> = vec![
            "the cat sat on the mat".split(' ').collect(),
            "a cat the cat the cat".split(' ').collect(),
        ];
        let (mut s, mut b) = (TableScratch::default(), Builder::default());
        for order in 1..=9 {
            check(&hyp, &refs, order, &mut s, &mut b);
        }
        assert!(RefTable::build(&refs, 4, &mut Builder::default()).is_some());
    }

    #[test]
    fn declines_what_does_not_fit() {
        let words: Vec<String> = (0..70_000).map(|i| format!("w{i}")).collect();
        let r: Vec<&str> = words.iter().map(String::as_str).collect();
        assert!(RefTable::build(&[r], 4, &mut Builder::default()).is_none());
        // 300 distinct ids need 9 bits: order 8 does not fit in 64 bits, order 7 does.
        let r: Vec<&str> = words[..300].iter().map(String::as_str).collect();
        assert!(RefTable::build(std::slice::from_ref(&r), 8, &mut Builder::default()).is_none());
        assert!(RefTable::build(&[r], 7, &mut Builder::default()).is_some());
        assert!(RefTable::build(&[vec!["a", "b", "c"]], 30, &mut Builder::default()).is_some());
    }

    proptest::proptest! {
        #[test]
        fn prop_equals_token_matching(
            hyp in proptest::collection::vec(0u8..6, 0..14),
            refs in proptest::collection::vec(proptest::collection::vec(0u8..6, 0..14), 0..4),
            order in 1usize..8,
        ) {
            let words = ["a", "b", "c", "d", "é", ""];
            let hyp: Vec<&str> = hyp.iter().map(|&i| words[i as usize]).collect();
            let refs: Vec<Vec<&str>> =
                refs.iter().map(|r| r.iter().map(|&i| words[i as usize]).collect()).collect();
            let (mut s, mut b) = (TableScratch::default(), Builder::default());
            // Twice with the same buffers: state must be fully reset.
            check(&hyp, &refs, order, &mut s, &mut b);
            check(&hyp, &refs, order, &mut s, &mut b);
        }
    }
}
