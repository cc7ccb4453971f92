//! Token-id statistics (`parbleu.ids`): `_core.bleu_ids_extract`.

use crate::convert::le_bytes;
use crate::error::{ErrorClass, Result};
use crate::options::Order;
use crate::parallel::Workers;
use parbleu_core::ids::{self, RefStream, Seqs};
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

fn offsets(py: Python<'_>, buf: &PyBuffer<i64>, what: &str) -> Result<Vec<usize>> {
    buf.to_vec(py)?
        .into_iter()
        .map(|x| {
            usize::try_from(x)
                .map_err(|_| ErrorClass::InvalidOption.err(format!("{what}: negative offset")))
        })
        .collect()
}

/// One reference stream of ids: flat ids, offsets, and an optional presence mask.
type RefBuffers = (PyBuffer<i64>, PyBuffer<i64>, Option<PyBuffer<u8>>);

/// BLEU rows of id sequences (flat ids + offsets per stream), as little-endian int64 bytes.
///
/// `refs`: one `(ids, offsets, present)` triple per reference stream; `present` is a uint8
/// mask (or None: every segment has a reference in that stream).
#[pyfunction]
#[pyo3(signature = (hyp_ids, hyp_offsets, refs, pad_id, max_order, workers))]
fn bleu_ids_extract<'py>(
    py: Python<'py>,
    hyp_ids: PyBuffer<i64>,
    hyp_offsets: PyBuffer<i64>,
    refs: Vec<RefBuffers>,
    pad_id: Option<i64>,
    max_order: Order,
    workers: Workers,
) -> Result<Bound<'py, PyBytes>> {
    let hdata = hyp_ids.to_vec(py)?;
    let hoffs = offsets(py, &hyp_offsets, "hypotheses")?;
    let mut rdata = Vec::with_capacity(refs.len());
    for (d, o, p) in &refs {
        let present: Option<Vec<bool>> = match p {
            Some(p) => Some(p.to_vec(py)?.into_iter().map(|x| x != 0).collect()),
            None => None,
        };
        rdata.push((d.to_vec(py)?, offsets(py, o, "references")?, present));
    }
    let rows = py.detach(|| {
        let h = Seqs::new(&hdata, &hoffs, "hypotheses")?;
        let mut streams = Vec::with_capacity(rdata.len());
        for (d, o, p) in &rdata {
            streams.push(RefStream {
                seqs: Seqs::new(d, o, "references")?,
                present: p.as_deref(),
            });
        }
        ids::bleu_extract(h, &streams, pad_id, max_order.0, workers.0)
    })?;
    Ok(le_bytes(py, &rows)?)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bleu_ids_extract, m)?)
}
