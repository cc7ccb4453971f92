//! SacreBLEU's tokenizers, exact to the character.
//!
//! Each tokenizer maps one (already `rstrip`ped, optionally lowercased) line to a string whose
//! tokens are separated by whitespace; the metrics split it with Python's `str.split()` rules.

pub mod char;
pub mod intl;
pub mod lower;
pub mod none;
pub mod t13a;
pub mod zh;

use crate::error::{Error, Result};
use crate::text::{py_lower, py_rstrip};

/// The tokenizers implemented in Rust (MeCab-based ones live on the Python side).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tokenizer {
    None,
    T13a,
    Intl,
    Char,
    Zh,
}

impl Tokenizer {
    /// Names accepted by [`Tokenizer::from_name`], as SacreBLEU spells them.
    pub const NAMES: [&'static str; 5] = ["none", "13a", "intl", "char", "zh"];

    /// Look a tokenizer up by its SacreBLEU name.
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "none" => Ok(Tokenizer::None),
            "13a" => Ok(Tokenizer::T13a),
            "intl" => Ok(Tokenizer::Intl),
            "char" => Ok(Tokenizer::Char),
            "zh" => Ok(Tokenizer::Zh),
            _ => Err(Error::InvalidOption {
                name: "tokenize".into(),
                value: format!("{name:?}"),
                expected: format!("one of {}", Self::NAMES.join(", ")),
            }),
        }
    }

    /// The name shown in signatures (`tok:13a`).
    pub fn signature(self) -> &'static str {
        match self {
            Tokenizer::None => "none",
            Tokenizer::T13a => "13a",
            Tokenizer::Intl => "intl",
            Tokenizer::Char => "char",
            Tokenizer::Zh => "zh",
        }
    }

    /// Tokenize one line exactly as SacreBLEU's tokenizer object's `__call__` does.
    pub fn tokenize(self, line: &str) -> String {
        match self {
            Tokenizer::None => none::tokenize(line),
            Tokenizer::T13a => t13a::tokenize(line),
            Tokenizer::Intl => intl::tokenize(line),
            Tokenizer::Char => char::tokenize(line),
            Tokenizer::Zh => zh::tokenize(line),
        }
    }

    /// SacreBLEU's BLEU `_preprocess_segment`: optional `lower()`, then `rstrip()`, then tokenize.
    pub fn preprocess(self, line: &str, lowercase: bool) -> String {
        if lowercase {
            let low = py_lower(line);
            self.tokenize(py_rstrip(&low))
        } else {
            self.tokenize(py_rstrip(line))
        }
    }
}
