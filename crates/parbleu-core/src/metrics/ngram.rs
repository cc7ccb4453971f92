//! Exact word n-gram matching for one segment.
//!
//! N-grams are interned per segment as a trie: a unigram's id comes from the token, an n-gram's
//! id from the pair (id of its first n-1 tokens, id of its last token). Keys are therefore exact
//! (no hashing of n-gram content, so no collisions) and every order costs one hash lookup per
//! position.

use rustc_hash::FxHashMap;
use std::hash::Hash;

/// Reusable buffers; everything is cleared between segments.
#[derive(Default)]
pub struct Scratch {
    /// Token -> id, kept for its allocation only: always empty here. [`match_counts`] moves it
    /// out for one segment (the `'static` then becomes the segment's lifetime) and puts it back
    /// emptied, so no borrowed token outlives its segment.
    vocab: FxHashMap<&'static str, u32>,
    trie: FxHashMap<u64, u32>,
    ref_max: Vec<u32>,
    count: Vec<u32>,
    touched: Vec<u32>,
    cur: Vec<u32>,
    next: Vec<u32>,
    tok_ids: Vec<u32>,
    // Packed path.
    ref_ids: Vec<u32>,
    ref_ends: Vec<usize>,
    packed: PackedTable,
}

/// Open-addressing table of packed n-gram keys for one segment. Key 0 marks an empty slot:
/// packed keys start with a token id >= 1, which also keeps the orders apart (an n-gram's key
/// lies in `[2^(16(n-1)), 2^(16n))`), so one table holds orders 1..=4.
#[derive(Default)]
struct PackedTable {
    /// Key and counts side by side: a probe touches one cache line.
    slots: Vec<PackedSlot>,
    /// Per slot, occurrences in the current reference (several references only).
    cur: Vec<u32>,
    /// Occupied slots (cleared on the next reset).
    used: Vec<u32>,
    shift: u32,
}

#[derive(Default, Clone, Copy)]
struct PackedSlot {
    key: u64,
    /// Most occurrences in one reference.
    max: u32,
    /// Occurrences in the hypothesis so far.
    hyp: u32,
}

impl PackedTable {
    /// Empty the table, sized for up to `expect` distinct keys: load at most 1/4 for
    /// segment-sized tables (fewer probes: measured ~15 % faster on 128-token pairs), 1/2 for
    /// large ones (kept within the caches).
    fn reset(&mut self, expect: usize, several_refs: bool) {
        for &i in &self.used {
            self.slots[i as usize].key = 0;
        }
        self.used.clear();
        let spread = if expect <= 1024 { 4 } else { 2 };
        let want = (spread * expect).next_power_of_two().max(64);
        // A large segment must not make later small ones pay for clearing a large table.
        if self.slots.len() < want || self.slots.len() > 16 * want {
            self.slots = vec![PackedSlot::default(); want];
            self.cur = Vec::new();
            self.shift = 64 - want.trailing_zeros();
        }
        if several_refs && self.cur.len() != self.slots.len() {
            self.cur = vec![0; self.slots.len()];
        }
    }

    #[inline]
    fn home(&self, k: u64) -> usize {
        (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// The slot of `k`, inserted (with zero counts) if absent. Never full: see [`Self::reset`].
    #[inline]
    fn insert(&mut self, k: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = self.home(k);
        loop {
            let at = self.slots[i].key;
            if at == k {
                return i;
            }
            if at == 0 {
                self.slots[i] = PackedSlot {
                    key: k,
                    max: 0,
                    hyp: 0,
                };
                self.used.push(i as u32);
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The slot of `k`, if present.
    #[inline]
    fn find(&self, k: u64) -> Option<usize> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(k);
        loop {
            let at = self.slots[i].key;
            if at == k {
                return Some(i);
            }
            if at == 0 {
                return None;
            }
            i = (i + 1) & mask;
        }
    }
}

#[inline]
fn key(prefix: u32, last: u32) -> u64 {
    (u64::from(prefix) << 32) | u64::from(last)
}

/// Clipped n-gram matches and totals of `hyp` against `refs` for orders 1..=max_order.
///
/// `refs` are token lists; `matches` and `totals` have length `max_order`.
pub fn match_counts<'t, R: AsRef<[&'t str]>>(
    hyp: &[&'t str],
    refs: &[R],
    max_order: usize,
    s: &mut Scratch,
    matches: &mut [u64],
    totals: &mut [u64],
) {
    // The map is moved out of the scratch for this segment, so the scratch never holds a
    // borrowed token, even if this function unwinds (the map is then dropped with the frame).
    let vocab = std::mem::take(&mut s.vocab);
    debug_assert!(vocab.is_empty());
    // SAFETY: only the lifetime parameter of the key changes (same type, same layout), and the
    // map is empty: it holds no reference of either lifetime. `match_counts_with` empties it
    // again before it goes back into the scratch (`restore`).
    let mut vocab = unsafe {
        std::mem::transmute::<FxHashMap<&'static str, u32>, FxHashMap<&'t str, u32>>(vocab)
    };
    match_counts_with(hyp, refs, max_order, s, &mut vocab, matches, totals);
    restore(s, vocab);
}

/// The id of `k` in `ids`, the next free id (`*next_id`, then incremented) if it is new.
#[inline]
fn intern<K: Eq + Hash>(ids: &mut FxHashMap<K, u32>, k: K, next_id: &mut u32) -> u32 {
    *ids.entry(k).or_insert_with(|| {
        let id = *next_id;
        *next_id += 1;
        id
    })
}

/// [`match_counts`] for any token type (words as `&str`, token ids as integers): the one
/// n-gram match routine. `vocab` maps tokens to ids for one segment; it is left empty.
pub fn match_counts_with<T: Copy + Eq + Hash, R: AsRef<[T]>>(
    hyp: &[T],
    refs: &[R],
    max_order: usize,
    s: &mut Scratch,
    vocab: &mut FxHashMap<T, u32>,
    matches: &mut [u64],
    totals: &mut [u64],
) {
    debug_assert_eq!(matches.len(), max_order);
    debug_assert_eq!(totals.len(), max_order);
    for n in 1..=max_order {
        totals[n - 1] = (hyp.len() + 1).saturating_sub(n) as u64;
        matches[n - 1] = 0;
    }
    if hyp.is_empty() || refs.iter().all(|r| r.as_ref().is_empty()) {
        return;
    }
    let ref_tokens: usize = refs.iter().map(|r| r.as_ref().len()).sum();
    if max_order <= 4 && ref_tokens < usize::from(u16::MAX) {
        packed_counts(hyp, refs, max_order, s, vocab, matches);
        vocab.clear();
        return;
    }
    // Id 0 means "absent"; ids start at 1.
    let mut next_id: u32 = 1;
    s.ref_max.clear();
    s.ref_max.push(0);
    s.count.clear();
    s.count.push(0);

    for r in refs {
        let r = r.as_ref();
        s.tok_ids.clear();
        for &t in r {
            let id = intern(vocab, t, &mut next_id);
            s.tok_ids.push(id);
        }
        grow(&mut s.ref_max, &mut s.count, next_id);
        s.cur.clear();
        s.cur.extend_from_slice(&s.tok_ids);
        for n in 1..=max_order.min(r.len()) {
            if n > 1 {
                // cur[i] holds the (n-1)-gram starting at i; extend it by token i+n-1.
                s.next.clear();
                for i in 0..=(r.len() - n) {
                    let k = key(s.cur[i], s.tok_ids[i + n - 1]);
                    let id = intern(&mut s.trie, k, &mut next_id);
                    s.next.push(id);
                }
                std::mem::swap(&mut s.cur, &mut s.next);
                grow(&mut s.ref_max, &mut s.count, next_id);
            }
            for &id in &s.cur {
                let c = &mut s.count[id as usize];
                if *c == 0 {
                    s.touched.push(id);
                }
                *c += 1;
            }
        }
        for &id in &s.touched {
            let c = std::mem::take(&mut s.count[id as usize]);
            let m = &mut s.ref_max[id as usize];
            if c > *m {
                *m = c;
            }
        }
        s.touched.clear();
    }

    s.tok_ids.clear();
    s.tok_ids
        .extend(hyp.iter().map(|t| vocab.get(t).copied().unwrap_or(0)));
    s.cur.clear();
    s.cur.extend_from_slice(&s.tok_ids);
    for n in 1..=max_order.min(hyp.len()) {
        if n > 1 {
            s.next.clear();
            for i in 0..=(hyp.len() - n) {
                let p = s.cur[i];
                let t = s.tok_ids[i + n - 1];
                let id = if p == 0 || t == 0 {
                    0
                } else {
                    s.trie.get(&key(p, t)).copied().unwrap_or(0)
                };
                s.next.push(id);
            }
            std::mem::swap(&mut s.cur, &mut s.next);
        }
        for &id in &s.cur {
            if id != 0 {
                let c = &mut s.count[id as usize];
                if *c == 0 {
                    s.touched.push(id);
                }
                *c += 1;
            }
        }
        let mut m = 0u64;
        for &id in &s.touched {
            let c = std::mem::take(&mut s.count[id as usize]);
            m += u64::from(c.min(s.ref_max[id as usize]));
        }
        s.touched.clear();
        matches[n - 1] = m;
    }
    s.trie.clear();
    // One huge segment must not make every later `clear()` slow.
    if s.trie.capacity() > 1 << 16 {
        s.trie = FxHashMap::default();
    }
    vocab.clear();
}

/// Put the token map back into the scratch, emptied (its allocation is kept for the next
/// segment unless one huge segment grew it).
fn restore(s: &mut Scratch, vocab: FxHashMap<&str, u32>) {
    debug_assert!(vocab.is_empty());
    if vocab.capacity() > 1 << 16 {
        return;
    }
    // SAFETY: as in `match_counts`: the map is empty, only the key lifetime changes.
    s.vocab =
        unsafe { std::mem::transmute::<FxHashMap<&str, u32>, FxHashMap<&'static str, u32>>(vocab) };
}

/// The common case (orders <= 4, fewer than 65,535 reference tokens): token ids fit in 16 bits,
/// so an n-gram packs exactly into a `u64`, counted in one small hash table.
fn packed_counts<T: Copy + Eq + Hash, R: AsRef<[T]>>(
    hyp: &[T],
    refs: &[R],
    max_order: usize,
    s: &mut Scratch,
    vocab: &mut FxHashMap<T, u32>,
    matches: &mut [u64],
) {
    let mut next_id: u32 = 1;
    s.ref_ids.clear();
    s.ref_ends.clear();
    for r in refs {
        for &t in r.as_ref() {
            let id = intern(vocab, t, &mut next_id);
            s.ref_ids.push(id);
        }
        s.ref_ends.push(s.ref_ids.len());
    }
    s.tok_ids.clear();
    s.tok_ids
        .extend(hyp.iter().map(|t| vocab.get(t).copied().unwrap_or(0)));

    // Unigrams: ids are small, so count with arrays indexed by id (no sorting).
    s.count.clear();
    s.count.resize(next_id as usize, 0);
    s.ref_max.clear();
    s.ref_max.resize(next_id as usize, 0);
    let mut start = 0;
    for &end in &s.ref_ends {
        for &id in &s.ref_ids[start..end] {
            s.count[id as usize] += 1;
        }
        for &id in &s.ref_ids[start..end] {
            let c = std::mem::take(&mut s.count[id as usize]);
            let m = &mut s.ref_max[id as usize];
            *m = (*m).max(c);
        }
        start = end;
    }
    let mut m1 = 0u64;
    for &id in &s.tok_ids {
        if id != 0 {
            let c = &mut s.count[id as usize];
            if *c < s.ref_max[id as usize] {
                m1 += 1;
            }
            *c += 1;
        }
    }
    for &id in &s.tok_ids {
        s.count[id as usize] = 0;
    }
    matches[0] = m1;

    // Orders 2..: every n-gram packed into a u64 (16 bits per token), all orders in one table.
    let top = max_order.min(hyp.len());
    if top < 2 {
        return;
    }
    let refs = s.ref_ends.iter().scan(0, |start, &end| {
        let r = &s.ref_ids[*start..end];
        *start = end;
        Some(r)
    });
    packed_orders(
        &s.tok_ids,
        refs,
        2,
        top,
        &mut s.packed,
        &mut s.touched,
        matches,
    );
}

/// Clipped matches of orders `first..=top` (`top <= 4`) of `hyp` against `refs`, all sequences
/// of 16-bit codes (`1..=65535`; 0 in `hyp`: a token no reference has), into
/// `matches[first - 1..top]`. Each n-gram is packed into a `u64` key, all orders in one table:
/// each reference's counts, their maximum over references, then the hypothesis' n-grams clipped
/// against it occurrence by occurrence.
fn packed_orders<'r>(
    hyp: &[u32],
    refs: impl Iterator<Item = &'r [u32]> + Clone,
    first: usize,
    top: usize,
    t: &mut PackedTable,
    touched: &mut Vec<u32>,
    matches: &mut [u64],
) {
    debug_assert!(top <= 4 && first >= 1);
    let n_refs = refs.clone().count();
    let expect = refs
        .clone()
        .map(|r| {
            (first..=top)
                .map(|n| (r.len() + 1).saturating_sub(n))
                .sum::<usize>()
        })
        .sum();
    t.reset(expect, n_refs > 1);
    for r in refs {
        touched.clear();
        for i in 0..r.len() {
            let mut k = 0u64;
            for n in 1..=top.min(r.len() - i) {
                k = (k << 16) | u64::from(r[i + n - 1]);
                if n < first {
                    continue;
                }
                let slot = t.insert(k);
                if n_refs == 1 {
                    // One reference: its counts are the maximum (no second pass).
                    t.slots[slot].max += 1;
                    continue;
                }
                let c = &mut t.cur[slot];
                if *c == 0 {
                    touched.push(slot as u32);
                }
                *c += 1;
            }
        }
        for &slot in touched.iter() {
            let c = std::mem::take(&mut t.cur[slot as usize]);
            let v = &mut t.slots[slot as usize];
            v.max = v.max.max(c);
        }
    }
    touched.clear();
    for i in 0..hyp.len() {
        let mut k = 0u64;
        for n in 1..=top.min(hyp.len() - i) {
            let id = hyp[i + n - 1];
            if id == 0 {
                break;
            }
            k = (k << 16) | u64::from(id);
            if n < first {
                continue;
            }
            // An n-gram absent from the references has no longer extension there either.
            let Some(slot) = t.find(k) else { break };
            let v = &mut t.slots[slot];
            if v.hyp < v.max {
                matches[n - 1] += 1;
            }
            v.hyp += 1;
        }
    }
}

/// Clipped matches and totals of orders `1..=max_order` (at most 4: an n-gram must pack into
/// a `u64`) of sequences of 16-bit codes (`1..=65535`, as token ids + 1 are when every id is
/// below 65,535): [`match_counts_with`] without a token map, unigrams in the same table as the
/// longer n-grams.
pub fn code_match_counts<'r>(
    hyp: &[u32],
    refs: impl Iterator<Item = &'r [u32]> + Clone,
    max_order: usize,
    s: &mut Scratch,
    matches: &mut [u64],
    totals: &mut [u64],
) {
    assert!(max_order <= 4, "16-bit codes pack orders up to 4");
    debug_assert!(hyp
        .iter()
        .copied()
        .chain(refs.clone().flatten().copied())
        .all(|c| c != 0));
    for n in 1..=max_order {
        totals[n - 1] = (hyp.len() + 1).saturating_sub(n) as u64;
        matches[n - 1] = 0;
    }
    let top = max_order.min(hyp.len());
    if top == 0 || refs.clone().all(<[u32]>::is_empty) {
        return;
    }
    packed_orders(hyp, refs, 1, top, &mut s.packed, &mut s.touched, matches);
}

fn grow(a: &mut Vec<u32>, b: &mut Vec<u32>, len: u32) {
    let len = len as usize;
    if a.len() < len {
        a.resize(len, 0);
        b.resize(len, 0);
    }
}

/// A hypothesis whose n-grams are clipped by different references at different orders (for
/// the tests of every n-gram matcher).
#[cfg(test)]
pub(crate) fn clipping_example() -> (Vec<&'static str>, Vec<Vec<&'static str>>) {
    let words = |s: &'static str| s.split(' ').collect::<Vec<_>>();
    let refs = vec![
        words("the cat sat on the mat"),
        words("a cat the cat the cat"),
    ];
    (words("the cat the cat sat on the mat"), refs)
}

/// A hypothesis and 0 to 3 references of fewer than `max_len` tokens drawn from `words` (for
/// the property tests of every n-gram matcher).
#[cfg(test)]
pub(crate) fn segment_strategy(
    words: &'static [&'static str],
    max_len: usize,
) -> impl proptest::strategy::Strategy<Value = (Vec<&'static str>, Vec<Vec<&'static str>>)> {
    let tokens = proptest::collection::vec(proptest::sample::select(words), 0..max_len);
    (tokens.clone(), proptest::collection::vec(tokens, 0..4))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The definition, with n-grams as owned token vectors.
    fn naive(hyp: &[&str], refs: &[Vec<&str>], max_order: usize) -> (Vec<u64>, Vec<u64>) {
        let grams = |t: &[&str], n: usize| {
            let mut m: HashMap<Vec<String>, u64> = HashMap::new();
            if t.len() >= n {
                for i in 0..=(t.len() - n) {
                    *m.entry(t[i..i + n].iter().map(|s| s.to_string()).collect())
                        .or_default() += 1;
                }
            }
            m
        };
        let mut matches = vec![0; max_order];
        let mut totals = vec![0; max_order];
        for n in 1..=max_order {
            let h = grams(hyp, n);
            totals[n - 1] = h.values().sum();
            for (g, c) in h {
                let best = refs
                    .iter()
                    .map(|r| grams(r, n).get(&g).copied().unwrap_or(0))
                    .max();
                matches[n - 1] += c.min(best.unwrap_or(0));
            }
        }
        (matches, totals)
    }

    #[test]
    fn agrees_with_definition() {
        let (hyp, refs) = clipping_example();
        for order in 1..=6 {
            let mut m = vec![0; order];
            let mut t = vec![0; order];
            match_counts(&hyp, &refs, order, &mut Scratch::default(), &mut m, &mut t);
            assert_eq!((m, t), naive(&hyp, &refs, order));
        }
    }

    #[test]
    fn long_references_take_the_trie_path() {
        // More than 65,535 reference tokens: ids no longer fit in 16 bits.
        let words: Vec<String> = (0..70_000).map(|i| format!("w{}", i % 40_000)).collect();
        let r: Vec<&str> = words.iter().map(String::as_str).collect();
        let hyp: Vec<&str> = vec!["w1", "w2", "w3", "w4", "w1", "w2", "x"];
        let refs = vec![r];
        let mut m = vec![0; 4];
        let mut t = vec![0; 4];
        match_counts(&hyp, &refs, 4, &mut Scratch::default(), &mut m, &mut t);
        assert_eq!((m, t), naive(&hyp, &refs, 4));
    }

    proptest::proptest! {
        #[test]
        fn prop_agrees_with_definition(
            (hyp, refs) in segment_strategy(&["a", "b", "c", "d", "e"], 12),
            order in 1usize..6,
        ) {
            let mut s = Scratch::default();
            // Run twice with the same scratch to check that state is fully reset.
            for _ in 0..2 {
                let mut m = vec![0; order];
                let mut t = vec![0; order];
                match_counts(&hyp, &refs, order, &mut s, &mut m, &mut t);
                proptest::prop_assert_eq!((m, t), naive(&hyp, &refs, order));
            }
        }
    }
}
