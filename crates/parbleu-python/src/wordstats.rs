//! The report's word-level statistics (`parbleu.reporting._words`):
//! `_core.report_word_stats`.

use crate::convert::le_bytes;
use crate::error::Result;
use crate::named::Named;
use crate::options::Order;
use crate::parallel::Workers;
use parbleu_core::tokenize::Tokenizer;
use parbleu_core::wordstats;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Per order: `(first, ref_counts, matched)` as int64 bytes.
type OrderBytes<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
);

/// `(vocab, ids, seg_lens, seg_matched, orders)`.
type WordStatsOut<'py> = (
    Vec<String>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Vec<OrderBytes<'py>>,
);

/// Clipped n-gram matches of systems against a reference stream (`corpora[0]`), tokenized as
/// BLEU tokenizes: `(vocab, ids, seg_lens, seg_matched, orders)`, arrays as int64 bytes.
#[pyfunction]
#[pyo3(signature = (corpora, tokenizer_name, lowercase, max_order, workers))]
fn report_word_stats<'py>(
    py: Python<'py>,
    corpora: Vec<Vec<String>>,
    tokenizer_name: Named<Tokenizer>,
    lowercase: bool,
    max_order: Order,
    workers: Workers,
) -> Result<WordStatsOut<'py>> {
    let tok = tokenizer_name.0;
    let ws = py.detach(|| {
        let lines: Vec<Vec<&str>> = corpora
            .iter()
            .map(|c| c.iter().map(String::as_str).collect())
            .collect();
        wordstats::word_stats(&lines, tok, lowercase, max_order.0, workers.0)
    })?;
    let orders = ws
        .orders
        .iter()
        .map(|o| {
            Ok((
                le_bytes(py, &o.first)?,
                le_bytes(py, &o.ref_counts)?,
                le_bytes(py, &o.matched)?,
            ))
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok((
        ws.vocab,
        le_bytes(py, &ws.ids)?,
        le_bytes(py, &ws.seg_lens)?,
        le_bytes(py, &ws.seg_matched)?,
        orders,
    ))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(report_word_stats, m)?)
}
