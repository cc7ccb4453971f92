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

/// No position (an empty stack).
const NONE: u32 = u32::MAX;

/// Above this many (hypothesis, reference) word pairs left for the synonym stage, synonyms are
/// looked up by name instead of testing each pair.
const SCAN_LIMIT: usize = 1 << 14;

/// `_match_enums` on `(position, word id)` lists: each hypothesis word, last first, takes the
/// last free reference position holding the same word (a stack per word: `head`, indexed by
/// word id and left all [`NONE`], and `prev`). Matches are appended to `m`; the unmatched
/// entries stay in `hyp` and `refs`.
fn match_exact(
    hyp: &mut Vec<(usize, u32)>,
    refs: &mut Vec<(usize, u32)>,
    head: &mut [u32],
    m: &mut Vec<(usize, usize)>,
) {
    let mut prev = vec![NONE; refs.len()];
    for (j, &(_, w)) in refs.iter().enumerate() {
        prev[j] = head[w as usize];
        head[w as usize] = j as u32;
    }
    let mut hyp_done = vec![false; hyp.len()];
    let mut ref_done = vec![false; refs.len()];
    for i in (0..hyp.len()).rev() {
        let w = hyp[i].1 as usize;
        let j = head[w];
        if j != NONE {
            head[w] = prev[j as usize];
            hyp_done[i] = true;
            ref_done[j as usize] = true;
            m.push((hyp[i].0, refs[j as usize].0));
        }
    }
    for &(_, w) in refs.iter() {
        head[w as usize] = NONE;
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

/// One segment's words and stems as ids of one vocabulary (hypothesis and references), and the
/// hypothesis stems' synsets, looked up once for all references.
struct Segment<'a> {
    vocab: FxHashMap<&'a str, u32>,
    strs: Vec<&'a str>,
    hyp: (Vec<u32>, Vec<u32>),
    refs: Vec<(Vec<u32>, Vec<u32>)>,
    synsets: Vec<Option<Vec<u32>>>,
    head: Vec<u32>,
}

impl<'a> Segment<'a> {
    fn new(hyp: &'a Words, refs: &'a [Words]) -> Self {
        let mut vocab: FxHashMap<&'a str, u32> = FxHashMap::default();
        let mut strs = Vec::new();
        let mut ids = |v: &'a [String]| -> Vec<u32> {
            v.iter()
                .map(|w| {
                    *vocab.entry(w.as_str()).or_insert_with(|| {
                        strs.push(w.as_str());
                        strs.len() as u32 - 1
                    })
                })
                .collect()
        };
        let h = (ids(&hyp.words), ids(&hyp.stems));
        let r = refs
            .iter()
            .map(|x| (ids(&x.words), ids(&x.stems)))
            .collect();
        let n = strs.len();
        Segment {
            vocab,
            strs,
            hyp: h,
            refs: r,
            synsets: vec![None; hyp.words.len()],
            head: vec![NONE; n],
        }
    }

    /// `_enum_wordnetsyn_match`: each hypothesis word (a stem here), last first, takes the last
    /// free reference position holding the word itself or a lemma name of its synsets (NLTK's
    /// maximum over the synonyms' last positions is that position).
    fn match_synonyms(
        &mut self,
        hyp: &[(usize, u32)],
        refs: &[(usize, u32)],
        wn: &Wordnet,
        m: &mut Vec<(usize, usize)>,
    ) {
        let mut taken = vec![false; refs.len()];
        for &(hi, w) in hyp.iter().rev() {
            let syns = self.synsets[hi].get_or_insert_with(|| {
                // synsets() lowers its argument; a stem is lowercase unless a caller's stemmer
                // says otherwise.
                let s = self.strs[w as usize];
                let mut out = Vec::new();
                if s.chars().any(char::is_uppercase) {
                    wn.synset_ids(&py_lower(s), &mut out);
                } else {
                    wn.synset_ids(s, &mut out);
                }
                out
            });
            for j in (0..refs.len()).rev() {
                let r = refs[j].1;
                if !taken[j] && (r == w || wn.names_any(syns, self.strs[r as usize])) {
                    taken[j] = true;
                    m.push((hi, refs[j].0));
                    break;
                }
            }
        }
    }

    /// [`Self::match_synonyms`] for long texts, as NLTK does it: every synonym of each
    /// hypothesis word is looked up in per-word stacks of the free reference positions (linear
    /// in the synonyms, where the scan is quadratic in the words).
    fn match_synonyms_by_name(
        &mut self,
        hyp: &[(usize, u32)],
        refs: &[(usize, u32)],
        wn: &Wordnet,
        m: &mut Vec<(usize, usize)>,
    ) {
        let head = &mut self.head;
        let mut prev = vec![NONE; refs.len()];
        for (j, &(_, w)) in refs.iter().enumerate() {
            prev[j] = head[w as usize];
            head[w as usize] = j as u32;
        }
        for &(hi, w) in hyp.iter().rev() {
            let mut best: Option<(u32, u32)> = None;
            let mut consider = |id: u32, head: &[u32]| {
                let j = head[id as usize];
                if j != NONE && best.is_none_or(|(b, _)| j > b) {
                    best = Some((j, id));
                }
            };
            consider(w, head);
            let word = py_lower(self.strs[w as usize]);
            let vocab = &self.vocab;
            wn.for_each_synonym(&word, |name| {
                if let Some(&id) = vocab.get(name) {
                    consider(id, head);
                }
            });
            if let Some((j, id)) = best {
                head[id as usize] = prev[j as usize];
                m.push((hi, refs[j as usize].0));
            }
        }
        for &(_, w) in refs {
            head[w as usize] = NONE;
        }
    }

    /// Aligned words and chunks against reference `k`.
    fn align(&mut self, k: usize, wn: &Wordnet) -> (usize, usize) {
        self.align_by(k, wn, None)
    }

    /// [`Self::align`], the synonym stage's method chosen by size unless `by_name` says.
    fn align_by(&mut self, k: usize, wn: &Wordnet, by_name: Option<bool>) -> (usize, usize) {
        let mut m = Vec::new();
        let (hw, hs) = (&self.hyp.0, &self.hyp.1);
        let (rw, rs) = (&self.refs[k].0, &self.refs[k].1);
        let mut h: Vec<(usize, u32)> = hw.iter().copied().enumerate().collect();
        let mut r: Vec<(usize, u32)> = rw.iter().copied().enumerate().collect();
        match_exact(&mut h, &mut r, &mut self.head, &mut m);
        // Stage 2 sees the stems of what stage 1 left, and passes them on to stage 3.
        h.iter_mut().for_each(|e| e.1 = hs[e.0]);
        r.iter_mut().for_each(|e| e.1 = rs[e.0]);
        match_exact(&mut h, &mut r, &mut self.head, &mut m);
        if by_name.unwrap_or(h.len().saturating_mul(r.len()) > SCAN_LIMIT) {
            self.match_synonyms_by_name(&h, &r, wn, &mut m);
        } else if !h.is_empty() && !r.is_empty() {
            self.match_synonyms(&h, &r, wn, &mut m);
        }
        if m.is_empty() {
            return (0, 0);
        }
        m.sort_unstable_by_key(|x| x.0);
        (m.len(), chunks(&m))
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
    Segment::new(hyp, std::slice::from_ref(reff)).align(0, wn)
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
    let mut seg = Segment::new(hyp, refs);
    for (k, r) in refs.iter().enumerate() {
        let (m, c) = seg.align(k, wn);
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
