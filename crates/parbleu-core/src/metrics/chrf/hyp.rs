//! The n-gram tables of one hypothesis (dense symbol ids; direct, packed or hashed tables),
//! compared with one reference at a time.

use super::dense::DenseIds;
use super::direct::Direct;
use super::hashed::{Large, Small, Table};
use super::live::{IdRows, Live};
use super::packed_keys::Packed;

/// Symbol of a reference word the hypothesis lacks (no hypothesis n-gram contains it).
pub(super) const UNKNOWN_WORD: u32 = u32::MAX - 1;

/// Which table holds the n-grams of orders >= 2.
#[derive(Default, Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Mode {
    #[default]
    Packed,
    Direct,
    Small,
    Large,
}

#[cfg(test)]
thread_local! {
    /// The mode tests force (where the segment fits it), to check all four against each other.
    pub(super) static FORCE_MODE: std::cell::Cell<Option<Mode>> = const { std::cell::Cell::new(None) };
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
    rows: IdRows,
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
        let forced = FORCE_MODE.with(|f| f.get());
        #[cfg(not(test))]
        let forced: Option<Mode> = None;
        if matches!(forced, None | Some(Mode::Direct))
            && self
                .direct
                .build(&self.hyp, orders, d as usize, &mut self.rows)
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
        let table_len = self.small.len() as u64;
        if forced != Some(Mode::Large)
            && h < usize::from(u16::MAX)
            && (d + table_len + 2) * (d + 1) < u64::from(u32::MAX)
        {
            self.mode = Mode::Small;
            self.small.build(&self.hyp, orders, d, &mut self.rows);
        } else {
            self.mode = Mode::Large;
            self.large.reset(entries);
            self.large.build(&self.hyp, orders, d, &mut self.rows);
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
        for v in [&mut self.rows.prev, &mut self.rows.cur] {
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
            self.rows.prev[live] = i as u32;
            self.rows.cur[live] = id;
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
            let at = Live {
                rf: &self.rf,
                pos: &mut self.rows.prev,
                ids: &mut self.rows.cur,
                n: live,
                orders,
            };
            let (d, touched, matches) = (self.d, &mut self.touched, &mut self.matches);
            match self.mode {
                Mode::Packed => unreachable!("handled above"),
                Mode::Direct => self.direct.compare(d, at, matches),
                Mode::Small => self.small.compare(d, at, touched, matches),
                Mode::Large => self.large.compare(d, at, touched, matches),
            }
        }
        &self.matches[..max_order]
    }
}
