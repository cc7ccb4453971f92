//! The one conversion of Python reference streams, for `_core.BleuRefs`, `ChrfRefs` and
//! `TerRefs`: the core's [`RefSet`] (grouping, `None` removal, counts, each distinct text once).

use crate::to_py;
use parbleu_core::refset::RefSet;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// Reference streams as the `*Refs` constructors receive them: a list (one per stream) of
/// lists of `str` or `None`, one per segment. PyO3's conversion checks the types (a
/// `TypeError` the Python layer turns into a message naming the item) and holds a reference to
/// every string, so the text borrowed from them stays valid while `Streams` lives.
pub(crate) type Streams<'py> = Vec<Vec<Option<Bound<'py, PyString>>>>;

/// The [`RefSet`] of `streams`: each string's UTF-8 text borrowed, not copied (converting while
/// holding the GIL is serial time), then grouped and deduplicated with the GIL released. Equal
/// strings are usually one object repeated (a reference list scored against every system):
/// the set finds them by address before hashing any text.
pub(crate) fn ref_set<'a>(py: Python<'_>, streams: &'a Streams<'_>) -> PyResult<RefSet<'a>> {
    let borrowed: Vec<Vec<Option<&'a str>>> = streams
        .iter()
        .map(|s| {
            s.iter()
                .map(|r| r.as_ref().map(|r| r.to_str()).transpose())
                .collect()
        })
        .collect::<PyResult<_>>()?;
    py.detach(|| RefSet::from_streams(&borrowed))
        .map_err(|e| to_py(py, e))
}
