//! chrF / chrF++ binding: its references behind `_core.Refs`, `_core.chrf_scores`,
//! `_core.chrf_f_score`.

use crate::convert::{borrow_hyps, le_bytes};
use crate::error::Result;
use crate::interrupt::{blocks, for_each_block};
use crate::metrics::{batch, check_width};
use crate::options::ChrfOptions;
use crate::parallel::Workers;
use crate::refs::refs_class;
use parbleu_core::metrics::chrf::{self, PreparedRefs};
use parbleu_core::metrics::extract;
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// Segments per GIL release, so that Ctrl-C is seen within about a second.
const BLOCK: usize = 1 << 16;

refs_class! {
    /// References of a corpus, preprocessed once and reusable across systems.
    ChrfRefs {
        prepared: PreparedRefs, block: BLOCK
    }
    {
        /// Statistics rows of several systems (each one hypothesis per segment) as little-endian
        /// int64 bytes, system after system; with `sums`, only each system's column sums
        /// (`len(systems)` rows). Each segment's references are probed by every system while
        /// their tables are in the cache.
        pub(crate) fn extract_many<'py>(
            &self,
            py: Python<'py>,
            systems: Vec<Vec<Bound<'py, PyString>>>,
            workers: Workers,
            sums: bool,
        ) -> Result<Bound<'py, PyBytes>> {
            let n = self.refs.len();
            let texts: Vec<Vec<&str>> = systems
                .iter()
                .map(|s| borrow_hyps(s, n))
                .collect::<Result<_>>()?;
            let (w, n_sys) = (self.cfg.width(), texts.len());
            let mut out = vec![0i64; if sums { n_sys * w } else { n_sys * n * w }];
            // About BLOCK hypotheses per GIL release, whatever the number of systems.
            let block = (BLOCK / n_sys.max(1)).max(1);
            for_each_block(py, blocks(n, block), |b| {
                let slices: Vec<&[&str]> = texts.iter().map(|t| &t[b.clone()]).collect();
                let rows = chrf::extract_many(&self.cfg, &slices, &self.refs, b.start, workers.0)?;
                let m = b.len();
                for (k, sys_rows) in rows.chunks_exact(m * w).enumerate() {
                    if sums {
                        let total = &mut out[k * w..(k + 1) * w];
                        for row in sys_rows.chunks_exact(w) {
                            total.iter_mut().zip(row).for_each(|(t, &x)| *t += x);
                        }
                    } else {
                        out[(k * n + b.start) * w..(k * n + b.end) * w].copy_from_slice(sys_rows);
                    }
                }
                Ok::<_, parbleu_core::Error>(())
            })?;
            Ok(le_bytes(py, &out)?)
        }

        /// Sentence chrF of every segment as little-endian float64 bytes (no statistics rows).
        pub(crate) fn sentence_scores<'py>(
            &self,
            py: Python<'py>,
            hyps: Vec<Bound<'py, PyString>>,
            workers: Workers,
        ) -> Result<Bound<'py, PyBytes>> {
            let score = |row: &[i64]| chrf::f_score(row, &self.cfg.score);
            let out = batch(py, &hyps, self.refs.len(), BLOCK, |start, block| {
                extract::sentence_scores_block(&self.refs, &self.cfg, block, start, workers.0, score)
            })?;
            Ok(le_bytes(py, &out)?)
        }
    }
}

/// chrF of every row of an int64 statistics matrix (C-contiguous buffer), as float64 bytes.
#[pyfunction]
#[pyo3(signature = (rows, width, options, workers))]
fn chrf_scores<'py>(
    py: Python<'py>,
    rows: PyBuffer<i64>,
    width: usize,
    options: &ChrfOptions,
    workers: Workers,
) -> Result<Bound<'py, PyBytes>> {
    let o = options.extract.score;
    check_width(o.width(), width)?;
    let data = rows.to_vec(py)?;
    let out = py.detach(|| chrf::finalize_many(&data, &o, workers.0))?;
    Ok(le_bytes(py, &out)?)
}

/// `CHRF._compute_f_score` of one statistics row through the core's one finalize (Python calls
/// it for integer counts exact in a float; `stats` has the options' width).
#[pyfunction]
#[pyo3(signature = (stats, options))]
fn chrf_f_score(stats: Vec<f64>, options: &ChrfOptions) -> Result<f64> {
    let o = options.extract.score;
    check_width(o.width(), stats.len())?;
    Ok(chrf::f_score(&stats, &o))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(chrf_scores, m)?)?;
    m.add_function(wrap_pyfunction!(chrf_f_score, m)?)
}
