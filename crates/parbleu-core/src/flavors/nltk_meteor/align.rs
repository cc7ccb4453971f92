//! NLTK's alignment (`_enum_align_words`) on interned ids: exact, stem, then WordNet synonyms
//! of the stems, each stage on what the previous one left.

use super::interned::{Interned, Side};
use super::wordnet::Wordnet;
use crate::text::py_lower;

/// No position (an empty stack).
pub const NONE: u32 = u32::MAX;

/// Above this many (hypothesis, reference) word pairs left for the synonym stage, synonyms are
/// looked up by name (NLTK's way, linear in the synonyms) instead of testing each pair.
const SCAN_LIMIT: usize = 1 << 14;

/// `_match_enums` on `(position, id)` lists: each hypothesis word, last first, takes the last
/// free reference position holding the same id (a stack per id: `head`, indexed by id and left
/// all [`NONE`], and `prev`). Matches are appended to `m`; unmatched entries stay.
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

/// Whether two ascending lists share an element.
fn meet(a: &[u32], b: &[u32]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

/// `_enum_wordnetsyn_match`: each hypothesis word (a stem here), last first, takes the last
/// free reference position holding the word itself or a lemma name of its synsets (NLTK's
/// maximum over the synonyms' last positions is that position).
fn match_synonyms(
    hyp: &[(usize, u32)],
    refs: &[(usize, u32)],
    t: &Interned<'_>,
    m: &mut Vec<(usize, usize)>,
) {
    let mut taken = vec![false; refs.len()];
    for &(hi, w) in hyp.iter().rev() {
        let syns = &t.synsets[w as usize];
        for j in (0..refs.len()).rev() {
            let r = refs[j].1;
            if !taken[j] && (r == w || meet(syns, t.named[r as usize])) {
                taken[j] = true;
                m.push((hi, refs[j].0));
                break;
            }
        }
    }
}

/// [`match_synonyms`] for long texts, as NLTK does it: every synonym of each hypothesis word
/// is looked up in per-id stacks of the free reference positions.
fn match_synonyms_by_name(
    hyp: &[(usize, u32)],
    refs: &[(usize, u32)],
    t: &Interned<'_>,
    wn: &Wordnet,
    head: &mut [u32],
    m: &mut Vec<(usize, usize)>,
) {
    let mut prev = vec![NONE; refs.len()];
    for (j, &(_, w)) in refs.iter().enumerate() {
        prev[j] = head[w as usize];
        head[w as usize] = j as u32;
    }
    for &(hi, w) in hyp.iter().rev() {
        let mut best: Option<(u32, u32)> = None;
        let mut consider = |id: u32, head: &[u32]| {
            let j = head[id as usize];
            if j != NONE && better(best.map(|x| x.0), j) {
                best = Some((j, id));
            }
        };
        consider(w, head);
        wn.for_each_synonym(&py_lower(&t.strs[w as usize]), |name| {
            if let Some(&id) = t.ids.get(name) {
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

/// Whether position `j` beats the best so far (none yet: it does). A `match`, not
/// `Option::is_none_or`, which is newer than the crate's minimum Rust.
fn better(best: Option<u32>, j: u32) -> bool {
    match best {
        None => true,
        Some(b) => j > b,
    }
}

/// `_count_chunks` of matches sorted by hypothesis position.
fn chunks(m: &[(usize, usize)]) -> usize {
    1 + m
        .windows(2)
        .filter(|w| !(w[1].0 == w[0].0 + 1 && w[1].1 == w[0].1 + 1))
        .count()
}

/// Aligned words and chunks of `hyp` against `reff`; `head` has one [`NONE`] per id (and is
/// left so). `by_name` forces the synonym stage's method (tests); `None` chooses by size.
pub fn align(
    hyp: &Side,
    reff: &Side,
    t: &Interned<'_>,
    wn: &Wordnet,
    head: &mut [u32],
    by_name: Option<bool>,
) -> (usize, usize) {
    let mut m = Vec::new();
    let mut h: Vec<(usize, u32)> = hyp.words.iter().copied().enumerate().collect();
    let mut r: Vec<(usize, u32)> = reff.words.iter().copied().enumerate().collect();
    match_exact(&mut h, &mut r, head, &mut m);
    // Stage 2 sees the stems of what stage 1 left, and passes them on to stage 3.
    h.iter_mut().for_each(|e| e.1 = hyp.stems[e.0]);
    r.iter_mut().for_each(|e| e.1 = reff.stems[e.0]);
    match_exact(&mut h, &mut r, head, &mut m);
    if !h.is_empty() && !r.is_empty() {
        if by_name.unwrap_or(h.len().saturating_mul(r.len()) > SCAN_LIMIT) {
            match_synonyms_by_name(&h, &r, t, wn, head, &mut m);
        } else {
            match_synonyms(&h, &r, t, &mut m);
        }
    }
    if m.is_empty() {
        return (0, 0);
    }
    m.sort_unstable_by_key(|x| x.0);
    (m.len(), chunks(&m))
}
