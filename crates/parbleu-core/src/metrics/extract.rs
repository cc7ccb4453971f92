//! The extraction step of the metric contract: a segment's hypothesis in, one fixed-width row of
//! additive cells out, against references prepared once ([`Extract`], implemented by the
//! prepared references themselves). The block loops every metric shares ([`extract`],
//! [`extract_block`], [`sentence_scores_block`]) are generic over it.

use crate::error::Result;
use crate::metrics::check::{block_in_range, one_per_segment};
use crate::metrics::metric::Prepare;
use crate::parallel;

/// A metric's references, prepared: the statistics row of any segment's hypothesis.
pub trait Extract: Prepare {
    /// A cell: `i64` counts (BLEU, chrF) or `f64` sums (TER).
    type Cell: Copy + Default + Send + Sync;
    /// One thread's buffers, reused from segment to segment.
    type Scratch: Default;
    /// Segments per work chunk (small where a segment's cost varies a lot: TER's shift search).
    const CHUNK: usize;

    /// Width of a row.
    fn width(cfg: &Self::Cfg) -> usize;

    /// Refuse options no row can be extracted with.
    fn check(cfg: &Self::Cfg) -> Result<()> {
        let _ = cfg;
        Ok(())
    }

    /// The row of `hyp`, the hypothesis of segment `seg`, into `out` (zeros on entry; left so
    /// for a segment without references).
    fn row(
        &self,
        cfg: &Self::Cfg,
        hyp: &str,
        seg: usize,
        s: &mut Self::Scratch,
        out: &mut [Self::Cell],
    );
}

/// Rows of every hypothesis, one per segment (row-major, [`Extract::width`] columns).
pub fn extract<E: Extract, S: AsRef<str> + Sync>(
    refs: &E,
    cfg: &E::Cfg,
    hyps: &[S],
    workers: usize,
) -> Result<Vec<E::Cell>> {
    one_per_segment(hyps.len(), refs.segments())?;
    extract_block(refs, cfg, hyps, 0, workers)
}

/// Rows of `hyps`, the hypotheses of segments `first..first + hyps.len()` (for callers that
/// process a corpus in blocks). Chunks are fixed slices of segments, so the rows never depend
/// on the thread count.
pub fn extract_block<E: Extract, S: AsRef<str> + Sync>(
    refs: &E,
    cfg: &E::Cfg,
    hyps: &[S],
    first: usize,
    workers: usize,
) -> Result<Vec<E::Cell>> {
    E::check(cfg)?;
    block_in_range(first, hyps.len(), refs.segments())?;
    let w = E::width(cfg);
    let mut rows = vec![E::Cell::default(); hyps.len() * w];
    if w == 0 {
        return Ok(rows);
    }
    parallel::for_each_chunk(workers, &mut rows, E::CHUNK * w, |start, chunk| {
        let mut s = E::Scratch::default();
        let i0 = start / w;
        for (j, out) in chunk.chunks_mut(w).enumerate() {
            let i = i0 + j;
            refs.row(cfg, hyps[i].as_ref(), first + i, &mut s, out);
        }
    });
    Ok(rows)
}

/// `score(row)` of each hypothesis of segments `first..first + hyps.len()`: sentence scores
/// without materializing the rows (one row buffer per chunk).
pub fn sentence_scores_block<E, S, F>(
    refs: &E,
    cfg: &E::Cfg,
    hyps: &[S],
    first: usize,
    workers: usize,
    score: F,
) -> Result<Vec<f64>>
where
    E: Extract,
    S: AsRef<str> + Sync,
    F: Fn(&[E::Cell]) -> f64 + Sync,
{
    E::check(cfg)?;
    block_in_range(first, hyps.len(), refs.segments())?;
    let mut out = vec![0.0; hyps.len()];
    parallel::for_each_chunk(workers, &mut out, E::CHUNK, |start, chunk| {
        let mut s = E::Scratch::default();
        let mut row = vec![E::Cell::default(); E::width(cfg)];
        for (j, v) in chunk.iter_mut().enumerate() {
            let i = start + j;
            row.iter_mut().for_each(|x| *x = E::Cell::default());
            refs.row(cfg, hyps[i].as_ref(), first + i, &mut s, &mut row);
            *v = score(&row);
        }
    });
    Ok(out)
}
