//! Binding of the core's COCO caption metrics (`parbleu.flavors.coco`): CIDEr-D sums and
//! ROUGE-L per image, computed with the GIL released.

use crate::ErrorClass;
use parbleu_core::caption::{cider, rouge};
use parbleu_core::parallel;
use pyo3::prelude::*;

/// Borrow each caption's text (the strings stay alive in the caller's lists).
fn borrowed(refs: &[Vec<String>]) -> Vec<Vec<&str>> {
    refs.iter()
        .map(|r| r.iter().map(String::as_str).collect())
        .collect()
}

/// Per image, the CIDEr-D sums over references, one per order (`len(hyps) * n` floats).
#[pyfunction]
#[pyo3(signature = (hyps, refs, n, sigma, ref_len, log_df, workers))]
#[allow(clippy::too_many_arguments)]
fn caption_cider_sums(
    py: Python<'_>,
    hyps: Vec<String>,
    refs: Vec<Vec<String>>,
    n: crate::Order,
    sigma: f64,
    ref_len: f64,
    log_df: Vec<f64>,
    workers: i64,
) -> PyResult<Vec<f64>> {
    if hyps.len() != refs.len() {
        return Err(ErrorClass::LengthMismatch.err(
            py,
            format!(
                "{} hypotheses for {} reference lists",
                hyps.len(),
                refs.len()
            ),
        ));
    }
    let workers = parallel::resolve(workers);
    let r = borrowed(&refs);
    let h: Vec<&str> = hyps.iter().map(String::as_str).collect();
    let p = cider::CiderParams {
        n: n.0,
        sigma,
        ref_len,
        log_df: &log_df,
    };
    py.detach(|| cider::sums(&h, &r, &p, workers))
        .ok_or_else(|| {
            ErrorClass::InvalidOption.err(
                py,
                "coco: CIDEr needs at least one reference n-gram (the original: max() arg is an \
             empty sequence)"
                    .to_string(),
            )
        })
}

/// Per image, ROUGE-L with `beta2` = β².
#[pyfunction]
#[pyo3(signature = (hyps, refs, beta2, workers))]
fn caption_rouge_scores(
    py: Python<'_>,
    hyps: Vec<String>,
    refs: Vec<Vec<String>>,
    beta2: f64,
    workers: i64,
) -> PyResult<Vec<f64>> {
    if hyps.len() != refs.len() || refs.iter().any(Vec::is_empty) {
        return Err(ErrorClass::LengthMismatch.err(
            py,
            "coco: every image needs one hypothesis and at least one reference".to_string(),
        ));
    }
    let workers = parallel::resolve(workers);
    let r = borrowed(&refs);
    let h: Vec<&str> = hyps.iter().map(String::as_str).collect();
    Ok(py.detach(|| rouge::scores(&h, &r, beta2, workers)))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(caption_cider_sums, m)?)?;
    m.add_function(wrap_pyfunction!(caption_rouge_scores, m)?)?;
    Ok(())
}
