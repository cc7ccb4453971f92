//! chrF's finalize with SacreBLEU's numpy arithmetic (its significance code's numbers).

use super::score::ChrfScoreOpts;
use crate::metrics::sacrebleu_compat::Num;

/// SacreBLEU's `CHRF._compute_f_score` on numpy values.
pub(crate) fn compat(row: &[Num], o: &ChrfScoreOpts) -> Num {
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
