//! Named options as typed arguments: `Named<T>` takes a Python `str` and parses it with the
//! core's own `from_name`, whose error names the valid choices (as polars' `Wrap<T>` and
//! jiter's `StringCacheMode` do), so a `#[pyfunction]` receives a parsed `T`, never a string to
//! parse itself.

use crate::error::Error;
use parbleu_core::metrics::bleu::Smooth;
use parbleu_core::metrics::rouge::tokenize::Kind;
use parbleu_core::metrics::rouge::{Measure, RougeType};
use parbleu_core::tokenize::Tokenizer;
use pyo3::prelude::*;

/// An option type with names: parsing a name, or an error naming the valid choices.
pub(crate) trait FromName: Sized {
    fn from_name(name: &str) -> parbleu_core::Result<Self>;
}

/// A `T` given by name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Named<T>(pub T);

impl<'py, T: FromName> FromPyObject<'_, 'py> for Named<T> {
    type Error = PyErr;

    fn extract(ob: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        let name: String = ob.extract()?;
        T::from_name(&name)
            .map(Named)
            .map_err(|e| Error::from(e).into())
    }
}

/// SacreBLEU's tokenizer names (`13a`, `intl`, ...).
impl FromName for Tokenizer {
    fn from_name(name: &str) -> parbleu_core::Result<Self> {
        Tokenizer::from_name(name)
    }
}

/// rouge-score's tokenizers (`default`, `unicode`, `none`).
impl FromName for Kind {
    fn from_name(name: &str) -> parbleu_core::Result<Self> {
        Kind::from_name(name)
    }
}

/// `rouge1` .. `rouge9`, `rougeL`, `rougeLsum`.
impl FromName for RougeType {
    fn from_name(name: &str) -> parbleu_core::Result<Self> {
        RougeType::from_name(name)
    }
}

/// `precision`, `recall`, `fmeasure` (rouge-score's `Score` fields).
impl FromName for Measure {
    fn from_name(name: &str) -> parbleu_core::Result<Self> {
        Measure::from_name(name)
    }
}

/// A BLEU smoothing method's name (`none`, `floor`, `add-k`, `exp`); its value comes apart.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SmoothMethod(String);

impl SmoothMethod {
    /// The smoothing with `value` (or the method's default).
    pub(crate) fn with(&self, value: Option<f64>) -> Smooth {
        // The name was checked at extraction, so this cannot fail; keep the core's answer.
        Smooth::from_name(&self.0, value).unwrap_or(Smooth::None)
    }
}

impl FromName for SmoothMethod {
    fn from_name(name: &str) -> parbleu_core::Result<Self> {
        Smooth::from_name(name, None).map(|_| SmoothMethod(name.to_owned()))
    }
}
