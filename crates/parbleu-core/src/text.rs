//! Python `str` semantics the metrics depend on: `isspace`, `split()`, `rstrip()`, `lower()`.
//!
//! SacreBLEU runs on CPython, so "whitespace" and "lowercase" mean what CPython 3.11 says
//! (Unicode 14.0), not what Rust's `char` methods say (they differ for U+001C..U+001F and for
//! characters added after Unicode 14).

/// `str.isspace()` for one character, as CPython defines it (bidirectional class WS, B or S,
/// or general category Zs).
#[inline]
pub const fn py_is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n'
            | '\x0b'
            | '\x0c'
            | '\r'
            | '\x1c'
            | '\x1d'
            | '\x1e'
            | '\x1f'
            | ' '
            | '\u{85}'
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'
            ..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
    )
}

/// `str.rstrip()` with no argument.
#[inline]
pub fn py_rstrip(s: &str) -> &str {
    match s.as_bytes().last() {
        // Most lines end in an ASCII letter or punctuation: nothing to strip, and no need to
        // decode characters backwards.
        Some(&b) if b < 0x80 && LEAD_CLASS[b as usize] == 0 => s,
        _ => s.trim_end_matches(py_is_space),
    }
}

/// `str.strip()` with no argument.
#[inline]
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(py_is_space)
}

/// `str.split()` with no argument: runs of whitespace separate, no empty pieces.
#[inline]
pub fn py_split(s: &str) -> PySplit<'_> {
    PySplit { s, pos: 0 }
}

/// Length in bytes of the Python whitespace character starting at `b[i]`, or 0.
///
/// Works on bytes: every whitespace character is ASCII or one of a few 2- and 3-byte UTF-8
/// sequences, so no character decoding is needed on the hot path.
#[inline(always)]
fn space_len(b: &[u8], i: usize) -> usize {
    let c = b[i];
    match LEAD_CLASS[c as usize] {
        0 => 0,
        1 => 1,
        _ => multibyte_space_len(b, i),
    }
}

/// Per first byte: 0 never whitespace, 1 a one-byte whitespace character, 2 look further.
static LEAD_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    // \t \n \x0b \x0c \r \x1c-\x1f and space
    let ascii = [9u8, 10, 11, 12, 13, 28, 29, 30, 31, 32];
    let mut k = 0;
    while k < ascii.len() {
        t[ascii[k] as usize] = 1;
        k += 1;
    }
    t[0xC2] = 2;
    t[0xE1] = 2;
    t[0xE2] = 2;
    t[0xE3] = 2;
    t
};

#[cold]
#[inline(never)]
fn multibyte_space_len(b: &[u8], i: usize) -> usize {
    match b[i] {
        0xC2 => usize::from(matches!(b.get(i + 1), Some(0x85 | 0xA0))) * 2,
        0xE1 => usize::from(b.get(i + 1) == Some(&0x9A) && b.get(i + 2) == Some(&0x80)) * 3,
        0xE2 => {
            let ok = match (b.get(i + 1), b.get(i + 2)) {
                (Some(0x80), Some(&x)) => x <= 0x8A || x == 0xA8 || x == 0xA9 || x == 0xAF,
                (Some(0x81), Some(0x9F)) => true,
                _ => false,
            };
            usize::from(ok) * 3
        }
        0xE3 => usize::from(b.get(i + 1) == Some(&0x80) && b.get(i + 2) == Some(&0x80)) * 3,
        _ => 0,
    }
}

/// Iterator of [`py_split`].
pub struct PySplit<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Iterator for PySplit<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let b = self.s.as_bytes();
        let n = b.len();
        let mut i = self.pos;
        loop {
            if i >= n {
                self.pos = n;
                return None;
            }
            let k = space_len(b, i);
            if k == 0 {
                break;
            }
            i += k;
        }
        let start = i;
        while i < n && space_len(b, i) == 0 {
            i += 1;
        }
        self.pos = i;
        // `start` and `i` are on character boundaries: whitespace sequences are whole
        // characters and non-space bytes are skipped one at a time until a whitespace lead byte.
        Some(&self.s[start..i])
    }
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
    fn split_agrees_with_char_definition_for_every_scalar() {
        for cp in 0..=0x10FFFFu32 {
            let Some(c) = char::from_u32(cp) else {
                continue;
            };
            let line = format!("a{c}b{c}{c}\u{e9}{c}");
            let want: Vec<&str> = line.split(py_is_space).filter(|t| !t.is_empty()).collect();
            let got: Vec<&str> = py_split(&line).collect();
            assert_eq!(got, want, "U+{cp:04X}");
        }
    }

    #[test]
    fn rstrip_fast_path_equals_trim() {
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            for s in [format!("a{c}"), format!("{c}"), format!("a {c} ")] {
                assert_eq!(py_rstrip(&s), s.trim_end_matches(py_is_space), "{:?}", c);
            }
        }
    }

    #[test]
    fn rstrip_keeps_leading() {
        assert_eq!(py_rstrip("  a b \x1f\u{3000}"), "  a b");
    }
}
