//! Edit distances of one hypothesis and its candidate shifts against a reference, on the
//! banded matrices of [`Beam`]: from scratch, incrementally from shared rows, and the
//! alignment trace.

use super::beam::{refill, Beam, Op, COST_DEL, COST_INS, COST_SUB, INF};
use super::TerScratch;

impl TerScratch {
    /// `BeamEditDistance._edit_distance` from scratch, keeping the matrix and operations.
    pub(super) fn full(&mut self, h: &[u32], rf: &[u32], beam: &Beam) -> i64 {
        let n_h = h.len();
        if !refill(&mut self.cost, beam.cells(), INF)
            || !refill(&mut self.ops, beam.cells(), Op::Undef)
        {
            return 0; // interrupted: discarded by the caller
        }
        // Row 0 holds every column.
        for j in 0..=rf.len() {
            self.cost[j] = j as i64 * COST_INS;
            self.ops[j] = Op::Ins;
        }
        let mut above = std::mem::take(&mut self.pad);
        for i in 1..=n_h {
            if i % 256 == 0 && crate::interrupt::requested() {
                self.pad = above;
                return 0; // discarded by the caller (see `crate::interrupt`)
            }
            let (lo, hi) = beam.cols(i);
            if lo >= hi {
                continue;
            }
            // Column c of the row above is above[c - c0].
            let c0 = lo.max(1) - 1;
            beam.row_above(&self.cost, i, (c0, hi), &mut above);
            let cells = beam.row(i);
            let row = &mut self.cost[cells.clone()];
            let ops = &mut self.ops[cells];
            let word = h[i - 1];
            for j in lo..hi {
                let k = j - lo;
                if j == 0 {
                    row[0] = above[0] + COST_DEL;
                    ops[0] = Op::Del;
                    continue;
                }
                let (cost_sub, op_sub) = if word == rf[j - 1] {
                    (0, Op::Nop)
                } else {
                    (COST_SUB, Op::Sub)
                };
                // Tercom prefers no-op/sub, then (flipped) insertion, then deletion: a later
                // option replaces an earlier one only when strictly cheaper.
                let (mut c, mut o) = (row[k], ops[k]);
                let a = above[j - 1 - c0] + cost_sub;
                if c > a {
                    c = a;
                    o = op_sub;
                }
                let b = above[j - c0] + COST_DEL;
                if c > b {
                    c = b;
                    o = Op::Del;
                }
                let left = if k > 0 { row[k - 1] } else { INF };
                let d = left + COST_INS;
                if c > d {
                    c = d;
                    o = Op::Ins;
                }
                row[k] = c;
                ops[k] = o;
            }
        }
        self.pad = above;
        let mut f = n_h + 1;
        while f > 0 && self.cost[beam.row(f - 1)].iter().all(|&c| c < INF / 2) {
            f -= 1;
        }
        self.finite_from = f;
        self.cost[beam.last()]
    }

    /// The trace of `full`'s matrix, flipped, as `trace_to_alignment` returns it.
    pub(super) fn alignment(&mut self, n_h: usize, n_r: usize, beam: &Beam) {
        self.trace.clear();
        let (mut i, mut j) = (n_h, n_r);
        while i > 0 || j > 0 {
            let op = beam.at(i, j).map_or(Op::Undef, |k| self.ops[k]);
            self.trace.push(op);
            match op {
                Op::Sub | Op::Nop => {
                    i -= 1;
                    j -= 1;
                }
                Op::Ins => j -= 1,
                Op::Del => i -= 1,
                // Every cell the trace visits was reached with a finite cost (the beam of
                // each row overlaps the previous one), so this cannot happen.
                Op::Undef => {
                    debug_assert!(false, "undefined operation in the TER trace");
                    break;
                }
            }
        }
        self.trace.reverse();
        self.align.clear();
        self.align.resize(n_r, 0);
        self.hyp_err.clear();
        self.ref_err.clear();
        let (mut pos_hyp, mut pos_ref) = (-1i64, -1i64);
        for &op in &self.trace {
            // Flipped: a deletion from the hypothesis is an insertion when rewriting the
            // reference into it, and vice versa.
            match op {
                Op::Nop | Op::Sub => {
                    let e = u8::from(op == Op::Sub);
                    pos_hyp += 1;
                    pos_ref += 1;
                    self.align[pos_ref as usize] = pos_hyp;
                    self.hyp_err.push(e);
                    self.ref_err.push(e);
                }
                Op::Del => {
                    pos_hyp += 1;
                    self.hyp_err.push(1);
                }
                Op::Ins => {
                    pos_ref += 1;
                    self.align[pos_ref as usize] = pos_hyp;
                    self.ref_err.push(1);
                }
                Op::Undef => {}
            }
        }
    }

    /// Edit distance of `words`, whose first `p_h` words and words from `same_from` on equal
    /// those of the hypothesis `full` last ran on. Rows are taken from that hypothesis's
    /// matrix or from the previous candidate's, whichever shares the longer prefix, so only
    /// the rest is computed; and once a row past the shifted block equals the hypothesis's
    /// row plus a constant, so do all later rows and the distance (see below), so the
    /// rows after it are not computed.
    pub(super) fn cost_from(
        &mut self,
        words: &[u32],
        rf: &[u32],
        beam: &Beam,
        (p_h, same_from): (usize, usize),
    ) -> i64 {
        let n_h = words.len();
        let p_c = if self.cand_valid {
            self.cand_words
                .iter()
                .zip(words)
                .take_while(|(x, y)| x == y)
                .count()
        } else {
            0
        };
        let p = if self.cand_valid && p_c > p_h && p_c <= self.cand_rows {
            // Rows 0..=p_c of the previous candidate's matrix are this one's (p_c > p_h >=
            // the rows it took from `cost`, and p_c <= the last row it computed).
            p_c
        } else {
            let cells = beam.row(p_h);
            self.cand[cells.clone()].copy_from_slice(&self.cost[cells]);
            p_h
        };
        let mut above = std::mem::take(&mut self.pad);
        for i in p + 1..=n_h {
            let (lo, hi) = beam.cols(i);
            if lo >= hi {
                continue;
            }
            let c0 = lo.max(1) - 1;
            beam.row_above(&self.cand, i, (c0, hi), &mut above);
            let cur = &mut self.cand[beam.row(i)];
            let word = words[i - 1];
            let mut k = 0;
            if lo == 0 {
                cur[0] = above[0] + COST_DEL;
                k = 1;
            }
            // `above` holds columns c0..hi: the pairs (j - 1, j) for j in c0 + 1..hi.
            let mut left = if k > 0 { cur[0] } else { INF };
            for ((c, pair), &r) in cur[k..]
                .iter_mut()
                .zip(above.windows(2))
                .zip(&rf[c0..hi - 1])
            {
                let cost_sub = if word == r { 0 } else { COST_SUB };
                let v = INF
                    .min(pair[0] + cost_sub)
                    .min(pair[1] + COST_DEL)
                    .min(left + COST_INS);
                *c = v;
                left = v;
            }
            // Caught up: row i is the hypothesis's row i plus `delta` in every cell, the
            // words after it are the hypothesis's, and all of the hypothesis's cells from row
            // i on are finite. Each later cell is a minimum over the same neighbours, each
            // moved by `delta`, so it is the hypothesis's cell plus `delta` too (the cells
            // outside the beam, infinite in both, stay above it), down to the last one.
            if i >= same_from && i >= self.finite_from && i < n_h {
                let (mine, theirs) = (&self.cand[beam.row(i)], &self.cost[beam.row(i)]);
                let delta = mine.first().zip(theirs.first()).map(|(a, b)| a - b);
                if let Some(delta) = delta {
                    if mine
                        .iter()
                        .zip(theirs)
                        .all(|(&a, &b)| a < INF / 2 && a - b == delta)
                    {
                        self.pad = above;
                        self.cand_rows = i;
                        self.cand_words.clear();
                        self.cand_words.extend_from_slice(words);
                        self.cand_valid = true;
                        return self.cost[beam.last()] + delta;
                    }
                }
            }
        }
        self.pad = above;
        self.cand_rows = n_h;
        self.cand_words.clear();
        self.cand_words.extend_from_slice(words);
        self.cand_valid = true;
        self.cand[beam.last()]
    }
}
