//! BLEU statistics of integer token ids (training loops: no detokenization, no formatting).
//!
//! A sequence of ids is a tokenized segment whose tokens are the ids: the rows equal BLEU's
//! rows with `tokenize="none"` on the ids written as space-separated decimal numbers (two ids
//! are the same token exactly when they are the same number). An optional padding id is dropped
//! wherever it occurs.

use crate::error::{Error, Result};
use crate::metrics::bleu::closest_ref_len;
use crate::metrics::ngram;
use crate::parallel;
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// Sequences stored back to back: sequence `k` is `data[offsets[k]..offsets[k + 1]]`.
#[derive(Debug, Clone, Copy)]
pub struct Seqs<'a> {
    pub data: &'a [i64],
    pub offsets: &'a [usize],
}

impl<'a> Seqs<'a> {
    /// Check that the offsets are non-decreasing and inside `data`.
    pub fn new(data: &'a [i64], offsets: &'a [usize], what: &str) -> Result<Self> {
        let bad = offsets.is_empty()
            || offsets.windows(2).any(|w| w[0] > w[1])
            || *offsets.last().unwrap_or(&0) > data.len();
        if bad {
            return Err(Error::InvalidOption {
                name: what.into(),
                value: format!("offsets of {} sequences", offsets.len().saturating_sub(1)),
                expected: "non-decreasing offsets inside the id buffer".into(),
            });
        }
        Ok(Seqs { data, offsets })
    }

    /// Number of sequences.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Whether there is no sequence.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[inline]
    fn get(&self, k: usize) -> &'a [i64] {
        &self.data[self.offsets[k]..self.offsets[k + 1]]
    }
}

/// One stream of references: sequences, and which segments have a reference in this stream.
#[derive(Debug, Clone, Copy)]
pub struct RefStream<'a> {
    pub seqs: Seqs<'a>,
    /// `None`: every segment has one.
    pub present: Option<&'a [bool]>,
}

impl RefStream<'_> {
    /// Whether segment `i` has a reference in this stream.
    #[inline]
    fn has(&self, i: usize) -> bool {
        match self.present {
            Some(p) => p[i],
            None => true,
        }
    }
}

/// Reusable buffers; cleared between segments.
#[derive(Default)]
struct Scratch {
    /// Id -> interned id of one segment (emptied by the match routine).
    vocab: FxHashMap<i64, u32>,
    ngram: ngram::Scratch,
    hyp: Vec<i64>,
    refs: Vec<Vec<i64>>,
    /// The same segment as 16-bit codes (id + 1), when every id is below 65,535.
    hyp_codes: Vec<u32>,
    ref_codes: Vec<Vec<u32>>,
    m: Vec<u64>,
    t: Vec<u64>,
}

thread_local! {
    // One scratch per thread, kept between calls: a training loop calls this on every batch,
    // and allocating (and page-faulting) the tables for every chunk cost more than a row.
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

impl Scratch {
    /// Let go of buffers that one huge segment grew (the thread keeps its scratch for good).
    fn trim(&mut self) {
        const MAX: usize = 1 << 20;
        let big = self.hyp.capacity() > MAX
            || self.hyp_codes.capacity() > MAX
            || self.refs.iter().any(|r| r.capacity() > MAX)
            || self.ref_codes.iter().any(|r| r.capacity() > MAX);
        if big {
            *self = Scratch::default();
        }
    }
}

/// Clipped n-gram matches and totals of `hyp` against `refs` (orders `1..=max_order`): the
/// string path's routine ([`ngram::match_counts_with`]) with ids as the tokens.
fn match_counts(
    hyp: &[i64],
    refs: &[Vec<i64>],
    max_order: usize,
    s: &mut Scratch,
    matches: &mut [u64],
    totals: &mut [u64],
) {
    ngram::match_counts_with(
        hyp,
        refs,
        max_order,
        &mut s.ngram,
        &mut s.vocab,
        matches,
        totals,
    );
    // One huge segment must not make every later `clear()` slow.
    if s.vocab.capacity() > 1 << 16 {
        s.vocab = FxHashMap::default();
    }
}

/// `src` without `pad` as 16-bit codes (id + 1) into `dst`; `false` if an id is outside
/// `0..65535` (the codes then don't fit: the general path takes the segment).
fn codes_without(dst: &mut Vec<u32>, src: &[i64], pad: Option<i64>) -> bool {
    dst.clear();
    for &x in src {
        if Some(x) == pad {
            continue;
        }
        if !(0..65535).contains(&x) {
            return false;
        }
        dst.push(x as u32 + 1);
    }
    true
}

/// Matches and totals of segment `i` into `s.m` / `s.t`; returns (hypothesis length, closest
/// reference length).
fn segment(
    hyps: Seqs<'_>,
    refs: &[RefStream<'_>],
    pad: Option<i64>,
    max_order: usize,
    i: usize,
    s: &mut Scratch,
) -> (i64, i64) {
    s.m.resize(max_order, 0);
    s.t.resize(max_order, 0);
    // Token ids below 65,535 (nearly every vocabulary) are their own 16-bit codes: no token
    // map to build per segment.
    if max_order <= 4 && codes_without(&mut s.hyp_codes, hyps.get(i), pad) {
        let mut used = 0;
        let mut fits = true;
        for r in refs.iter().filter(|r| r.has(i)) {
            if s.ref_codes.len() <= used {
                s.ref_codes.push(Vec::new());
            }
            fits &= codes_without(&mut s.ref_codes[used], r.seqs.get(i), pad);
            used += 1;
        }
        if fits {
            let rs = s.ref_codes[..used].iter().map(Vec::as_slice);
            let h = s.hyp_codes.len() as i64;
            let r = closest_ref_len(h, rs.clone().map(|x| x.len() as i64));
            ngram::code_match_counts(
                &s.hyp_codes,
                rs,
                max_order,
                &mut s.ngram,
                &mut s.m,
                &mut s.t,
            );
            return (h, r);
        }
    }
    let mut hyp = std::mem::take(&mut s.hyp);
    let mut rs = std::mem::take(&mut s.refs);
    let (mut m, mut t) = (std::mem::take(&mut s.m), std::mem::take(&mut s.t));
    copy_without(&mut hyp, hyps.get(i), pad);
    let mut used = 0;
    for r in refs.iter().filter(|r| r.has(i)) {
        if rs.len() <= used {
            rs.push(Vec::new());
        }
        copy_without(&mut rs[used], r.seqs.get(i), pad);
        used += 1;
    }
    match_counts(&hyp, &rs[..used], max_order, s, &mut m, &mut t);
    let h = hyp.len() as i64;
    let out = (
        h,
        closest_ref_len(h, rs[..used].iter().map(|x| x.len() as i64)),
    );
    (s.hyp, s.refs, s.m, s.t) = (hyp, rs, m, t);
    out
}

fn copy_without(dst: &mut Vec<i64>, src: &[i64], pad: Option<i64>) {
    dst.clear();
    match pad {
        Some(p) => dst.extend(src.iter().copied().filter(|&x| x != p)),
        None => dst.extend_from_slice(src),
    }
}

/// Rows per parallel task of [`bleu_extract`].
const ROWS_PER_CHUNK: usize = 32;

/// BLEU statistics rows (`hyp_len, ref_len, match_1..N, total_1..N`) of id sequences.
///
/// Every segment needs at least one reference over the streams.
pub fn bleu_extract(
    hyps: Seqs<'_>,
    refs: &[RefStream<'_>],
    pad: Option<i64>,
    max_order: usize,
    workers: usize,
) -> Result<Vec<i64>> {
    let n = hyps.len();
    for (k, r) in refs.iter().enumerate() {
        let len = r.seqs.len();
        if len != n || r.present.is_some_and(|p| p.len() != n) {
            return Err(Error::LengthMismatch {
                what: format!("references[{k}] vs hypotheses"),
                expected: n,
                found: len,
            });
        }
    }
    if let Some(i) = (0..n).find(|&i| !refs.iter().any(|r| r.has(i))) {
        return Err(Error::InvalidOption {
            name: "references".into(),
            value: format!("segment {i} without any reference"),
            expected: "at least one reference per segment".into(),
        });
    }
    let w = 2 + 2 * max_order;
    let mut rows = vec![0i64; n * w];
    // Small chunks: a training batch (a few hundred rows of a few us each) is split over the
    // workers.
    parallel::for_each_chunk(workers, &mut rows, ROWS_PER_CHUNK * w, |start, chunk| {
        SCRATCH.with_borrow_mut(|s| {
            for (j, out) in chunk.chunks_mut(w).enumerate() {
                let (h, r) = segment(hyps, refs, pad, max_order, start / w + j, s);
                out[0] = h;
                out[1] = r;
                for k in 0..max_order {
                    out[2 + k] = s.m[k] as i64;
                    out[2 + max_order + k] = s.t[k] as i64;
                }
            }
            s.trim();
        });
    });
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::bleu::{self, BleuExtract, PreparedRefs};
    use crate::tokenize::Tokenizer;

    fn as_text(ids: &[i64], pad: Option<i64>) -> String {
        ids.iter()
            .filter(|&&x| Some(x) != pad)
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn ids() -> impl proptest::strategy::Strategy<Value = i64> {
        proptest::prop_oneof![
            8 => -2i64..6,
            1 => proptest::strategy::Just(65534i64),
            1 => proptest::strategy::Just(65535i64),
        ]
    }

    proptest::proptest! {
        #[test]
        fn equals_tokenize_none_on_text(
            // Ids 0..65535 take the 16-bit code path, the others (negative, 65535) the token
            // map; more than 4 references, and orders above 4, go their own ways too.
            segs in proptest::collection::vec(
                (proptest::collection::vec(ids(), 0..12),
                 proptest::collection::vec(proptest::collection::vec(ids(), 0..12), 1..7)),
                1..6),
            order in 1usize..6,
            pad in proptest::option::of(-2i64..2),
        ) {
            let n_refs = segs.iter().map(|s| s.1.len()).max().unwrap();
            let mut hdata = vec![];
            let mut hoffs = vec![0];
            for (h, _) in &segs {
                hdata.extend_from_slice(h);
                hoffs.push(hdata.len());
            }
            let mut streams = vec![];
            for k in 0..n_refs {
                let mut d = vec![];
                let mut o = vec![0];
                let mut p = vec![];
                for (_, rs) in &segs {
                    if let Some(r) = rs.get(k) { d.extend_from_slice(r); }
                    o.push(d.len());
                    p.push(rs.len() > k);
                }
                streams.push((d, o, p));
            }
            let rstreams: Vec<RefStream> = streams.iter().map(|(d, o, p)| RefStream {
                seqs: Seqs::new(d, o, "r").unwrap(), present: Some(p) }).collect();
            let got = bleu_extract(Seqs::new(&hdata, &hoffs, "h").unwrap(), &rstreams, pad, order, 2).unwrap();
            let cfg = BleuExtract { tokenizer: Tokenizer::None, lowercase: false, max_order: order };
            let texts: Vec<String> = segs.iter().map(|(h, _)| as_text(h, pad)).collect();
            let refs: Vec<Vec<String>> = segs.iter().map(|(_, rs)| rs.iter().map(|r| as_text(r, pad)).collect()).collect();
            let p = PreparedRefs::new(&cfg, refs, 1);
            let (want, _) = bleu::extract(&cfg, &texts, &p.segments, 1).unwrap();
            proptest::prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn rows_do_not_depend_on_the_thread_count() {
        // Several chunks of ROWS_PER_CHUNK rows, one of them partial.
        let n = 5 * ROWS_PER_CHUNK + 7;
        let (mut h, mut r) = (vec![], vec![]);
        let (mut ho, mut ro) = (vec![0usize], vec![0usize]);
        let mut x = 12345u64;
        for i in 0..n {
            for _ in 0..(i % 40) {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                h.push((x >> 59) as i64);
                r.push((x >> 53) as i64 % 7);
            }
            ho.push(h.len());
            ro.push(r.len());
        }
        let hs = Seqs::new(&h, &ho, "h").unwrap();
        let rs = [RefStream {
            seqs: Seqs::new(&r, &ro, "r").unwrap(),
            present: None,
        }];
        let one = bleu_extract(hs, &rs, None, 4, 1).unwrap();
        for workers in [2, 3, 8] {
            assert_eq!(bleu_extract(hs, &rs, None, 4, workers).unwrap(), one);
        }
        // Each row equals the row of that segment alone.
        for i in [0, ROWS_PER_CHUNK - 1, ROWS_PER_CHUNK, n - 1] {
            let (h1, r1) = (&h[ho[i]..ho[i + 1]], &r[ro[i]..ro[i + 1]]);
            let (o1, o2) = ([0, h1.len()], [0, r1.len()]);
            let s = [RefStream {
                seqs: Seqs::new(r1, &o2, "r").unwrap(),
                present: None,
            }];
            let row = bleu_extract(Seqs::new(h1, &o1, "h").unwrap(), &s, None, 4, 1).unwrap();
            assert_eq!(row[..], one[i * 10..(i + 1) * 10]);
        }
    }

    #[test]
    fn scratch_lets_go_of_what_a_huge_segment_grew() {
        let mut s = Scratch {
            hyp_codes: Vec::with_capacity(1000),
            ..Scratch::default()
        };
        s.trim();
        assert_eq!(s.hyp_codes.capacity(), 1000, "small buffers are kept");
        s.ref_codes = vec![Vec::with_capacity((1 << 20) + 1)];
        s.trim();
        assert!(s.ref_codes.is_empty() && s.hyp_codes.capacity() == 0);
    }

    #[test]
    fn segment_without_reference_is_refused() {
        let h = [1i64, 2];
        let ho = [0usize, 1, 2];
        let r = [1i64];
        let ro = [0usize, 1, 1];
        let present = [true, false];
        let s = RefStream {
            seqs: Seqs::new(&r, &ro, "r").unwrap(),
            present: Some(&present),
        };
        assert!(bleu_extract(Seqs::new(&h, &ho, "h").unwrap(), &[s], None, 4, 1).is_err());
    }
}
