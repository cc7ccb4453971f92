//! SacreBLEU's `TercomTokenizer` (a port of Tercom's `Normalizer.java`), character for
//! character.
//!
//! SacreBLEU implements it with a sequence of `re.sub` calls. Every pattern is either a
//! literal, a one-character class, or a two-character sequence of classes, so each is
//! emulated by a left-to-right scan with Python's "leftmost, non-overlapping" rule. Two
//! patterns can never match and are documented as such below.

use crate::text::{push_isolated, py_lower, py_rstrip, py_split};

/// Options of `TercomTokenizer`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TercomOpts {
    pub normalized: bool,
    pub no_punct: bool,
    pub asian_support: bool,
    pub case_sensitive: bool,
}

/// `TER._preprocess_segment`: `TercomTokenizer(...)(line.rstrip())`.
pub fn preprocess(line: &str, o: &TercomOpts) -> String {
    tokenize(py_rstrip(line), o)
}

/// `TercomTokenizer.__call__`.
pub fn tokenize(sent: &str, o: &TercomOpts) -> String {
    if sent.is_empty() {
        return String::new();
    }
    let mut s = if o.case_sensitive {
        sent.to_owned()
    } else {
        py_lower(sent)
    };
    if o.normalized {
        s = normalize_general_and_western(&s);
        if o.asian_support {
            s = normalize_asian(&s);
        }
    }
    if o.no_punct {
        s.retain(|c| !matches!(c, '.' | ',' | '?' | ':' | ';' | '!' | '"' | '(' | ')'));
        if o.asian_support {
            s.retain(|c| !is_asian_punct(c) && !is_full_width_punct(c));
        }
    }
    let mut out = String::with_capacity(s.len());
    for (k, w) in py_split(&s).enumerate() {
        if k > 0 {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// `[{-~[-` -&(-+:-@/]`: the punctuation `_normalize_general_and_western` isolates.
#[inline]
fn is_western_punct(c: char) -> bool {
    matches!(c, '{'..='~' | '['..='`' | ' '..='&' | '('..='+' | ':'..='@' | '/')
}

/// `TercomTokenizer.ASIAN_PUNCT`.
#[inline]
fn is_asian_punct(c: char) -> bool {
    matches!(
        c,
        '\u{3001}' | '\u{3002}' | '\u{3008}'..='\u{3011}' | '\u{3014}'..='\u{301f}'
            | '\u{ff61}'..='\u{ff65}' | '\u{30fb}'
    )
}

/// `TercomTokenizer.FULL_WIDTH_PUNCT`.
#[inline]
fn is_full_width_punct(c: char) -> bool {
    matches!(
        c,
        '\u{ff0e}'
            | '\u{ff0c}'
            | '\u{ff1f}'
            | '\u{ff1a}'
            | '\u{ff1b}'
            | '\u{ff01}'
            | '\u{ff02}'
            | '\u{ff08}'
            | '\u{ff09}'
    )
}

/// Characters `_normalize_asian` surrounds with spaces (CJK ideographs, strokes, radicals,
/// compatibility blocks, enclosed letters, Asian and full-width punctuation).
#[inline]
fn is_asian_split(c: char) -> bool {
    matches!(
        c,
        '\u{4e00}'..='\u{9fff}'
            | '\u{3400}'..='\u{4dbf}'
            | '\u{31c0}'..='\u{31ef}'
            | '\u{2e80}'..='\u{2eff}'
            | '\u{3300}'..='\u{33ff}'
            | '\u{f900}'..='\u{faff}'
            | '\u{fe30}'..='\u{fe4f}'
            | '\u{3200}'..='\u{3f22}'
    ) || is_asian_punct(c)
        || is_full_width_punct(c)
}

#[inline]
fn is_digit(c: char) -> bool {
    c.is_ascii_digit()
}

/// `re.sub` of a two-character pattern `(A)(B)`: scan left to right; where `matches(a, b)`,
/// write `repl(a, b)` and continue after `b`.
fn sub_pairs(
    s: &str,
    matches: impl Fn(char, char) -> bool,
    repl: impl Fn(char, char, &mut String),
) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len() + 16);
    let mut i = 0;
    while i < chars.len() {
        if i + 1 < chars.len() && matches(chars[i], chars[i + 1]) {
            repl(chars[i], chars[i + 1], &mut out);
            i += 2;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// `_normalize_general_and_western`.
fn normalize_general_and_western(sent: &str) -> String {
    // strip end-of-line hyphenation and join lines
    let s = sent.replace("\n-", "");
    let s = s.replace('\n', " ");
    // XML escapes, in SacreBLEU's order (each replacement sees the previous one's output)
    let s = s.replace("&quot;", "\"");
    let s = s.replace("&amp;", "&");
    let s = s.replace("&lt;", "<");
    let s = s.replace("&gt;", ">");
    // f" {sent} ", then `([{-~[-` -&(-+:-@/])` -> r" \1 " (the space itself is in the class)
    let mut t = String::with_capacity(s.len() * 2 + 8);
    let padded = std::iter::once(' ')
        .chain(s.chars())
        .chain(std::iter::once(' '));
    push_isolated(&mut t, padded, is_western_punct);
    // possessives: "'s " -> " 's ". (The next pattern, "'s$", cannot match: the string ends
    // with the space added above.)
    let t = t.replace("'s ", " 's ");
    // `([^0-9])([\.,])` -> r"\1 \2 "
    let t = sub_pairs(
        &t,
        |a, b| !is_digit(a) && matches!(b, '.' | ','),
        |a, b, o| {
            o.push(a);
            o.push(' ');
            o.push(b);
            o.push(' ');
        },
    );
    // `([\.,])([^0-9])` -> r" \1 \2"
    let t = sub_pairs(
        &t,
        |a, b| matches!(a, '.' | ',') && !is_digit(b),
        |a, b, o| {
            o.push(' ');
            o.push(a);
            o.push(' ');
            o.push(b);
        },
    );
    // `([0-9])(-)` -> r"\1 \2 "
    sub_pairs(
        &t,
        |a, b| is_digit(a) && b == '-',
        |a, b, o| {
            o.push(a);
            o.push(' ');
            o.push(b);
            o.push(' ');
        },
    )
}

/// `_normalize_asian`.
///
/// Every substitution there surrounds single characters with spaces, except the three
/// Hiragana/Katakana patterns `(^|^[...])([...]+)(?=$|^[...])`: without `re.MULTILINE`, `^`
/// only matches at position 0, and this function only runs after
/// `_normalize_general_and_western`, whose output starts with a space, so they never match.
/// Extra spaces are irrelevant (the result is split on whitespace), so one pass suffices.
fn normalize_asian(sent: &str) -> String {
    let mut out = String::with_capacity(sent.len() + 16);
    push_isolated(&mut out, sent.chars(), is_asian_split);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(s: &str, normalized: bool, no_punct: bool, asian: bool, case: bool) -> String {
        preprocess(
            s,
            &TercomOpts {
                normalized,
                no_punct,
                asian_support: asian,
                case_sensitive: case,
            },
        )
    }

    #[test]
    fn default_lowercases_and_squeezes() {
        assert_eq!(
            tok("  Hello,  World!  ", false, false, false, false),
            "hello, world!"
        );
        assert_eq!(tok("Hello", false, false, false, true), "Hello");
        assert_eq!(tok("", true, true, true, false), "");
    }

    #[test]
    fn western_normalization() {
        // Outputs of sacrebleu.tokenizers.tokenizer_ter.TercomTokenizer(normalized=True).
        assert_eq!(
            tok(
                "It's 3.5-4, ok. (x) a/b &amp; &quot;q&quot;",
                true,
                false,
                false,
                false
            ),
            "it 's 3.5 - 4 , ok . ( x ) a / b & \" q \""
        );
        assert_eq!(
            tok("a.,b 1,000 x.5", true, false, false, false),
            "a . , b 1,000 x . 5"
        );
        assert_eq!(
            tok("line\n-break\nnext", true, false, false, false),
            "linebreak next"
        );
    }

    #[test]
    fn punctuation_removal() {
        assert_eq!(tok("a.b, (c)! \"d\"?", false, true, false, false), "ab c d");
        assert_eq!(tok("日本。「x」", false, true, true, false), "日本x");
    }

    #[test]
    fn asian_split() {
        assert_eq!(
            tok("日本語テキスト。", true, false, true, false),
            "日 本 語 テキスト 。"
        );
    }
}
