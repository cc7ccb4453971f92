//! PERM-BOTH (Deutsch et al. 2021): is metric 2's correlation with people higher than metric
//! 1's? Each draw swaps the two metrics' scores at random positions and recomputes both
//! correlations; draws run in parallel, each from its own mask, so results do not depend on
//! the thread count.

use super::corr::{perm_value, Corr};
use crate::parallel;
use crate::significance::{Domain, SplitMix64};

/// Where each draw's swap mask comes from.
#[derive(Debug, Clone, Copy)]
pub enum Masks<'a> {
    /// Given row by row (`draws × n` bytes, 1 = keep): numpy's `binomial(1, 0.5, n)` draws,
    /// for MTME's exact p-values.
    Given(&'a [u8]),
    /// parbleu's counter-based generator: draw `i`'s mask is a pure function of `(seed, i)`.
    Counter { seed: u64 },
}

/// The scores of one test, already grouped and z-scored.
#[derive(Debug, Clone, Copy)]
pub struct PermInput<'a> {
    pub human: &'a [f64],
    pub scores1: &'a [f64],
    pub scores2: &'a [f64],
    pub bounds: &'a [(usize, usize)],
}

impl PermInput<'_> {
    /// The observed `corr(metric2) - corr(metric1)`.
    pub fn delta(&self, corr: Corr) -> f64 {
        perm_value(corr, self.human, self.scores2, self.bounds)
            - perm_value(corr, self.human, self.scores1, self.bounds)
    }
}

/// Keep-bits of draw `index` under `seed`: 64 per generator output.
pub fn counter_mask(seed: u64, index: u64, out: &mut [bool]) {
    let mut rng = SplitMix64::stream(seed, Domain::Meta, index);
    for chunk in out.chunks_mut(64) {
        let bits = rng.next_u64();
        for (j, v) in chunk.iter_mut().enumerate() {
            *v = bits >> j & 1 == 1;
        }
    }
}

/// Draws `first .. first + count`: `(c2, c1)` per draw, where `m1` keeps metric 1's score where
/// the mask is 1 and takes metric 2's elsewhere, and `m2` the other way round.
pub fn draws(
    input: &PermInput<'_>,
    corr: Corr,
    masks: Masks<'_>,
    first: u64,
    count: usize,
    workers: usize,
) -> Vec<(f64, f64)> {
    let n = input.human.len();
    let mut out = vec![(0.0, 0.0); count];
    parallel::for_each_chunk(workers, &mut out, 4, |start, chunk| {
        let (mut m1, mut m2) = (vec![0.0; n], vec![0.0; n]);
        let mut keep = vec![false; n];
        for (k, slot) in chunk.iter_mut().enumerate() {
            let d = start + k;
            match masks {
                Masks::Given(bytes) => {
                    for (v, &b) in keep.iter_mut().zip(&bytes[d * n..(d + 1) * n]) {
                        *v = b != 0;
                    }
                }
                Masks::Counter { seed } => counter_mask(seed, first + d as u64, &mut keep),
            }
            for j in 0..n {
                let (a, b) = (input.scores1[j], input.scores2[j]);
                (m1[j], m2[j]) = if keep[j] { (a, b) } else { (b, a) };
            }
            let c1 = perm_value(corr, input.human, &m1, input.bounds);
            let c2 = perm_value(corr, input.human, &m2, input.bounds);
            *slot = (c2, c1);
        }
    });
    out
}
