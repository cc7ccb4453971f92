//! PyO3 binding of parbleu-core: conversion, GIL release, error mapping. Nothing else.

mod caption;
mod chrf;
mod flavors;
mod options;
mod pairwise;
mod refs;
mod report;
mod significance;
mod ter;

use options::BleuOptions;
use parbleu_core::metrics::bleu::{self, BleuExtract, BleuScoreOpts, PreparedRefs, Smooth};
use parbleu_core::tokenize::Tokenizer;
use parbleu_core::Error;
use parbleu_core::{interrupt, parallel};
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyString, PyTuple};
use refs::{ref_set, Streams};

/// An n-gram order argument: `0..=MAX_ORDER`, checked before the core allocates anything
/// sized by it (the Python layer checks first, with each option's own minimum).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Order(pub usize);

impl<'py> FromPyObject<'_, 'py> for Order {
    type Error = PyErr;

    fn extract(ob: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        let py = ob.py();
        let n = match ob.extract::<i64>() {
            Ok(n) => u64::try_from(n).unwrap_or(u64::MAX),
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(py) => u64::MAX,
            Err(e) => return Err(e),
        };
        parbleu_core::error::check_order("n-gram order", n)
            .map(Order)
            .map_err(|_| {
                let shown = ob.repr().map_or_else(|_| "?".into(), |r| r.to_string());
                to_py(
                    py,
                    Error::InvalidOption {
                        name: "n-gram order".into(),
                        value: shown,
                        expected: format!(
                            "an integer from 0 to {}",
                            parbleu_core::error::MAX_ORDER
                        ),
                    },
                )
            })
    }
}

/// Map a core error to the matching exception class of `parbleu.errors`.
pub(crate) fn to_py(py: Python<'_>, e: Error) -> PyErr {
    let cls = match e {
        Error::InvalidOption { .. } => ErrorClass::InvalidOption,
        Error::LengthMismatch { .. } => ErrorClass::LengthMismatch,
        Error::BadStatsShape { .. } => ErrorClass::Statistics,
    };
    cls.err(py, e.to_string())
}

/// The classes of `parbleu.errors` the binding raises: every error it raises on purpose is one
/// of these (never a bare `ValueError`), with the message the Python layer gives for it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ErrorClass {
    InvalidOption,
    LengthMismatch,
    Statistics,
}

impl ErrorClass {
    fn name(self) -> &'static str {
        match self {
            ErrorClass::InvalidOption => "InvalidOptionError",
            ErrorClass::LengthMismatch => "LengthMismatchError",
            ErrorClass::Statistics => "StatisticsError",
        }
    }

    /// The exception of this class with `msg`; if `parbleu.errors` cannot be imported (a
    /// broken install), that import error instead.
    pub(crate) fn err(self, py: Python<'_>, msg: impl Into<String>) -> PyErr {
        static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
        let msg = msg.into();
        match ERRORS
            .get_or_try_init(py, || py.import("parbleu.errors").map(Bound::unbind))
            .and_then(|m| m.bind(py).getattr(self.name()))
            .and_then(|c| c.call1((msg,)))
        {
            Ok(exc) => PyErr::from_value(exc),
            Err(e) => e,
        }
    }
}

pub(crate) fn tokenizer(py: Python<'_>, name: &str) -> PyResult<Tokenizer> {
    Tokenizer::from_name(name).map_err(|e| to_py(py, e))
}

/// Tokenize lines as SacreBLEU's BLEU does: optional `lower()`, `rstrip()`, tokenizer.
#[pyfunction]
#[pyo3(signature = (name, lines, lowercase=false))]
fn tokenize(
    py: Python<'_>,
    name: &str,
    lines: Vec<String>,
    lowercase: bool,
) -> PyResult<Vec<String>> {
    let tok = tokenizer(py, name)?;
    Ok(py.detach(|| lines.iter().map(|l| tok.preprocess(l, lowercase)).collect()))
}

/// References of a corpus, preprocessed once and reusable across systems.
#[pyclass(module = "parbleu._core", frozen)]
struct BleuRefs {
    cfg: BleuExtract,
    refs: PreparedRefs,
}

impl BleuRefs {
    /// Run `f(hyps, segments, pairs)` for blocks of pairs with the GIL released, checking for
    /// Ctrl-C between blocks, and put the `width` results of each pair at its index; sums
    /// the counts `f` returns. Where segments share references, the pairs are taken in the
    /// grouped order of the whole input ([`PreparedRefs::grouped_order`]), so that blocks do
    /// not cut groups (a million-pair batch: 16 blocks cost 10-25% over one).
    fn in_pairs<T: Copy + Default + Send>(
        &self,
        py: Python<'_>,
        hyps: &[Bound<'_, PyString>],
        width: usize,
        f: impl Fn(&[&str], &[bleu::RefSegment], bleu::Pairs<'_>) -> Result<(Vec<T>, usize), Error>
            + Sync,
    ) -> PyResult<(Vec<T>, usize)> {
        let segs = &self.refs.segments;
        let hyps = borrow_hyps(py, hyps, segs.len())?;
        let n = hyps.len();
        let order = self.refs.grouped_order();
        let mut out = Vec::new();
        let mut count = 0;
        for start in (0..n).step_by(BLOCK) {
            let end = (start + BLOCK).min(n);
            let pairs = match order {
                Some(o) => bleu::Pairs::List(&o[start..end]),
                None => bleu::Pairs::Range(start, end),
            };
            let c = py
                .detach(|| -> Result<usize, Error> {
                    let (r, c) = f(&hyps, segs, pairs)?;
                    match pairs {
                        bleu::Pairs::Range(..) if out.is_empty() => out = r,
                        bleu::Pairs::Range(..) => out.extend_from_slice(&r),
                        bleu::Pairs::List(l) => {
                            if out.is_empty() {
                                out = vec![T::default(); n * width];
                            }
                            for (k, &i) in l.iter().enumerate() {
                                let i = i as usize;
                                out[i * width..(i + 1) * width]
                                    .copy_from_slice(&r[k * width..(k + 1) * width]);
                            }
                        }
                    }
                    Ok(c)
                })
                .map_err(|e| to_py(py, e))?;
            count += c;
            py.check_signals()?;
        }
        Ok((out, count))
    }
}

#[pymethods]
impl BleuRefs {
    /// `streams`: reference streams (each one string or None per segment), all the same length;
    /// `options`: the metric's `BleuOptions` (its extraction part is used).
    #[new]
    #[pyo3(signature = (streams, options, workers))]
    fn new(
        py: Python<'_>,
        streams: Streams<'_>,
        options: &BleuOptions,
        workers: i64,
    ) -> PyResult<Self> {
        let cfg = options.extract;
        let workers = parallel::resolve(workers);
        let set = ref_set(py, &streams)?;
        let refs = py.detach(|| PreparedRefs::from_set(&cfg, set, workers));
        Ok(BleuRefs { cfg, refs })
    }

    fn __len__(&self) -> usize {
        self.refs.segments.len()
    }

    /// Distinct reference counts per segment (sorted).
    fn ref_counts(&self) -> Vec<u32> {
        self.refs.index().ref_counts()
    }

    /// Number of distinct reference segments (identical ones share one preparation).
    fn distinct_segments(&self) -> usize {
        self.refs.distinct()
    }

    /// Index of the first segment without any reference, if there is one.
    fn first_segment_without_refs(&self) -> Option<usize> {
        self.refs.index().first_segment_without_refs()
    }

    /// Statistics rows as little-endian int64 bytes, and the count of lines ending in " .".
    fn extract<'py>(
        &self,
        py: Python<'py>,
        hyps: Vec<Bound<'py, PyString>>,
        workers: i64,
    ) -> PyResult<(Bound<'py, PyBytes>, usize)> {
        let w = parallel::resolve(workers);
        let (rows, tok) = self.in_pairs(py, &hyps, self.cfg.width(), |h, segs, pairs| {
            bleu::extract_pairs(&self.cfg, h, segs, pairs, w)
        })?;
        Ok((le_bytes(py, &rows)?, tok))
    }

    /// Sentence BLEU of every hypothesis as little-endian float64 bytes (the rows of `extract`
    /// scored in place) with the finalize options of `options`, and the count of lines ending
    /// in " .".
    fn sentence_scores<'py>(
        &self,
        py: Python<'py>,
        hyps: Vec<Bound<'py, PyString>>,
        options: &BleuOptions,
        workers: i64,
    ) -> PyResult<(Bound<'py, PyBytes>, usize)> {
        let o = BleuScoreOpts {
            max_order: self.cfg.max_order,
            ..options.score
        };
        let w = parallel::resolve(workers);
        let (scores, tok) = self.in_pairs(py, &hyps, 1, |h, segs, pairs| {
            bleu::sentence_scores_pairs(&self.cfg, h, segs, pairs, &o, w)
        })?;
        Ok((le_bytes(py, &scores)?, tok))
    }
}

/// The UTF-8 text of every hypothesis, borrowed (not copied: converting while holding the
/// GIL is serial time); an error unless there are `expected` of them.
pub(crate) fn borrow_hyps<'a>(
    py: Python<'_>,
    hyps: &'a [Bound<'_, PyString>],
    expected: usize,
) -> PyResult<Vec<&'a str>> {
    let hyps: Vec<&str> = hyps.iter().map(|h| h.to_str()).collect::<PyResult<_>>()?;
    if hyps.len() != expected {
        let e = Error::LengthMismatch {
            what: "hypotheses vs references".into(),
            expected,
            found: hyps.len(),
        };
        return Err(to_py(py, e));
    }
    Ok(hyps)
}

/// The interrupt hook: Ctrl-C seen (its `KeyboardInterrupt` is left set on this thread).
fn ctrl_c_pressed() -> bool {
    Python::attach(|py| match py.check_signals() {
        Ok(()) => false,
        Err(e) => {
            e.restore(py);
            true
        }
    })
}

/// Run `f` with the GIL released where long single items stop on Ctrl-C
/// ([`parbleu_core::interrupt`]); a stopped run's result is dropped and the interrupt raised.
pub(crate) fn interruptible<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    let guard = interrupt::Guard::new();
    let out = py.detach(f);
    if guard.stopped() {
        // The hook left KeyboardInterrupt set on the thread that saw it; a concurrent call
        // stopped by it raises one of its own.
        return Err(PyErr::take(py)
            .unwrap_or_else(|| pyo3::exceptions::PyKeyboardInterrupt::new_err("interrupted")));
    }
    Ok(out)
}

/// Run `f(start, block)` over the hypotheses `block_len` at a time with the GIL released,
/// checking for Ctrl-C between blocks; concatenates the outputs and sums the counts `f`
/// returns beside them. `expected` is the number of reference segments.
pub(crate) fn in_blocks<T: Send + Clone>(
    py: Python<'_>,
    hyps: &[Bound<'_, PyString>],
    expected: usize,
    block_len: usize,
    f: impl Fn(usize, &[&str]) -> Result<(Vec<T>, usize), Error> + Sync,
) -> PyResult<(Vec<T>, usize)> {
    let hyps = borrow_hyps(py, hyps, expected)?;
    let mut out = Vec::with_capacity(hyps.len());
    let mut count = 0;
    for start in (0..hyps.len()).step_by(block_len) {
        let block = &hyps[start..(start + block_len).min(hyps.len())];
        let (r, c) = interruptible(py, || f(start, block))?.map_err(|e| to_py(py, e))?;
        out.extend_from_slice(&r);
        count += c;
        py.check_signals()?;
    }
    Ok((out, count))
}

/// Numbers written as 8 little-endian bytes.
pub(crate) trait LeBytes: Copy {
    fn le(self) -> [u8; 8];
}

impl LeBytes for i64 {
    fn le(self) -> [u8; 8] {
        self.to_le_bytes()
    }
}

// Counts: the same bytes as the int64 Python reads them as (all are below 2**63).
impl LeBytes for u64 {
    fn le(self) -> [u8; 8] {
        self.to_le_bytes()
    }
}

impl LeBytes for f64 {
    fn le(self) -> [u8; 8] {
        self.to_le_bytes()
    }
}

/// `values` as little-endian bytes, written straight into a new bytes object.
pub(crate) fn le_bytes<'py, T: LeBytes>(
    py: Python<'py>,
    values: &[T],
) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_with(py, values.len() * 8, |buf| {
        for (c, &v) in buf.chunks_exact_mut(8).zip(values) {
            c.copy_from_slice(&v.le());
        }
        Ok(())
    })
}

/// Segments processed per GIL release; small enough that Ctrl-C is seen within a second.
const BLOCK: usize = 1 << 16;

/// Scores of every row of an int64 statistics matrix (C-contiguous buffer), as float64 bytes.
#[pyfunction]
#[pyo3(signature = (rows, width, options, workers))]
fn bleu_scores<'py>(
    py: Python<'py>,
    rows: PyBuffer<i64>,
    width: usize,
    options: &BleuOptions,
    workers: i64,
) -> PyResult<Bound<'py, PyBytes>> {
    let o = options.score;
    if width != 2 + 2 * o.max_order {
        return Err(to_py(
            py,
            Error::BadStatsShape {
                expected: 2 + 2 * o.max_order,
                found: width,
            },
        ));
    }
    let data = rows.to_vec(py)?;
    let workers = parallel::resolve(workers);
    let out = py.detach(|| bleu::finalize_many(&data, width, &o, workers));
    le_bytes(py, &out)
}

/// One segment's BLEU in one call (the `sentence_score` loop): the statistics row, and the
/// score, precisions and brevity penalty of `finalize` (`None` for add-k smoothing, whose
/// counts SacreBLEU exposes as modified numbers: the caller computes those).
#[pyfunction]
#[pyo3(signature = (hyp, refs, options))]
#[allow(clippy::type_complexity)]
fn bleu_sentence(
    hyp: &str,
    refs: Vec<Bound<'_, PyString>>,
    options: &BleuOptions,
) -> PyResult<(Vec<i64>, Option<(f64, Vec<f64>, f64)>)> {
    let refs: Vec<&str> = refs.iter().map(|r| r.to_str()).collect::<PyResult<_>>()?;
    let row = bleu::sentence_row(&options.extract, hyp, &refs);
    let o = options.score;
    let scored = (!matches!(o.smooth, Smooth::AddK(_))).then(|| {
        let s = bleu::finalize(&row, &o);
        (s.score, s.precisions, s.bp)
    });
    Ok((row, scored))
}

/// `BLEU.compute_bleu` through the core's one finalize: the score, precisions, brevity
/// penalty, and the orders the precision loop visited (add-k added k to the counts of orders
/// `2..=` that; the caller adds it to its own lists, whose number types are SacreBLEU's).
/// The order is `len(correct)`. Python calls this only for counts that are exact in a float
/// (integers below 2**52), where the core's arithmetic is SacreBLEU's operation for operation.
#[pyfunction]
#[pyo3(signature = (correct, total, sys_len, ref_len, smooth_method, smooth_value, effective_order))]
fn bleu_finalize(
    correct: Vec<f64>,
    total: Vec<f64>,
    sys_len: f64,
    ref_len: f64,
    smooth_method: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
) -> PyResult<(f64, Vec<f64>, f64, usize)> {
    // Attached already (a Python function); taking `py` as well would be an eighth argument.
    let err = |e| Python::attach(|py| to_py(py, e));
    let n = correct.len();
    if total.len() != n {
        let e = Error::LengthMismatch {
            what: "total vs correct (one count per n-gram order)".into(),
            expected: n,
            found: total.len(),
        };
        return Err(err(e));
    }
    parbleu_core::error::check_order("max_ngram_order", n as u64).map_err(err)?;
    let o = BleuScoreOpts {
        smooth: Smooth::from_name(smooth_method, smooth_value).map_err(err)?,
        effective_order,
        max_order: n,
    };
    let mut row = Vec::with_capacity(2 + 2 * n);
    row.extend([sys_len, ref_len]);
    row.extend(correct);
    row.extend(total);
    let s = bleu::finalize(&row, &o);
    Ok((s.score, s.precisions, s.bp, s.orders_visited))
}

/// Number of logical cores the thread pools use for `workers=-1`.
#[pyfunction]
fn available_workers() -> usize {
    parallel::available()
}

/// Sets how BLEU's log sum (and NLTK chrF's sum over orders) adds floats: as CPython >= 3.12's
/// `sum()` (`True`, compensated) or as CPython <= 3.11's; returns the previous setting. Set at
/// import from the running interpreter; the golden tests set it to the goldens' interpreter.
#[pyfunction]
fn set_compensated_sum(on: bool) -> bool {
    let was = parbleu_core::pysum::compensated();
    parbleu_core::pysum::set_compensated(on);
    was
}

/// `sum([my_log(p) for p in precisions])` as SacreBLEU's `compute_bleu` computes it, with the
/// float arithmetic of [`set_compensated_sum`] (the Rust BLEU's, so both sides agree).
#[pyfunction]
fn bleu_log_sum(precisions: Vec<f64>) -> f64 {
    let mut s = parbleu_core::pysum::PySum::new();
    for p in precisions {
        parbleu_core::pysum::add_my_log(&mut s, p);
    }
    s.value()
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The core's tokenizer names, for the CLI and docs to read from one place.
    m.add("TOKENIZERS", PyTuple::new(m.py(), Tokenizer::NAMES)?)?;
    interrupt::install(ctrl_c_pressed);
    // SacreBLEU's BLEU sums logs with the built-in sum(), compensated since CPython 3.12.
    parbleu_core::pysum::set_compensated(m.py().version_info() >= (3, 12));
    m.add_function(wrap_pyfunction!(tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_scores, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_sentence, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_finalize, m)?)?;
    m.add_function(wrap_pyfunction!(available_workers, m)?)?;
    m.add_function(wrap_pyfunction!(set_compensated_sum, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_log_sum, m)?)?;
    m.add_class::<BleuRefs>()?;
    caption::register(m)?;
    chrf::register(m)?;
    ter::register(m)?;
    options::register(m)?;
    flavors::register(m)?;
    pairwise::register(m)?;
    report::register(m)?;
    significance::register(m)?;
    Ok(())
}
