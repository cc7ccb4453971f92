//! n-grams of orders >= 2 as packed integer keys in one open-addressing table.
//!
//! Symbols are dense per-hypothesis ids `1..=d`; a reference symbol the hypothesis lacks is
//! `d + 1`. With `bits` bits per symbol, the key of the n-gram starting at `i` is
//! `key(n - 1, i) << bits | sym[i + n - 1]`, so keys of every order are computed in place
//! from the previous order's, with no trie and no hashing of strings. The first symbol is
//! never 0, so keys of different orders differ (and 0 can mark an empty slot). Used when
//! `bits * orders <= 64`, i.e. nearly always.

/// An n-gram and its counts in the hypothesis and in the reference being compared.
#[derive(Clone, Copy, Default)]
struct Slot {
    /// 0: empty.
    key: u64,
    hyp: u32,
    rf: u32,
}

#[derive(Default)]
pub(super) struct Packed {
    slots: Vec<Slot>,
    shift: u32,
    /// Slots holding a key (`n_used` of them), to clear before the next hypothesis.
    used: Vec<u32>,
    n_used: usize,
    /// Grow the table when `n_used` reaches this (half full).
    limit: usize,
    bits: u32,
    /// Orders held: `2..=orders`.
    orders: usize,
    keys: Vec<u64>,
    touched: Vec<u32>,
}

const MUL: u64 = 0x9E37_79B9_7F4A_7C15;

/// The slot holding `key`, or the empty slot where it would go.
#[inline]
fn probe(slots: &[Slot], shift: u32, key: u64) -> usize {
    let mask = slots.len() - 1;
    let mut i = (key.wrapping_mul(MUL) >> shift) as usize;
    loop {
        let k = slots[i].key;
        // One branch for both exits (found: k == key; empty: k == 0).
        if (k ^ key).min(k) == 0 {
            return i;
        }
        i = (i + 1) & mask;
    }
}

impl Packed {
    /// Bits per symbol for `d` distinct hypothesis symbols (ids `1..=d + 1`), if n-grams of
    /// `orders` symbols fit in 64 bits.
    pub(super) fn bits_for(d: usize, orders: usize) -> Option<u32> {
        let bits = usize::BITS - (d + 1).leading_zeros();
        (bits as usize * orders <= 64).then_some(bits)
    }

    fn alloc(&mut self, len: usize) {
        self.slots.clear();
        self.slots.resize(len, Slot::default());
        self.shift = 64 - len.trailing_zeros();
        self.limit = len / 2;
        self.used.resize(self.limit + 1, 0);
    }

    /// Double the table (the build phase only: reference counts are all 0).
    fn grow(&mut self) {
        let old: Vec<Slot> = self.used[..self.n_used]
            .iter()
            .map(|&s| self.slots[s as usize])
            .collect();
        self.alloc(2 * self.slots.len());
        for (j, e) in old.into_iter().enumerate() {
            let s = probe(&self.slots, self.shift, e.key);
            self.slots[s] = e;
            self.used[j] = s as u32;
        }
    }

    /// Insert the n-grams of orders `2..=orders` of `hyp` (ids `1..=d`, `bits` from
    /// `bits_for`).
    pub(super) fn build(&mut self, hyp: &[u32], orders: usize, bits: u32) {
        for &s in &self.used[..self.n_used] {
            self.slots[s as usize] = Slot::default();
        }
        self.n_used = 0;
        self.bits = bits;
        self.orders = orders;
        let h = hyp.len();
        // Room for every n-gram distinct, up to a size that stays in cache; repetitive long
        // text grows the table only as far as it has distinct n-grams.
        let want = (2 * h * orders.saturating_sub(1))
            .next_power_of_two()
            .clamp(64, 1 << 14);
        if self.slots.len() < want || self.slots.len() > 8 * want {
            self.alloc(want);
        }
        self.keys.clear();
        self.keys.extend(hyp.iter().map(|&s| u64::from(s)));
        for n in 2..=orders {
            let m = h + 1 - n;
            let mut i = 0;
            while i < m {
                // Positions that cannot fill the table past `limit`, without a check each.
                let end = m.min(i + (self.limit - self.n_used));
                self.insert(&hyp[i + n - 1..end + n - 1], i, end);
                i = end;
                if self.n_used >= self.limit {
                    self.grow();
                }
            }
        }
    }

    /// Extend the keys at `start..end` by one symbol each (`next`) and count them.
    fn insert(&mut self, next: &[u32], start: usize, end: usize) {
        let (slots, shift, bits) = (&mut self.slots[..], self.shift, self.bits);
        let used = &mut self.used[..];
        let mut n_used = self.n_used;
        for (key, &sym) in self.keys[start..end].iter_mut().zip(next) {
            let k = (*key << bits) | u64::from(sym);
            *key = k;
            let s = probe(slots, shift, k);
            let e = &mut slots[s];
            // New or not is unpredictable: count without a branch.
            let new = e.key == 0;
            e.key = k;
            e.hyp += 1;
            used[n_used] = s as u32;
            n_used += usize::from(new);
        }
        self.n_used = n_used;
    }

    /// Matches of orders `2..=min(orders, matches.len())` against reference `rf` (ids from
    /// the same dense map, `d + 1` for symbols the hypothesis lacks) into `matches[n - 1]`.
    pub(super) fn compare(&mut self, rf: &[u32], matches: &mut [u64]) {
        let bits = self.bits;
        let orders = self.orders.min(matches.len());
        let r = rf.len();
        if r < 2 || orders < 2 {
            return;
        }
        self.keys.clear();
        self.keys.extend(rf.iter().map(|&s| u64::from(s)));
        self.touched.resize(r, 0);
        let (slots, shift) = (&mut self.slots[..], self.shift);
        for n in 2..=orders.min(r) {
            let m = r + 1 - n;
            let mut found = 0u64;
            let touched = &mut self.touched[..m];
            for ((key, &sym), t) in self.keys[..m]
                .iter_mut()
                .zip(&rf[n - 1..])
                .zip(&mut *touched)
            {
                let k = (*key << bits) | u64::from(sym);
                *key = k;
                let s = probe(slots, shift, k);
                let e = &mut slots[s];
                // sum of min(hyp count, ref count), one occurrence at a time (an empty slot
                // has hyp count 0, so it never matches)
                found += u64::from(e.rf < e.hyp);
                e.rf += 1;
                *t = s as u32;
            }
            for &s in &*touched {
                slots[s as usize].rf = 0;
            }
            matches[n - 1] = found;
            // An n-gram matches only if its (n-1)-gram prefix does.
            if found == 0 {
                break;
            }
        }
    }
}
