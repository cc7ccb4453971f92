//! rouge-score 0.1.2's `_score_ngrams`, `_score_lcs` and `_summary_level_lcs`, as integer
//! statistics `[matches, prediction_count, reference_count]` and the floats made from them.

/// Tokens of one text as ids of a vocabulary shared by one prediction and its references,
/// sentence by sentence (rougeLsum's newline-separated sentences) and as a whole.
#[derive(Debug, Default, Clone)]
pub struct Text {
    /// Token ids of each non-empty line.
    pub sents: Vec<Vec<u32>>,
    /// Every token id, in order (the concatenation of `sents`).
    pub all: Vec<u32>,
}

/// `[matches, prediction_count, reference_count]`.
pub type Stats = [u64; 3];

/// rouge-score's `_create_ngrams` + `_score_ngrams` counts: clipped n-gram overlap.
pub fn ngram_stats(pred: &[u32], reff: &[u32], n: usize) -> Stats {
    let count = |len: usize| (len + 1).saturating_sub(n);
    let (pc, rc) = (count(pred.len()), count(reff.len()));
    if pc == 0 || rc == 0 {
        return [0, pc as u64, rc as u64];
    }
    let mut left: rustc_hash::FxHashMap<&[u32], u32> = rustc_hash::FxHashMap::default();
    for w in reff.windows(n) {
        *left.entry(w).or_insert(0) += 1;
    }
    // Each prediction n-gram takes one of the reference's: sum over n-grams of min(counts).
    let mut matches = 0u64;
    for w in pred.windows(n) {
        if let Some(c) = left.get_mut(w) {
            if *c > 0 {
                *c -= 1;
                matches += 1;
            }
        }
    }
    [matches, pc as u64, rc as u64]
}

/// Length of the longest common subsequence (two rows of `_lcs_table`).
pub fn lcs_len(a: &[u32], b: &[u32]) -> usize {
    if a.is_empty() || b.is_empty() {
        return 0;
    }
    let mut prev = vec![0u32; b.len() + 1];
    let mut cur = vec![0u32; b.len() + 1];
    for &x in a {
        for (j, &y) in b.iter().enumerate() {
            cur[j + 1] = if x == y {
                prev[j] + 1
            } else {
                prev[j + 1].max(cur[j])
            };
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()] as usize
}

/// rouge-score's `_score_lcs` counts.
pub fn lcs_stats(pred: &[u32], reff: &[u32]) -> Stats {
    [
        lcs_len(reff, pred) as u64,
        pred.len() as u64,
        reff.len() as u64,
    ]
}

/// `lcs_ind(ref, can)`: `_lcs_table` then `_backtrack_norec`, marking the indices of `ref` in
/// the LCS it reads out (ties broken as rouge-score breaks them).
fn mark_lcs(reff: &[u32], can: &[u32], table: &mut Vec<u32>, marks: &mut [bool]) {
    let (rows, cols) = (reff.len(), can.len());
    if rows == 0 || cols == 0 {
        return;
    }
    let w = cols + 1;
    table.clear();
    table.resize((rows + 1) * w, 0);
    for i in 1..=rows {
        for j in 1..=cols {
            table[i * w + j] = if reff[i - 1] == can[j - 1] {
                table[(i - 1) * w + j - 1] + 1
            } else {
                table[(i - 1) * w + j].max(table[i * w + j - 1])
            };
        }
    }
    let (mut i, mut j) = (rows, cols);
    while i > 0 && j > 0 {
        if reff[i - 1] == can[j - 1] {
            marks[i - 1] = true;
            i -= 1;
            j -= 1;
        } else if table[i * w + j - 1] > table[(i - 1) * w + j] {
            j -= 1;
        } else {
            i -= 1;
        }
    }
}

/// rouge-score's `_summary_level_lcs` counts: union-LCS hits of each reference sentence over
/// every prediction sentence, each token counted at most as often as it occurs on both sides.
/// `vocab` bounds the token ids.
pub fn lsum_stats(pred: &Text, reff: &Text, vocab: usize) -> Stats {
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
    let mut hits = 0u64;
    let mut table = Vec::new();
    for r in &reff.sents {
        let mut marks = vec![false; r.len()];
        for c in &pred.sents {
            mark_lcs(r, c, &mut table, &mut marks);
        }
        // `sorted(set().union(*lcs_list))`: the marked indices in increasing order.
        for (k, _) in marks.iter().enumerate().filter(|(_, &m)| m) {
            let t = r[k] as usize;
            if cnt_c[t] > 0 && cnt_r[t] > 0 {
                hits += 1;
                cnt_c[t] -= 1;
                cnt_r[t] -= 1;
            }
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
        Text {
            sents: sents.iter().map(|s| s.to_vec()).collect(),
            all: sents.concat(),
        }
    }

    #[test]
    fn ngram_counts_are_clipped() {
        assert_eq!(ngram_stats(&[1, 1, 2], &[1, 2, 2], 1), [2, 3, 3]);
        assert_eq!(ngram_stats(&[1, 2, 3], &[1, 2], 2), [1, 2, 1]);
        assert_eq!(ngram_stats(&[1], &[1, 2], 2), [0, 0, 1]);
    }

    #[test]
    fn lcs_and_summary_lcs() {
        assert_eq!(lcs_len(&[1, 2, 3, 4], &[2, 4, 3]), 2);
        // rouge-score's own example (rouge_scorer_test.testRougeLsum... shape): the union of
        // two sentence LCSs, each token counted once.
        let r = text(&[&[1, 2, 3, 4, 5]]);
        let c = text(&[&[1, 2, 6, 7, 8], &[1, 3, 8, 9, 5]]);
        assert_eq!(lsum_stats(&c, &r, 10), [4, 10, 5]);
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
