//! N-gram match statistics of pre-tokenized segments: the shared engine of the flavors.
//!
//! Every BLEU implementation parbleu reproduces (NLTK, Moses, mteval, COCO, tensorflow/nmt,
//! tensor2tensor, torchmetrics, ...) counts the same clipped n-gram matches per segment; they
//! differ in tokenization, in which reference length they keep, and in their arithmetic. This
//! module computes, for each segment, everything those rules need and nothing more: clipped
//! matches and hypothesis n-gram totals per order, the hypothesis length, and the length of
//! every reference (so each flavor applies its own closest / shortest / first-tie rule).

use super::ngram::{match_counts, Scratch};
use crate::parallel;

/// Per-segment statistics, row-major.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SegmentStats {
    /// Highest n-gram order counted.
    pub max_order: usize,
    /// Clipped matches: `matches[i * max_order + n - 1]` for segment `i`, order `n`.
    pub matches: Vec<u64>,
    /// Hypothesis n-grams (`max(0, len - n + 1)`), same layout as `matches`.
    pub totals: Vec<u64>,
    /// Hypothesis length (tokens) of every segment.
    pub hyp_lens: Vec<u64>,
    /// Lengths of the references of every segment, concatenated in the order given.
    pub ref_lens: Vec<u64>,
    /// `ref_lens[ref_offsets[i]..ref_offsets[i + 1]]` are the reference lengths of segment `i`.
    pub ref_offsets: Vec<u64>,
}

impl SegmentStats {
    /// Number of segments.
    pub fn len(&self) -> usize {
        self.hyp_lens.len()
    }

    /// Whether there is no segment.
    pub fn is_empty(&self) -> bool {
        self.hyp_lens.is_empty()
    }

    /// Reference lengths of segment `i`.
    pub fn refs_of(&self, i: usize) -> &[u64] {
        &self.ref_lens[self.ref_offsets[i] as usize..self.ref_offsets[i + 1] as usize]
    }
}

/// What [`Segments::with_tokens`] calls: the hypothesis tokens and each reference's tokens.
pub type TokensFn<'f> = dyn FnMut(&[&str], &[Vec<&str>]) + 'f;

/// A corpus whose segments can be tokenized one at a time (from any thread).
pub trait Segments: Sync {
    /// Number of segments.
    fn count(&self) -> usize;
    /// Call `f` with the tokens of hypothesis `i` and of each of its references.
    fn with_tokens(&self, i: usize, f: &mut TokensFn<'_>);
}

/// Already tokenized segments: `hyps[i]` against the references `refs[i]` (any number).
pub struct Tokenized<'a> {
    pub hyps: &'a [Vec<String>],
    pub refs: &'a [Vec<Vec<String>>],
}

impl Segments for Tokenized<'_> {
    fn count(&self) -> usize {
        self.hyps.len().min(self.refs.len())
    }

    fn with_tokens(&self, i: usize, f: &mut TokensFn<'_>) {
        let h: Vec<&str> = self.hyps[i].iter().map(String::as_str).collect();
        let r: Vec<Vec<&str>> = self.refs[i]
            .iter()
            .map(|x| x.iter().map(String::as_str).collect())
            .collect();
        f(&h, &r);
    }
}

/// Token sequences stored back to back in one buffer (cheap to build from Python objects):
/// each segment is a hypothesis sequence followed by its reference sequences.
#[derive(Debug, Clone)]
pub struct FlatCorpus {
    text: String,
    /// Byte end of every token (`tok_ends[0] == 0`).
    tok_ends: Vec<u32>,
    /// Token end of every sequence (`seq_ends[0] == 0`).
    seq_ends: Vec<u32>,
    /// Sequence end of every segment (`seg_ends[0] == 0`).
    seg_ends: Vec<u32>,
}

impl Default for FlatCorpus {
    fn default() -> Self {
        FlatCorpus {
            text: String::new(),
            tok_ends: vec![0],
            seq_ends: vec![0],
            seg_ends: vec![0],
        }
    }
}

impl FlatCorpus {
    /// Append a token to the current sequence.
    #[inline]
    pub fn push_token(&mut self, t: &str) {
        self.text.push_str(t);
        self.tok_ends.push(self.text.len() as u32);
    }

    /// Close the current sequence (the first of a segment is its hypothesis).
    #[inline]
    pub fn end_sequence(&mut self) {
        self.seq_ends.push((self.tok_ends.len() - 1) as u32);
    }

    /// Close the current segment.
    #[inline]
    pub fn end_segment(&mut self) {
        self.seg_ends.push((self.seq_ends.len() - 1) as u32);
    }

    /// Drop an unfinished sequence or segment (after a failed conversion).
    pub fn truncate_to_segments(&mut self) {
        let seqs = *self.seg_ends.last().unwrap_or(&0) as usize;
        self.seq_ends.truncate(seqs + 1);
        let toks = *self.seq_ends.last().unwrap_or(&0) as usize;
        self.tok_ends.truncate(toks + 1);
        let bytes = *self.tok_ends.last().unwrap_or(&0) as usize;
        self.text.truncate(bytes);
    }

    fn seq(&self, j: usize) -> Vec<&str> {
        let (a, b) = (self.seq_ends[j] as usize, self.seq_ends[j + 1] as usize);
        (a..b)
            .map(|k| &self.text[self.tok_ends[k] as usize..self.tok_ends[k + 1] as usize])
            .collect()
    }
}

impl Segments for FlatCorpus {
    fn count(&self) -> usize {
        self.seg_ends.len() - 1
    }

    fn with_tokens(&self, i: usize, f: &mut TokensFn<'_>) {
        let (a, b) = (self.seg_ends[i] as usize, self.seg_ends[i + 1] as usize);
        let h = self.seq(a);
        let r: Vec<Vec<&str>> = (a + 1..b).map(|j| self.seq(j)).collect();
        f(&h, &r);
    }
}

#[derive(Default, Clone)]
struct Row {
    counts: Vec<u64>,
    hyp_len: u64,
    ref_lens: Vec<u64>,
}

/// Statistics of every segment of `segs` for orders `1..=max_order`.
pub fn stats<S: Segments + ?Sized>(segs: &S, max_order: usize, workers: usize) -> SegmentStats {
    let n = segs.count();
    let mut rows = vec![Row::default(); n];
    parallel::for_each_chunk(workers, &mut rows, 256, |start, chunk| {
        let mut s = Scratch::default();
        for (j, row) in chunk.iter_mut().enumerate() {
            segs.with_tokens(start + j, &mut |h, r| {
                row.counts = vec![0; 2 * max_order];
                row.hyp_len = h.len() as u64;
                row.ref_lens = r.iter().map(|x| x.len() as u64).collect();
                if max_order > 0 {
                    let (m, t) = row.counts.split_at_mut(max_order);
                    match_counts(h, r, max_order, &mut s, m, t);
                }
            });
        }
    });
    let mut out = SegmentStats {
        max_order,
        matches: Vec::with_capacity(n * max_order),
        totals: Vec::with_capacity(n * max_order),
        hyp_lens: Vec::with_capacity(n),
        ref_lens: Vec::new(),
        ref_offsets: Vec::with_capacity(n + 1),
    };
    out.ref_offsets.push(0);
    for row in rows {
        out.matches.extend_from_slice(&row.counts[..max_order]);
        out.totals.extend_from_slice(&row.counts[max_order..]);
        out.hyp_lens.push(row.hyp_len);
        out.ref_lens.extend_from_slice(&row.ref_lens);
        out.ref_offsets.push(out.ref_lens.len() as u64);
    }
    out
}

/// Statistics of tokenized hypotheses against their tokenized references (`refs[i]`: the
/// references of segment `i`, any number, possibly none). Extra items of the longer list are
/// ignored: the caller decides what a missing segment means.
pub fn token_stats(
    hyps: &[Vec<String>],
    refs: &[Vec<Vec<String>>],
    max_order: usize,
    workers: usize,
) -> SegmentStats {
    stats(&Tokenized { hyps, refs }, max_order, workers)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn counts_lengths_and_ragged_references() {
        let hyps = vec![toks("the cat the cat"), toks(""), toks("a b")];
        let refs = vec![
            vec![toks("the cat sat"), toks("a cat the cat the")],
            vec![toks("x y")],
            vec![],
        ];
        for workers in [1, 2] {
            let s = token_stats(&hyps, &refs, 3, workers);
            assert_eq!(s.len(), 3);
            assert_eq!(s.matches, vec![4, 2, 2, 0, 0, 0, 0, 0, 0]);
            assert_eq!(s.totals, vec![4, 3, 2, 0, 0, 0, 2, 1, 0]);
            assert_eq!(s.hyp_lens, vec![4, 0, 2]);
            assert_eq!(s.ref_lens, vec![3, 5, 2]);
            assert_eq!(s.refs_of(0), &[3, 5]);
            assert_eq!(s.refs_of(2), &[] as &[u64]);
        }
    }

    #[test]
    fn flat_corpus_equals_token_lists() {
        let hyps = vec![toks("a b a"), toks("")];
        let refs = vec![vec![toks("a b"), toks("b a b a")], vec![]];
        let mut flat = FlatCorpus::default();
        for (h, rs) in hyps.iter().zip(&refs) {
            for t in h {
                flat.push_token(t);
            }
            flat.end_sequence();
            for r in rs {
                for t in r {
                    flat.push_token(t);
                }
                flat.end_sequence();
            }
            flat.end_segment();
        }
        flat.push_token("dangling");
        flat.truncate_to_segments();
        assert_eq!(stats(&flat, 3, 1), token_stats(&hyps, &refs, 3, 1));
    }

    #[test]
    fn zero_orders() {
        let s = token_stats(&[toks("a")], &[vec![toks("a")]], 0, 1);
        assert!(s.matches.is_empty() && s.totals.is_empty());
        assert_eq!(s.hyp_lens, vec![1]);
    }
}
