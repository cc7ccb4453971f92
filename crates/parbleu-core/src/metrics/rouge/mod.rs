//! ROUGE as Google's `rouge-score` 0.1.2 computes it: `rouge1`..`rouge9`, `rougeL`,
//! `rougeLsum`, its tokenizer and NLTK's Porter stemmer, `score_multi`'s choice of reference,
//! and a bootstrap over per-pair scores.
//!
//! Each (prediction, references) pair gives, per rouge type, integer statistics
//! `[matches, prediction_count, reference_count]` of the chosen reference; the floats come from
//! them with rouge-score's own operations ([`score::prf`]), so they are its bits.

pub mod bootstrap;
pub(crate) mod intern;
pub mod lcs;
pub mod porter;
pub mod score;
mod tables;
pub mod tokenize;

use crate::{interrupt, parallel, Error, Result};
use lcs::Masks;
use score::{Stats, Text};
use tokenize::RougeTokenizer;

/// Highest n of `rougeN` (rouge-score matches `rouge[0-9]$` and rejects n = 0).
pub const MAX_N: usize = 9;

/// A rouge type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RougeType {
    /// `rougeN`: n-gram overlap, `1 <= n <= 9`.
    N(usize),
    /// `rougeL`: LCS of the whole texts.
    L,
    /// `rougeLsum`: summary-level union LCS over newline-separated sentences.
    Lsum,
}

impl RougeType {
    /// Parse a name as rouge-score 0.1.2 accepts it; anything else is rouge-score's `ValueError`
    /// as an [`Error::InvalidOption`].
    pub fn from_name(name: &str) -> Result<Self> {
        let bad = |why: &str| Error::InvalidOption {
            name: "rouge type".into(),
            value: format!("{name:?}"),
            expected: format!("rouge1 .. rouge9, rougeL or rougeLsum ({why})"),
        };
        match name {
            "rougeL" => Ok(RougeType::L),
            "rougeLsum" => Ok(RougeType::Lsum),
            _ => match name.strip_prefix("rouge").map(str::as_bytes) {
                Some([d @ b'1'..=b'9']) => Ok(RougeType::N(usize::from(d - b'0'))),
                Some([b'0']) => Err(bad("rouge-score: 'rougen requires positive n'")),
                _ => Err(bad("rouge-score: 'Invalid rouge type'")),
            },
        }
    }
}

/// One of a pair's three numbers: `[precision, recall, fmeasure]` (rouge-score's `Score`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    Precision,
    Recall,
    Fmeasure,
}

impl Measure {
    /// The names, in the order of the variants (rouge-score's field names).
    pub const NAMES: [&'static str; 3] = ["precision", "recall", "fmeasure"];

    /// The measure called `name`.
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "precision" => Ok(Measure::Precision),
            "recall" => Ok(Measure::Recall),
            "fmeasure" => Ok(Measure::Fmeasure),
            _ => Err(Error::InvalidOption {
                name: "measure".into(),
                value: format!("{name:?}"),
                expected: "one of 'precision', 'recall', 'fmeasure'".into(),
            }),
        }
    }

    /// Its index in `[precision, recall, fmeasure]`.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What to compute for each pair.
#[derive(Clone, Debug)]
pub struct RougeOpts {
    pub types: Vec<RougeType>,
    pub tokenizer: RougeTokenizer,
}

/// One pair's result for one rouge type.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TypeScore {
    /// `[matches, prediction_count, reference_count]` of the chosen reference.
    pub stats: Stats,
    /// `[precision, recall, fmeasure]`.
    pub prf: [f64; 3],
    /// Index of the chosen reference.
    pub best: u32,
}

/// The prediction's LCS masks, built once for all its references (only those its types use).
pub(crate) struct PredMasks {
    whole: Option<Masks>,
    sents: Vec<Masks>,
}

impl PredMasks {
    pub(crate) fn new(types: &[RougeType], pred: &Text, vocab: usize) -> Self {
        let has = |t: RougeType| types.contains(&t);
        PredMasks {
            // A text too long for the masks' memory takes the classic table instead (`None`).
            whole: (has(RougeType::L) && lcs::masks_fit(&pred.all, vocab))
                .then(|| Masks::new(&pred.all, vocab)),
            sents: if has(RougeType::Lsum) {
                pred.sents().map(|s| Masks::new(s, vocab)).collect()
            } else {
                Vec::new()
            },
        }
    }
}

/// The statistics of rouge type `t` of the prediction `pred` (its masks `pm`) against one
/// reference; ids below `vocab`.
pub(crate) fn type_stats(
    t: RougeType,
    pred: &Text,
    pm: &PredMasks,
    reff: &Text,
    vocab: usize,
    workers: usize,
) -> Stats {
    match t {
        RougeType::N(n) => score::ngram_stats(&pred.all, &reff.all, n, vocab),
        RougeType::L => match &pm.whole {
            Some(m) => score::lcs_stats(m, pred.all.len(), &reff.all),
            None => [
                lcs::lcs_len_table(&reff.all, &pred.all) as u64,
                pred.all.len() as u64,
                reff.all.len() as u64,
            ],
        },
        RougeType::Lsum => score::lsum_stats(pred, &pm.sents, reff, vocab, workers),
    }
}

/// rouge-score's `score_multi(refs, pred)` (`score(refs[0], pred)` for one reference), one
/// [`TypeScore`] per type of `opts`. `refs` must not be empty.
pub fn score_pair(opts: &RougeOpts, pred: &str, refs: &[&str]) -> Vec<TypeScore> {
    score_pair_on(opts, pred, refs, 1)
}

/// [`score_pair`], a long rougeLsum pair on `workers` threads (the same result).
fn score_pair_on(opts: &RougeOpts, pred: &str, refs: &[&str], workers: usize) -> Vec<TypeScore> {
    let mut texts = Vec::with_capacity(refs.len() + 1);
    texts.push(pred);
    texts.extend_from_slice(refs);
    let (texts, v) = intern::prepare_pair(&opts.tokenizer, &texts);
    let (p, rs) = texts.split_first().expect("the prediction is there");
    let pm = PredMasks::new(&opts.types, p, v);
    opts.types
        .iter()
        .map(|&t| {
            let mut best = TypeScore::default();
            for (k, r) in rs.iter().enumerate() {
                let stats = type_stats(t, p, &pm, r, v, workers);
                let prf = score::prf(stats);
                // numpy's argmax: the first of equal fmeasures wins.
                if k == 0 || prf[2] > best.prf[2] {
                    best = TypeScore {
                        stats,
                        prf,
                        best: k as u32,
                    };
                }
            }
            best
        })
        .collect()
}

/// Most pairs per work chunk: large enough to amortize the handout on short texts.
const CHUNK: usize = 16;

/// [`score_pair`] for every pair, on `workers` threads (the result does not depend on them).
/// Returns one row of `opts.types.len()` scores per pair; stops early (with garbage) when
/// [`interrupt::requested`] says so.
pub fn score_batch(
    opts: &RougeOpts,
    preds: &[&str],
    refs: &[Vec<&str>],
    workers: usize,
) -> Result<Vec<Vec<TypeScore>>> {
    if preds.len() != refs.len() {
        return Err(Error::LengthMismatch {
            what: "predictions and reference lists".into(),
            expected: preds.len(),
            found: refs.len(),
        });
    }
    if let Some(i) = refs.iter().position(Vec::is_empty) {
        return Err(Error::InvalidOption {
            name: "references".into(),
            value: format!("an empty list at pair {i}"),
            expected: "at least one reference per prediction".into(),
        });
    }
    let mut out: Vec<Vec<TypeScore>> = vec![Vec::new(); preds.len()];
    if preds.len() < 2 * workers {
        // Fewer pairs than threads can share: the threads share each pair's sentences instead.
        for (k, row) in out.iter_mut().enumerate() {
            if interrupt::requested() {
                break;
            }
            *row = score_pair_on(opts, preds[k], &refs[k], workers);
        }
        return Ok(out);
    }
    // At least 8 chunks per thread, so that a few long documents still spread over every
    // thread (each pair's result does not depend on the chunking).
    let chunk = (preds.len() / (8 * workers.max(1))).clamp(1, CHUNK);
    parallel::for_each_chunk(workers, &mut out, chunk, |start, chunk| {
        for (k, row) in chunk.iter_mut().enumerate() {
            if interrupt::requested() {
                return;
            }
            *row = score_pair(opts, preds[start + k], &refs[start + k]);
        }
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokenize::Kind;

    #[test]
    fn type_names() {
        assert_eq!(RougeType::from_name("rouge9").ok(), Some(RougeType::N(9)));
        assert_eq!(
            RougeType::from_name("rougeLsum").ok(),
            Some(RougeType::Lsum)
        );
        for bad in ["rouge0", "rouge10", "rougeX", "rouge", "Rouge1", "rougel"] {
            assert!(RougeType::from_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn multi_reference_takes_first_best() {
        let opts = RougeOpts {
            types: vec![RougeType::N(1), RougeType::L],
            tokenizer: RougeTokenizer {
                kind: Kind::Default,
                stem: false,
            },
        };
        let row = score_pair(&opts, "a b c", &["x y", "a b", "b a"]);
        assert_eq!(row[0].best, 1);
        assert_eq!(row[0].stats, [2, 3, 2]);
        assert_eq!(row[1].best, 1);
        let batch = score_batch(&opts, &["a b c"; 3], &vec![vec!["x y", "a b", "b a"]; 3], 2);
        assert_eq!(batch.ok(), Some(vec![row; 3]));
    }
}
