//! `intl`: SacreBLEU's `TokenizerV14International` (mteval-v14 `--international-tokenization`).
//!
//! Three `regex.sub` passes, each over the previous one's output, then `' '.join(line.split())`:
//!
//! 1. `(\P{N})(\p{P})` → `\1 \2 `;
//! 2. `(\p{P})(\P{N})` → ` \1 \2`;
//! 3. `(\p{S})` → ` \1 `.
//!
//! The classes are those of the `regex` module (its own Unicode version), brute-forced into
//! `tables.rs` (see `tools/gen_unicode_tables.py`); N, P and S are disjoint and contain no
//! whitespace. As for `13a` (see [`t13a`](super::t13a)), the passes reduce to one scan. For a
//! maximal run `p1..pk` of `\p{P}` characters, with `x` the character before it and `z` the one
//! after, `a = 1` iff `x` exists and is not `\p{N}`: pass 1 separates the run's characters from
//! each other, puts a boundary before `p1` iff `a = 1` and one after `pk` iff `k + a` is even;
//! pass 2 then separates each `pi` whose next character (a pass-1 space, or `z`) exists and is
//! not `\p{N}`. A `\p{S}` character is a token of its own. There is no padding: a line-final `.`
//! after a digit stays glued (`"in 1990."` → `"in 1990."`), as in mteval-v14.

use super::bytes16;
use super::t13a::{skip_whitespace, Edits};
use crate::text::py_is_space;
use crate::text::ranges::{intl_class, INTL_ASCII_CLASS};
use crate::text::tables::{CLASS_N, CLASS_OTHER, CLASS_P, CLASS_S};

/// Class of whitespace (Python's `str.isspace`), next to the `tables::CLASS_*` ones.
const CLASS_WS: u8 = 4;

// The fast path takes `class <= CLASS_N` for "glued to its neighbours".
const _: () = assert!(CLASS_OTHER < CLASS_N && CLASS_N < CLASS_P && CLASS_N < CLASS_S);

/// `intl` classes of ASCII bytes, whitespace included.
static ASCII_CLASS: [u8; 128] = {
    let mut t = INTL_ASCII_CLASS;
    let mut b = 0;
    while b < 128 {
        if matches!(b as u8, b'\t'..=b'\r' | 0x1c..=0x1f | b' ') {
            t[b] = CLASS_WS;
        }
        b += 1;
    }
    t
};

/// The class and length of the character at byte `i` of `s` (a character boundary).
#[inline]
fn class_at(s: &str, i: usize) -> (u8, usize) {
    let b = s.as_bytes()[i];
    if b < 0x80 {
        return (ASCII_CLASS[b as usize], 1);
    }
    let c = s[i..].chars().next().unwrap_or_default();
    let class = if py_is_space(c) {
        CLASS_WS
    } else {
        intl_class(c)
    };
    (class, c.len_utf8())
}

/// `TokenizerV14International()(line)`.
pub fn tokenize(line: &str) -> String {
    let mut out = String::new();
    tokenize_into(line, &mut out);
    out
}

/// [`tokenize`] into `out`, replacing its contents and reusing its allocation.
pub fn tokenize_into(line: &str, out: &mut String) {
    let mut edits = Edits::new_in(line, std::mem::take(out));
    scan(&mut edits);
    *out = edits.finish();
}

/// The tokenization of `out.line`, appended to `out`.
#[inline(always)]
fn scan(out: &mut Edits<'_>) {
    let line = out.line;
    let b = line.as_bytes();
    let n = b.len();
    // A token boundary falls after the previous character (which is not whitespace).
    let mut pending = false;
    // The previous character exists and is not whitespace.
    let mut glue = false;
    // The previous character exists and is not \p{N}.
    let mut prev_non_n = false;
    let mut i = 0;
    while i < n {
        let (class, len) = class_at(line, i);
        match class {
            CLASS_WS => {
                i = skip_whitespace(out, i);
                pending = false;
                glue = false;
                prev_non_n = true;
            }
            CLASS_S => {
                if glue {
                    out.space_at(i);
                }
                pending = true;
                glue = true;
                prev_non_n = true;
                i += len;
            }
            CLASS_P => {
                // The run p1..pk and the character z after it.
                let mut j = i + len;
                let mut k = 1;
                let mut z_non_n = false;
                while j < n {
                    match class_at(line, j) {
                        (CLASS_P, l) => {
                            k += 1;
                            j += l;
                        }
                        (z, _) => {
                            z_non_n = z != CLASS_N;
                            break;
                        }
                    }
                }
                let a = prev_non_n;
                let left = a || k >= 2 || z_non_n;
                let right = (k + a as usize) & 1 == 0 || z_non_n;
                if glue && (pending || left) {
                    out.space_at(i);
                }
                let mut p = i + len;
                while p < j {
                    out.space_at(p);
                    p += class_at(line, p).1;
                }
                pending = right;
                glue = true;
                prev_non_n = true;
                i = j;
            }
            _ => {
                // CLASS_N or CLASS_OTHER: glued to its neighbours.
                if pending {
                    out.space_at(i);
                    pending = false;
                }
                glue = true;
                prev_non_n = class != CLASS_N;
                i += len;
                // Fast path through ASCII letters and digits, and single spaces between them
                // (which stay): 16 bytes at a time, else one; other ASCII glued characters go
                // one at a time.
                let start = i;
                // (Not worth a try before a non-ASCII byte: it would stop at once.)
                while i < n && b[i] < 0x80 {
                    let (w, drop) = bytes16::block16(b, i);
                    let c = bytes16::classes16(w);
                    let ok = (c.alnum | (c.space & (c.alnum >> 1))) >> drop;
                    if ok == 0xffff {
                        i += 16;
                        continue;
                    }
                    // Bytes past the end are not letters: this stays within the line.
                    i += (!ok).trailing_zeros() as usize;
                    let glued = |c: u8| c < 0x80 && ASCII_CLASS[c as usize] <= CLASS_N;
                    if i < n && glued(b[i]) {
                        i += 1;
                    } else if i + 1 < n && b[i] == b' ' && glued(b[i + 1]) {
                        i += 2;
                    } else {
                        break;
                    }
                }
                if i > start {
                    // The last byte passed over is an ASCII glued character.
                    prev_non_n = ASCII_CLASS[b[i - 1] as usize] != CLASS_N;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::testing::check_cases;
    use crate::tokenize::testing::{agrees_with_reference, pad, pair_pass};

    /// The three passes, literally.
    fn reference(line: &str) -> String {
        let n = |c: char| intl_class(c) == CLASS_N;
        let p = |c: char| intl_class(c) == CLASS_P;
        let s: Vec<char> = line.chars().collect();
        let s = pair_pass(&s, |x, y| !n(x) && p(y), false);
        let s = pair_pass(&s, |x, y| p(x) && !n(y), true);
        let s: String = s.into_iter().collect();
        let t = pad(&s, |c| intl_class(c) == CLASS_S);
        crate::text::py_split(&t).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn examples() {
        check_cases(
            tokenize,
            &[
                ("Hello, world!", "Hello , world !"),
                ("It was 1990.", "It was 1990."),
                ("It was 1990. Then", "It was 1990 . Then"),
                ("3.14 and 1,000", "3.14 and 1,000"),
                ("$5 + 3€", "$ 5 + 3 €"),
                ("«Ja»—sagte er…", "« Ja » — sagte er …"),
                ("a.,1", "a . ,1"),
                ("1.,2", "1 . , 2"),
                (".5", ".5"),
                ("x.5", "x . 5"),
                ("٣.٤", "٣.٤"), // \p{N} is not only ASCII
                ("Ⅻ.Ⅻ", "Ⅻ.Ⅻ"), // nor only decimal digits
                ("中文。", "中文 。"),
                ("", ""),
            ],
        );
    }

    agrees_with_reference!(matches_literal_passes: tokenize, reference,
        alphabet ['a', '1', '٣', '.', '、', '-', ' ', '$', '\u{a0}', '中'],
        lines "([a-zA-Z0-9]{0,20}[ .,\\-'$\x01٣、中\u{a0}\u{3000}]{0,3}){0,8}");
}
