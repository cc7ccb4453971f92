//! One error type for the core, with data the binding maps to typed Python exceptions.

use std::fmt;

/// Everything the core can refuse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// An option has a value outside its domain (`name`, the value given, what is allowed).
    InvalidOption {
        name: String,
        value: String,
        expected: String,
    },
    /// Two parallel inputs differ in length.
    LengthMismatch {
        what: String,
        expected: usize,
        found: usize,
    },
    /// Statistics rows have the wrong width for the metric's options.
    BadStatsShape { expected: usize, found: usize },
}

pub type Result<T> = std::result::Result<T, Error>;

/// Highest n-gram order any entry point takes (BLEU, chrF, the flavors). A statistics row has
/// a column per order, so the order sizes allocations: it is checked before any is made.
pub const MAX_ORDER: usize = 100;

/// `Ok(n)` for an n-gram order `0..=MAX_ORDER`, else [`Error::InvalidOption`] naming `name`.
pub fn check_order(name: &str, n: u64) -> Result<usize> {
    match usize::try_from(n) {
        Ok(v) if v <= MAX_ORDER => Ok(v),
        _ => Err(Error::InvalidOption {
            name: name.into(),
            value: n.to_string(),
            expected: format!("an integer from 0 to {MAX_ORDER}"),
        }),
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidOption {
                name,
                value,
                expected,
            } => {
                write!(f, "invalid value {value} for {name}: expected {expected}")
            }
            Error::LengthMismatch {
                what,
                expected,
                found,
            } => {
                write!(f, "{what}: expected {expected} items, found {found}")
            }
            Error::BadStatsShape { expected, found } => {
                write!(
                    f,
                    "statistics rows must have {expected} columns, found {found}"
                )
            }
        }
    }
}

impl std::error::Error for Error {}
