//! Significance binding: `_core.Scorer` and the `_core.sig_*` resampling functions.
//!
//! Statistics arrive as C-contiguous numpy buffers (int64 for BLEU and chrF, float64 for TER),
//! are copied while holding the GIL, and the resampling runs without it, in blocks: between
//! blocks Ctrl-C raises `KeyboardInterrupt`. Results go back as little-endian bytes.

use crate::options::{BleuOptions, ChrfOptions};
use crate::{le_bytes, to_py};
use parbleu_core::parallel;
use parbleu_core::significance::{self as sig, Scorer, Stat};
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Work per GIL release, in row additions: a few milliseconds, so Ctrl-C is seen at once.
const BLOCK_CELLS: usize = 1 << 24;
/// Work per GIL release for approximate randomization, in row lookups (tables are rebuilt per
/// block, so blocks are larger).
const AR_BLOCK_CELLS: usize = 1 << 26;

/// A metric's finalize step with its options.
#[pyclass(module = "parbleu._core", name = "Scorer", frozen)]
pub(crate) struct PyScorer {
    inner: Scorer,
}

#[pymethods]
impl PyScorer {
    /// BLEU with the finalize options of `options`.
    #[staticmethod]
    fn bleu(py: Python<'_>, options: &BleuOptions) -> PyResult<Self> {
        let inner = Scorer::Bleu(options.score);
        inner.check().map_err(|e| to_py(py, e))?;
        Ok(PyScorer { inner })
    }

    /// chrF with the finalize options of `options`.
    #[staticmethod]
    fn chrf(py: Python<'_>, options: &ChrfOptions) -> PyResult<Self> {
        let inner = Scorer::Chrf(options.extract.score);
        inner.check().map_err(|e| to_py(py, e))?;
        Ok(PyScorer { inner })
    }

    /// TER.
    #[staticmethod]
    fn ter() -> Self {
        PyScorer { inner: Scorer::Ter }
    }

    /// Width of a statistics row.
    #[getter]
    fn width(&self) -> usize {
        self.inner.width()
    }

    /// Whether rows are float64 (TER) rather than int64.
    #[getter]
    fn float_rows(&self) -> bool {
        matches!(self.inner, Scorer::Ter)
    }

    fn __repr__(&self) -> String {
        format!("Scorer({:?})", self.inner)
    }
}

/// One system's statistics, copied out of its buffer.
enum Rows {
    I(Vec<i64>),
    F(Vec<f64>),
}

fn rows(py: Python<'_>, sc: &Scorer, obj: &Bound<'_, PyAny>) -> PyResult<Rows> {
    Ok(if matches!(sc, Scorer::Ter) {
        Rows::F(PyBuffer::<f64>::get(obj)?.to_vec(py)?)
    } else {
        Rows::I(PyBuffer::<i64>::get(obj)?.to_vec(py)?)
    })
}

/// Exact paired bootstrap: `n` resamples from the seed, every system scored on each
/// (float64 bytes, `n x len(systems)`, resample-major).
#[pyfunction]
#[pyo3(signature = (scorer, systems, n_seg, n, seed, workers))]
fn sig_bootstrap<'py>(
    py: Python<'py>,
    scorer: &PyScorer,
    systems: Vec<Bound<'py, PyAny>>,
    n_seg: usize,
    n: usize,
    seed: u64,
    workers: i64,
) -> PyResult<Bound<'py, PyBytes>> {
    let sc = scorer.inner;
    let data: Vec<Rows> = systems
        .iter()
        .map(|s| rows(py, &sc, s))
        .collect::<PyResult<_>>()?;
    let workers = parallel::resolve(workers);
    let cells = (n_seg * sc.width() * data.len()).max(1);
    let block = (BLOCK_CELLS / cells).max(sig_task_floor(workers));
    let mut out = Vec::with_capacity((n * data.len()).min(1 << 20));
    let mut first = 0;
    while first < n {
        let nb = block.min(n - first);
        let part = py
            .detach(|| match &data[..] {
                [] => Ok(Vec::new()),
                [Rows::I(_), ..] => {
                    let s: Vec<&[i64]> = data.iter().map(as_i64).collect();
                    sig::bootstrap(&sc, &s, n_seg, seed, first as u64, nb, workers)
                }
                [Rows::F(_), ..] => {
                    let s: Vec<&[f64]> = data.iter().map(as_f64).collect();
                    sig::bootstrap(&sc, &s, n_seg, seed, first as u64, nb, workers)
                }
            })
            .map_err(|e| to_py(py, e))?;
        out.extend_from_slice(&part);
        first += nb;
        py.check_signals()?;
    }
    le_bytes(py, &out)
}

fn sig_task_floor(workers: usize) -> usize {
    32 * workers.max(1)
}

fn as_i64(r: &Rows) -> &[i64] {
    match r {
        Rows::I(v) => v,
        Rows::F(_) => &[],
    }
}

fn as_f64(r: &Rows) -> &[f64] {
    match r {
        Rows::F(v) => v,
        Rows::I(_) => &[],
    }
}

/// Exact paired bootstrap on given indices (`idxs`: int64, `n x n_seg`).
#[pyfunction]
#[pyo3(signature = (scorer, systems, n_seg, idxs, workers))]
fn sig_bootstrap_indices<'py>(
    py: Python<'py>,
    scorer: &PyScorer,
    systems: Vec<Bound<'py, PyAny>>,
    n_seg: usize,
    idxs: PyBuffer<i64>,
    workers: i64,
) -> PyResult<Bound<'py, PyBytes>> {
    let sc = scorer.inner;
    let data: Vec<Rows> = systems
        .iter()
        .map(|s| rows(py, &sc, s))
        .collect::<PyResult<_>>()?;
    let idxs = idxs.to_vec(py)?;
    let workers = parallel::resolve(workers);
    let out = blocks(
        py,
        &idxs,
        n_seg,
        sc.width() * data.len(),
        workers,
        |part| match &data[..] {
            [] => Ok(Vec::new()),
            [Rows::I(_), ..] => {
                let s: Vec<&[i64]> = data.iter().map(as_i64).collect();
                sig::bootstrap_indices(&sc, &s, n_seg, part, workers)
            }
            [Rows::F(_), ..] => {
                let s: Vec<&[f64]> = data.iter().map(as_f64).collect();
                sig::bootstrap_indices(&sc, &s, n_seg, part, workers)
            }
        },
    )?;
    le_bytes(py, &out)
}

/// Run `f` on blocks of whole rows of `idxs`, without the GIL, checking Ctrl-C in between.
fn blocks<T, F>(
    py: Python<'_>,
    idxs: &[i64],
    n_seg: usize,
    width: usize,
    workers: usize,
    f: F,
) -> PyResult<Vec<T>>
where
    T: Send,
    F: Fn(&[i64]) -> parbleu_core::Result<Vec<T>> + Sync,
{
    if n_seg == 0 {
        return f(idxs).map_err(|e| to_py(py, e));
    }
    let rows_per_block = (BLOCK_CELLS / (n_seg * width).max(1)).max(sig_task_floor(workers));
    let mut out = Vec::new();
    let mut rest = idxs;
    loop {
        let take = (rows_per_block * n_seg).min(rest.len());
        let (part, tail) = rest.split_at(take);
        out.extend(py.detach(|| f(part)).map_err(|e| to_py(py, e))?);
        rest = tail;
        py.check_signals()?;
        if rest.is_empty() {
            break;
        }
    }
    Ok(out)
}

/// SacreBLEU's float32 bootstrap resample scores on numpy's indices: float64 values and, per
/// value, 1 if SacreBLEU holds it as a numpy float32, 0 if as a Python float.
#[pyfunction]
#[pyo3(signature = (scorer, stats, n_seg, idxs, workers))]
fn sig_bootstrap_compat<'py>(
    py: Python<'py>,
    scorer: &PyScorer,
    stats: Bound<'py, PyAny>,
    n_seg: usize,
    idxs: PyBuffer<i64>,
    workers: i64,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let sc = scorer.inner;
    // `np.array(stats, dtype='float32')`: round to nearest, as numpy converts.
    let f32s: Vec<f32> = match rows(py, &sc, &stats)? {
        Rows::I(v) => v.iter().map(|&x| x as f32).collect(),
        Rows::F(v) => v.iter().map(|&x| x as f32).collect(),
    };
    let idxs = idxs.to_vec(py)?;
    let workers = parallel::resolve(workers);
    let out = blocks(py, &idxs, n_seg, sc.width(), workers, |part| {
        sig::bootstrap_compat(&sc, &f32s, n_seg, part, workers)
    })?;
    let values: Vec<f64> = out.iter().map(|v| v.value()).collect();
    let kinds: Vec<u8> = out.iter().map(|v| u8::from(v.is_f32())).collect();
    Ok((le_bytes(py, &values)?, PyBytes::new(py, &kinds)))
}

type PairBytes<'py> = (Bound<'py, PyBytes>, Bound<'py, PyBytes>);

/// Exact approximate randomization: `n` trials with masks from the seed; per trial the scores
/// of both pseudo-systems (two float64 byte strings).
#[pyfunction]
#[pyo3(signature = (scorer, a, b, n_seg, n, seed, workers))]
// Stays: two systems, their length and the trial plan are inputs, not options to bundle.
#[allow(clippy::too_many_arguments)]
fn sig_ar<'py>(
    py: Python<'py>,
    scorer: &PyScorer,
    a: Bound<'py, PyAny>,
    b: Bound<'py, PyAny>,
    n_seg: usize,
    n: usize,
    seed: u64,
    workers: i64,
) -> PyResult<PairBytes<'py>> {
    let sc = scorer.inner;
    let (ra, rb) = (rows(py, &sc, &a)?, rows(py, &sc, &b)?);
    let workers = parallel::resolve(workers);
    let block = (AR_BLOCK_CELLS / (n_seg * sc.width()).max(1)).max(sig_task_floor(workers));
    let (mut sa, mut sb) = (Vec::new(), Vec::new());
    let mut first = 0;
    while first < n {
        let nb = block.min(n - first);
        let (pa, pb) = py
            .detach(|| {
                let masks = sig::ar_masks(seed, first as u64, nb, n_seg, workers);
                run_ar(&sc, &ra, &rb, n_seg, &masks, false, workers)
            })
            .map_err(|e| to_py(py, e))?;
        sa.extend_from_slice(&pa);
        sb.extend_from_slice(&pb);
        first += nb;
        py.check_signals()?;
    }
    Ok((le_bytes(py, &sa)?, le_bytes(py, &sb)?))
}

fn run_ar(
    sc: &Scorer,
    a: &Rows,
    b: &Rows,
    n_seg: usize,
    masks: &[u8],
    compat: bool,
    workers: usize,
) -> parbleu_core::Result<(Vec<f64>, Vec<f64>)> {
    fn go<T: Stat>(
        sc: &Scorer,
        a: &[T],
        b: &[T],
        n_seg: usize,
        masks: &[u8],
        compat: bool,
        workers: usize,
    ) -> parbleu_core::Result<(Vec<f64>, Vec<f64>)> {
        if compat {
            sig::ar_compat(sc, a, b, n_seg, masks, workers)
        } else {
            sig::ar(sc, a, b, n_seg, masks, workers)
        }
    }
    match (a, b) {
        (Rows::I(a), Rows::I(b)) => go(sc, a, b, n_seg, masks, compat, workers),
        (Rows::F(a), Rows::F(b)) => go(sc, a, b, n_seg, masks, compat, workers),
        _ => unreachable!("both systems are read with the same scorer"),
    }
}

/// Approximate randomization on given packed masks (`masks`: uint8, `n x ceil(n_seg / 8)`,
/// numpy's `packbits(pos_sel, axis=1, bitorder="little")`). `compat`: score as SacreBLEU
/// does (int64 / float64 numpy rows), else with the exact finalize.
#[pyfunction]
#[pyo3(signature = (scorer, a, b, n_seg, masks, compat, workers))]
// Stays: two systems, their length and the masks are inputs, not options to bundle.
#[allow(clippy::too_many_arguments)]
fn sig_ar_masks<'py>(
    py: Python<'py>,
    scorer: &PyScorer,
    a: Bound<'py, PyAny>,
    b: Bound<'py, PyAny>,
    n_seg: usize,
    masks: PyBuffer<u8>,
    compat: bool,
    workers: i64,
) -> PyResult<PairBytes<'py>> {
    let sc = scorer.inner;
    let (ra, rb) = (rows(py, &sc, &a)?, rows(py, &sc, &b)?);
    let masks = masks.to_vec(py)?;
    let workers = parallel::resolve(workers);
    let g = sig::mask_bytes(n_seg).max(1);
    let block = (AR_BLOCK_CELLS / (n_seg * sc.width()).max(1)).max(sig_task_floor(workers));
    let (mut sa, mut sb) = (Vec::new(), Vec::new());
    let mut rest = &masks[..];
    loop {
        let take = (block * g).min(rest.len());
        let (part, tail) = rest.split_at(take);
        let (pa, pb) = py
            .detach(|| run_ar(&sc, &ra, &rb, n_seg, part, compat, workers))
            .map_err(|e| to_py(py, e))?;
        sa.extend_from_slice(&pa);
        sb.extend_from_slice(&pb);
        rest = tail;
        py.check_signals()?;
        if rest.is_empty() {
            break;
        }
    }
    Ok((le_bytes(py, &sa)?, le_bytes(py, &sb)?))
}

/// Add the significance classes and functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyScorer>()?;
    m.add_function(wrap_pyfunction!(sig_bootstrap, m)?)?;
    m.add_function(wrap_pyfunction!(sig_bootstrap_indices, m)?)?;
    m.add_function(wrap_pyfunction!(sig_bootstrap_compat, m)?)?;
    m.add_function(wrap_pyfunction!(sig_ar, m)?)?;
    m.add_function(wrap_pyfunction!(sig_ar_masks, m)?)?;
    Ok(())
}
