//! Conversions at the boundary: Python strings borrowed as `&str`, numbers returned as
//! little-endian bytes (numpy reads them with `np.frombuffer`).

use crate::error::Result;
use parbleu_core::Error as CoreError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// The UTF-8 text of every string, borrowed (not copied: converting while holding the GIL is
/// serial time); valid while the `str` objects live (they are immutable).
pub(crate) fn strs<'a>(items: &'a [Bound<'_, PyString>]) -> PyResult<Vec<&'a str>> {
    items.iter().map(|x| x.to_str()).collect()
}

/// [`strs`] of every list.
pub(crate) fn str_lists<'a>(lists: &'a [Vec<Bound<'_, PyString>>]) -> PyResult<Vec<Vec<&'a str>>> {
    lists.iter().map(|l| strs(l)).collect()
}

/// The hypotheses' text, borrowed ([`strs`]); an error unless there are `expected` of them.
pub(crate) fn borrow_hyps<'a>(
    hyps: &'a [Bound<'_, PyString>],
    expected: usize,
) -> Result<Vec<&'a str>> {
    let hyps = strs(hyps)?;
    if hyps.len() != expected {
        return Err(CoreError::LengthMismatch {
            what: "hypotheses vs references".into(),
            expected,
            found: hyps.len(),
        }
        .into());
    }
    Ok(hyps)
}

/// Numbers written as 8 little-endian bytes.
pub(crate) trait LeBytes: Copy {
    fn le(self) -> [u8; 8];
}

impl LeBytes for i64 {
    fn le(self) -> [u8; 8] {
        self.to_le_bytes()
    }
}

// Counts: the same bytes as the int64 Python reads them as (all are below 2**63).
impl LeBytes for u64 {
    fn le(self) -> [u8; 8] {
        self.to_le_bytes()
    }
}

impl LeBytes for f64 {
    fn le(self) -> [u8; 8] {
        self.to_le_bytes()
    }
}

/// `values` as little-endian bytes, written straight into a new bytes object.
pub(crate) fn le_bytes<'py, T: LeBytes>(
    py: Python<'py>,
    values: &[T],
) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_with(py, values.len() * 8, |buf| {
        for (c, &v) in buf.chunks_exact_mut(8).zip(values) {
            c.copy_from_slice(&v.le());
        }
        Ok(())
    })
}
