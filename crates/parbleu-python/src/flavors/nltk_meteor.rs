//! NLTK `meteor_score` binding: `_core.NltkWordnet` (WordNet read once, shared) and
//! `_core.flavor_nltk_meteor` (a batch of segments, scored with the GIL released).

use crate::error::Result;
use crate::interrupt::interruptible;
use crate::parallel::Workers;
use parbleu_core::flavors::nltk_meteor::{Batch, Params, Wordnet};
use parbleu_core::metrics::rouge::porter::stem_unicode;
use pyo3::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

/// WordNet as NLTK's `wordnet.synsets()` sees it, read from its dict files.
#[pyclass(frozen, module = "parbleu._core")]
pub struct NltkWordnet {
    inner: Arc<Wordnet>,
}

#[pymethods]
impl NltkWordnet {
    /// Read from `{file name: text}` (`index.noun`, `data.noun`, `noun.exc`, ... for the four
    /// parts of speech).
    #[staticmethod]
    fn from_files(py: Python<'_>, files: HashMap<String, String>) -> Result<Self> {
        let wn = py.detach(|| Wordnet::from_files(|n| files.get(n).map(String::as_str)))?;
        Ok(NltkWordnet {
            inner: Arc::new(wn),
        })
    }

    /// The lemma names (without `_`) of `wordnet.synsets(word)`, sorted, without repeats.
    fn synonyms(&self, word: &str) -> Vec<String> {
        self.inner.synonyms(word)
    }

    /// `(index entries, synsets)`.
    fn sizes(&self) -> (usize, usize) {
        self.inner.sizes()
    }
}

/// NLTK's `meteor_score(references[i], hypotheses[i])` of every segment. `lower`: NLTK's
/// default `preprocess=str.lower` (else the tokens are preprocessed already); `hyp_stems` and
/// `ref_stems` (both or neither): a caller's stemmer's output (else NLTK's Porter stemmer).
#[pyfunction]
#[pyo3(signature = (wordnet, hypotheses, references, alpha, beta, gamma, workers, lower=true, hyp_stems=None, ref_stems=None))]
#[allow(clippy::too_many_arguments)]
fn flavor_nltk_meteor(
    py: Python<'_>,
    wordnet: &NltkWordnet,
    hypotheses: Vec<Vec<String>>,
    references: Vec<Vec<Vec<String>>>,
    alpha: f64,
    beta: f64,
    gamma: f64,
    workers: Workers,
    lower: bool,
    hyp_stems: Option<Vec<Vec<String>>>,
    ref_stems: Option<Vec<Vec<Vec<String>>>>,
) -> Result<Vec<f64>> {
    let wn = Arc::clone(&wordnet.inner);
    let batch = Batch {
        hyps: &hypotheses,
        refs: &references,
        stems: hyp_stems.as_deref().zip(ref_stems.as_deref()),
        lower,
    };
    let p = Params { alpha, beta, gamma };
    Ok(interruptible(py, || batch.scores(&wn, p, workers.0))??)
}

/// NLTK's `PorterStemmer().stem(w)` of each word, any Unicode (what `meteor_score` stems).
#[pyfunction]
fn flavor_nltk_porter_stem(words: Vec<String>) -> Vec<String> {
    words.iter().map(|w| stem_unicode(w)).collect()
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NltkWordnet>()?;
    m.add_function(wrap_pyfunction!(flavor_nltk_porter_stem, m)?)?;
    m.add_function(wrap_pyfunction!(flavor_nltk_meteor, m)?)
}
