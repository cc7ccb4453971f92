//! `zh`: SacreBLEU's `TokenizerZh`: `line.strip()`, a space on either side of each "Chinese"
//! character, then `TokenizerRegexp` (the language-dependent part of `13a`, without its padding).
//!
//! "Chinese" is whatever `TokenizerZh._is_chinese_char` says, brute-forced into
//! `ZH_CHINESE_RANGES` of `tables.rs` (see `tools/gen_unicode_tables.py`). Its `_UCODE_RANGES`
//! hold bounds such as `'\u20000'`, which Python reads as two characters (`'\u2000' + '0'`),
//! compared as strings with single characters: `('\u20000', '\u2a6d6')` really is
//! U+2001..=U+2A6D (general punctuation, currency signs, arrows, maths, box drawing, ... including
//! the spaces U+2001..U+200A) and `('\u2f800', '\u2fa1d')` is U+2F81..=U+2FA1; the intended
//! CJK Extension B and Compatibility Supplement are not "Chinese" at all.

use super::t13a;
use crate::text::py_strip;
use crate::text::ranges::is_chinese;

/// `TokenizerZh()(line)`.
pub fn tokenize(line: &str) -> String {
    let mut out = String::new();
    tokenize_into(line, &mut out);
    out
}

/// [`tokenize`] into `out`, replacing its contents and reusing its allocation.
pub fn tokenize_into(line: &str, out: &mut String) {
    // A space on each side of a character is a token boundary on each side of it, which is what
    // `scan_into` does with `isolated` characters; it behaves as a non-digit for `.`/`,` rules,
    // like the space SacreBLEU inserts.
    t13a::scan_into::<false, true, false>(py_strip(line), is_chinese, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::testing::check_cases;
    use crate::tokenize::testing::{agrees_with_reference, pad};

    /// `TokenizerZh` done the slow way: pad Chinese characters, then `TokenizerRegexp`.
    fn reference(line: &str) -> String {
        t13a::post_tokenize(&pad(py_strip(line), is_chinese))
    }

    #[test]
    fn chinese_characters_are_tokens() {
        check_cases(
            tokenize,
            &[
                ("我爱北京天安门。", "我 爱 北 京 天 安 门 。"),
                ("我有3.5个苹果,很好.", "我 有 3.5 个 苹 果 , 很 好 ."),
                ("ＡＢＣ１２３", "Ａ Ｂ Ｃ １ ２ ３"), // U+FF00..U+FFEF
            ],
        );
    }

    #[test]
    fn buggy_ranges_are_reproduced() {
        let chinese = [
            // '\u20000' is '\u2000' + '0': U+2000 itself is not Chinese, U+2001 is.
            ('\u{2000}', false),
            ('\u{2001}', true),
            ('€', true),
            ('\u{2a6d}', true),
            ('\u{2a6e}', false),
            // The intended CJK Extension B (U+20000..U+2A6D6) is not Chinese at all.
            ('\u{20000}', false),
            ('\u{2f800}', false),
            ('\u{4e00}', true),
            ('\u{9fbb}', true),
            ('\u{9fbc}', false),
        ];
        for (c, want) in chinese {
            assert_eq!(is_chinese(c), want, "{c:?}");
        }
        check_cases(
            tokenize,
            &[
                ("5€,x", "5 € , x"),
                ("a→b", "a → b"),
                ("\u{20000}\u{20001}", "\u{20000}\u{20001}"),
            ],
        );
    }

    #[test]
    fn strip_and_no_padding() {
        // After strip there is no space before the leading '.', unlike 13a.
        check_cases(
            tokenize,
            &[
                ("  .5  ", ".5"),
                ("5.", "5."),
                ("中.5", "中 . 5"),
                ("5.中", "5 . 中"),
                ("\u{3000}中\u{3000}", "中"),
                ("", ""),
            ],
        );
    }

    agrees_with_reference!(matches_padding_then_post_tokenize: tokenize, reference,
        alphabet ['a', '1', '.', ',', '-', ' ', '中', '€', '\u{2001}', 'é'],
        lines "([a-zA-Z0-9]{0,20}[ .,\\-中€é\u{2001}\u{3000}\u{20000}]{0,3}){0,8}");
}
