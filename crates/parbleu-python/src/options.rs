//! Typed option objects: `_core.BleuOptions`, `_core.ChrfOptions`, `_core.TerOptions`,
//! `_core.RougeOptions`, `_core.MeanOptions`, and [`MetricOptions`], any of them as one typed
//! argument.
//!
//! Each metric class builds one (`Metric.core_options()`) after `parbleu._options` has
//! validated the values, and passes it to every `_core` call; the binding converts it here,
//! once, to the core's option structs, instead of each call taking a long positional list.

use crate::error::{Error, ErrorClass, Result};
use crate::named::{Named, SmoothMethod};
use parbleu_core::error::{check_order, MAX_ORDER};
use parbleu_core::metrics::bleu::{BleuExtract, BleuScoreOpts};
use parbleu_core::metrics::chrf::{ChrfExtract, ChrfScoreOpts};
use parbleu_core::metrics::mean::MeanOpts;
use parbleu_core::metrics::rouge::tokenize::{Kind, RougeTokenizer};
use parbleu_core::metrics::rouge::{Measure, RougeType};
use parbleu_core::metrics::ter::{TerScore, TercomOpts};
use parbleu_core::pairwise::{PairOptions, RougePairOpts};
use parbleu_core::significance::Scorer;
use parbleu_core::tokenize::Tokenizer;
use parbleu_core::Error as CoreError;
use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;

/// An n-gram order argument: `0..=MAX_ORDER`, checked before the core allocates anything
/// sized by it (the Python layer checks first, with each option's own minimum).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Order(pub usize);

impl<'py> FromPyObject<'_, 'py> for Order {
    type Error = PyErr;

    fn extract(ob: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        let n = match ob.extract::<i64>() {
            Ok(n) => u64::try_from(n).unwrap_or(u64::MAX),
            Err(e) if e.is_instance_of::<PyOverflowError>(ob.py()) => u64::MAX,
            Err(e) => return Err(e),
        };
        check_order("n-gram order", n).map(Order).map_err(|_| {
            let shown = ob.repr().map_or_else(|_| "?".into(), |r| r.to_string());
            let e = CoreError::InvalidOption {
                name: "n-gram order".into(),
                value: shown,
                expected: format!("an integer from 0 to {MAX_ORDER}"),
            };
            PyErr::from(Error::from(e))
        })
    }
}

/// BLEU's options: tokenizer, case, order (extraction) and smoothing (finalize).
///
/// Built by `parbleu.metrics.BLEU.core_options()` from values `parbleu._options` validated;
/// the checks here (tokenizer name, order range, smoothing) only guard the binding itself.
#[pyclass(module = "parbleu._core", frozen)]
pub(crate) struct BleuOptions {
    pub(crate) extract: BleuExtract,
    pub(crate) score: BleuScoreOpts,
}

#[pymethods]
impl BleuOptions {
    #[new]
    #[pyo3(signature = (tokenize, lowercase, max_order, smooth_method, smooth_value, effective_order))]
    fn new(
        tokenize: Named<Tokenizer>,
        lowercase: bool,
        max_order: Order,
        smooth_method: Named<SmoothMethod>,
        smooth_value: Option<f64>,
        effective_order: bool,
    ) -> Result<Self> {
        let max_order = max_order.0;
        let extract = BleuExtract {
            tokenizer: tokenize.0,
            lowercase,
            max_order,
        };
        let score = BleuScoreOpts {
            smooth: smooth_method.0.with(smooth_value),
            effective_order,
            max_order,
        };
        Ok(BleuOptions { extract, score })
    }

    /// Width of a statistics row (`2 + 2 * max_order`).
    #[getter]
    fn width(&self) -> usize {
        self.extract.width()
    }

    fn __repr__(&self) -> String {
        format!("BleuOptions({:?}, {:?})", self.extract, self.score)
    }
}

/// chrF / chrF++ options: orders, `beta ** 2` and `1 + beta ** 2` (converted to float by
/// Python, so integer and float betas give exactly SacreBLEU's arithmetic), smoothing, case
/// and whitespace.
///
/// Built by `parbleu.metrics.CHRF.core_options()` from values `parbleu._options` validated.
#[pyclass(module = "parbleu._core", frozen)]
pub(crate) struct ChrfOptions {
    pub(crate) extract: ChrfExtract,
}

#[pymethods]
impl ChrfOptions {
    #[new]
    #[pyo3(signature = (char_order, word_order, factor, one_plus_factor, eps_smoothing, lowercase, whitespace))]
    fn new(
        char_order: Order,
        word_order: Order,
        factor: f64,
        one_plus_factor: f64,
        eps_smoothing: bool,
        lowercase: bool,
        whitespace: bool,
    ) -> Result<Self> {
        let score = ChrfScoreOpts {
            char_order: char_order.0,
            word_order: word_order.0,
            factor,
            one_plus_factor,
            eps_smoothing,
        };
        score.check()?;
        Ok(ChrfOptions {
            extract: ChrfExtract {
                score,
                lowercase,
                whitespace,
            },
        })
    }

    /// Width of a statistics row.
    #[getter]
    fn width(&self) -> usize {
        self.extract.score.width()
    }

    fn __repr__(&self) -> String {
        format!("ChrfOptions({:?})", self.extract)
    }
}

/// TER's (Tercom tokenizer's) options.
///
/// Built by `parbleu.metrics.TER.core_options()` from values `parbleu._options` validated.
#[pyclass(module = "parbleu._core", frozen)]
pub(crate) struct TerOptions {
    pub(crate) tercom: TercomOpts,
}

#[pymethods]
impl TerOptions {
    #[new]
    #[pyo3(signature = (normalized, no_punct, asian_support, case_sensitive))]
    fn new(normalized: bool, no_punct: bool, asian_support: bool, case_sensitive: bool) -> Self {
        TerOptions {
            tercom: TercomOpts {
                normalized,
                no_punct,
                asian_support,
                case_sensitive,
            },
        }
    }

    fn __repr__(&self) -> String {
        format!("TerOptions({:?})", self.tercom)
    }
}

/// One rouge type's options with one of its measures: rows `[precision, recall, fmeasure, 1.0]`
/// per pair, scored `100 * mean(measure)`; pair tables score `100 * measure` of each pair.
///
/// Built by `parbleu.metrics.ROUGE.core_options()` (its first type, `pair_measure`).
#[pyclass(module = "parbleu._core", frozen)]
pub(crate) struct RougeOptions {
    pub(crate) rouge: RougePairOpts,
}

#[pymethods]
impl RougeOptions {
    #[new]
    #[pyo3(signature = (rouge_type, tokenizer, use_stemmer, measure))]
    fn new(
        rouge_type: Named<RougeType>,
        tokenizer: Named<Kind>,
        use_stemmer: bool,
        measure: Named<Measure>,
    ) -> Self {
        RougeOptions {
            rouge: RougePairOpts {
                rouge_type: rouge_type.0,
                tokenizer: RougeTokenizer {
                    kind: tokenizer.0,
                    stem: use_stemmer,
                },
                measure: measure.0,
            },
        }
    }

    fn __repr__(&self) -> String {
        format!("RougeOptions({:?})", self.rouge)
    }
}

/// A mean metric's options: rows of `width` float64 values whose last column is a count of 1.0
/// per segment, scored `scale * row[column] / row[-1]` (ROUGE, CIDEr-D, COCO's ROUGE-L).
#[pyclass(module = "parbleu._core", frozen)]
pub(crate) struct MeanOptions {
    pub(crate) mean: MeanOpts,
}

#[pymethods]
impl MeanOptions {
    #[new]
    #[pyo3(signature = (width, column, scale = 1.0))]
    fn new(width: usize, column: usize, scale: f64) -> Result<Self> {
        let mean = MeanOpts {
            width,
            column,
            scale,
        };
        mean.check()?;
        Ok(MeanOptions { mean })
    }

    fn __repr__(&self) -> String {
        format!("MeanOptions({:?})", self.mean)
    }
}

/// Any metric's options object: the typed argument of the generic classes (`Scorer`,
/// `PairTable`), one variant per options class.
pub(crate) enum MetricOptions {
    Bleu(BleuExtract, BleuScoreOpts),
    Chrf(ChrfExtract),
    Ter(TercomOpts),
    Rouge(RougePairOpts),
    Mean(MeanOpts),
}

/// The options classes [`MetricOptions`] takes, for its error message.
const OPTION_CLASSES: &str = "BleuOptions, ChrfOptions, TerOptions, RougeOptions or MeanOptions";

impl<'py> FromPyObject<'_, 'py> for MetricOptions {
    type Error = PyErr;

    fn extract(ob: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(o) = ob.extract::<PyRef<'_, BleuOptions>>() {
            return Ok(MetricOptions::Bleu(o.extract, o.score));
        }
        if let Ok(o) = ob.extract::<PyRef<'_, ChrfOptions>>() {
            return Ok(MetricOptions::Chrf(o.extract));
        }
        if let Ok(o) = ob.extract::<PyRef<'_, TerOptions>>() {
            return Ok(MetricOptions::Ter(o.tercom));
        }
        if let Ok(o) = ob.extract::<PyRef<'_, RougeOptions>>() {
            return Ok(MetricOptions::Rouge(o.rouge));
        }
        if let Ok(o) = ob.extract::<PyRef<'_, MeanOptions>>() {
            return Ok(MetricOptions::Mean(o.mean));
        }
        let got = ob
            .get_type()
            .name()
            .map_or_else(|_| "?".into(), |n| n.to_string());
        Err(ErrorClass::InvalidOption
            .err(format!("options: expected {OPTION_CLASSES}, got {got}"))
            .into())
    }
}

impl MetricOptions {
    /// The finalize step these options give (every metric has one).
    pub(crate) fn scorer(&self) -> Scorer {
        match *self {
            MetricOptions::Bleu(_, score) => score.into(),
            MetricOptions::Chrf(extract) => extract.score.into(),
            MetricOptions::Ter(_) => TerScore.into(),
            // A single type's row: precision, recall, fmeasure, then the count.
            MetricOptions::Rouge(o) => MeanOpts {
                width: 4,
                column: o.measure.index(),
                scale: 100.0,
            }
            .into(),
            MetricOptions::Mean(mean) => mean.into(),
        }
    }

    /// The pair table's options these give: every metric with sentence scores the core
    /// computes from two strings; a mean metric's rows come from elsewhere.
    pub(crate) fn pair_options(&self) -> Result<PairOptions> {
        Ok(match *self {
            MetricOptions::Bleu(cfg, score) => PairOptions::Bleu((cfg, score)),
            MetricOptions::Chrf(cfg) => PairOptions::Chrf(cfg),
            MetricOptions::Ter(cfg) => PairOptions::Ter(cfg),
            MetricOptions::Rouge(o) => PairOptions::Rouge(o),
            MetricOptions::Mean(_) => {
                return Err(ErrorClass::InvalidOption.err(
                    "options: a mean metric has no pair table (its segment scores are not \
                     computed by the core from two strings)",
                ))
            }
        })
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MeanOptions>()?;
    m.add_class::<BleuOptions>()?;
    m.add_class::<ChrfOptions>()?;
    m.add_class::<TerOptions>()?;
    m.add_class::<RougeOptions>()?;
    Ok(())
}
