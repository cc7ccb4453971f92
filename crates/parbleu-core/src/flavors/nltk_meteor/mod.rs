//! NLTK 3.10.4's `nltk.translate.meteor_score` (`single_meteor_score`, `meteor_score`), exact.
//!
//! Words are matched in NLTK's three stages, each on what the previous one left: exact (the
//! preprocessed words), stem (NLTK's Porter stemmer of those words), then WordNet synonyms *of
//! the stems* (NLTK passes the stage-2 lists on, stems included). In each stage the hypothesis
//! is walked from its last word to its first, and a word takes the last free reference position
//! it can match; the synonym stage takes the last position over all synonyms. The score is
//! NLTK's float arithmetic, operation for operation; a division by zero is NLTK's 0.0.

mod align;
mod interned;
pub mod wordnet;

use crate::metrics::rouge::porter::stem_unicode;
use crate::text::py_lower;
use crate::{interrupt, parallel, Error, Result};
use interned::{Interned, Side};
use rustc_hash::FxHashMap;
pub use wordnet::Wordnet;

/// `alpha`, `beta`, `gamma` of `meteor_score` (NLTK's defaults: 0.9, 3.0, 0.5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    pub alpha: f64,
    pub beta: f64,
    pub gamma: f64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            alpha: 0.9,
            beta: 3.0,
            gamma: 0.5,
        }
    }
}

/// One tokenized sentence, preprocessed (`preprocess(word)` of each token) and stemmed.
#[derive(Clone, Debug, Default)]
pub struct Words {
    pub words: Vec<String>,
    pub stems: Vec<String>,
}

impl Words {
    /// NLTK's defaults: `str.lower` of each token, then `PorterStemmer().stem`.
    pub fn new<S: AsRef<str>>(tokens: &[S]) -> Self {
        Self::prepare(tokens, true, None)
    }

    /// `lower`: `str.lower` as the preprocessing (else the tokens are already preprocessed);
    /// `stems`: a caller's stemmer's output (else NLTK's Porter stemmer of the words).
    pub fn prepare<S: AsRef<str>>(tokens: &[S], lower: bool, stems: Option<&[S]>) -> Self {
        let words: Vec<String> = tokens
            .iter()
            .map(|t| {
                if lower {
                    py_lower(t.as_ref())
                } else {
                    t.as_ref().to_owned()
                }
            })
            .collect();
        let stems = match stems {
            Some(s) => s.iter().map(|x| x.as_ref().to_owned()).collect(),
            None => words.iter().map(|w| stem_unicode(w)).collect(),
        };
        Words { words, stems }
    }
}

/// The caller's stems of a batch's hypotheses and references.
pub type Stems<'a, S> = (&'a [Vec<S>], &'a [Vec<Vec<S>>]);

/// A batch of tokenized segments: hypotheses, their references, and optionally the caller's
/// stems of both (same shapes).
pub struct Batch<'a, S> {
    pub hyps: &'a [Vec<S>],
    pub refs: &'a [Vec<Vec<S>>],
    pub stems: Option<Stems<'a, S>>,
    /// `preprocess=str.lower` (else the tokens are taken as preprocessed).
    pub lower: bool,
}

impl<S: AsRef<str> + Sync> Batch<'_, S> {
    fn check(&self) -> Result<()> {
        let mismatch = |what: &str, expected: usize, found: usize| Error::LengthMismatch {
            what: what.into(),
            expected,
            found,
        };
        if self.hyps.len() != self.refs.len() {
            return Err(mismatch(
                "hypotheses and reference lists",
                self.hyps.len(),
                self.refs.len(),
            ));
        }
        if let Some((hs, rs)) = self.stems {
            let shape = |a: &[S], b: &[S]| a.len() == b.len();
            if hs.len() != self.hyps.len()
                || rs.len() != self.refs.len()
                || !self.hyps.iter().zip(hs).all(|(a, b)| shape(a, b))
                || !self
                    .refs
                    .iter()
                    .zip(rs)
                    .all(|(a, b)| a.len() == b.len() && a.iter().zip(b).all(|(x, y)| shape(x, y)))
            {
                return Err(mismatch(
                    "stems and tokens (shapes)",
                    self.hyps.len(),
                    hs.len(),
                ));
            }
        }
        Ok(())
    }

    /// [`meteor`] of every segment on `workers` threads (see [`meteor_batch`]): each distinct
    /// token is prepared once, each distinct word looked up in WordNet once.
    pub fn scores(&self, wn: &Wordnet, p: Params, workers: usize) -> Result<Vec<f64>> {
        self.check()?;
        let mut t = Interned::default();
        let mut cache = FxHashMap::default();
        let st = self.stems;
        let segs: Vec<(Side, Vec<Side>)> = (0..self.hyps.len())
            .map(|i| {
                let h = t.side(
                    &self.hyps[i],
                    st.map(|s| s.0[i].as_slice()),
                    self.lower,
                    &mut cache,
                );
                let r = (0..self.refs[i].len())
                    .map(|k| {
                        let rs = st.map(|s| s.1[i][k].as_slice());
                        t.side(&self.refs[i][k], rs, self.lower, &mut cache)
                    })
                    .collect();
                (h, r)
            })
            .collect();
        drop(cache);
        t.look_up(wn, workers);
        let n = t.strs.len();
        run_batch(segs.len(), workers, n, |i, head| {
            let (h, rs) = &segs[i];
            let mut best: Option<f64> = None;
            for r in rs {
                let (m, c) = align::align(h, r, &t, wn, head, None);
                let s = score(m, c, h.words.len(), r.words.len(), p)?;
                // Python's max: the first of equal scores, a NaN first stays.
                let better = match best {
                    None => true,
                    Some(b) => s > b,
                };
                if better {
                    best = Some(s);
                }
            }
            best.ok_or_else(|| Error::InvalidOption {
                name: "references".into(),
                value: "an empty list".into(),
                expected: "at least one reference (NLTK: max() arg is an empty sequence)".into(),
            })
        })
    }
}

/// Number of aligned words and chunks of one hypothesis against one reference.
pub fn align(hyp: &Words, reff: &Words, wn: &Wordnet) -> (usize, usize) {
    align_by(hyp, reff, wn, None)
}

fn align_by(hyp: &Words, reff: &Words, wn: &Wordnet, by_name: Option<bool>) -> (usize, usize) {
    let mut t = Interned::default();
    let mut cache = FxHashMap::default();
    let h = t.side(&hyp.words, Some(&hyp.stems), false, &mut cache);
    let r = t.side(&reff.words, Some(&reff.stems), false, &mut cache);
    t.look_up(wn, 1);
    let mut head = vec![align::NONE; t.strs.len()];
    align::align(&h, &r, &t, wn, &mut head, by_name)
}

/// `single_meteor_score`'s arithmetic; `Err` where Python's `**` raises `OverflowError`.
pub fn score(
    matches: usize,
    chunks: usize,
    hyp_len: usize,
    ref_len: usize,
    p: Params,
) -> Result<f64> {
    // NLTK catches ZeroDivisionError: an empty side, no match, or a zero denominator.
    if hyp_len == 0 || ref_len == 0 || matches == 0 {
        return Ok(0.0);
    }
    let m = matches as f64;
    let precision = m / hyp_len as f64;
    let recall = m / ref_len as f64;
    let den = p.alpha * precision + (1.0 - p.alpha) * recall;
    if den == 0.0 {
        return Ok(0.0);
    }
    let fmean = (precision * recall) / den;
    let frag = chunks as f64 / m;
    let pw = frag.powf(p.beta);
    if pw.is_infinite() && p.beta.is_finite() {
        return Err(Error::InvalidOption {
            name: "beta".into(),
            value: format!("{:?}", p.beta),
            expected: format!(
                "a value for which {frag:?} ** beta is a float (Python: OverflowError)"
            ),
        });
    }
    let penalty = p.gamma * pw;
    Ok((1.0 - penalty) * fmean)
}

/// `meteor_score(references, hypothesis)`: the first of the largest single scores (Python's
/// `max`, so a NaN first stays). No reference is Python's `max()` error, an `Err` here.
pub fn meteor(hyp: &Words, refs: &[Words], wn: &Wordnet, p: Params) -> Result<f64> {
    meteor_batch(std::slice::from_ref(hyp), &[refs.to_vec()], wn, p, 1).map(|v| v[0])
}

/// Segments per work chunk.
const CHUNK: usize = 64;

/// [`meteor`] of every segment on `workers` threads (results do not depend on them); stops early
/// (with zeros) when [`interrupt::requested`] says so. The first failing segment's error wins,
/// with its index.
pub fn meteor_batch(
    hyps: &[Words],
    refs: &[Vec<Words>],
    wn: &Wordnet,
    p: Params,
    workers: usize,
) -> Result<Vec<f64>> {
    let hw: Vec<Vec<&str>> = hyps
        .iter()
        .map(|h| h.words.iter().map(String::as_str).collect())
        .collect();
    let hs: Vec<Vec<&str>> = hyps
        .iter()
        .map(|h| h.stems.iter().map(String::as_str).collect())
        .collect();
    let side = |f: fn(&Words) -> &Vec<String>| -> Vec<Vec<Vec<&str>>> {
        refs.iter()
            .map(|rs| {
                rs.iter()
                    .map(|r| f(r).iter().map(String::as_str).collect())
                    .collect()
            })
            .collect()
    };
    let (rw, rs) = (side(|w| &w.words), side(|w| &w.stems));
    Batch {
        hyps: &hw,
        refs: &rw,
        stems: Some((&hs, &rs)),
        lower: false,
    }
    .scores(wn, p, workers)
}

fn run_batch(
    n: usize,
    workers: usize,
    ids: usize,
    f: impl Fn(usize, &mut [u32]) -> Result<f64> + Sync,
) -> Result<Vec<f64>> {
    let mut out: Vec<Result<f64>> = (0..n).map(|_| Ok(0.0)).collect();
    parallel::for_each_chunk(workers, &mut out, CHUNK, |start, chunk| {
        // One stack head per id, all empty between alignments.
        let mut head = vec![align::NONE; ids];
        for (k, slot) in chunk.iter_mut().enumerate() {
            if interrupt::requested() {
                return;
            }
            *slot = f(start + k, &mut head);
        }
    });
    out.into_iter()
        .enumerate()
        .map(|(i, r)| {
            r.map_err(|e| match e {
                Error::InvalidOption {
                    name,
                    value,
                    expected,
                } => Error::InvalidOption {
                    name,
                    value: format!("{value} (segment {i})"),
                    expected,
                },
                e => e,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;
