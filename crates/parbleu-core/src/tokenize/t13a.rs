//! `13a`: SacreBLEU's `Tokenizer13a` (mteval-v13a) and its `TokenizerRegexp` post-tokenizer.
//!
//! `TokenizerRegexp` runs four `re.sub` passes, each over the previous one's output, then
//! `' '.join(line.split())`:
//!
//! 1. `([\{-\~\[-\` -\&\(-\+\:-\@\/])` → ` \1 ` (ASCII punctuation/symbols except `' , - .`,
//!    and the space itself);
//! 2. `([^0-9])([\.,])` → `\1 \2 `;
//! 3. `([\.,])([^0-9])` → ` \1 \2`;
//! 4. `([0-9])(-)` → `\1 \2 `.
//!
//! Since only token boundaries survive the final split, the passes reduce to one left-to-right
//! scan that decides, for each character, whether a boundary falls before or after it. Passes 1
//! and 4 are local: a pass-1 character is a token of its own, and so is a `-` right after an ASCII
//! digit. Passes 2 and 3 depend on runs of `.`/`,` because `re.sub` matches do not overlap. For a
//! maximal run `p1..pk` of `.`/`,`, with `x` the character before it and `z` the one after:
//!
//! * pass 2 matches `(x, p1), (p2, p3), …` when `x` exists and is not a digit (`a = 1`), else
//!   `(p1, p2), (p3, p4), …` (`a = 0`); either way it separates all of `p1..pk` from each other,
//!   puts a boundary before `p1` iff `a = 1`, and one after `pk` iff `k + a` is even;
//! * after pass 2 no two `.`/`,` are adjacent, so pass 3 separates each `pi` on both sides
//!   whenever the character following it (a pass-2 space, or `z`) exists and is not a digit.
//!
//! Hence `p1` starts a token iff `a = 1` or `k ≥ 2` or `z` is a non-digit, and `pk` ends one iff
//! `k + a` is even or `z` is a non-digit. Non-ASCII characters only matter as whitespace (Python's
//! `str.split()`), which the scan works with byte by byte since every pattern is ASCII.

use std::borrow::Cow;

use crate::text::py_is_space;

/// Byte classes of the scanner.
const ORD: u8 = 0; // glued to its neighbours (letters, `'`, controls, UTF-8 continuation bytes)
const DIGIT: u8 = 1; // [0-9]: glued, but matters to its neighbours
const WS: u8 = 2; // ASCII whitespace as Python's `str.split()` sees it
const ISO: u8 = 3; // pass-1 characters (other than the space): a token of their own
const PUNCT: u8 = 4; // `.` and `,`
const DASH: u8 = 5; // `-`
const LEAD: u8 = 6; // first byte of a multi-byte UTF-8 sequence

const CLASS: [u8; 256] = {
    let mut t = [ORD; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = match c {
            b'0'..=b'9' => DIGIT,
            b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | 0x1c..=0x1f | b' ' => WS,
            b'{'..=b'~' | b'['..=b'`' | b'!'..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/' => ISO,
            b'.' | b',' => PUNCT,
            b'-' => DASH,
            0xc0..=0xff => LEAD,
            _ => ORD,
        };
        b += 1;
    }
    t
};

/// `Tokenizer13a()(line)`.
pub fn tokenize(line: &str) -> String {
    let b = line.as_bytes();
    if !b.iter().any(|&c| c == b'<' || c == b'\n' || c == b'&') {
        return scan::<true, false>(line, |_| false);
    }
    let mut s = Cow::Borrowed(line);
    if s.contains("<skipped>") {
        s = Cow::Owned(s.replace("<skipped>", ""));
    }
    if s.contains('\n') {
        s = Cow::Owned(s.replace("-\n", "").replace('\n', " "));
    }
    if s.contains('&') {
        s = Cow::Owned(
            s.replace("&quot;", "\"").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"),
        );
    }
    scan::<true, false>(&s, |_| false)
}

/// `TokenizerRegexp()(line)`: the language-dependent part of `13a`, also used by `zh`.
pub fn post_tokenize(line: &str) -> String {
    scan::<false, false>(line, |_| false)
}

/// The single-pass equivalent of `TokenizerRegexp` (see the module docs).
///
/// * `PADDED`: act as if `line` had one space before and after it (`13a` pads with `f' {line} '`,
///   which matters to `.`/`,` at either end).
/// * `ALL_NONASCII`: decode every non-ASCII character and make it a token of its own when
///   `isolated` says so (`zh` pads Chinese characters with spaces before this tokenizer runs);
///   otherwise only characters that may be whitespace are decoded.
#[inline]
pub(crate) fn scan<const PADDED: bool, const ALL_NONASCII: bool>(
    line: &str,
    isolated: impl Fn(char) -> bool,
) -> String {
    let b = line.as_bytes();
    let n = b.len();
    let mut out = Out { s: String::with_capacity(n + n / 4 + 8), pending: false };
    // `line[seg..i]` is the glued text not yet written out.
    let mut seg = 0;
    let mut i = 0;
    while i < n {
        match CLASS[b[i] as usize] {
            ORD | DIGIT => i += 1,
            WS => {
                out.glued(&line[seg..i]);
                out.pending = true;
                i += 1;
                seg = i;
            }
            ISO => {
                out.glued(&line[seg..i]);
                out.token(&line[i..i + 1], true);
                i += 1;
                seg = i;
            }
            DASH => {
                if i > 0 && b[i - 1].is_ascii_digit() {
                    out.glued(&line[seg..i]);
                    out.token(&line[i..i + 1], true);
                    seg = i + 1;
                }
                i += 1;
            }
            PUNCT => {
                let mut j = i + 1;
                while j < n && matches!(b[j], b'.' | b',') {
                    j += 1;
                }
                let k = j - i;
                // x (before the run) exists and is not a digit.
                let a = if i > 0 { !b[i - 1].is_ascii_digit() } else { PADDED };
                // z (after the run) exists and is not a digit.
                let z_non_digit = if j < n { !b[j].is_ascii_digit() } else { PADDED };
                let left = a || k >= 2 || z_non_digit;
                let right = (k + a as usize) % 2 == 0 || z_non_digit;
                out.glued(&line[seg..i]);
                if left {
                    out.pending = true;
                }
                out.glued(&line[i..i + 1]);
                for p in i + 1..j {
                    out.s.push(' ');
                    out.s.push(b[p] as char);
                }
                out.pending = right;
                i = j;
                seg = j;
            }
            _ => {
                // LEAD: the first byte of a multi-byte character. Python whitespace beyond ASCII
                // starts with 0xC2 (U+0085, U+00A0), 0xE1 (U+1680), 0xE2 (U+2000..) or 0xE3
                // (U+3000).
                if ALL_NONASCII || matches!(b[i], 0xc2 | 0xe1 | 0xe2 | 0xe3) {
                    let c = line[i..].chars().next().unwrap_or_default();
                    let len = c.len_utf8();
                    if py_is_space(c) {
                        out.glued(&line[seg..i]);
                        out.pending = true;
                        seg = i + len;
                    } else if ALL_NONASCII && isolated(c) {
                        out.glued(&line[seg..i]);
                        out.token(&line[i..i + len], true);
                        seg = i + len;
                    }
                    i += len;
                } else {
                    i += 1;
                }
            }
        }
    }
    out.glued(&line[seg..]);
    out.s
}

/// Output under construction: tokens joined by single spaces.
struct Out {
    s: String,
    /// A token boundary falls before whatever is written next.
    pending: bool,
}

impl Out {
    /// Append `piece` (glued to what precedes unless a boundary is pending).
    #[inline]
    fn glued(&mut self, piece: &str) {
        if piece.is_empty() {
            return;
        }
        if self.pending && !self.s.is_empty() {
            self.s.push(' ');
        }
        self.pending = false;
        self.s.push_str(piece);
    }

    /// Append `piece` as the start of a new token, followed by a boundary iff `right`.
    #[inline]
    fn token(&mut self, piece: &str, right: bool) {
        self.pending = true;
        self.glued(piece);
        self.pending = right;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `TokenizerRegexp` done the slow way: the four passes, literally.
    fn reference_post(line: &str) -> String {
        fn pass(s: &[char], m: impl Fn(char, char) -> bool, before: bool) -> Vec<char> {
            // Two-character pattern (x, y), non-overlapping left to right; replacement is
            // `\1 \2 ` (before == false) or ` \1 \2` (before == true).
            let mut out = Vec::new();
            let mut i = 0;
            while i < s.len() {
                if i + 1 < s.len() && m(s[i], s[i + 1]) {
                    if before {
                        out.extend([' ', s[i], ' ', s[i + 1]]);
                    } else {
                        out.extend([s[i], ' ', s[i + 1], ' ']);
                    }
                    i += 2;
                } else {
                    out.push(s[i]);
                    i += 1;
                }
            }
            out
        }
        let d = |c: char| c.is_ascii_digit();
        let p = |c: char| c == '.' || c == ',';
        let mut s: Vec<char> = Vec::new();
        for c in line.chars() {
            if matches!(c, '{'..='~' | '['..='`' | ' '..='&' | '('..='+' | ':'..='@' | '/') {
                s.extend([' ', c, ' ']);
            } else {
                s.push(c);
            }
        }
        let s = pass(&s, |x, y| !d(x) && p(y), false);
        let s = pass(&s, |x, y| p(x) && !d(y), true);
        let s = pass(&s, |x, y| d(x) && y == '-', false);
        let s: String = s.into_iter().collect();
        crate::text::py_split(&s).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn consecutive_punctuation() {
        assert_eq!(tokenize("a.,b"), "a . , b");
        assert_eq!(tokenize("1.,2"), "1 . , 2");
        assert_eq!(tokenize("a.,1"), "a . ,1");
        assert_eq!(tokenize("1,.,2"), "1 , . ,2");
        assert_eq!(tokenize("..."), ". . .");
        assert_eq!(tokenize("wait..."), "wait . . .");
        assert_eq!(tokenize("1..2"), "1 . . 2");
        assert_eq!(tokenize("1...2"), "1 . . .2");
        assert_eq!(tokenize("a..1"), "a . .1");
        assert_eq!(tokenize("a...1"), "a . . . 1");
    }

    #[test]
    fn digits_around_period_comma_dash() {
        assert_eq!(tokenize("3.14 and 1,000"), "3.14 and 1,000");
        assert_eq!(tokenize("It costs 3."), "It costs 3 .");
        assert_eq!(tokenize("a.3"), "a . 3");
        assert_eq!(tokenize("3.a"), "3 . a");
        assert_eq!(tokenize("1-2-3"), "1 - 2 - 3");
        assert_eq!(tokenize("1--2"), "1 - -2");
        assert_eq!(tokenize("a-b 2-b x-1"), "a-b 2 - b x-1");
        assert_eq!(tokenize("Mr. O'Neil's 2-year-old"), "Mr . O'Neil's 2 - year-old");
        assert_eq!(tokenize("٣.٤"), "٣ . ٤"); // only ASCII digits count
    }

    #[test]
    fn html_entities_and_newlines() {
        assert_eq!(tokenize("a &amp; b &lt;c&gt; &quot;d&quot;"), "a & b < c > \" d \"");
        assert_eq!(tokenize("&amp;lt;"), "<"); // sequential replaces
        assert_eq!(tokenize("&amp;quot;"), "& quot ;"); // &quot; was replaced before &amp;
        assert_eq!(tokenize("x<skipped>y"), "xy");
        assert_eq!(tokenize("<skip<skipped>ped>"), "< skipped >");
        assert_eq!(tokenize("hyph-\nen\nated"), "hyphen ated");
        assert_eq!(tokenize("-<skipped>\nx"), "x");
        assert_eq!(tokenize("1-\n2"), "12");
    }

    #[test]
    fn whitespace_is_pythons() {
        assert_eq!(tokenize("a\u{a0}b\u{3000}c\x1cd\u{200b}e"), "a b c d\u{200b}e");
        assert_eq!(tokenize("  "), "");
        assert_eq!(tokenize(""), "");
        assert_eq!(tokenize("\u{85}.\u{2028}"), ".");
    }

    #[test]
    fn padding_matters_at_the_ends() {
        assert_eq!(tokenize(".5"), ". 5");
        assert_eq!(post_tokenize(".5"), ".5");
        assert_eq!(tokenize("5."), "5 .");
        assert_eq!(post_tokenize("5."), "5.");
        assert_eq!(post_tokenize(".."), ". .");
        assert_eq!(post_tokenize("..5"), ". . 5");
        assert_eq!(post_tokenize("...5"), ". . .5");
    }

    #[test]
    fn matches_literal_passes_on_all_short_strings() {
        // Every string of length <= 5 over an alphabet covering all the scanner's classes.
        let alphabet = ['a', '1', '.', ',', '-', ' ', '(', '\'', 'é', '\u{3000}'];
        let mut cur: Vec<String> = vec![String::new()];
        for _ in 0..5 {
            let mut next = Vec::new();
            for s in &cur {
                for &c in &alphabet {
                    let mut t = s.clone();
                    t.push(c);
                    assert_eq!(post_tokenize(&t), reference_post(&t), "{t:?}");
                    assert_eq!(tokenize(&t), reference_post(&format!(" {t} ")), "{t:?}");
                    next.push(t);
                }
            }
            cur = next;
        }
    }
}
