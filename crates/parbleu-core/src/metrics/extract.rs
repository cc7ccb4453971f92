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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::bleu::{self, BleuExtract};
    use crate::metrics::chrf::{self, ChrfExtract, ChrfScoreOpts};
    use crate::metrics::ter::{self, TercomOpts};
    use crate::tokenize::Tokenizer;

    fn corpus() -> (Vec<String>, Vec<Vec<String>>) {
        let hyps: Vec<String> = (0..40)
            .map(|i| format!("The cat w{} sat on the mat {} .", i % 7, i % 3))
            .collect();
        let refs = (0..40)
            .map(|i| {
                let mut r = vec![format!("the cat sat w{} on a mat", i % 5)];
                if i % 4 == 0 {
                    r.push(format!("A cat {} sat .", i % 6));
                }
                r
            })
            .collect();
        (hyps, refs)
    }

    /// BLEU's generic rows, in segment order and block by block, are the rows of its own
    /// grouped-order loop (`extract_strs`), whatever the threads.
    #[test]
    fn bleu_generic_rows_equal_its_pair_loop() {
        let cfg = BleuExtract {
            tokenizer: Tokenizer::T13a,
            lowercase: false,
            max_order: 4,
        };
        let (hyps, refs) = corpus();
        let p = bleu::PreparedRefs::new(&cfg, refs, 1);
        let (want, _) = bleu::extract_strs(&cfg, &hyps, &p.segments, 1).unwrap();
        for workers in [1, 3] {
            assert_eq!(extract(&p, &cfg, &hyps, workers).unwrap(), want);
            let mut blocks = Vec::new();
            for first in (0..40).step_by(9) {
                let end = (first + 9).min(40);
                blocks.extend(extract_block(&p, &cfg, &hyps[first..end], first, workers).unwrap());
            }
            assert_eq!(blocks, want);
        }
    }

    /// chrF's generic sentence scores are the finalize of its generic rows; TER's rows of a
    /// segment without references stay zeros; lengths are checked.
    #[test]
    fn generic_loops_check_and_score() {
        let (hyps, refs) = corpus();
        let c = ChrfExtract {
            score: ChrfScoreOpts::new(6, 2, 2.0, false),
            lowercase: true,
            whitespace: false,
        };
        let p = chrf::PreparedRefs::new(&c, refs.clone(), 1);
        let rows = extract(&p, &c, &hyps, 2).unwrap();
        let scores = sentence_scores_block(&p, &c, &hyps, 0, 2, |r| chrf::f_score(r, &c.score));
        let want: Vec<f64> = rows
            .chunks(c.width())
            .map(|r| chrf::f_score(r, &c.score))
            .collect();
        assert_eq!(scores.unwrap(), want);
        assert!(extract(&p, &c, &hyps[1..], 1).is_err());
        assert!(extract_block(&p, &c, &hyps[..5], 36, 1).is_err());
        let o = TercomOpts::default();
        let mut tr = refs;
        tr[3].clear();
        let tp = ter::PreparedRefs::new(&o, tr, 1);
        let rows = extract(&tp, &o, &hyps, 2).unwrap();
        assert_eq!(&rows[6..8], &[0.0, 0.0]);
        assert!(rows[8] > 0.0 || rows[9] > 0.0);
    }
}
