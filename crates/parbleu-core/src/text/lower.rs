//! CPython 3.11's `str.lower()`, exactly: Unicode 14.0 full lowercase mapping (`'İ'` becomes
//! `'i̇'`, two characters) and CPython's final-sigma rule for `'Σ'`.
//!
//! The tables come from CPython itself (see `tools/gen_unicode_tables.py`): Rust's
//! `char::to_lowercase` follows a newer Unicode version and knows no final sigma.

use super::ranges::{is_case_ignorable, is_cased, lower_multi, lower_single};
use super::tables::LOWER_SINGLE;

const CAPITAL_SIGMA: char = '\u{3a3}';

/// Number of 256-code-point blocks covered by [`BLOCK_HAS_LOWER`].
const BLOCKS: usize = 0x200;

/// Whether block `cp >> 8` holds any character that `lower()` changes: lets most CJK and other
/// uncased text skip the table search.
static BLOCK_HAS_LOWER: [bool; BLOCKS] = {
    let mut t = [false; BLOCKS];
    let mut i = 0;
    while i < LOWER_SINGLE.len() {
        let block = (LOWER_SINGLE[i].0 as usize) >> 8;
        assert!(block < BLOCKS);
        t[block] = true;
        i += 1;
    }
    t[0x01] = true; // U+0130 (LOWER_MULTI)
    t[0x03] = true; // U+03A3
    t
};

/// Code points below this one are looked up in [`LOWER_DIRECT`].
const DIRECT: usize = 0x250;

/// `c.lower()` for `c < DIRECT` when it is one character (itself when unchanged).
static LOWER_DIRECT: [char; DIRECT] = {
    let mut t = ['\0'; DIRECT];
    let mut i = 0;
    while i < DIRECT {
        t[i] = match char::from_u32(i as u32) {
            Some(c) => c,
            None => '\0',
        };
        i += 1;
    }
    let mut k = 0;
    while k < LOWER_SINGLE.len() {
        let (from, to) = LOWER_SINGLE[k];
        if (from as usize) < DIRECT {
            t[from as usize] = to;
        }
        k += 1;
    }
    t
};

/// `s.lower()` as CPython 3.11 computes it.
pub fn py_lower(s: &str) -> String {
    // ASCII maps to ASCII, and the final-sigma rule reads the original `s`: lowercase the ASCII
    // first, then patch the non-ASCII characters that change (byte offsets are unchanged).
    let ascii = s.to_ascii_lowercase();
    let b = s.as_bytes();
    let mut out = String::new();
    // `ascii[seg..]` is not copied to `out` yet.
    let mut seg = 0;
    let mut i = 0;
    while let Some(off) = b[i..].iter().position(|&x| x >= 0x80) {
        let at = i + off;
        let c = s[at..].chars().next().unwrap_or_default();
        i = at + c.len_utf8();
        let mut buf = [0u8; 4];
        let mapped: &str = if (c as usize) < DIRECT {
            if c == '\u{130}' {
                "i\u{307}"
            } else {
                let l = LOWER_DIRECT[c as usize];
                if l == c {
                    continue;
                }
                l.encode_utf8(&mut buf)
            }
        } else if !BLOCK_HAS_LOWER
            .get(c as usize >> 8)
            .copied()
            .unwrap_or(false)
        {
            continue;
        } else if c == CAPITAL_SIGMA {
            let sigma = if is_final_sigma(s, at) {
                '\u{3c2}'
            } else {
                '\u{3c3}'
            };
            sigma.encode_utf8(&mut buf)
        } else if let Some(l) = lower_single(c) {
            l.encode_utf8(&mut buf)
        } else if let Some(m) = lower_multi(c) {
            m
        } else {
            continue;
        };
        if out.capacity() == 0 {
            out.reserve(s.len() + 8);
        }
        out.push_str(&ascii[seg..at]);
        out.push_str(mapped);
        seg = i;
    }
    if seg == 0 {
        return ascii;
    }
    out.push_str(&ascii[seg..]);
    out
}

/// CPython's `handle_capital_sigma` for the `'Σ'` at byte `i` of `s`: final (`'ς'`) iff
///
/// ```text
/// \p{cased} \p{case-ignorable}* Σ !( \p{case-ignorable}* \p{cased} )
/// ```
///
/// with CPython's own reading: the nearest character before that is not case-ignorable must
/// exist and be cased, and the nearest one after that is not case-ignorable must not exist or not
/// be cased (a character both cased and case-ignorable, like U+0345, is skipped).
fn is_final_sigma(s: &str, i: usize) -> bool {
    let before = s[..i].chars().rev().find(|&c| !is_case_ignorable(c));
    if !before.is_some_and(is_cased) {
        return false;
    }
    let after = s[i + CAPITAL_SIGMA.len_utf8()..]
        .chars()
        .find(|&c| !is_case_ignorable(c));
    !after.is_some_and(is_cased)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::testing::check_cases;

    #[test]
    fn ascii_and_simple() {
        check_cases(
            py_lower,
            &[
                ("Hello WORLD 123", "hello world 123"),
                ("ÄÖÜ ß ẞ", "äöü ß ß"),
                ("ΑΒΓ", "αβγ"),
                ("Ǆ ǅ", "ǆ ǆ"),
                ("ＡＢＣ", "ａｂｃ"),
                ("", ""),
            ],
        );
    }

    #[test]
    fn dotted_capital_i() {
        check_cases(
            py_lower,
            &[
                ("İ", "i\u{307}"),
                ("İSTANBUL", "i\u{307}stanbul"),
                ("I ı", "i ı"),
            ],
        );
    }

    #[test]
    fn final_sigma() {
        check_cases(
            py_lower,
            &[
                ("Σ", "σ"),
                ("ΑΣ", "ας"),
                ("ΟΔΟΣ ΟΔΟΣ.", "οδος οδος."),
                ("ΣΑ", "σα"),
                ("ΑΣΑ", "ασα"),
                ("ΑΣ'Α", "ασ'α"), // "'" is case-ignorable: still followed by a letter
                ("ΑΣ'", "ας'"),
                ("Α'Σ", "α'ς"),
                ("1Σ", "1σ"),
                ("ΑΣ1", "ας1"),
                ("ΑΣΣ", "ασς"),
                // U+0345 is cased and case-ignorable: skipped in both directions.
                ("\u{345}Σ", "\u{345}σ"),
                ("Α\u{345}Σ", "α\u{345}ς"),
                ("ΑΣ\u{345}", "ας\u{345}"),
                ("aΣ\u{301}b", "aσ\u{301}b"),
            ],
        );
    }

    #[test]
    fn block_filter_covers_every_mapping() {
        for &(c, _) in super::super::tables::LOWER_MULTI {
            assert!(BLOCK_HAS_LOWER[c as usize >> 8]);
            // The direct table only knows one-character mappings: U+0130 is special-cased.
            assert!(c as usize >= DIRECT || c == '\u{130}');
        }
        assert!(BLOCK_HAS_LOWER[CAPITAL_SIGMA as usize >> 8]);
    }

    #[test]
    fn tables_are_sane() {
        assert!(is_cased('a') && is_cased('Σ') && !is_cased('1'));
        assert!(is_case_ignorable('\'') && is_case_ignorable('\u{301}') && !is_case_ignorable('a'));
    }
}
