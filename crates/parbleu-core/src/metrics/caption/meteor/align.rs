//! Matching (exact, stem, synonym, paraphrase, in that order) and the choice of one alignment.
//!
//! The choice, as METEOR 1.5's papers state it: the most words covered, then the fewest chunks,
//! then the smallest sum of distances between match starts. What the jar does instead, as
//! observed on crafted inputs (its source was not read): a match that conflicts with no other
//! is always taken; among the others, a beam search over reference positions (width 40)
//! counts only exact matches as coverage, so an ambiguous stem, synonym or paraphrase match
//! (a word pair both the stem and the synonym module match is one) is kept only when it costs
//! no chunk. This approximates the jar; docs/captioning.md gives the measured agreement.

use super::resources::Resources;
use super::stem::stem;

/// One match: `len1` test words from `i`, `len2` reference words from `j`, by `module`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Match {
    pub i: usize,
    pub len1: usize,
    pub j: usize,
    pub len2: usize,
    pub module: usize,
    /// Matched by both the stem and the synonym module.
    pub dup: bool,
}

impl Match {
    /// Weight in the search's first criterion: only exact matches count (observed).
    fn weight(&self) -> usize {
        if self.module == 0 {
            self.len1 + self.len2
        } else {
            0
        }
    }
}

/// A sentence's words with what the modules need.
pub(crate) struct Words<'a> {
    pub w: Vec<&'a str>,
    pub stems: Vec<String>,
    pub syn: Vec<Vec<u32>>,
}

impl<'a> Words<'a> {
    pub fn new(w: Vec<&'a str>, res: &Resources) -> Self {
        let stems = w.iter().map(|x| stem(x)).collect();
        let syn = w.iter().map(|x| res.synsets_of(x)).collect();
        Self { w, stems, syn }
    }
}

fn intersects(a: &[u32], b: &[u32]) -> bool {
    let (mut x, mut y) = (0, 0);
    while x < a.len() && y < b.len() {
        match a[x].cmp(&b[y]) {
            std::cmp::Ordering::Less => x += 1,
            std::cmp::Ordering::Greater => y += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

/// Every match of the four modules between test `t` and reference `r`.
pub(crate) fn matches(t: &Words, r: &Words, res: &Resources) -> Vec<Match> {
    let mut out = Vec::new();
    for i in 0..t.w.len() {
        for j in 0..r.w.len() {
            let m = |module, dup| Match {
                i,
                len1: 1,
                j,
                len2: 1,
                module,
                dup,
            };
            if t.w[i] == r.w[j] {
                out.push(m(0, false));
                continue;
            }
            let st = t.stems[i] == r.stems[j];
            let sy = intersects(&t.syn[i], &r.syn[j]);
            if st {
                out.push(m(1, sy));
            }
            if sy {
                out.push(m(2, st));
            }
        }
    }
    paraphrases(t, r, res, &mut out);
    out
}

fn paraphrases(t: &Words, r: &Words, res: &Resources, out: &mut Vec<Match>) {
    let table = &res.paraphrases;
    if table.is_empty() {
        return;
    }
    for i in 0..t.w.len() {
        for n in 1..=table.max_len.min(t.w.len() - i) {
            let Some(id) = table.lookup(&t.w[i..i + n]) else {
                continue;
            };
            let Some(ps) = table.para.get(&id) else {
                continue;
            };
            for &p in ps {
                let pw = &table.words[p as usize];
                let k = pw.len();
                if k > r.w.len() {
                    continue;
                }
                for j in 0..=r.w.len() - k {
                    if (0..k).all(|x| *pw[x] == *r.w[j + x]) {
                        out.push(Match {
                            i,
                            len1: n,
                            j,
                            len2: k,
                            module: 3,
                            dup: false,
                        });
                    }
                }
            }
        }
    }
}

/// Chunks of an alignment given in any order.
pub(crate) fn chunks(ms: &mut [Match]) -> usize {
    ms.sort_by_key(|m| (m.i, m.j));
    let mut n = 0;
    let mut prev: Option<&Match> = None;
    for m in ms.iter() {
        match prev {
            Some(p) if p.i + p.len1 == m.i && p.j + p.len2 == m.j => {}
            _ => n += 1,
        }
        prev = Some(m);
    }
    n
}

fn distance(ms: &[Match]) -> usize {
    ms.iter().map(|m| m.i.abs_diff(m.j)).sum()
}

/// Coverage, chunks (fewer first), words covered, distance (smaller first).
type Key = (
    usize,
    std::cmp::Reverse<usize>,
    usize,
    std::cmp::Reverse<usize>,
);

/// The chosen alignment of `n1` test and `n2` reference words.
pub(crate) fn align(all: &[Match], n1: usize, n2: usize) -> Vec<Match> {
    let mut c1 = vec![0usize; n1];
    let mut c2 = vec![0usize; n2];
    for m in all {
        c1[m.i..m.i + m.len1].iter_mut().for_each(|x| *x += 1);
        c2[m.j..m.j + m.len2].iter_mut().for_each(|x| *x += 1);
    }
    let (mut fixed, mut cands) = (Vec::new(), Vec::new());
    for m in all {
        let alone =
            (m.i..m.i + m.len1).all(|x| c1[x] == 1) && (m.j..m.j + m.len2).all(|x| c2[x] == 1);
        if alone && !m.dup {
            fixed.push(*m);
        } else {
            cands.push(*m);
        }
    }
    if cands.is_empty() {
        return fixed;
    }
    cands.sort_by_key(|m| (m.j, m.i, m.module));
    beam(&cands, &fixed, n1, n2)
}

/// Width of the beam (the jar's default `-x 40`).
const BEAM: usize = 40;

#[derive(Clone)]
struct State {
    chosen: Vec<Match>,
    used1: Vec<bool>,
    used2: Vec<bool>,
    key: Key,
}

fn key_of(fixed: &[Match], chosen: &[Match]) -> Key {
    let mut all: Vec<Match> = fixed.iter().chain(chosen.iter()).copied().collect();
    let ch = chunks(&mut all);
    let cover: usize = all.iter().map(Match::weight).sum();
    let total: usize = all.iter().map(|m| m.len1 + m.len2).sum();
    (
        cover,
        std::cmp::Reverse(ch),
        total,
        std::cmp::Reverse(distance(&all)),
    )
}

fn beam(cands: &[Match], fixed: &[Match], n1: usize, n2: usize) -> Vec<Match> {
    let mut used1 = vec![false; n1];
    let mut used2 = vec![false; n2];
    for m in fixed {
        used1[m.i..m.i + m.len1].iter_mut().for_each(|x| *x = true);
        used2[m.j..m.j + m.len2].iter_mut().for_each(|x| *x = true);
    }
    let start = State {
        chosen: Vec::new(),
        used1,
        used2,
        key: key_of(fixed, &[]),
    };
    let mut states = vec![start];
    // Observed: a beam over reference positions reproduces the jar far more often than one
    // over test positions or an exhaustive search (its exact order is not documented).
    for pos in 0..n2 {
        let here: Vec<&Match> = cands.iter().filter(|m| m.j == pos).collect();
        if here.is_empty() {
            continue;
        }
        let mut next: Vec<State> = Vec::new();
        for st in &states {
            next.push(st.clone());
            for m in &here {
                let free = st.used1[m.i..m.i + m.len1].iter().all(|x| !x)
                    && st.used2[m.j..m.j + m.len2].iter().all(|x| !x);
                if !free {
                    continue;
                }
                let mut s2 = st.clone();
                s2.used1[m.i..m.i + m.len1]
                    .iter_mut()
                    .for_each(|x| *x = true);
                s2.used2[m.j..m.j + m.len2]
                    .iter_mut()
                    .for_each(|x| *x = true);
                s2.chosen.push(**m);
                s2.key = key_of(fixed, &s2.chosen);
                next.push(s2);
            }
        }
        next.sort_by_key(|s| std::cmp::Reverse(s.key));
        next.truncate(BEAM);
        states = next;
    }
    let best = &states[0];
    fixed.iter().chain(best.chosen.iter()).copied().collect()
}
