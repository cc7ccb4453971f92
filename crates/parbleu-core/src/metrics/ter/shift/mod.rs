//! `lib_ter.translation_edit_rate`: SacreBLEU's beam-limited edit distance with Tercom-style
//! block shifts, step for step (candidate order, limits and tie-breaking included).
//!
//! SacreBLEU caches edit-distance rows in a trie keyed by hypothesis prefixes. Every
//! hypothesis scored against one reference is a permutation of the same words, so the beam
//! (which depends only on the two lengths) is the same for all of them and a row depends only
//! on the prefix before it: the cache changes speed, never values. Here the rows of the
//! hypothesis a shift round starts from are kept, and each candidate shift recomputes only
//! the rows after its longest common prefix with it.
//!
//! Only the beam is stored: row `i` keeps the cells of its columns `lo..hi` (about 50), so
//! the matrices of a 20,000-word segment take megabytes, not the gigabytes of a full
//! `(n_h + 1) * (n_r + 1)` matrix. A cell outside the beam is never computed by SacreBLEU
//! either (it stays infinite there), so reading it as infinite gives the same values.

mod beam;
mod edit;

use beam::{refill, Beam, Op, INF};

const MAX_SHIFT_SIZE: usize = 10;
const MAX_SHIFT_DIST: usize = 50;
const MAX_SHIFT_CANDIDATES: usize = 1000;

/// Positions of each word id in the reference (compressed rows: the positions of word `w`
/// are `pos[start[w]..start[w + 1]]`, increasing).
#[derive(Default)]
struct Occurrences {
    start: Vec<u32>,
    pos: Vec<u32>,
}

impl Occurrences {
    fn reset(&mut self, rf: &[u32], n_ids: usize) {
        self.start.clear();
        self.start.resize(n_ids + 1, 0);
        for &w in rf {
            self.start[w as usize + 1] += 1;
        }
        for k in 0..n_ids {
            self.start[k + 1] += self.start[k];
        }
        self.pos.clear();
        self.pos.resize(rf.len(), 0);
        let mut fill = self.start.clone();
        for (j, &w) in rf.iter().enumerate() {
            self.pos[fill[w as usize] as usize] = j as u32;
            fill[w as usize] += 1;
        }
    }
}

/// Buffers reused across segments (one per thread).
#[derive(Default)]
pub struct TerScratch {
    /// Edit-distance matrix of the hypothesis a shift round starts from, banded (`Beam`).
    cost: Vec<i64>,
    ops: Vec<Op>,
    trace: Vec<Op>,
    align: Vec<i64>,
    hyp_err: Vec<u8>,
    ref_err: Vec<u8>,
    words: Vec<u32>,
    shifted: Vec<u32>,
    best: Vec<u32>,
    beam: Beam,
    /// Edit-distance matrix of the last candidate scored, banded.
    cand: Vec<i64>,
    /// The row above the one being computed, at the columns it reads.
    pad: Vec<i64>,
    cand_words: Vec<u32>,
    cand_valid: bool,
    /// Rows `0..=cand_rows` of `cand` belong to `cand_words` (a candidate that caught up with
    /// the hypothesis stops early, see `cost_from`).
    cand_rows: usize,
    /// Every cell of `cost`'s rows `finite_from..` is finite.
    finite_from: usize,
    occ: Occurrences,
}

/// The ranking key of a candidate shift: (gain, length, -start_h, -target), highest first.
type Rank = (i64, usize, i64, i64);

/// `translation_edit_rate(words_hyp, words_ref)`: (number of edits, reference length).
///
/// Words are compared by id: intern them consistently before calling.
pub fn translation_edit_rate(hyp: &[u32], rf: &[u32], s: &mut TerScratch) -> (i64, usize) {
    if rf.is_empty() {
        return (hyp.len() as i64, 0);
    }
    let mut beam = std::mem::take(&mut s.beam);
    beam.reset(hyp.len(), rf.len());
    if !refill(&mut s.cand, beam.cells(), INF) {
        s.beam = beam;
        return (0, rf.len()); // interrupted: discarded by the caller
    }
    let n_ids = hyp
        .iter()
        .chain(rf)
        .map(|&w| w as usize + 1)
        .max()
        .unwrap_or(0);
    s.occ.reset(rf, n_ids);
    s.words.clear();
    s.words.extend_from_slice(hyp);
    let mut shifts = 0i64;
    let mut checked = 0usize;
    loop {
        // "do shifts until they stop reducing the edit distance"
        let (pre_score, best) = s.shift_round(rf, &beam, &mut checked);
        let delta = best.map_or(0, |b| b.0);
        // Ctrl-C inside one huge segment: stop; the caller discards the result.
        if checked >= MAX_SHIFT_CANDIDATES || delta <= 0 || crate::interrupt::requested() {
            // The hypothesis is left as it was, so its edit distance is `pre_score`.
            s.beam = beam;
            return (shifts + pre_score, rf.len());
        }
        shifts += 1;
        std::mem::swap(&mut s.words, &mut s.best);
    }
}

/// `_perform_shift(words, start, length, target)`, with Python's slice clamping.
fn perform_shift(w: &[u32], start: usize, length: usize, target: usize, out: &mut Vec<u32>) {
    let n = w.len();
    let sl = |a: usize, b: usize| {
        let a = a.min(n);
        &w[a..b.min(n).max(a)]
    };
    out.clear();
    if target < start {
        out.extend_from_slice(sl(0, target));
        out.extend_from_slice(sl(start, start + length));
        out.extend_from_slice(sl(target, start));
        out.extend_from_slice(sl(start + length, n));
    } else if target > start + length {
        out.extend_from_slice(sl(0, start));
        out.extend_from_slice(sl(start + length, target));
        out.extend_from_slice(sl(start, start + length));
        out.extend_from_slice(sl(target, n));
    } else {
        out.extend_from_slice(sl(0, start));
        out.extend_from_slice(sl(start + length, length + target));
        out.extend_from_slice(sl(start, start + length));
        out.extend_from_slice(sl(length + target, n));
    }
}

impl TerScratch {
    /// `_shift`: the best shift of `self.words` (left in `self.best`), with the edit distance
    /// of `self.words` before shifting.
    fn shift_round(&mut self, rf: &[u32], beam: &Beam, checked: &mut usize) -> (i64, Option<Rank>) {
        let h = std::mem::take(&mut self.words);
        let pre_score = self.full(&h, rf, beam);
        if crate::interrupt::requested() {
            self.words = h;
            return (pre_score, None);
        }
        // The candidate matrix may lean on rows of the previous round's matrix.
        self.cand_valid = false;
        self.alignment(h.len(), rf.len(), beam);
        let mut best: Option<Rank> = None;
        let (n_h, n_r) = (h.len(), rf.len());
        // `_find_shifted_pairs`, consumed lazily as SacreBLEU's generator is. Only the
        // reference positions holding the word at `start_h` can start a match, and they are
        // visited in increasing order, as SacreBLEU's scan over all positions does.
        let occ = std::mem::take(&mut self.occ);
        'search: for start_h in 0..n_h {
            let word = h[start_h] as usize;
            let at = &occ.pos[occ.start[word] as usize..occ.start[word + 1] as usize];
            let first = start_h.saturating_sub(MAX_SHIFT_DIST);
            let from = at.partition_point(|&r| (r as usize) < first);
            for &start_r in &at[from..] {
                let start_r = start_r as usize;
                if start_r > start_h + MAX_SHIFT_DIST {
                    break;
                }
                let mut length = 0;
                while h[start_h + length] == rf[start_r + length] && length < MAX_SHIFT_SIZE {
                    length += 1;
                    if self.try_shift(
                        &h,
                        rf,
                        beam,
                        (start_h, start_r, length),
                        pre_score,
                        checked,
                        &mut best,
                    ) && *checked >= MAX_SHIFT_CANDIDATES
                        || crate::interrupt::requested()
                    {
                        break 'search;
                    }
                    // "If one sequence is consumed, stop processing"
                    if n_h == start_h + length || n_r == start_r + length {
                        break;
                    }
                }
            }
        }
        self.occ = occ;
        self.words = h;
        (pre_score, best)
    }

    /// The body of `_shift`'s loop for one matching block; `false` where it is skipped.
    // Stays: the shift search's inner step; its arguments are loop state, not options.
    #[allow(clippy::too_many_arguments)]
    fn try_shift(
        &mut self,
        h: &[u32],
        rf: &[u32],
        beam: &Beam,
        (start_h, start_r, length): (usize, usize, usize),
        pre_score: i64,
        checked: &mut usize,
        best: &mut Option<Rank>,
    ) -> bool {
        // "don't do the shift unless both the hypothesis was wrong and the reference doesn't
        // match hypothesis at the target position"
        if self.hyp_err[start_h..start_h + length]
            .iter()
            .all(|&e| e == 0)
        {
            return false;
        }
        if self.ref_err[start_r..start_r + length]
            .iter()
            .all(|&e| e == 0)
        {
            return false;
        }
        // "don't try to shift within the subsequence"
        let a = self.align[start_r];
        if start_h as i64 <= a && a < (start_h + length) as i64 {
            return false;
        }
        let mut prev_idx = -1i64;
        let mut shifted = std::mem::take(&mut self.shifted);
        for offset in -1..length as i64 {
            let k = start_r as i64 + offset;
            let idx = if k == -1 {
                0 // insert before the beginning
            } else if (k as usize) < self.align.len() {
                // Unlike Tercom, which inserts after the index, insert before it.
                self.align[k as usize] + 1
            } else {
                break;
            };
            if idx == prev_idx {
                continue;
            }
            prev_idx = idx;
            perform_shift(h, start_h, length, idx as usize, &mut shifted);
            let p = h.iter().zip(&shifted).take_while(|(x, y)| x == y).count();
            let same = h
                .iter()
                .rev()
                .zip(shifted.iter().rev())
                .take_while(|(x, y)| x == y)
                .count();
            let cost = self.cost_from(&shifted, rf, beam, (p, h.len() - same));
            let candidate: Rank = (pre_score - cost, length, -(start_h as i64), -idx);
            *checked += 1;
            // Equal ranks imply equal shifted words, so the tuple's last element (the words)
            // never decides.
            let better = match *best {
                None => true,
                Some(b) => candidate > b,
            };
            if better {
                *best = Some(candidate);
                self.best.clone_from(&shifted);
            }
        }
        self.shifted = shifted;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::beam::BEAM_WIDTH;
    use super::*;

    fn ids(s: &str) -> Vec<u32> {
        s.split_whitespace()
            .map(|w| {
                w.bytes()
                    .fold(7u32, |a, b| a.wrapping_mul(31).wrapping_add(u32::from(b)))
            })
            .collect()
    }

    fn ter(h: &str, r: &str) -> (i64, usize) {
        translation_edit_rate(&ids(h), &ids(r), &mut TerScratch::default())
    }

    #[test]
    fn basics() {
        assert_eq!(ter("", ""), (0, 0));
        assert_eq!(ter("a b", ""), (2, 0));
        assert_eq!(ter("", "a b c"), (3, 3));
        assert_eq!(ter("a b c", "a b c"), (0, 3));
        assert_eq!(ter("a b c", "a x c"), (1, 3));
    }

    #[test]
    fn one_shift() {
        // Values from sacrebleu.metrics.lib_ter.translation_edit_rate.
        assert_eq!(ter("c d a b", "a b c d"), (1, 4));
        assert_eq!(
            ter("the cat sat on the mat", "on the mat the cat sat"),
            (1, 6)
        );
    }

    #[test]
    fn beyond_the_beam_matches_sacrebleu() {
        // 90 reference words (wider than the beam): a block moved 30 words, substitutions,
        // a deletion and insertions. Value from sacrebleu.metrics.lib_ter.
        let rf: Vec<String> = (0..90).map(|i| format!("w{}", (i * 7) % 41)).collect();
        let mut h: Vec<String> = [&rf[30..40], &rf[..30], &rf[40..]].concat();
        for (i, w) in h.iter_mut().enumerate() {
            if i % 11 == 0 {
                *w = "x".into();
            }
        }
        h.drain(60..70);
        h.extend(["y", "y", "y"].map(String::from));
        assert_eq!(ter(&h.join(" "), &rf.join(" ")), (23, 90));
    }

    #[test]
    fn long_segments_store_only_the_beam() {
        // 20,000 words: full matrices would hold 4e8 cells each (gigabytes).
        let n = 20_000usize;
        let rf: Vec<u32> = (0..n).map(|i| (i * 7919 % 503) as u32).collect();
        let mut hyp = rf.clone();
        for i in (0..n).step_by(9) {
            hyp[i] = 600 + (i % 5) as u32;
        }
        hyp[1000..1020].rotate_left(7);
        let mut s = TerScratch::default();
        let (edits, len) = translation_edit_rate(&hyp, &rf, &mut s);
        assert_eq!(len, n);
        assert!(edits > 0 && edits < n as i64 / 4, "{edits}");
        let bound = (n + 1) * 2 * BEAM_WIDTH as usize + n + 1;
        for cells in [s.cost.len(), s.ops.len(), s.cand.len()] {
            assert!(cells <= bound, "{cells} cells");
        }
    }

    #[test]
    fn perform_shift_matches_python_slicing() {
        let w = [0, 1, 2, 3, 4, 5];
        let mut out = Vec::new();
        perform_shift(&w, 3, 2, 1, &mut out);
        assert_eq!(out, [0, 3, 4, 1, 2, 5]);
        perform_shift(&w, 1, 2, 5, &mut out);
        assert_eq!(out, [0, 3, 4, 1, 2, 5]);
        perform_shift(&w, 1, 2, 2, &mut out);
        assert_eq!(out, [0, 3, 1, 2, 4, 5]);
        perform_shift(&w, 3, 2, 5, &mut out);
        assert_eq!(out, [0, 1, 2, 5, 3, 4]);
    }
}
