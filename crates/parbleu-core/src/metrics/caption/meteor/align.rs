//! Matching (exact, stem, synonym, paraphrase, in that order) and the choice of one alignment.
//!
//! The choice, as METEOR 1.5's papers state it: the most words covered, then the fewest chunks,
//! then the smallest sum of distances between match starts. What the jar does instead, as
//! observed on crafted inputs (its source was not read): a match that conflicts with no other
//! is always taken; among the others, a beam search over reference positions (width 40)
//! counts only exact matches as coverage, so an ambiguous stem, synonym or paraphrase match
//! (a word pair both the stem and the synonym module match is one) is kept only when it costs
//! no chunk. This approximates the jar; docs/captioning.md gives the measured agreement.

use super::lexicon::Lexicon;
use super::paraphrase::{Table, NONE};

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

/// Every match of the four modules between test `t` and reference `r` (word ids of `lex`).
pub(crate) fn matches(t: &[u32], r: &[u32], lex: &Lexicon, table: &Table) -> Vec<Match> {
    let mut out = Vec::new();
    for (i, &a) in t.iter().enumerate() {
        let ia = &lex.info[a as usize];
        for (j, &b) in r.iter().enumerate() {
            let m = |module, dup| Match {
                i,
                len1: 1,
                j,
                len2: 1,
                module,
                dup,
            };
            if a == b {
                out.push(m(0, false));
                continue;
            }
            let ib = &lex.info[b as usize];
            let st = ia.stem == ib.stem;
            let sy = ia.mask & ib.mask != 0 && intersects(&ia.syn, &ib.syn);
            if st {
                out.push(m(1, sy));
            }
            if sy {
                out.push(m(2, st));
            }
        }
    }
    if !table.is_empty() {
        let tp = phrases(t, lex, table);
        if !tp.is_empty() {
            let rp = phrases(r, lex, table);
            for &(i, n, a) in &tp {
                let ps = table.paraphrases(a);
                for &(j, k, b) in &rp {
                    let lo = ps.partition_point(|&x| x < b);
                    let hi = lo + ps[lo..].partition_point(|&x| x == b);
                    for _ in lo..hi {
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
    out
}

/// Every phrase of the table in a sentence: (start, length, trie node).
fn phrases(s: &[u32], lex: &Lexicon, table: &Table) -> Vec<(usize, usize, u32)> {
    let mut out = Vec::new();
    for i in 0..s.len() {
        let mut node = 0;
        for (n, &w) in s[i..].iter().take(table.max_len).enumerate() {
            node = table.step(node, lex.info[w as usize].para);
            if node == NONE {
                break;
            }
            if !table.paraphrases(node).is_empty() {
                out.push((i, n + 1, node));
            }
        }
    }
    out
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

/// A partial alignment of the beam: its matches are a chain in an arena.
#[derive(Clone)]
struct State {
    /// Test words taken by chosen matches.
    used1: Box<[u64]>,
    /// End of the last chosen match on the reference side (matches are taken in its order).
    ref_end: usize,
    /// The last chosen match (arena index), or `usize::MAX`.
    last: usize,
    key: Key,
}

struct Node {
    m: usize,
    parent: usize,
}

fn free(bits: &[u64], m: &Match) -> bool {
    (m.i..m.i + m.len1).all(|x| bits[x / 64] & (1 << (x % 64)) == 0)
}

fn beam(cands: &[Match], fixed: &[Match], n1: usize, _n2: usize) -> Vec<Match> {
    // Fixed matches touch no candidate's words; only chunk adjacency links them.
    let mut end_at = vec![usize::MAX; n1 + 1];
    let mut start_at = vec![usize::MAX; n1 + 1];
    for f in fixed {
        end_at[f.i + f.len1] = f.j + f.len2;
        start_at[f.i] = f.j;
    }
    let mut base = fixed.to_vec();
    let start = State {
        used1: vec![0u64; n1 / 64 + 1].into_boxed_slice(),
        ref_end: 0,
        last: usize::MAX,
        key: (
            fixed.iter().map(Match::weight).sum(),
            std::cmp::Reverse(chunks(&mut base)),
            fixed.iter().map(|m| m.len1 + m.len2).sum(),
            std::cmp::Reverse(distance(fixed)),
        ),
    };
    let mut arena: Vec<Node> = Vec::new();
    let mut states = vec![start];
    let mut next: Vec<State> = Vec::new();
    // Observed: a beam over reference positions reproduces the jar far more often than one
    // over test positions or an exhaustive search (its exact order is not documented).
    let mut k = 0;
    while k < cands.len() {
        let pos = cands[k].j;
        let mut e = k;
        while e < cands.len() && cands[e].j == pos {
            e += 1;
        }
        next.clear();
        for st in &states {
            next.push(st.clone());
            for (c, m) in cands.iter().enumerate().take(e).skip(k) {
                if st.ref_end > m.j || !free(&st.used1, m) {
                    continue;
                }
                let mut s2 = st.clone();
                for x in m.i..m.i + m.len1 {
                    s2.used1[x / 64] |= 1 << (x % 64);
                }
                s2.ref_end = m.j + m.len2;
                let pred = match st.last {
                    usize::MAX => false,
                    l => {
                        let p = &cands[arena[l].m];
                        p.i + p.len1 == m.i && p.j + p.len2 == m.j
                    }
                } || end_at[m.i] == m.j;
                let succ = start_at[m.i + m.len1] == m.j + m.len2;
                let (cover, ch, total, dist) = st.key;
                let ch = ch.0 + 1 - usize::from(pred) - usize::from(succ);
                s2.key = (
                    cover + m.weight(),
                    std::cmp::Reverse(ch),
                    total + m.len1 + m.len2,
                    std::cmp::Reverse(dist.0 + m.i.abs_diff(m.j)),
                );
                arena.push(Node {
                    m: c,
                    parent: st.last,
                });
                s2.last = arena.len() - 1;
                next.push(s2);
            }
        }
        next.sort_by_key(|s| std::cmp::Reverse(s.key));
        next.truncate(BEAM);
        std::mem::swap(&mut states, &mut next);
        k = e;
    }
    let mut out = fixed.to_vec();
    let mut at = states[0].last;
    while at != usize::MAX {
        out.push(cands[arena[at].m]);
        at = arena[at].parent;
    }
    out
}
