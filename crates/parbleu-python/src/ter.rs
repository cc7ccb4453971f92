//! TER binding: its references behind `_core.Refs`, `_core.ter_scores`, `_core.ter_sum`,
//! `_core.tercom_tokenize`.

use crate::convert::le_bytes;
use crate::error::Result;
use crate::options::TerOptions;
use crate::parallel::Workers;
use crate::refs::refs_class;
use parbleu_core::metrics::ter::{self, tokenizer, PreparedRefs};
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Segments per GIL release, so that Ctrl-C is seen within about a second.
const BLOCK: usize = 1 << 14;

refs_class! {
    /// References of a corpus, tokenized once and reusable across systems.
    TerRefs {
        prepared: PreparedRefs, block: BLOCK
    }
    {}
}

/// TER of every row of a float64 `(n, 2)` statistics matrix (C-contiguous), as float64 bytes.
#[pyfunction]
#[pyo3(signature = (rows, workers))]
fn ter_scores<'py>(
    py: Python<'py>,
    rows: PyBuffer<f64>,
    workers: Workers,
) -> Result<Bound<'py, PyBytes>> {
    let data = rows.to_vec(py)?;
    let out = py.detach(|| ter::finalize_many(&data, workers.0))?;
    Ok(le_bytes(py, &out)?)
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

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ter_scores, m)?)?;
    m.add_function(wrap_pyfunction!(ter_sum, m)?)?;
    m.add_function(wrap_pyfunction!(tercom_tokenize, m)?)
}
