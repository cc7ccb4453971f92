//! Per-group correlations (scipy's `pearsonr`, `spearmanr`, `kendalltau` and MTME's
//! `KendallVariants`) and MTME's averaging over groups.

use super::kendall::{self, Variant};
use super::sums::{np_mean, np_sum};
use super::tau_opt;

/// A correlation function, as MTME's `corr_fcn` argument names it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Corr {
    /// `scipy.stats.pearsonr` (NaN when a side is constant, as MTME forces).
    Pearson,
    /// `scipy.stats.spearmanr` (NaN when a side is constant).
    Spearman,
    /// `KendallVariants` (`clip`: scipy's `kendalltau`, clipped to [-1, 1]).
    Kendall {
        variant: Variant,
        epsilon: f64,
        clip: bool,
    },
    /// `KendallWithTiesOpt`: tau-optimised `23`/`acc23` over all groups at once.
    TiesOpt { variant: Variant },
}

fn constant(v: &[f64]) -> bool {
    v.iter().all(|&x| x == v[0])
}

/// Pearson's r as scipy 1.17 computes it: centred by numpy's mean; each side's norm is its
/// largest deviation times the norm of the scaled deviations (numpy's pairwise sum of squares);
/// then the dot product of the normalised vectors ([`blas_dot`]), clipped to [-1, 1].
pub fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let unit = |v: &[f64]| -> Vec<f64> {
        let mean = np_mean(v);
        let dev: Vec<f64> = v.iter().map(|a| a - mean).collect();
        let max = dev.iter().fold(0.0f64, |m, a| m.max(a.abs()));
        let squares: Vec<f64> = dev.iter().map(|a| (a / max) * (a / max)).collect();
        let norm = max * np_sum(&squares).sqrt();
        dev.iter().map(|a| a / norm).collect()
    };
    blas_dot(&unit(x), &unit(y)).clamp(-1.0, 1.0)
}

/// A dot product in the order of OpenBLAS 0.3's x86-64 `ddot` for AVX-512 machines
/// (SkylakeX kernel, which numpy's `vecdot` and so scipy's `pearsonr` use there): blocks of 32
/// into four 8-lane fused multiply-add accumulators, folded to four 4-lane ones, blocks of 16
/// into those, a lane-wise then pairwise sum, and the last `n % 16` products fused one by one.
/// Checked equal to numpy 2.4's `np.dot` at every length up to 10,000 (above, OpenBLAS splits
/// the work over threads, machine by machine).
pub fn blas_dot(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len();
    let n16 = n & !15;
    let n32 = n16 & !31;
    let mut dot = 0.0;
    if n16 > 0 {
        let mut wide = [[0.0f64; 8]; 4];
        let mut i = 0;
        while i < n32 {
            for (k, lanes) in wide.iter_mut().enumerate() {
                for (l, v) in lanes.iter_mut().enumerate() {
                    let j = i + 8 * k + l;
                    *v = a[j].mul_add(b[j], *v);
                }
            }
            i += 32;
        }
        let mut acc = [[0.0f64; 4]; 4];
        for (k, lanes) in acc.iter_mut().enumerate() {
            for (l, v) in lanes.iter_mut().enumerate() {
                *v = wide[k][l] + wide[k][l + 4];
            }
        }
        while i < n16 {
            for (k, lanes) in acc.iter_mut().enumerate() {
                for (l, v) in lanes.iter_mut().enumerate() {
                    let j = i + 4 * k + l;
                    *v = a[j].mul_add(b[j], *v);
                }
            }
            i += 16;
        }
        let s: Vec<f64> = (0..4)
            .map(|l| ((acc[0][l] + acc[1][l]) + acc[2][l]) + acc[3][l])
            .collect();
        dot = (s[0] + s[2]) + (s[1] + s[3]);
    }
    for j in n16..n {
        dot = a[j].mul_add(b[j], dot);
    }
    dot
}

/// Average ranks from 1 (`scipy.stats.rankdata(method='average')`).
pub fn rank_average(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut ranks = vec![0.0; v.len()];
    let mut s = 0;
    while s < idx.len() {
        let mut e = s + 1;
        while e < idx.len() && v[idx[e]] == v[idx[s]] {
            e += 1;
        }
        let r = 0.5 * (s + e + 1) as f64;
        for &i in &idx[s..e] {
            ranks[i] = r;
        }
        s = e;
    }
    ranks
}

/// Spearman's rho as scipy computes it: `np.corrcoef` of the average ranks, i.e. the
/// covariance over the square roots of the variances, divided one after the other. Centred
/// ranks are multiples of 0.5, so every sum here is exact whatever its order.
pub fn spearman(x: &[f64], y: &[f64]) -> f64 {
    let centred = |v: &[f64]| -> Vec<f64> {
        let r = rank_average(v);
        let mean = np_mean(&r);
        r.iter().map(|a| a - mean).collect()
    };
    let (a, b) = (centred(x), centred(y));
    // np.cov multiplies by the reciprocal of the degrees of freedom.
    let inv = 1.0 / (a.len() - 1) as f64;
    let cab = blas_dot(&b, &a) * inv;
    let caa = blas_dot(&a, &a) * inv;
    let cbb = blas_dot(&b, &b) * inv;
    (cab / cbb.sqrt() / caa.sqrt()).clamp(-1.0, 1.0)
}

/// One group's correlation of `metric` with `human` (NaN where undefined). Not for
/// [`Corr::TiesOpt`], which is defined over all groups together.
pub fn group_value(corr: Corr, human: &[f64], metric: &[f64]) -> f64 {
    match corr {
        Corr::Pearson | Corr::Spearman if constant(human) || constant(metric) => f64::NAN,
        Corr::Pearson => pearson(human, metric),
        Corr::Spearman => spearman(human, metric),
        Corr::Kendall {
            variant,
            epsilon,
            clip,
        } => kendall::tau(metric, human, variant, epsilon, clip),
        Corr::TiesOpt { variant } => {
            tau_opt::optimize(metric, human, &[metric.len()], variant, None, false).best_tau
        }
    }
}

/// The correlation `PermutationSigDiff` compares: per-group values, NaNs left out, averaged
/// with `np.average` (0 when no group has a value); `TiesOpt` over all groups at once.
pub fn perm_value(corr: Corr, human: &[f64], metric: &[f64], bounds: &[(usize, usize)]) -> f64 {
    if let Corr::TiesOpt { variant } = corr {
        let lens: Vec<usize> = bounds.iter().map(|(b, e)| e - b).collect();
        return tau_opt::optimize(metric, human, &lens, variant, None, false).best_tau;
    }
    let vals: Vec<f64> = bounds
        .iter()
        .map(|&(b, e)| group_value(corr, &human[b..e], &metric[b..e]))
        .filter(|v| !v.is_nan())
        .collect();
    if vals.is_empty() {
        0.0
    } else {
        np_sum(&vals) / vals.len() as f64
    }
}
