//! ROUGE-L as pycocoevalcap's `rouge/rouge.py`: tokens from `str.split(" ")` (empty tokens
//! included, as the original), the LCS length against each reference, the best precision and
//! the best recall over references, then the F-measure with the caller's `beta²`.

use crate::parallel;

/// Length of the longest common subsequence of `a` and `b` (one row of the DP table).
fn lcs(a: &[&str], b: &[&str]) -> usize {
    let (long, short) = if a.len() < b.len() { (b, a) } else { (a, b) };
    let mut row = vec![0usize; short.len() + 1];
    for x in long {
        let mut diag = 0usize;
        for (j, y) in short.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = if x == y { diag + 1 } else { up.max(row[j]) };
            diag = up;
        }
    }
    row[short.len()]
}

/// One image's ROUGE-L (`Rouge.calc_score`): `refs` must not be empty.
pub fn image_score(hyp: &str, refs: &[&str], beta2: f64) -> f64 {
    let c: Vec<&str> = hyp.split(' ').collect();
    let mut prec_max = f64::NEG_INFINITY;
    let mut rec_max = f64::NEG_INFINITY;
    for r in refs {
        let t: Vec<&str> = r.split(' ').collect();
        let l = lcs(&t, &c) as f64;
        // Python's max() keeps the first of equal values; equal floats are the same bits.
        let p = l / c.len() as f64;
        let q = l / t.len() as f64;
        if p > prec_max {
            prec_max = p;
        }
        if q > rec_max {
            rec_max = q;
        }
    }
    if prec_max != 0.0 && rec_max != 0.0 {
        ((1.0 + beta2) * prec_max * rec_max) / (rec_max + beta2 * prec_max)
    } else {
        0.0
    }
}

/// Every image's ROUGE-L, on `workers` threads (the result does not depend on their number).
pub fn scores(hyps: &[&str], refs: &[Vec<&str>], beta2: f64, workers: usize) -> Vec<f64> {
    let mut out = vec![0.0; hyps.len()];
    parallel::for_each_chunk(workers, &mut out, 256, |start, chunk| {
        for (k, o) in chunk.iter_mut().enumerate() {
            *o = image_score(hyps[start + k], &refs[start + k], beta2);
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lcs_counts_empty_tokens_like_python_split() {
        let a: Vec<&str> = "a  b".split(' ').collect();
        let b: Vec<&str> = "a  c".split(' ').collect();
        assert_eq!(lcs(&a, &b), 2);
    }

    #[test]
    fn identical_caption_scores_one() {
        assert_eq!(image_score("a dog runs", &["a dog runs"], 1.2 * 1.2), 1.0);
        assert_eq!(image_score("x", &["a dog"], 1.44), 0.0);
    }
}
