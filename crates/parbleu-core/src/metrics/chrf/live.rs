//! The reference side of a comparison with a hypothesis's n-gram tables (direct or hashed):
//! order by order, only the reference positions whose (n-1)-gram occurs in the hypothesis are
//! looked up (an n-gram extending an absent one is absent).

/// A reference being compared, and its live positions.
pub(super) struct Live<'a> {
    /// The reference's symbols, as dense ids of the hypothesis's symbols.
    pub(super) rf: &'a [u32],
    /// The live positions, increasing, in `pos[..n]`; `ids[k]` is the id of the (n-1)-gram
    /// at `pos[k]` (order 1: the unigram's dense id).
    pub(super) pos: &'a mut [u32],
    pub(super) ids: &'a mut [u32],
    pub(super) n: usize,
    /// Compare orders `2..=orders`.
    pub(super) orders: usize,
}

/// How many of the live positions `pos[..live]` of a reference of `r` symbols have room for an
/// n-gram of order `n` (they come first: positions are increasing); `None` when there is
/// nothing left to look up at this order or any higher one.
#[inline]
pub(super) fn room(r: usize, pos: &[u32], live: usize, n: usize) -> Option<usize> {
    let ref_total = (r + 1).saturating_sub(n);
    if live == 0 || ref_total == 0 {
        return None;
    }
    Some(pos[..live].partition_point(|&i| (i as usize) < ref_total))
}

/// Two rows of n-gram ids of a hypothesis, the previous order's and the current one's: the
/// scratch the tables are built with (and, when comparing, `Live::pos` and `Live::ids`).
#[derive(Default)]
pub(super) struct IdRows {
    pub(super) prev: Vec<u32>,
    pub(super) cur: Vec<u32>,
}

impl IdRows {
    /// Start building from the unigrams of `hyp` (their ids are its dense symbol ids).
    pub(super) fn start(&mut self, hyp: &[u32]) -> (&mut Vec<u32>, &mut Vec<u32>) {
        self.prev.clear();
        self.prev.extend_from_slice(hyp);
        self.cur.clear();
        self.cur.resize(hyp.len(), 0);
        (&mut self.prev, &mut self.cur)
    }
}
