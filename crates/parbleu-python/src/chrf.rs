//! chrF / chrF++ binding: `_core.ChrfRefs` and `_core.chrf_scores`.

use crate::{distinct, to_py};
use parbleu_core::metrics::chrf::{self, ChrfExtract, ChrfScoreOpts, PreparedRefs};
use parbleu_core::parallel;
use parbleu_core::Error;
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Hasher for object addresses (one multiply; SipHash would cost more than the lookup).
#[derive(Default)]
struct AddrHasher(u64);

impl Hasher for AddrHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(26);
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Score options from Python's `beta ** 2` and `1 + beta ** 2` (converted to float there, so
/// integer and float betas give exactly SacreBLEU's arithmetic).
fn opts(
    py: Python<'_>,
    char_order: usize,
    word_order: usize,
    factor: f64,
    one_plus_factor: f64,
    eps_smoothing: bool,
) -> PyResult<ChrfScoreOpts> {
    let o = ChrfScoreOpts {
        char_order,
        word_order,
        factor,
        one_plus_factor,
        eps_smoothing,
    };
    o.check().map_err(|e| to_py(py, e))?;
    Ok(o)
}

/// Segments per GIL release, so that Ctrl-C is seen within about a second.
const BLOCK: usize = 1 << 16;

/// References of a corpus, preprocessed once and reusable across systems.
#[pyclass(module = "parbleu._core", frozen)]
struct ChrfRefs {
    cfg: ChrfExtract,
    refs: PreparedRefs,
    counts: Vec<u32>,
}

#[pymethods]
impl ChrfRefs {
    #[new]
    #[pyo3(signature = (streams, char_order, word_order, factor, one_plus_factor, eps_smoothing, lowercase, whitespace, workers))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        streams: Vec<Vec<Bound<'_, PyAny>>>,
        char_order: usize,
        word_order: usize,
        factor: f64,
        one_plus_factor: f64,
        eps_smoothing: bool,
        lowercase: bool,
        whitespace: bool,
        workers: i64,
    ) -> PyResult<Self> {
        let score = opts(
            py,
            char_order,
            word_order,
            factor,
            one_plus_factor,
            eps_smoothing,
        )?;
        let cfg = ChrfExtract {
            score,
            lowercase,
            whitespace,
        };
        let workers = parallel::resolve(workers);
        // Borrowed, not copied, and each Python object once (reference lists often repeat
        // the same string objects): the GIL-held part stays small.
        let n = streams.first().map_or(0, Vec::len);
        if streams.iter().any(|s| s.len() != n) {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "reference streams differ in length",
            ));
        }
        let mut texts: Vec<&str> = Vec::new();
        let mut seen: HashMap<usize, u32, BuildHasherDefault<AddrHasher>> = HashMap::default();
        let mut starts = Vec::with_capacity(n + 1);
        let mut items = Vec::with_capacity(n * streams.len());
        let mut counts = Vec::with_capacity(n);
        starts.push(0);
        for i in 0..n {
            for s in &streams {
                let r = &s[i];
                if r.is_none() {
                    continue;
                }
                let r = r.cast::<PyString>()?;
                let key = r.as_ptr() as usize;
                let id = match seen.get(&key) {
                    Some(&id) => id,
                    None => {
                        let id = texts.len() as u32;
                        texts.push(r.to_str()?);
                        seen.insert(key, id);
                        id
                    }
                };
                items.push(id);
            }
            counts.push((items.len() - starts[i]) as u32);
            starts.push(items.len());
        }
        let refs = py.detach(|| PreparedRefs::from_strs(&cfg, &texts, starts, items, workers));
        Ok(ChrfRefs { cfg, refs, counts })
    }

    fn __len__(&self) -> usize {
        self.counts.len()
    }

    /// Distinct reference counts per segment (sorted).
    fn ref_counts(&self) -> Vec<u32> {
        distinct(&self.counts)
    }

    /// Index of the first segment without any reference, if there is one.
    fn first_segment_without_refs(&self) -> Option<usize> {
        self.counts.iter().position(|&c| c == 0)
    }

    /// Statistics rows as little-endian int64 bytes.
    fn extract<'py>(
        &self,
        py: Python<'py>,
        hyps: Vec<Bound<'py, PyString>>,
        workers: i64,
    ) -> PyResult<Bound<'py, PyBytes>> {
        // Borrowed, not copied; processed in blocks, with Ctrl-C checked between them.
        let hyps: Vec<&str> = hyps.iter().map(|h| h.to_str()).collect::<PyResult<_>>()?;
        let workers = parallel::resolve(workers);
        let n = self.refs.len();
        if hyps.len() != n {
            let e = Error::LengthMismatch {
                what: "hypotheses vs references".into(),
                expected: n,
                found: hyps.len(),
            };
            return Err(to_py(py, e));
        }
        let mut rows = Vec::new();
        for start in (0..hyps.len()).step_by(BLOCK) {
            let block = &hyps[start..(start + BLOCK).min(hyps.len())];
            let r = py
                .detach(|| chrf::extract_block(&self.cfg, block, &self.refs, start, workers))
                .map_err(|e| to_py(py, e))?;
            rows.extend_from_slice(&r);
            py.check_signals()?;
        }
        Ok(le_bytes(py, &rows, |x| x.to_le_bytes()))
    }

    /// Sentence chrF of every segment as little-endian float64 bytes (no statistics rows).
    fn sentence_scores<'py>(
        &self,
        py: Python<'py>,
        hyps: Vec<Bound<'py, PyString>>,
        workers: i64,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let hyps: Vec<&str> = hyps.iter().map(|h| h.to_str()).collect::<PyResult<_>>()?;
        let workers = parallel::resolve(workers);
        let n = self.refs.len();
        if hyps.len() != n {
            let e = Error::LengthMismatch {
                what: "hypotheses vs references".into(),
                expected: n,
                found: hyps.len(),
            };
            return Err(to_py(py, e));
        }
        let mut out = Vec::with_capacity(n);
        for start in (0..hyps.len()).step_by(BLOCK) {
            let block = &hyps[start..(start + BLOCK).min(hyps.len())];
            let r = py
                .detach(|| {
                    chrf::sentence_scores_block(&self.cfg, block, &self.refs, start, workers)
                })
                .map_err(|e| to_py(py, e))?;
            out.extend_from_slice(&r);
            py.check_signals()?;
        }
        Ok(le_bytes(py, &out, |x| x.to_le_bytes()))
    }
}

/// `values` as little-endian bytes, written straight into the bytes object.
fn le_bytes<'py, T: Copy>(
    py: Python<'py>,
    values: &[T],
    f: impl Fn(T) -> [u8; 8],
) -> Bound<'py, PyBytes> {
    PyBytes::new_with(py, values.len() * 8, |buf| {
        for (c, &v) in buf.chunks_exact_mut(8).zip(values) {
            c.copy_from_slice(&f(v));
        }
        Ok(())
    })
    .expect("allocating the result")
}

/// chrF of every row of an int64 statistics matrix (C-contiguous buffer), as float64 bytes.
#[pyfunction]
#[pyo3(signature = (rows, width, char_order, word_order, factor, one_plus_factor, eps_smoothing, workers))]
#[allow(clippy::too_many_arguments)]
fn chrf_scores<'py>(
    py: Python<'py>,
    rows: PyBuffer<i64>,
    width: usize,
    char_order: usize,
    word_order: usize,
    factor: f64,
    one_plus_factor: f64,
    eps_smoothing: bool,
    workers: i64,
) -> PyResult<Bound<'py, PyBytes>> {
    let o = opts(
        py,
        char_order,
        word_order,
        factor,
        one_plus_factor,
        eps_smoothing,
    )?;
    if width != o.width() {
        return Err(to_py(
            py,
            Error::BadStatsShape {
                expected: o.width(),
                found: width,
            },
        ));
    }
    let data = rows.to_vec(py)?;
    let workers = parallel::resolve(workers);
    let out = py
        .detach(|| chrf::finalize_many(&data, &o, workers))
        .map_err(|e| to_py(py, e))?;
    Ok(le_bytes(py, &out, |x| x.to_le_bytes()))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ChrfRefs>()?;
    m.add_function(wrap_pyfunction!(chrf_scores, m)?)?;
    Ok(())
}
