//! The symbols n-grams are taken from, for hypotheses and references alike: the characters of
//! a text (with or without whitespace) and its words (`CHRF._remove_punctuation`).

use crate::text::{py_is_space, py_split};

/// `CHRF._remove_punctuation`: whitespace tokens, one punctuation character split off the end
/// (or, failing that, the start) of every token longer than one character. Punctuation is
/// `string.punctuation`, which is exactly `char::is_ascii_punctuation`.
pub fn remove_punctuation(sent: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for_each_word(sent, |w| out.push(w));
    out
}

/// `remove_punctuation` without collecting: `f` gets each word in order.
#[inline]
pub fn for_each_word<'a>(sent: &'a str, mut f: impl FnMut(&'a str)) {
    for w in py_split(sent) {
        let mut it = w.chars();
        let first = it.next().expect("split never yields empty tokens");
        let Some(last) = it.next_back() else {
            f(w);
            continue;
        };
        if last.is_ascii_punctuation() {
            let cut = w.len() - last.len_utf8();
            f(&w[..cut]);
            f(&w[cut..]);
        } else if first.is_ascii_punctuation() {
            let cut = first.len_utf8();
            f(&w[..cut]);
            f(&w[cut..]);
        } else {
            f(w);
        }
    }
}

/// [`for_each_word`] with each word's byte offset in `sent`.
#[inline]
pub(super) fn for_each_word_at<'a>(sent: &'a str, mut f: impl FnMut(usize, &'a str)) {
    let base = sent.as_ptr() as usize;
    for_each_word(sent, |w| f(w.as_ptr() as usize - base, w));
}

/// `py_is_space` of each ASCII character.
const ASCII_SPACE: [bool; 128] = {
    let mut t = [false; 128];
    let mut c = 0;
    while c < 128 {
        t[c] = py_is_space(c as u8 as char);
        c += 1;
    }
    t
};

/// The characters n-grams are taken from: all of them, or all but Python whitespace.
pub(super) fn char_symbols(text: &str, whitespace: bool, out: &mut Vec<u32>) {
    out.clear();
    out.resize(text.len(), 0); // at least one byte per character
    let bytes = text.as_bytes();
    let mut n = 0;
    for (i, &b) in bytes.iter().enumerate() {
        // Byte by byte (valid UTF-8): most text is ASCII, a table look-up; a lead byte
        // starts a character decoded here; continuation bytes are skipped.
        let (c, space) = if b < 0x80 {
            (u32::from(b), ASCII_SPACE[usize::from(b)])
        } else if b >= 0xC0 {
            let c = decode_at(bytes, i);
            (c, char::from_u32(c).is_some_and(py_is_space))
        } else {
            continue;
        };
        out[n] = c;
        n += usize::from(whitespace || !space);
    }
    out.truncate(n);
}

/// The code point whose UTF-8 encoding starts at `bytes[i]` (a lead byte of valid UTF-8).
#[inline]
fn decode_at(bytes: &[u8], i: usize) -> u32 {
    let b = u32::from(bytes[i]);
    let cont = |k: usize| u32::from(bytes[i + k] & 0x3F);
    if b < 0xE0 {
        ((b & 0x1F) << 6) | cont(1)
    } else if b < 0xF0 {
        ((b & 0x0F) << 12) | (cont(1) << 6) | cont(2)
    } else {
        ((b & 0x07) << 18) | (cont(1) << 12) | (cont(2) << 6) | cont(3)
    }
}
