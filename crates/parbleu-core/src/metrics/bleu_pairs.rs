//! BLEU's pairs taken block by block in grouped order ([`PreparedRefs::grouped_order`]) and
//! their results put back at each pair's index: the binding cuts a batch into blocks (to
//! release the GIL and check Ctrl-C between them) without cutting groups of segments that
//! share references (a million-pair batch: 16 blocks in natural order cost 10-25% over one).

use super::bleu::{Pairs, PreparedRefs};

/// The pairs of a batch of `n` hypotheses and the results of those scored so far, `width`
/// values per pair, at the pairs' indices.
pub struct PairResults<'a, T> {
    order: Option<&'a [u32]>,
    n: usize,
    width: usize,
    out: Vec<T>,
}

impl<'a, T: Copy + Default> PairResults<'a, T> {
    /// Results of all `refs.segments.len()` pairs, `width` values each.
    pub fn new(refs: &'a PreparedRefs, width: usize) -> Self {
        Self::with_order(refs.grouped_order(), refs.segments.len(), width)
    }

    /// Results of `n` pairs taken in `order` (all indices `0..n` once), or in natural order.
    pub fn with_order(order: Option<&'a [u32]>, n: usize, width: usize) -> Self {
        PairResults {
            order,
            n,
            width,
            out: Vec::new(),
        }
    }

    /// Number of pairs.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether there is no pair.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The pairs at positions `block` of the order (blocks taken in turn from `0..len()`).
    pub fn pairs(&self, block: std::ops::Range<usize>) -> Pairs<'a> {
        match self.order {
            Some(o) => Pairs::List(&o[block]),
            None => Pairs::Range(block.start, block.end),
        }
    }

    /// Put `results` (`width` values per pair of `pairs`, in their order) at the pairs' indices.
    pub fn put(&mut self, pairs: Pairs<'_>, results: &[T]) {
        let w = self.width;
        match pairs {
            Pairs::Range(..) if self.out.is_empty() => self.out = results.to_vec(),
            Pairs::Range(..) => self.out.extend_from_slice(results),
            Pairs::List(l) => {
                if self.out.is_empty() {
                    self.out = vec![T::default(); self.n * w];
                }
                for (k, &i) in l.iter().enumerate() {
                    let i = i as usize;
                    self.out[i * w..(i + 1) * w].copy_from_slice(&results[k * w..(k + 1) * w]);
                }
            }
        }
    }

    /// The results, pair by pair in index order.
    pub fn into_vec(self) -> Vec<T> {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of any size give every pair's values at its index, in both orders.
    #[test]
    fn blocks_put_results_at_pair_indices() {
        let order = [3u32, 0, 4, 1, 2];
        for order in [Some(&order[..]), None] {
            for block in 1..=6 {
                let mut r = PairResults::with_order(order, 5, 2);
                for start in (0..r.len()).step_by(block) {
                    let pairs = r.pairs(start..(start + block).min(5));
                    let vals: Vec<u32> = (0..pairs.len())
                        .flat_map(|k| {
                            let i = match pairs {
                                Pairs::List(l) => l[k],
                                Pairs::Range(a, _) => (a + k) as u32,
                            };
                            [10 * i, 10 * i + 1]
                        })
                        .collect();
                    r.put(pairs, &vals);
                }
                let want: Vec<u32> = (0..5).flat_map(|i| [10 * i, 10 * i + 1]).collect();
                assert_eq!(r.into_vec(), want, "block {block} order {order:?}");
            }
        }
    }

    #[test]
    fn no_pairs_no_results() {
        let r = PairResults::<i64>::with_order(None, 0, 3);
        assert!(r.is_empty());
        assert!(r.into_vec().is_empty());
    }
}
