//! The one list of pairwise kinds: [`Table`] (a pair table of any kind) and [`PairOptions`]
//! (the options of any kind), generated from the list at the bottom of this file. Each kind's
//! behaviour is its [`PairMetric`] implementation; a mode a kind does not declare is refused
//! here, by its declaration.

use super::metric::{undeclared, PairMetric, PairModes};
use super::ngram::{BleuPairs, ChrfPairs, NgramTable};
use super::rouge::RougeTable;
use super::ter::TerTable;
use crate::error::{Error, Result};
use std::ops::Range;

macro_rules! pair_kinds {
    ($($(#[$doc:meta])* $kind:ident($table:ty),)*) => {
        /// The options of one pairwise kind.
        pub enum PairOptions {
            $($(#[$doc])* $kind(<$table as PairMetric>::Opts),)*
        }

        /// A pair table of one kind.
        pub enum Table {
            $($(#[$doc])* $kind($table),)*
        }

        $(impl From<$table> for Table {
            fn from(t: $table) -> Self {
                Table::$kind(t)
            }
        })*

        impl Table {
            /// The table of `strings` built with `opts` (its kind's).
            pub fn build(opts: &PairOptions, strings: &[String], workers: usize) -> Self {
                match opts {
                    $(PairOptions::$kind(o) => {
                        Table::$kind(<$table as PairMetric>::build(o, strings, workers))
                    })*
                }
            }

            /// The metric's name.
            pub fn name(&self) -> &'static str {
                match self {
                    $(Table::$kind(_) => <$table as PairMetric>::NAME,)*
                }
            }

            /// The modes the kind declares.
            pub fn modes(&self) -> PairModes {
                match self {
                    $(Table::$kind(_) => <$table as PairMetric>::MODES,)*
                }
            }

            /// Number of strings.
            pub fn len(&self) -> usize {
                match self {
                    $(Table::$kind(t) => t.len(),)*
                }
            }

            /// Scores of hypotheses `rows` against references `cols`, row-major into `out`.
            pub fn score_rect(
                &self,
                rows: &[usize],
                cols: &[usize],
                out: &mut [f64],
                workers: usize,
            ) {
                match self {
                    $(Table::$kind(t) => PairMetric::score_rect(t, rows, cols, out, workers),)*
                }
            }

            /// See [`PairMetric::score_symmetric`]; an error for a kind that does not declare
            /// it.
            pub fn score_symmetric(
                &self,
                rows: Range<usize>,
                out: &mut [f64],
                workers: usize,
            ) -> Result<()> {
                self.declares("score_symmetric", |m| m.symmetric)?;
                match self {
                    $(Table::$kind(t) => PairMetric::score_symmetric(t, rows, out, workers),)*
                }
            }

            /// See [`PairMetric::score_aggregate`]; an error for a kind that does not declare
            /// it.
            pub fn score_aggregate(
                &self,
                rows: &[usize],
                cols: &[usize],
                weights: &[f64],
                out: &mut [f64],
                workers: usize,
            ) -> Result<()> {
                self.declares("score_aggregate", |m| m.aggregate)?;
                match self {
                    $(Table::$kind(t) => {
                        PairMetric::score_aggregate(t, rows, cols, weights, out, workers)
                    })*
                }
            }

            /// `Ok` if this table's kind declares `mode` (`"score_symmetric"`,
            /// `"score_aggregate"`; any other mode is every kind's), else the error naming the
            /// kinds that do.
            pub fn check_mode(&self, mode: &str) -> Result<()> {
                match mode {
                    "score_symmetric" => self.declares(mode, |m| m.symmetric),
                    "score_aggregate" => self.declares(mode, |m| m.aggregate),
                    _ => Ok(()),
                }
            }

            fn declares(&self, mode: &str, has: fn(PairModes) -> bool) -> Result<()> {
                if has(self.modes()) {
                    return Ok(());
                }
                let kinds: Vec<&str> = [$((<$table as PairMetric>::NAME, <$table as PairMetric>::MODES),)*]
                    .into_iter()
                    .filter(|&(_, m)| has(m))
                    .map(|(n, _)| n)
                    .collect();
                Err(undeclared(self.name(), mode, &format!("a {} table", kinds.join(" or "))))
            }
        }
    };
}

pair_kinds! {
    /// Sentence BLEU per pair (n-grams interned once).
    Bleu(NgramTable<BleuPairs>),
    /// Sentence chrF / chrF++ per pair (n-grams interned once).
    Chrf(NgramTable<ChrfPairs>),
    /// TER per pair (strings tokenized once; every pair runs the edit search).
    Ter(TerTable),
    /// One rouge type's precision, recall or F-measure per pair (strings tokenized once).
    Rouge(RougeTable),
}

impl Table {
    /// Whether the table holds no string.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `a..b` as a range of strings of this table, else an error naming `what`.
    pub fn check_range(&self, what: &str, a: usize, b: usize) -> Result<()> {
        let n = self.len();
        if a > b || b > n {
            return Err(Error::InvalidOption {
                name: what.into(),
                value: format!("{a}..{b}"),
                expected: format!("a range inside 0..{n}"),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::ter::TercomOpts;

    fn ter_table() -> Table {
        let cfg = TercomOpts {
            normalized: false,
            no_punct: false,
            asian_support: false,
            case_sensitive: true,
        };
        Table::build(&PairOptions::Ter(cfg), &["a b".into(), "a c".into()], 1)
    }

    #[test]
    fn ter_table_dispatches_and_refuses_undeclared_modes() {
        let t = ter_table();
        assert_eq!((t.len(), t.name(), t.modes()), (2, "TER", PairModes::RECT));
        let mut out = [0.0; 4];
        t.score_rect(&[0, 1], &[0, 1], &mut out, 1);
        assert_eq!(out, [0.0, 50.0, 50.0, 0.0]);
        let e = t
            .score_symmetric(0..1, &mut out, 1)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("score_symmetric") && e.contains("not declared by TER"),
            "{e}"
        );
        assert!(e.contains("a BLEU or chrF table"), "{e}");
        let e = t
            .score_aggregate(&[0], &[1], &[1.0], &mut out[..1], 1)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("score_aggregate"), "{e}");
        assert!(t.check_mode("score_aggregate").is_err());
        assert!(t.check_mode("score_rect").is_ok());
    }

    #[test]
    fn ranges_outside_the_table_are_refused() {
        let t = ter_table();
        assert!(t.check_range("rows", 0, 2).is_ok());
        assert!(t.check_range("rows", 1, 1).is_ok());
        assert!(t.check_range("rows", 2, 1).is_err());
        assert!(t.check_range("columns", 0, 3).is_err());
    }
}
