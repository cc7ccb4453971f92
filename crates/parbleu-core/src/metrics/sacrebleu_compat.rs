//! SacreBLEU's numpy arithmetic: the numbers its significance code computes with, on float32
//! resample sums and int64 / float64 AR rows. Each metric SacreBLEU has computes its finalize
//! with them in its own module (`bleu/compat.rs`, `chrf/compat.rs`, `ter.rs`).

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
