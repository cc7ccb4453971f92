//! Statistics rows: the best row of a hypothesis over its references ([`Extract`] of chrF's
//! prepared references; the block loops are the generic ones of `metrics::extract`).

use super::hyp::HypGrams;
use super::refs::{PreparedRef, PreparedRefs, WordIds};
use super::score::{f_score, ChrfExtract};
use super::symbols::{char_symbols, for_each_word_at};
use crate::error::Result;
use crate::metrics::extract::{self, Extract};

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

/// chrF's references give a segment's row: the best reference's statistics.
impl Extract for PreparedRefs {
    type Cell = i64;
    type Scratch = Scratch;
    const CHUNK: usize = 256;

    fn width(cfg: &ChrfExtract) -> usize {
        cfg.width()
    }

    fn check(cfg: &ChrfExtract) -> Result<()> {
        cfg.score.check()
    }

    #[inline]
    fn row(&self, cfg: &ChrfExtract, hyp: &str, seg: usize, s: &mut Scratch, out: &mut [i64]) {
        extract_row(cfg, hyp, self.refs(seg), s, out);
    }
}

/// Statistics of every hypothesis (row-major, `cfg.width()` columns): the generic
/// [`extract::extract`] of chrF's references.
pub fn extract<S: AsRef<str> + Sync>(
    cfg: &ChrfExtract,
    hyps: &[S],
    refs: &PreparedRefs,
    workers: usize,
) -> Result<Vec<i64>> {
    extract::extract(refs, cfg, hyps, workers)
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
    extract::sentence_scores_block(refs, cfg, hyps, first, workers, |row| {
        f_score(row, &cfg.score)
    })
}
