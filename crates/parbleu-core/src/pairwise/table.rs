//! One pairwise table of any metric: the entry point the binding holds, whatever the metric.

use super::{NgramTable, TerTable};
use crate::error::{Error, Result};

/// A table of strings for BLEU, chrF (n-gram tables) or TER.
pub enum Table {
    Ngram(NgramTable),
    Ter(TerTable),
}

impl From<NgramTable> for Table {
    fn from(t: NgramTable) -> Self {
        Table::Ngram(t)
    }
}

impl From<TerTable> for Table {
    fn from(t: TerTable) -> Self {
        Table::Ter(t)
    }
}

impl Table {
    /// Number of strings.
    pub fn len(&self) -> usize {
        match self {
            Table::Ngram(t) => t.len(),
            Table::Ter(t) => t.len(),
        }
    }

    /// Whether the table holds no string.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Scores of hypotheses `rows` against references `cols`, row-major into `out`.
    pub fn score_rect(&self, rows: &[usize], cols: &[usize], out: &mut [f64], workers: usize) {
        match self {
            Table::Ngram(t) => t.score_rect(rows, cols, out, workers),
            Table::Ter(t) => t.score_rect(rows, cols, out, workers),
        }
    }

    /// The n-gram table, for the modes only n-gram metrics have (`what` names the mode in the
    /// error for TER).
    pub fn ngram(&self, what: &str) -> Result<&NgramTable> {
        match self {
            Table::Ngram(t) => Ok(t),
            Table::Ter(_) => Err(Error::InvalidOption {
                name: what.into(),
                value: "a TER table (not an n-gram metric)".into(),
                expected: "a BLEU or chrF table".into(),
            }),
        }
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
        TerTable::new(&cfg, &["a b".into(), "a c".into()], 1).into()
    }

    #[test]
    fn ter_table_dispatches_and_refuses_ngram_modes() {
        let t = ter_table();
        assert_eq!(t.len(), 2);
        let mut out = [0.0; 4];
        t.score_rect(&[0, 1], &[0, 1], &mut out, 1);
        assert_eq!(out, [0.0, 50.0, 50.0, 0.0]);
        let e = t.ngram("score_symmetric").err().unwrap().to_string();
        assert!(
            e.contains("score_symmetric") && e.contains("not an n-gram metric"),
            "{e}"
        );
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
