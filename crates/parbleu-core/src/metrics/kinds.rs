//! The one list of metric kinds that resample: [`Scorer`], a metric's finalize step with its
//! options, generated from the list at the bottom of this file. Significance, the row dispatch
//! and the binding are generic over it; each kind's behaviour is its [`Metric`] implementation.

use crate::error::Result;
use crate::metrics::count::Count;
use crate::metrics::metric::Metric;
use crate::metrics::sacrebleu_compat::Num;
use crate::metrics::{bleu, chrf, mean, ter};

/// `Scorer`, one variant per listed kind, dispatching to the kinds' [`Metric`] methods.
macro_rules! metric_kinds {
    ($($(#[$doc:meta])* $kind:ident($opts:ty),)*) => {
        /// The finalize step of one metric, with its options.
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub enum Scorer {
            $($(#[$doc])* $kind($opts),)*
        }

        $(impl From<$opts> for Scorer {
            fn from(o: $opts) -> Self {
                Scorer::$kind(o)
            }
        })*

        impl Scorer {
            /// Width of a statistics row.
            pub fn width(&self) -> usize {
                match self {
                    $(Scorer::$kind(o) => o.width(),)*
                }
            }

            /// Refuse options no score can be computed with.
            pub fn check(&self) -> Result<()> {
                match self {
                    $(Scorer::$kind(o) => o.check(),)*
                }
            }

            /// Whether rows are `f64` rather than `i64`.
            pub fn float_rows(&self) -> bool {
                match self {
                    $(Scorer::$kind(_) => <$opts as Metric>::FLOAT_ROWS,)*
                }
            }

            /// The exact score of a summed row: the metric's own finalize, for integer rows
            /// and float rows alike.
            #[inline]
            pub fn exact<T: Count>(&self, row: &[T]) -> f64 {
                match self {
                    $(Scorer::$kind(o) => o.finalize(row),)*
                }
            }

            /// SacreBLEU's `_compute_score_from_stats(row).score`, with the row's elements
            /// typed as SacreBLEU holds them: `Num::F32` for a summed float32 bootstrap
            /// resample, `Num::Py` for the int64 / float64 rows of approximate randomization.
            /// `int_storage`: the row is an int64 numpy array, so BLEU's in-place add-k
            /// truncates `count + k` to an integer.
            pub fn compat(&self, row: &[Num], int_storage: bool) -> Num {
                match self {
                    $(Scorer::$kind(o) => o.compat(row, int_storage),)*
                }
            }
        }
    };
}

metric_kinds! {
    Bleu(bleu::BleuScoreOpts),
    Chrf(chrf::ChrfScoreOpts),
    Ter(ter::TerScore),
    /// The mean of one score column of float rows ending in a count column of 1.0 (ROUGE,
    /// CIDEr-D, COCO's ROUGE-L).
    Mean(mean::MeanOpts),
}
