//! chrF / chrF++ binding: `_core.ChrfRefs` and `_core.chrf_scores`.

use crate::options::ChrfOptions;
use crate::refs::{ref_set, Streams};
use crate::{borrow_hyps, in_blocks, interruptible, le_bytes, to_py};
use parbleu_core::metrics::chrf::{self, ChrfExtract, PreparedRefs};
use parbleu_core::parallel;
use parbleu_core::Error;
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// Segments per GIL release, so that Ctrl-C is seen within about a second.
const BLOCK: usize = 1 << 16;

/// References of a corpus, preprocessed once and reusable across systems.
#[pyclass(module = "parbleu._core", frozen)]
struct ChrfRefs {
    cfg: ChrfExtract,
    refs: PreparedRefs,
}

#[pymethods]
impl ChrfRefs {
    /// `options`: the metric's `ChrfOptions`.
    #[new]
    #[pyo3(signature = (streams, options, workers))]
    fn new(
        py: Python<'_>,
        streams: Streams<'_>,
        options: &ChrfOptions,
        workers: i64,
    ) -> PyResult<Self> {
        let cfg: ChrfExtract = options.extract;
        let workers = parallel::resolve(workers);
        let set = ref_set(py, &streams)?;
        let refs = py.detach(|| PreparedRefs::from_set(&cfg, set, workers));
        Ok(ChrfRefs { cfg, refs })
    }

    fn __len__(&self) -> usize {
        self.refs.len()
    }

    /// Distinct reference counts per segment (sorted).
    fn ref_counts(&self) -> Vec<u32> {
        self.refs.index().ref_counts()
    }

    /// Index of the first segment without any reference, if there is one.
    fn first_segment_without_refs(&self) -> Option<usize> {
        self.refs.index().first_segment_without_refs()
    }

    /// Number of distinct reference segments.
    fn distinct_segments(&self) -> usize {
        self.refs.index().distinct_segments()
    }

    /// Statistics rows as little-endian int64 bytes.
    fn extract<'py>(
        &self,
        py: Python<'py>,
        hyps: Vec<Bound<'py, PyString>>,
        workers: i64,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let workers = parallel::resolve(workers);
        let (rows, _) = in_blocks(py, &hyps, self.refs.len(), BLOCK, |start, block| {
            chrf::extract_block(&self.cfg, block, &self.refs, start, workers).map(|r| (r, 0))
        })?;
        le_bytes(py, &rows)
    }

    /// Statistics rows of several systems (each one hypothesis per segment) as little-endian
    /// int64 bytes, system after system; with `sums`, only each system's column sums
    /// (`len(systems)` rows). Each segment's references are probed by every system while
    /// their tables are in the cache.
    fn extract_many<'py>(
        &self,
        py: Python<'py>,
        systems: Vec<Vec<Bound<'py, PyString>>>,
        workers: i64,
        sums: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let workers = parallel::resolve(workers);
        let n = self.refs.len();
        let texts: Vec<Vec<&str>> = systems
            .iter()
            .map(|s| borrow_hyps(py, s, n))
            .collect::<PyResult<_>>()?;
        let (w, n_sys) = (self.cfg.width(), texts.len());
        let mut out = vec![0i64; if sums { n_sys * w } else { n_sys * n * w }];
        // About BLOCK hypotheses per GIL release, whatever the number of systems.
        let block = (BLOCK / n_sys.max(1)).max(1);
        for start in (0..n).step_by(block) {
            let end = (start + block).min(n);
            let slices: Vec<&[&str]> = texts.iter().map(|t| &t[start..end]).collect();
            let rows = interruptible(py, || {
                chrf::extract_many(&self.cfg, &slices, &self.refs, start, workers)
            })?
            .map_err(|e| to_py(py, e))?;
            let m = end - start;
            for (k, sys_rows) in rows.chunks_exact(m * w).enumerate() {
                if sums {
                    let total = &mut out[k * w..(k + 1) * w];
                    for row in sys_rows.chunks_exact(w) {
                        total.iter_mut().zip(row).for_each(|(t, &x)| *t += x);
                    }
                } else {
                    out[(k * n + start) * w..(k * n + end) * w].copy_from_slice(sys_rows);
                }
            }
            py.check_signals()?;
        }
        le_bytes(py, &out)
    }

    /// Sentence chrF of every segment as little-endian float64 bytes (no statistics rows).
    fn sentence_scores<'py>(
        &self,
        py: Python<'py>,
        hyps: Vec<Bound<'py, PyString>>,
        workers: i64,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let workers = parallel::resolve(workers);
        let (out, _) = in_blocks(py, &hyps, self.refs.len(), BLOCK, |start, block| {
            chrf::sentence_scores_block(&self.cfg, block, &self.refs, start, workers)
                .map(|r| (r, 0))
        })?;
        le_bytes(py, &out)
    }
}

/// chrF of every row of an int64 statistics matrix (C-contiguous buffer), as float64 bytes.
#[pyfunction]
#[pyo3(signature = (rows, width, options, workers))]
fn chrf_scores<'py>(
    py: Python<'py>,
    rows: PyBuffer<i64>,
    width: usize,
    options: &ChrfOptions,
    workers: i64,
) -> PyResult<Bound<'py, PyBytes>> {
    let o = options.extract.score;
    if width != o.width() {
        return Err(to_py(
            py,
            Error::BadStatsShape {
                expected: o.width(),
                found: width,
            },
        ));
    }
    let data = rows.to_vec(py)?;
    let workers = parallel::resolve(workers);
    let out = py
        .detach(|| chrf::finalize_many(&data, &o, workers))
        .map_err(|e| to_py(py, e))?;
    le_bytes(py, &out)
}

/// `CHRF._compute_f_score` of one statistics row through the core's one finalize (Python calls
/// it for integer counts exact in a float; `stats` has the options' width).
#[pyfunction]
#[pyo3(signature = (stats, options))]
fn chrf_f_score(py: Python<'_>, stats: Vec<f64>, options: &ChrfOptions) -> PyResult<f64> {
    let o = options.extract.score;
    if stats.len() != o.width() {
        let e = Error::BadStatsShape {
            expected: o.width(),
            found: stats.len(),
        };
        return Err(to_py(py, e));
    }
    Ok(chrf::f_score(&stats, &o))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ChrfRefs>()?;
    m.add_function(wrap_pyfunction!(chrf_scores, m)?)?;
    m.add_function(wrap_pyfunction!(chrf_f_score, m)?)?;
    Ok(())
}
