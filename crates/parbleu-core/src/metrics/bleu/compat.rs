//! BLEU's finalize with SacreBLEU's numpy arithmetic (its significance code's numbers).

use super::score::{BleuScoreOpts, Smooth};
use crate::metrics::sacrebleu_compat::Num;
use crate::pysum::{add_my_log, PySum};

/// SacreBLEU's `BLEU.compute_bleu` on numpy values (`correct` and `total` are slices of the
/// numpy row, so add-k updates them in place with the row's dtype).
pub(crate) fn compat(row: &[Num], o: &BleuScoreOpts, int_storage: bool) -> Num {
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
        if let Smooth::AddK(k) = o.smooth {
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
                Smooth::Exp => {
                    smooth_mteval = smooth_mteval * Num::Py(2.0);
                    hundred / (smooth_mteval * t)
                }
                Smooth::Floor(v) => Num::Py(100.0 * v) / t,
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
