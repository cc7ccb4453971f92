//! The beam of SacreBLEU's `BeamEditDistance`: which columns of each row are computed, and
//! the banded matrices that store only those.

pub(super) const COST_INS: i64 = 1;
pub(super) const COST_DEL: i64 = 1;
pub(super) const COST_SUB: i64 = 1;

pub(super) const BEAM_WIDTH: i64 = 25;
pub(super) const INF: i64 = 10_000_000_000_000_000; // int(1e16)

/// Edit operations as SacreBLEU's trace spells them (`' '`, `'s'`, `'i'`, `'d'`, `'x'`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    Nop,
    Sub,
    Ins,
    Del,
    Undef,
}

/// The band of columns computed in each row, `range(min_j, max_j)` of row `i` at `cols[i]`,
/// and where each row starts in a banded matrix (`off[i]`; `off[n_h + 1]` cells in all).
#[derive(Default)]
pub(super) struct Beam {
    cols: Vec<(usize, usize)>,
    off: Vec<usize>,
}

impl Beam {
    pub(super) fn reset(&mut self, n_h: usize, n_r: usize) {
        let ratio = if n_h > 0 {
            n_r as f64 / n_h as f64
        } else {
            1.0
        };
        // "in some crazy sentences, the difference in length is so large that we may end up
        // with zero overlap with previous row"
        let width = if (BEAM_WIDTH as f64) < ratio / 2.0 {
            (ratio / 2.0 + BEAM_WIDTH as f64).ceil() as i64
        } else {
            BEAM_WIDTH
        };
        self.cols.clear();
        self.cols.push((0, n_r + 1)); // row 0 is the initial row
        for i in 1..=n_h {
            let pseudo_diag = (i as f64 * ratio).floor() as i64;
            let lo = (pseudo_diag - width).max(0);
            let hi = if i == n_h {
                n_r as i64 + 1
            } else {
                (n_r as i64 + 1).min(pseudo_diag + width)
            };
            self.cols.push((lo as usize, hi.max(lo) as usize));
        }
        self.off.clear();
        self.off.push(0);
        let mut total = 0;
        for &(lo, hi) in &self.cols {
            total += hi - lo;
            self.off.push(total);
        }
    }

    #[inline]
    pub(super) fn cols(&self, i: usize) -> (usize, usize) {
        self.cols[i]
    }

    /// Cells of a banded matrix.
    pub(super) fn cells(&self) -> usize {
        self.off.last().copied().unwrap_or(0)
    }

    /// Index of the last cell, `(n_h, n_r)`: the last row ends at column `n_r`.
    pub(super) fn last(&self) -> usize {
        self.cells() - 1
    }

    /// The cells of row `i` in a banded matrix.
    #[inline]
    pub(super) fn row(&self, i: usize) -> std::ops::Range<usize> {
        self.off[i]..self.off[i + 1]
    }

    /// Index of cell `(i, j)` in a banded matrix; `None` outside the beam.
    #[inline]
    pub(super) fn at(&self, i: usize, j: usize) -> Option<usize> {
        let (lo, hi) = self.cols[i];
        (lo <= j && j < hi).then(|| self.off[i] + j - lo)
    }

    /// Row `i - 1` of the banded matrix `m` at columns `c0..c1` (infinite outside the beam),
    /// into `pad`: what row `i` reads of the row above it.
    pub(super) fn row_above(
        &self,
        m: &[i64],
        i: usize,
        (c0, c1): (usize, usize),
        pad: &mut Vec<i64>,
    ) {
        let (lo, hi) = self.cols[i - 1];
        let (a, b) = (c0.max(lo), c1.min(hi));
        pad.clear();
        if a < b {
            pad.resize(a - c0, INF);
            let start = self.off[i - 1];
            pad.extend_from_slice(&m[start + a - lo..start + b - lo]);
        }
        pad.resize(c1 - c0, INF);
    }
}

/// `v.clear(); v.resize(len, value)`, a slice at a time, polling for Ctrl-C in between: the
/// matrices of a huge segment take seconds to fill on a busy machine. `false`: interrupted.
pub(super) fn refill<T: Clone>(v: &mut Vec<T>, len: usize, value: T) -> bool {
    const STEP: usize = 1 << 20;
    v.clear();
    v.reserve(len);
    while v.len() < len {
        let next = (v.len() + STEP).min(len);
        v.resize(next, value.clone());
        if next < len && crate::interrupt::requested() {
            return false;
        }
    }
    true
}
