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
//! `str.split()`), so the scan goes byte by byte: every pattern is ASCII.

use super::bytes16;
use std::borrow::Cow;

/// Byte classes of the scanner.
const ORD: u8 = 0; // glued to its neighbours (letters, `'`, controls, UTF-8 continuation bytes, …)
const DIGIT: u8 = 1; // [0-9]: glued, but matters to its neighbours
const WS: u8 = 2; // ASCII whitespace as Python's `str.split()` sees it, except `\n`
const ISO: u8 = 3; // pass-1 characters (other than the space): a token of their own
const PUNCT: u8 = 4; // `.` and `,`
const DASH: u8 = 5; // `-`
const LEAD: u8 = 6; // first byte of a multi-byte character that needs a closer look
const NL: u8 = 7; // `\n`: whitespace, but `13a` replaces `-\n` before tokenizing
const AMP_LT: u8 = 8; // `&` and `<`: ISO, but `13a` replaces entities and `<skipped>` first

/// Byte classes; with `all_leads`, every multi-byte character is looked at, otherwise only those
/// that may be whitespace (U+0085 and U+00A0 start with 0xC2, U+1680 with 0xE1, U+2000.. with
/// 0xE2, U+3000 with 0xE3).
const fn class_table(all_leads: bool) -> [u8; 256] {
    let mut t = [ORD; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = match c {
            b'0'..=b'9' => DIGIT,
            b'\n' => NL,
            b'\t' | 0x0b | 0x0c | b'\r' | 0x1c..=0x1f | b' ' => WS,
            b'&' | b'<' => AMP_LT,
            b'{'..=b'~' | b'['..=b'`' | b'!'..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/' => ISO,
            b'.' | b',' => PUNCT,
            b'-' => DASH,
            0xc2 | 0xe1 | 0xe2 | 0xe3 => LEAD,
            0xc0..=0xff if all_leads => LEAD,
            _ => ORD,
        };
        b += 1;
    }
    t
}

static CLASS_SOME_LEADS: [u8; 256] = class_table(false);
static CLASS_ALL_LEADS: [u8; 256] = class_table(true);

/// The bytes (bit `k` for `w[k]`) that the ORD/DIGIT loop of [`scan_edits`] may pass over: those
/// surely `ORD` or `DIGIT` (ASCII letters and digits, and non-ASCII bytes that are not `LEAD`),
/// and spaces followed by one. A subset of what the loop accepts: the rest goes byte by byte.
#[inline(always)]
fn plain_bytes<const ALL_NONASCII: bool>(w: [u8; 16]) -> u32 {
    let c = bytes16::classes16(w);
    let high = if ALL_NONASCII {
        c.continuation
    } else {
        c.high_not_c2_e1_e3
    };
    let plain = c.alnum | high;
    plain | (c.space & (plain >> 1))
}

/// `Tokenizer13a()(line)`.
pub fn tokenize(line: &str) -> String {
    let mut out = String::new();
    tokenize_into(line, &mut out);
    out
}

/// [`tokenize`] into `out`, replacing its contents and reusing its allocation.
pub fn tokenize_into(line: &str, out: &mut String) {
    // Most lines have no `\n`, `&` or `<`, hence nothing to replace: one scan, which gives up on
    // meeting any of them.
    if scan_into::<true, false, true>(line, |_| false, out) {
        return;
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
            s.replace("&quot;", "\"")
                .replace("&amp;", "&")
                .replace("&lt;", "<")
                .replace("&gt;", ">"),
        );
    }
    scan_into::<true, false, false>(&s, |_| false, out);
}

/// `TokenizerRegexp()(line)`: the language-dependent part of `13a`, also used by `zh`.
pub fn post_tokenize(line: &str) -> String {
    let mut out = String::new();
    scan_into::<false, false, false>(line, |_| false, &mut out);
    out
}

/// The single-pass equivalent of `TokenizerRegexp` (see the module docs), into `out` (replacing
/// its contents, reusing its allocation).
///
/// * `PADDED`: act as if `line` had one space before and after it (`13a` pads with `f' {line} '`,
///   which matters to `.`/`,` at either end).
/// * `ALL_NONASCII`: decode every non-ASCII character and make it a token of its own when
///   `isolated` says so (`zh` pads Chinese characters with spaces before this tokenizer runs).
/// * `CHECK`: give up and return `false` on meeting `\n`, `&` or `<` (`out` then holds a partial
///   result); otherwise always `true`.
///
/// The output is the input with a few edits (spaces inserted at token boundaries, whitespace runs
/// turned into one space or removed at the ends), so unchanged stretches are copied in bulk.
#[inline]
pub(crate) fn scan_into<const PADDED: bool, const ALL_NONASCII: bool, const CHECK: bool>(
    line: &str,
    isolated: impl Fn(char) -> bool,
    out: &mut String,
) -> bool {
    let mut edits = Edits::new_in(line, std::mem::take(out));
    let done = scan_edits::<PADDED, ALL_NONASCII, CHECK>(&mut edits, isolated).is_some();
    *out = edits.finish();
    done
}

/// The body of [`scan_into`], appending to `out` (whose `line` is the line to scan).
#[inline(always)]
fn scan_edits<const PADDED: bool, const ALL_NONASCII: bool, const CHECK: bool>(
    out: &mut Edits<'_>,
    isolated: impl Fn(char) -> bool,
) -> Option<()> {
    let line = out.line;
    let class = if ALL_NONASCII {
        &CLASS_ALL_LEADS
    } else {
        &CLASS_SOME_LEADS
    };
    let b = line.as_bytes();
    let n = b.len();
    // A token boundary falls after the previous character (which is not whitespace).
    let mut pending = false;
    // The previous character exists and is not whitespace.
    let mut glue = false;
    let mut i = 0;
    while i < n {
        match class[b[i] as usize] {
            ORD | DIGIT => {
                if pending {
                    out.space_at(i);
                    pending = false;
                }
                glue = true;
                i += 1;
                // Through ordinary characters, and single spaces between them, which stay as
                // they are: eight bytes at a time while they are surely ordinary, else one.
                while i < n {
                    let (w, drop) = bytes16::block16(b, i);
                    let ok = plain_bytes::<ALL_NONASCII>(w) >> drop;
                    if ok == 0xffff {
                        i += 16;
                        continue;
                    }
                    // Bytes past the end are not plain: this stays within the line.
                    i += (!ok).trailing_zeros() as usize;
                    if i < n && class[b[i] as usize] <= DIGIT {
                        i += 1;
                    } else if i + 1 < n && b[i] == b' ' && class[b[i + 1] as usize] <= DIGIT {
                        i += 2;
                    } else {
                        break;
                    }
                }
            }
            WS | NL => {
                i = whitespace_run::<CHECK>(out, class, i)?;
                pending = false;
                glue = false;
            }
            AMP_LT if CHECK => return None,
            ISO | AMP_LT => {
                if glue {
                    out.space_at(i);
                }
                pending = true;
                glue = true;
                i += 1;
            }
            DASH => {
                if i > 0 && b[i - 1].is_ascii_digit() {
                    // The digit before is not whitespace: `glue` holds.
                    out.space_at(i);
                    pending = true;
                } else if pending {
                    out.space_at(i);
                    pending = false;
                }
                glue = true;
                i += 1;
            }
            PUNCT => {
                let mut j = i + 1;
                while j < n && matches!(b[j], b'.' | b',') {
                    j += 1;
                }
                let k = j - i;
                // x (before the run) exists and is not a digit.
                let a = if i > 0 {
                    !b[i - 1].is_ascii_digit()
                } else {
                    PADDED
                };
                // z (after the run) exists and is not a digit.
                let z_non_digit = if j < n {
                    !b[j].is_ascii_digit()
                } else {
                    PADDED
                };
                let left = a || k >= 2 || z_non_digit;
                let right = (k + a as usize) & 1 == 0 || z_non_digit;
                if glue && (pending || left) {
                    out.space_at(i);
                }
                for p in i + 1..j {
                    out.space_at(p);
                }
                pending = right;
                glue = true;
                i = j;
            }
            _ => {
                // LEAD: the first byte of a multi-byte character.
                if multibyte_space_len(b, i) > 0 {
                    i = whitespace_run::<CHECK>(out, class, i)?;
                    pending = false;
                    glue = false;
                    continue;
                }
                let mut len = 1;
                if ALL_NONASCII {
                    let c = decode(line, i);
                    len = c.len_utf8();
                    if isolated(c) {
                        if glue {
                            out.space_at(i);
                        }
                        pending = true;
                        glue = true;
                        i += len;
                        continue;
                    }
                }
                if pending {
                    out.space_at(i);
                    pending = false;
                }
                glue = true;
                i += len;
            }
        }
    }
    Some(())
}

/// The character starting at byte `i` of `s` (a character boundary).
#[inline]
fn decode(s: &str, i: usize) -> char {
    s[i..].chars().next().unwrap_or_default()
}

/// The length in bytes of the character at byte `i` of `b` (valid UTF-8, a character boundary)
/// if it is non-ASCII Python whitespace (U+0085, U+00A0, U+1680, U+2000..=U+200A, U+2028,
/// U+2029, U+202F, U+205F, U+3000), else 0.
#[inline]
fn multibyte_space_len(b: &[u8], i: usize) -> usize {
    match b[i] {
        0xc2 if matches!(b[i + 1], 0x85 | 0xa0) => 2,
        0xe1 if b[i + 1] == 0x9a && b[i + 2] == 0x80 => 3,
        0xe2 => match (b[i + 1], b[i + 2]) {
            (0x80, 0x80..=0x8a | 0xa8 | 0xa9 | 0xaf) | (0x81, 0x9f) => 3,
            _ => 0,
        },
        0xe3 if b[i + 1] == 0x80 && b[i + 2] == 0x80 => 3,
        _ => 0,
    }
}

/// Handle the maximal run of (Python) whitespace starting at byte `i`; return where it ends
/// (`None` if `CHECK` and it holds a `\n`).
#[inline]
fn whitespace_run<const CHECK: bool>(
    out: &mut Edits<'_>,
    class: &[u8; 256],
    i: usize,
) -> Option<usize> {
    let b = out.line.as_bytes();
    let n = b.len();
    let mut e = i;
    while e < n {
        match class[b[e] as usize] {
            WS => e += 1,
            NL if CHECK => return None,
            NL => e += 1,
            LEAD => match multibyte_space_len(b, e) {
                0 => break,
                len => e += len,
            },
            _ => break,
        }
    }
    if i == 0 || e == n {
        out.replace(i, e, "");
    } else if !(e == i + 1 && b[i] == b' ') {
        out.replace(i, e, " ");
    }
    Some(e)
}

/// Skip the maximal run of (Python) whitespace starting at byte `i` of `out.line`, editing it into
/// one space (none at either end of the line); return where it ends.
#[inline]
pub(crate) fn skip_whitespace(out: &mut Edits<'_>, i: usize) -> usize {
    whitespace_run::<false>(out, &CLASS_SOME_LEADS, i).unwrap_or(i + 1)
}

/// The output under construction, as edits of `line`: `line[copied..]` is still to be copied.
pub(crate) struct Edits<'a> {
    pub(crate) line: &'a str,
    s: String,
    copied: usize,
}

impl<'a> Edits<'a> {
    /// Edits of `line` into `s` (cleared; its allocation is reused).
    #[inline]
    pub(crate) fn new_in(line: &'a str, mut s: String) -> Self {
        let n = line.len();
        let want = n + n / 4 + 8;
        if s.capacity() < want {
            // A fresh allocation: cheaper than `reserve`'s growth path, and nothing to keep.
            s = String::with_capacity(want);
        } else {
            s.clear();
        }
        Edits { line, s, copied: 0 }
    }

    /// Insert a space before byte `i`.
    #[inline]
    pub(crate) fn space_at(&mut self, i: usize) {
        self.s.push_str(&self.line[self.copied..i]);
        self.s.push(' ');
        self.copied = i;
    }

    /// Replace `line[i..e]` by `with`.
    #[inline]
    fn replace(&mut self, i: usize, e: usize, with: &str) {
        self.s.push_str(&self.line[self.copied..i]);
        self.s.push_str(with);
        self.copied = e;
    }

    #[inline]
    pub(crate) fn finish(mut self) -> String {
        self.s.push_str(&self.line[self.copied..]);
        self.s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::py_is_space;
    use crate::text::testing::check_cases;
    use crate::tokenize::testing::{agrees_with_reference, pad, pair_pass};

    /// `TokenizerRegexp` done the slow way: the four passes, literally.
    fn reference_post(line: &str) -> String {
        let d = |c: char| c.is_ascii_digit();
        let p = |c: char| c == '.' || c == ',';
        let s = pad(
            line,
            |c| matches!(c, '{'..='~' | '['..='`' | ' '..='&' | '('..='+' | ':'..='@' | '/'),
        );
        let s: Vec<char> = s.chars().collect();
        let s = pair_pass(&s, |x, y| !d(x) && p(y), false);
        let s = pair_pass(&s, |x, y| p(x) && !d(y), true);
        let s = pair_pass(&s, |x, y| d(x) && y == '-', false);
        let s: String = s.into_iter().collect();
        crate::text::py_split(&s).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn consecutive_punctuation() {
        check_cases(
            tokenize,
            &[
                ("a.,b", "a . , b"),
                ("1.,2", "1 . , 2"),
                ("a.,1", "a . ,1"),
                ("1,.,2", "1 , . ,2"),
                ("...", ". . ."),
                ("wait...", "wait . . ."),
                ("1..2", "1 . . 2"),
                ("1...2", "1 . . .2"),
                ("a..1", "a . .1"),
                ("a...1", "a . . . 1"),
            ],
        );
    }

    #[test]
    fn digits_around_period_comma_dash() {
        check_cases(
            tokenize,
            &[
                ("3.14 and 1,000", "3.14 and 1,000"),
                ("It costs 3.", "It costs 3 ."),
                ("a.3", "a . 3"),
                ("3.a", "3 . a"),
                ("1-2-3", "1 - 2 - 3"),
                ("1--2", "1 - -2"),
                ("a-b 2-b x-1", "a-b 2 - b x-1"),
                ("Mr. O'Neil's 2-year-old", "Mr . O'Neil's 2 - year-old"),
                ("٣.٤", "٣ . ٤"), // only ASCII digits count
            ],
        );
    }

    #[test]
    fn html_entities_and_newlines() {
        check_cases(
            tokenize,
            &[
                ("a &amp; b &lt;c&gt; &quot;d&quot;", "a & b < c > \" d \""),
                ("&amp;lt;", "<"),          // sequential replaces
                ("&amp;quot;", "& quot ;"), // &quot; was replaced before &amp;
                ("x<skipped>y", "xy"),
                ("<skip<skipped>ped>", "< skipped >"),
                ("hyph-\nen\nated", "hyphen ated"),
                ("-<skipped>\nx", "x"),
                ("1-\n2", "12"),
            ],
        );
    }

    #[test]
    fn multibyte_space_len_is_py_is_space() {
        for c in (0x80..=0x10ffff).filter_map(char::from_u32) {
            let mut buf = [0u8; 4];
            let s = c.encode_utf8(&mut buf);
            let expected = if py_is_space(c) { s.len() } else { 0 };
            assert_eq!(multibyte_space_len(s.as_bytes(), 0), expected, "{c:?}");
        }
    }

    #[test]
    fn whitespace_is_pythons() {
        check_cases(
            tokenize,
            &[
                ("a\u{a0}b\u{3000}c\x1cd\u{200b}e", "a b c d\u{200b}e"),
                ("  ", ""),
                ("", ""),
                ("\u{85}.\u{2028}", "."),
            ],
        );
    }

    #[test]
    fn padding_matters_at_the_ends() {
        check_cases(tokenize, &[(".5", ". 5"), ("5.", "5 .")]);
        check_cases(
            post_tokenize,
            &[
                (".5", ".5"),
                ("5.", "5."),
                ("..", ". ."),
                ("..5", ". . 5"),
                ("...5", ". . .5"),
            ],
        );
    }

    /// An alphabet covering all the scanner's classes.
    const ALPHABET: [char; 10] = ['a', '1', '.', ',', '-', ' ', '(', '\'', 'é', '\u{3000}'];
    /// Long lines for the 16-byte fast path, its zero-filled and shifted tails and the bytes it
    /// leaves to the byte loop.
    const LINES: &str =
        "([a-zA-Z0-9]{0,20}[ .,\\-'(é中ä€\u{a0}\u{3000}\u{2019}\u{85}\t\x01]{0,3}){0,8}";

    fn padded_reference(t: &str) -> String {
        reference_post(&format!(" {t} "))
    }

    agrees_with_reference!(post_tokenize_matches_literal_passes: post_tokenize, reference_post,
        alphabet ALPHABET, lines LINES);
    agrees_with_reference!(tokenize_matches_literal_passes: tokenize, padded_reference,
        alphabet ALPHABET, lines LINES);

    proptest::proptest! {
        #[test]
        fn mostly_letters_and_spaces(t in "[a-z ]{0,70}[.,]?[a-z ]{0,40}") {
            proptest::prop_assert_eq!(tokenize(&t), padded_reference(&t));
        }
    }
}
