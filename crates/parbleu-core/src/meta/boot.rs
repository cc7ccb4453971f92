//! Bootstrap resamples of items for meta-evaluation intervals.
//!
//! Resample `r` under `seed` is the stream `(seed, Bootstrap, r)`, the same stream as the
//! significance bootstrap's resample `r` (`significance::bootstrap`): so the items drawn do
//! not depend on the thread count, on `first`, or on how many resamples are drawn.

use crate::rng::{Domain, SplitMix64};

/// Item indices of resamples `first..first + count`, each `n_items` draws with replacement,
/// resample-major (`out[r * n_items + i]`). No items: no indices.
pub fn indices(seed: u64, first: u64, count: usize, n_items: usize) -> Vec<i64> {
    let mut out = Vec::with_capacity(count * n_items);
    if n_items == 0 {
        return out;
    }
    for r in 0..count {
        let mut rng = SplitMix64::stream(seed, Domain::Bootstrap, first + r as u64);
        out.extend((0..n_items).map(|_| rng.below(n_items as u64) as i64));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::indices;

    #[test]
    fn a_resample_does_not_depend_on_first_or_count() {
        let all = indices(7, 0, 5, 11);
        assert_eq!(all.len(), 55);
        assert!(all.iter().all(|&i| (0..11).contains(&i)));
        assert_eq!(indices(7, 3, 1, 11), all[33..44].to_vec());
        assert_ne!(indices(8, 0, 1, 11), all[..11].to_vec());
        assert!(indices(7, 0, 3, 0).is_empty());
    }
}
