//! HuggingFace `evaluate`'s `bleu` metric (tensorflow/nmt's `compute_bleu` as HF vendors it) on
//! one segment's counts: the arithmetic of `parbleu.flavors.tfnmt.hf_bleu`, operation for
//! operation, so that per-sentence scores need no Python.

use crate::metrics::ngram::{match_counts, Scratch as NgramScratch};
use crate::parallel;
use crate::pysum::PySum;
use crate::tokenize::Tokenizer;
use std::cell::RefCell;

/// What `evaluate.load("bleu").compute(...)` returns (0-1 scale).
#[derive(Debug, Clone, PartialEq)]
pub struct HfBleu {
    /// `geo_mean * brevity_penalty`.
    pub bleu: f64,
    /// Per-order precisions (smoothed with +1 on both sides when asked).
    pub precisions: Vec<f64>,
    /// `exp(1 - 1 / ratio)` below ratio 1, else 1; 0 without translation or reference words.
    pub brevity_penalty: f64,
    /// `translation_length / reference_length` (0 when either is 0).
    pub length_ratio: f64,
    /// Hypothesis words.
    pub translation_length: u64,
    /// The shortest reference's words.
    pub reference_length: u64,
}

/// HF BLEU of counts: `matches` and `totals` per order (`1..=matches.len()`), the hypothesis
/// length and the reference lengths. `None` when there is no order or no reference (where the
/// original raises `ValueError`).
pub fn hf_bleu(
    matches: &[u64],
    totals: &[u64],
    hyp_len: u64,
    ref_lens: &[u64],
    smooth: bool,
) -> Option<HfBleu> {
    let max_order = matches.len();
    let reference_length = *ref_lens.iter().min()?;
    if max_order == 0 {
        return None;
    }
    let precisions: Vec<f64> = matches
        .iter()
        .zip(totals)
        .map(|(&m, &t)| {
            if smooth {
                (m as f64 + 1.0) / (t as f64 + 1.0)
            } else if t > 0 {
                m as f64 / t as f64
            } else {
                0.0
            }
        })
        .collect();
    // Python: sum((1.0 / max_order) * math.log(p) for p in precisions), left to right, with
    // the built-in sum() of the hosting interpreter (compensated since CPython 3.12).
    let geo_mean = if precisions.iter().all(|&p| p > 0.0) {
        let w = 1.0 / max_order as f64;
        let mut s = PySum::new();
        for &p in &precisions {
            s.add_float(w * p.ln());
        }
        s.value().exp()
    } else {
        0.0
    };
    let (ratio, bp) = if reference_length == 0 || hyp_len == 0 {
        (0.0, 0.0)
    } else {
        let ratio = hyp_len as f64 / reference_length as f64;
        let bp = if ratio > 1.0 {
            1.0
        } else {
            (1.0 - 1.0 / ratio).exp()
        };
        (ratio, bp)
    };
    Some(HfBleu {
        bleu: geo_mean * bp,
        precisions,
        brevity_penalty: bp,
        length_ratio: ratio,
        translation_length: hyp_len,
        reference_length,
    })
}

/// Per-thread buffers of [`score_one`]: the n-gram scratch and the tokenized texts, so that a
/// sentence allocates only its token lists.
#[derive(Default)]
struct Scratch {
    ngram: NgramScratch,
    hyp: String,
    refs: Vec<String>,
    matches: Vec<u64>,
    totals: Vec<u64>,
    ref_lens: Vec<u64>,
}

/// HuggingFace's default tokenizer, `Tokenizer13a` (SacreBLEU's 13a), then `str.split()`: 13a
/// joins its tokens with single spaces, so its output is split on `' '` (`split_output`).
const TOK: Tokenizer = Tokenizer::T13a;

fn score_one(
    prediction: &str,
    references: &[&str],
    max_order: usize,
    smooth: bool,
    s: &mut Scratch,
) -> Option<HfBleu> {
    TOK.tokenize_into(prediction, &mut s.hyp);
    s.refs
        .resize_with(s.refs.len().max(references.len()), String::new);
    for (r, out) in references.iter().zip(&mut s.refs) {
        TOK.tokenize_into(r, out);
    }
    let hyp = TOK.split_output(&s.hyp);
    let refs: Vec<Vec<&str>> = s.refs[..references.len()]
        .iter()
        .map(|t| TOK.split_output(t))
        .collect();
    s.matches.clear();
    s.matches.resize(max_order, 0);
    s.totals.clear();
    s.totals.resize(max_order, 0);
    match_counts(
        &hyp,
        &refs,
        max_order,
        &mut s.ngram,
        &mut s.matches,
        &mut s.totals,
    );
    s.ref_lens.clear();
    s.ref_lens.extend(refs.iter().map(|r| r.len() as u64));
    hf_bleu(&s.matches, &s.totals, hyp.len() as u64, &s.ref_lens, smooth)
}

/// HF BLEU (13a tokens) of one prediction against its references; `None` as [`hf_bleu`].
pub fn sentence_bleu(
    prediction: &str,
    references: &[&str],
    max_order: usize,
    smooth: bool,
) -> Option<HfBleu> {
    thread_local! {
        static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
    }
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut s) => score_one(prediction, references, max_order, smooth, &mut s),
        Err(_) => score_one(
            prediction,
            references,
            max_order,
            smooth,
            &mut Scratch::default(),
        ),
    })
}

/// [`sentence_bleu`] of every `(predictions[i], references[i])` pair, on `workers` threads.
pub fn sentence_bleus<S: AsRef<str> + Sync>(
    predictions: &[S],
    references: &[Vec<S>],
    max_order: usize,
    smooth: bool,
    workers: usize,
) -> Vec<Option<HfBleu>> {
    let n = predictions.len().min(references.len());
    let mut out: Vec<Option<HfBleu>> = vec![None; n];
    parallel::for_each_chunk(workers, &mut out, 256, |start, chunk| {
        let mut s = Scratch::default();
        for (j, slot) in chunk.iter_mut().enumerate() {
            let refs: Vec<&str> = references[start + j].iter().map(AsRef::as_ref).collect();
            *slot = score_one(
                predictions[start + j].as_ref(),
                &refs,
                max_order,
                smooth,
                &mut s,
            );
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_match_is_one() {
        let r = hf_bleu(&[4, 3, 2, 1], &[4, 3, 2, 1], 4, &[4, 6], false).unwrap();
        assert_eq!(r.bleu, 1.0);
        assert_eq!(r.reference_length, 4);
        assert_eq!(r.length_ratio, 1.0);
    }

    #[test]
    fn zero_precision_and_empty_sides() {
        let r = hf_bleu(&[2, 0], &[3, 2], 3, &[3], false).unwrap();
        assert_eq!((r.bleu, r.precisions[1]), (0.0, 0.0));
        let r = hf_bleu(&[0, 0], &[0, 0], 0, &[3], true).unwrap();
        assert_eq!(
            (r.precisions[0], r.brevity_penalty, r.length_ratio),
            (1.0, 0.0, 0.0)
        );
        assert!(hf_bleu(&[1], &[1], 1, &[], false).is_none());
        assert!(hf_bleu(&[], &[], 1, &[1], false).is_none());
    }

    #[test]
    fn sentences_equal_one_at_a_time() {
        let preds = ["The cat sat on the mat.", "Hello, world!", ""];
        let refs = vec![
            vec!["The cat is on the mat.", "A cat sat on a mat."],
            vec!["Hello , world !"],
            vec!["x"],
        ];
        let all = sentence_bleus(&preds, &refs, 4, false, 2);
        for (i, got) in all.iter().enumerate() {
            assert_eq!(got, &sentence_bleu(preds[i], &refs[i], 4, false));
        }
        // 13a splits the punctuation off: the tokens are the reference's.
        let one = sentence_bleu("Hello, world!", &["Hello , world !"], 4, false).unwrap();
        assert_eq!((one.bleu, one.translation_length), (1.0, 4));
    }

    #[test]
    fn brevity_penalty_below_ratio_one() {
        let r = hf_bleu(&[2, 1], &[2, 1], 2, &[4], false).unwrap();
        assert_eq!(r.length_ratio, 0.5);
        assert_eq!(r.brevity_penalty, (1.0f64 - 2.0).exp());
    }
}
