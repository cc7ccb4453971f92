//! HuggingFace `evaluate` BLEU binding: `_core.flavor_hf_sentence_bleu(s)`.

use crate::convert::{str_lists, strs};
use crate::error::{ErrorClass, Result};
use crate::parallel::Workers;
use parbleu_core::flavors;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

/// The dict HuggingFace's `compute` returns.
fn hf_dict(py: Python<'_>, r: Option<flavors::hf::HfBleu>) -> Result<Bound<'_, PyDict>> {
    let r = r.ok_or_else(|| {
        ErrorClass::InvalidOption.err("a segment without references, or max_order 0")
    })?;
    let d = PyDict::new(py);
    d.set_item(intern!(py, "bleu"), r.bleu)?;
    d.set_item(intern!(py, "precisions"), PyList::new(py, &r.precisions)?)?;
    d.set_item(intern!(py, "brevity_penalty"), r.brevity_penalty)?;
    d.set_item(intern!(py, "length_ratio"), r.length_ratio)?;
    d.set_item(intern!(py, "translation_length"), r.translation_length)?;
    d.set_item(intern!(py, "reference_length"), r.reference_length)?;
    Ok(d)
}

/// HuggingFace `evaluate` BLEU (13a tokens) of one prediction against its references, as the
/// dict `compute` returns, in one call.
#[pyfunction]
#[pyo3(signature = (prediction, references, max_order, smooth))]
fn flavor_hf_sentence_bleu<'py>(
    py: Python<'py>,
    prediction: &str,
    references: Vec<Bound<'py, PyString>>,
    max_order: usize,
    smooth: bool,
) -> Result<Bound<'py, PyDict>> {
    let refs = strs(&references)?;
    hf_dict(
        py,
        flavors::hf::sentence_bleu(prediction, &refs, max_order, smooth),
    )
}

/// [`flavor_hf_sentence_bleu`] of every `(predictions[i], references[i])` pair: one dict each.
#[pyfunction]
#[pyo3(signature = (predictions, references, max_order, smooth, workers))]
fn flavor_hf_sentence_bleus<'py>(
    py: Python<'py>,
    predictions: Vec<Bound<'py, PyString>>,
    references: Vec<Vec<Bound<'py, PyString>>>,
    max_order: usize,
    smooth: bool,
    workers: Workers,
) -> Result<Vec<Bound<'py, PyDict>>> {
    let hyps = strs(&predictions)?;
    let refs = str_lists(&references)?;
    if refs.len() != hyps.len() {
        return Err(
            ErrorClass::LengthMismatch.err("as many reference lists as predictions expected")
        );
    }
    let out = py.detach(|| flavors::hf::sentence_bleus(&hyps, &refs, max_order, smooth, workers.0));
    out.into_iter().map(|r| hf_dict(py, r)).collect()
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(flavor_hf_sentence_bleu, m)?)?;
    m.add_function(wrap_pyfunction!(flavor_hf_sentence_bleus, m)?)
}
