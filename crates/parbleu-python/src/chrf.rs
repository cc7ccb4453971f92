//! chrF / chrF++ binding: `_core.ChrfRefs` and `_core.chrf_scores`.

use crate::{by_segment, distinct, i64s_to_bytes, to_py};
use parbleu_core::metrics::chrf::{self, ChrfExtract, ChrfScoreOpts, PreparedRefs};
use parbleu_core::parallel;
use parbleu_core::Error;
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// Score options from Python's `beta ** 2` and `1 + beta ** 2` (converted to float there, so
/// integer and float betas give exactly SacreBLEU's arithmetic).
fn opts(
    py: Python<'_>,
    char_order: usize,
    word_order: usize,
    factor: f64,
    one_plus_factor: f64,
    eps_smoothing: bool,
) -> PyResult<ChrfScoreOpts> {
    let o = ChrfScoreOpts {
        char_order,
        word_order,
        factor,
        one_plus_factor,
        eps_smoothing,
    };
    o.check().map_err(|e| to_py(py, e))?;
    Ok(o)
}

/// Segments per GIL release, so that Ctrl-C is seen within about a second.
const BLOCK: usize = 1 << 16;

/// References of a corpus, preprocessed once and reusable across systems.
#[pyclass(module = "parbleu._core", frozen)]
struct ChrfRefs {
    cfg: ChrfExtract,
    refs: PreparedRefs,
    counts: Vec<u32>,
}

#[pymethods]
impl ChrfRefs {
    #[new]
    #[pyo3(signature = (streams, char_order, word_order, factor, one_plus_factor, eps_smoothing, lowercase, whitespace, workers))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        streams: Vec<Vec<Option<String>>>,
        char_order: usize,
        word_order: usize,
        factor: f64,
        one_plus_factor: f64,
        eps_smoothing: bool,
        lowercase: bool,
        whitespace: bool,
        workers: i64,
    ) -> PyResult<Self> {
        let score = opts(
            py,
            char_order,
            word_order,
            factor,
            one_plus_factor,
            eps_smoothing,
        )?;
        let cfg = ChrfExtract {
            score,
            lowercase,
            whitespace,
        };
        let workers = parallel::resolve(workers);
        let (refs, counts) = py.detach(move || {
            let (segs, counts) = by_segment(streams);
            (PreparedRefs::new(&cfg, segs, workers), counts)
        });
        Ok(ChrfRefs { cfg, refs, counts })
    }

    fn __len__(&self) -> usize {
        self.counts.len()
    }

    /// Distinct reference counts per segment (sorted).
    fn ref_counts(&self) -> Vec<u32> {
        distinct(&self.counts)
    }

    /// Index of the first segment without any reference, if there is one.
    fn first_segment_without_refs(&self) -> Option<usize> {
        self.counts.iter().position(|&c| c == 0)
    }

    /// Statistics rows as little-endian int64 bytes.
    fn extract<'py>(
        &self,
        py: Python<'py>,
        hyps: Vec<Bound<'py, PyString>>,
        workers: i64,
    ) -> PyResult<Bound<'py, PyBytes>> {
        // Borrowed, not copied; processed in blocks, with Ctrl-C checked between them.
        let hyps: Vec<&str> = hyps.iter().map(|h| h.to_str()).collect::<PyResult<_>>()?;
        let workers = parallel::resolve(workers);
        let n = self.refs.segments.len();
        if hyps.len() != n {
            let e = Error::LengthMismatch {
                what: "hypotheses vs references".into(),
                expected: n,
                found: hyps.len(),
            };
            return Err(to_py(py, e));
        }
        let mut rows = Vec::new();
        for start in (0..hyps.len()).step_by(BLOCK) {
            let block = &hyps[start..(start + BLOCK).min(hyps.len())];
            let r = py
                .detach(|| chrf::extract_block(&self.cfg, block, &self.refs, start, workers))
                .map_err(|e| to_py(py, e))?;
            rows.extend_from_slice(&r);
            py.check_signals()?;
        }
        Ok(PyBytes::new(py, &i64s_to_bytes(&rows)))
    }
}

/// chrF of every row of an int64 statistics matrix (C-contiguous buffer), as float64 bytes.
#[pyfunction]
#[pyo3(signature = (rows, width, char_order, word_order, factor, one_plus_factor, eps_smoothing, workers))]
#[allow(clippy::too_many_arguments)]
fn chrf_scores<'py>(
    py: Python<'py>,
    rows: PyBuffer<i64>,
    width: usize,
    char_order: usize,
    word_order: usize,
    factor: f64,
    one_plus_factor: f64,
    eps_smoothing: bool,
    workers: i64,
) -> PyResult<Bound<'py, PyBytes>> {
    let o = opts(
        py,
        char_order,
        word_order,
        factor,
        one_plus_factor,
        eps_smoothing,
    )?;
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
    let bytes: Vec<u8> = out.iter().flat_map(|x| x.to_le_bytes()).collect();
    Ok(PyBytes::new(py, &bytes))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ChrfRefs>()?;
    m.add_function(wrap_pyfunction!(chrf_scores, m)?)?;
    Ok(())
}
