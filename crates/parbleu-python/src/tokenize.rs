//! Tokenizers: `_core.tokenize` and `_core.TOKENIZERS`.

use crate::named::Named;
use parbleu_core::tokenize::Tokenizer;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// Tokenize lines as SacreBLEU's BLEU does: optional `lower()`, `rstrip()`, tokenizer.
#[pyfunction]
#[pyo3(signature = (name, lines, lowercase=false))]
fn tokenize(
    py: Python<'_>,
    name: Named<Tokenizer>,
    lines: Vec<String>,
    lowercase: bool,
) -> Vec<String> {
    let tok = name.0;
    py.detach(|| lines.iter().map(|l| tok.preprocess(l, lowercase)).collect())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The core's tokenizer names, for the CLI and docs to read from one place.
    m.add("TOKENIZERS", PyTuple::new(m.py(), Tokenizer::NAMES)?)?;
    m.add_function(wrap_pyfunction!(tokenize, m)?)
}
