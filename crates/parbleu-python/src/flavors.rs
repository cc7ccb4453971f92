//! Flavors binding: n-gram statistics of pre-tokenized segments or of raw lines prepared as
//! another tool does (`_core.flavor_token_stats`, `_core.flavor_line_stats`,
//! `_core.flavor_tokens`).

use crate::{le_bytes, to_py, ErrorClass, Order};
use parbleu_core::flavors::nltk::{Scratch, SentenceBleu, Smoothing};
use parbleu_core::flavors::{self, Prep};
use parbleu_core::metrics::ngram_stats::{self, FlatCorpus, SegmentStats};
use parbleu_core::parallel;
use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyFloat, PyList, PyString, PyTuple};
use std::cell::RefCell;

/// `(matches, totals, hyp_lens, ref_lens, ref_offsets)` as little-endian int64 bytes.
type StatsBytes<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
);

fn to_bytes<'py>(py: Python<'py>, s: &SegmentStats) -> PyResult<StatsBytes<'py>> {
    Ok((
        le_bytes(py, &s.matches)?,
        le_bytes(py, &s.totals)?,
        le_bytes(py, &s.hyp_lens)?,
        le_bytes(py, &s.ref_lens)?,
        le_bytes(py, &s.ref_offsets)?,
    ))
}

fn prep(py: Python<'_>, spec: (String, String, String)) -> PyResult<Prep> {
    Prep::from_names(&spec.0, &spec.1, &spec.2).map_err(|e| to_py(py, e))
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
fn flat_corpus(hyps: &Bound<'_, PyAny>, refs: &Bound<'_, PyAny>) -> PyResult<FlatCorpus> {
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
    workers: i64,
) -> PyResult<StatsBytes<'py>> {
    let max_order = max_order.0;
    let flat = flat_corpus(hyps, refs)?;
    let workers = parallel::resolve(workers);
    let s = py.detach(|| ngram_stats::stats(&flat, max_order, workers));
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
    workers: i64,
) -> PyResult<StatsBytes<'py>> {
    let max_order = max_order.0;
    let hp = prep(py, hyp_prep)?;
    let rp = prep(py, ref_prep)?;
    let workers = parallel::resolve(workers);
    // The lines' text is borrowed from the `str` objects, which `hyps`/`refs` keep alive (and
    // which are immutable) while the GIL is released.
    let hyps: Vec<&str> = hyps.iter().map(|x| x.to_str()).collect::<PyResult<_>>()?;
    let refs: Vec<Vec<&str>> = refs
        .iter()
        .map(|rs| rs.iter().map(|x| x.to_str()).collect::<PyResult<_>>())
        .collect::<PyResult<_>>()?;
    let s = py.detach(|| flavors::line_stats(&hyps, &refs, hp, rp, max_order, workers));
    to_bytes(py, &s)
}

/// The tokens of every line under a `(tokenizer, case, split)` prep.
#[pyfunction]
#[pyo3(signature = (lines, prep_spec))]
fn flavor_tokens(
    py: Python<'_>,
    lines: Vec<String>,
    prep_spec: (String, String, String),
) -> PyResult<Vec<Vec<String>>> {
    let p = prep(py, prep_spec)?;
    Ok(py.detach(|| lines.iter().map(|l| p.tokens(l)).collect()))
}

/// mteval's per-segment statistics (orders `1..=max_n`, NIST information included) of token
/// lists: `(matches, tst, refs, hyp_lens, ref_lens, ref_offsets)` as int64 bytes and
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

/// NLTK's `sentence_bleu` of `str` token lists for one weight tuple and smoothing methods 0-3
/// (`method`, `epsilon` for method1), counted and scored in one call: the `int` 0, a `float`,
/// `(float, orders)` when method0 must warn about `orders`, or `None` for inputs this path does
/// not take (other containers or tokens, no reference, a non-finite intermediate).
#[pyfunction]
#[pyo3(signature = (references, hypothesis, weights, method, epsilon, auto_reweigh))]
fn flavor_nltk_sentence_bleu<'py>(
    py: Python<'py>,
    references: &Bound<'py, PyAny>,
    hypothesis: &Bound<'py, PyAny>,
    weights: Vec<f64>,
    method: u8,
    epsilon: f64,
    auto_reweigh: bool,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let smoothing = match method {
        0 => Smoothing::Method0,
        1 => Smoothing::Method1 { epsilon },
        2 => Smoothing::Method2,
        3 => Smoothing::Method3,
        _ => return Err(ErrorClass::InvalidOption.err(py, "method must be 0, 1, 2 or 3")),
    };
    if weights.is_empty() {
        return Ok(None);
    }
    let mut g = Gathered::default();
    // SAFETY: the GIL is held and no Python code runs until `g` is dropped; the borrowed text
    // lives in objects that `references` and `hypothesis` keep alive.
    if !unsafe { g.push_segment(hypothesis.as_ptr(), references.as_ptr()) } || g.n_refs[0] == 0 {
        return Ok(None);
    }
    let (h, r) = g.tokens.split_at(g.ends[0]);
    let refs: Vec<&[&str]> = g.ends[1..]
        .iter()
        .scan(g.ends[0], |start, &end| {
            let seq = &g.tokens[*start..end];
            *start = end;
            Some(seq)
        })
        .collect();
    debug_assert_eq!(refs.iter().map(|x| x.len()).sum::<usize>(), r.len());
    let (m, t) = flavors::nltk::sentence_counts(h, &refs, weights.len());
    let ref_lens: Vec<u64> = refs.iter().map(|x| x.len() as u64).collect();
    let out = flavors::nltk::sentence_bleu(
        &m,
        &t,
        h.len() as u64,
        &ref_lens,
        &weights,
        smoothing,
        auto_reweigh,
    );
    Ok(match out {
        SentenceBleu::Zero => Some(0i64.into_pyobject(py)?.into_any()),
        SentenceBleu::Score { score, zero_orders } if zero_orders.is_empty() => {
            Some(PyFloat::new(py, score).into_any())
        }
        SentenceBleu::Score { score, zero_orders } => {
            Some((score, zero_orders).into_pyobject(py)?.into_any())
        }
        SentenceBleu::Unsupported => None,
    })
}

/// Scratch memory of the per-segment NLTK paths, kept from call to call on each thread.
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    thread_local! {
        static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
    }
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut s) => f(&mut s),
        Err(_) => f(&mut Scratch::default()),
    })
}

/// The items of an exact list or exact tuple, as borrowed pointers; `None` for anything else.
///
/// # Safety
///
/// The GIL must be held, and no Python code may run (nothing may mutate the container) while
/// the slice is used; `'a` must not outlive `obj`.
///
/// Why the callers (`Gathered`, the NLTK paths) meet this: they hold the GIL throughout (no
/// `py.detach` between gathering and the last use of the borrowed slices), and nothing in
/// between can run Python code: only exact `list`, `tuple` and `str` are taken (checked with
/// `Py_IS_TYPE`, so no subclass `__eq__`, `__hash__`, `__iter__` or `__len__`), their items
/// are read from the object structs, `PyUnicode_AsUTF8AndSize` on an exact `str` only encodes
/// and caches (a plain allocation, not a GC-tracked one, so no collection and no `__del__`),
/// and the core hashes the borrowed bytes in Rust. The borrowed tokens are last used before
/// the result objects are created. This holds only with the GIL: the module keeps PyO3's
/// default `gil_used = true`, so a free-threaded (3.13t) interpreter turns the GIL back on at
/// import (see the README); without it another thread could resize the list meanwhile.
unsafe fn borrowed_items<'a>(obj: *mut ffi::PyObject) -> Option<&'a [*mut ffi::PyObject]> {
    unsafe {
        if ffi::Py_IS_TYPE(obj, &raw mut ffi::PyList_Type) != 0 {
            let l = obj.cast::<ffi::PyListObject>();
            let n = ffi::PyList_GET_SIZE(obj) as usize;
            if n == 0 {
                return Some(&[]);
            }
            Some(std::slice::from_raw_parts((*l).ob_item, n))
        } else if ffi::Py_IS_TYPE(obj, &raw mut ffi::PyTuple_Type) != 0 {
            let t = obj.cast::<ffi::PyTupleObject>();
            let n = ffi::PyTuple_GET_SIZE(obj) as usize;
            Some(std::slice::from_raw_parts((*t).ob_item.as_ptr(), n))
        } else {
            None
        }
    }
}

/// The UTF-8 text of an exact `str`, borrowed; `None` for anything else or a `str` that has no
/// UTF-8 form (a lone surrogate; the error is cleared).
///
/// # Safety
///
/// As [`borrowed_items`]: the GIL held, `'a` not outliving the object.
unsafe fn borrowed_str<'a>(obj: *mut ffi::PyObject) -> Option<&'a str> {
    unsafe {
        if ffi::Py_IS_TYPE(obj, &raw mut ffi::PyUnicode_Type) == 0 {
            return None;
        }
        let mut size: ffi::Py_ssize_t = 0;
        let p = ffi::PyUnicode_AsUTF8AndSize(obj, &mut size);
        if p.is_null() {
            ffi::PyErr_Clear();
            return None;
        }
        let bytes = std::slice::from_raw_parts(p.cast::<u8>(), size as usize);
        Some(std::str::from_utf8_unchecked(bytes))
    }
}

/// Token sequences borrowed from Python lists and tuples of `str`.
#[derive(Default)]
struct Gathered<'a> {
    tokens: Vec<&'a str>,
    /// End of each sequence in `tokens`.
    ends: Vec<usize>,
    /// Per segment: number of references (its hypothesis sequence comes first).
    n_refs: Vec<usize>,
}

impl<'a> Gathered<'a> {
    /// Append one sequence: `false` when it is not an exact list or tuple of exact `str` with a
    /// UTF-8 form.
    ///
    /// # Safety
    ///
    /// As [`borrowed_items`].
    unsafe fn push_seq(&mut self, seq: *mut ffi::PyObject) -> bool {
        let Some(items) = (unsafe { borrowed_items(seq) }) else {
            return false;
        };
        self.tokens.reserve(items.len());
        for &x in items {
            match unsafe { borrowed_str(x) } {
                Some(t) => self.tokens.push(t),
                None => return false,
            }
        }
        self.ends.push(self.tokens.len());
        true
    }

    /// Add one segment: `false` when a container or token is not of the exact types.
    ///
    /// # Safety
    ///
    /// As [`borrowed_items`].
    unsafe fn push_segment(&mut self, hyp: *mut ffi::PyObject, refs: *mut ffi::PyObject) -> bool {
        let Some(refs) = (unsafe { borrowed_items(refs) }) else {
            return false;
        };
        if !unsafe { self.push_seq(hyp) } {
            return false;
        }
        for &r in refs {
            if !unsafe { self.push_seq(r) } {
                return false;
            }
        }
        self.n_refs.push(refs.len());
        true
    }

    /// GLEU of the segments gathered.
    fn corpus_gleu(&self, min_len: usize, max_len: usize) -> f64 {
        let strs = &self.tokens;
        let seqs: Vec<&[&str]> = (0..self.ends.len())
            .map(|k| &strs[if k == 0 { 0 } else { self.ends[k - 1] }..self.ends[k]])
            .collect();
        let mut at = 0;
        let segments = self.n_refs.iter().map(|&n| {
            let seg = (seqs[at], &seqs[at + 1..at + 1 + n]);
            at += 1 + n;
            seg
        });
        with_scratch(|s| flavors::nltk::corpus_gleu(s, segments, min_len, max_len))
    }
}

fn check_gleu_orders(py: Python<'_>, min_len: usize, max_len: usize) -> PyResult<()> {
    if min_len < 1 || max_len < min_len || max_len > parbleu_core::error::MAX_ORDER {
        return Err(ErrorClass::InvalidOption.err(
            py,
            format!(
                "need 1 <= min_len <= max_len <= {}",
                parbleu_core::error::MAX_ORDER
            ),
        ));
    }
    Ok(())
}

/// NLTK's `sentence_gleu` of `str` token lists (`1 <= min_len <= max_len`), or `None` for
/// inputs this path does not take (other containers or tokens, no reference).
#[pyfunction]
#[pyo3(signature = (references, hypothesis, min_len, max_len))]
fn flavor_nltk_sentence_gleu(
    references: &Bound<'_, PyAny>,
    hypothesis: &Bound<'_, PyAny>,
    min_len: usize,
    max_len: usize,
) -> PyResult<Option<f64>> {
    check_gleu_orders(references.py(), min_len, max_len)?;
    let mut g = Gathered::default();
    // SAFETY: the GIL is held and no Python code runs until `g` is dropped; the borrowed text
    // lives in objects that `references` and `hypothesis` keep alive.
    if !unsafe { g.push_segment(hypothesis.as_ptr(), references.as_ptr()) } || g.n_refs[0] == 0 {
        return Ok(None);
    }
    Ok(Some(g.corpus_gleu(min_len, max_len)))
}

/// NLTK's `corpus_gleu` of `str` token lists (`1 <= min_len <= max_len`; as many reference
/// lists as hypotheses), or `None` for inputs this path does not take (other containers or
/// tokens).
#[pyfunction]
#[pyo3(signature = (list_of_references, hypotheses, min_len, max_len))]
fn flavor_nltk_corpus_gleu(
    list_of_references: &Bound<'_, PyAny>,
    hypotheses: &Bound<'_, PyAny>,
    min_len: usize,
    max_len: usize,
) -> PyResult<Option<f64>> {
    check_gleu_orders(hypotheses.py(), min_len, max_len)?;
    // SAFETY: the GIL is held and no Python code runs until `g` is dropped; the borrowed items
    // and text live in objects that the two arguments keep alive.
    let (Some(hyps), Some(refs)) = (unsafe { borrowed_items(hypotheses.as_ptr()) }, unsafe {
        borrowed_items(list_of_references.as_ptr())
    }) else {
        return Ok(None);
    };
    if hyps.len() != refs.len() {
        return Err(ErrorClass::LengthMismatch.err(
            hypotheses.py(),
            "as many reference lists as hypotheses needed",
        ));
    }
    let mut g = Gathered::default();
    for (&h, &r) in hyps.iter().zip(refs) {
        if !unsafe { g.push_segment(h, r) } {
            return Ok(None);
        }
    }
    Ok(Some(g.corpus_gleu(min_len, max_len)))
}

/// NLTK's `sentence_chrf` of two `str` (`1 <= min_len <= max_len`), given `factor`, Python's
/// `beta**2` (a float, or an integer exactly representable as one), or `None` when a string
/// holds a lone surrogate.
#[pyfunction]
#[pyo3(signature = (reference, hypothesis, min_len, max_len, factor, ignore_whitespace))]
fn flavor_nltk_sentence_chrf(
    reference: &Bound<'_, PyString>,
    hypothesis: &Bound<'_, PyString>,
    min_len: usize,
    max_len: usize,
    factor: f64,
    ignore_whitespace: bool,
) -> PyResult<Option<f64>> {
    if min_len < 1 || max_len < min_len || max_len > parbleu_core::error::MAX_ORDER {
        return Err(ErrorClass::InvalidOption.err(
            reference.py(),
            format!(
                "need 1 <= min_len <= max_len <= {}",
                parbleu_core::error::MAX_ORDER
            ),
        ));
    }
    let (Ok(r), Ok(h)) = (reference.to_str(), hypothesis.to_str()) else {
        return Ok(None);
    };
    Ok(Some(with_scratch(|s| {
        flavors::nltk::sentence_chrf(s, r, h, min_len, max_len, factor, ignore_whitespace)
    })))
}

/// The dict HuggingFace's `compute` returns.
fn hf_dict(py: Python<'_>, r: Option<flavors::hf::HfBleu>) -> PyResult<Bound<'_, PyDict>> {
    let r = r.ok_or_else(|| {
        ErrorClass::InvalidOption.err(py, "a segment without references, or max_order 0")
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
) -> PyResult<Bound<'py, PyDict>> {
    let refs: Vec<&str> = references
        .iter()
        .map(|x| x.to_str())
        .collect::<PyResult<_>>()?;
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
    workers: i64,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let hyps: Vec<&str> = predictions
        .iter()
        .map(|x| x.to_str())
        .collect::<PyResult<_>>()?;
    let refs: Vec<Vec<&str>> = references
        .iter()
        .map(|rs| rs.iter().map(|x| x.to_str()).collect::<PyResult<_>>())
        .collect::<PyResult<_>>()?;
    if refs.len() != hyps.len() {
        return Err(
            ErrorClass::LengthMismatch.err(py, "as many reference lists as predictions expected")
        );
    }
    let workers = parallel::resolve(workers);
    let out = py.detach(|| flavors::hf::sentence_bleus(&hyps, &refs, max_order, smooth, workers));
    out.into_iter().map(|r| hf_dict(py, r)).collect()
}

/// Add the flavor functions to the extension module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(flavor_token_stats, m)?)?;
    m.add_function(wrap_pyfunction!(flavor_token_stats_lists, m)?)?;
    m.add_function(wrap_pyfunction!(flavor_line_stats, m)?)?;
    m.add_function(wrap_pyfunction!(flavor_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(flavor_mteval_stats, m)?)?;
    m.add_function(wrap_pyfunction!(flavor_fairseq_stats, m)?)?;
    m.add_function(wrap_pyfunction!(flavor_nltk_sentence_bleu, m)?)?;
    m.add_function(wrap_pyfunction!(flavor_nltk_sentence_gleu, m)?)?;
    m.add_function(wrap_pyfunction!(flavor_nltk_corpus_gleu, m)?)?;
    m.add_function(wrap_pyfunction!(flavor_nltk_sentence_chrf, m)?)?;
    m.add_function(wrap_pyfunction!(flavor_hf_sentence_bleu, m)?)?;
    m.add_function(wrap_pyfunction!(flavor_hf_sentence_bleus, m)?)?;
    Ok(())
}
