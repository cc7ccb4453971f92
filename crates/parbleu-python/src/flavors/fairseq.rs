//! fairseq binding: `_core.flavor_fairseq_stats`.

use parbleu_core::flavors;
use pyo3::prelude::*;

/// fairseq-score's statistics of line pairs (system, reference), zipped to the shorter list:
/// `(reflen, predlen, matches[4], counts[4])`.
#[pyfunction]
#[pyo3(signature = (sys_lines, ref_lines))]
fn flavor_fairseq_stats(
    py: Python<'_>,
    sys_lines: Vec<String>,
    ref_lines: Vec<String>,
) -> (u64, u64, [u64; 4], [u64; 4]) {
    let s = py.detach(|| {
        let pairs: Vec<(&str, &str)> = sys_lines
            .iter()
            .zip(&ref_lines)
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        flavors::fairseq::fairseq_stats(&pairs)
    });
    (s.reflen, s.predlen, s.matches, s.counts)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(flavor_fairseq_stats, m)?)
}
