//! BLEU exactly as SacreBLEU 2.6 computes it.
//!
//! Row layout (SacreBLEU's): `hyp_len, ref_len, match_1..N, total_1..N`.

use super::ngram::{match_counts, Scratch};
use crate::error::{Error, Result};
use crate::parallel;
use crate::tokenize::Tokenizer;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Options that change the statistics rows (two row sets merge only if these agree).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BleuExtract {
    pub tokenizer: Tokenizer,
    pub lowercase: bool,
    pub max_order: usize,
}

impl BleuExtract {
    /// Width of one statistics row.
    pub fn width(&self) -> usize {
        2 + 2 * self.max_order
    }
}

/// Smoothing, as SacreBLEU names it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Smooth {
    None,
    Floor(f64),
    AddK(f64),
    Exp,
}

impl Smooth {
    /// SacreBLEU's `(smooth_method, smooth_value)` with its defaults (floor 0.1, add-k 1).
    pub fn from_name(method: &str, value: Option<f64>) -> Result<Self> {
        match method {
            "none" => Ok(Smooth::None),
            "floor" => Ok(Smooth::Floor(value.unwrap_or(0.1))),
            "add-k" => Ok(Smooth::AddK(value.unwrap_or(1.0))),
            "exp" => Ok(Smooth::Exp),
            _ => Err(Error::InvalidOption {
                name: "smooth_method".into(),
                value: format!("{method:?}"),
                expected: "one of none, floor, add-k, exp".into(),
            }),
        }
    }
}

/// Options used only when turning summed statistics into a score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BleuScoreOpts {
    pub smooth: Smooth,
    pub effective_order: bool,
    pub max_order: usize,
}

/// Everything SacreBLEU's `BLEUScore` exposes.
#[derive(Debug, Clone, PartialEq)]
pub struct BleuScore {
    pub score: f64,
    /// Counts and totals as SacreBLEU exposes them (add-k adds k for n >= 2 when matches exist).
    pub counts: Vec<f64>,
    pub totals: Vec<f64>,
    pub precisions: Vec<f64>,
    pub bp: f64,
    pub sys_len: i64,
    pub ref_len: i64,
}

/// SacreBLEU's `my_log`: log with `log(0) = -9999999999`.
#[inline]
fn my_log(x: f64) -> f64 {
    if x == 0.0 {
        -9_999_999_999.0
    } else {
        x.ln()
    }
}

/// `BLEU.compute_bleu`, operation for operation, so floats are bit-identical.
pub fn finalize(row: &[i64], o: &BleuScoreOpts) -> BleuScore {
    let n_ord = o.max_order;
    let sys_len = row[0];
    let ref_len = row[1];
    let mut correct: Vec<f64> = row[2..2 + n_ord].iter().map(|&x| x as f64).collect();
    let mut total: Vec<f64> = row[2 + n_ord..2 + 2 * n_ord]
        .iter()
        .map(|&x| x as f64)
        .collect();

    let mut bp = 1.0;
    if sys_len < ref_len {
        bp = if sys_len > 0 {
            (1.0 - ref_len as f64 / sys_len as f64).exp()
        } else {
            0.0
        };
    }
    let mut precisions = vec![0.0; n_ord];
    if row[2..2 + n_ord].iter().all(|&c| c == 0) {
        return BleuScore {
            score: 0.0,
            counts: correct,
            totals: total,
            precisions,
            bp,
            sys_len,
            ref_len,
        };
    }
    let mut smooth_mteval = 1.0f64;
    let mut eff_order = n_ord;
    for n in 1..=n_ord {
        if let Smooth::AddK(k) = o.smooth {
            if n > 1 {
                correct[n - 1] += k;
                total[n - 1] += k;
            }
        }
        if total[n - 1] == 0.0 {
            break;
        }
        if o.effective_order {
            eff_order = n;
        }
        if correct[n - 1] == 0.0 {
            match o.smooth {
                Smooth::Exp => {
                    smooth_mteval *= 2.0;
                    precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1]);
                }
                Smooth::Floor(v) => precisions[n - 1] = 100.0 * v / total[n - 1],
                _ => {}
            }
        } else {
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1];
        }
    }
    let mut s = 0.0;
    for p in &precisions[..eff_order] {
        s += my_log(*p);
    }
    let score = bp * (s / eff_order as f64).exp();
    BleuScore {
        score,
        counts: correct,
        totals: total,
        precisions,
        bp,
        sys_len,
        ref_len,
    }
}

/// Just the score of every row of a row-major matrix (batch sentence scores).
pub fn finalize_many(rows: &[i64], width: usize, o: &BleuScoreOpts, workers: usize) -> Vec<f64> {
    let n = rows.len() / width;
    let mut out = vec![0.0; n];
    parallel::for_each_chunk(workers, &mut out, 4096, |start, chunk| {
        for (j, v) in chunk.iter_mut().enumerate() {
            let i = start + j;
            *v = finalize(&rows[i * width..(i + 1) * width], o).score;
        }
    });
    out
}

/// SacreBLEU's `_get_closest_ref_len`: the closest length, ties to the shorter; -1 if none.
pub fn closest_ref_len(hyp_len: i64, ref_lens: impl IntoIterator<Item = i64>) -> i64 {
    let (mut closest_diff, mut closest_len) = (-1i64, -1i64);
    for r in ref_lens {
        let diff = (hyp_len - r).abs();
        if closest_diff == -1 || diff < closest_diff {
            closest_diff = diff;
            closest_len = r;
        } else if diff == closest_diff && r < closest_len {
            closest_len = r;
        }
    }
    closest_len
}

/// Statistics row of one tokenized hypothesis against tokenized references.
pub fn extract_row<'t, R: AsRef<[&'t str]>>(
    hyp: &[&'t str],
    refs: &[R],
    max_order: usize,
    s: &mut Scratch,
    out: &mut [i64],
) {
    let mut m = [0u64; 16];
    let mut t = [0u64; 16];
    let (mut mv, mut tv);
    let (m, t): (&mut [u64], &mut [u64]) = if max_order <= 16 {
        (&mut m[..max_order], &mut t[..max_order])
    } else {
        mv = vec![0u64; max_order];
        tv = vec![0u64; max_order];
        (&mut mv[..], &mut tv[..])
    };
    match_counts(hyp, refs, max_order, s, m, t);
    out[0] = hyp.len() as i64;
    out[1] = closest_ref_len(
        hyp.len() as i64,
        refs.iter().map(|x| x.as_ref().len() as i64),
    );
    for n in 0..max_order {
        out[2 + n] = m[n] as i64;
        out[2 + max_order + n] = t[n] as i64;
    }
}

/// The references of one segment, tokenized and split once. Cheap to clone: segments with
/// identical references share one copy.
#[derive(Debug, Clone, Default)]
pub struct RefSegment(Arc<RefData>);

#[derive(Debug, Default)]
struct RefData {
    /// Tokenized references, concatenated.
    text: String,
    /// Byte span of every token in `text`.
    spans: Vec<(u32, u32)>,
    /// For each reference, the index in `spans` one past its last token.
    ends: Vec<u32>,
}

impl RefSegment {
    fn new(cfg: &BleuExtract, refs: &[String]) -> Self {
        let mut seg = RefData::default();
        for r in refs {
            let tok = cfg.tokenizer.preprocess(r, cfg.lowercase);
            let base = seg.text.len();
            for t in cfg.tokenizer.split_output(&tok) {
                let start = base + (t.as_ptr() as usize - tok.as_ptr() as usize);
                seg.spans.push((start as u32, (start + t.len()) as u32));
            }
            seg.text.push_str(&tok);
            seg.ends.push(seg.spans.len() as u32);
        }
        RefSegment(Arc::new(seg))
    }

    /// Number of references.
    pub fn len(&self) -> usize {
        self.0.ends.len()
    }

    /// Whether the segment has no reference.
    pub fn is_empty(&self) -> bool {
        self.0.ends.is_empty()
    }

    /// All tokens, in order (references one after the other).
    fn tokens(&self) -> Vec<&str> {
        let d = &*self.0;
        d.spans
            .iter()
            .map(|&(a, b)| &d.text[a as usize..b as usize])
            .collect()
    }

    /// The references as slices of [`RefSegment::tokens`].
    fn split_refs<'t>(&self, tokens: &'t [&'t str]) -> Vec<&'t [&'t str]> {
        let mut start = 0usize;
        self.0
            .ends
            .iter()
            .map(|&end| {
                let r = &tokens[start..end as usize];
                start = end as usize;
                r
            })
            .collect()
    }
}

/// Preprocessed references, segment by segment (`None` references already removed).
#[derive(Debug, Clone)]
pub struct PreparedRefs {
    pub segments: Vec<RefSegment>,
}

impl PreparedRefs {
    /// Tokenize references given segment by segment; identical segments are tokenized once
    /// (test sets scored against many systems repeat their references).
    pub fn new(cfg: &BleuExtract, segments: Vec<Vec<String>>, workers: usize) -> Self {
        let mut first: FxHashMap<&[String], usize> = FxHashMap::default();
        let source: Vec<usize> = segments
            .iter()
            .enumerate()
            .map(|(i, s)| *first.entry(s.as_slice()).or_insert(i))
            .collect();
        let mut out = vec![RefSegment::default(); segments.len()];
        parallel::for_each_chunk(workers, &mut out, 128, |start, chunk| {
            for (j, seg) in chunk.iter_mut().enumerate() {
                let i = start + j;
                if source[i] == i {
                    *seg = RefSegment::new(cfg, &segments[i]);
                }
            }
        });
        for i in 0..out.len() {
            if source[i] != i {
                out[i] = out[source[i]].clone();
            }
        }
        PreparedRefs { segments: out }
    }
}

/// Statistics of every hypothesis (row-major, `width` columns) and the number of hypotheses
/// ending in " ." (SacreBLEU's "forgot to detokenize" warning).
///
/// `refs` are the references of exactly these hypotheses (a slice of [`PreparedRefs::segments`],
/// so callers can work block by block).
pub fn extract(
    cfg: &BleuExtract,
    hyps: &[String],
    refs: &[RefSegment],
    workers: usize,
) -> Result<(Vec<i64>, usize)> {
    extract_strs(cfg, hyps, refs, workers)
}

/// [`extract`] for any string type (the binding passes `&str` borrowed from Python strings:
/// no copy while holding the GIL, which is serial time).
pub fn extract_strs<S: AsRef<str> + Sync>(
    cfg: &BleuExtract,
    hyps: &[S],
    refs: &[RefSegment],
    workers: usize,
) -> Result<(Vec<i64>, usize)> {
    if hyps.len() != refs.len() {
        return Err(Error::LengthMismatch {
            what: "hypotheses vs references".into(),
            expected: refs.len(),
            found: hyps.len(),
        });
    }
    let w = cfg.width();
    let mut rows = vec![0i64; hyps.len() * w];
    parallel::for_each_chunk(workers, &mut rows, 128 * w, |start, chunk| {
        let mut s = Scratch::default();
        let first = start / w;
        for (j, out) in chunk.chunks_mut(w).enumerate() {
            let i = first + j;
            let h = cfg.tokenizer.preprocess(hyps[i].as_ref(), cfg.lowercase);
            let htoks = cfg.tokenizer.split_output(&h);
            let rtoks = refs[i].tokens();
            let r = refs[i].split_refs(&rtoks);
            extract_row(&htoks, &r, cfg.max_order, &mut s, out);
        }
    });
    let tok_count = hyps.iter().filter(|h| h.as_ref().ends_with(" .")).count();
    Ok((rows, tok_count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_ref_len_ties_to_shorter() {
        assert_eq!(closest_ref_len(5, [4, 6]), 4);
        assert_eq!(closest_ref_len(5, [6, 4]), 4);
        assert_eq!(closest_ref_len(5, []), -1);
    }

    #[test]
    fn perfect_match_scores_100() {
        let cfg = BleuExtract {
            tokenizer: Tokenizer::None,
            lowercase: false,
            max_order: 4,
        };
        let refs = PreparedRefs::new(&cfg, vec![vec!["a b c d e".into()]], 1);
        let (rows, _) = extract(&cfg, &["a b c d e".into()], &refs.segments, 1).unwrap();
        assert_eq!(rows, vec![5, 5, 5, 4, 3, 2, 5, 4, 3, 2]);
        let o = BleuScoreOpts {
            smooth: Smooth::Exp,
            effective_order: false,
            max_order: 4,
        };
        assert!((finalize(&rows, &o).score - 100.0).abs() < 1e-12);
    }
}
