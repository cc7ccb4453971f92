//! ROUGE binding: `_core.rouge_*` over `parbleu_core::metrics::rouge` (rouge-score 0.1.2, exact).

use crate::convert::{le_bytes, strs};
use crate::error::Result;
use crate::interrupt::{blocks, for_each_block};
use crate::named::Named;
use crate::parallel::Workers;
use parbleu_core::metrics::rouge::tokenize::{self as rtok, Kind, RougeTokenizer};
use parbleu_core::metrics::rouge::{self, bootstrap, porter, RougeOpts, RougeType};
use parbleu_core::Error;
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

/// Pairs per GIL release, so that Ctrl-C is seen within about a second.
const BLOCK: usize = 1 << 12;

fn opts(types: &[Named<RougeType>], tokenizer: Named<Kind>, stem: bool) -> RougeOpts {
    RougeOpts {
        types: types.iter().map(|t| t.0).collect(),
        tokenizer: RougeTokenizer {
            kind: tokenizer.0,
            stem,
        },
    }
}

/// Score every (prediction, references) pair: `(stats, scores, best)` as little-endian bytes
/// of int64 `(pairs, types, 3)`, float64 `(pairs, types, 3)` and int64 `(pairs, types)`.
#[pyfunction]
#[pyo3(signature = (predictions, references, rouge_types, tokenizer, use_stemmer, workers))]
#[allow(clippy::type_complexity)]
fn rouge_score_batch<'py>(
    py: Python<'py>,
    predictions: Vec<Bound<'py, PyString>>,
    references: Vec<Vec<Bound<'py, PyString>>>,
    rouge_types: Vec<Named<RougeType>>,
    tokenizer: Named<Kind>,
    use_stemmer: bool,
    workers: Workers,
) -> Result<(
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
)> {
    let o = opts(&rouge_types, tokenizer, use_stemmer);
    let workers = workers.0;
    // Borrowed, not copied: the strings outlive the call.
    let preds = strs(&predictions)?;
    let refs: Vec<Vec<&str>> = references
        .iter()
        .map(|rs| strs(rs))
        .collect::<PyResult<_>>()?;
    if preds.len() != refs.len() {
        let e = Error::LengthMismatch {
            what: "predictions vs reference lists".into(),
            expected: preds.len(),
            found: refs.len(),
        };
        return Err(e.into());
    }
    let (mut stats, mut scores, mut best) = (Vec::new(), Vec::new(), Vec::new());
    for_each_block(py, blocks(preds.len(), BLOCK), |b| {
        let rows = rouge::score_batch(&o, &preds[b.clone()], &refs[b], workers)?;
        for row in rows {
            for t in row {
                stats.extend(t.stats.iter().map(|&x| x as i64));
                scores.extend_from_slice(&t.prf);
                best.push(i64::from(t.best));
            }
        }
        Ok::<(), Error>(())
    })?;
    Ok((
        le_bytes(py, &stats)?,
        le_bytes(py, &scores)?,
        le_bytes(py, &best)?,
    ))
}

/// One scorer's options, for rouge-score's `score`/`score_multi` one pair at a time: the per
/// call cost is this lookup, the scoring and the result dict (no batch arrays).
#[pyclass(module = "parbleu._core", frozen)]
struct RougePairScorer {
    opts: RougeOpts,
    /// The dict keys, as given (a repeated type is one key, as rouge-score's dict).
    names: Vec<Py<PyString>>,
    score_class: Py<PyAny>,
}

#[pymethods]
impl RougePairScorer {
    #[new]
    #[pyo3(signature = (rouge_types, names, tokenizer, use_stemmer, score_class))]
    fn new(
        rouge_types: Vec<Named<RougeType>>,
        names: Vec<Py<PyString>>,
        tokenizer: Named<Kind>,
        use_stemmer: bool,
        score_class: Py<PyAny>,
    ) -> Result<Self> {
        if names.len() != rouge_types.len() {
            let e = Error::LengthMismatch {
                what: "rouge type names".into(),
                expected: rouge_types.len(),
                found: names.len(),
            };
            return Err(e.into());
        }
        Ok(RougePairScorer {
            opts: opts(&rouge_types, tokenizer, use_stemmer),
            names,
            score_class,
        })
    }

    /// rouge-score's `score_multi(targets, prediction)`: `{name: score_class(p, r, f)}`.
    fn score_multi<'py>(
        &self,
        py: Python<'py>,
        targets: Vec<Bound<'py, PyString>>,
        prediction: &Bound<'py, PyString>,
    ) -> Result<Bound<'py, PyDict>> {
        let refs = strs(&targets)?;
        if refs.is_empty() {
            let e = Error::InvalidOption {
                name: "targets".into(),
                value: "an empty list".into(),
                expected: "at least one target".into(),
            };
            return Err(e.into());
        }
        let pred = prediction.to_str()?;
        let row = rouge::score_pair(&self.opts, pred, &refs);
        let d = PyDict::new(py);
        for (name, t) in self.names.iter().zip(row) {
            d.set_item(
                name.bind(py),
                self.score_class
                    .bind(py)
                    .call1((t.prf[0], t.prf[1], t.prf[2]))?,
            )?;
        }
        Ok(d)
    }
}

/// Tokens of each text.
#[pyfunction]
#[pyo3(signature = (texts, tokenizer, use_stemmer))]
fn rouge_tokenize(
    texts: Vec<String>,
    tokenizer: Named<Kind>,
    use_stemmer: bool,
) -> Vec<Vec<String>> {
    let o = opts(&[], tokenizer, use_stemmer);
    texts.iter().map(|t| o.tokenizer.tokenize(t)).collect()
}

/// NLTK's `PorterStemmer().stem(w)` of each ASCII word (a non-ASCII word comes back unchanged).
#[pyfunction]
fn rouge_porter_stem(words: Vec<String>) -> Vec<String> {
    words.iter().map(|w| porter::stem(w)).collect()
}

/// `(kept, discarded)` letters, marks and numbers of rouge-score's default tokenizer.
#[pyfunction]
fn rouge_discarded(texts: Vec<String>) -> (u64, u64) {
    texts.iter().fold((0, 0), |(k, d), t| {
        let (k2, d2) = rtok::discarded(t);
        (k + k2, d + d2)
    })
}

/// Bootstrap bounds `[low, mid, high] x [precision, recall, fmeasure]` of one rouge type from
/// its statistics (a C-contiguous int64 buffer of `(pairs, 3)`), with the core's RNG.
#[pyfunction]
#[pyo3(signature = (stats, n_samples, confidence_interval, seed, workers))]
fn rouge_bootstrap(
    py: Python<'_>,
    stats: PyBuffer<i64>,
    n_samples: usize,
    confidence_interval: f64,
    seed: u64,
    workers: Workers,
) -> Result<[[f64; 3]; 3]> {
    let flat = stats.to_vec(py)?;
    if flat.len() % 3 != 0 || flat.iter().any(|&x| x < 0) {
        let e = Error::BadStatsShape {
            expected: 3,
            found: flat.len() % 3,
        };
        return Err(e.into());
    }
    let rows: Vec<[u64; 3]> = flat
        .chunks_exact(3)
        .map(|c| [c[0] as u64, c[1] as u64, c[2] as u64])
        .collect();
    Ok(py.detach(|| bootstrap::bootstrap(&rows, n_samples, confidence_interval, seed, workers.0))?)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let functions = [
        wrap_pyfunction!(rouge_score_batch, m)?,
        wrap_pyfunction!(rouge_tokenize, m)?,
        wrap_pyfunction!(rouge_porter_stem, m)?,
        wrap_pyfunction!(rouge_discarded, m)?,
        wrap_pyfunction!(rouge_bootstrap, m)?,
    ];
    functions.into_iter().try_for_each(|f| m.add_function(f))?;
    m.add_class::<RougePairScorer>()
}
