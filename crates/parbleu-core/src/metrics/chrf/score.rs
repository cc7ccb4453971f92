//! The F-score (`CHRF._compute_f_score`) and its options.

use crate::error::{Error, Result};
use crate::metrics::count::Count;
use crate::parallel;
use crate::text::py_lower;
use std::borrow::Cow;

/// Options of `_compute_f_score` (used to finalize and to choose among references).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChrfScoreOpts {
    pub char_order: usize,
    pub word_order: usize,
    /// `beta ** 2` as Python evaluates it, converted to float.
    pub factor: f64,
    /// `1 + beta ** 2` as Python evaluates it, converted to float.
    pub one_plus_factor: f64,
    pub eps_smoothing: bool,
}

impl ChrfScoreOpts {
    /// Options for a float `beta` (for an integer beta below 2**26 this equals Python's
    /// integer arithmetic).
    pub fn new(char_order: usize, word_order: usize, beta: f64, eps_smoothing: bool) -> Self {
        let factor = beta.powf(2.0);
        ChrfScoreOpts {
            char_order,
            word_order,
            factor,
            one_plus_factor: 1.0 + factor,
            eps_smoothing,
        }
    }

    /// `char_order + word_order`.
    pub fn order(&self) -> usize {
        self.char_order + self.word_order
    }

    /// Width of one statistics row.
    pub fn width(&self) -> usize {
        3 * self.order()
    }

    /// Refuse an empty set of orders (SacreBLEU divides by zero there).
    pub fn check(&self) -> Result<()> {
        crate::error::check_order("char_order", self.char_order as u64)?;
        crate::error::check_order("word_order", self.word_order as u64)?;
        if self.order() == 0 {
            return Err(Error::InvalidOption {
                name: "char_order + word_order".into(),
                value: "0".into(),
                expected: "at least one n-gram order".into(),
            });
        }
        if !self.factor.is_finite() || !self.one_plus_factor.is_finite() {
            return Err(Error::InvalidOption {
                name: "beta".into(),
                value: format!("{}", self.factor.sqrt()),
                expected: "a finite number".into(),
            });
        }
        Ok(())
    }
}

/// Options that change the statistics rows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChrfExtract {
    pub score: ChrfScoreOpts,
    pub lowercase: bool,
    /// Keep whitespace inside character n-grams.
    pub whitespace: bool,
}

impl ChrfExtract {
    /// Width of one statistics row.
    pub fn width(&self) -> usize {
        self.score.width()
    }

    /// `text` as n-grams are taken from it: lowercased (Python's `str.lower`) if asked.
    pub(super) fn cased<'a>(&self, text: &'a str) -> Cow<'a, str> {
        if self.lowercase {
            Cow::Owned(py_lower(text))
        } else {
            Cow::Borrowed(text)
        }
    }
}

/// SacreBLEU's `CHRF._compute_f_score`, operation for operation, so floats are bit-identical;
/// the one chrF finalize (statistics of any [`Count`] type, converted to `f64` first).
pub fn f_score<T: Count>(stats: &[T], o: &ChrfScoreOpts) -> f64 {
    let eps = 1e-16;
    let mut score = 0.0f64;
    let mut effective_order = 0i64;
    let factor = o.factor;
    let (mut avg_prec, mut avg_rec) = (0.0f64, 0.0f64);
    let order = o.order();
    for i in 0..order {
        let (n_hyp, n_ref, n_match) = (
            stats[3 * i].to_f64(),
            stats[3 * i + 1].to_f64(),
            stats[3 * i + 2].to_f64(),
        );
        let prec = if n_hyp > 0.0 { n_match / n_hyp } else { eps };
        let rec = if n_ref > 0.0 { n_match / n_ref } else { eps };
        let denom = factor * prec + rec;
        score += if denom > 0.0 {
            o.one_plus_factor * prec * rec / denom
        } else {
            eps
        };
        if n_hyp > 0.0 && n_ref > 0.0 {
            avg_prec += prec;
            avg_rec += rec;
            effective_order += 1;
        }
    }
    if o.eps_smoothing {
        return 100.0 * score / order as f64;
    }
    if effective_order == 0 {
        avg_prec = 0.0;
        avg_rec = 0.0;
    } else {
        avg_prec /= effective_order as f64;
        avg_rec /= effective_order as f64;
    }
    if avg_prec + avg_rec != 0.0 {
        let mut s = o.one_plus_factor * avg_prec * avg_rec;
        s /= (factor * avg_prec) + avg_rec;
        100.0 * s
    } else {
        0.0
    }
}

/// The score of every row of a row-major matrix (batch sentence scores).
pub fn finalize_many(rows: &[i64], o: &ChrfScoreOpts, workers: usize) -> Result<Vec<f64>> {
    o.check()?;
    let width = o.width();
    let rem = rows.len() % width;
    if rem != 0 {
        return Err(Error::BadStatsShape {
            expected: width,
            found: rem,
        });
    }
    let n = rows.len() / width;
    let mut out = vec![0.0; n];
    parallel::for_each_chunk(workers, &mut out, 4096, |start, chunk| {
        for (j, v) in chunk.iter_mut().enumerate() {
            let i = start + j;
            *v = f_score(&rows[i * width..(i + 1) * width], o);
        }
    });
    Ok(out)
}
