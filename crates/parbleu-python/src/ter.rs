//! TER binding: `_core.TerRefs`, `_core.ter_scores`, `_core.ter_sum`, `_core.tercom_tokenize`.

use crate::options::TerOptions;
use crate::to_py;
use crate::{by_segment, distinct, in_blocks, le_bytes};
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
    counts: Vec<u32>,
}

#[pymethods]
impl TerRefs {
    #[new]
    #[pyo3(signature = (streams, options, workers))]
    fn new(
        py: Python<'_>,
        streams: Vec<Vec<Option<String>>>,
        options: &TerOptions,
        workers: i64,
    ) -> Self {
        let cfg: TercomOpts = options.tercom;
        let workers = parallel::resolve(workers);
        let (refs, counts) = py.detach(move || {
            let (segs, counts) = by_segment(streams);
            (PreparedRefs::new(&cfg, segs, workers), counts)
        });
        TerRefs { cfg, refs, counts }
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

    /// Statistics rows (`num_edits, ref_length`) as little-endian float64 bytes.
    fn extract<'py>(
        &self,
        py: Python<'py>,
        hyps: Vec<Bound<'py, PyString>>,
        workers: i64,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let workers = parallel::resolve(workers);
        let (rows, _) = in_blocks(
            py,
            &hyps,
            self.refs.segments.len(),
            BLOCK,
            |start, block| {
                ter::extract_block(&self.cfg, block, &self.refs, start, workers).map(|r| (r, 0))
            },
        )?;
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
