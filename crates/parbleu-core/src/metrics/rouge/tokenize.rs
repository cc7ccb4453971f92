//! ROUGE's tokenizers: rouge-score 0.1.2's `tokenize.tokenize` (`default`), and parbleu's
//! `unicode` and `none` options.

use super::porter;
use super::tables::{SOLO_RANGES, WORD_RANGES};
use crate::text::ranges::in_ranges;
use crate::text::{py_lower, py_split};
use crate::{Error, Result};
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// Which tokenizer: see `parbleu.flavors.rouge_score.engine` for the contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// rouge-score's: `str.lower()`, `[^a-z0-9]+` -> space, keep `^[a-z0-9]+$`.
    Default,
    /// Letters, marks and numbers of every script; CJK ideographs and kana one per token.
    Unicode,
    /// Pre-tokenized: Python's `str.split()`, nothing else.
    None,
}

impl Kind {
    /// The option names, in the order of the variants.
    pub const NAMES: [&'static str; 3] = ["default", "unicode", "none"];

    /// The tokenizer called `name`.
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "default" => Ok(Kind::Default),
            "unicode" => Ok(Kind::Unicode),
            "none" => Ok(Kind::None),
            _ => Err(Error::InvalidOption {
                name: "tokenizer".into(),
                value: format!("{name:?}"),
                expected: "one of 'default', 'unicode', 'none'".into(),
            }),
        }
    }
}

/// rouge-score's tokenizer with its stemming option (the core's other `Tokenizer` is
/// SacreBLEU's, `crate::tokenize`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RougeTokenizer {
    pub kind: Kind,
    pub stem: bool,
}

/// A letter, mark or number (general category L*, M*, N*, Unicode 14.0).
#[inline]
pub fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    in_ranges(WORD_RANGES, c as u32)
}

fn is_solo(c: char) -> bool {
    !c.is_ascii() && in_ranges(SOLO_RANGES, c as u32)
}

/// Most distinct stems a thread keeps before it starts over (bounds the memory).
const STEM_CACHE_MAX: usize = 1 << 20;

thread_local! {
    static STEMS: RefCell<FxHashMap<String, String>> = RefCell::new(FxHashMap::default());
}

/// rouge-score's `stemmer.stem(x) if len(x) > 3 else x`, for an `[a-z0-9]+` token.
fn stem_token(tok: String) -> String {
    if tok.len() <= 3 {
        return tok;
    }
    STEMS.with(|cell| {
        let mut cache = cell.borrow_mut();
        if let Some(s) = cache.get(&tok) {
            return s.clone();
        }
        let s = porter::stem(&tok);
        if cache.len() >= STEM_CACHE_MAX {
            cache.clear();
        }
        cache.insert(tok, s.clone());
        s
    })
}

fn is_ascii_token(t: &str) -> bool {
    !t.is_empty()
        && t.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

impl RougeTokenizer {
    /// Append the tokens of `text` to `out`.
    pub fn tokenize_into(&self, text: &str, out: &mut Vec<String>) {
        self.raw_tokens(text, &mut |raw| {
            let tok = self.maybe_stem(raw.to_owned());
            // rouge-score's final `VALID_TOKEN_RE` check: the stem of an `[a-z0-9]+` word is
            // again one (NLTK only moves ASCII letters), so only an empty string is dropped.
            if !tok.is_empty() {
                out.push(tok);
            }
        });
    }

    /// The tokens of `text`.
    pub fn tokenize(&self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.tokenize_into(text, &mut out);
        out
    }

    /// Whether the token `raw` is stemmed: with the stemmer, an `[a-z0-9]+` token longer than
    /// 3 characters (rouge-score's `len(x) > 3`; every default token is `[a-z0-9]+`).
    #[inline]
    pub fn stems(&self, raw: &str) -> bool {
        self.stem && raw.len() > 3 && is_ascii_token(raw)
    }

    fn maybe_stem(&self, t: String) -> String {
        if self.stems(&t) {
            stem_token(t)
        } else {
            t
        }
    }

    /// Call `f` with each token of `text` before stemming.
    pub fn raw_tokens(&self, text: &str, f: &mut impl FnMut(&str)) {
        match self.kind {
            Kind::Default => default_raw(text, f),
            Kind::Unicode => unicode_raw(text, f),
            Kind::None => py_split(text).for_each(f),
        }
    }
}

fn default_raw(text: &str, f: &mut impl FnMut(&str)) {
    // `str.lower()` can turn non-ASCII into ASCII (KELVIN SIGN -> 'k', 'İ' -> 'i' + U+0307).
    let lower = if text.is_ascii() {
        text.to_ascii_lowercase()
    } else {
        py_lower(text)
    };
    let b = lower.as_bytes();
    let keep = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    let mut i = 0;
    while i < b.len() {
        if !keep(b[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && keep(b[i]) {
            i += 1;
        }
        f(&lower[start..i]);
    }
}

fn unicode_raw(text: &str, f: &mut impl FnMut(&str)) {
    let lower = py_lower(text);
    let mut cur = String::new();
    let flush = |cur: &mut String, f: &mut dyn FnMut(&str)| {
        if !cur.is_empty() {
            f(cur);
            cur.clear();
        }
    };
    let mut buf = [0u8; 4];
    for c in lower.chars() {
        if !is_word_char(c) {
            flush(&mut cur, f);
        } else if is_solo(c) {
            flush(&mut cur, f);
            f(c.encode_utf8(&mut buf));
        } else {
            cur.push(c);
        }
    }
    flush(&mut cur, f);
}

/// Word characters (letters, marks, numbers) rouge-score's default tokenizer keeps and drops.
pub fn discarded(text: &str) -> (u64, u64) {
    let (mut kept, mut dropped) = (0u64, 0u64);
    let mut buf = [0u8; 4];
    for c in text.chars() {
        if !is_word_char(c) {
            continue;
        }
        let keeps = c.is_ascii_alphanumeric()
            || py_lower(c.encode_utf8(&mut buf))
                .bytes()
                .any(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        if keeps {
            kept += 1;
        } else {
            dropped += 1;
        }
    }
    (kept, dropped)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(kind: Kind, stem: bool, s: &str) -> Vec<String> {
        RougeTokenizer { kind, stem }.tokenize(s)
    }

    #[test]
    fn default_is_rouge_score() {
        assert_eq!(
            toks(Kind::Default, false, "Hello, World!  x-1"),
            ["hello", "world", "x", "1"]
        );
        assert_eq!(
            toks(Kind::Default, true, "The cats are running"),
            ["the", "cat", "are", "run"]
        );
        assert_eq!(
            toks(Kind::Default, false, "\u{212a}elvin \u{130}z ženy"),
            ["kelvin", "i", "z", "eny"]
        );
        assert!(toks(Kind::Default, false, "中文 русский").is_empty());
    }

    #[test]
    fn unicode_keeps_scripts() {
        assert_eq!(
            toks(Kind::Unicode, true, "Ženy running, 中文!"),
            ["ženy", "run", "中", "文"]
        );
        assert_eq!(toks(Kind::Unicode, false, "नमस्ते दुनिया"), ["नमस्ते", "दुनिया"]);
    }

    #[test]
    fn none_splits_on_whitespace() {
        assert_eq!(
            toks(Kind::None, false, " A,b  c\u{1f}d "),
            ["A,b", "c", "d"]
        );
    }

    #[test]
    fn discard_counts() {
        assert_eq!(discarded("ab 中文, é1"), (3, 3));
    }
}
