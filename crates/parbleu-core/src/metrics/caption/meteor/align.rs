//! Matching (exact, stem, synonym, paraphrase, in that order) and the choice of one alignment,
//! as METEOR 1.5's jar makes them.
//!
//! The candidates, the matches that are certain, and the beam search over reference positions
//! follow the rules docs/captioning.md states in words ("How the jar chooses an alignment").
//! Some of them (the order candidates are tried in, the integer sums the search ranks by, the
//! distance bookkeeping) could not be learned from the jar's behaviour and were learned by
//! reading its source; this is an implementation of those rules, not a translation of it.

use super::lexicon::Lexicon;
use super::line::Line;
use super::search;
pub(crate) use super::search::Match;

/// Buffers reused from one sentence pair to the next.
#[derive(Default)]
pub(crate) struct Scratch {
    /// Candidates, grouped by reference position: `ms[start[j]..start[j + 1]]`.
    ms: Vec<Match>,
    start: Vec<usize>,
    para: Vec<Match>,
    merged: Vec<Match>,
    search: search::Search,
    /// Paraphrase matches of one phrase before ordering: (record rank, position, length).
    found: Vec<(u32, u32, u32)>,
}

/// The candidate matches between test `t` and reference `r` (word ids of `lex`), listed per
/// reference start position in the order the search tries them: exact, stem, synonym (each by
/// test position), then paraphrases of reference phrases (by phrase length, record, test
/// position), then paraphrases of test phrases (by test position, length, record).
fn candidates(t: &Line, r: &Line, lex: &Lexicon, sc: &mut Scratch) {
    sc.ms.clear();
    sc.start.clear();
    // Identical lines (as the jar compares words: by Java hash) take exact matches only.
    let identical =
        t.words.len() == r.words.len() && t.hashes.iter().zip(&r.hashes).all(|(a, b)| a.0 == b.0);
    let one = |i: u32, j, module| Match {
        i: i as usize,
        len1: 1,
        j,
        len2: 1,
        module,
    };
    for (j, &(jh, sjh, _)) in r.hashes.iter().enumerate() {
        sc.start.push(sc.ms.len());
        for i in t.by_word.of(jh) {
            sc.ms.push(one(i, j, 0));
        }
        if identical {
            continue;
        }
        for i in t.by_stem.of(sjh) {
            if t.hashes[i as usize].0 != jh {
                sc.ms.push(one(i, j, 1));
            }
        }
        let near_bits = r.near_bits[j];
        if t.ids & near_bits != 0 {
            let near = &lex.info[r.words[j] as usize].near;
            for (i, a) in t.hashes.iter().enumerate() {
                if a.0 != jh && a.2 & near_bits != 0 && near.binary_search(&t.words[i]).is_ok() {
                    sc.ms.push(one(i as u32, j, 2));
                }
            }
        }
    }
    sc.start.push(sc.ms.len());
    if identical || t.phrases.is_empty() || r.phrases.is_empty() {
        return;
    }
    sc.para.clear();
    // First a reference phrase's paraphrases found in the test line, then a test phrase's
    // found in the reference; each by record, then position.
    for (from, into, from_ref) in [(r, t, true), (t, r, false)] {
        for (k, a) in from.phrases.iter().enumerate() {
            paraphrases_in(from.emits_of(k), into, &mut sc.found);
            sc.para.extend(sc.found.iter().map(|&(_, start, len)| {
                let (here, there) = ((a.start, a.len), (start, len));
                let ((i, len1), (j, len2)) = if from_ref {
                    (there, here)
                } else {
                    (here, there)
                };
                Match {
                    i: i as usize,
                    len1: len1 as usize,
                    j: j as usize,
                    len2: len2 as usize,
                    module: 3,
                }
            }));
        }
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

/// The paraphrases `emits` of a phrase (as (node, record rank)) among the phrases of line
/// `into`, as (record rank, start, length), by rank then start: one entry per record that pairs
/// them.
fn paraphrases_in(emits: &[(u32, u32)], into: &Line, found: &mut Vec<(u32, u32, u32)>) {
    found.clear();
    for &(x, rank) in emits {
        if into.may_hold(x) {
            found.extend(into.with_node(x).iter().map(|e| (rank, e.1, e.2)));
        }
    }
    if found.len() > 1 {
        found.sort_unstable();
    }
}

/// Every candidate match of a test line and a reference, in the search's order.
pub(crate) fn all_candidates(t: &Line, r: &Line, lex: &Lexicon) -> Vec<Match> {
    let mut sc = Scratch::default();
    candidates(t, r, lex, &mut sc);
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

/// The chosen alignment of test `t` and reference `r`: the certain matches and the search's
/// best path over the others, in `out`.
pub(crate) fn align(t: &Line, r: &Line, lex: &Lexicon, sc: &mut Scratch, out: &mut Vec<Match>) {
    candidates(t, r, lex, sc);
    search::choose(
        &sc.ms,
        &sc.start,
        t.words.len(),
        r.words.len(),
        &mut sc.search,
        out,
    );
}
