//! Segments of token sequences stored back to back (a hypothesis, then its references), as
//! the per-call NLTK paths gather them from Python lists, split back into segments here.

use super::nltk::{self, Scratch};
use crate::error::{Error, Result, MAX_ORDER};
use std::cell::RefCell;

/// Token sequences back to back: per segment its hypothesis, then its references.
#[derive(Debug, Default)]
pub struct TokenSegments<'a> {
    tokens: Vec<&'a str>,
    /// End of each sequence in `tokens`.
    ends: Vec<usize>,
    /// Per segment: number of references.
    n_refs: Vec<usize>,
}

impl<'a> TokenSegments<'a> {
    /// Reserve room for `n` more tokens.
    pub fn reserve(&mut self, n: usize) {
        self.tokens.reserve(n);
    }

    /// Append a token to the current sequence.
    #[inline]
    pub fn push_token(&mut self, t: &'a str) {
        self.tokens.push(t);
    }

    /// End the current sequence.
    pub fn end_sequence(&mut self) {
        self.ends.push(self.tokens.len());
    }

    /// End the current segment: its hypothesis and `n_refs` references were pushed.
    pub fn end_segment(&mut self, n_refs: usize) {
        self.n_refs.push(n_refs);
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.n_refs.len()
    }

    /// Whether there is no segment.
    pub fn is_empty(&self) -> bool {
        self.n_refs.is_empty()
    }

    /// Number of references of segment `k`.
    pub fn refs_of(&self, k: usize) -> usize {
        self.n_refs[k]
    }

    /// Every sequence, in order.
    fn sequences(&self) -> Vec<&[&'a str]> {
        let mut start = 0;
        self.ends
            .iter()
            .map(|&end| {
                let seq = &self.tokens[start..end];
                start = end;
                seq
            })
            .collect()
    }

    /// The hypothesis and references of the first segment.
    pub fn first(&self) -> (&[&'a str], Vec<&[&'a str]>) {
        let seqs = self.sequences();
        let n = self.n_refs[0];
        (seqs[0], seqs[1..1 + n].to_vec())
    }

    /// NLTK's `corpus_gleu` of the segments (`1 <= min_len <= max_len`, see
    /// [`check_orders`]), with this thread's scratch memory.
    pub fn corpus_gleu(&self, min_len: usize, max_len: usize) -> f64 {
        let seqs = self.sequences();
        let mut at = 0;
        let segments = self.n_refs.iter().map(|&n| {
            let seg = (seqs[at], &seqs[at + 1..at + 1 + n]);
            at += 1 + n;
            seg
        });
        with_scratch(|s| nltk::corpus_gleu(s, segments, min_len, max_len))
    }
}

/// The NLTK orders `min_len..=max_len` of GLEU and chrF: `1 <= min_len <= max_len <=`
/// [`MAX_ORDER`].
pub fn check_orders(min_len: usize, max_len: usize) -> Result<()> {
    if min_len < 1 || max_len < min_len || max_len > MAX_ORDER {
        return Err(Error::InvalidOption {
            name: "min_len, max_len".into(),
            value: format!("{min_len}, {max_len}"),
            expected: format!("1 <= min_len <= max_len <= {MAX_ORDER}"),
        });
    }
    Ok(())
}

/// Run `f` with this thread's scratch memory of the per-segment NLTK paths, kept from call to
/// call (a fresh one if it is in use further up this thread's stack).
pub fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    thread_local! {
        static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
    }
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut s) => f(&mut s),
        Err(_) => f(&mut Scratch::default()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn push<'a>(t: &mut TokenSegments<'a>, hyp: &[&'a str], refs: &[&[&'a str]]) {
        for seq in std::iter::once(hyp).chain(refs.iter().copied()) {
            seq.iter().for_each(|&x| t.push_token(x));
            t.end_sequence();
        }
        t.end_segment(refs.len());
    }

    /// Split back, the segments score as NLTK's GLEU of them given directly.
    #[test]
    fn segments_split_back_as_pushed() {
        let mut t = TokenSegments::default();
        let (h1, r1, r2) = (["a", "b", "c"], ["a", "b", "d"], ["c"]);
        let (h2, r3) = (["x", "y"], ["x", "y"]);
        push(&mut t, &h1, &[&r1, &r2]);
        push(&mut t, &h2, &[&r3]);
        assert_eq!((t.len(), t.refs_of(0), t.refs_of(1)), (2, 2, 1));
        let (h, r) = t.first();
        assert_eq!((h, r), (&h1[..], vec![&r1[..], &r2[..]]));
        let direct = with_scratch(|s| {
            let segs: [(&[&str], &[&[&str]]); 2] = [(&h1, &[&r1, &r2]), (&h2, &[&r3])];
            nltk::corpus_gleu(s, segs, 1, 4)
        });
        assert_eq!(t.corpus_gleu(1, 4), direct);
        assert!(direct > 0.0 && direct < 1.0);
    }

    #[test]
    fn orders_outside_one_to_max_are_refused() {
        assert!(check_orders(1, 1).is_ok() && check_orders(1, MAX_ORDER).is_ok());
        for (a, b) in [(0, 1), (2, 1), (1, MAX_ORDER + 1)] {
            let e = check_orders(a, b).unwrap_err().to_string();
            assert!(e.contains("min_len"), "{e}");
        }
    }
}
