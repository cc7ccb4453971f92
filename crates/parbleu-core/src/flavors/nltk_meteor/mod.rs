//! NLTK 3.10.4's `nltk.translate.meteor_score` (`single_meteor_score`, `meteor_score`), exact.
//!
//! Words are matched in NLTK's three stages, each on what the previous one left: exact (the
//! preprocessed words), stem (NLTK's Porter stemmer of those words), then WordNet synonyms *of
//! the stems* (NLTK passes the stage-2 lists on, stems included). In each stage the hypothesis
//! is walked from its last word to its first, and a word takes the last free reference position
//! it can match; the synonym stage takes the last position over all synonyms. The score is
//! NLTK's float arithmetic, operation for operation; a division by zero is NLTK's 0.0.

pub mod wordnet;

use crate::rouge::porter::stem_unicode;
use crate::text::py_lower;
use crate::{interrupt, parallel, Error, Result};
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

    fn segment(&self, i: usize) -> (Words, Vec<Words>) {
        let st = self.stems;
        let hyp = Words::prepare(&self.hyps[i], self.lower, st.map(|s| s.0[i].as_slice()));
        let refs = (0..self.refs[i].len())
            .map(|k| {
                Words::prepare(
                    &self.refs[i][k],
                    self.lower,
                    st.map(|s| s.1[i][k].as_slice()),
                )
            })
            .collect();
        (hyp, refs)
    }

    /// [`meteor`] of every segment on `workers` threads (see [`meteor_batch`]).
    pub fn scores(&self, wn: &Wordnet, p: Params, workers: usize) -> Result<Vec<f64>> {
        self.check()?;
        run_batch(self.hyps.len(), workers, |i| {
            let (h, r) = self.segment(i);
            meteor(&h, &r, wn, p)
        })
    }
}

/// `_match_enums` on `(position, word)` lists: matches `(hyp, ref)` appended to `matches`, and
/// the unmatched entries kept in `hyp` and `refs`.
fn match_exact(
    hyp: &mut Vec<(usize, &str)>,
    refs: &mut Vec<(usize, &str)>,
    m: &mut Vec<(usize, usize)>,
) {
    let mut positions: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
    for (j, &(_, w)) in refs.iter().enumerate() {
        positions.entry(w).or_default().push(j);
    }
    let mut hyp_done = vec![false; hyp.len()];
    let mut ref_done = vec![false; refs.len()];
    for i in (0..hyp.len()).rev() {
        if let Some(j) = positions.get_mut(hyp[i].1).and_then(Vec::pop) {
            hyp_done[i] = true;
            ref_done[j] = true;
            m.push((hyp[i].0, refs[j].0));
        }
    }
    retain_unmatched(hyp, &hyp_done);
    retain_unmatched(refs, &ref_done);
}

fn retain_unmatched<T>(v: &mut Vec<T>, done: &[bool]) {
    let mut k = 0;
    v.retain(|_| {
        k += 1;
        !done[k - 1]
    });
}

/// `_enum_wordnetsyn_match`: a hypothesis word (a stem here) matches the last free reference
/// position holding the word itself or any of its WordNet synonyms.
fn match_synonyms(
    hyp: &[(usize, &str)],
    refs: &[(usize, &str)],
    wn: &Wordnet,
    m: &mut Vec<(usize, usize)>,
) {
    if hyp.is_empty() || refs.is_empty() {
        return;
    }
    let mut positions: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
    for (j, &(_, w)) in refs.iter().enumerate() {
        positions.entry(w).or_default().push(j);
    }
    for &(hi, w) in hyp.iter().rev() {
        let mut best: Option<(usize, &str)> = None;
        let mut consider = |syn: &str| {
            if let Some((key, pos)) = positions.get_key_value(syn) {
                if let Some(&j) = pos.last() {
                    if best.is_none_or(|(b, _)| j > b) {
                        best = Some((j, key));
                    }
                }
            }
        };
        consider(w);
        // synsets() lowers its argument; a stem is lowercase unless a caller's stemmer says not.
        let lower;
        let key = if w.chars().any(char::is_uppercase) {
            lower = py_lower(w);
            lower.as_str()
        } else {
            w
        };
        wn.for_each_synonym(key, &mut consider);
        if let Some((j, key)) = best {
            positions.get_mut(key).map(Vec::pop);
            m.push((hi, refs[j].0));
        }
    }
}

/// `_count_chunks` of matches sorted by hypothesis position.
fn chunks(m: &[(usize, usize)]) -> usize {
    1 + m
        .windows(2)
        .filter(|w| !(w[1].0 == w[0].0 + 1 && w[1].1 == w[0].1 + 1))
        .count()
}

/// Number of aligned words and chunks of one hypothesis against one reference.
pub fn align(hyp: &Words, reff: &Words, wn: &Wordnet) -> (usize, usize) {
    let mut m = Vec::new();
    let mut h: Vec<(usize, &str)> = hyp.words.iter().map(String::as_str).enumerate().collect();
    let mut r: Vec<(usize, &str)> = reff.words.iter().map(String::as_str).enumerate().collect();
    match_exact(&mut h, &mut r, &mut m);
    // Stage 2 sees the stems of what stage 1 left, and passes them on to stage 3.
    h.iter_mut().for_each(|e| e.1 = &hyp.stems[e.0]);
    r.iter_mut().for_each(|e| e.1 = &reff.stems[e.0]);
    match_exact(&mut h, &mut r, &mut m);
    match_synonyms(&h, &r, wn, &mut m);
    if m.is_empty() {
        return (0, 0);
    }
    m.sort_unstable_by_key(|x| x.0);
    (m.len(), chunks(&m))
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
    let mut best: Option<f64> = None;
    for r in refs {
        let (m, c) = align(hyp, r, wn);
        let s = score(m, c, hyp.words.len(), r.words.len(), p)?;
        if best.is_none_or(|b| s > b) {
            best = Some(s);
        }
    }
    best.ok_or_else(|| Error::InvalidOption {
        name: "references".into(),
        value: "an empty list".into(),
        expected: "at least one reference (NLTK: max() arg is an empty sequence)".into(),
    })
}

/// Segments per work chunk.
const CHUNK: usize = 16;

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
    if hyps.len() != refs.len() {
        return Err(Error::LengthMismatch {
            what: "hypotheses and reference lists".into(),
            expected: hyps.len(),
            found: refs.len(),
        });
    }
    run_batch(hyps.len(), workers, |i| meteor(&hyps[i], &refs[i], wn, p))
}

fn run_batch(
    n: usize,
    workers: usize,
    f: impl Fn(usize) -> Result<f64> + Sync,
) -> Result<Vec<f64>> {
    let mut out: Vec<Result<f64>> = (0..n).map(|_| Ok(0.0)).collect();
    parallel::for_each_chunk(workers, &mut out, CHUNK, |start, chunk| {
        for (k, slot) in chunk.iter_mut().enumerate() {
            if interrupt::requested() {
                return;
            }
            *slot = f(start + k);
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
