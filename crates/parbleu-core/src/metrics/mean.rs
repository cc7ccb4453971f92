//! Metrics whose corpus score is the mean of segment scores (ROUGE; CIDEr-D per image, with
//! document frequencies fixed from the whole set; COCO's ROUGE-L).
//!
//! A segment's row is its score columns followed by a count column of `1.0`, so the rows stay
//! additive: a summed row holds the sum of each score column and the number of segments, and
//! the corpus score of any resample is `scale * sum / count`.

use crate::error::{Error, Result};
use crate::metrics::count::Count;

/// Which column of a mean row is scored, and how.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeanOpts {
    /// Row width, the count column (the last) included.
    pub width: usize,
    /// The score column to average (`< width - 1`).
    pub column: usize,
    /// Factor applied to the sum before dividing by the count (100 for a percentage).
    pub scale: f64,
}

impl MeanOpts {
    /// The count column: the last.
    #[inline]
    pub fn count_column(&self) -> usize {
        self.width - 1
    }

    /// Refuse a row without a count column, a column outside the score columns, or a scale
    /// that is not a finite number.
    pub fn check(&self) -> Result<()> {
        if self.width < 2 {
            return Err(Error::InvalidOption {
                name: "width".into(),
                value: self.width.to_string(),
                expected: "an integer >= 2 (score columns and the count column)".into(),
            });
        }
        if self.column >= self.count_column() {
            return Err(Error::InvalidOption {
                name: "column".into(),
                value: self.column.to_string(),
                expected: format!(
                    "a score column in 0..{} (column {} is the count)",
                    self.count_column(),
                    self.count_column()
                ),
            });
        }
        if !self.scale.is_finite() {
            return Err(Error::InvalidOption {
                name: "scale".into(),
                value: self.scale.to_string(),
                expected: "a finite number".into(),
            });
        }
        Ok(())
    }

    /// `scale * row[column] / row[count]`: the mean of the column over the summed segments.
    #[inline]
    pub fn finalize<T: Count>(&self, row: &[T]) -> f64 {
        self.scale * row[self.column].to_f64() / row[self.count_column()].to_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(width: usize, column: usize, scale: f64) -> MeanOpts {
        MeanOpts {
            width,
            column,
            scale,
        }
    }

    #[test]
    fn finalize_is_scaled_sum_over_count() {
        // Three segments with scores 0.25, 0.5, 1.0 in column 1.
        let row = [9.0, 1.75, 3.0];
        assert_eq!(opts(3, 1, 1.0).finalize(&row), 1.75 / 3.0);
        assert_eq!(opts(3, 1, 100.0).finalize(&row), 100.0 * 1.75 / 3.0);
        assert_eq!(opts(3, 0, 1.0).finalize(&row), 3.0);
    }

    #[test]
    fn check_names_the_bad_option() {
        assert!(opts(3, 1, 1.0).check().is_ok());
        for (o, name) in [
            (opts(1, 0, 1.0), "width"),
            (opts(3, 2, 1.0), "column"),
            (opts(3, 5, 1.0), "column"),
            (opts(3, 0, f64::NAN), "scale"),
            (opts(3, 0, f64::INFINITY), "scale"),
        ] {
            match o.check() {
                Err(Error::InvalidOption { name: n, .. }) => assert_eq!(n, name),
                other => panic!("{o:?}: {other:?}"),
            }
        }
    }
}
