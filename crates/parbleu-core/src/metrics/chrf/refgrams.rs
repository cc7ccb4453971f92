//! The character n-grams of one reference, tabled once when the references are prepared.
//!
//! A test set is scored against many systems with the same prepared references, so the
//! reference side is where tables pay off: a hypothesis is then only looked up in them, with
//! no table of its own to build and clear. As a trie: the id of a unigram is the reference's
//! dense id of its symbol (`1..=d`), the id of an n-gram of order >= 2 is its slot in that
//! order's table, keyed by (id of its first n-1 symbols, id of its last symbol). Matches are
//! `min(hyp count, ref count)` summed, counted one hypothesis occurrence at a time against a
//! copy of the reference counts, so the statistics are exactly those of `HypGrams`.

use rustc_hash::FxHashMap;

/// Longest reference tabled (keys and counts stay small); longer ones use `HypGrams`.
pub(super) const MAX_SYMBOLS: usize = 4096;

const EMPTY: u32 = u32::MAX;

/// A slot of an order's table: an n-gram's key and its count in the reference.
#[derive(Debug, Clone, Copy)]
struct Slot {
    key: u32,
    count: u32,
}

const EMPTY_SLOT: Slot = Slot {
    key: EMPTY,
    count: 0,
};

/// The slot of `key` in an open-addressing table (a power of two long), or the empty slot
/// where it would go.
#[inline]
fn probe(table: &[Slot], shift: u32, key: u32) -> usize {
    let mask = table.len() - 1;
    let mut i = (u64::from(key).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize;
    loop {
        let k = table[i].key;
        // One branch for both exits (found: k == key; empty: !k == 0).
        if (k ^ key).min(!k) == 0 {
            return i;
        }
        i = (i + 1) & mask;
    }
}

#[derive(Debug, Clone)]
pub(super) struct RefGrams {
    /// Dense id of each ASCII symbol (0: not in the reference).
    ascii: [u16; 128],
    /// Other symbols and their ids, sorted by symbol.
    other: Box<[(u32, u16)]>,
    /// Unigram counts by id (index 0 unused).
    uni: Box<[u16]>,
    /// The tables of orders `2..` one after the other, all copied at once per comparison (a
    /// stream the prefetcher follows; probing the reference's own copy misses the cache at
    /// nearly every probe when many references are scored in turn). Order n's table is
    /// `slots[starts[n - 2]..starts[n - 1]]`; a slot's index in its table is the n-gram's id.
    slots: Box<[Slot]>,
    starts: Box<[usize]>,
    /// `d + 1`, the key multiplier.
    d1: u32,
    /// Reference length in symbols.
    len: usize,
}

impl RefGrams {
    /// Tables of `syms` (a reference's symbols) for orders `1..=max_order`, or `None` if the
    /// reference is longer than `MAX_SYMBOLS`.
    pub(super) fn new(syms: &[u32], max_order: usize) -> Option<Self> {
        let r = syms.len();
        if r > MAX_SYMBOLS {
            return None;
        }
        let mut ascii = [0u16; 128];
        let mut other: FxHashMap<u32, u16> = FxHashMap::default();
        let mut d = 0u16;
        let ids: Vec<u32> = syms
            .iter()
            .map(|&s| {
                let id = if s < 128 {
                    &mut ascii[s as usize]
                } else {
                    other.entry(s).or_insert(0)
                };
                if *id == 0 {
                    d += 1;
                    *id = d;
                }
                u32::from(*id)
            })
            .collect();
        let mut uni = vec![0u16; usize::from(d) + 1];
        for &id in &ids {
            uni[id as usize] += 1;
        }
        let d1 = u32::from(d) + 1;
        let mut slots = Vec::new();
        let mut starts = vec![0];
        let mut prev = ids.clone();
        for n in 2..=max_order.min(r) {
            let m = r + 1 - n;
            // Load at most 1/2: a hypothesis n-gram the reference lacks (most of them at
            // high orders) ends its probe at an empty slot after about 2.5 slots.
            let len = (2 * m).next_power_of_two().max(8);
            let shift = 64 - len.trailing_zeros();
            let base = slots.len();
            slots.resize(base + len, EMPTY_SLOT);
            let table = &mut slots[base..];
            for i in 0..m {
                // prev[i] < len of the previous order (<= 2 * MAX_SYMBOLS) and ids[..] <= d:
                // the key is below 2^13 * 2^13.
                let key = prev[i] * d1 + ids[i + n - 1];
                let slot = probe(table, shift, key);
                table[slot].key = key;
                table[slot].count += 1;
                prev[i] = slot as u32;
            }
            starts.push(slots.len());
        }
        let mut other: Vec<(u32, u16)> = other.into_iter().collect();
        other.sort_unstable();
        Some(RefGrams {
            ascii,
            other: other.into(),
            uni: uni.into(),
            slots: slots.into(),
            starts: starts.into(),
            d1,
            len: r,
        })
    }

    #[inline]
    fn id(&self, sym: u32) -> u32 {
        if sym < 128 {
            return u32::from(self.ascii[sym as usize]);
        }
        match self.other.binary_search_by_key(&sym, |&(s, _)| s) {
            Ok(k) => u32::from(self.other[k].1),
            Err(_) => 0,
        }
    }

    /// `_get_match_statistics` of hypothesis symbols `hyp` against this reference, for orders
    /// `1..=out.len() / 3` (at most the order the tables were built for).
    pub(super) fn compare(&self, hyp: &[u32], s: &mut CompareScratch, out: &mut [i64]) {
        let max_order = out.len() / 3;
        let (h, r) = (hyp.len(), self.len);
        s.ids.clear();
        s.ids.extend(hyp.iter().map(|&c| self.id(c)));
        s.matches.clear();
        s.matches.resize(max_order.max(1), 0);
        // Unigrams, and the live positions: those whose symbol occurs in the reference.
        s.left.clear();
        s.left.extend_from_slice(&self.uni);
        s.pos.clear();
        s.cur.clear();
        let mut m1 = 0u64;
        for (i, &id) in s.ids.iter().enumerate() {
            let c = &mut s.left[id as usize];
            // Id 0 (absent) has count 0: never a hit.
            let hit = u16::from(*c > 0);
            m1 += u64::from(hit);
            *c -= hit;
            if id != 0 {
                s.pos.push(i as u32);
                s.cur.push(id);
            }
        }
        s.matches[0] = m1;
        let mut live = s.pos.len();
        s.slots.clear();
        s.slots.extend_from_slice(&self.slots);
        for n in 2..=max_order.min(self.starts.len()) {
            let table = &mut s.slots[self.starts[n - 2]..self.starts[n - 1]];
            let shift = 64 - table.len().trailing_zeros();
            let hyp_total = (h + 1).saturating_sub(n);
            // Positions are increasing: those with room for an n-gram come first.
            let m = s.pos[..live].partition_point(|&i| (i as usize) < hyp_total);
            if m == 0 {
                break;
            }
            let mut next = 0;
            let mut matches = 0u64;
            for k in 0..m {
                let i = s.pos[k] as usize;
                // A symbol the reference lacks has id 0, which no key holds.
                let key = s.cur[k] * self.d1 + s.ids[i + n - 1];
                let slot = probe(table, shift, key);
                let e = &mut table[slot];
                // Found or not is unpredictable: counted with conditional moves. A key not
                // found lands on an empty slot, whose count is 0 (never a hit).
                let hit = u32::from(e.count > 0);
                matches += u64::from(hit);
                e.count -= hit;
                // next <= k: in place is safe.
                s.pos[next] = i as u32;
                s.cur[next] = slot as u32;
                next += usize::from(e.key == key);
            }
            s.matches[n - 1] = matches;
            live = next;
        }
        for n in 1..=max_order {
            let ref_total = (r + 1).saturating_sub(n);
            // "Don't count hits if no reference exists for that n-gram"
            let hyp_total = if ref_total > 0 {
                (h + 1).saturating_sub(n)
            } else {
                0
            };
            out[3 * (n - 1)] = hyp_total as i64;
            out[3 * (n - 1) + 1] = ref_total as i64;
            out[3 * (n - 1) + 2] = s.matches[n - 1] as i64;
        }
    }
}

/// Per-thread buffers of [`RefGrams::compare`].
#[derive(Default)]
pub(super) struct CompareScratch {
    ids: Vec<u32>,
    left: Vec<u16>,
    slots: Vec<Slot>,
    pos: Vec<u32>,
    cur: Vec<u32>,
    matches: Vec<u64>,
}
