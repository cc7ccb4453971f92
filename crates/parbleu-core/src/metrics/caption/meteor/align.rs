//! Matching (exact, stem, synonym, paraphrase, in that order) and the choice of one alignment,
//! as METEOR 1.5's jar makes them.
//!
//! The candidates, the matches that are certain, and the beam search over reference positions
//! follow the rules docs/captioning.md states in words ("How the jar chooses an alignment").
//! Some of them (the order candidates are tried in, the integer sums the search ranks by, the
//! distance bookkeeping) could not be learned from the jar's behaviour and were learned by
//! reading its source; this is an implementation of those rules, not a translation of it.

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
}

/// Width of the beam (the jar's default `-x 40`).
const BEAM: usize = 40;

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

/// Every phrase of the table in a sentence: (start, length, trie node), by start then length.
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

/// The candidate matches between test `t` and reference `r` (word ids of `lex`), listed per
/// reference start position in the order the search tries them: exact, stem, synonym (each by
/// test position), then paraphrases of reference phrases (by phrase length, record, test
/// position), then paraphrases of test phrases (by test position, length, record).
pub(crate) fn candidates(t: &[u32], r: &[u32], lex: &Lexicon, table: &Table) -> Vec<Vec<Match>> {
    let mut lists: Vec<Vec<Match>> = vec![Vec::new(); r.len()];
    let info = |w: u32| &lex.info[w as usize];
    // Identical lines (as the jar compares words: by Java hash) take exact matches only.
    let identical = t.len() == r.len() && t.iter().zip(r).all(|(&a, &b)| info(a).jh == info(b).jh);
    let one = |i, j, module| Match {
        i,
        len1: 1,
        j,
        len2: 1,
        module,
    };
    for (j, &b) in r.iter().enumerate() {
        let ib = info(b);
        let list = &mut lists[j];
        list.extend(
            t.iter()
                .enumerate()
                .filter(|&(_, &a)| info(a).jh == ib.jh)
                .map(|(i, _)| one(i, j, 0)),
        );
        if identical {
            continue;
        }
        list.extend(
            t.iter()
                .enumerate()
                .filter(|&(_, &a)| info(a).sjh == ib.sjh && info(a).jh != ib.jh)
                .map(|(i, _)| one(i, j, 1)),
        );
        list.extend(
            t.iter()
                .enumerate()
                .filter(|&(_, &a)| {
                    let ia = info(a);
                    ia.jh != ib.jh && ia.mask & ib.mask != 0 && intersects(&ia.syn, &ib.syn)
                })
                .map(|(i, _)| one(i, j, 2)),
        );
    }
    if identical || table.is_empty() {
        return lists;
    }
    let tp = phrases(t, lex, table);
    if tp.is_empty() {
        return lists;
    }
    let rp = phrases(r, lex, table);
    // A reference phrase's paraphrases found in the test line.
    for &(j, k, a) in &rp {
        for &b in table.emits(a) {
            for &(i, n, _) in tp.iter().filter(|p| p.2 == b) {
                lists[j].push(Match {
                    i,
                    len1: n,
                    j,
                    len2: k,
                    module: 3,
                });
            }
        }
    }
    // A test phrase's paraphrases found in the reference.
    for &(i, n, a) in &tp {
        for &b in table.emits(a) {
            for &(j, k, _) in rp.iter().filter(|p| p.2 == b) {
                lists[j].push(Match {
                    i,
                    len1: n,
                    j,
                    len2: k,
                    module: 3,
                });
            }
        }
    }
    lists
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

/// A partial alignment: what the search ranks it by, where it stands, and its words in use
/// (`words` u64s at `bits` of the generation's pool).
#[derive(Clone, Copy)]
struct Path {
    /// Weighted matched words of each side, as integers (see [`gain`]).
    w1: i32,
    w2: i32,
    chunks: i32,
    distance: i32,
    /// Next reference position to decide.
    idx: usize,
    /// Test position after the last match of the open chunk, if one is open.
    open: Option<usize>,
    bits: usize,
    /// Last chosen match in the arena.
    chain: u32,
}

const NIL: u32 = u32::MAX;

/// The search's weight of `len` words of `module`: 1 per exact word, 0.5 otherwise, added to
/// an integer running sum and truncated there (so a one-word non-exact match adds nothing and
/// a two-word paraphrase adds one).
fn gain(module: usize, len: usize) -> i32 {
    if module == 0 {
        len as i32
    } else {
        (len / 2) as i32
    }
}

/// More weighted matched words first, then fewer chunks, then smaller distance; stable.
fn rank(a: &Path, b: &Path) -> std::cmp::Ordering {
    (b.w1 + b.w2)
        .cmp(&(a.w1 + a.w2))
        .then(a.chunks.cmp(&b.chunks))
        .then(a.distance.cmp(&b.distance))
}

struct Pool {
    words: usize,
    n1: usize,
    bits: Vec<u64>,
}

impl Pool {
    fn get(&self, at: usize, x: usize) -> bool {
        self.bits[at + x / 64] >> (x % 64) & 1 == 1
    }
    fn free(&self, at: usize, m: &Match) -> bool {
        let ref_base = self.n1;
        (m.j..m.j + m.len2).all(|x| !self.get(at, ref_base + x))
            && (m.i..m.i + m.len1).all(|x| !self.get(at, x))
    }
    fn set(&mut self, at: usize, m: &Match) {
        for x in (m.i..m.i + m.len1).chain(self.n1 + m.j..self.n1 + m.j + m.len2) {
            self.bits[at + x / 64] |= 1 << (x % 64);
        }
    }
    /// Copy the words of `at` in `from` to a new slot here.
    fn push(&mut self, from: &Pool, at: usize) -> usize {
        let to = self.bits.len();
        self.bits.extend_from_slice(&from.bits[at..at + self.words]);
        to
    }
}

/// Extend `p` by match `m` (its words already marked used).
fn take(p: &mut Path, m: &Match) {
    p.w1 += gain(m.module, m.len1);
    p.w2 += gain(m.module, m.len2);
    if p.open.is_some_and(|end| end != m.i) {
        p.chunks += 1;
    }
    p.idx = m.j + m.len2;
    p.open = Some(m.i + m.len1);
}

/// The chosen alignment of test `t` and reference `r`: the certain matches and the search's
/// best path over the others.
pub(crate) fn align(t: &[u32], r: &[u32], lex: &Lexicon, table: &Table) -> Vec<Match> {
    let lists = candidates(t, r, lex, table);
    choose(&lists, t.len(), r.len())
}

/// [`align`] of candidates already listed.
pub(crate) fn choose(lists: &[Vec<Match>], n1: usize, n2: usize) -> Vec<Match> {
    let mut c1 = vec![0u32; n1];
    let mut c2 = vec![0u32; n2];
    let mut open = 0usize;
    for m in lists.iter().flatten() {
        c1[m.i..m.i + m.len1].iter_mut().for_each(|x| *x += 1);
        c2[m.j..m.j + m.len2].iter_mut().for_each(|x| *x += 1);
    }
    // Certain: the only match starting at its reference position, and no other match touches
    // its words on either side.
    let mut certain: Vec<Option<Match>> = vec![None; n2];
    for (j, list) in lists.iter().enumerate() {
        match list.as_slice() {
            [m] if (m.i..m.i + m.len1).all(|x| c1[x] == 1)
                && (m.j..m.j + m.len2).all(|x| c2[x] == 1) =>
            {
                certain[j] = Some(*m);
            }
            [] => {}
            _ => open += 1,
        }
    }
    let fixed = certain.iter().flatten().copied();
    if open == 0 {
        return fixed.collect();
    }
    let words = (n1 + n2).div_ceil(64).max(1);
    // Generation pools; the first generation (one path) starts in `next_pool`.
    let mut pool = Pool {
        words,
        n1,
        bits: Vec::new(),
    };
    let mut next_pool = Pool {
        words,
        n1,
        bits: vec![0; words],
    };
    for m in certain.iter().flatten() {
        next_pool.set(0, m);
    }
    let mut arena: Vec<(Match, u32)> = Vec::new();
    let mut paths = Vec::new();
    let mut next = vec![Path {
        w1: 0,
        w2: 0,
        chunks: 0,
        distance: 0,
        idx: 0,
        open: None,
        bits: 0,
        chain: NIL,
    }];
    for current in 0..=n2 {
        std::mem::swap(&mut paths, &mut next);
        std::mem::swap(&mut pool, &mut next_pool);
        next.clear();
        next_pool.bits.clear();
        paths.sort_by(rank);
        for path in paths.iter().take(BEAM) {
            let mut p = *path;
            if current == n2 {
                if p.open.is_some() {
                    p.chunks += 1;
                }
                p.bits = next_pool.push(&pool, p.bits);
                next.push(p);
                continue;
            }
            if pool.get(path.bits, n1 + current) {
                if current < p.idx {
                    p.bits = next_pool.push(&pool, p.bits);
                    next.push(p);
                } else if let Some(m) = certain[p.idx] {
                    take(&mut p, &m);
                    p.distance += m.j.abs_diff(m.i) as i32;
                    p.bits = next_pool.push(&pool, p.bits);
                    next.push(p);
                }
                continue;
            }
            for m in &lists[current] {
                if !pool.free(path.bits, m) {
                    continue;
                }
                let mut c = p;
                take(&mut c, m);
                c.bits = next_pool.push(&pool, path.bits);
                next_pool.set(c.bits, m);
                arena.push((*m, p.chain));
                c.chain = (arena.len() - 1) as u32;
                next.push(c);
                // The jar adds each tried match's distance to the path that goes on without
                // it, so a later sibling inherits the distances of the earlier ones.
                p.distance += m.j.abs_diff(m.i) as i32;
            }
            if p.open.is_some() {
                p.chunks += 1;
                p.open = None;
            }
            p.idx += 1;
            p.bits = next_pool.push(&pool, p.bits);
            next.push(p);
        }
        if next.is_empty() {
            // Nothing could continue (the jar warns and keeps its best path).
            let mut p = paths[0];
            p.bits = next_pool.push(&pool, p.bits);
            next.push(p);
        }
    }
    next.sort_by(rank);
    let mut out: Vec<Match> = fixed.collect();
    let mut at = next[0].chain;
    while at != NIL {
        let (m, parent) = arena[at as usize];
        out.push(m);
        at = parent;
    }
    out
}
