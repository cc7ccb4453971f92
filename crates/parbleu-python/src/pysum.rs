//! Python's float `sum()`, as the core computes it: `_core.set_compensated_sum`,
//! `_core.bleu_log_sum`.

use parbleu_core::pysum;
use pyo3::prelude::*;

/// Sets how BLEU's log sum (and NLTK chrF's sum over orders) adds floats: as CPython >= 3.12's
/// `sum()` (`True`, compensated) or as CPython <= 3.11's; returns the previous setting. Set at
/// import from the running interpreter; the golden tests set it to the goldens' interpreter.
#[pyfunction]
fn set_compensated_sum(on: bool) -> bool {
    let was = pysum::compensated();
    pysum::set_compensated(on);
    was
}

/// `sum([my_log(p) for p in precisions])` as SacreBLEU's `compute_bleu` computes it, with the
/// float arithmetic of [`set_compensated_sum`] (the Rust BLEU's, so both sides agree).
#[pyfunction]
fn bleu_log_sum(precisions: Vec<f64>) -> f64 {
    let mut s = pysum::PySum::new();
    for p in precisions {
        pysum::add_my_log(&mut s, p);
    }
    s.value()
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // SacreBLEU's BLEU sums logs with the built-in sum(), compensated since CPython 3.12.
    pysum::set_compensated(m.py().version_info() >= (3, 12));
    m.add_function(wrap_pyfunction!(set_compensated_sum, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_log_sum, m)?)
}
