//! The finalize step of each metric: exact, and with SacreBLEU's numpy arithmetic.

use crate::error::{Error, Result};
use crate::metrics::count::Count;
use crate::metrics::{bleu, chrf, mean, ter};
use crate::pysum::{add_my_log, PySum};

// --- SacreBLEU's mixed float32 / float64 arithmetic --------------------------------------------

/// A number as SacreBLEU's significance code holds it: a Python `float` (or a small `int`),
/// or a numpy `float32` scalar.
///
/// numpy (>= 2, NEP 50) computes `float32 op float32` in float32 and converts a Python scalar
/// to float32 before `float32 op python_scalar`; Python scalars among themselves stay float64.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// A Python `float` (or an `int` small enough to be exact in one).
    Py(f64),
    /// A numpy `float32` scalar.
    F32(f32),
}

impl Num {
    /// The value as a float64 (exact).
    #[inline]
    pub fn value(self) -> f64 {
        match self {
            Num::Py(x) => x,
            Num::F32(x) => f64::from(x),
        }
    }

    /// Whether this is a numpy `float32`.
    #[inline]
    pub fn is_f32(self) -> bool {
        matches!(self, Num::F32(_))
    }

    #[inline]
    fn op(self, o: Num, f: fn(f64, f64) -> f64, g: fn(f32, f32) -> f32) -> Num {
        match (self, o) {
            (Num::Py(a), Num::Py(b)) => Num::Py(f(a, b)),
            (Num::F32(a), Num::F32(b)) => Num::F32(g(a, b)),
            (Num::Py(a), Num::F32(b)) => Num::F32(g(a as f32, b)),
            (Num::F32(a), Num::Py(b)) => Num::F32(g(a, b as f32)),
        }
    }
}

impl std::ops::Add for Num {
    type Output = Num;
    #[inline]
    fn add(self, o: Num) -> Num {
        self.op(o, |a, b| a + b, |a, b| a + b)
    }
}

impl std::ops::Mul for Num {
    type Output = Num;
    #[inline]
    fn mul(self, o: Num) -> Num {
        self.op(o, |a, b| a * b, |a, b| a * b)
    }
}

impl std::ops::Div for Num {
    type Output = Num;
    #[inline]
    fn div(self, o: Num) -> Num {
        self.op(o, |a, b| a / b, |a, b| a / b)
    }
}

// --- metrics ----------------------------------------------------------------------------------

/// The finalize step of one metric, with its options.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scorer {
    Bleu(bleu::BleuScoreOpts),
    Chrf(chrf::ChrfScoreOpts),
    Ter,
    /// The mean of one score column of float rows ending in a count column of 1.0
    /// ([`mean::MeanOpts`]).
    Mean(mean::MeanOpts),
}

impl Scorer {
    /// Width of a statistics row.
    pub fn width(&self) -> usize {
        match self {
            Scorer::Bleu(o) => 2 + 2 * o.max_order,
            Scorer::Chrf(o) => o.width(),
            Scorer::Ter => 2,
            Scorer::Mean(o) => o.width,
        }
    }

    /// Refuse options no score can be computed with.
    pub fn check(&self) -> Result<()> {
        match self {
            Scorer::Bleu(o) if o.max_order == 0 => Err(Error::InvalidOption {
                name: "max_ngram_order".into(),
                value: "0".into(),
                expected: "an integer >= 1".into(),
            }),
            Scorer::Chrf(o) => o.check(),
            Scorer::Mean(o) => o.check(),
            _ => Ok(()),
        }
    }

    /// The exact score of a summed row: the metric's own finalize, for integer rows and float
    /// rows (TER; integer-valued rows of the other metrics) alike.
    #[inline]
    pub fn exact<T: Count>(&self, row: &[T]) -> f64 {
        match self {
            Scorer::Bleu(o) => bleu::score_of(row, o),
            Scorer::Chrf(o) => chrf::f_score(row, o),
            Scorer::Ter => ter::finalize(row[0].to_f64(), row[1].to_f64()),
            Scorer::Mean(o) => o.finalize(row),
        }
    }

    /// SacreBLEU's `_compute_score_from_stats(row).score`, with the row's elements typed as
    /// SacreBLEU holds them: `Num::F32` for a summed float32 bootstrap resample, `Num::Py` for
    /// the int64 / float64 rows of approximate randomization. `int_storage`: the row is an
    /// int64 numpy array, so BLEU's in-place add-k truncates `count + k` to an integer.
    ///
    /// A mean metric has no SacreBLEU counterpart: its row's values are finalized exactly
    /// (float32 sums included, as the caller summed them).
    pub fn compat(&self, row: &[Num], int_storage: bool) -> Num {
        match self {
            Scorer::Bleu(o) => bleu_compat(row, o, int_storage),
            Scorer::Chrf(o) => chrf_compat(row, o),
            Scorer::Ter => ter_compat(row[0], row[1]),
            Scorer::Mean(o) => {
                let values: Vec<f64> = row.iter().map(|v| v.value()).collect();
                Num::Py(o.finalize(&values))
            }
        }
    }
}

/// SacreBLEU's `BLEU.compute_bleu` on numpy values (`correct` and `total` are slices of the
/// numpy row, so add-k updates them in place with the row's dtype).
fn bleu_compat(row: &[Num], o: &bleu::BleuScoreOpts, int_storage: bool) -> Num {
    let n_ord = o.max_order;
    // `sys_len=int(stats[0])`: Python ints; their true division is correctly rounded.
    let sys_len = row[0].value().trunc();
    let ref_len = row[1].value().trunc();
    let mut bp = 1.0;
    if sys_len < ref_len {
        bp = if sys_len > 0.0 {
            (1.0 - ref_len / sys_len).exp()
        } else {
            0.0
        };
    }
    let correct = &row[2..2 + n_ord];
    let total = &row[2 + n_ord..2 + 2 * n_ord];
    if correct.iter().all(|c| c.value() == 0.0) {
        return Num::Py(0.0);
    }
    let mut log_sum = PySum::new();
    let mut n_logs = 0usize;
    let mut smooth_mteval = Num::Py(1.0);
    let mut eff_order = n_ord;
    let hundred = Num::Py(100.0);
    for n in 1..=n_ord {
        let (mut c, mut t) = (correct[n - 1], total[n - 1]);
        if let bleu::Smooth::AddK(k) = o.smooth {
            if n > 1 {
                c = c + Num::Py(k);
                t = t + Num::Py(k);
                if int_storage {
                    c = Num::Py(c.value().trunc());
                    t = Num::Py(t.value().trunc());
                }
            }
        }
        if t.value() == 0.0 {
            break;
        }
        if o.effective_order {
            eff_order = n;
        }
        let p = if c.value() == 0.0 {
            match o.smooth {
                bleu::Smooth::Exp => {
                    smooth_mteval = smooth_mteval * Num::Py(2.0);
                    hundred / (smooth_mteval * t)
                }
                bleu::Smooth::Floor(v) => Num::Py(100.0 * v) / t,
                _ => Num::Py(0.0),
            }
        } else {
            hundred * c / t
        };
        if n <= eff_order {
            add_my_log(&mut log_sum, p.value());
            n_logs = n;
        }
    }
    // Orders after a `break` keep precision 0.0: my_log gives -9999999999 for each.
    for _ in n_logs..eff_order {
        add_my_log(&mut log_sum, 0.0);
    }
    Num::Py(bp * (log_sum.value() / eff_order as f64).exp())
}

/// SacreBLEU's `CHRF._compute_f_score` on numpy values.
fn chrf_compat(row: &[Num], o: &chrf::ChrfScoreOpts) -> Num {
    let eps = Num::Py(1e-16);
    let factor = Num::Py(o.factor);
    let one_plus = Num::Py(o.one_plus_factor);
    let mut score = Num::Py(0.0);
    let mut effective_order = 0usize;
    let (mut avg_prec, mut avg_rec) = (Num::Py(0.0), Num::Py(0.0));
    let order = o.order();
    for i in 0..order {
        let (n_hyp, n_ref, n_match) = (row[3 * i], row[3 * i + 1], row[3 * i + 2]);
        let prec = if n_hyp.value() > 0.0 {
            n_match / n_hyp
        } else {
            eps
        };
        let rec = if n_ref.value() > 0.0 {
            n_match / n_ref
        } else {
            eps
        };
        let denom = factor * prec + rec;
        score = score
            + if denom.value() > 0.0 {
                one_plus * prec * rec / denom
            } else {
                eps
            };
        if n_hyp.value() > 0.0 && n_ref.value() > 0.0 {
            avg_prec = avg_prec + prec;
            avg_rec = avg_rec + rec;
            effective_order += 1;
        }
    }
    if o.eps_smoothing {
        return Num::Py(100.0) * score / Num::Py(order as f64);
    }
    if effective_order == 0 {
        avg_prec = Num::Py(0.0);
        avg_rec = Num::Py(0.0);
    } else {
        avg_prec = avg_prec / Num::Py(effective_order as f64);
        avg_rec = avg_rec / Num::Py(effective_order as f64);
    }
    if (avg_prec + avg_rec).value() != 0.0 {
        let mut s = one_plus * avg_prec * avg_rec;
        s = s / ((factor * avg_prec) + avg_rec);
        Num::Py(100.0) * s
    } else {
        Num::Py(0.0)
    }
}

/// SacreBLEU's `TER._compute_score_from_stats` on numpy values.
fn ter_compat(total_edits: Num, sum_ref_lengths: Num) -> Num {
    let score = if sum_ref_lengths.value() > 0.0 {
        total_edits / sum_ref_lengths
    } else if total_edits.value() > 0.0 {
        Num::Py(1.0)
    } else {
        Num::Py(0.0)
    };
    Num::Py(100.0) * score
}
