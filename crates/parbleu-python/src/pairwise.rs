//! Pairwise scoring and token-id statistics: `_core.PairTable`, `_core.bleu_ids_extract`.

use crate::options::{BleuOptions, ChrfOptions, TerOptions};
use crate::{interruptible, le_bytes, to_py, ErrorClass, Order};
use parbleu_core::ids::{self, RefStream, Seqs};
use parbleu_core::pairwise::{NgramTable, TerTable};
use parbleu_core::parallel;
use parbleu_core::Error;
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

enum Table {
    Ngram(NgramTable),
    Ter(TerTable),
}

/// A writable, C-contiguous float64 buffer of exactly `len` items, borrowed for one call.
struct OutBuf {
    ptr: usize,
    len: usize,
}

impl OutBuf {
    fn new(py: Python<'_>, buf: &PyBuffer<f64>, len: usize) -> PyResult<Self> {
        if buf.readonly() || !buf.is_c_contiguous() || buf.item_count() != len {
            return Err(ErrorClass::InvalidOption.err(
                py,
                format!("out: expected a writable C-contiguous float64 buffer of {len} items"),
            ));
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

fn check_range(py: Python<'_>, what: &str, a: usize, b: usize, n: usize) -> PyResult<()> {
    if a > b || b > n {
        return Err(to_py(
            py,
            Error::InvalidOption {
                name: what.into(),
                value: format!("{a}..{b}"),
                expected: format!("a range inside 0..{n}"),
            },
        ));
    }
    Ok(())
}

/// Strings preprocessed once, their n-grams interned once, for H × R score matrices.
#[pyclass(module = "parbleu._core", frozen)]
struct PairTable {
    table: Table,
}

#[pymethods]
impl PairTable {
    /// BLEU table (sentence BLEU per pair with the finalize options of `options`).
    #[staticmethod]
    #[pyo3(signature = (strings, options, workers))]
    fn bleu(py: Python<'_>, strings: Vec<String>, options: &BleuOptions, workers: i64) -> Self {
        let (cfg, opts) = (options.extract, options.score);
        let workers = parallel::resolve(workers);
        let t = py.detach(|| NgramTable::bleu(&cfg, opts, &strings, workers));
        PairTable {
            table: Table::Ngram(t),
        }
    }

    /// chrF / chrF++ table.
    #[staticmethod]
    #[pyo3(signature = (strings, options, workers))]
    fn chrf(py: Python<'_>, strings: Vec<String>, options: &ChrfOptions, workers: i64) -> Self {
        let cfg = options.extract;
        let workers = parallel::resolve(workers);
        let t = py.detach(|| NgramTable::chrf(&cfg, &strings, workers));
        PairTable {
            table: Table::Ngram(t),
        }
    }

    /// TER table (strings tokenized once; every pair runs the edit search).
    #[staticmethod]
    #[pyo3(signature = (strings, options, workers))]
    fn ter(py: Python<'_>, strings: Vec<String>, options: &TerOptions, workers: i64) -> Self {
        let cfg = options.tercom;
        let workers = parallel::resolve(workers);
        let t = py.detach(|| TerTable::new(&cfg, &strings, workers));
        PairTable {
            table: Table::Ter(t),
        }
    }

    fn __len__(&self) -> usize {
        match &self.table {
            Table::Ngram(t) => t.len(),
            Table::Ter(t) => t.len(),
        }
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
        workers: i64,
    ) -> PyResult<()> {
        let ((r0, r1), (c0, c1)) = (rows, cols);
        let n = self.__len__();
        check_range(py, "rows", r0, r1, n)?;
        check_range(py, "columns", c0, c1, n)?;
        let ob = OutBuf::new(py, &out, (r1 - r0) * (c1 - c0))?;
        let rows: Vec<usize> = (r0..r1).collect();
        let cols: Vec<usize> = (c0..c1).collect();
        let workers = parallel::resolve(workers);
        // Interruptible: one TER pair of huge strings can take seconds.
        let done = interruptible(py, || {
            // SAFETY: see `OutBuf::slice`: `out` is held until after this closure, and the array
            // is the caller's own.
            let o = unsafe { ob.slice() };
            match &self.table {
                Table::Ngram(t) => t.score_rect(&rows, &cols, o, workers),
                Table::Ter(t) => t.score_rect(&rows, &cols, o, workers),
            }
        });
        drop(out);
        done
    }

    /// Rows `r0..r1` of the every-string-against-every-string matrix, filling both `(i, j)`
    /// and `(j, i)` for `j >= i` (`out`: the full n × n matrix).
    fn score_symmetric(
        &self,
        py: Python<'_>,
        r0: usize,
        r1: usize,
        out: PyBuffer<f64>,
        workers: i64,
    ) -> PyResult<()> {
        let Table::Ngram(t) = &self.table else {
            return Err(ErrorClass::InvalidOption.err(py, "score_symmetric: not an n-gram metric"));
        };
        let n = t.len();
        check_range(py, "rows", r0, r1, n)?;
        let ob = OutBuf::new(py, &out, n * n)?;
        let workers = parallel::resolve(workers);
        py.detach(|| {
            // SAFETY: as in `score_rect`.
            let o = unsafe { ob.slice() };
            t.score_symmetric(r0..r1, o, workers);
        });
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
        workers: i64,
    ) -> PyResult<()> {
        let ((r0, r1), (c0, c1)) = (rows, cols);
        let Table::Ngram(t) = &self.table else {
            return Err(ErrorClass::InvalidOption.err(py, "score_aggregate: not an n-gram metric"));
        };
        let n = t.len();
        check_range(py, "rows", r0, r1, n)?;
        check_range(py, "columns", c0, c1, n)?;
        let w = weights.to_vec(py)?;
        if w.len() != c1 - c0 {
            return Err(ErrorClass::LengthMismatch.err(py, "weights: one per reference expected"));
        }
        let ob = OutBuf::new(py, &out, r1 - r0)?;
        let rows: Vec<usize> = (r0..r1).collect();
        let cols: Vec<usize> = (c0..c1).collect();
        let workers = parallel::resolve(workers);
        py.detach(|| {
            // SAFETY: as in `score_rect`.
            let o = unsafe { ob.slice() };
            t.score_aggregate(&rows, &cols, &w, o, workers);
        });
        drop(out);
        Ok(())
    }
}

fn offsets(py: Python<'_>, buf: &PyBuffer<i64>, what: &str) -> PyResult<Vec<usize>> {
    buf.to_vec(py)?
        .into_iter()
        .map(|x| {
            usize::try_from(x)
                .map_err(|_| ErrorClass::InvalidOption.err(py, format!("{what}: negative offset")))
        })
        .collect()
}

/// One reference stream of ids: flat ids, offsets, and an optional presence mask.
type RefBuffers = (PyBuffer<i64>, PyBuffer<i64>, Option<PyBuffer<u8>>);

/// BLEU rows of id sequences (flat ids + offsets per stream), as little-endian int64 bytes.
///
/// `refs`: one `(ids, offsets, present)` triple per reference stream; `present` is a uint8
/// mask (or None: every segment has a reference in that stream).
#[pyfunction]
#[pyo3(signature = (hyp_ids, hyp_offsets, refs, pad_id, max_order, workers))]
fn bleu_ids_extract<'py>(
    py: Python<'py>,
    hyp_ids: PyBuffer<i64>,
    hyp_offsets: PyBuffer<i64>,
    refs: Vec<RefBuffers>,
    pad_id: Option<i64>,
    max_order: Order,
    workers: i64,
) -> PyResult<Bound<'py, PyBytes>> {
    let max_order = max_order.0;
    let hdata = hyp_ids.to_vec(py)?;
    let hoffs = offsets(py, &hyp_offsets, "hypotheses")?;
    let mut rdata = Vec::with_capacity(refs.len());
    for (d, o, p) in &refs {
        let present: Option<Vec<bool>> = match p {
            Some(p) => Some(p.to_vec(py)?.into_iter().map(|x| x != 0).collect()),
            None => None,
        };
        rdata.push((d.to_vec(py)?, offsets(py, o, "references")?, present));
    }
    let workers = parallel::resolve(workers);
    let rows = py
        .detach(|| {
            let h = Seqs::new(&hdata, &hoffs, "hypotheses")?;
            let mut streams = Vec::with_capacity(rdata.len());
            for (d, o, p) in &rdata {
                streams.push(RefStream {
                    seqs: Seqs::new(d, o, "references")?,
                    present: p.as_deref(),
                });
            }
            ids::bleu_extract(h, &streams, pad_id, max_order, workers)
        })
        .map_err(|e| to_py(py, e))?;
    le_bytes(py, &rows)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PairTable>()?;
    m.add_function(wrap_pyfunction!(bleu_ids_extract, m)?)?;
    Ok(())
}
