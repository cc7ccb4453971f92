//! Lookups over the generated Unicode tables (`text/tables.rs`, `flavors/tables.rs`,
//! `rouge/tables.rs`): the generators write only sorted, disjoint, inclusive code-point ranges;
//! these functions read them.

use super::tables::{
    CASED_RANGES, CASE_IGNORABLE_RANGES, CLASS_OTHER, INTL_CLASS_RANGES, LOWER_MULTI, LOWER_SINGLE,
    ZH_CHINESE_RANGES,
};

/// Whether `cp` lies in one of `ranges` (sorted, disjoint, inclusive `(first, last)`).
#[inline]
pub(crate) fn in_ranges(ranges: &[(u32, u32)], cp: u32) -> bool {
    let i = ranges.partition_point(|&(_, last)| last < cp);
    i < ranges.len() && ranges[i].0 <= cp
}

/// The class of `cp` in `ranges` (sorted, disjoint, inclusive `(first, last, class)`); 0 (no
/// class) outside them.
#[inline]
pub(crate) fn class_in_ranges(ranges: &[(u32, u32, u8)], cp: u32) -> u8 {
    let i = ranges.partition_point(|&(_, last, _)| last < cp);
    match ranges.get(i) {
        Some(&(first, _, class)) if first <= cp => class,
        _ => 0,
    }
}

/// The classes of the 128 ASCII characters in `ranges`, as a direct table built at compile
/// time (the common case skips the binary search).
pub(crate) const fn ascii_classes(ranges: &[(u32, u32, u8)]) -> [u8; 128] {
    let mut out = [0u8; 128];
    let mut i = 0;
    while i < ranges.len() {
        let (first, last, class) = ranges[i];
        let mut cp = first;
        while cp <= last && cp < 128 {
            out[cp as usize] = class;
            cp += 1;
        }
        i += 1;
    }
    out
}

// `class_in_ranges` answers 0 outside the ranges.
const _: () = assert!(CLASS_OTHER == 0);

/// `intl` classes of the ASCII characters.
pub(crate) const INTL_ASCII_CLASS: [u8; 128] = ascii_classes(INTL_CLASS_RANGES);

/// `intl` class of `c`: `CLASS_N`, `CLASS_P`, `CLASS_S` or `CLASS_OTHER` (of `tables`).
#[inline]
pub(crate) fn intl_class(c: char) -> u8 {
    let cp = c as u32;
    if cp < 0x80 {
        return INTL_ASCII_CLASS[cp as usize];
    }
    class_in_ranges(INTL_CLASS_RANGES, cp)
}

/// `TokenizerZh._is_chinese_char(c)`.
#[inline]
pub(crate) fn is_chinese(c: char) -> bool {
    in_ranges(ZH_CHINESE_RANGES, c as u32)
}

/// CPython's `_PyUnicode_IsCased(c)`.
#[inline]
pub(crate) fn is_cased(c: char) -> bool {
    in_ranges(CASED_RANGES, c as u32)
}

/// CPython's `_PyUnicode_IsCaseIgnorable(c)`.
#[inline]
pub(crate) fn is_case_ignorable(c: char) -> bool {
    in_ranges(CASE_IGNORABLE_RANGES, c as u32)
}

/// `c.lower()` when it is one character different from `c`.
#[inline]
pub(crate) fn lower_single(c: char) -> Option<char> {
    LOWER_SINGLE
        .binary_search_by_key(&c, |&(k, _)| k)
        .ok()
        .map(|i| LOWER_SINGLE[i].1)
}

/// `c.lower()` when it is several characters.
#[inline]
pub(crate) fn lower_multi(c: char) -> Option<&'static str> {
    LOWER_MULTI
        .binary_search_by_key(&c, |&(k, _)| k)
        .ok()
        .map(|i| LOWER_MULTI[i].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RANGES: &[(u32, u32, u8)] = &[(0x21, 0x23, 2), (0x30, 0x39, 1), (0x7E, 0x100, 3)];

    #[test]
    fn lookups_agree_with_a_linear_scan() {
        let ascii = ascii_classes(RANGES);
        let plain: Vec<(u32, u32)> = RANGES.iter().map(|&(a, b, _)| (a, b)).collect();
        for cp in 0..0x200 {
            let want = RANGES
                .iter()
                .find(|&&(a, b, _)| a <= cp && cp <= b)
                .map_or(0, |r| r.2);
            assert_eq!(class_in_ranges(RANGES, cp), want, "{cp:#x}");
            assert_eq!(in_ranges(&plain, cp), want != 0, "{cp:#x}");
            if cp < 128 {
                assert_eq!(ascii[cp as usize], want, "{cp:#x}");
            }
        }
    }
}
