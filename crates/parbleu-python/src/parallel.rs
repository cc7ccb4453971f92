//! Thread counts: the `workers` argument every parallel call takes.

use parbleu_core::parallel;
use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;

/// A `workers` argument (a Python `int`), turned into a thread count here and nowhere else, by
/// the core's rule: 0 or negative means all cores, more than the cores is capped
/// ([`parallel::resolve`]); an integer beyond 64 bits is capped the same way. The Python
/// layer (`parbleu._workers.resolve_workers`) decides only the policy: `None` and
/// `PARBLEU_WORKERS`, the type check, serial small jobs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Workers(pub usize);

impl<'py> FromPyObject<'_, 'py> for Workers {
    type Error = PyErr;

    fn extract(ob: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        let n = match ob.extract::<i64>() {
            Ok(n) => n,
            // Beyond 64 bits: as many threads as cores (positive) or all cores (negative).
            Err(e) if e.is_instance_of::<PyOverflowError>(ob.py()) => {
                if ob.gt(0)? {
                    i64::MAX
                } else {
                    -1
                }
            }
            Err(e) => return Err(e),
        };
        Ok(Workers(parallel::resolve(n)))
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
