//! mteval (NIST) binding: `_core.flavor_mteval_stats`.

use super::{flat_corpus, StatsBytes};
use crate::convert::le_bytes;
use crate::options::Order;
use parbleu_core::flavors;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// mteval's per-segment statistics (orders `1..=max_n`, NIST information included) of token
/// lists: `(matches, tst, refs, hyp_lens, ref_offsets)` as int64 bytes and
/// `(tst_info, ref_info)` as float64 bytes.
#[pyfunction]
#[pyo3(signature = (hyps, refs, max_n))]
fn flavor_mteval_stats<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    max_n: Order,
) -> PyResult<(StatsBytes<'py>, Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let max_n = max_n.0;
    let flat = flat_corpus(hyps, refs)?;
    let s = py.detach(|| flavors::nist::mteval_stats(&flat, max_n));
    Ok((
        (
            le_bytes(py, &s.matches)?,
            le_bytes(py, &s.tst)?,
            le_bytes(py, &s.refs)?,
            le_bytes(py, &s.hyp_lens)?,
            le_bytes(py, &s.ref_offsets)?,
        ),
        le_bytes(py, &s.tst_info)?,
        le_bytes(py, &s.ref_info)?,
    ))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(flavor_mteval_stats, m)?)
}
