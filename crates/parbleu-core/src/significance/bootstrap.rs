//! Paired bootstrap resampling: exact, on given indices, and SacreBLEU-compatible.

use super::{check_indices, check_rows, Domain, Num, Scorer, SplitMix64, Stat, TASK};
use crate::error::Result;
use crate::parallel;

/// Exact paired bootstrap: resample `r` (`first..first + n`) draws `n_seg` indices from stream
/// `(seed, r)` and scores every system on those same segments.
///
/// Returns `n * systems.len()` scores, resample-major (`out[r * n_sys + s]`).
pub fn bootstrap<T: Stat>(
    sc: &Scorer,
    systems: &[&[T]],
    n_seg: usize,
    seed: u64,
    first: u64,
    n: usize,
    workers: usize,
) -> Result<Vec<f64>> {
    sc.check()?;
    for s in systems {
        check_rows(sc, s, n_seg, "bootstrap")?;
    }
    Ok(resample(sc, systems, n_seg, n, workers, |r, idx| {
        let mut rng = SplitMix64::stream(seed, Domain::Bootstrap, first + r as u64);
        idx.clear();
        idx.extend((0..n_seg).map(|_| rng.below(n_seg as u64) as usize));
    }))
}

/// Exact paired bootstrap on given indices (`idxs`: `n x n_seg`, row-major).
pub fn bootstrap_indices<T: Stat>(
    sc: &Scorer,
    systems: &[&[T]],
    n_seg: usize,
    idxs: &[i64],
    workers: usize,
) -> Result<Vec<f64>> {
    sc.check()?;
    for s in systems {
        check_rows(sc, s, n_seg, "bootstrap")?;
    }
    let n = check_indices(idxs, n_seg)?;
    Ok(resample(sc, systems, n_seg, n, workers, |r, idx| {
        idx.clear();
        idx.extend(idxs[r * n_seg..(r + 1) * n_seg].iter().map(|&i| i as usize));
    }))
}

fn resample<T: Stat, D>(
    sc: &Scorer,
    systems: &[&[T]],
    n_seg: usize,
    n: usize,
    workers: usize,
    draw: D,
) -> Vec<f64>
where
    D: Fn(usize, &mut Vec<usize>) + Sync,
{
    let w = sc.width();
    let n_sys = systems.len();
    let mut out = vec![0.0; n * n_sys];
    if n_sys == 0 {
        return out;
    }
    parallel::for_each_chunk(workers, &mut out, TASK * n_sys, |start, chunk| {
        let mut idx = Vec::with_capacity(n_seg);
        let mut acc = vec![T::default(); w];
        let mut times = vec![0u32; if T::EXACT { n_seg } else { 0 }];
        for (k, res) in chunk.chunks_mut(n_sys).enumerate() {
            draw(start / n_sys + k, &mut idx);
            if T::EXACT {
                // Integer sums do not depend on the order: add each row as many times as it
                // was drawn, walking the rows in memory order. Drawn order jumped around rows
                // that do not fit in cache (20 chrF systems: 2.9 MB), and those loads were
                // ~90 % of a 20-system bootstrap.
                times.fill(0);
                for &i in &idx {
                    times[i] += 1;
                }
                for (s, rows) in systems.iter().enumerate() {
                    acc.fill(T::default());
                    for (&t, row) in times.iter().zip(rows.chunks_exact(w)) {
                        for _ in 0..t {
                            for (a, &x) in acc.iter_mut().zip(row) {
                                *a += x;
                            }
                        }
                    }
                    res[s] = T::exact(sc, &acc);
                }
                continue;
            }
            // Floats (TER): float sums depend on the order, so they stay in drawn order.
            for (s, rows) in systems.iter().enumerate() {
                acc.fill(T::default());
                for &i in &idx {
                    for (a, &x) in acc.iter_mut().zip(&rows[i * w..(i + 1) * w]) {
                        *a += x;
                    }
                }
                res[s] = T::exact(sc, &acc);
            }
        }
    });
    out
}

/// SacreBLEU's bootstrap resample scores: `metric._compute_score_from_stats(
/// stats_f32[idx].sum(0)).score` for every row `idx` of `idxs` (`n x n_seg`, numpy's draws).
///
/// `rows` is SacreBLEU's `np.array(stats, dtype='float32')`; each resample is summed in
/// float32 in index order, as numpy sums a C-contiguous array over axis 0.
pub fn bootstrap_compat(
    sc: &Scorer,
    rows: &[f32],
    n_seg: usize,
    idxs: &[i64],
    workers: usize,
) -> Result<Vec<Num>> {
    sc.check()?;
    check_rows(sc, rows, n_seg, "bootstrap")?;
    let n = check_indices(idxs, n_seg)?;
    let w = sc.width();
    let mut out = vec![Num::Py(0.0); n];
    parallel::for_each_chunk(workers, &mut out, TASK, |start, chunk| {
        let mut acc = vec![0f32; w];
        let mut row = vec![Num::Py(0.0); w];
        for (k, o) in chunk.iter_mut().enumerate() {
            let r = start + k;
            acc.fill(0.0);
            for &i in &idxs[r * n_seg..(r + 1) * n_seg] {
                let i = i as usize;
                for (a, &x) in acc.iter_mut().zip(&rows[i * w..(i + 1) * w]) {
                    *a += x;
                }
            }
            for (v, &a) in row.iter_mut().zip(&acc) {
                *v = Num::F32(a);
            }
            *o = sc.compat(&row, false);
        }
    });
    Ok(out)
}
