//! `_core.Refs`: one class for every metric's prepared references, built from the metric's
//! typed options object ([`MetricOptions`]). Each method dispatches to the metric's references
//! (`bleu::BleuRefs`, `chrf::ChrfRefs`, `ter::TerRefs`, written by `refs_class!`); a method a
//! metric does not have is an `InvalidOptionError` naming the metric and the method.

use crate::bleu::BleuRefs;
use crate::chrf::ChrfRefs;
use crate::error::{ErrorClass, Result};
use crate::options::MetricOptions;
use crate::parallel::Workers;
use crate::refs::{Shared, Streams};
use crate::ter::TerRefs;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// The references of one metric.
enum Kind {
    Bleu(BleuRefs),
    Chrf(ChrfRefs),
    Ter(TerRefs),
}

/// References of a corpus, prepared once with a metric's options and reusable across systems.
#[pyclass(module = "parbleu._core", name = "Refs", frozen)]
pub(crate) struct PyRefs {
    inner: Kind,
}

impl PyRefs {
    fn shared(&self) -> &dyn Shared {
        match &self.inner {
            Kind::Bleu(r) => r.prepared(),
            Kind::Chrf(r) => r.prepared(),
            Kind::Ter(r) => r.prepared(),
        }
    }

    fn metric(&self) -> &'static str {
        match self.inner {
            Kind::Bleu(_) => "BLEU",
            Kind::Chrf(_) => "chrF",
            Kind::Ter(_) => "TER",
        }
    }

    fn lacks(&self, method: &str) -> crate::error::Error {
        ErrorClass::InvalidOption.err(format!(
            "{}: its prepared references have no {method}",
            self.metric()
        ))
    }
}

type PyBytesOut<'py> = Bound<'py, PyBytes>;

#[pymethods]
impl PyRefs {
    /// `streams`: reference streams (each one string or None per segment), all the same
    /// length; `options`: the metric's options object (its extraction part is used).
    #[new]
    #[pyo3(signature = (streams, options, workers))]
    fn new(
        py: Python<'_>,
        streams: Streams<'_>,
        options: MetricOptions,
        workers: Workers,
    ) -> Result<Self> {
        let inner = match options {
            MetricOptions::Bleu(cfg, _) => Kind::Bleu(BleuRefs::new(py, &streams, cfg, workers)?),
            MetricOptions::Chrf(cfg) => Kind::Chrf(ChrfRefs::new(py, &streams, cfg, workers)?),
            MetricOptions::Ter(cfg) => Kind::Ter(TerRefs::new(py, &streams, cfg, workers)?),
            MetricOptions::Rouge(_) | MetricOptions::Mean(_) => {
                return Err(ErrorClass::InvalidOption
                    .err("options: a mean metric has no prepared references (it scores pairs)"))
            }
        };
        Ok(PyRefs { inner })
    }

    fn __len__(&self) -> usize {
        self.shared().segments()
    }

    /// Distinct reference counts per segment (sorted).
    fn ref_counts(&self) -> Vec<u32> {
        self.shared().index().ref_counts()
    }

    /// Index of the first segment without any reference, if there is one.
    fn first_segment_without_refs(&self) -> Option<usize> {
        self.shared().index().first_segment_without_refs()
    }

    /// Number of distinct reference segments (identical ones share one preparation).
    fn distinct_segments(&self) -> usize {
        self.shared().distinct()
    }

    /// Statistics rows as little-endian bytes (int64; TER: float64 `num_edits, ref_length`),
    /// and BLEU's count of lines ending in " ." (0 for the other metrics).
    fn extract<'py>(
        &self,
        py: Python<'py>,
        hyps: Vec<Bound<'py, PyString>>,
        workers: Workers,
    ) -> Result<(PyBytesOut<'py>, usize)> {
        match &self.inner {
            Kind::Bleu(r) => r.extract(py, hyps, workers),
            Kind::Chrf(r) => Ok((r.extract(py, hyps, workers)?, 0)),
            Kind::Ter(r) => Ok((r.extract(py, hyps, workers)?, 0)),
        }
    }

    /// Sentence scores of every hypothesis as little-endian float64 bytes, and BLEU's count of
    /// lines ending in " ." (0 for chrF). BLEU scores with the finalize options of `options`
    /// (BleuOptions); chrF with those it was prepared with (`options` must be ChrfOptions).
    fn sentence_scores<'py>(
        &self,
        py: Python<'py>,
        hyps: Vec<Bound<'py, PyString>>,
        options: MetricOptions,
        workers: Workers,
    ) -> Result<(PyBytesOut<'py>, usize)> {
        match (&self.inner, options) {
            (Kind::Bleu(r), MetricOptions::Bleu(_, score)) => {
                r.sentence_scores(py, hyps, score, workers)
            }
            (Kind::Chrf(r), MetricOptions::Chrf(_)) => {
                Ok((r.sentence_scores(py, hyps, workers)?, 0))
            }
            (Kind::Ter(_), _) => Err(self.lacks("sentence_scores (score the rows of extract)")),
            _ => Err(ErrorClass::InvalidOption.err(format!(
                "options: expected the options of {}, whose references these are",
                self.metric()
            ))),
        }
    }

    /// chrF: statistics rows of several systems (each one hypothesis per segment) as
    /// little-endian int64 bytes, system after system; with `sums`, only each system's column
    /// sums (`len(systems)` rows).
    fn extract_many<'py>(
        &self,
        py: Python<'py>,
        systems: Vec<Vec<Bound<'py, PyString>>>,
        workers: Workers,
        sums: bool,
    ) -> Result<PyBytesOut<'py>> {
        match &self.inner {
            Kind::Chrf(r) => r.extract_many(py, systems, workers, sums),
            _ => Err(self.lacks("extract_many")),
        }
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRefs>()
}
