//! TER (Snover et al., 2006) exactly as SacreBLEU 2.6 computes it.
//!
//! Row layout (SacreBLEU's): `num_edits, ref_length` as f64, where `num_edits` is the fewest
//! edits over the references (ties: the first) and `ref_length` the mean reference length in
//! words. An empty reference counts as length 0 and costs one edit per hypothesis word.

pub mod shift;
pub mod tokenizer;

pub use tokenizer::TercomOpts;

use crate::error::{Error, Result};
use crate::parallel;
use crate::text::py_split;
use rustc_hash::FxHashMap;
use shift::{translation_edit_rate, TerScratch};

/// Width of a TER statistics row.
pub const WIDTH: usize = 2;

/// References of a corpus, tokenized, segment by segment (`None` references already removed).
#[derive(Debug, Clone)]
pub struct PreparedRefs {
    pub segments: Vec<Vec<String>>,
}

impl PreparedRefs {
    /// Tokenize references given segment by segment.
    pub fn new(cfg: &TercomOpts, segments: Vec<Vec<String>>, workers: usize) -> Self {
        let mut segments = segments;
        parallel::for_each_chunk(workers, &mut segments, 512, |_, chunk| {
            for seg in chunk.iter_mut() {
                for r in seg.iter_mut() {
                    *r = tokenizer::preprocess(r, cfg);
                }
            }
        });
        PreparedRefs { segments }
    }
}

/// Per-thread buffers.
#[derive(Default)]
pub struct Scratch {
    ter: TerScratch,
    hyp: Vec<u32>,
    rf: Vec<u32>,
}

/// `TER._compute_segment_statistics` of a tokenized hypothesis against tokenized references.
pub fn segment_stats(hyp: &str, refs: &[String], s: &mut Scratch) -> [f64; 2] {
    let mut vocab: FxHashMap<&str, u32> = FxHashMap::default();
    s.hyp.clear();
    for w in py_split(hyp) {
        let next = vocab.len() as u32;
        s.hyp.push(*vocab.entry(w).or_insert(next));
    }
    let mut ref_lengths = 0usize;
    let mut best_num_edits = 10_000_000_000_000_000i64; // int(1e16)
    for r in refs {
        s.rf.clear();
        for w in py_split(r) {
            let next = vocab.len() as u32;
            s.rf.push(*vocab.entry(w).or_insert(next));
        }
        let (num_edits, ref_len) = translation_edit_rate(&s.hyp, &s.rf, &mut s.ter);
        ref_lengths += ref_len;
        if num_edits < best_num_edits {
            best_num_edits = num_edits;
        }
    }
    // ref_lengths / len(ref_words): both exact in f64, so one correctly rounded division.
    [
        best_num_edits as f64,
        ref_lengths as f64 / refs.len() as f64,
    ]
}

/// Statistics of every hypothesis (row-major, 2 columns).
pub fn extract<S: AsRef<str> + Sync>(
    cfg: &TercomOpts,
    hyps: &[S],
    refs: &PreparedRefs,
    workers: usize,
) -> Result<Vec<f64>> {
    if hyps.len() != refs.segments.len() {
        return Err(Error::LengthMismatch {
            what: "hypotheses vs references".into(),
            expected: refs.segments.len(),
            found: hyps.len(),
        });
    }
    extract_block(cfg, hyps, refs, 0, workers)
}

/// Statistics of `hyps`, the hypotheses of segments `first..first + hyps.len()` (for callers
/// that process a corpus in blocks).
pub fn extract_block<S: AsRef<str> + Sync>(
    cfg: &TercomOpts,
    hyps: &[S],
    refs: &PreparedRefs,
    first: usize,
    workers: usize,
) -> Result<Vec<f64>> {
    let segments = refs
        .segments
        .get(first..first + hyps.len())
        .ok_or(Error::LengthMismatch {
            what: "hypotheses vs references".into(),
            expected: refs.segments.len(),
            found: first + hyps.len(),
        })?;
    let mut rows = vec![0.0f64; hyps.len() * WIDTH];
    // Small chunks: the cost of a segment varies a lot (shift search).
    parallel::for_each_chunk(workers, &mut rows, 16 * WIDTH, |start, chunk| {
        let mut s = Scratch::default();
        let first = start / WIDTH;
        for (j, out) in chunk.chunks_mut(WIDTH).enumerate() {
            let i = first + j;
            if segments[i].is_empty() {
                continue;
            }
            let h = tokenizer::preprocess(hyps[i].as_ref(), cfg);
            out.copy_from_slice(&segment_stats(&h, &segments[i], &mut s));
        }
    });
    Ok(rows)
}

/// `TER._compute_score_from_stats`: the score (0-100, may exceed 100) of summed statistics.
#[inline]
pub fn finalize(total_edits: f64, sum_ref_lengths: f64) -> f64 {
    let score = if sum_ref_lengths > 0.0 {
        total_edits / sum_ref_lengths
    } else if total_edits > 0.0 {
        1.0 // empty reference(s) and non-empty hypothesis
    } else {
        0.0 // both reference(s) and hypothesis are empty
    };
    100.0 * score
}

/// Column sums in index order (SacreBLEU's `sum_of_lists`), whatever the thread count.
pub fn sum_rows(rows: &[f64]) -> [f64; 2] {
    let mut total = [0.0f64; 2];
    for r in rows.chunks_exact(WIDTH) {
        total[0] += r[0];
        total[1] += r[1];
    }
    total
}

/// The score of every row (batch sentence scores).
pub fn finalize_many(rows: &[f64], workers: usize) -> Result<Vec<f64>> {
    let rem = rows.len() % WIDTH;
    if rem != 0 {
        return Err(Error::BadStatsShape {
            expected: WIDTH,
            found: rem,
        });
    }
    let mut out = vec![0.0; rows.len() / WIDTH];
    parallel::for_each_chunk(workers, &mut out, 8192, |start, chunk| {
        for (j, v) in chunk.iter_mut().enumerate() {
            let i = start + j;
            *v = finalize(rows[WIDTH * i], rows[WIDTH * i + 1]);
        }
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(hyp: &str, refs: &[&str], o: TercomOpts) -> [f64; 2] {
        let prepared = PreparedRefs::new(&o, vec![refs.iter().map(|s| s.to_string()).collect()], 1);
        let rows = extract(&o, &[hyp.to_string()], &prepared, 1).unwrap();
        [rows[0], rows[1]]
    }

    #[test]
    fn fewest_edits_and_mean_length() {
        let o = TercomOpts::default();
        assert_eq!(stats("A b c", &["a b c d", "x y"], o), [1.0, 3.0]);
        assert_eq!(stats("a b", &["", "a b c"], o), [1.0, 1.5]);
        assert_eq!(stats("a b", &[""], o), [2.0, 0.0]);
    }

    #[test]
    fn finalize_edge_cases() {
        assert_eq!(finalize(0.0, 0.0), 0.0);
        assert_eq!(finalize(3.0, 0.0), 100.0);
        assert_eq!(finalize(1.0, 3.0), 100.0 * (1.0 / 3.0));
    }

    #[test]
    fn thread_count_does_not_change_rows() {
        let o = TercomOpts::default();
        let hyps: Vec<String> = (0..200)
            .map(|i| format!("w{} a b c d{} e", i % 7, i % 3))
            .collect();
        let refs: Vec<Vec<String>> = (0..200)
            .map(|i| vec![format!("a b w{} c e d{}", i % 5, i % 4)])
            .collect();
        let p = PreparedRefs::new(&o, refs, 1);
        assert_eq!(
            extract(&o, &hyps, &p, 1).unwrap(),
            extract(&o, &hyps, &p, 3).unwrap()
        );
    }
}
