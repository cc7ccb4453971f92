//! The number types statistics are held in, for the one finalize of each metric.

/// A statistics value: an integer count (`i64` rows, `u32` pair tables, `u64`) or a float sum
/// (`f64`: TER, reference aggregation). Every finalize converts each value to `f64` first and
/// then computes in `f64` only, so a count gives the same bits whatever type held it.
pub trait Count: Copy {
    fn to_f64(self) -> f64;
}

impl Count for i64 {
    #[inline]
    fn to_f64(self) -> f64 {
        self as f64
    }
}

impl Count for u64 {
    #[inline]
    fn to_f64(self) -> f64 {
        self as f64
    }
}

impl Count for u32 {
    #[inline]
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

impl Count for f64 {
    #[inline]
    fn to_f64(self) -> f64 {
        self
    }
}

impl Count for i32 {
    #[inline]
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}
