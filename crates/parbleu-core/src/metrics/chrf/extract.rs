//! Statistics rows: the best row of a hypothesis over its references, and the corpus / block /
//! sentence-score drivers.

use super::hyp::HypGrams;
use super::refs::{PreparedRef, PreparedRefs, WordIds};
use super::score::{f_score, ChrfExtract};
use super::symbols::{char_symbols, for_each_word_at};
use crate::error::Result;
use crate::metrics::check::{block_in_range, one_per_segment};
use crate::parallel;

/// Per-thread buffers.
#[derive(Default)]
pub struct Scratch {
    chars: HypGrams,
    words: HypGrams,
    word_ids: WordIds,
    syms: Vec<u32>,
    rsyms: Vec<u32>,
    row: Vec<i64>,
}

/// `_compute_segment_statistics`: the row of the reference with the best F-score (ties: the
/// first). `out` is left untouched (zeros) when there is no reference.
fn extract_row<'a>(
    cfg: &ChrfExtract,
    hyp: &str,
    refs: impl Iterator<Item = &'a PreparedRef>,
    s: &mut Scratch,
    out: &mut [i64],
) {
    let o = &cfg.score;
    let text = cfg.cased(hyp);
    if o.char_order > 0 {
        char_symbols(&text, cfg.whitespace, &mut s.syms);
        s.chars.build(&s.syms, o.char_order);
    }
    if o.word_order > 0 {
        s.syms.clear();
        let (syms, ids) = (&mut s.syms, &mut s.word_ids);
        // About one distinct word per 6 bytes of text (the table grows if not).
        ids.reset(text.len() / 6 + 8);
        for_each_word_at(&text, |start, w| {
            syms.push(ids.get_or_insert(&text, start, start + w.len()));
        });
        s.words.build(&s.syms, o.word_order);
    }
    let nc = 3 * o.char_order;
    s.row.clear();
    s.row.resize(o.width(), 0);
    let mut best = -1.0f64;
    for r in refs {
        if o.char_order > 0 {
            s.chars.compare(&r.chars, &mut s.row[..nc]);
        }
        if o.word_order > 0 {
            // A word the hypothesis lacks is one unknown symbol: no n-gram with it matches.
            s.rsyms.clear();
            let ids = &s.word_ids;
            s.rsyms.extend(
                r.words
                    .iter()
                    .map(|w| ids.get(&text, &r.text[w.start..w.end], w.hash)),
            );
            s.words.compare(&s.rsyms, &mut s.row[nc..]);
        }
        let f = f_score(&s.row, o);
        if f > best {
            best = f;
            out.copy_from_slice(&s.row);
        }
    }
}

/// Statistics of every hypothesis (row-major, `cfg.width()` columns).
pub fn extract<S: AsRef<str> + Sync>(
    cfg: &ChrfExtract,
    hyps: &[S],
    refs: &PreparedRefs,
    workers: usize,
) -> Result<Vec<i64>> {
    one_per_segment(hyps.len(), refs.len())?;
    extract_block(cfg, hyps, refs, 0, workers)
}

/// Statistics of `hyps`, the hypotheses of segments `first..first + hyps.len()` (for callers
/// that process a corpus in blocks).
pub fn extract_block<S: AsRef<str> + Sync>(
    cfg: &ChrfExtract,
    hyps: &[S],
    refs: &PreparedRefs,
    first: usize,
    workers: usize,
) -> Result<Vec<i64>> {
    cfg.score.check()?;
    block_in_range(first, hyps.len(), refs.len())?;
    let w = cfg.width();
    let mut rows = vec![0i64; hyps.len() * w];
    parallel::for_each_chunk(workers, &mut rows, 256 * w, |start, chunk| {
        let mut s = Scratch::default();
        let i0 = start / w;
        for (j, out) in chunk.chunks_mut(w).enumerate() {
            let i = i0 + j;
            extract_row(cfg, hyps[i].as_ref(), refs.refs(first + i), &mut s, out);
        }
    });
    Ok(rows)
}

/// Sentence chrF of `hyps`, the hypotheses of segments `first..first + hyps.len()`: as
/// `finalize_many(extract_block(..))`, without materializing the rows.
pub fn sentence_scores_block<S: AsRef<str> + Sync>(
    cfg: &ChrfExtract,
    hyps: &[S],
    refs: &PreparedRefs,
    first: usize,
    workers: usize,
) -> Result<Vec<f64>> {
    cfg.score.check()?;
    block_in_range(first, hyps.len(), refs.len())?;
    let mut out = vec![0.0; hyps.len()];
    parallel::for_each_chunk(workers, &mut out, 256, |start, chunk| {
        let mut s = Scratch::default();
        let mut row = vec![0i64; cfg.width()];
        for (j, v) in chunk.iter_mut().enumerate() {
            let i = start + j;
            row.iter_mut().for_each(|x| *x = 0);
            extract_row(
                cfg,
                hyps[i].as_ref(),
                refs.refs(first + i),
                &mut s,
                &mut row,
            );
            *v = f_score(&row, &cfg.score);
        }
    });
    Ok(out)
}
