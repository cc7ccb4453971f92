//! TER binding: `_core.TerRefs`, `_core.ter_scores`, `_core.ter_sum`, `_core.tercom_tokenize`.

use crate::options::TerOptions;
use crate::refs::{ref_set, Streams};
use crate::to_py;
use crate::{in_blocks, le_bytes};
use parbleu_core::metrics::ter::{self, tokenizer, PreparedRefs, TercomOpts};
use parbleu_core::parallel;
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// Segments per GIL release, so that Ctrl-C is seen within about a second.
const BLOCK: usize = 1 << 14;

/// References of a corpus, tokenized once and reusable across systems.
#[pyclass(module = "parbleu._core", frozen)]
struct TerRefs {
    cfg: TercomOpts,
    refs: PreparedRefs,
}

#[pymethods]
impl TerRefs {
    #[new]
    #[pyo3(signature = (streams, options, workers))]
    fn new(
        py: Python<'_>,
        streams: Streams<'_>,
        options: &TerOptions,
        workers: i64,
    ) -> PyResult<Self> {
        let cfg: TercomOpts = options.tercom;
        let workers = parallel::resolve(workers);
        let set = ref_set(py, &streams)?;
        let refs = py.detach(|| PreparedRefs::from_set(&cfg, set, workers));
        Ok(TerRefs { cfg, refs })
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

    /// Statistics rows (`num_edits, ref_length`) as little-endian float64 bytes.
    fn extract<'py>(
        &self,
        py: Python<'py>,
        hyps: Vec<Bound<'py, PyString>>,
        workers: i64,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let workers = parallel::resolve(workers);
        let (rows, _) = in_blocks(py, &hyps, self.refs.len(), BLOCK, |start, block| {
            ter::extract_block(&self.cfg, block, &self.refs, start, workers).map(|r| (r, 0))
        })?;
        le_bytes(py, &rows)
    }
}

/// TER of every row of a float64 `(n, 2)` statistics matrix (C-contiguous), as float64 bytes.
#[pyfunction]
#[pyo3(signature = (rows, workers))]
fn ter_scores<'py>(
    py: Python<'py>,
    rows: PyBuffer<f64>,
    workers: i64,
) -> PyResult<Bound<'py, PyBytes>> {
    let data = rows.to_vec(py)?;
    let workers = parallel::resolve(workers);
    let out = py
        .detach(|| ter::finalize_many(&data, workers))
        .map_err(|e| to_py(py, e))?;
    le_bytes(py, &out)
}

/// Column sums of a float64 `(n, 2)` matrix in index order (as SacreBLEU adds rows).
#[pyfunction]
fn ter_sum(py: Python<'_>, rows: PyBuffer<f64>) -> PyResult<(f64, f64)> {
    let data = rows.to_vec(py)?;
    let [a, b] = ter::sum_rows(&data);
    Ok((a, b))
}

/// `TercomTokenizer(...)(line)` for each line (no `rstrip`, as the tokenizer object itself).
#[pyfunction]
#[pyo3(signature = (lines, options))]
fn tercom_tokenize(py: Python<'_>, lines: Vec<String>, options: &TerOptions) -> Vec<String> {
    let o = options.tercom;
    py.detach(|| lines.iter().map(|l| tokenizer::tokenize(l, &o)).collect())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TerRefs>()?;
    m.add_function(wrap_pyfunction!(ter_scores, m)?)?;
    m.add_function(wrap_pyfunction!(ter_sum, m)?)?;
    m.add_function(wrap_pyfunction!(tercom_tokenize, m)?)?;
    Ok(())
}
