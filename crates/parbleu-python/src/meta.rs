//! Meta-evaluation binding: `_core.meta_*`, MTME's correlations, tie calibration and PERM-BOTH.
//!
//! Vectors arrive as C-contiguous float64 numpy buffers (copied while holding the GIL), the
//! grouping as a list of lengths; the work runs without the GIL. Results go back as
//! little-endian bytes. A correlation is named by `(kind, variant, epsilon, clip)`.

use crate::convert::le_bytes;
use crate::error::{ErrorClass, Result};
use crate::parallel::Workers;
use parbleu_core::meta::{self, boot, kendall, perm, tau_opt, Corr, Variant};
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

fn floats(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
    PyBuffer::<f64>::get(obj)?.to_vec(py)
}

fn variant(name: &str) -> Result<Variant> {
    Variant::parse(name).ok_or_else(|| {
        ErrorClass::InvalidOption.err(format!(
            "variant: {name:?} is not one of 'b', 'c', '23', 'acc23'"
        ))
    })
}

fn corr(kind: &str, var: &str, epsilon: f64, clip: bool) -> Result<Corr> {
    let variant = variant(var)?;
    Ok(match kind {
        "pearson" => Corr::Pearson,
        "spearman" => Corr::Spearman,
        "kendall" => Corr::Kendall {
            variant,
            epsilon,
            clip,
        },
        "ties_opt" => Corr::TiesOpt { variant },
        _ => {
            return Err(ErrorClass::InvalidOption.err(format!(
                "correlation: {kind:?} is not one of pearson, spearman, kendall, ties_opt"
            )))
        }
    })
}

/// Checks that the group lengths cover the vectors exactly.
fn check_lens(lens: &[usize], n: usize, others: &[usize]) -> Result<()> {
    let total: usize = lens.iter().sum();
    if total != n || others.iter().any(|&m| m != n) {
        return Err(ErrorClass::InvalidOption.err(format!(
            "meta: group lengths sum to {total}, vectors have {n} and {others:?} values"
        )));
    }
    Ok(())
}

/// One correlation per group of `human` and `metric` (NaN where undefined).
#[pyfunction]
#[pyo3(signature = (kind, variant, epsilon, clip, human, metric, lens))]
#[allow(clippy::too_many_arguments)]
fn meta_group_values<'py>(
    py: Python<'py>,
    kind: &str,
    variant: &str,
    epsilon: f64,
    clip: bool,
    human: &Bound<'py, PyAny>,
    metric: &Bound<'py, PyAny>,
    lens: Vec<usize>,
) -> Result<Bound<'py, PyBytes>> {
    let c = corr(kind, variant, epsilon, clip)?;
    let (h, m) = (floats(py, human)?, floats(py, metric)?);
    check_lens(&lens, h.len(), &[m.len()])?;
    let out: Vec<f64> = py.detach(|| {
        meta::bounds(&lens)
            .iter()
            .map(|&(b, e)| meta::corr::group_value(c, &h[b..e], &m[b..e]))
            .collect()
    });
    Ok(le_bytes(py, &out)?)
}

/// Kendall pair counts per group: `(con, dis, ties_human, ties_metric, ties_both)` as int64.
#[pyfunction]
fn meta_kendall_stats<'py>(
    py: Python<'py>,
    human: &Bound<'py, PyAny>,
    metric: &Bound<'py, PyAny>,
    lens: Vec<usize>,
    epsilon: f64,
) -> Result<Bound<'py, PyBytes>> {
    let (h, m) = (floats(py, human)?, floats(py, metric)?);
    check_lens(&lens, h.len(), &[m.len()])?;
    let out: Vec<i64> = py.detach(|| {
        meta::bounds(&lens)
            .iter()
            .flat_map(|&(b, e)| {
                let s = kendall::stats(&m[b..e], &h[b..e], epsilon);
                [s.con, s.dis, s.ties_human, s.ties_metric, s.ties_both]
            })
            .collect()
    });
    Ok(le_bytes(py, &out)?)
}

/// MTME's `tau_optimization`: `(thresholds, taus, best_threshold, best_tau)`; the two lists as
/// float64 bytes, empty unless `curve`. `sampled`: one byte per pair, 1 = taken.
#[pyfunction]
#[pyo3(signature = (human, metric, lens, variant, sampled, curve))]
#[allow(clippy::type_complexity)]
fn meta_tau_opt<'py>(
    py: Python<'py>,
    human: &Bound<'py, PyAny>,
    metric: &Bound<'py, PyAny>,
    lens: Vec<usize>,
    variant: &str,
    sampled: Option<Vec<u8>>,
    curve: bool,
) -> Result<(Bound<'py, PyBytes>, Bound<'py, PyBytes>, f64, f64)> {
    let v = self::variant(variant)?;
    let (h, m) = (floats(py, human)?, floats(py, metric)?);
    check_lens(&lens, h.len(), &[m.len()])?;
    let pairs: usize = lens.iter().map(|&n| n * n.saturating_sub(1) / 2).sum();
    let sampled: Option<Vec<bool>> = sampled.map(|s| s.iter().map(|&b| b != 0).collect());
    if let Some(s) = &sampled {
        check_lens(&[s.len()], pairs, &[])?;
    }
    let r = py.detach(|| tau_opt::optimize(&m, &h, &lens, v, sampled.as_deref(), curve));
    Ok((
        le_bytes(py, &r.thresholds)?,
        le_bytes(py, &r.taus)?,
        r.best_threshold,
        r.best_tau,
    ))
}

/// The value PERM-BOTH compares for one metric (groups averaged as `np.average`).
#[pyfunction]
#[pyo3(signature = (kind, variant, epsilon, clip, human, metric, lens))]
#[allow(clippy::too_many_arguments)]
fn meta_perm_value(
    py: Python<'_>,
    kind: &str,
    variant: &str,
    epsilon: f64,
    clip: bool,
    human: &Bound<'_, PyAny>,
    metric: &Bound<'_, PyAny>,
    lens: Vec<usize>,
) -> Result<f64> {
    let c = corr(kind, variant, epsilon, clip)?;
    let (h, m) = (floats(py, human)?, floats(py, metric)?);
    check_lens(&lens, h.len(), &[m.len()])?;
    Ok(py.detach(|| meta::corr::perm_value(c, &h, &m, &meta::bounds(&lens))))
}

/// PERM-BOTH draws `first .. first + count`: `(c2, c1)` per draw as float64 bytes. `masks`:
/// `count × n` bytes (1 = keep metric 1's score), or `None` for the counter-based generator
/// under `seed`.
#[pyfunction]
#[pyo3(signature = (kind, variant, epsilon, clip, human, scores1, scores2, lens, masks, seed, first, count, workers))]
#[allow(clippy::too_many_arguments)]
fn meta_perm_draws<'py>(
    py: Python<'py>,
    kind: &str,
    variant: &str,
    epsilon: f64,
    clip: bool,
    human: &Bound<'py, PyAny>,
    scores1: &Bound<'py, PyAny>,
    scores2: &Bound<'py, PyAny>,
    lens: Vec<usize>,
    masks: Option<&Bound<'py, PyAny>>,
    seed: u64,
    first: u64,
    count: usize,
    workers: Workers,
) -> Result<Bound<'py, PyBytes>> {
    let c = corr(kind, variant, epsilon, clip)?;
    let (h, s1, s2) = (
        floats(py, human)?,
        floats(py, scores1)?,
        floats(py, scores2)?,
    );
    check_lens(&lens, h.len(), &[s1.len(), s2.len()])?;
    let given = match masks {
        Some(obj) => Some(PyBuffer::<u8>::get(obj)?.to_vec(py)?),
        None => None,
    };
    if let Some(g) = &given {
        check_lens(&[g.len()], count * h.len(), &[])?;
    }
    let bounds = meta::bounds(&lens);
    let input = perm::PermInput {
        human: &h,
        scores1: &s1,
        scores2: &s2,
        bounds: &bounds,
    };
    let out = py.detach(|| {
        let m = match &given {
            Some(g) => perm::Masks::Given(g),
            None => perm::Masks::Counter { seed },
        };
        perm::draws(&input, c, m, first, count, workers.0)
    });
    let flat: Vec<f64> = out.iter().flat_map(|&(a, b)| [a, b]).collect();
    Ok(le_bytes(py, &flat)?)
}

/// Bootstrap item indices of resamples `first..first + count` under `seed` (int64 bytes,
/// resample-major): resample `r` depends on `(seed, r)` only.
#[pyfunction]
#[pyo3(signature = (seed, first, count, n_items))]
fn meta_boot_indices<'py>(
    py: Python<'py>,
    seed: u64,
    first: u64,
    count: usize,
    n_items: usize,
) -> Result<Bound<'py, PyBytes>> {
    let out = py.detach(|| boot::indices(seed, first, count, n_items));
    Ok(le_bytes(py, &out)?)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(meta_boot_indices, m)?)?;
    m.add_function(wrap_pyfunction!(meta_group_values, m)?)?;
    m.add_function(wrap_pyfunction!(meta_kendall_stats, m)?)?;
    m.add_function(wrap_pyfunction!(meta_tau_opt, m)?)?;
    m.add_function(wrap_pyfunction!(meta_perm_value, m)?)?;
    m.add_function(wrap_pyfunction!(meta_perm_draws, m)?)
}
