//! TER (Snover et al., 2006) exactly as SacreBLEU 2.6 computes it.
//!
//! Row layout (SacreBLEU's): `num_edits, ref_length` as f64, where `num_edits` is the fewest
//! edits over the references (ties: the first) and `ref_length` the mean reference length in
//! words. An empty reference counts as length 0 and costs one edit per hypothesis word.

pub mod shift;
pub mod tokenizer;

pub use tokenizer::TercomOpts;

use super::count::Count;
use super::extract::{self, Extract};
use super::metric::Metric;
use super::sacrebleu_compat::Num;
use crate::error::{Error, Result};
use crate::parallel;
use crate::refset::{PreparedText, TextPool};
use crate::text::py_split;
use crate::vocab::push_ids;
use rustc_hash::FxHashMap;
use shift::{translation_edit_rate, TerScratch};

/// Width of a TER statistics row.
pub const WIDTH: usize = 2;

/// References of a corpus, tokenized: each distinct text once, and for every segment the ids
/// of its references (`None` references already removed). The unit TER prepares is the
/// single text (a segment's references are aligned one by one).
pub type PreparedRefs = TextPool<String>;

/// TER prepares a reference by tokenizing it.
impl PreparedText for String {
    type Cfg = TercomOpts;
    const CHUNK: usize = 512;
    fn prepare(cfg: &TercomOpts, text: &str) -> Self {
        tokenizer::preprocess(text, cfg)
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
pub fn segment_stats<'r>(
    hyp: &str,
    refs: impl ExactSizeIterator<Item = &'r str>,
    s: &mut Scratch,
) -> [f64; 2] {
    let n_refs = refs.len();
    let mut vocab: FxHashMap<&str, u32> = FxHashMap::default();
    push_ids(&mut vocab, py_split(hyp), 0, &mut s.hyp);
    let mut ref_lengths = 0usize;
    let mut best_num_edits = 10_000_000_000_000_000i64; // int(1e16)
    for r in refs {
        push_ids(&mut vocab, py_split(r), 0, &mut s.rf);
        let (num_edits, ref_len) = translation_edit_rate(&s.hyp, &s.rf, &mut s.ter);
        ref_lengths += ref_len;
        if num_edits < best_num_edits {
            best_num_edits = num_edits;
        }
    }
    // ref_lengths / len(ref_words): both exact in f64, so one correctly rounded division.
    [best_num_edits as f64, ref_lengths as f64 / n_refs as f64]
}

/// TER's references give a segment's row: the fewest edits over them, their mean length.
impl Extract for PreparedRefs {
    type Cell = f64;
    type Scratch = Scratch;
    // Small chunks: the cost of a segment varies a lot (shift search).
    const CHUNK: usize = 16;

    fn width(_cfg: &TercomOpts) -> usize {
        WIDTH
    }

    #[inline]
    fn row(&self, cfg: &TercomOpts, hyp: &str, seg: usize, s: &mut Scratch, out: &mut [f64]) {
        let refs = self.refs(seg).map(String::as_str);
        if refs.len() == 0 {
            return;
        }
        let h = tokenizer::preprocess(hyp, cfg);
        out.copy_from_slice(&segment_stats(&h, refs, s));
    }
}

/// Statistics of every hypothesis (row-major, 2 columns): the generic [`extract::extract`] of
/// TER's references.
pub fn extract<S: AsRef<str> + Sync>(
    cfg: &TercomOpts,
    hyps: &[S],
    refs: &PreparedRefs,
    workers: usize,
) -> Result<Vec<f64>> {
    extract::extract(refs, cfg, hyps, workers)
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

/// TER's finalize step in the metric contract (float rows `num_edits, ref_length`; TER has no
/// finalize options).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TerScore;

impl Metric for TerScore {
    const FLOAT_ROWS: bool = true;

    fn width(&self) -> usize {
        WIDTH
    }

    #[inline]
    fn finalize<T: Count>(&self, row: &[T]) -> f64 {
        finalize(row[0].to_f64(), row[1].to_f64())
    }

    fn compat(&self, row: &[Num], _int_storage: bool) -> Num {
        compat(row[0], row[1])
    }
}

/// SacreBLEU's `TER._compute_score_from_stats` on numpy values.
fn compat(total_edits: Num, sum_ref_lengths: Num) -> Num {
    let score = if sum_ref_lengths.value() > 0.0 {
        total_edits / sum_ref_lengths
    } else if total_edits.value() > 0.0 {
        Num::Py(1.0)
    } else {
        Num::Py(0.0)
    };
    Num::Py(100.0) * score
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
        let prepared = PreparedRefs::new(&o, vec![refs.to_vec()], 1);
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

    #[test]
    fn blocks_and_shared_references_change_nothing() {
        // 20 segments with references repeating every 5 (prepared once each), scored whole,
        // in blocks of 7 (`first` > 0) on 1 and 3 threads, and segment by segment alone.
        let o = TercomOpts::default();
        let hyps: Vec<String> = (0..20)
            .map(|i| format!("a w{} b c{}", i % 6, i % 4))
            .collect();
        let refs: Vec<Vec<String>> = (0..20)
            .map(|i| vec![format!("a b w{}", i % 5), format!("c{} a", i % 5)])
            .collect();
        let p = PreparedRefs::new(&o, refs.clone(), 1);
        assert_eq!(p.index().distinct_texts(), 10);
        let whole = extract(&o, &hyps, &p, 1).unwrap();
        for workers in [1, 3] {
            let mut blocks = Vec::new();
            for first in (0..20).step_by(7) {
                let end = (first + 7).min(20);
                let block = &hyps[first..end];
                blocks.extend(extract::extract_block(&p, &o, block, first, workers).unwrap());
            }
            assert_eq!(blocks, whole);
        }
        for i in 0..20 {
            let alone = PreparedRefs::new(&o, vec![refs[i].clone()], 1);
            let row = extract(&o, &hyps[i..=i], &alone, 1).unwrap();
            assert_eq!(row, whole[2 * i..2 * i + 2]);
        }
    }
}
