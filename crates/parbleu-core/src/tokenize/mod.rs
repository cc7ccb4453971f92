//! SacreBLEU's tokenizers, exact to the character.
//!
//! Each tokenizer maps one (already `rstrip`ped, optionally lowercased) line to a string whose
//! tokens are separated by whitespace; the metrics split it with Python's `str.split()` rules.

mod bytes16;
pub mod char;
pub mod intl;
pub mod none;
pub mod ptb;
pub mod t13a;
#[cfg(test)]
pub(crate) mod testing;
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
    /// Every tokenizer, in the order of [`Tokenizer::NAMES`] (SacreBLEU's `BLEU.TOKENIZERS`
    /// order, which the CLI's `-tok` choices and the docs show).
    pub const ALL: [Tokenizer; 5] = [
        Tokenizer::None,
        Tokenizer::Zh,
        Tokenizer::T13a,
        Tokenizer::Intl,
        Tokenizer::Char,
    ];

    /// Names accepted by [`Tokenizer::from_name`], as SacreBLEU spells them: the one list of
    /// core tokenizer names (the binding exposes it as `_core.TOKENIZERS`).
    pub const NAMES: [&'static str; 5] = {
        let mut names = [""; 5];
        let mut i = 0;
        while i < names.len() {
            names[i] = Self::ALL[i].signature();
            i += 1;
        }
        names
    };

    /// Look a tokenizer up by its SacreBLEU name.
    pub fn from_name(name: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|t| t.signature() == name)
            .ok_or_else(|| Error::InvalidOption {
                name: "tokenize".into(),
                value: format!("{name:?}"),
                expected: format!("one of {}", Self::NAMES.join(", ")),
            })
    }

    /// The name shown in signatures (`tok:13a`).
    pub const fn signature(self) -> &'static str {
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

    /// [`Tokenizer::tokenize`] into `out`, replacing its contents and reusing its allocation
    /// (no allocation per line once `out` is large enough).
    pub fn tokenize_into(self, line: &str, out: &mut String) {
        match self {
            Tokenizer::None => none::tokenize_into(line, out),
            Tokenizer::T13a => t13a::tokenize_into(line, out),
            Tokenizer::Intl => intl::tokenize_into(line, out),
            Tokenizer::Char => char::tokenize_into(line, out),
            Tokenizer::Zh => zh::tokenize_into(line, out),
        }
    }

    /// Whether the output is `' '.join(tokens)` with no whitespace inside tokens, so that
    /// Python's `str.split()` of it is a plain split on `' '`.
    pub fn joins_with_single_spaces(self) -> bool {
        matches!(self, Tokenizer::T13a | Tokenizer::Intl | Tokenizer::Zh)
    }

    /// Split this tokenizer's output into tokens (Python's `str.split()` semantics).
    pub fn split_output(self, out: &str) -> Vec<&str> {
        if self.joins_with_single_spaces() {
            split_single_spaces(out)
        } else {
            crate::text::py_split(out).collect()
        }
    }

    /// [`Tokenizer::split_output`] as an iterator (no token list is built).
    pub fn tokens(self, out: &str) -> Tokens<'_> {
        if self.joins_with_single_spaces() {
            Tokens::Single(SpaceTokens::new(out))
        } else {
            Tokens::Python(crate::text::py_split(out))
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

    /// [`Tokenizer::preprocess`] into `out`, replacing its contents and reusing its allocation
    /// (lowercasing still allocates the lowercased line).
    pub fn preprocess_into(self, line: &str, lowercase: bool, out: &mut String) {
        if lowercase {
            let low = py_lower(line);
            self.tokenize_into(py_rstrip(&low), out);
        } else {
            self.tokenize_into(py_rstrip(line), out);
        }
    }
}

/// Tokens of a tokenizer's output, see [`Tokenizer::tokens`].
pub enum Tokens<'a> {
    /// The tokens of `' '.join(tokens)`.
    Single(SpaceTokens<'a>),
    Python(crate::text::PySplit<'a>),
}

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        match self {
            Tokens::Single(s) => s.next(),
            Tokens::Python(s) => s.next(),
        }
    }
}

/// The pieces of `s.split(' ')`, except that `""` has none: the tokens of `' '.join(tokens)`.
///
/// Finds the spaces 16 bytes at a time: a byte loop costs a compare and a branch per byte,
/// and natural text has a space every 6 bytes or so.
#[derive(Clone, Debug)]
pub struct SpaceTokens<'a> {
    s: &'a str,
    /// Start of the next token; past the end when there is none.
    start: usize,
    /// The spaces at or after `start` among the 16 bytes at `base` (bit `k` for `s[base + k]`).
    mask: u32,
    base: usize,
    /// Where the next 16 bytes to look at start.
    next: usize,
}

impl<'a> SpaceTokens<'a> {
    pub fn new(s: &'a str) -> Self {
        SpaceTokens {
            s,
            start: usize::from(s.is_empty()),
            mask: 0,
            base: 0,
            next: 0,
        }
    }
}

impl<'a> Iterator for SpaceTokens<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        loop {
            if self.mask != 0 {
                let k = self.base + self.mask.trailing_zeros() as usize;
                self.mask &= self.mask - 1;
                let tok = &self.s[self.start..k];
                self.start = k + 1;
                return Some(tok);
            }
            let b = self.s.as_bytes();
            if self.next >= b.len() {
                if self.start > b.len() {
                    return None;
                }
                let tok = &self.s[self.start..];
                self.start = b.len() + 1;
                return Some(tok);
            }
            let (w, drop) = bytes16::block16(b, self.next);
            self.mask = bytes16::eq16(w, b' ') >> drop;
            self.base = self.next;
            self.next += 16;
        }
    }
}

/// Split `' '.join(tokens)` back into tokens.
fn split_single_spaces(s: &str) -> Vec<&str> {
    let mut out = Vec::with_capacity(s.len() / 5 + 1);
    out.extend(SpaceTokens::new(s));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_output_equals_python_split() {
        for line in ["", "a", "a b  c", " x, y. 1.5 - Σ ", "tab\there\u{3000}x"] {
            for tok in [
                Tokenizer::T13a,
                Tokenizer::Intl,
                Tokenizer::Zh,
                Tokenizer::Char,
                Tokenizer::None,
            ] {
                let out = tok.tokenize(line);
                let want: Vec<&str> = crate::text::py_split(&out).collect();
                assert_eq!(tok.split_output(&out), want, "{tok:?} {line:?}");
                assert_eq!(
                    tok.tokens(&out).collect::<Vec<_>>(),
                    want,
                    "{tok:?} {line:?}"
                );
            }
        }
    }

    #[test]
    fn into_variants_equal_allocating_ones() {
        // `out` starts dirty and shrinks and grows between lines: nothing of it may survive.
        let lines = [
            "Hello, world! 3.14 and 1,000 «Ja»—sagte er… 中文。",
            "",
            "a &amp; b<skipped>-\nc",
            "  ÄÖÜ ẞ İstanbul ΣΑΣ.  ",
            "x",
        ];
        for tok in Tokenizer::NAMES.map(|n| Tokenizer::from_name(n).unwrap()) {
            let mut out = String::from("left over");
            for lowercase in [false, true] {
                for line in lines {
                    tok.tokenize_into(line, &mut out);
                    assert_eq!(out, tok.tokenize(line), "{tok:?} {line:?}");
                    tok.preprocess_into(line, lowercase, &mut out);
                    assert_eq!(out, tok.preprocess(line, lowercase), "{tok:?} {line:?}");
                }
            }
        }
    }

    /// What `SpaceTokens` must give: `s.split(' ')`, nothing for `""`.
    fn split_reference(s: &str) -> Vec<&str> {
        if s.is_empty() {
            vec![]
        } else {
            s.split(' ').collect()
        }
    }

    #[test]
    fn space_tokens_at_every_offset() {
        // Spaces at every position of lines of every length around the 8-byte words.
        for len in 0..26 {
            for bits in [
                0u32,
                1,
                0x5555_5555,
                0xaaaa_aaaa,
                0xffff_ffff,
                0x0101_0101,
                0x8000_0001,
            ] {
                for rot in 0..8 {
                    let s: String = (0..len)
                        .map(|i| {
                            if bits.rotate_left(rot) >> (i % 32) & 1 == 1 {
                                ' '
                            } else {
                                'x'
                            }
                        })
                        .collect();
                    let got: Vec<&str> = SpaceTokens::new(&s).collect();
                    assert_eq!(got, split_reference(&s), "{s:?}");
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn space_tokens_is_split_on_space(s in "[a ,é中\\u{3000}.]{0,40}") {
            let got: Vec<&str> = SpaceTokens::new(&s).collect();
            proptest::prop_assert_eq!(got, split_reference(&s));
        }
    }
}
