//! Significance binding: `_core.Scorer` and the `_core.sig_*` resampling functions.
//!
//! Statistics arrive as C-contiguous numpy buffers (int64 for BLEU and chrF, float64 for TER and
//! the mean metrics), are copied while holding the GIL into the core's [`Rows`], and the
//! resampling runs without it, in blocks ([`for_each_block`]): between blocks Ctrl-C raises `KeyboardInterrupt`.
//! Results go back as little-endian bytes.

use crate::convert::le_bytes;
use crate::error::Result;
use crate::interrupt::{blocks, blocks_at_least_one, for_each_block};
use crate::options::{BleuOptions, ChrfOptions};
use crate::parallel::Workers;
use parbleu_core::metrics::mean::MeanOpts;
use parbleu_core::significance::{self as sig, Rows, Scorer};
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

impl PyScorer {
    fn checked(inner: Scorer) -> Result<Self> {
        inner.check()?;
        Ok(PyScorer { inner })
    }

    /// One system's statistics, copied out of its buffer in this metric's number type.
    fn rows(&self, py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Rows> {
        Ok(if Rows::float_for(&self.inner) {
            Rows::Float(PyBuffer::<f64>::get(obj)?.to_vec(py)?)
        } else {
            Rows::Int(PyBuffer::<i64>::get(obj)?.to_vec(py)?)
        })
    }

    fn all_rows(&self, py: Python<'_>, systems: &[Bound<'_, PyAny>]) -> PyResult<Vec<Rows>> {
        systems.iter().map(|s| self.rows(py, s)).collect()
    }
}

#[pymethods]
impl PyScorer {
    /// BLEU with the finalize options of `options`.
    #[staticmethod]
    fn bleu(options: &BleuOptions) -> Result<Self> {
        Self::checked(Scorer::Bleu(options.score))
    }

    /// chrF with the finalize options of `options`.
    #[staticmethod]
    fn chrf(options: &ChrfOptions) -> Result<Self> {
        Self::checked(Scorer::Chrf(options.extract.score))
    }

    /// TER.
    #[staticmethod]
    fn ter() -> Self {
        PyScorer { inner: Scorer::Ter }
    }

    /// The mean of score column `column` of float64 rows of `width` values whose last column is
    /// a count of 1.0 per segment: a summed row scores `scale * row[column] / row[-1]`.
    #[staticmethod]
    #[pyo3(signature = (width, column, scale = 1.0))]
    fn mean(width: usize, column: usize, scale: f64) -> Result<Self> {
        Self::checked(Scorer::Mean(MeanOpts {
            width,
            column,
            scale,
        }))
    }

    /// Width of a statistics row.
    #[getter]
    fn width(&self) -> usize {
        self.inner.width()
    }

    /// Whether rows are float64 (TER, mean metrics) rather than int64.
    #[getter]
    fn float_rows(&self) -> bool {
        Rows::float_for(&self.inner)
    }

    fn __repr__(&self) -> String {
        format!("Scorer({:?})", self.inner)
    }
}

/// Blocks of `per_cell` cells of work for `cells` cells per item, but at least enough items
/// for every worker to take a few.
fn block_items(per_block: usize, cells: usize, workers: Workers) -> usize {
    (per_block / cells.max(1)).max(32 * workers.0.max(1))
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
    workers: Workers,
) -> Result<Bound<'py, PyBytes>> {
    let sc = scorer.inner;
    let data = scorer.all_rows(py, &systems)?;
    let block = block_items(BLOCK_CELLS, n_seg * sc.width() * data.len(), workers);
    let mut out = Vec::with_capacity((n * data.len()).min(1 << 20));
    for_each_block(py, blocks(n, block), |b| {
        let draws = b.start as u64..b.end as u64;
        out.extend(sig::bootstrap_rows(
            &sc,
            &data,
            n_seg,
            (seed, draws),
            workers.0,
        )?);
        Ok::<_, parbleu_core::Error>(())
    })?;
    Ok(le_bytes(py, &out)?)
}

/// `f` on blocks of whole rows of `idxs` (`n_seg` indices each), concatenated: one call on
/// all of them when `n_seg` is 0 (the core refuses that).
fn index_blocks<T: Send>(
    py: Python<'_>,
    idxs: &[i64],
    n_seg: usize,
    width: usize,
    workers: Workers,
    f: impl Fn(&[i64]) -> parbleu_core::Result<Vec<T>> + Sync,
) -> Result<Vec<T>> {
    if n_seg == 0 {
        return Ok(py.detach(|| f(idxs))?);
    }
    let rows = block_items(BLOCK_CELLS, n_seg * width, workers);
    let mut out = Vec::new();
    let n = idxs.len();
    for_each_block(py, blocks_at_least_one(n, rows * n_seg), |b| {
        out.extend(f(&idxs[b])?);
        Ok::<_, parbleu_core::Error>(())
    })?;
    Ok(out)
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
    workers: Workers,
) -> Result<Bound<'py, PyBytes>> {
    let sc = scorer.inner;
    let data = scorer.all_rows(py, &systems)?;
    let idxs = idxs.to_vec(py)?;
    let width = sc.width() * data.len();
    let out = index_blocks(py, &idxs, n_seg, width, workers, |part| {
        sig::bootstrap_indices_rows(&sc, &data, n_seg, part, workers.0)
    })?;
    Ok(le_bytes(py, &out)?)
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
    workers: Workers,
) -> Result<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let sc = scorer.inner;
    // `np.array(stats, dtype='float32')`: round to nearest, as numpy converts.
    let f32s = scorer.rows(py, &stats)?.to_f32();
    let idxs = idxs.to_vec(py)?;
    let out = index_blocks(py, &idxs, n_seg, sc.width(), workers, |part| {
        sig::bootstrap_compat(&sc, &f32s, n_seg, part, workers.0)
    })?;
    let values: Vec<f64> = out.iter().map(|v| v.value()).collect();
    let kinds: Vec<u8> = out.iter().map(|v| u8::from(v.is_f32())).collect();
    Ok((le_bytes(py, &values)?, PyBytes::new(py, &kinds)))
}

type PairBytes<'py> = (Bound<'py, PyBytes>, Bound<'py, PyBytes>);

/// Both pseudo-systems' scores, block after block.
#[derive(Default)]
struct ArScores {
    a: Vec<f64>,
    b: Vec<f64>,
}

impl ArScores {
    fn push(&mut self, (a, b): (Vec<f64>, Vec<f64>)) {
        self.a.extend_from_slice(&a);
        self.b.extend_from_slice(&b);
    }

    fn into_bytes(self, py: Python<'_>) -> PyResult<PairBytes<'_>> {
        Ok((le_bytes(py, &self.a)?, le_bytes(py, &self.b)?))
    }
}

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
    workers: Workers,
) -> Result<PairBytes<'py>> {
    let sc = scorer.inner;
    let (ra, rb) = (scorer.rows(py, &a)?, scorer.rows(py, &b)?);
    let block = block_items(AR_BLOCK_CELLS, n_seg * sc.width(), workers);
    let mut out = ArScores::default();
    for_each_block(py, blocks(n, block), |t| {
        let masks = sig::ar_masks(seed, t.start as u64, t.len(), n_seg, workers.0);
        out.push(sig::ar_rows(
            &sc, &ra, &rb, n_seg, &masks, false, workers.0,
        )?);
        Ok::<_, parbleu_core::Error>(())
    })?;
    Ok(out.into_bytes(py)?)
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
    workers: Workers,
) -> Result<PairBytes<'py>> {
    let sc = scorer.inner;
    let (ra, rb) = (scorer.rows(py, &a)?, scorer.rows(py, &b)?);
    let masks = masks.to_vec(py)?;
    let g = sig::mask_bytes(n_seg).max(1);
    let block = block_items(AR_BLOCK_CELLS, n_seg * sc.width(), workers);
    let mut out = ArScores::default();
    for_each_block(py, blocks_at_least_one(masks.len(), block * g), |part| {
        out.push(sig::ar_rows(
            &sc,
            &ra,
            &rb,
            n_seg,
            &masks[part],
            compat,
            workers.0,
        )?);
        Ok::<_, parbleu_core::Error>(())
    })?;
    Ok(out.into_bytes(py)?)
}

/// Add the significance classes and functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyScorer>()?;
    m.add_function(wrap_pyfunction!(sig_bootstrap, m)?)?;
    m.add_function(wrap_pyfunction!(sig_bootstrap_indices, m)?)?;
    m.add_function(wrap_pyfunction!(sig_bootstrap_compat, m)?)?;
    m.add_function(wrap_pyfunction!(sig_ar, m)?)?;
    m.add_function(wrap_pyfunction!(sig_ar_masks, m)?)
}
