//! The n-gram tables of one hypothesis (dense symbol ids; direct, packed or hashed tables),
//! compared with one reference at a time.

use super::packed::Packed;

/// Symbol of a reference word the hypothesis lacks (no hypothesis n-gram contains it).
pub(super) const UNKNOWN_WORD: u32 = u32::MAX - 1;

/// Dense per-segment ids (1, 2, ...) of the distinct symbols of a hypothesis; 0 is "absent".
/// ASCII characters go through a direct table, other symbols through a small hash table.
#[derive(Default)]
struct DenseIds {
    ascii: Vec<u32>,
    keys: Vec<u32>,
    vals: Vec<u32>,
    used_ascii: Vec<u32>,
    used: Vec<u32>,
    shift: u32,
    n: u32,
}

const NO_SYMBOL: u32 = u32::MAX;

impl DenseIds {
    fn reset(&mut self, max_distinct: usize) {
        if self.ascii.is_empty() {
            self.ascii = vec![0; 128];
        }
        for &c in &self.used_ascii {
            self.ascii[c as usize] = 0;
        }
        self.used_ascii.clear();
        for &slot in &self.used {
            self.keys[slot as usize] = NO_SYMBOL;
        }
        self.used.clear();
        let want = (2 * max_distinct).next_power_of_two().max(64);
        if self.keys.len() < want || self.keys.len() > 8 * want {
            self.keys = vec![NO_SYMBOL; want];
            self.vals = vec![0; want];
            self.shift = 64 - want.trailing_zeros();
        }
        self.n = 0;
    }

    #[inline]
    fn slot(&self, sym: u32) -> usize {
        let mask = self.keys.len() - 1;
        let mut i = (u64::from(sym).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        loop {
            let k = self.keys[i];
            if k == sym || k == NO_SYMBOL {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    fn get_or_insert(&mut self, sym: u32) -> u32 {
        if sym < 128 {
            let v = &mut self.ascii[sym as usize];
            if *v == 0 {
                self.n += 1;
                *v = self.n;
                self.used_ascii.push(sym);
            }
            return *v;
        }
        let i = self.slot(sym);
        if self.keys[i] == NO_SYMBOL {
            self.n += 1;
            self.keys[i] = sym;
            self.vals[i] = self.n;
            self.used.push(i as u32);
        }
        self.vals[i]
    }

    #[inline]
    fn get(&self, sym: u32) -> u32 {
        if sym < 128 {
            return self.ascii[sym as usize];
        }
        let i = self.slot(sym);
        if self.keys[i] == NO_SYMBOL {
            0
        } else {
            self.vals[i]
        }
    }
}

/// A slot of the n-gram table: the n-gram's key and its counts in the hypothesis and in the
/// reference being compared. Two layouts: 8 bytes when keys and counts are small (nearly
/// always: the table then fits in the L1 cache), 16 bytes otherwise.
trait Slot: Copy {
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
struct Small {
    key: u32,
    hyp: u16,
    rf: u16,
}

#[derive(Clone, Copy)]
struct Large {
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
struct Table<E> {
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
    fn reset(&mut self, max_entries: usize) {
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

    /// Insert the n-grams of orders `2..=orders` of `hyp` (dense ids).
    fn build(
        &mut self,
        hyp: &[u32],
        orders: usize,
        d: u64,
        prev: &mut Vec<u32>,
        cur: &mut Vec<u32>,
    ) {
        let slots = &mut self.slots[..];
        let shift = self.shift;
        let used = &mut self.used[..];
        let mut n_used = self.n_used;
        prev.clear();
        prev.extend_from_slice(hyp); // unigram ids are the dense symbol ids
        cur.clear();
        cur.resize(hyp.len(), 0);
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

    /// Matches of orders `2..` for the reference positions in `pos[..live]` (increasing),
    /// whose unigrams have ids `ids[..live]`; `out` gets `(order, matches)` per order.
    // Stays: the per-pair hot loop; its arguments are scratch buffers and slices, not options.
    #[allow(clippy::too_many_arguments)]
    fn compare(
        &mut self,
        rf: &[u32],
        d: u64,
        pos: &mut [u32],
        ids: &mut [u32],
        mut live: usize,
        max_order: usize,
        touched: &mut [u32],
        matches_out: &mut [u64],
    ) {
        let slots = &mut self.slots[..];
        let shift = self.shift;
        let r = rf.len();
        for n in 2..=max_order {
            let ref_total = (r + 1).saturating_sub(n);
            if live == 0 || ref_total == 0 {
                break;
            }
            // Positions are increasing: those with room for an n-gram come first.
            let m = pos[..live].partition_point(|&i| (i as usize) < ref_total);
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

/// Most segments: the n-grams of order n are found by direct indexing, without hashing. The
/// table of order n has one row per distinct (n-1)-gram of the hypothesis and one column per
/// distinct symbol (+ column 0 for symbols the hypothesis lacks), and holds the n-gram's dense
/// id (0: absent). Only small segments use it (see `MAX_CELLS`); the others hash.
#[derive(Default)]
struct Direct {
    cells: Vec<u16>,
    /// Start of order n's table in `cells`, at `base[n]`.
    base: Vec<usize>,
    /// Start of order n's counts in `hcount` / `rcount`, at `cbase[n]`.
    cbase: Vec<usize>,
    hcount: Vec<u16>,
    rcount: Vec<u16>,
    touched: Vec<u32>,
    n_touched: usize,
}

/// Largest direct tables (all orders together), in cells.
const MAX_CELLS: usize = 1 << 20;

impl Direct {
    /// Insert the n-grams of orders `2..=orders` of `hyp` (dense ids `1..=d`); `false` (with
    /// nothing inserted) if the tables could be too large.
    fn build(
        &mut self,
        hyp: &[u32],
        orders: usize,
        d: usize,
        prev: &mut Vec<u32>,
        cur: &mut Vec<u32>,
    ) -> bool {
        for &i in &self.touched[..self.n_touched] {
            self.cells[i as usize] = 0;
        }
        self.n_touched = 0;
        let h = hyp.len();
        // Order n's table has (distinct (n-1)-grams + 1) * (d + 1) <= (h + 1) * (d + 1) cells.
        if h >= usize::from(u16::MAX) || (orders - 1) * (h + 1) * (d + 1) > MAX_CELLS {
            return false;
        }
        self.base.clear();
        self.base.resize(orders + 1, 0);
        self.cbase.clear();
        self.cbase.resize(orders + 2, 0);
        self.hcount.clear();
        prev.clear();
        prev.extend_from_slice(hyp);
        cur.clear();
        cur.resize(h, 0);
        let mut k_prev = d; // distinct (n-1)-grams
        let mut next_base = 0usize;
        // Cells to clear before the next segment (written unconditionally, kept if new).
        self.touched
            .resize(self.touched.len().max(h * (orders - 1) + 1), 0);
        let mut nt = 0;
        for n in 2..=orders {
            let base = next_base;
            next_base = base + (k_prev + 1) * (d + 1);
            if self.cells.len() < next_base {
                self.cells.resize(next_base, 0);
            }
            self.base[n] = base;
            let cb = self.hcount.len();
            self.cbase[n] = cb;
            self.hcount.resize(cb + 1 + h, 0); // ids 1..=K_n, K_n <= positions
            let m = h + 1 - n;
            let mut k = 0u32;
            let cells = &mut self.cells[base..next_base];
            let hcount = &mut self.hcount[cb..];
            let touched = &mut self.touched[..];
            for ((c, &p), &sym) in cur[..m].iter_mut().zip(&prev[..m]).zip(&hyp[n - 1..]) {
                let idx = p as usize * (d + 1) + sym as usize;
                let id = cells[idx];
                let new = id == 0;
                let id = if new { k as u16 + 1 } else { id };
                cells[idx] = id;
                k += u32::from(new);
                hcount[usize::from(id)] += 1;
                *c = u32::from(id);
                touched[nt] = (base + idx) as u32;
                nt += usize::from(new);
            }
            k_prev = k as usize;
            std::mem::swap(prev, cur);
        }
        self.n_touched = nt;
        self.cbase[orders + 1] = self.hcount.len();
        self.rcount.clear();
        self.rcount.resize(self.hcount.len(), 0);
        true
    }

    /// As `Table::compare`, without `touched`: each order starts from a copy of the
    /// hypothesis counts and counts matches down (cheaper than clearing afterwards).
    // Stays: the per-pair hot loop; its arguments are scratch buffers and slices, not options.
    #[allow(clippy::too_many_arguments)]
    fn compare(
        &mut self,
        rf: &[u32],
        d: u64,
        pos: &mut [u32],
        ids: &mut [u32],
        mut live: usize,
        max_order: usize,
        matches_out: &mut [u64],
    ) {
        let d1 = d as usize + 1;
        let r = rf.len();
        for n in 2..=max_order {
            let ref_total = (r + 1).saturating_sub(n);
            if live == 0 || ref_total == 0 {
                break;
            }
            let (base, cb, ce) = (self.base[n], self.cbase[n], self.cbase[n + 1]);
            let cells = &self.cells[base..];
            let left = &mut self.rcount[cb..ce];
            left.copy_from_slice(&self.hcount[cb..ce]);
            // Positions are increasing: those with room for an n-gram come first.
            let m = pos[..live].partition_point(|&i| (i as usize) < ref_total);
            let mut next = 0;
            let mut matches = 0u64;
            for k in 0..m {
                let i = pos[k] as usize;
                let id = usize::from(cells[ids[k] as usize * d1 + rf[i + n - 1] as usize]);
                // sum of min(hyp count, ref count), one occurrence at a time (id 0 has hyp
                // count 0, so it never matches)
                let c = &mut left[id];
                let hit = u16::from(*c > 0);
                matches += u64::from(hit);
                *c -= hit;
                // keep the position if its n-gram occurs (next <= k: in place is safe)
                pos[next] = i as u32;
                ids[next] = id as u32;
                next += usize::from(id != 0);
            }
            matches_out[n - 1] = matches;
            live = next;
        }
    }
}

#[derive(Default, Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Mode {
    #[default]
    Packed,
    Direct,
    Small,
    Large,
}

/// The n-grams of one hypothesis (characters or words), ready to be compared with references.
#[derive(Default)]
pub(super) struct HypGrams {
    dense: DenseIds,
    d: u64,
    hyp: Vec<u32>,
    max_order: usize,
    uni_hyp: Vec<u32>,
    uni_rf: Vec<u32>,
    packed: Packed,
    direct: Direct,
    small: Table<Small>,
    large: Table<Large>,
    /// Which of `packed`, `direct`, `small` and `large` holds the n-grams of orders >= 2.
    mode: Mode,
    prev: Vec<u32>,
    cur: Vec<u32>,
    rf: Vec<u32>,
    touched: Vec<u32>,
    matches: Vec<u64>,
}

impl HypGrams {
    pub(super) fn build(&mut self, syms: &[u32], max_order: usize) {
        let h = syms.len();
        self.max_order = max_order;
        self.dense.reset(h);
        self.hyp.clear();
        for &s in syms {
            let id = self.dense.get_or_insert(s);
            self.hyp.push(id);
        }
        let d = u64::from(self.dense.n);
        self.d = d;
        // Id d + 1: reference symbols the hypothesis lacks (packed keys), count 0.
        self.uni_hyp.clear();
        self.uni_hyp.resize(d as usize + 2, 0);
        for &id in &self.hyp {
            self.uni_hyp[id as usize] += 1;
        }
        self.uni_rf.clear();
        self.uni_rf.resize(d as usize + 2, 0);
        self.mode = Mode::Direct;
        let orders = max_order.min(h);
        if orders < 2 {
            return;
        }
        #[cfg(test)]
        let forced = super::tests::FORCE_MODE.with(|f| f.get());
        #[cfg(not(test))]
        let forced: Option<Mode> = None;
        if matches!(forced, None | Some(Mode::Direct))
            && self
                .direct
                .build(&self.hyp, orders, d as usize, &mut self.prev, &mut self.cur)
        {
            return;
        }
        // Too large for direct tables: packed keys if they fit (a table that grows with the
        // distinct n-grams, so long repetitive text stays small), else wider hashed keys.
        if let (None | Some(Mode::Packed), Some(bits)) =
            (forced, Packed::bits_for(d as usize, orders))
        {
            self.mode = Mode::Packed;
            self.packed.build(&self.hyp, orders, bits);
            return;
        }
        let entries = h * (orders - 1);
        // Small slots: keys below (d + table length + 1) * (d + 1) must fit in u32 (u32::MAX
        // marks empty slots) and hypothesis counts in u16.
        self.small.reset(entries);
        let table_len = self.small.slots.len() as u64;
        if forced != Some(Mode::Large)
            && h < usize::from(u16::MAX)
            && (d + table_len + 2) * (d + 1) < u64::from(u32::MAX)
        {
            self.mode = Mode::Small;
            self.small
                .build(&self.hyp, orders, d, &mut self.prev, &mut self.cur);
        } else {
            self.mode = Mode::Large;
            self.large.reset(entries);
            self.large
                .build(&self.hyp, orders, d, &mut self.prev, &mut self.cur);
        }
    }

    /// `_get_match_statistics` for orders `1..=out.len() / 3` against one reference.
    pub(super) fn compare(&mut self, rf_syms: &[u32], out: &mut [i64]) {
        let max_order = out.len() / 3;
        let (h, r) = (self.hyp.len(), rf_syms.len());
        self.matches(rf_syms, max_order);
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
            out[3 * (n - 1) + 2] = self.matches[n - 1] as i64;
        }
    }

    /// Matches (sum over n-grams of the smaller count) of orders `1..=max_order` with the
    /// symbols `rf_syms`, in `self.matches[..max_order]`. Symmetric: the tables may as well
    /// hold a reference and `rf_syms` be a hypothesis.
    ///
    /// Order by order, only the reference positions whose (n-1)-gram occurs in the
    /// hypothesis are looked up (an n-gram extending an absent one is absent).
    pub(super) fn matches(&mut self, rf_syms: &[u32], max_order: usize) -> &[u64] {
        let (h, r) = (self.hyp.len(), rf_syms.len());
        self.rf.clear();
        // Packed keys need a nonzero id for symbols the hypothesis lacks.
        let absent = if self.mode == Mode::Packed {
            self.d as u32 + 1
        } else {
            0
        };
        self.matches.clear();
        self.matches.resize(max_order.max(1), 0);
        // One pass: dense ids, unigram matches (dense ids index the counts directly), and the
        // live positions (those whose unigram occurs in the hypothesis).
        self.rf.resize(r, 0);
        for v in [&mut self.prev, &mut self.cur] {
            if v.len() < r {
                v.resize(r, 0);
            }
        }
        let mut m1 = 0u64;
        let mut live = 0;
        let (uni_rf, uni_hyp) = (&mut self.uni_rf, &self.uni_hyp);
        for (i, (slot, &s)) in self.rf.iter_mut().zip(rf_syms).enumerate() {
            let id = self.dense.get(s);
            let key = if id == 0 { absent } else { id };
            *slot = key;
            let c = &mut uni_rf[key as usize];
            m1 += u64::from(*c < uni_hyp[key as usize]);
            *c += 1;
            self.prev[live] = i as u32;
            self.cur[live] = id;
            live += usize::from(id != 0);
        }
        self.uni_rf.iter_mut().for_each(|c| *c = 0);
        self.matches[0] = m1;
        if self.mode == Mode::Packed {
            let orders = max_order.min(self.max_order).min(h);
            self.packed
                .compare(&self.rf, &mut self.matches[..orders.max(1)]);
        } else if max_order >= 2 && h >= 2 && r >= 2 {
            if self.mode != Mode::Direct {
                self.touched.clear();
                self.touched.resize(live, 0);
            }
            // The hypothesis has no n-gram longer than itself.
            let orders = max_order.min(self.max_order).min(h);
            let (rf, d, pos, ids) = (&self.rf, self.d, &mut self.prev, &mut self.cur);
            let (touched, matches) = (&mut self.touched, &mut self.matches);
            match self.mode {
                Mode::Packed => unreachable!("handled above"),
                Mode::Direct => self.direct.compare(rf, d, pos, ids, live, orders, matches),
                Mode::Small => self
                    .small
                    .compare(rf, d, pos, ids, live, orders, touched, matches),
                Mode::Large => self
                    .large
                    .compare(rf, d, pos, ids, live, orders, touched, matches),
            }
        }
        &self.matches[..max_order]
    }
}
