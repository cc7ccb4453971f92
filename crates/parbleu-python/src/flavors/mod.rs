//! Flavors binding, module for module as the core's `flavors`: here n-gram statistics of
//! pre-tokenized segments or of raw lines prepared as another tool does
//! (`_core.flavor_token_stats`, `_core.flavor_line_stats`, `_core.flavor_tokens`); NLTK,
//! HuggingFace, mteval (NIST) and fairseq in their own files.

mod fairseq;
mod hf;
mod nist;
mod nltk;
mod nltk_meteor;

use crate::convert::{le_bytes, str_lists, strs};
use crate::error::Result;
use crate::options::Order;
use crate::parallel::Workers;
use parbleu_core::flavors::{self, Prep};
use parbleu_core::metrics::ngram_stats::{self, FlatCorpus, SegmentStats};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};

/// `(matches, totals, hyp_lens, ref_lens, ref_offsets)` as little-endian int64 bytes.
pub(crate) type StatsBytes<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
);

pub(crate) fn to_bytes<'py>(py: Python<'py>, s: &SegmentStats) -> PyResult<StatsBytes<'py>> {
    Ok((
        le_bytes(py, &s.matches)?,
        le_bytes(py, &s.totals)?,
        le_bytes(py, &s.hyp_lens)?,
        le_bytes(py, &s.ref_lens)?,
        le_bytes(py, &s.ref_offsets)?,
    ))
}

fn prep(spec: (String, String, String)) -> Result<Prep> {
    Ok(Prep::from_names(&spec.0, &spec.1, &spec.2)?)
}

/// Call `f` on every item of a list, tuple or other iterable (lists and tuples without the
/// iterator protocol).
fn for_each_item<'py>(
    obj: &Bound<'py, PyAny>,
    mut f: impl FnMut(&Bound<'py, PyAny>) -> PyResult<()>,
) -> PyResult<()> {
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "a str where a sequence of tokens is expected",
        ));
    }
    if let Ok(l) = obj.cast::<PyList>() {
        for x in l.iter() {
            f(&x)?;
        }
    } else if let Ok(t) = obj.cast::<PyTuple>() {
        for x in t.iter() {
            f(&x)?;
        }
    } else {
        for x in obj.try_iter()? {
            f(&x?)?;
        }
    }
    Ok(())
}

fn push_sequence(flat: &mut FlatCorpus, seq: &Bound<'_, PyAny>) -> PyResult<()> {
    for_each_item(seq, |t| {
        let s = t
            .cast::<PyString>()
            .map_err(|_| PyTypeError::new_err("a token that is not a str"))?;
        flat.push_token(s.to_str()?);
        Ok(())
    })?;
    flat.end_sequence();
    Ok(())
}

/// Hypothesis token lists and, per hypothesis, reference token lists, stored back to back.
pub(crate) fn flat_corpus(
    hyps: &Bound<'_, PyAny>,
    refs: &Bound<'_, PyAny>,
) -> PyResult<FlatCorpus> {
    let mut flat = FlatCorpus::default();
    let mut ref_iter = refs.try_iter()?;
    for_each_item(hyps, |h| {
        let rs = ref_iter
            .next()
            .ok_or_else(|| PyTypeError::new_err("fewer reference lists than hypotheses"))??;
        push_sequence(&mut flat, h)?;
        for_each_item(&rs, |r| push_sequence(&mut flat, r))?;
        flat.end_segment();
        Ok(())
    })?;
    Ok(flat)
}

/// Statistics of token lists: `refs[i]` are the references (token lists) of `hyps[i]`.
///
/// Raises `TypeError` when a token is not a `str` or a token list is a `str` (the Python layer
/// then maps tokens to strings itself).
#[pyfunction]
#[pyo3(signature = (hyps, refs, max_order, workers))]
fn flavor_token_stats<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    max_order: Order,
    workers: Workers,
) -> PyResult<StatsBytes<'py>> {
    let flat = flat_corpus(hyps, refs)?;
    let s = py.detach(|| ngram_stats::stats(&flat, max_order.0, workers.0));
    to_bytes(py, &s)
}

/// Per-segment lists, for a few segments: `(matches, totals, hyp_lens, ref_lens)` with one
/// list per segment for `matches`, `totals` and `ref_lens`.
type StatsLists = (Vec<Vec<u64>>, Vec<Vec<u64>>, Vec<u64>, Vec<Vec<u64>>);

/// [`flavor_token_stats`] for a handful of segments (sentence scores), as Python lists:
/// cheaper than bytes and arrays at that size. Serial.
#[pyfunction]
#[pyo3(signature = (hyps, refs, max_order))]
fn flavor_token_stats_lists(
    hyps: &Bound<'_, PyAny>,
    refs: &Bound<'_, PyAny>,
    max_order: Order,
) -> PyResult<StatsLists> {
    let max_order = max_order.0;
    let flat = flat_corpus(hyps, refs)?;
    let s = ngram_stats::stats(&flat, max_order, 1);
    let rows = |v: &[u64]| -> Vec<Vec<u64>> {
        if max_order == 0 {
            vec![Vec::new(); s.len()]
        } else {
            v.chunks(max_order).map(<[u64]>::to_vec).collect()
        }
    };
    let refs = (0..s.len()).map(|i| s.refs_of(i).to_vec()).collect();
    Ok((rows(&s.matches), rows(&s.totals), s.hyp_lens.clone(), refs))
}

/// Statistics of raw lines: `refs[i]` are the reference lines of `hyps[i]`; each prep is a
/// `(tokenizer, case, split)` triple of names (see `parbleu_core::flavors::Prep::from_names`).
#[pyfunction]
#[pyo3(signature = (hyps, refs, hyp_prep, ref_prep, max_order, workers))]
fn flavor_line_stats<'py>(
    py: Python<'py>,
    hyps: Vec<Bound<'py, PyString>>,
    refs: Vec<Vec<Bound<'py, PyString>>>,
    hyp_prep: (String, String, String),
    ref_prep: (String, String, String),
    max_order: Order,
    workers: Workers,
) -> Result<StatsBytes<'py>> {
    let hp = prep(hyp_prep)?;
    let rp = prep(ref_prep)?;
    // The lines' text is borrowed from the `str` objects, which `hyps`/`refs` keep alive (and
    // which are immutable) while the GIL is released.
    let hyps = strs(&hyps)?;
    let refs = str_lists(&refs)?;
    let s = py.detach(|| flavors::line_stats(&hyps, &refs, hp, rp, max_order.0, workers.0));
    Ok(to_bytes(py, &s)?)
}

/// The tokens of every line under a `(tokenizer, case, split)` prep.
#[pyfunction]
#[pyo3(signature = (lines, prep_spec))]
fn flavor_tokens(
    py: Python<'_>,
    lines: Vec<String>,
    prep_spec: (String, String, String),
) -> Result<Vec<Vec<String>>> {
    let p = prep(prep_spec)?;
    Ok(py.detach(|| lines.iter().map(|l| p.tokens(l)).collect()))
}

/// Add the flavor functions to the extension module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(flavor_token_stats, m)?)?;
    m.add_function(wrap_pyfunction!(flavor_token_stats_lists, m)?)?;
    m.add_function(wrap_pyfunction!(flavor_line_stats, m)?)?;
    m.add_function(wrap_pyfunction!(flavor_tokens, m)?)?;
    nist::register(m)?;
    fairseq::register(m)?;
    nltk::register(m)?;
    nltk_meteor::register(m)?;
    hf::register(m)
}
