//! NLTK binding: `_core.flavor_nltk_sentence_bleu`, `_nltk_sentence_gleu`,
//! `_nltk_corpus_gleu`, `_nltk_sentence_chrf`: token lists borrowed straight from Python
//! lists and tuples (no copy, no conversion objects) into the core's [`TokenSegments`].

use crate::error::{ErrorClass, Result};
use parbleu_core::flavors::nltk::{self, SentenceBleu, Smoothing};
use parbleu_core::flavors::token_segments::{check_orders, with_scratch, TokenSegments};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyString};

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
) -> Result<Option<Bound<'py, PyAny>>> {
    let smoothing = match method {
        0 => Smoothing::Method0,
        1 => Smoothing::Method1 { epsilon },
        2 => Smoothing::Method2,
        3 => Smoothing::Method3,
        _ => return Err(ErrorClass::InvalidOption.err("method must be 0, 1, 2 or 3")),
    };
    if weights.is_empty() {
        return Ok(None);
    }
    let Some(g) = gather_one(references, hypothesis) else {
        return Ok(None);
    };
    let (h, refs) = g.first();
    let (m, t) = nltk::sentence_counts(h, &refs, weights.len());
    let ref_lens: Vec<u64> = refs.iter().map(|x| x.len() as u64).collect();
    let out = nltk::sentence_bleu(
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

/// The items of an exact list or exact tuple, as borrowed pointers; `None` for anything else.
///
/// # Safety
///
/// The GIL must be held, and no Python code may run (nothing may mutate the container) while
/// the slice is used; `'a` must not outlive `obj`.
///
/// Why the callers (the `push_*` functions, the NLTK paths) meet this: they hold the GIL throughout (no
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

/// Append one sequence to `t`: `false` when it is not an exact list or tuple of exact `str`
/// with a UTF-8 form.
///
/// # Safety
///
/// As [`borrowed_items`].
unsafe fn push_seq<'a>(t: &mut TokenSegments<'a>, seq: *mut ffi::PyObject) -> bool {
    let Some(items) = (unsafe { borrowed_items(seq) }) else {
        return false;
    };
    t.reserve(items.len());
    for &x in items {
        match unsafe { borrowed_str(x) } {
            Some(s) => t.push_token(s),
            None => return false,
        }
    }
    t.end_sequence();
    true
}

/// Add one segment to `t`: `false` when a container or token is not of the exact types.
///
/// # Safety
///
/// As [`borrowed_items`].
unsafe fn push_segment<'a>(
    t: &mut TokenSegments<'a>,
    hyp: *mut ffi::PyObject,
    refs: *mut ffi::PyObject,
) -> bool {
    let Some(refs) = (unsafe { borrowed_items(refs) }) else {
        return false;
    };
    if !unsafe { push_seq(t, hyp) } {
        return false;
    }
    for &r in refs {
        if !unsafe { push_seq(t, r) } {
            return false;
        }
    }
    t.end_segment(refs.len());
    true
}

/// One segment's token lists, borrowed; `None` for inputs the fast paths do not take (other
/// containers or tokens, no reference).
fn gather_one<'a>(
    references: &'a Bound<'_, PyAny>,
    hypothesis: &'a Bound<'_, PyAny>,
) -> Option<TokenSegments<'a>> {
    let mut g = TokenSegments::default();
    // SAFETY: the GIL is held (the `Bound`s prove it) and no Python code runs while `g` is
    // used; the borrowed text lives in objects that `references` and `hypothesis` keep alive
    // for `'a`.
    let ok = unsafe { push_segment(&mut g, hypothesis.as_ptr(), references.as_ptr()) };
    (ok && g.refs_of(0) > 0).then_some(g)
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
) -> Result<Option<f64>> {
    check_orders(min_len, max_len)?;
    Ok(gather_one(references, hypothesis).map(|g| g.corpus_gleu(min_len, max_len)))
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
) -> Result<Option<f64>> {
    check_orders(min_len, max_len)?;
    // SAFETY: the GIL is held and no Python code runs until `g` is dropped; the borrowed items
    // and text live in objects that the two arguments keep alive.
    let (Some(hyps), Some(refs)) = (unsafe { borrowed_items(hypotheses.as_ptr()) }, unsafe {
        borrowed_items(list_of_references.as_ptr())
    }) else {
        return Ok(None);
    };
    if hyps.len() != refs.len() {
        return Err(ErrorClass::LengthMismatch.err("as many reference lists as hypotheses needed"));
    }
    let mut g = TokenSegments::default();
    for (&h, &r) in hyps.iter().zip(refs) {
        if !unsafe { push_segment(&mut g, h, r) } {
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
) -> Result<Option<f64>> {
    check_orders(min_len, max_len)?;
    let (Ok(r), Ok(h)) = (reference.to_str(), hypothesis.to_str()) else {
        return Ok(None);
    };
    Ok(Some(with_scratch(|s| {
        nltk::sentence_chrf(s, r, h, min_len, max_len, factor, ignore_whitespace)
    })))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(flavor_nltk_sentence_bleu, m)?)?;
    m.add_function(wrap_pyfunction!(flavor_nltk_sentence_gleu, m)?)?;
    m.add_function(wrap_pyfunction!(flavor_nltk_corpus_gleu, m)?)?;
    m.add_function(wrap_pyfunction!(flavor_nltk_sentence_chrf, m)?)
}
