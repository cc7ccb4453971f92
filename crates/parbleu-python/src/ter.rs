//! TER binding: `_core.TerRefs`, `_core.ter_scores`, `_core.ter_sum`, `_core.tercom_tokenize`.

use crate::to_py;
use crate::{by_segment, distinct};
use parbleu_core::metrics::ter::{self, tokenizer, PreparedRefs, TercomOpts};
use parbleu_core::parallel;
use parbleu_core::Error;
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

fn f64s_to_bytes(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

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
    #[pyo3(signature = (streams, normalized, no_punct, asian_support, case_sensitive, workers))]
    fn new(
        py: Python<'_>,
        streams: Vec<Vec<Option<String>>>,
        normalized: bool,
        no_punct: bool,
        asian_support: bool,
        case_sensitive: bool,
        workers: i64,
    ) -> Self {
        let cfg = TercomOpts {
            normalized,
            no_punct,
            asian_support,
            case_sensitive,
        };
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
                .detach(|| ter::extract_block(&self.cfg, block, &self.refs, start, workers))
                .map_err(|e| to_py(py, e))?;
            rows.extend_from_slice(&r);
            py.check_signals()?;
        }
        Ok(PyBytes::new(py, &f64s_to_bytes(&rows)))
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
    Ok(PyBytes::new(py, &f64s_to_bytes(&out)))
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
#[pyo3(signature = (lines, normalized, no_punct, asian_support, case_sensitive))]
fn tercom_tokenize(
    py: Python<'_>,
    lines: Vec<String>,
    normalized: bool,
    no_punct: bool,
    asian_support: bool,
    case_sensitive: bool,
) -> Vec<String> {
    let o = TercomOpts {
        normalized,
        no_punct,
        asian_support,
        case_sensitive,
    };
    py.detach(|| lines.iter().map(|l| tokenizer::tokenize(l, &o)).collect())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TerRefs>()?;
    m.add_function(wrap_pyfunction!(ter_scores, m)?)?;
    m.add_function(wrap_pyfunction!(ter_sum, m)?)?;
    m.add_function(wrap_pyfunction!(tercom_tokenize, m)?)?;
    Ok(())
}
