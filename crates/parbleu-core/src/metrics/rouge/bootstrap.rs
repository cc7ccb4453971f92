//! parbleu's bootstrap of mean per-pair ROUGE scores: rouge-score's `BootstrapAggregator`
//! procedure (resample pairs with replacement, mean of each measure, percentiles) with the
//! core's counter-based RNG, so the bounds do not depend on the thread count.
//!
//! rouge-score's own numbers need numpy's global RNG: the Python layer reproduces those with
//! numpy itself (`engine.bootstrap_compat`).

use super::score::{prf, Stats};
use crate::rng::{Domain, SplitMix64};
use crate::{parallel, Error, Result};

/// Mixed into the seed so that ROUGE's resamples are not BLEU's for the same seed.
const SALT: u64 = 0x0052_4F55_4745; // "ROUGE"

/// numpy's `'linear'` percentile of sorted `v` at fraction `q` (`0 <= q <= 1`).
fn percentile(v: &[f64], q: f64) -> f64 {
    let pos = q * (v.len() - 1) as f64;
    let below = pos.floor();
    let t = pos - below;
    let i = below as usize;
    let (a, b) = (v[i], v[(i + 1).min(v.len() - 1)]);
    let d = b - a;
    // numpy's `_lerp`: from the nearer end, so that t = 1 gives b exactly.
    if t >= 0.5 {
        b - d * (1.0 - t)
    } else {
        a + d * t
    }
}

/// Bounds `[low, mid, high]` of `[precision, recall, fmeasure]` of one rouge type: the
/// `(1 - ci) / 2`, 50 and `(1 + ci) / 2` percentiles of the means of `n_samples` resamples.
pub fn bootstrap(
    stats: &[Stats],
    n_samples: usize,
    ci: f64,
    seed: u64,
    workers: usize,
) -> Result<[[f64; 3]; 3]> {
    if stats.is_empty() || n_samples == 0 || !(0.0..=1.0).contains(&ci) {
        return Err(Error::InvalidOption {
            name: "bootstrap".into(),
            value: format!(
                "{} pairs, n_samples={n_samples}, confidence_interval={ci}",
                stats.len()
            ),
            expected: "at least one pair, n_samples > 0, confidence_interval in [0, 1]".into(),
        });
    }
    let scores: Vec<[f64; 3]> = stats.iter().map(|&s| prf(s)).collect();
    let n = scores.len();
    let mut means = vec![[0.0f64; 3]; n_samples];
    parallel::for_each_chunk(workers, &mut means, 16, |start, chunk| {
        for (k, m) in chunk.iter_mut().enumerate() {
            let mut rng = SplitMix64::stream(seed ^ SALT, Domain::Bootstrap, (start + k) as u64);
            let mut sum = [0.0f64; 3];
            for _ in 0..n {
                let s = &scores[rng.below(n as u64) as usize];
                for j in 0..3 {
                    sum[j] += s[j];
                }
            }
            *m = sum.map(|x| x / n as f64);
        }
    });
    let delta = (1.0 - ci) / 2.0;
    let qs = [delta, 0.5, 1.0 - delta];
    let mut out = [[0.0f64; 3]; 3];
    for j in 0..3 {
        let mut col: Vec<f64> = means.iter().map(|m| m[j]).collect();
        col.sort_by(f64::total_cmp);
        for (b, &q) in qs.iter().enumerate() {
            out[b][j] = percentile(&col, q);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn independent_of_threads_and_bracketing() {
        let stats: Vec<Stats> = (0..50).map(|i| [i % 7, 10, 8 + i % 3]).collect();
        let one = bootstrap(&stats, 200, 0.95, 7, 1).ok();
        assert_eq!(one, bootstrap(&stats, 200, 0.95, 7, 4).ok());
        let b = one.unwrap_or_default();
        for ((lo, mid), hi) in b[0].iter().zip(&b[1]).zip(&b[2]) {
            assert!(lo <= mid && mid <= hi);
        }
        assert!(bootstrap(&[], 10, 0.95, 0, 1).is_err());
    }

    #[test]
    fn numpy_linear_percentile() {
        let v = [1.0, 2.0, 4.0, 8.0];
        assert_eq!(percentile(&v, 0.5), 3.0);
        assert_eq!(percentile(&v, 0.0), 1.0);
        assert_eq!(percentile(&v, 1.0), 8.0);
    }
}
