//! From summed statistics to a score: smoothing, brevity penalty, SacreBLEU's float arithmetic.

use crate::error::{Error, Result};
use crate::metrics::count::Count;
use crate::parallel;
use crate::pysum::{add_my_log, PySum};

/// Smoothing, as SacreBLEU names it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Smooth {
    None,
    Floor(f64),
    AddK(f64),
    Exp,
}

impl Smooth {
    /// SacreBLEU's `(smooth_method, smooth_value)` with its defaults (floor 0.1, add-k 1).
    pub fn from_name(method: &str, value: Option<f64>) -> Result<Self> {
        match method {
            "none" => Ok(Smooth::None),
            "floor" => Ok(Smooth::Floor(value.unwrap_or(0.1))),
            "add-k" => Ok(Smooth::AddK(value.unwrap_or(1.0))),
            "exp" => Ok(Smooth::Exp),
            _ => Err(Error::InvalidOption {
                name: "smooth_method".into(),
                value: format!("{method:?}"),
                expected: "one of none, floor, add-k, exp".into(),
            }),
        }
    }
}

/// Options used only when turning summed statistics into a score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BleuScoreOpts {
    pub smooth: Smooth,
    pub effective_order: bool,
    pub max_order: usize,
}

/// Everything SacreBLEU's `BLEUScore` exposes.
#[derive(Debug, Clone, PartialEq)]
pub struct BleuScore {
    pub score: f64,
    /// Counts and totals as SacreBLEU exposes them (add-k adds k for n >= 2 when matches exist).
    pub counts: Vec<f64>,
    pub totals: Vec<f64>,
    pub precisions: Vec<f64>,
    pub bp: f64,
    pub sys_len: i64,
    pub ref_len: i64,
    /// Orders SacreBLEU's precision loop visited (0 if every count is zero); add-k added its
    /// k to the counts and totals of orders `2..=orders_visited`.
    pub orders_visited: usize,
}

/// `BLEU.compute_bleu`, operation for operation, so floats are bit-identical; the one BLEU
/// finalize (rows of any [`Count`] type: `i64` rows, `f64` sums, pair-table counts).
pub fn finalize<T: Count>(row: &[T], o: &BleuScoreOpts) -> BleuScore {
    let n = o.max_order;
    let (mut counts, mut totals, mut precisions) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    fill(row, n, &mut counts, &mut totals);
    let (score, bp, orders_visited) = compute(
        row[0].to_f64(),
        row[1].to_f64(),
        o,
        &mut counts,
        &mut totals,
        &mut precisions,
    );
    BleuScore {
        score,
        counts,
        totals,
        precisions,
        bp,
        sys_len: row[0].to_f64() as i64,
        ref_len: row[1].to_f64() as i64,
        orders_visited,
    }
}

/// Only the score of [`finalize`], without allocating (batch sentence scores, resamples).
#[inline]
pub fn score_of<T: Count>(row: &[T], o: &BleuScoreOpts) -> f64 {
    let n = o.max_order;
    let (sys_len, ref_len) = (row[0].to_f64(), row[1].to_f64());
    with_buffers(n, |c, t, p| {
        fill(row, n, c, t);
        compute(sys_len, ref_len, o, c, t, p).0
    })
}

/// The score of [`finalize`] from its parts: system length, reference length, matches and
/// totals per order (pairwise tables and reference aggregation hold them apart).
pub fn score_of_parts<T: Count>(
    sys_len: T,
    ref_len: T,
    correct: &[T],
    total: &[T],
    o: &BleuScoreOpts,
) -> f64 {
    let n = o.max_order;
    with_buffers(n, |c, t, p| {
        for k in 0..n {
            c[k] = correct[k].to_f64();
            t[k] = total[k].to_f64();
        }
        compute(sys_len.to_f64(), ref_len.to_f64(), o, c, t, p).0
    })
}

/// Three scratch buffers of `n` floats: on the stack up to 32 orders, else on the heap.
#[inline]
fn with_buffers<R>(n: usize, f: impl FnOnce(&mut [f64], &mut [f64], &mut [f64]) -> R) -> R {
    const STACK: usize = 32;
    if n > STACK {
        let (mut c, mut t, mut p) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        return f(&mut c, &mut t, &mut p);
    }
    let (mut c, mut t, mut p) = ([0.0; STACK], [0.0; STACK], [0.0; STACK]);
    f(&mut c[..n], &mut t[..n], &mut p[..n])
}

/// SacreBLEU's `BLEU.compute_bleu` brevity penalty: 1 unless the system is shorter than the
/// references, 0 for an empty system.
#[inline]
pub fn brevity_penalty(sys_len: f64, ref_len: f64) -> f64 {
    // Not `sys_len >= ref_len`: a NaN length gives 1, as SacreBLEU's `if sys_len < ref_len`.
    if sys_len < ref_len {
        if sys_len > 0.0 {
            (1.0 - ref_len / sys_len).exp()
        } else {
            0.0
        }
    } else {
        1.0
    }
}

/// Matches and totals of a statistics row, as floats.
#[inline]
fn fill<T: Count>(row: &[T], n_ord: usize, correct: &mut [f64], total: &mut [f64]) {
    for n in 0..n_ord {
        correct[n] = row[2 + n].to_f64();
        total[n] = row[2 + n_ord + n].to_f64();
    }
}

/// The arithmetic of [`finalize`] on the counts in `correct` and `total` (updated in place
/// by add-k, as SacreBLEU does); returns `(score, bp, orders visited)`.
fn compute(
    sys_len: f64,
    ref_len: f64,
    o: &BleuScoreOpts,
    correct: &mut [f64],
    total: &mut [f64],
    precisions: &mut [f64],
) -> (f64, f64, usize) {
    let n_ord = o.max_order;
    precisions.fill(0.0);
    let bp = brevity_penalty(sys_len, ref_len);
    if correct.iter().all(|&c| c == 0.0) {
        return (0.0, bp, 0);
    }
    let mut smooth_mteval = 1.0f64;
    let mut eff_order = n_ord;
    let mut visited = 0;
    for n in 1..=n_ord {
        visited = n;
        if let Smooth::AddK(k) = o.smooth {
            if n > 1 {
                correct[n - 1] += k;
                total[n - 1] += k;
            }
        }
        if total[n - 1] == 0.0 {
            break;
        }
        if o.effective_order {
            eff_order = n;
        }
        if correct[n - 1] == 0.0 {
            match o.smooth {
                Smooth::Exp => {
                    smooth_mteval *= 2.0;
                    precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1]);
                }
                Smooth::Floor(v) => precisions[n - 1] = 100.0 * v / total[n - 1],
                _ => {}
            }
        } else {
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1];
        }
    }
    // Python's sum() of the my_log values: its float arithmetic depends on the interpreter.
    let mut s = PySum::new();
    for p in &precisions[..eff_order] {
        add_my_log(&mut s, *p);
    }
    (bp * (s.value() / eff_order as f64).exp(), bp, visited)
}

/// Just the score of every row of a row-major matrix (batch sentence scores).
pub fn finalize_many(rows: &[i64], width: usize, o: &BleuScoreOpts, workers: usize) -> Vec<f64> {
    let n = rows.len() / width;
    let mut out = vec![0.0; n];
    parallel::for_each_chunk(workers, &mut out, 4096, |start, chunk| {
        for (j, v) in chunk.iter_mut().enumerate() {
            let i = start + j;
            *v = score_of(&rows[i * width..(i + 1) * width], o);
        }
    });
    out
}

/// SacreBLEU's `_get_closest_ref_len`: the closest length, ties to the shorter; -1 if none.
pub fn closest_ref_len(hyp_len: i64, ref_lens: impl IntoIterator<Item = i64>) -> i64 {
    let (mut closest_diff, mut closest_len) = (-1i64, -1i64);
    for r in ref_lens {
        let diff = (hyp_len - r).abs();
        if closest_diff == -1 || diff < closest_diff {
            closest_diff = diff;
            closest_len = r;
        } else if diff == closest_diff && r < closest_len {
            closest_len = r;
        }
    }
    closest_len
}
