//! rouge-score 0.1.2's `_score_ngrams`, `_score_lcs` and `_summary_level_lcs`, as integer
//! statistics `[matches, prediction_count, reference_count]` and the floats made from them.

use super::lcs::{self, Masks};
use crate::parallel;
use rustc_hash::FxHashMap;

/// Tokens of one text as ids of a vocabulary shared by one prediction and its references,
/// as a whole and sentence by sentence (rougeLsum's newline-separated sentences).
#[derive(Debug, Default, Clone)]
pub struct Text {
    /// Every token id, in order.
    pub all: Vec<u32>,
    /// End of each non-empty line's tokens in `all` (a line may have none).
    pub ends: Vec<u32>,
}

impl Text {
    /// The token ids of each non-empty line.
    pub fn sents(&self) -> impl Iterator<Item = &[u32]> + '_ {
        let mut start = 0usize;
        self.ends.iter().map(move |&e| {
            let s = &self.all[start..e as usize];
            start = e as usize;
            s
        })
    }
}

/// `[matches, prediction_count, reference_count]`.
pub type Stats = [u64; 3];

/// rouge-score's `_create_ngrams` + `_score_ngrams` counts: clipped n-gram overlap. Ids are
/// below `vocab`.
pub fn ngram_stats(pred: &[u32], reff: &[u32], n: usize, vocab: usize) -> Stats {
    let count = |len: usize| (len + 1).saturating_sub(n);
    let (pc, rc) = (count(pred.len()), count(reff.len()));
    if pc == 0 || rc == 0 {
        return [0, pc as u64, rc as u64];
    }
    // Each prediction n-gram takes one of the reference's: sum over n-grams of min(counts).
    let matches = if n == 1 {
        let mut left = vec![0u32; vocab];
        reff.iter().for_each(|&t| left[t as usize] += 1);
        pred.iter()
            .map(|&t| take(Some(&mut left[t as usize])))
            .sum()
    } else if (vocab as f64).powi(n as i32) < 1.8e19 {
        // An n-gram as one number in base `vocab`: one integer hash instead of a slice's.
        let key = |w: &[u32]| w.iter().fold(0u64, |k, &t| k * vocab as u64 + u64::from(t));
        let mut left: FxHashMap<u64, u32> = FxHashMap::default();
        reff.windows(n)
            .for_each(|w| *left.entry(key(w)).or_insert(0) += 1);
        pred.windows(n).map(|w| take(left.get_mut(&key(w)))).sum()
    } else {
        let mut left: FxHashMap<&[u32], u32> = FxHashMap::default();
        reff.windows(n)
            .for_each(|w| *left.entry(w).or_insert(0) += 1);
        pred.windows(n).map(|w| take(left.get_mut(w))).sum()
    };
    [matches, pc as u64, rc as u64]
}

/// 1 if one of the reference's n-grams is left (taking it), else 0.
#[inline]
fn take(left: Option<&mut u32>) -> u64 {
    match left {
        Some(c) if *c > 0 => {
            *c -= 1;
            1
        }
        _ => 0,
    }
}

/// rouge-score's `_score_lcs` counts; `pred` are the masks of the prediction's tokens.
pub fn lcs_stats(pred: &Masks, pred_len: usize, reff: &[u32]) -> Stats {
    [
        lcs::lcs_len_masks(reff, pred) as u64,
        pred_len as u64,
        reff.len() as u64,
    ]
}

/// Sentence pairs of one text pair from which [`lsum_stats`] spreads its reference sentences
/// over threads (below, a thread's handout costs more than it saves).
const PARALLEL_PAIRS: usize = 256;

/// rouge-score's `_summary_level_lcs` counts: union-LCS hits of each reference sentence over
/// every prediction sentence, each token counted at most as often as it occurs on both sides.
/// `masks` are those of each prediction sentence; `vocab` bounds the token ids. With `workers`
/// above 1 and a long text pair, the reference sentences' marks are found on that many threads
/// (each sentence's marks do not depend on the others'); the hits are then counted in order.
pub fn lsum_stats(
    pred: &Text,
    masks: &[Masks],
    reff: &Text,
    vocab: usize,
    workers: usize,
) -> Stats {
    let (n, m) = (pred.all.len() as u64, reff.all.len() as u64);
    if n == 0 || m == 0 {
        return [0, n, m];
    }
    let mut cnt_r = vec![0i64; vocab];
    let mut cnt_c = vec![0i64; vocab];
    for &t in &reff.all {
        cnt_r[t as usize] += 1;
    }
    for &t in &pred.all {
        cnt_c[t as usize] += 1;
    }
    let mark = |r: &[u32], rows: &mut Vec<u64>, marks: &mut Vec<bool>| {
        marks.clear();
        marks.resize(r.len(), false);
        for (c, mk) in pred.sents().zip(masks) {
            lcs::mark_lcs(r, c, mk, rows, marks);
        }
    };
    // `sorted(set().union(*lcs_list))`: the marked indices in increasing order.
    let mut hits = 0u64;
    let mut count = |r: &[u32], marks: &[bool]| {
        for (k, _) in marks.iter().enumerate().filter(|(_, &m)| m) {
            let t = r[k] as usize;
            if cnt_c[t] > 0 && cnt_r[t] > 0 {
                hits += 1;
                cnt_c[t] -= 1;
                cnt_r[t] -= 1;
            }
        }
    };
    let sents: Vec<&[u32]> = reff.sents().collect();
    if workers > 1 && sents.len() >= 2 * workers && sents.len() * masks.len() >= PARALLEL_PAIRS {
        let mut marks: Vec<Vec<bool>> = vec![Vec::new(); sents.len()];
        parallel::for_each_chunk(workers, &mut marks, 2, |start, chunk| {
            let mut rows = Vec::new();
            for (k, mk) in chunk.iter_mut().enumerate() {
                mark(sents[start + k], &mut rows, mk);
            }
        });
        for (r, mk) in sents.iter().zip(&marks) {
            count(r, mk);
        }
    } else {
        let (mut rows, mut marks) = (Vec::new(), Vec::new());
        for r in sents {
            mark(r, &mut rows, &mut marks);
            count(r, &marks);
        }
    }
    [hits, n, m]
}

/// rouge-score's `scoring.fmeasure`.
#[inline]
pub fn fmeasure(precision: f64, recall: f64) -> f64 {
    if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    }
}

/// `(precision, recall, fmeasure)` from counts, with rouge-score's float operations:
/// `matches / max(count, 1)` is what every one of its scores reduces to (its zero cases have
/// `matches == 0`).
#[inline]
pub fn prf(s: Stats) -> [f64; 3] {
    let p = s[0] as f64 / s[1].max(1) as f64;
    let r = s[0] as f64 / s[2].max(1) as f64;
    [p, r, fmeasure(p, r)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(sents: &[&[u32]]) -> Text {
        let mut t = Text::default();
        for s in sents {
            t.all.extend_from_slice(s);
            t.ends.push(t.all.len() as u32);
        }
        t
    }

    #[test]
    fn ngram_counts_are_clipped() {
        assert_eq!(ngram_stats(&[1, 1, 2], &[1, 2, 2], 1, 3), [2, 3, 3]);
        assert_eq!(ngram_stats(&[1, 2, 3], &[1, 2], 2, 4), [1, 2, 1]);
        assert_eq!(ngram_stats(&[1], &[1, 2], 2, 3), [0, 0, 1]);
        assert_eq!(
            ngram_stats(&[1, 2, 1, 2], &[2, 1, 2, 1, 2], 3, 3),
            [2, 2, 3]
        );
    }

    #[test]
    fn lcs_and_summary_lcs() {
        // rouge-score's own example (rouge_scorer_test.testRougeLsum... shape): the union of
        // two sentence LCSs, each token counted once.
        let r = text(&[&[1, 2, 3, 4, 5]]);
        let c = text(&[&[1, 2, 6, 7, 8], &[1, 3, 8, 9, 5]]);
        let masks: Vec<Masks> = c.sents().map(|s| Masks::new(s, 10)).collect();
        assert_eq!(lsum_stats(&c, &masks, &r, 10, 1), [4, 10, 5]);
        let whole = Masks::new(&c.all, 10);
        assert_eq!(lcs_stats(&whole, c.all.len(), &r.all), [4, 10, 5]);
    }

    proptest::proptest! {
        // Reference sentences spread over threads: the same counts as on one.
        #[test]
        fn lsum_threads_do_not_change_counts(
            p in proptest::collection::vec(proptest::collection::vec(0u32..12, 0..20), 1..40),
            r in proptest::collection::vec(proptest::collection::vec(0u32..12, 0..20), 1..40),
            workers in 2usize..5,
        ) {
            let (p, r) = (text(&p.iter().map(Vec::as_slice).collect::<Vec<_>>()),
                          text(&r.iter().map(Vec::as_slice).collect::<Vec<_>>()));
            let masks: Vec<Masks> = p.sents().map(|s| Masks::new(s, 12)).collect();
            proptest::prop_assert_eq!(
                lsum_stats(&p, &masks, &r, 12, 1),
                lsum_stats(&p, &masks, &r, 12, workers)
            );
        }
    }

    #[test]
    fn fmeasure_matches_python() {
        assert_eq!(prf([0, 0, 0]), [0.0, 0.0, 0.0]);
        assert_eq!(
            prf([1, 3, 2]),
            [1.0 / 3.0, 0.5, 2.0 * (1.0 / 3.0) * 0.5 / (1.0 / 3.0 + 0.5)]
        );
    }
}
