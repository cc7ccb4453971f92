//! Tie calibration (Deutsch et al. 2023, "Ties Matter"): the metric-difference threshold
//! below which metric scores count as tied, chosen to maximise the average `23`/`acc23` tau
//! over rows. The same sweep as MTME's `tau_optimization`, with its float arithmetic (one
//! running sum over rows, updated pair by pair in order of increasing difference).

use super::kendall::{pair_class, TauStats, Variant};
use std::cell::RefCell;

/// The result of [`optimize`] (MTME's `TauOptimizationResult`).
#[derive(Debug, Clone, Default)]
pub struct TauOpt {
    /// Candidate thresholds, from 0.0 (filled only when asked for).
    pub thresholds: Vec<f64>,
    /// The average tau at each threshold (filled only when asked for).
    pub taus: Vec<f64>,
    /// The first threshold with the highest average tau.
    pub best_threshold: f64,
    /// That tau.
    pub best_tau: f64,
}

/// A pair: the bit pattern of its metric difference (>= 0, so bit order is numeric order) and
/// its payload, `row << 16 | class << 8 | tie_class`. Sorted with the payload in place, the
/// sweep reads pairs in order without a gather.
type Pair = (u64, u64);

fn payload(row: u32, class: u8, tie_class: u8) -> u64 {
    (u64::from(row) << 16) | (u64::from(class) << 8) | u64::from(tie_class)
}

thread_local! {
    /// The pair buffers of this thread, reused from call to call: PERM-BOTH optimises twice a
    /// draw, and fresh multi-megabyte buffers cost page faults every time.
    static SCRATCH: RefCell<(Vec<Pair>, Vec<Pair>)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

const DIGIT: u32 = 11;
const RADIX: usize = 1 << DIGIT;

/// Sorts `pairs` by difference, equal differences in input order (stable, as Python's
/// `list.sort(key=...)`): an LSD radix sort of 11-bit digits (a 2,048-entry table stays in L1;
/// 16-bit digits scattered into 65,536 buckets missed the cache on every write). The six
/// histograms come from one pass; a digit that is the same for every key is skipped.
fn radix_sort(pairs: &mut Vec<Pair>, next: &mut Vec<Pair>) {
    let n = pairs.len();
    if n < 4096 {
        // Few pairs: a stable comparison sort costs less than the passes' tables.
        pairs.sort_by_key(|&(key, _)| key);
        return;
    }
    let passes = 64usize.div_ceil(DIGIT as usize);
    let mut counts = vec![[0usize; RADIX]; passes];
    for &(key, _) in pairs.iter() {
        for (p, c) in counts.iter_mut().enumerate() {
            c[(key >> (p as u32 * DIGIT)) as usize & (RADIX - 1)] += 1;
        }
    }
    if next.len() < n {
        next.resize(n, (0, 0));
    }
    next.truncate(n);
    for (p, c) in counts.iter_mut().enumerate() {
        if c.contains(&n) {
            continue;
        }
        let mut total = 0;
        for slot in c.iter_mut() {
            let k = *slot;
            *slot = total;
            total += k;
        }
        let shift = p as u32 * DIGIT;
        for &item in pairs.iter() {
            let d = (item.0 >> shift) as usize & (RADIX - 1);
            next[c[d]] = item;
            c[d] += 1;
        }
        std::mem::swap(pairs, next);
    }
}

fn value(s: &TauStats, variant: Variant) -> f64 {
    match variant {
        Variant::T23 => s.tau_23(),
        _ => s.acc_23(),
    }
}

/// Optimises the tie threshold over rows of lengths `lens` (consecutive in `metric` and
/// `human`, missing values already removed). `sampled`, when given, says for each pair (rows
/// in order, then `i < j`) whether it takes part (MTME's `sample_rate` draws). `curve` keeps
/// every threshold and tau. Only `T23` and `Acc23` are meaningful; anything else is `Acc23`.
pub fn optimize(
    metric: &[f64],
    human: &[f64],
    lens: &[usize],
    variant: Variant,
    sampled: Option<&[bool]>,
    curve: bool,
) -> TauOpt {
    let total_pairs: usize = lens.iter().map(|&n| n * n.saturating_sub(1) / 2).sum();
    let (mut pairs, mut next) = SCRATCH.with(|s| std::mem::take(&mut *s.borrow_mut()));
    pairs.clear();
    pairs.reserve(total_pairs);
    let mut row_stats: Vec<TauStats> = Vec::new();
    let (mut start, mut k) = (0usize, 0usize);
    for &n in lens {
        let (m, h) = (&metric[start..start + n], &human[start..start + n]);
        start += n;
        let mut stats = TauStats::default();
        let row = row_stats.len() as u32;
        for i in 0..n {
            for j in i + 1..n {
                k += 1;
                if sampled.is_some_and(|s| !s[k - 1]) {
                    continue;
                }
                // MTME's pair is (r[i], r[j]): differences `m_i - m_j`, `h_i - h_j`.
                let dm = m[i] - m[j];
                let dh = h[i] - h[j];
                let class = pair_class(dm, dh, dm == 0.0);
                stats.add(class, 1);
                let tie_class = if dh == 0.0 { 4 } else { 3 };
                pairs.push((dm.abs().to_bits(), payload(row, class, tie_class)));
            }
        }
        if stats.total() > 0 {
            row_stats.push(stats);
        }
    }
    let num_rows = row_stats.len() as f64;
    let mut out = TauOpt::default();
    if row_stats.is_empty() {
        // MTME divides by zero here; a NaN says "no pair" without raising.
        out.best_tau = f64::NAN;
        return out;
    }
    // A stable sort by difference, as Python's `list.sort(key=...)`: differences are >= 0,
    // so their bit patterns sort as integers; LSD radix sort is stable.
    radix_sort(&mut pairs, &mut next);
    let mut total = row_stats.iter().fold(0.0, |t, s| t + value(s, variant));
    let (mut cur_thr, mut cur_tau) = (0.0f64, total / num_rows);
    let mut best: Option<(f64, f64)> = None;
    let mut finish = |thr: f64, tau: f64, out: &mut TauOpt| {
        if curve {
            out.thresholds.push(thr);
            out.taus.push(tau);
        }
        // np.nanargmax: the first maximum, NaNs ignored.
        if !tau.is_nan() && best.is_none_or(|(_, b)| tau > b) {
            best = Some((thr, tau));
        }
    };
    for &(bits, load) in &pairs {
        let diff = f64::from_bits(bits);
        let s = &mut row_stats[(load >> 16) as usize];
        total -= value(s, variant);
        s.add((load >> 8) as u8, -1);
        s.add(load as u8, 1);
        total += value(s, variant);
        let overall = total / num_rows;
        if cur_thr == diff {
            cur_tau = overall;
        } else {
            finish(cur_thr, cur_tau, &mut out);
            cur_thr = diff;
            cur_tau = overall;
        }
    }
    finish(cur_thr, cur_tau, &mut out);
    let (thr, tau) = best.unwrap_or((0.0, f64::NAN));
    SCRATCH.with(|s| *s.borrow_mut() = (pairs, next));
    out.best_threshold = thr;
    out.best_tau = tau;
    out
}
