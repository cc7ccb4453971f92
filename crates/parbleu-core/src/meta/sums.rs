//! numpy's float64 summation (`np.sum`, `np.mean`, `np.average`), whose rounding MTME's
//! permutation test inherits when it averages per-group correlations.

/// numpy's pairwise summation of a contiguous block (`pairwise_sum` in numpy's loops): eight
/// accumulators up to 128 values, halves (rounded to a multiple of 8) above.
fn pairwise(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        let mut res = 0.0;
        for &v in a {
            res += v;
        }
        res
    } else if n <= 128 {
        let mut r = [0.0f64; 8];
        r.copy_from_slice(&a[..8]);
        let mut i = 8;
        while i < n - n % 8 {
            for (j, acc) in r.iter_mut().enumerate() {
                *acc += a[i + j];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &v in &a[i..] {
            res += v;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        pairwise(&a[..n2]) + pairwise(&a[n2..])
    }
}

/// `np.add.reduce(a)` of a contiguous float64 vector: the pairwise sum of all of it (checked
/// against numpy 2.4 at every length up to 300).
pub fn np_sum(a: &[f64]) -> f64 {
    pairwise(a)
}

/// `np.mean(a)` (NaN for an empty slice, as numpy).
pub fn np_mean(a: &[f64]) -> f64 {
    np_sum(a) / a.len() as f64
}

/// Python's `sum` of floats in order, started at the integer 0 (exact for the first value):
/// CPython <= 3.11's left-to-right addition, which MTME's averaging loops also use.
pub fn seq_sum(a: impl IntoIterator<Item = f64>) -> f64 {
    a.into_iter().fold(0.0, |s, v| s + v)
}
