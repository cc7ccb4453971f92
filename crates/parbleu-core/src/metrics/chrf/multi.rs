//! Several systems against one set of references: each segment's reference n-gram tables are
//! built once and probed with every system's hypothesis of that segment while they are in
//! the cache (one system at a time, the tables are rebuilt per hypothesis and per reference).
//!
//! Matches are symmetric (the sum over n-grams of the smaller count), so the tables of
//! `HypGrams` hold the reference here and the hypothesis is what is looked up; the totals
//! and the best-reference choice are those of `extract_row`, so every system's rows are
//! exactly the rows `extract` gives it alone.

use super::hyp::HypGrams;
use super::refs::{word_hash, PreparedRefs, WordIds};
use super::score::{f_score, ChrfExtract, ChrfScoreOpts};
use super::symbols::{char_symbols, for_each_word_at};
use crate::error::{Error, Result};
use crate::metrics::check::block_in_range;
use crate::parallel;

/// Segments per unit of parallel work (each unit scores them for every system).
const CHUNK_SEGMENTS: usize = 16;

/// One system's hypothesis of the current segment, preprocessed once for all its references.
#[derive(Default)]
struct Hyp {
    chars: Vec<u32>,
    /// (hash, start, end) of each word in the (lowercased) text.
    words: Vec<(u64, usize, usize)>,
    /// The lowercased text (`lowercase` and word orders only).
    lower: String,
    word_syms: Vec<u32>,
}

/// Per-thread buffers.
#[derive(Default)]
struct Scratch {
    hyps: Vec<Hyp>,
    chars: HypGrams,
    words: HypGrams,
    word_ids: WordIds,
    syms: Vec<u32>,
    row: Vec<i64>,
    best: Vec<f64>,
}

impl Hyp {
    fn prepare(&mut self, cfg: &ChrfExtract, hyp: &str) {
        let o = &cfg.score;
        let text = cfg.cased(hyp);
        if o.char_order > 0 {
            char_symbols(&text, cfg.whitespace, &mut self.chars);
        }
        self.words.clear();
        self.lower.clear();
        if o.word_order > 0 {
            let words = &mut self.words;
            for_each_word_at(&text, |start, w| {
                words.push((word_hash(w.as_bytes()), start, start + w.len()));
            });
            if cfg.lowercase {
                self.lower.push_str(&text);
            }
        }
    }
}

/// `hyp, ref, match` of orders `1..=out.len() / 3`, the matches in `matches`, for a
/// hypothesis of `h` symbols and a reference of `r`.
fn totals(h: usize, r: usize, matches: &[u64], out: &mut [i64]) {
    for (n, (t, &m)) in (1..).zip(out.chunks_exact_mut(3).zip(matches)) {
        let ref_total = (r + 1).saturating_sub(n);
        // "Don't count hits if no reference exists for that n-gram"
        let hyp_total = if ref_total > 0 {
            (h + 1).saturating_sub(n)
        } else {
            0
        };
        t[0] = hyp_total as i64;
        t[1] = ref_total as i64;
        t[2] = m as i64;
    }
}

/// Rows of segment `seg` for every system (`hyps[k]` is system k's hypothesis) into
/// `out[k * w..(k + 1) * w]`: the row of the reference with the best F-score (ties: the
/// first), as `extract_row` picks it.
fn segment_rows(
    cfg: &ChrfExtract,
    hyps: &[&str],
    refs: &PreparedRefs,
    seg: usize,
    s: &mut Scratch,
    out: &mut [i64],
) {
    let o: &ChrfScoreOpts = &cfg.score;
    let w = o.width();
    let nc = 3 * o.char_order;
    let n_sys = hyps.len();
    if s.hyps.len() < n_sys {
        s.hyps.resize_with(n_sys, Hyp::default);
    }
    for (h, text) in s.hyps.iter_mut().zip(hyps) {
        h.prepare(cfg, text);
    }
    s.best.clear();
    s.best.resize(n_sys, -1.0);
    s.row.clear();
    s.row.resize(w, 0);
    for r in refs.refs(seg) {
        if o.char_order > 0 {
            s.chars.build(&r.chars, o.char_order);
        }
        if o.word_order > 0 {
            // About one distinct word per 6 bytes of text (the table grows if not).
            s.word_ids.reset(r.text.len() / 6 + 8);
            s.syms.clear();
            for wr in &r.words {
                s.syms
                    .push(s.word_ids.get_or_insert(&r.text, wr.start, wr.end));
            }
            s.words.build(&s.syms, o.word_order);
        }
        for (k, h) in s.hyps[..n_sys].iter_mut().enumerate() {
            if o.char_order > 0 {
                let m = s.chars.matches(&h.chars, o.char_order);
                totals(h.chars.len(), r.chars.len(), m, &mut s.row[..nc]);
            }
            if o.word_order > 0 {
                let text = if cfg.lowercase { &h.lower } else { hyps[k] };
                // A word the reference lacks is `UNKNOWN_WORD`: no n-gram with it matches.
                h.word_syms.clear();
                let ids = &s.word_ids;
                h.word_syms.extend(
                    h.words
                        .iter()
                        .map(|&(hash, start, end)| ids.get(&r.text, &text[start..end], hash)),
                );
                let m = s.words.matches(&h.word_syms, o.word_order);
                totals(h.words.len(), r.words.len(), m, &mut s.row[nc..]);
            }
            let f = f_score(&s.row, o);
            if f > s.best[k] {
                s.best[k] = f;
                out[k * w..(k + 1) * w].copy_from_slice(&s.row);
            }
        }
    }
}

/// Statistics rows of several systems' hypotheses of segments `first..first + n` (every
/// `systems[k]` has `n` of them), system after system (`systems.len() * n * width` values,
/// row-major): for each system, exactly what `extract_block` gives it.
pub fn extract_many<S: AsRef<str> + Sync>(
    cfg: &ChrfExtract,
    systems: &[&[S]],
    refs: &PreparedRefs,
    first: usize,
    workers: usize,
) -> Result<Vec<i64>> {
    cfg.score.check()?;
    let n = systems.first().map_or(0, |s| s.len());
    if let Some(bad) = systems.iter().find(|s| s.len() != n) {
        return Err(Error::LengthMismatch {
            what: "systems' hypotheses".into(),
            expected: n,
            found: bad.len(),
        });
    }
    block_in_range(first, n, refs.len())?;
    let w = cfg.width();
    let n_sys = systems.len();
    if n_sys == 0 {
        return Ok(Vec::new());
    }
    // Segment-major while scoring (a chunk of segments is one contiguous slice), then
    // rearranged system by system.
    let per_seg = n_sys * w;
    let mut seg_major = vec![0i64; n * per_seg];
    parallel::for_each_chunk(
        workers,
        &mut seg_major,
        CHUNK_SEGMENTS * per_seg,
        |start, chunk| {
            let mut s = Scratch::default();
            let mut texts: Vec<&str> = Vec::with_capacity(n_sys);
            let i0 = start / per_seg;
            for (j, out) in chunk.chunks_mut(per_seg).enumerate() {
                let i = i0 + j;
                texts.clear();
                texts.extend(systems.iter().map(|sys| sys[i].as_ref()));
                segment_rows(cfg, &texts, refs, first + i, &mut s, out);
            }
        },
    );
    let mut rows = vec![0i64; n_sys * n * w];
    for (i, seg) in seg_major.chunks_exact(per_seg).enumerate() {
        for (k, row) in seg.chunks_exact(w).enumerate() {
            rows[(k * n + i) * w..(k * n + i + 1) * w].copy_from_slice(row);
        }
    }
    Ok(rows)
}
