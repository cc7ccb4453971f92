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
