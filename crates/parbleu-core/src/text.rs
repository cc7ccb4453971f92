//! Python `str` semantics the metrics depend on: `isspace`, `split()`, `rstrip()`, `lower()`.
//!
//! SacreBLEU runs on CPython, so "whitespace" and "lowercase" mean what CPython 3.11 says
//! (Unicode 14.0), not what Rust's `char` methods say (they differ for U+001C..U+001F and for
//! characters added after Unicode 14).

/// `str.isspace()` for one character, as CPython defines it (bidirectional class WS, B or S,
/// or general category Zs).
#[inline]
pub fn py_is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\x0b' | '\x0c' | '\r' | '\x1c' | '\x1d' | '\x1e' | '\x1f' | ' '
            | '\u{85}' | '\u{a0}' | '\u{1680}' | '\u{2000}'..='\u{200a}' | '\u{2028}'
            | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
    )
}

/// `str.rstrip()` with no argument.
#[inline]
pub fn py_rstrip(s: &str) -> &str {
    s.trim_end_matches(py_is_space)
}

/// `str.strip()` with no argument.
#[inline]
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(py_is_space)
}

/// `str.split()` with no argument: runs of whitespace separate, no empty pieces.
#[inline]
pub fn py_split(s: &str) -> impl Iterator<Item = &str> {
    s.split(py_is_space).filter(|t| !t.is_empty())
}

/// `str.lower()`: CPython's full Unicode lowercase mapping (including final sigma).
pub fn py_lower(s: &str) -> String {
    crate::tokenize::lower::py_lower(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_matches_python_whitespace() {
        let v: Vec<&str> = py_split("a\x1cb\u{a0}c  d\u{200b}e").collect();
        assert_eq!(v, vec!["a", "b", "c", "d\u{200b}e"]);
    }

    #[test]
    fn rstrip_keeps_leading() {
        assert_eq!(py_rstrip("  a b \x1f\u{3000}"), "  a b");
    }
}
