//! Binding of the core's COCO caption metrics (`parbleu.flavors.coco`): the PTB tokenization,
//! CIDEr-D sums and ROUGE-L per image, computed in blocks with the GIL released
//! ([`for_each_block`]).

use crate::convert::{borrow_hyps, str_lists, strs};
use crate::error::{ErrorClass, Result};
use crate::interrupt::{blocks, for_each_block, interruptible};
use crate::options::Order;
use crate::parallel::Workers;
use parbleu_core::metrics::caption::{cider, meteor, rouge};
use parbleu_core::tokenize::ptb;
use parbleu_core::Error;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use std::sync::Arc;

/// Images per GIL release, so that Ctrl-C is seen within about a second.
const BLOCK: usize = 1 << 12;

/// The captions' text, borrowed; an error unless there is one hypothesis per reference list.
fn borrowed<'a>(
    hyps: &'a [Bound<'_, PyString>],
    refs: &'a [Vec<Bound<'_, PyString>>],
) -> Result<(Vec<&'a str>, Vec<Vec<&'a str>>)> {
    let r = str_lists(refs)?;
    Ok((borrow_hyps(hyps, r.len())?, r))
}

/// Per image, the CIDEr-D sums over references, one per order (`len(hyps) * n` floats).
#[pyfunction]
#[pyo3(signature = (hyps, refs, n, sigma, ref_len, log_df, workers))]
#[allow(clippy::too_many_arguments)]
fn caption_cider_sums(
    py: Python<'_>,
    hyps: Vec<Bound<'_, PyString>>,
    refs: Vec<Vec<Bound<'_, PyString>>>,
    n: Order,
    sigma: f64,
    ref_len: f64,
    log_df: Vec<f64>,
    workers: Workers,
) -> Result<Vec<f64>> {
    let (h, r) = borrowed(&hyps, &refs)?;
    let p = cider::CiderParams {
        n: n.0,
        sigma,
        ref_len,
        log_df: &log_df,
    };
    // Document frequencies need every image first: cooked once, then scored in blocks.
    let prep = interruptible(py, || cider::Prepared::new(&h, &r, p.n, workers.0))?;
    if !prep.scorable(&p) {
        return Err(ErrorClass::InvalidOption.err(
            "coco: CIDEr needs at least one reference n-gram (the original: max() arg is an \
             empty sequence)",
        ));
    }
    let mut out = Vec::with_capacity(prep.len() * p.n);
    for_each_block(py, blocks(prep.len(), BLOCK), |b| {
        out.extend(prep.sums(b, &p, workers.0));
        Ok::<(), Error>(())
    })?;
    Ok(out)
}

/// pycocoevalcap's PTB tokenization of every caption: one string per caption, its tokens
/// less the punctuation list joined by spaces (a line break inside a caption is a space).
#[pyfunction]
#[pyo3(signature = (captions, workers))]
fn ptb_tokenize(
    py: Python<'_>,
    captions: Vec<Bound<'_, PyString>>,
    workers: Workers,
) -> Result<Vec<String>> {
    let texts = strs(&captions)?;
    let mut out = Vec::with_capacity(texts.len());
    for_each_block(py, blocks(texts.len(), BLOCK * 4), |b| {
        out.extend(ptb::tokenize_batch(&texts[b], workers.0));
        Ok::<(), Error>(())
    })?;
    Ok(out)
}

/// Per image, ROUGE-L with `beta2` = β².
#[pyfunction]
#[pyo3(signature = (hyps, refs, beta2, workers))]
fn caption_rouge_scores(
    py: Python<'_>,
    hyps: Vec<Bound<'_, PyString>>,
    refs: Vec<Vec<Bound<'_, PyString>>>,
    beta2: f64,
    workers: Workers,
) -> Result<Vec<f64>> {
    let (h, r) = borrowed(&hyps, &refs)?;
    if r.iter().any(Vec::is_empty) {
        return Err(ErrorClass::LengthMismatch
            .err("coco: every image needs one hypothesis and at least one reference"));
    }
    let mut out = Vec::with_capacity(h.len());
    for_each_block(py, blocks(h.len(), BLOCK), |b| {
        out.extend(rouge::scores(&h[b.clone()], &r[b], beta2, workers.0));
        Ok::<(), Error>(())
    })?;
    Ok(out)
}

/// METEOR 1.5's paraphrase table: parsed from the text of `paraphrase-en.gz`, or loaded from
/// the bytes of [`MeteorParaphrases::compiled`].
#[pyclass(frozen, module = "parbleu._core")]
struct MeteorParaphrases {
    inner: Arc<meteor::paraphrase::Table>,
}

#[pymethods]
impl MeteorParaphrases {
    /// The compiled form's version.
    #[classattr]
    const FORMAT: u32 = meteor::paraphrase::FORMAT;

    #[new]
    fn new(py: Python<'_>, data: &[u8]) -> Result<Self> {
        let t = py.detach(|| meteor::paraphrase::Table::parse(data))?;
        Ok(Self { inner: Arc::new(t) })
    }

    /// The table saved by `compiled` with the same `key`; an error if damaged or stale.
    #[staticmethod]
    fn from_compiled(py: Python<'_>, data: &[u8], key: &str) -> Result<Self> {
        let t = py.detach(|| meteor::paraphrase::Table::from_compiled(data, key))?;
        Ok(Self { inner: Arc::new(t) })
    }

    /// The table as bytes, labelled with `key` (naming the source file).
    fn compiled<'py>(&self, py: Python<'py>, key: &str) -> Bound<'py, PyBytes> {
        let b = py.detach(|| self.inner.compiled(key));
        PyBytes::new(py, &b)
    }
}

/// METEOR 1.5 (`-l en -norm`) with the data of the user's pycocoevalcap, parsed once.
#[pyclass(frozen, module = "parbleu._core")]
struct MeteorScorer {
    inner: meteor::Meteor,
}

#[pymethods]
impl MeteorScorer {
    #[new]
    #[pyo3(signature = (function, synsets, exceptions, prefixes, paraphrase))]
    fn new(
        py: Python<'_>,
        function: &[u8],
        synsets: &[u8],
        exceptions: &[u8],
        prefixes: &[u8],
        paraphrase: Option<&MeteorParaphrases>,
    ) -> Result<Self> {
        let prefixes = String::from_utf8_lossy(prefixes).into_owned();
        let table = paraphrase.map_or_else(Default::default, |p| Arc::clone(&p.inner));
        let inner = py.detach(|| -> std::result::Result<meteor::Meteor, Error> {
            Ok(meteor::Meteor {
                res: meteor::Resources::with_table(function, synsets, exceptions, table)?,
                prefixes: meteor::parse_prefixes(&prefixes),
                params: meteor::Params::EN,
            })
        })?;
        Ok(Self { inner })
    }

    /// Per image, the jar's `SCORE` statistics (23 floats each, concatenated).
    #[pyo3(signature = (hyps, refs, workers))]
    fn stats(
        &self,
        py: Python<'_>,
        hyps: Vec<Bound<'_, PyString>>,
        refs: Vec<Vec<Bound<'_, PyString>>>,
        workers: Workers,
    ) -> Result<Vec<f64>> {
        let (h, r) = borrowed(&hyps, &refs)?;
        let mut out = Vec::with_capacity(h.len() * meteor::STATS);
        for_each_block(py, blocks(h.len(), BLOCK), |b| {
            out.extend(self.inner.stats_batch(&h[b.clone()], &r[b], workers.0));
            Ok::<(), Error>(())
        })?;
        Ok(out)
    }

    /// A whole native `compute_score`: `(corpus score, [score per image])`, the test lines
    /// prepared as the original's `SCORE` line. `None`, with nothing scored, when a caption is
    /// not an exact `str` of UTF-8 text or is refused ([`meteor::eval::acceptable`]): the
    /// caller then finds and explains the problem.
    #[pyo3(signature = (hyps, refs, max_chars, workers))]
    fn evaluate(
        &self,
        py: Python<'_>,
        hyps: Vec<Bound<'_, PyString>>,
        refs: Vec<Vec<Bound<'_, PyString>>>,
        max_chars: usize,
        workers: Workers,
    ) -> Result<Option<(f64, Vec<f64>)>> {
        let exact =
            |l: &[Bound<'_, PyString>]| l.iter().all(|x| x.is_exact_instance_of::<PyString>());
        if !exact(&hyps) || !refs.iter().all(|r| exact(r)) {
            return Ok(None);
        }
        let (Ok(h), Ok(r)) = (strs(&hyps), str_lists(&refs)) else {
            return Ok(None); // a lone surrogate
        };
        if h.len() != r.len() {
            return Err(Error::LengthMismatch {
                what: "hypotheses vs references".into(),
                expected: r.len(),
                found: h.len(),
            }
            .into());
        }
        let ok = py.detach(|| {
            h.iter()
                .all(|c| meteor::eval::acceptable(c, false, max_chars))
                && r.iter()
                    .flatten()
                    .all(|c| meteor::eval::acceptable(c, true, max_chars))
        });
        if !ok {
            return Ok(None);
        }
        let mut corpus = meteor::eval::Corpus::default();
        let mut scores = Vec::with_capacity(h.len());
        for_each_block(py, blocks(h.len(), BLOCK), |b| {
            let s = self
                .inner
                .score_batch(&h[b.clone()], &r[b], workers.0, &mut corpus);
            scores.extend(s);
            Ok::<(), Error>(())
        })?;
        Ok(Some((corpus.score(&self.inner.params), scores)))
    }

    /// The jar's `EVAL` sum of segment statistics (23 floats per row).
    #[staticmethod]
    fn corpus_stats(rows: Vec<Vec<f64>>) -> Result<Vec<f64>> {
        if let Some(r) = rows.iter().find(|r| r.len() != meteor::STATS) {
            return Err(parbleu_core::Error::BadStatsShape {
                expected: meteor::STATS,
                found: r.len(),
            }
            .into());
        }
        Ok(meteor::eval::corpus_stats(rows.iter().map(Vec::as_slice)).to_vec())
    }

    /// The normalised words of a test line and a reference, the matches kept and every
    /// candidate match, each as (test start, test length, reference start, reference length,
    /// module): what the jar's `-writeAlignments` shows, for checking the aligner.
    fn alignment(&self, test: &str, reference: &str) -> meteor::Alignment {
        self.inner.alignment(test, reference)
    }

    /// The jar's `EVAL` of one statistics row (a segment's, or their sum).
    fn score(&self, row: Vec<f64>) -> Result<f64> {
        if row.len() != meteor::STATS {
            return Err(parbleu_core::Error::BadStatsShape {
                expected: meteor::STATS,
                found: row.len(),
            }
            .into());
        }
        Ok(meteor::score(&row, &self.inner.params))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MeteorScorer>()?;
    m.add_class::<MeteorParaphrases>()?;
    let functions = [
        wrap_pyfunction!(caption_cider_sums, m)?,
        wrap_pyfunction!(caption_rouge_scores, m)?,
        wrap_pyfunction!(ptb_tokenize, m)?,
    ];
    functions.into_iter().try_for_each(|f| m.add_function(f))
}
