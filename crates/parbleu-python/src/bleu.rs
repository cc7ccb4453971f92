//! BLEU binding: its references behind `_core.Refs`, `_core.bleu_scores`, `_core.bleu_sentence`,
//! `_core.bleu_finalize`.

use crate::convert::{borrow_hyps, le_bytes, strs};
use crate::error::Result;
use crate::interrupt::{blocks, for_each_block};
use crate::metrics::check_width;
use crate::named::{Named, SmoothMethod};
use crate::options::BleuOptions;
use crate::parallel::Workers;
use crate::refs::refs_class;
use parbleu_core::error::check_order;
use parbleu_core::metrics::bleu::{self, BleuScoreOpts, Pairs, PreparedRefs, RefSegment, Smooth};
use parbleu_core::metrics::bleu_pairs::PairResults;
use parbleu_core::Error as CoreError;
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// Segments processed per GIL release; small enough that Ctrl-C is seen within a second.
const BLOCK: usize = 1 << 16;

refs_class! {
    /// References of a corpus, preprocessed once and reusable across systems.
    BleuRefs { prepared: PreparedRefs }
    {
        /// Statistics rows as little-endian int64 bytes, and the count of lines ending in " .".
        pub(crate) fn extract<'py>(
            &self,
            py: Python<'py>,
            hyps: Vec<Bound<'py, PyString>>,
            workers: Workers,
        ) -> Result<(Bound<'py, PyBytes>, usize)> {
            let (rows, tok) = self.in_pairs(py, &hyps, self.cfg.width(), |h, segs, pairs| {
                bleu::extract_pairs(&self.cfg, h, segs, pairs, workers.0)
            })?;
            Ok((le_bytes(py, &rows)?, tok))
        }

        /// Sentence BLEU of every hypothesis as little-endian float64 bytes (the rows of
        /// `extract` scored in place) with the finalize options `score`, and the count of
        /// lines ending in " .".
        pub(crate) fn sentence_scores<'py>(
            &self,
            py: Python<'py>,
            hyps: Vec<Bound<'py, PyString>>,
            score: BleuScoreOpts,
            workers: Workers,
        ) -> Result<(Bound<'py, PyBytes>, usize)> {
            let o = BleuScoreOpts {
                max_order: self.cfg.max_order,
                ..score
            };
            let (scores, tok) = self.in_pairs(py, &hyps, 1, |h, segs, pairs| {
                bleu::sentence_scores_pairs(&self.cfg, h, segs, pairs, &o, workers.0)
            })?;
            Ok((le_bytes(py, &scores)?, tok))
        }
    }
}

impl BleuRefs {
    /// `f(hyps, segments, pairs)` over blocks of pairs ([`for_each_block`]) in the core's
    /// grouped order ([`PairResults`]), the `width` results of each pair at its index; sums
    /// the counts `f` returns.
    fn in_pairs<T: Copy + Default + Send>(
        &self,
        py: Python<'_>,
        hyps: &[Bound<'_, PyString>],
        width: usize,
        f: impl Fn(&[&str], &[RefSegment], Pairs<'_>) -> parbleu_core::Result<(Vec<T>, usize)> + Sync,
    ) -> Result<(Vec<T>, usize)> {
        let segs = &self.refs.segments;
        let hyps = borrow_hyps(hyps, segs.len())?;
        let mut out = PairResults::new(&self.refs, width);
        let mut count = 0;
        for_each_block(py, blocks(out.len(), BLOCK), |b| {
            let pairs = out.pairs(b);
            let (r, c) = f(&hyps, segs, pairs)?;
            out.put(pairs, &r);
            count += c;
            Ok::<_, CoreError>(())
        })?;
        Ok((out.into_vec(), count))
    }
}

/// Scores of every row of an int64 statistics matrix (C-contiguous buffer), as float64 bytes.
#[pyfunction]
#[pyo3(signature = (rows, width, options, workers))]
fn bleu_scores<'py>(
    py: Python<'py>,
    rows: PyBuffer<i64>,
    width: usize,
    options: &BleuOptions,
    workers: Workers,
) -> Result<Bound<'py, PyBytes>> {
    let o = options.score;
    check_width(2 + 2 * o.max_order, width)?;
    let data = rows.to_vec(py)?;
    let out = py.detach(|| bleu::finalize_many(&data, width, &o, workers.0));
    Ok(le_bytes(py, &out)?)
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
) -> Result<(Vec<i64>, Option<(f64, Vec<f64>, f64)>)> {
    let refs = strs(&refs)?;
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
    smooth_method: Named<SmoothMethod>,
    smooth_value: Option<f64>,
    effective_order: bool,
) -> Result<(f64, Vec<f64>, f64, usize)> {
    let n = correct.len();
    if total.len() != n {
        return Err(CoreError::LengthMismatch {
            what: "total vs correct (one count per n-gram order)".into(),
            expected: n,
            found: total.len(),
        }
        .into());
    }
    check_order("max_ngram_order", n as u64)?;
    let o = BleuScoreOpts {
        smooth: smooth_method.0.with(smooth_value),
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

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bleu_scores, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_sentence, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_finalize, m)?)
}
