//! Matching (exact, stem, synonym, paraphrase, in that order) and the choice of one alignment,
//! as METEOR 1.5's jar makes them.
//!
//! The candidates, the matches that are certain, and the beam search over reference positions
//! follow the rules docs/captioning.md states in words ("How the jar chooses an alignment").
//! Some of them (the order candidates are tried in, the integer sums the search ranks by, the
//! distance bookkeeping) could not be learned from the jar's behaviour and were learned by
//! reading its source; this is an implementation of those rules, not a translation of it.

use super::lexicon::{id_bit, Lexicon};
use super::paraphrase::{node_bit, Table, NONE};

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

/// A phrase of the table found in a sentence: start, length, trie node, the node's
/// [`node_bit`] and the filter of its paraphrases ([`Table::emits_mask`]), kept here so a
/// sentence pair touches no table memory for phrases that cannot match.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Phrase {
    pub start: usize,
    pub len: usize,
    pub node: u32,
    pub bit: u64,
    pub emask: u64,
}

/// Every phrase of the table in a sentence, by start then length.
pub(crate) fn phrases(s: &[u32], lex: &Lexicon, table: &Table) -> Vec<Phrase> {
    let mut out = Vec::new();
    if table.is_empty() {
        return out;
    }
    for i in 0..s.len() {
        let mut node = 0;
        for (n, &w) in s[i..].iter().take(table.max_len).enumerate() {
            let info = &lex.info[w as usize];
            node = if n == 0 {
                info.root
            } else {
                table.step(node, info.para)
            };
            if node == NONE {
                break;
            }
            if table.paired(node) {
                out.push(Phrase {
                    start: i,
                    len: n + 1,
                    node,
                    bit: node_bit(node),
                    emask: table.emits_mask(node),
                });
            }
        }
    }
    out
}

/// A line as the matchers see it: word ids and the table's phrases in it.
#[derive(Clone, Copy)]
pub(crate) struct Line<'a> {
    pub words: &'a [u32],
    pub phrases: &'a [Phrase],
}

/// Buffers reused from one sentence pair to the next.
#[derive(Default)]
pub(crate) struct Scratch {
    /// Candidates, grouped by reference position: `ms[start[j]..start[j + 1]]`.
    ms: Vec<Match>,
    start: Vec<usize>,
    para: Vec<Match>,
    merged: Vec<Match>,
    c1: Vec<u32>,
    c2: Vec<u32>,
    certain: Vec<Option<Match>>,
    pool: Vec<u64>,
    next_pool: Vec<u64>,
    arena: Vec<(Match, u32)>,
    paths: Vec<Path>,
    next: Vec<Path>,
    order: Vec<u128>,
    spare: Vec<Path>,
    /// Per test word: Java hash, stem hash, id filter bit.
    tj: Vec<(i32, i32, u64)>,
    /// Paraphrase matches of one phrase before ordering: (record rank, position, length).
    found: Vec<(u32, usize, usize)>,
}

/// The candidate matches between test `t` and reference `r` (word ids of `lex`), listed per
/// reference start position in the order the search tries them: exact, stem, synonym (each by
/// test position), then paraphrases of reference phrases (by phrase length, record, test
/// position), then paraphrases of test phrases (by test position, length, record).
fn candidates(t: Line, r: Line, lex: &Lexicon, table: &Table, sc: &mut Scratch) {
    let info = |w: u32| &lex.info[w as usize];
    sc.ms.clear();
    sc.start.clear();
    sc.tj.clear();
    sc.tj.extend(
        t.words
            .iter()
            .map(|&w| (info(w).jh, info(w).sjh, id_bit(w))),
    );
    // Identical lines (as the jar compares words: by Java hash) take exact matches only.
    let identical = t.words.len() == r.words.len()
        && sc.tj.iter().zip(r.words).all(|(a, &b)| a.0 == info(b).jh);
    let one = |i, j, module| Match {
        i,
        len1: 1,
        j,
        len2: 1,
        module,
    };
    // Filters of the test line's word hashes, stem hashes and synsets: most reference words
    // have no stem or synonym partner, and their loops are skipped.
    let hbit = |h: i32| 1u64 << ((h as u32).wrapping_mul(0x9E37_79B1) >> 26);
    let (mut wbits, mut sbits, mut ids) = (0u64, 0u64, 0u64);
    for a in &sc.tj {
        wbits |= hbit(a.0);
        sbits |= hbit(a.1);
        ids |= a.2;
    }
    for (j, &b) in r.words.iter().enumerate() {
        let ib = info(b);
        sc.start.push(sc.ms.len());
        if wbits & hbit(ib.jh) != 0 {
            for (i, a) in sc.tj.iter().enumerate() {
                if a.0 == ib.jh {
                    sc.ms.push(one(i, j, 0));
                }
            }
        }
        if identical {
            continue;
        }
        if sbits & hbit(ib.sjh) != 0 {
            for (i, a) in sc.tj.iter().enumerate() {
                if a.1 == ib.sjh && a.0 != ib.jh {
                    sc.ms.push(one(i, j, 1));
                }
            }
        }
        if ids & ib.near_bits != 0 {
            for (i, a) in sc.tj.iter().enumerate() {
                if a.0 != ib.jh
                    && a.2 & ib.near_bits != 0
                    && ib.near.binary_search(&t.words[i]).is_ok()
                {
                    sc.ms.push(one(i, j, 2));
                }
            }
        }
    }
    sc.start.push(sc.ms.len());
    if identical || t.phrases.is_empty() || r.phrases.is_empty() {
        return;
    }
    sc.para.clear();
    let line_bits = |ps: &[Phrase]| ps.iter().fold(0, |m, p| m | p.bit);
    let (tbits, rbits) = (line_bits(t.phrases), line_bits(r.phrases));
    // A reference phrase's paraphrases found in the test line, by record, then position.
    for a in r.phrases {
        let (j, k) = (a.start, a.len);
        paraphrases_in(table, a, t.phrases, tbits, &mut sc.found);
        sc.para.extend(sc.found.iter().map(|&(_, i, n)| Match {
            i,
            len1: n,
            j,
            len2: k,
            module: 3,
        }));
    }
    // A test phrase's paraphrases found in the reference, by record, then position.
    for a in t.phrases {
        let (i, n) = (a.start, a.len);
        paraphrases_in(table, a, r.phrases, rbits, &mut sc.found);
        sc.para.extend(sc.found.iter().map(|&(_, j, k)| Match {
            i,
            len1: n,
            j,
            len2: k,
            module: 3,
        }));
    }
    if sc.para.is_empty() {
        return;
    }
    // Each position's paraphrases go after its other matches, in the order found.
    sc.para.sort_by_key(|m| m.j);
    sc.merged.clear();
    let mut p = 0;
    for j in 0..r.words.len() {
        let from = sc.merged.len();
        sc.merged
            .extend_from_slice(&sc.ms[sc.start[j]..sc.start[j + 1]]);
        while p < sc.para.len() && sc.para[p].j == j {
            sc.merged.push(sc.para[p]);
            p += 1;
        }
        sc.start[j] = from;
    }
    sc.start[r.words.len()] = sc.merged.len();
    std::mem::swap(&mut sc.ms, &mut sc.merged);
}

/// The paraphrases of phrase `a` among `phrases` of the other line, as (record rank, start,
/// length), by rank then start: one entry per record that pairs them.
fn paraphrases_in(
    table: &Table,
    a: &Phrase,
    phrases: &[Phrase],
    bits: u64,
    found: &mut Vec<(u32, usize, usize)>,
) {
    found.clear();
    if a.emask & bits == 0 {
        return;
    }
    let (targets, ranks) = table.emits_sorted(a.node);
    for b in phrases {
        if a.emask & b.bit == 0 {
            continue;
        }
        let lo = targets.partition_point(|&x| x < b.node);
        for k in lo..targets.len() {
            if targets[k] != b.node {
                break;
            }
            found.push((ranks[k], b.start, b.len));
        }
    }
    if found.len() > 1 {
        found.sort_unstable();
    }
}

/// Every candidate match of a test line and a reference, in the search's order.
pub(crate) fn all_candidates(t: Line, r: Line, lex: &Lexicon, table: &Table) -> Vec<Match> {
    let mut sc = Scratch::default();
    candidates(t, r, lex, table, &mut sc);
    sc.ms
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

/// The ranking as one integer, smaller first: more weighted matched words, then fewer chunks,
/// then smaller distance; the path's index last keeps equal paths in order (a stable sort).
fn rank_key(p: &Path, index: usize) -> u128 {
    let w = u128::from(u32::MAX - (p.w1 + p.w2) as u32);
    (w << 96)
        | (u128::from(p.chunks as u32) << 64)
        | (u128::from(p.distance as u32) << 32)
        | index as u128
}

/// Sort `paths` by rank, stably, and keep the best `keep`.
fn best_first(paths: &mut Vec<Path>, order: &mut Vec<u128>, spare: &mut Vec<Path>, keep: usize) {
    order.clear();
    order.extend(paths.iter().enumerate().map(|(k, p)| rank_key(p, k)));
    if order.windows(2).all(|w| w[0] >> 32 <= w[1] >> 32) {
        paths.truncate(keep);
        return;
    }
    if order.len() > keep {
        order.select_nth_unstable(keep - 1);
        order.truncate(keep);
    }
    order.sort_unstable();
    spare.clear();
    spare.extend(order.iter().map(|&k| paths[(k as u32) as usize]));
    std::mem::swap(paths, spare);
}

fn bit(bits: &[u64], at: usize, x: usize) -> bool {
    bits[at + x / 64] >> (x % 64) & 1 == 1
}

/// Whether every word of `m` is free in the words at `at` (test words first, then reference).
fn free(bits: &[u64], at: usize, n1: usize, m: &Match) -> bool {
    (m.j..m.j + m.len2).all(|x| !bit(bits, at, n1 + x))
        && (m.i..m.i + m.len1).all(|x| !bit(bits, at, x))
}

fn mark(bits: &mut [u64], at: usize, n1: usize, m: &Match) {
    for x in (m.i..m.i + m.len1).chain(n1 + m.j..n1 + m.j + m.len2) {
        bits[at + x / 64] |= 1 << (x % 64);
    }
}

/// Copy `words` u64s at `at` of `from` to the end of `to`; their new place.
fn copy(to: &mut Vec<u64>, from: &[u64], at: usize, words: usize) -> usize {
    let new = to.len();
    to.extend_from_slice(&from[at..at + words]);
    new
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
/// best path over the others, in `out`.
pub(crate) fn align(
    t: Line,
    r: Line,
    lex: &Lexicon,
    table: &Table,
    sc: &mut Scratch,
    out: &mut Vec<Match>,
) {
    candidates(t, r, lex, table, sc);
    choose(sc, t.words.len(), r.words.len(), out);
}

/// [`align`] of the candidates listed in `sc`.
fn choose(sc: &mut Scratch, n1: usize, n2: usize, out: &mut Vec<Match>) {
    out.clear();
    sc.c1.clear();
    sc.c1.resize(n1, 0);
    sc.c2.clear();
    sc.c2.resize(n2, 0);
    for m in &sc.ms {
        sc.c1[m.i..m.i + m.len1].iter_mut().for_each(|x| *x += 1);
        sc.c2[m.j..m.j + m.len2].iter_mut().for_each(|x| *x += 1);
    }
    // Certain: the only match starting at its reference position, and no other match touches
    // its words on either side.
    sc.certain.clear();
    sc.certain.resize(n2, None);
    let mut open = 0usize;
    for j in 0..n2 {
        match &sc.ms[sc.start[j]..sc.start[j + 1]] {
            [m] if (m.i..m.i + m.len1).all(|x| sc.c1[x] == 1)
                && (m.j..m.j + m.len2).all(|x| sc.c2[x] == 1) =>
            {
                sc.certain[j] = Some(*m);
            }
            [] => {}
            _ => open += 1,
        }
    }
    out.extend(sc.certain.iter().flatten());
    if open == 0 {
        return;
    }
    let words = (n1 + n2).div_ceil(64).max(1);
    // Generation pools of used-word bits; the first generation (one path) is in `next_pool`.
    sc.next_pool.clear();
    sc.next_pool.resize(words, 0);
    for m in sc.certain.iter().flatten() {
        mark(&mut sc.next_pool, 0, n1, m);
    }
    sc.arena.clear();
    sc.next.clear();
    sc.next.push(Path {
        w1: 0,
        w2: 0,
        chunks: 0,
        distance: 0,
        idx: 0,
        open: None,
        bits: 0,
        chain: NIL,
    });
    std::mem::swap(&mut sc.paths, &mut sc.next);
    std::mem::swap(&mut sc.pool, &mut sc.next_pool);
    for current in 0..=n2 {
        best_first(&mut sc.paths, &mut sc.order, &mut sc.spare, BEAM);
        if current == n2 {
            for p in sc.paths.iter_mut() {
                if p.open.is_some() {
                    p.chunks += 1;
                }
            }
            break;
        }
        let list = &sc.ms[sc.start[current]..sc.start[current + 1]];
        if list.is_empty() || sc.certain[current].is_some() {
            // No path branches here: each waits inside its match, takes the certain match,
            // or skips the position; done in place, the words in use do not change.
            let first = sc.paths[0];
            let (pool, certain) = (&sc.pool, &sc.certain);
            sc.paths.retain_mut(|p| {
                if !bit(pool, p.bits, n1 + current) {
                    if p.open.is_some() {
                        p.chunks += 1;
                        p.open = None;
                    }
                    p.idx += 1;
                    true
                } else if current < p.idx {
                    true
                } else if let Some(m) = certain[p.idx] {
                    take(p, &m);
                    p.distance += m.j.abs_diff(m.i) as i32;
                    true
                } else {
                    false
                }
            });
            if sc.paths.is_empty() {
                // Nothing could continue (the jar warns and keeps its best path).
                sc.paths.push(first);
            }
            continue;
        }
        sc.next.clear();
        sc.next_pool.clear();
        for path in sc.paths.iter() {
            let mut p = *path;
            if bit(&sc.pool, path.bits, n1 + current) {
                if current < p.idx {
                    p.bits = copy(&mut sc.next_pool, &sc.pool, p.bits, words);
                    sc.next.push(p);
                } else if let Some(m) = sc.certain[p.idx] {
                    take(&mut p, &m);
                    p.distance += m.j.abs_diff(m.i) as i32;
                    p.bits = copy(&mut sc.next_pool, &sc.pool, p.bits, words);
                    sc.next.push(p);
                }
                continue;
            }
            for m in list {
                if !free(&sc.pool, path.bits, n1, m) {
                    continue;
                }
                let mut c = p;
                take(&mut c, m);
                c.bits = copy(&mut sc.next_pool, &sc.pool, path.bits, words);
                mark(&mut sc.next_pool, c.bits, n1, m);
                sc.arena.push((*m, p.chain));
                c.chain = (sc.arena.len() - 1) as u32;
                sc.next.push(c);
                // The jar adds each tried match's distance to the path that goes on without
                // it, so a later sibling inherits the distances of the earlier ones.
                p.distance += m.j.abs_diff(m.i) as i32;
            }
            if p.open.is_some() {
                p.chunks += 1;
                p.open = None;
            }
            p.idx += 1;
            p.bits = copy(&mut sc.next_pool, &sc.pool, p.bits, words);
            sc.next.push(p);
        }
        if sc.next.is_empty() {
            // Nothing could continue (the jar warns and keeps its best path).
            let mut p = sc.paths[0];
            p.bits = copy(&mut sc.next_pool, &sc.pool, p.bits, words);
            sc.next.push(p);
        }
        std::mem::swap(&mut sc.paths, &mut sc.next);
        std::mem::swap(&mut sc.pool, &mut sc.next_pool);
    }
    best_first(&mut sc.paths, &mut sc.order, &mut sc.spare, 1);
    let mut at = sc.paths[0].chain;
    while at != NIL {
        let (m, parent) = sc.arena[at as usize];
        out.push(m);
        at = parent;
    }
}
