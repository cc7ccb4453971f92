//! Python's built-in `sum()` of floats and ints, as SacreBLEU's `compute_bleu` calls it
//! (`sum([my_log(p) for p in precisions])`, where `my_log(0)` is the int `-9999999999`).
//!
//! CPython 3.12 changed `sum()` of floats to Neumaier's compensated summation, so SacreBLEU's
//! BLEU differs in the last bits between Python <= 3.11 and >= 3.12. parbleu follows the
//! interpreter that hosts it: the binding calls [`set_compensated`] at import time; without it
//! (Rust users, `cargo test`) the plain summation of CPython <= 3.11 is used.

use std::sync::atomic::{AtomicBool, Ordering};

static COMPENSATED: AtomicBool = AtomicBool::new(false);

/// Sum floats as CPython >= 3.12 does (`true`) or as CPython <= 3.11 does (`false`).
pub fn set_compensated(on: bool) {
    COMPENSATED.store(on, Ordering::Relaxed);
}

/// Whether [`PySum`] uses CPython 3.12's compensated summation.
pub fn compensated() -> bool {
    COMPENSATED.load(Ordering::Relaxed)
}

/// The running state of one `sum(items)` (start value the int `0`), item by item as CPython's
/// `builtin_sum_impl`: an int fast path until the first float, then a float path in which floats
/// are added with compensation (3.12+) and ints are added as plain doubles.
#[derive(Debug, Clone, Copy)]
pub struct PySum {
    compensated: bool,
    /// Still on the int path (no float seen yet): the exact int sum.
    int: Option<i64>,
    f: f64,
    c: f64,
}

impl Default for PySum {
    fn default() -> Self {
        Self::new()
    }
}

impl PySum {
    /// An empty sum with the mode set by [`set_compensated`].
    pub fn new() -> Self {
        Self::with_mode(compensated())
    }

    /// An empty sum with an explicit mode.
    pub fn with_mode(compensated: bool) -> Self {
        Self {
            compensated,
            int: Some(0),
            f: 0.0,
            c: 0.0,
        }
    }

    /// Adds a Python int (small: SacreBLEU's `-9999999999`).
    pub fn add_int(&mut self, v: i64) {
        match &mut self.int {
            Some(i) => *i += v,
            // The float path adds ints without compensation, in every CPython version.
            None => self.f += v as f64,
        }
    }

    /// Adds a Python float.
    pub fn add_float(&mut self, x: f64) {
        if let Some(i) = self.int.take() {
            // `int + float` leaves the int path; compensation starts at 0 from that result.
            self.f = i as f64 + x;
            return;
        }
        let t = self.f + x;
        if self.compensated {
            // Neumaier's variant of Kahan summation, exactly as CPython 3.12's bltinmodule.c.
            if self.f.abs() >= x.abs() {
                self.c += (self.f - t) + x;
            } else {
                self.c += (x - t) + self.f;
            }
        }
        self.f = t;
    }

    /// The value `sum()` returns, as a double (an int result is exact below 2**53).
    pub fn value(&self) -> f64 {
        match self.int {
            Some(i) => i as f64,
            // CPython adds the compensation only when it is non-zero and finite (keeps -0.0
            // and does not turn an infinite sum into NaN).
            None if self.c != 0.0 && self.c.is_finite() => self.f + self.c,
            None => self.f,
        }
    }
}

/// SacreBLEU's `my_log` added to a running `sum()`: `log(0)` is the int `-9999999999`.
#[inline]
pub fn add_my_log(s: &mut PySum, x: f64) {
    if x == 0.0 {
        s.add_int(-9_999_999_999);
    } else {
        s.add_float(x.ln());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sum(mode: bool, items: &[Result<i64, f64>]) -> f64 {
        let mut s = PySum::with_mode(mode);
        for it in items {
            match *it {
                Ok(i) => s.add_int(i),
                Err(x) => s.add_float(x),
            }
        }
        s.value()
    }

    #[test]
    fn plain_and_compensated() {
        // Python 3.11: sum([1e16, 1.0, -1e16]) == 0.0; Python 3.12+: 1.0.
        let items = [Err(1e16), Err(1.0), Err(-1e16)];
        assert_eq!(sum(false, &items), 0.0);
        assert_eq!(sum(true, &items), 1.0);
        // Ints after the first float are not compensated (3.13: 9999970000328844.0).
        let items = [
            Err(4.341141074231139e-05),
            Err(1e16),
            Ok(-9_999_999_999),
            Ok(-9_999_999_999),
            Ok(-9_999_999_999),
            Err(328843.89911773877),
        ];
        assert_eq!(sum(true, &items), 9999970000328844.0);
        // Only ints: an exact int.
        assert_eq!(
            sum(true, &[Ok(-9_999_999_999), Ok(-9_999_999_999)]),
            -19_999_999_998.0
        );
        // The int start 0 turns -0.0 into 0.0; an infinite sum stays infinite (not NaN).
        assert!(sum(true, &[Err(-0.0), Err(-0.0)]).is_sign_positive());
        assert_eq!(
            sum(true, &[Err(1e308), Err(1e308), Err(-1.0)]),
            f64::INFINITY
        );
    }
}
