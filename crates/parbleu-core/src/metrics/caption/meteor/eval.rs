//! A whole `compute_score` in one call: pycocoevalcap's preparation of each test line, the
//! checks that decide whether a batch can be scored as given, every segment's `SCORE` and the
//! corpus `EVAL` of the summed statistics.
//!
//! Doing this here rather than per image in Python saves the binding layer a call per image;
//! the numbers are those of [`Meteor::stats_batch`] and [`score`] as before.

use super::{score, Meteor, Params, STATS};
use std::borrow::Cow;

/// The test line as the original's `SCORE` line carries it: `|||` removed, then each double
/// space made one (`str.replace` twice: left to right, non-overlapping, one pass each).
pub fn test_line(hyp: &str) -> Cow<'_, str> {
    let mut s = Cow::Borrowed(hyp);
    if s.contains("|||") {
        s = Cow::Owned(s.replace("|||", ""));
    }
    if s.contains("  ") {
        s = Cow::Owned(s.replace("  ", " "));
    }
    s
}

/// Whether a caption can go to the scorer as it is: no line break (`\n`, `\r`), no NUL, at
/// most `max_chars` code points and, in a reference, no `|||` (the jar's field separator).
/// The caller explains a refused caption itself (its messages name the image).
pub fn acceptable(caption: &str, reference: bool, max_chars: usize) -> bool {
    let bytes = caption.as_bytes();
    // One pass without early exit, in flags the compiler vectorises: most captions are clean.
    let (mut bad, mut pipe) = (0u8, 0u8);
    for &b in bytes {
        bad |= u8::from(b == b'\n') | u8::from(b == b'\r') | u8::from(b == 0);
        pipe |= u8::from(b == b'|');
    }
    if bad != 0 || (reference && pipe != 0 && caption.contains("|||")) {
        return false;
    }
    // Bytes bound code points from above: count them only when the bytes could be too many.
    bytes.len() <= max_chars || caption.chars().count() <= max_chars
}

/// Statistics summed as the jar's `EVAL` sums them.
#[derive(Clone, Debug)]
pub struct Corpus {
    total: [f64; STATS],
}

impl Default for Corpus {
    fn default() -> Self {
        Self {
            total: [0.0; STATS],
        }
    }
}

impl Corpus {
    /// Add one segment's row. Observed on every golden group: a segment matched entirely in
    /// one chunk (whose penalty is 0) adds no chunk to the sum.
    pub fn add(&mut self, row: &[f64]) {
        for (t, v) in self.total.iter_mut().zip(row) {
            *t += v;
        }
        if row[20] == 1.0 && row[21] == row[0] && row[22] == row[1] {
            self.total[20] -= 1.0;
        }
    }

    /// The summed statistics.
    pub fn total(&self) -> &[f64; STATS] {
        &self.total
    }

    /// The corpus score: `EVAL` of the sum.
    pub fn score(&self, p: &Params) -> f64 {
        score(&self.total, p)
    }
}

/// The sum of `rows` ([`Corpus::add`] each, in order).
pub fn corpus_stats<'a>(rows: impl IntoIterator<Item = &'a [f64]>) -> [f64; STATS] {
    let mut c = Corpus::default();
    rows.into_iter().for_each(|r| c.add(r));
    c.total
}

impl Meteor {
    /// Per image the score of its `SCORE` statistics (test lines prepared by [`test_line`]),
    /// each row also added to `corpus`; the same numbers as [`Meteor::stats_batch`] then
    /// [`score`].
    pub fn score_batch(
        &self,
        hyps: &[&str],
        refs: &[Vec<&str>],
        workers: usize,
        corpus: &mut Corpus,
    ) -> Vec<f64> {
        let prepared: Vec<Cow<str>> = hyps.iter().map(|h| test_line(h)).collect();
        let tests: Vec<&str> = prepared.iter().map(|t| t.as_ref()).collect();
        let flat = self.stats_batch(&tests, refs, workers);
        flat.chunks_exact(STATS)
            .map(|row| {
                corpus.add(row);
                score(row, &self.params)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::caption::meteor::{parse_prefixes, Resources};
    use proptest::prelude::*;

    #[test]
    fn test_line_is_pythons_two_replaces() {
        // Expected values are CPython's `s.replace("|||", "").replace("  ", " ")`.
        let cases = [
            ("a dog", "a dog"),
            ("a ||| dog", "a dog"),
            ("a  ||| dog", "a  dog"),
            ("||||", "|"),
            ("||||||", ""),
            ("a   b", "a  b"),
            ("a    b", "a  b"),
            ("a |||| b", "a | b"),
            ("a|| |b", "a|| |b"),
            ("  x  ", " x "),
            ("é ||| ü", "é ü"),
        ];
        for (i, want) in cases {
            assert_eq!(test_line(i), want, "{i:?}");
        }
        assert!(matches!(test_line("a dog"), Cow::Borrowed(_)));
    }

    #[test]
    fn acceptable_refuses_each_problem() {
        assert!(acceptable("a ||| dog", false, 100));
        assert!(!acceptable("a ||| dog", true, 100));
        for bad in ["a\ndog", "a\rdog", "a\0dog"] {
            assert!(!acceptable(bad, false, 100));
            assert!(!acceptable(bad, true, 100));
        }
        // Code points, not bytes: three of two bytes each.
        assert!(acceptable("ééé", false, 3));
        assert!(!acceptable("éééé", false, 3));
        assert!(acceptable("abc", true, 3));
        assert!(!acceptable("abcd", true, 3));
    }

    #[test]
    fn one_chunk_full_match_adds_no_chunk() {
        let mut full = [0.0; STATS];
        (full[0], full[1], full[4], full[5]) = (3.0, 3.0, 3.0, 3.0);
        (full[20], full[21], full[22]) = (1.0, 3.0, 3.0);
        let mut partial = full;
        partial[0] = 4.0;
        assert_eq!(corpus_stats([&full[..], &full[..]])[20], 0.0);
        assert_eq!(corpus_stats([&full[..], &partial[..]])[20], 1.0);
        assert_eq!(corpus_stats([&partial[..]])[0], 4.0);
    }

    fn scorer() -> Meteor {
        let res = Resources::new(
            b"the\na\n",
            b"dog\n1\nhound\n1\n",
            b"",
            b"0.5\nsun set\ndusk\n0.5\ndusk\nsun set\n",
        )
        .unwrap();
        Meteor {
            res,
            prefixes: parse_prefixes(""),
            params: Params::EN,
        }
    }

    fn line() -> impl Strategy<Value = String> {
        const WORDS: &[&str] = &[
            "the", "a", "dog", "dogs", "hound", "sun", "set", "dusk", "|||", "|", "",
        ];
        proptest::collection::vec(proptest::sample::select(WORDS), 0..8).prop_map(|w| w.join(" "))
    }

    proptest! {
        #[test]
        fn score_batch_is_stats_then_score_and_corpus_stats(
            segs in proptest::collection::vec(
                (line(), proptest::collection::vec(line(), 1..3)), 1..12),
            workers in 1usize..3,
        ) {
            let m = scorer();
            let hyps: Vec<&str> = segs.iter().map(|s| s.0.as_str()).collect();
            let refs: Vec<Vec<&str>> = segs
                .iter()
                .map(|s| s.1.iter().map(String::as_str).collect())
                .collect();
            let mut corpus = Corpus::default();
            let got = m.score_batch(&hyps, &refs, workers, &mut corpus);
            let prepared: Vec<String> = hyps
                .iter()
                .map(|h| h.replace("|||", "").replace("  ", " "))
                .collect();
            let tests: Vec<&str> = prepared.iter().map(String::as_str).collect();
            let flat = m.stats_batch(&tests, &refs, 1);
            let want: Vec<f64> = flat.chunks_exact(STATS).map(|r| score(r, &m.params)).collect();
            prop_assert_eq!(got, want);
            prop_assert_eq!(corpus.total(), &corpus_stats(flat.chunks_exact(STATS)));
        }

        #[test]
        fn corpus_is_the_column_sum_less_one_chunk_per_whole_match(
            rows in proptest::collection::vec(proptest::collection::vec(0u8..4, STATS), 0..20)
        ) {
            let rows: Vec<Vec<f64>> =
                rows.iter().map(|r| r.iter().map(|&x| f64::from(x)).collect()).collect();
            let got = corpus_stats(rows.iter().map(Vec::as_slice));
            for k in 0..STATS {
                let whole = rows
                    .iter()
                    .filter(|r| r[20] == 1.0 && r[21] == r[0] && r[22] == r[1])
                    .count();
                let sum: f64 = rows.iter().map(|r| r[k]).sum();
                let want = if k == 20 { sum - whole as f64 } else { sum };
                prop_assert_eq!(got[k], want);
            }
        }
    }
}
