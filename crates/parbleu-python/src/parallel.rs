//! Thread counts: the `workers` argument every parallel call takes.

use parbleu_core::parallel;
use pyo3::prelude::*;

/// A `workers` argument (a Python `int`), resolved once by the core's rule: 0 or negative
/// means all cores, more than the cores is capped ([`parallel::resolve`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Workers(pub usize);

impl<'py> FromPyObject<'_, 'py> for Workers {
    type Error = PyErr;

    fn extract(ob: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        Ok(Workers(parallel::resolve(ob.extract::<i64>()?)))
    }
}

/// Number of logical cores the thread pools use for `workers=-1`.
#[pyfunction]
fn available_workers() -> usize {
    parallel::available()
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(available_workers, m)?)
}
