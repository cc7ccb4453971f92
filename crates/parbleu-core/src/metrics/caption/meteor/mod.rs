//! METEOR 1.5 as pycocoevalcap runs it (`-l en -norm`, task `default`), written from the METEOR
//! papers (Lavie & Denkowski 2009; Denkowski & Lavie 2011, 2014) and the jar's observed
//! behaviour; the alignment search's order and bookkeeping were learned from the jar's source
//! and are implemented from their description in docs/captioning.md, not translated. The data (function words, WordNet synsets, paraphrase table)
//! come from the user's installed pycocoevalcap: [`Resources`].
//!
//! A segment's statistics are the jar's `SCORE` answer, 23 numbers: test and reference length,
//! their function words, per module (exact, stem, synonym, paraphrase) the matched test content,
//! reference content, test function and reference function words, then chunks and matched test
//! and reference words. [`score`] is the jar's `EVAL` of (summed) statistics, with its float
//! operations in the order that reproduces the jar's bits (found by feeding it statistics).

pub mod align;
pub mod eval;
mod lexicon;
mod line;
pub mod normalize;
pub mod paraphrase;
pub mod resources;
mod search;
#[cfg(test)]
mod search_reference;
pub mod stem;
#[cfg(test)]
mod tests;

pub use normalize::{normalize, normalize_words, parse_prefixes, Prefixes, Words};
pub use resources::Resources;

use align::chunks;
use lexicon::Lexicon;
use line::Line;
use rustc_hash::FxHashMap;

/// Test words, reference words, matches kept, all candidate matches; a match is (test start,
/// test length, reference start, reference length, module).
pub type Alignment = (
    Vec<String>,
    Vec<String>,
    Vec<(usize, usize, usize, usize, usize)>,
    Vec<(usize, usize, usize, usize, usize)>,
);

/// Columns of a segment's statistics.
pub const STATS: usize = 23;

/// α, β, γ, δ and the four module weights; [`Params::EN`] is the jar's `-l en` default.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    pub alpha: f64,
    pub beta: f64,
    pub gamma: f64,
    pub delta: f64,
    pub weights: [f64; 4],
}

impl Params {
    /// `Parameters: 0.85 0.2 0.6 0.75`, `Weights: 1.0 0.6 0.8 0.6` as the jar prints them.
    pub const EN: Params = Params {
        alpha: 0.85,
        beta: 0.2,
        gamma: 0.6,
        delta: 0.75,
        weights: [1.0, 0.6, 0.8, 0.6],
    };
}

/// The scorer: data and the non-breaking prefixes of the normaliser.
pub struct Meteor {
    pub res: Resources,
    pub prefixes: Prefixes,
    pub params: Params,
}

impl Meteor {
    /// The alignment of a test line and a reference: the normalised words, the matches kept
    /// and every candidate match, each as (test start, test length, reference start, reference
    /// length, module).
    pub fn alignment(&self, test: &str, reference: &str) -> Alignment {
        let tw = normalize(test, &self.prefixes);
        let rw = normalize(reference, &self.prefixes);
        let mut lex = Lexicon::new();
        let t = lex.intern(tw.iter().map(String::as_str));
        let r = lex.intern(rw.iter().map(String::as_str));
        lex.finish(&self.res, 1);
        let table = &self.res.paraphrases;
        let (mut tl, mut rl) = (Line::new(t, &lex, table), Line::new(r, &lex, table));
        let nodes = Line::nodes_of([&tl, &rl], table);
        tl.link(table, &nodes);
        rl.link(table, &nodes);
        let mut chosen = Vec::new();
        align::align(&tl, &rl, &lex, &mut align::Scratch::default(), &mut chosen);
        chosen.sort_by_key(|m| (m.j, m.i));
        let tuple = |m: &align::Match| (m.i, m.len1, m.j, m.len2, m.module);
        let kept = chosen.iter().map(tuple).collect();
        let all = align::all_candidates(&tl, &rl, &lex)
            .iter()
            .map(tuple)
            .collect();
        (tw.clone(), rw.clone(), kept, all)
    }

    /// Statistics of test `t` against reference `r` (word ids of `lex`).
    fn stats_one(
        &self,
        t: &Line,
        r: &Line,
        lex: &Lexicon,
        sc: &mut align::Scratch,
        chosen: &mut Vec<align::Match>,
    ) -> [f64; STATS] {
        align::align(t, r, lex, sc, chosen);
        let (t, r) = (&t.words, &r.words);
        let func = |w: &u32| lex.info[*w as usize].func;
        let mut s = [0f64; STATS];
        s[0] = t.len() as f64;
        s[1] = r.len() as f64;
        s[2] = t.iter().filter(|w| func(w)).count() as f64;
        s[3] = r.iter().filter(|w| func(w)).count() as f64;
        let (mut m1, mut m2) = (0usize, 0usize);
        for m in chosen.iter() {
            let base = 4 + 4 * m.module;
            for w in &t[m.i..m.i + m.len1] {
                s[base + if func(w) { 2 } else { 0 }] += 1.0;
            }
            for w in &r[m.j..m.j + m.len2] {
                s[base + if func(w) { 3 } else { 1 }] += 1.0;
            }
            m1 += m.len1;
            m2 += m.len2;
        }
        s[20] = chunks(chosen) as f64;
        s[21] = m1 as f64;
        s[22] = m2 as f64;
        s
    }

    /// The `SCORE` answer: the statistics of the best-scoring reference (the first on a tie).
    fn best(
        &self,
        t: &Line,
        refs: &[&Line],
        lex: &Lexicon,
        sc: &mut align::Scratch,
        chosen: &mut Vec<align::Match>,
    ) -> [f64; STATS] {
        let mut best: Option<(f64, [f64; STATS])> = None;
        for r in refs {
            let s = self.stats_one(t, r, lex, sc, chosen);
            let v = score(&s, &self.params);
            if best.as_ref().is_none_or(|(b, _)| v > *b) {
                best = Some((v, s));
            }
        }
        best.map(|b| b.1).unwrap_or([0.0; STATS])
    }

    /// The `SCORE` answer of one test line against its references.
    pub fn stats(&self, test: &str, references: &[&str]) -> [f64; STATS] {
        self.stats_batch(&[test], &[references.to_vec()], 1)
            .try_into()
            .unwrap_or([0.0; STATS])
    }

    /// [`Meteor::stats`] of every image, on `workers` threads, rows concatenated. Each
    /// distinct line is normalised once and each distinct word looked up once per batch.
    pub fn stats_batch<'a>(
        &self,
        tests: &[&'a str],
        refs: &[Vec<&'a str>],
        workers: usize,
    ) -> Vec<f64> {
        let mut index: FxHashMap<&'a str, usize> = FxHashMap::default();
        let mut texts: Vec<&'a str> = Vec::new();
        let mut id = |x: &'a str| -> usize {
            *index.entry(x).or_insert_with(|| {
                texts.push(x);
                texts.len() - 1
            })
        };
        let segs: Vec<(usize, Vec<usize>)> = tests
            .iter()
            .zip(refs)
            .map(|(&t, rs)| (id(t), rs.iter().map(|&r| id(r)).collect()))
            .collect();
        let mut norm: Vec<Words> = vec![Words::default(); texts.len()];
        crate::parallel::for_each_chunk(workers, &mut norm, 64, |start, chunk| {
            for (k, o) in chunk.iter_mut().enumerate() {
                *o = normalize_words(texts[start + k], &self.prefixes);
            }
        });
        let mut lex = Lexicon::new();
        let words: Vec<Vec<u32>> = norm.iter().map(|w| lex.intern(w.iter())).collect();
        lex.finish(&self.res, workers);
        let mut lines: Vec<Line> = words.into_iter().map(Line::of_words).collect();
        crate::parallel::for_each_chunk(workers, &mut lines, 64, |_, chunk| {
            for l in chunk {
                l.prepare(&lex, &self.res.paraphrases);
            }
        });
        let nodes = Line::nodes_of(&lines, &self.res.paraphrases);
        crate::parallel::for_each_chunk(workers, &mut lines, 64, |_, chunk| {
            for l in chunk {
                l.link(&self.res.paraphrases, &nodes);
            }
        });
        let mut rows = vec![[0f64; STATS]; tests.len()];
        crate::parallel::for_each_chunk(workers, &mut rows, 16, |start, chunk| {
            let mut rs: Vec<&Line> = Vec::new();
            let mut sc = align::Scratch::default();
            let mut chosen = Vec::new();
            for (k, o) in chunk.iter_mut().enumerate() {
                let (t, r) = &segs[start + k];
                rs.clear();
                rs.extend(r.iter().map(|&x| &lines[x]));
                *o = self.best(&lines[*t], &rs, &lex, &mut sc, &mut chosen);
            }
        });
        rows.into_iter().flatten().collect()
    }
}

/// Precision or recall of one side: weighted matches over the δ-weighted length.
fn side(len: f64, func: f64, s: &[f64], off: usize, p: &Params) -> f64 {
    let den = p.delta * (len - func) + (1.0 - p.delta) * func;
    if den == 0.0 {
        return 0.0;
    }
    let mut num = 0.0;
    for (k, w) in p.weights.iter().enumerate() {
        num += s[4 + 4 * k + off] * w * p.delta;
    }
    for (k, w) in p.weights.iter().enumerate() {
        num += s[4 + 4 * k + off + 2] * w * (1.0 - p.delta);
    }
    num / den
}

/// The jar's `EVAL` of a statistics row (one segment's or a sum).
pub fn score(s: &[f64], p: &Params) -> f64 {
    let prec = side(s[0], s[2], s, 0, p);
    let rec = side(s[1], s[3], s, 1, p);
    if prec == 0.0 || rec == 0.0 {
        return 0.0;
    }
    let fmean = 1.0 / (p.alpha / rec + (1.0 - p.alpha) / prec);
    let (mut t, mut r) = (0.0, 0.0);
    for k in 0..4 {
        t += s[4 + 4 * k] + s[6 + 4 * k];
        r += s[5 + 4 * k] + s[7 + 4 * k];
    }
    let frag = if t == s[0] && r == s[1] && s[20] == 1.0 {
        0.0
    } else {
        p.gamma * (s[20] / ((s[21] + s[22]) / 2.0)).powf(p.beta)
    };
    fmean * (1.0 - frag)
}
