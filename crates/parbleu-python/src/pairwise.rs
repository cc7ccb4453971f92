//! Pairwise scoring: `_core.PairTable` over the core's [`Table`] (its list of pairwise kinds).

use crate::error::{ErrorClass, Result};
use crate::interrupt::interruptible;
use crate::options::MetricOptions;
use crate::parallel::Workers;
use parbleu_core::pairwise::Table;
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;

/// A writable, C-contiguous float64 buffer of exactly `len` items, borrowed for one call.
struct OutBuf {
    ptr: usize,
    len: usize,
}

impl OutBuf {
    fn new(buf: &PyBuffer<f64>, len: usize) -> Result<Self> {
        if buf.readonly() || !buf.is_c_contiguous() || buf.item_count() != len {
            return Err(ErrorClass::InvalidOption.err(format!(
                "out: expected a writable C-contiguous float64 buffer of {len} items"
            )));
        }
        Ok(OutBuf {
            ptr: buf.buf_ptr() as usize,
            len,
        })
    }

    /// # Safety
    ///
    /// The `PyBuffer` the pointer came from must be held (not released) for as long as the
    /// slice is used, and nothing else may read or write its memory meanwhile.
    ///
    /// Why the callers meet this: each holds `out` (a buffer export) until after the closure
    /// returns, and an exporting numpy array cannot be resized or freed, so the pointer stays
    /// valid for `len` items (checked writable, C-contiguous and of that length in `new`).
    /// Nothing in Rust aliases it (the other inputs are copied first). Python threads could run
    /// while the GIL is released, but the only caller (`parbleu.pairwise`) passes arrays it
    /// allocated itself and has not yet returned, so no other thread can reach them: the same
    /// contract as numpy's own GIL-released loops. A safe version (score into a `Vec`, then
    /// `copy_from_slice`) would copy the whole n x n matrix in and out per block of
    /// `score_symmetric`.
    unsafe fn slice<'a>(&self) -> &'a mut [f64] {
        std::slice::from_raw_parts_mut(self.ptr as *mut f64, self.len)
    }
}

/// Strings preprocessed once, their n-grams interned once, for H × R score matrices.
#[pyclass(module = "parbleu._core", frozen)]
struct PairTable {
    table: Table,
}

#[pymethods]
impl PairTable {
    /// The table of the metric whose options object `options` is (the core's list of pairwise
    /// kinds): BLEU (sentence BLEU per pair with the finalize options), chrF / chrF++, TER
    /// (strings tokenized once; every pair runs the edit search), ROUGE (one rouge type and
    /// measure).
    #[new]
    #[pyo3(signature = (strings, options, workers))]
    fn py_new(
        py: Python<'_>,
        strings: Vec<String>,
        options: MetricOptions,
        workers: Workers,
    ) -> Result<Self> {
        let opts = options.pair_options()?;
        let table = py.detach(|| Table::build(&opts, &strings, workers.0));
        Ok(PairTable { table })
    }

    /// Whether the kind declares `score_symmetric` (each unordered pair's shared work once).
    #[getter]
    fn symmetric(&self) -> bool {
        self.table.modes().symmetric
    }

    /// Whether the kind declares `score_aggregate` (reference aggregation).
    #[getter]
    fn aggregates(&self) -> bool {
        self.table.modes().aggregate
    }

    fn __len__(&self) -> usize {
        self.table.len()
    }

    /// Scores of strings `rows = (r0, r1)` (hypotheses `r0..r1`) against `cols = (c0, c1)`
    /// (references `c0..c1`) into `out`.
    #[pyo3(signature = (rows, cols, out, workers))]
    fn score_rect(
        &self,
        py: Python<'_>,
        rows: (usize, usize),
        cols: (usize, usize),
        out: PyBuffer<f64>,
        workers: Workers,
    ) -> Result<()> {
        let ((r0, r1), (c0, c1)) = (rows, cols);
        self.table.check_range("rows", r0, r1)?;
        self.table.check_range("columns", c0, c1)?;
        let ob = OutBuf::new(&out, (r1 - r0) * (c1 - c0))?;
        let rows: Vec<usize> = (r0..r1).collect();
        let cols: Vec<usize> = (c0..c1).collect();
        // Interruptible: one TER pair of huge strings can take seconds.
        interruptible(py, || {
            // SAFETY: see `OutBuf::slice`: `out` is held until after this closure, and the array
            // is the caller's own.
            let o = unsafe { ob.slice() };
            self.table.score_rect(&rows, &cols, o, workers.0);
        })?;
        drop(out);
        Ok(())
    }

    /// Rows `r0..r1` of the every-string-against-every-string matrix, filling both `(i, j)`
    /// and `(j, i)` for `j >= i` (`out`: the full n × n matrix).
    fn score_symmetric(
        &self,
        py: Python<'_>,
        r0: usize,
        r1: usize,
        out: PyBuffer<f64>,
        workers: Workers,
    ) -> Result<()> {
        let t = &self.table;
        t.check_mode("score_symmetric")?;
        t.check_range("rows", r0, r1)?;
        let ob = OutBuf::new(&out, t.len() * t.len())?;
        py.detach(|| {
            // SAFETY: as in `score_rect`.
            let o = unsafe { ob.slice() };
            t.score_symmetric(r0..r1, o, workers.0)
        })?;
        drop(out);
        Ok(())
    }

    /// Reference aggregation: strings `rows = (r0, r1)` against the weighted mean of
    /// `cols = (c0, c1)`.
    #[pyo3(signature = (rows, cols, weights, out, workers))]
    fn score_aggregate(
        &self,
        py: Python<'_>,
        rows: (usize, usize),
        cols: (usize, usize),
        weights: PyBuffer<f64>,
        out: PyBuffer<f64>,
        workers: Workers,
    ) -> Result<()> {
        let ((r0, r1), (c0, c1)) = (rows, cols);
        let t = &self.table;
        t.check_mode("score_aggregate")?;
        t.check_range("rows", r0, r1)?;
        t.check_range("columns", c0, c1)?;
        let w = weights.to_vec(py)?;
        if w.len() != c1 - c0 {
            return Err(ErrorClass::LengthMismatch.err("weights: one per reference expected"));
        }
        let ob = OutBuf::new(&out, r1 - r0)?;
        let rows: Vec<usize> = (r0..r1).collect();
        let cols: Vec<usize> = (c0..c1).collect();
        py.detach(|| {
            // SAFETY: as in `score_rect`.
            let o = unsafe { ob.slice() };
            t.score_aggregate(&rows, &cols, &w, o, workers.0)
        })?;
        drop(out);
        Ok(())
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PairTable>()
}
