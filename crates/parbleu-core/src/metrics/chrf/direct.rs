//! Direct n-gram tables: indexing without hashing, for small segments.

use super::live::{room, IdRows, Live};

/// Most segments: the n-grams of order n are found by direct indexing, without hashing. The
/// table of order n has one row per distinct (n-1)-gram of the hypothesis and one column per
/// distinct symbol (+ column 0 for symbols the hypothesis lacks), and holds the n-gram's dense
/// id (0: absent). Only small segments use it (see `MAX_CELLS`); the others hash.
#[derive(Default)]
pub(super) struct Direct {
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
    pub(super) fn build(
        &mut self,
        hyp: &[u32],
        orders: usize,
        d: usize,
        rows: &mut IdRows,
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
        let (prev, cur) = rows.start(hyp);
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
    pub(super) fn compare(&mut self, d: u64, at: Live<'_>, matches_out: &mut [u64]) {
        let (rf, pos, ids, mut live) = (at.rf, at.pos, at.ids, at.n);
        let d1 = d as usize + 1;
        for n in 2..=at.orders {
            let Some(m) = room(rf.len(), pos, live, n) else {
                break;
            };
            let (base, cb, ce) = (self.base[n], self.cbase[n], self.cbase[n + 1]);
            let cells = &self.cells[base..];
            let left = &mut self.rcount[cb..ce];
            left.copy_from_slice(&self.hcount[cb..ce]);
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
