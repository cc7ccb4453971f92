//! Clipped n-gram counting of one short segment on packed ids, with scratch memory reused from
//! segment to segment: the kernel of the per-call flavor paths (NLTK's `sentence_gleu`,
//! `sentence_chrf`, and `corpus_gleu` one segment at a time).
//!
//! The hypothesis' distinct items (tokens or characters) get ids `1..`; a reference item that is
//! not in the hypothesis gets 0 and no n-gram containing it can match. An n-gram of order `n` is
//! its ids packed into one `u64`, `64 / max_order` bits each, first id highest: the first id is
//! not 0, so the order of a key is where its highest set bit lies. One open-addressing table
//! holds the hypothesis n-grams of every order.

use crate::vocab::push_ids;
use rustc_hash::FxHashMap;
use std::hash::Hash;

/// A hypothesis n-gram: its count and its count in the current reference. A slot whose `generation` is not the table's is empty (the table is not
/// cleared between segments).
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    hyp: u32,
    cur: u32,
    stamp: u32,
    generation: u32,
}

/// Scratch memory for counting one segment after another.
#[derive(Default)]
pub struct Counter {
    table: Vec<Slot>,
    ids: Vec<u32>,
    mask: usize,
    bits: u32,
    max_order: usize,
    stamp: u32,
    generation: u32,
}

/// Bits per id when packing n-grams of orders up to `max_order` (at least 1).
fn bits_for(max_order: usize) -> u32 {
    (64 / max_order.max(1)) as u32
}

/// Whether `vocab` distinct ids (`1..=vocab`) pack for orders up to `max_order`.
pub fn fits(vocab: usize, max_order: usize) -> bool {
    if max_order == 0 || max_order > 64 {
        return false;
    }
    let bits = bits_for(max_order);
    bits >= 64 || (vocab as u64) < (1u64 << bits)
}

/// Ids of `items` against a hypothesis vocabulary (0 for an item it does not hold).
fn ref_ids<T: Eq + Hash>(
    vocab: &FxHashMap<T, u32>,
    items: impl Iterator<Item = T>,
    out: &mut Vec<u32>,
) {
    out.clear();
    out.extend(items.map(|t| vocab.get(&t).copied().unwrap_or(0)));
}

/// Call `f(key, order - 1)` for every n-gram of orders `1..=max_order` of `ids` that contains
/// no 0, packed `bits` per id.
#[inline(always)]
fn for_each_ngram(ids: &[u32], max_order: usize, bits: u32, mut f: impl FnMut(u64, usize)) {
    for (start, &first) in ids.iter().enumerate() {
        if first == 0 {
            continue;
        }
        let mut key = u64::from(first);
        f(key, 0);
        let end = ids.len().min(start + max_order);
        for (order, &x) in (1..).zip(&ids[start + 1..end]) {
            if x == 0 {
                break;
            }
            key = (key << bits) | u64::from(x);
            f(key, order);
        }
    }
}

impl Counter {
    /// Count the hypothesis `items` for orders `1..=max_order`, after clearing `vocab` and filling
    /// it with the hypothesis' items. `false` (nothing counted) when its distinct items do not
    /// pack (see [`fits`]).
    pub fn load_hyp<T: Eq + Hash>(
        &mut self,
        vocab: &mut FxHashMap<T, u32>,
        items: impl Iterator<Item = T>,
        max_order: usize,
    ) -> bool {
        vocab.clear();
        vocab.reserve(items.size_hint().0);
        let mut ids = std::mem::take(&mut self.ids);
        push_ids(vocab, items, 1, &mut ids);
        let ok = fits(vocab.len(), max_order);
        if ok {
            self.load_ids(&ids, max_order);
        }
        self.ids = ids;
        ok
    }

    /// Count one reference's `items` (see [`Counter::add_ref_ids`]) against the hypothesis last
    /// loaded with `vocab`.
    pub fn add_ref<T: Eq + Hash>(
        &mut self,
        vocab: &FxHashMap<T, u32>,
        items: impl Iterator<Item = T>,
        tp: &mut [u64],
    ) {
        let mut ids = std::mem::take(&mut self.ids);
        ref_ids(vocab, items, &mut ids);
        self.add_ref_ids(&ids, tp);
        self.ids = ids;
    }

    /// Count hypothesis ids: from 1, `max_order >= 1`, the largest id passing [`fits`].
    pub fn load_ids(&mut self, ids: &[u32], max_order: usize) {
        debug_assert!(max_order >= 1);
        debug_assert!(ids.iter().all(|&i| i > 0 && fits(i as usize, max_order)));
        self.bits = bits_for(max_order);
        self.max_order = max_order;
        self.stamp = 0;
        let n_grams: u64 = (1..=max_order).map(|n| ngram_count(ids.len(), n)).sum();
        let cap = (2 * n_grams as usize).next_power_of_two().max(16);
        // A table that is too small, much too large, or whose generations ran out is made anew.
        if cap > self.table.len() || 8 * cap < self.table.len() || self.generation == u32::MAX {
            self.table.clear();
            self.table.resize(cap, Slot::default());
            self.generation = 0;
        }
        self.generation += 1;
        let generation = self.generation;
        self.mask = self.table.len() - 1;
        for_each_ngram(ids, max_order, self.bits, |k, _| {
            let i = self.slot_of(k);
            let s = &mut self.table[i];
            if s.generation != generation {
                *s = Slot {
                    key: k,
                    generation,
                    ..Slot::default()
                };
            }
            s.hyp += 1;
        });
    }

    #[inline]
    fn slot_of(&self, k: u64) -> usize {
        let mut i = (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & self.mask;
        loop {
            let s = &self.table[i];
            if s.generation != self.generation || s.key == k {
                return i;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Count one reference's ids (0 for items not in the hypothesis): `tp[n - 1]` gains this
    /// reference's clipped matches of order `n` (`min(hypothesis count, reference count)`
    /// summed over n-grams).
    pub fn add_ref_ids(&mut self, ids: &[u32], tp: &mut [u64]) {
        self.stamp += 1;
        let (stamp, generation) = (self.stamp, self.generation);
        let (max_order, bits) = (self.max_order, self.bits);
        for_each_ngram(ids, max_order, bits, |k, order| {
            let i = self.slot_of(k);
            let s = &mut self.table[i];
            if s.generation != generation {
                return;
            }
            if s.stamp != stamp {
                s.stamp = stamp;
                s.cur = 0;
            }
            s.cur += 1;
            if s.cur <= s.hyp {
                tp[order] += 1;
            }
        });
    }
}

/// Ids (from 1) of the characters of one hypothesis: a direct table below U+0800, a map above;
/// not cleared between segments (generation-tagged).
#[derive(Default)]
pub struct CharIds {
    direct: Vec<(u32, u32)>,
    other: FxHashMap<char, u32>,
    generation: u32,
    len: u32,
}

const DIRECT_CHARS: usize = 0x800;

impl CharIds {
    /// Forget every id.
    pub fn reset(&mut self) {
        if self.direct.is_empty() || self.generation == u32::MAX {
            self.direct = vec![(0, 0); DIRECT_CHARS];
            self.generation = 0;
        }
        self.generation += 1;
        self.other.clear();
        self.len = 0;
    }

    /// Number of distinct characters given ids since [`CharIds::reset`].
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether no character has an id.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The id of `c`, a new one if it has none.
    #[inline]
    pub fn insert(&mut self, c: char) -> u32 {
        let cp = c as usize;
        if cp < DIRECT_CHARS {
            let e = &mut self.direct[cp];
            if e.0 != self.generation {
                self.len += 1;
                *e = (self.generation, self.len);
            }
            e.1
        } else {
            let len = &mut self.len;
            *self.other.entry(c).or_insert_with(|| {
                *len += 1;
                *len
            })
        }
    }

    /// The id of `c`, 0 if it has none.
    #[inline]
    pub fn get(&self, c: char) -> u32 {
        let cp = c as usize;
        if cp < DIRECT_CHARS {
            let e = self.direct[cp];
            if e.0 == self.generation {
                e.1
            } else {
                0
            }
        } else {
            self.other.get(&c).copied().unwrap_or(0)
        }
    }
}

/// Number of n-grams of order `n` in a sequence of `len` items.
#[inline]
pub fn ngram_count(len: usize, n: usize) -> u64 {
    (len + 1).saturating_sub(n) as u64
}

/// Clipped matches of `hyp` against the single reference `reference`, orders `1..=max_order`,
/// by one map per order: the path for vocabularies that do not pack.
pub fn clipped_by_maps<T: Eq + Hash>(hyp: &[T], reference: &[T], max_order: usize) -> Vec<u64> {
    let mut out = vec![0; max_order];
    let mut m: FxHashMap<&[T], (u64, u64)> = FxHashMap::default();
    for (n, tp) in (1..=max_order).zip(out.iter_mut()) {
        m.clear();
        for w in hyp.windows(n) {
            m.entry(w).or_default().0 += 1;
        }
        for w in reference.windows(n) {
            if let Some(e) = m.get_mut(w) {
                e.1 += 1;
            }
        }
        *tp = m.values().map(|&(h, r)| h.min(r)).sum();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// Clipped matches per order and per reference, by plain maps.
    fn naive(hyp: &[u8], refs: &[Vec<u8>], max_order: usize) -> Vec<Vec<u64>> {
        let grams = |s: &[u8], n: usize| {
            let mut m: HashMap<Vec<u8>, u64> = HashMap::new();
            if s.len() >= n {
                for w in s.windows(n) {
                    *m.entry(w.to_vec()).or_default() += 1;
                }
            }
            m
        };
        let mut per = vec![vec![0; max_order]; refs.len()];
        for n in 1..=max_order {
            let h = grams(hyp, n);
            let rs: Vec<_> = refs.iter().map(|r| grams(r, n)).collect();
            for (g, &c) in &h {
                for (j, r) in rs.iter().enumerate() {
                    per[j][n - 1] += c.min(r.get(g).copied().unwrap_or(0));
                }
            }
        }
        per
    }

    fn segment() -> impl Strategy<Value = (Vec<u8>, Vec<Vec<u8>>)> {
        (
            prop::collection::vec(0u8..5, 0..40),
            prop::collection::vec(prop::collection::vec(0u8..6, 0..40), 0..4),
        )
    }

    proptest! {
        #[test]
        fn counts_equal_plain_maps(
            // Several segments through one counter: its scratch memory must not leak from one
            // segment to the next (short after long, long after short).
            segments in prop::collection::vec(segment(), 1..5),
            max_order in prop_oneof![1usize..9, 9usize..40],
        ) {
            let mut vocab = FxHashMap::default();
            let mut c = Counter::default();
            for (hyp, refs) in &segments {
                let want_per = naive(hyp, refs, max_order);
                if !c.load_hyp(&mut vocab, hyp.iter(), max_order) {
                    prop_assert!(!fits(vocab.len(), max_order));
                    continue;
                }
                let mut per = Vec::new();
                for r in refs {
                    let mut tp = vec![0; max_order];
                    c.add_ref(&vocab, r.iter(), &mut tp);
                    per.push(tp);
                }
                prop_assert_eq!(&per, &want_per);
                for (r, want) in refs.iter().zip(&want_per) {
                    prop_assert_eq!(&clipped_by_maps(hyp, r, max_order), want);
                }
            }
        }
    }

    proptest! {
        #[test]
        fn char_ids_are_first_seen_order(
            texts in prop::collection::vec(
                prop::collection::vec(
                    prop_oneof![Just('a'), Just('b'), Just('\u{7ff}'), Just('\u{800}'), Just('😀')],
                    0..10,
                ),
                1..4,
            ),
        ) {
            let mut ids = CharIds::default();
            for t in &texts {
                ids.reset();
                let mut map: FxHashMap<char, u32> = FxHashMap::default();
                for &c in t {
                    let next = map.len() as u32 + 1;
                    let want = *map.entry(c).or_insert(next);
                    prop_assert_eq!(ids.insert(c), want);
                }
                prop_assert_eq!(ids.len(), map.len());
                for c in ['a', 'b', '\u{7ff}', '\u{800}', '😀', 'z'] {
                    prop_assert_eq!(ids.get(c), map.get(&c).copied().unwrap_or(0));
                }
            }
        }
    }

    #[test]
    fn too_many_distinct_items() {
        let hyp: Vec<u32> = (0..1_100).collect();
        let mut c = Counter::default();
        let mut vocab = FxHashMap::default();
        assert!(!c.load_hyp(&mut vocab, hyp.iter(), 6));
        assert!(c.load_hyp(&mut vocab, hyp.iter(), 4));
        let mut tp = vec![0; 4];
        c.add_ref(&vocab, hyp[..10].iter(), &mut tp);
        assert_eq!(tp, vec![10, 9, 8, 7]);
        assert_eq!(
            clipped_by_maps(&hyp, &hyp[..10], 6),
            vec![10, 9, 8, 7, 6, 5]
        );
    }

    #[test]
    fn fits_limits() {
        assert!(fits(1, 1));
        assert!(fits(usize::MAX >> 1, 1));
        assert!(fits(65_535, 4));
        assert!(!fits(65_536, 4));
        assert!(fits(1_023, 6));
        assert!(!fits(1_024, 6));
        assert!(fits(1, 64));
        assert!(!fits(2, 64));
        assert!(!fits(1, 0));
        assert!(!fits(1, 65));
    }
}
