//! Hashed n-gram tables (8- or 16-byte slots), for hypotheses too large for direct tables
//! and too varied for packed keys.

use super::live::{room, IdRows, Live};

/// A slot of the n-gram table: the n-gram's key and its counts in the hypothesis and in the
/// reference being compared. Two layouts: 8 bytes when keys and counts are small (nearly
/// always: the table then fits in the L1 cache), 16 bytes otherwise.
pub(super) trait Slot: Copy {
    const EMPTY: Self;
    fn probe(table: &[Self], shift: u32, key: u64) -> usize;
    fn is_empty(&self) -> bool;
    fn set_key(&mut self, key: u64);
    fn hyp(&self) -> u32;
    fn add_hyp(&mut self);
    fn rf(&self) -> u32;
    /// Count one more reference occurrence (saturating: once the count reaches the
    /// hypothesis count, it only has to stay there).
    fn add_rf(&mut self);
    fn clear_rf(&mut self);
}

#[derive(Clone, Copy)]
pub(super) struct Small {
    key: u32,
    hyp: u16,
    rf: u16,
}

#[derive(Clone, Copy)]
pub(super) struct Large {
    key: u64,
    hyp: u32,
    rf: u32,
}

macro_rules! slot_impl {
    ($t:ty, $k:ty, $c:ty) => {
        impl Slot for $t {
            const EMPTY: Self = Self {
                key: <$k>::MAX,
                hyp: 0,
                rf: 0,
            };

            #[inline]
            fn probe(table: &[Self], shift: u32, key: u64) -> usize {
                let key = key as $k;
                let mask = table.len() - 1;
                let mut i = ((key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize;
                loop {
                    let k = table[i].key;
                    // One branch for both exits (found: k == key; empty: !k == 0): which one
                    // it is, is unpredictable, the exit itself is not.
                    if (k ^ key).min(!k) == 0 {
                        return i;
                    }
                    i = (i + 1) & mask;
                }
            }

            #[inline]
            fn is_empty(&self) -> bool {
                self.key == <$k>::MAX
            }

            #[inline]
            fn set_key(&mut self, key: u64) {
                self.key = key as $k;
            }

            #[inline]
            fn hyp(&self) -> u32 {
                u32::from(self.hyp)
            }

            #[inline]
            fn add_hyp(&mut self) {
                self.hyp += 1;
            }

            #[inline]
            fn rf(&self) -> u32 {
                u32::from(self.rf)
            }

            #[inline]
            fn add_rf(&mut self) {
                self.rf = self.rf.saturating_add(1);
            }

            #[inline]
            fn clear_rf(&mut self) {
                self.rf = 0;
            }
        }
    };
}

slot_impl!(Small, u32, u16);
slot_impl!(Large, u64, u32);

/// The n-grams (orders >= 2) of one hypothesis in an open-addressing table, as a trie: the
/// key of an n-gram is (id of its first n-1 symbols, dense id of its last symbol), and the id
/// of an n-gram of order >= 2 is `d + slot + 1` (ids `1..=d` are the unigrams, i.e. the dense
/// symbol ids). Whether an n-gram is new or already seen is random, so the loops count with
/// conditional moves rather than branches.
pub(super) struct Table<E> {
    slots: Vec<E>,
    shift: u32,
    used: Vec<u32>,
    n_used: usize,
}

impl<E> Default for Table<E> {
    fn default() -> Self {
        Table {
            slots: Vec::new(),
            shift: 0,
            used: Vec::new(),
            n_used: 0,
        }
    }
}

impl<E: Slot> Table<E> {
    pub(super) fn reset(&mut self, max_entries: usize) {
        for &slot in &self.used[..self.n_used] {
            self.slots[slot as usize] = E::EMPTY;
        }
        self.n_used = 0;
        let want = (4 * max_entries).next_power_of_two().max(64);
        if self.slots.len() < want || self.slots.len() > 8 * want {
            self.slots = vec![E::EMPTY; want];
            self.shift = 64 - want.trailing_zeros();
        }
        self.used.resize(self.used.len().max(max_entries + 1), 0);
    }

    /// Slots in the table (its keys must fit the slot layout).
    pub(super) fn len(&self) -> usize {
        self.slots.len()
    }

    /// Insert the n-grams of orders `2..=orders` of `hyp` (dense ids).
    pub(super) fn build(&mut self, hyp: &[u32], orders: usize, d: u64, rows: &mut IdRows) {
        let slots = &mut self.slots[..];
        let shift = self.shift;
        let used = &mut self.used[..];
        let mut n_used = self.n_used;
        let (prev, cur) = rows.start(hyp);
        for n in 2..=orders {
            let m = hyp.len() + 1 - n;
            for ((c, &p), &sym) in cur[..m].iter_mut().zip(&prev[..m]).zip(&hyp[n - 1..]) {
                let k = u64::from(p) * (d + 1) + u64::from(sym);
                let slot = E::probe(slots, shift, k);
                let e = &mut slots[slot];
                let new = e.is_empty();
                e.set_key(k);
                e.add_hyp();
                used[n_used] = slot as u32;
                n_used += usize::from(new);
                *c = (d + slot as u64 + 1) as u32;
            }
            std::mem::swap(prev, cur);
        }
        self.n_used = n_used;
    }

    /// Matches of orders `2..=at.orders` of the live positions of `at` into `matches_out`
    /// (`touched`: scratch, one per live position).
    pub(super) fn compare(
        &mut self,
        d: u64,
        at: Live<'_>,
        touched: &mut [u32],
        matches_out: &mut [u64],
    ) {
        let (rf, pos, ids, mut live) = (at.rf, at.pos, at.ids, at.n);
        let slots = &mut self.slots[..];
        let shift = self.shift;
        for n in 2..=at.orders {
            let Some(m) = room(rf.len(), pos, live, n) else {
                break;
            };
            let mut next = 0;
            let mut matches = 0u64;
            for k in 0..m {
                let i = pos[k] as usize;
                let key = u64::from(ids[k]) * (d + 1) + u64::from(rf[i + n - 1]);
                let slot = E::probe(slots, shift, key);
                let e = &mut slots[slot];
                // sum of min(hyp count, ref count), one occurrence at a time (an empty slot
                // has hyp count 0, so it never matches)
                matches += u64::from(e.rf() < e.hyp());
                e.add_rf();
                touched[k] = slot as u32;
                // keep the position if its n-gram occurs (next <= k: in place is safe)
                pos[next] = i as u32;
                ids[next] = (d + slot as u64 + 1) as u32;
                next += usize::from(!e.is_empty());
            }
            for &slot in &touched[..m] {
                slots[slot as usize].clear_rf();
            }
            matches_out[n - 1] = matches;
            live = next;
        }
    }
}
