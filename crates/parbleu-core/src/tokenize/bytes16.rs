//! Byte tests 16 bytes at a time, one bit per byte, for the tokenizers' hot loops (finding the
//! next byte that needs a closer look, or the next space).
//!
//! On x86_64 they use SSE2, which every x86_64 processor has: a dozen instructions replace a
//! table lookup, a compare and a branch per byte. Elsewhere a portable byte loop gives the same
//! results; the tests check the two against each other for every byte value in every lane.

/// 16 bytes of `b` from `i` (`i < b.len()`) and how many to drop from the front of the result
/// (bit `k` of a mask made from them is then `b[i + k]`): the last 16 bytes of `b` when fewer
/// are left, so that loads stay inside the line; zero-filled past the end of lines shorter
/// than 16 bytes.
#[inline(always)]
pub(crate) fn block16(b: &[u8], i: usize) -> ([u8; 16], u32) {
    let n = b.len();
    debug_assert!(i < n);
    let mut w = [0u8; 16];
    if i + 16 <= n {
        w.copy_from_slice(&b[i..i + 16]);
        (w, 0)
    } else if n >= 16 {
        w.copy_from_slice(&b[n - 16..]);
        (w, (i + 16 - n) as u32)
    } else {
        w[..n - i].copy_from_slice(&b[i..]);
        (w, 0)
    }
}

/// Byte tests on 16 bytes at once, one bit per byte (bit `k` for `w[k]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Classes16 {
    /// ASCII letters and digits.
    pub alnum: u32,
    /// `b' '`.
    pub space: u32,
    /// Non-ASCII bytes other than 0xc2 and 0xe1..=0xe3.
    pub high_not_c2_e1_e3: u32,
    /// UTF-8 continuation bytes (0x80..=0xbf).
    pub continuation: u32,
}

/// [`Classes16`] with SSE2 (x86_64's baseline): a handful of instructions for 16 bytes.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn classes16(w: [u8; 16]) -> Classes16 {
    use core::arch::x86_64::*;
    // SAFETY: SSE2 is always available on x86_64, and `w` is 16 readable bytes (an unaligned
    // load).
    unsafe {
        let v = _mm_loadu_si128(w.as_ptr().cast());
        let set = |c: u8| _mm_set1_epi8(c as i8);
        let mask = |m: __m128i| _mm_movemask_epi8(m) as u32;
        // Unsigned "x - lo < len" as a signed compare: x - lo + 0x80 < len - 0x80.
        let below = |x: __m128i, lo: u8, len: u8| {
            _mm_cmplt_epi8(
                _mm_add_epi8(x, set(0x80u8.wrapping_sub(lo))),
                set(0x80u8.wrapping_add(len)),
            )
        };
        let letter = below(_mm_or_si128(v, set(0x20)), b'a', 26);
        let digit = below(v, b'0', 10);
        let high = _mm_cmplt_epi8(v, _mm_setzero_si128());
        let special = _mm_or_si128(_mm_cmpeq_epi8(v, set(0xc2)), below(v, 0xe1, 3));
        Classes16 {
            alnum: mask(_mm_or_si128(letter, digit)),
            space: mask(_mm_cmpeq_epi8(v, set(b' '))),
            high_not_c2_e1_e3: mask(_mm_andnot_si128(special, high)),
            continuation: mask(below(v, 0x80, 0x40)),
        }
    }
}

/// [`Classes16`] byte by byte (elsewhere, and the reference for the SSE2 version).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
pub(crate) fn classes16_portable(w: [u8; 16]) -> Classes16 {
    let bits = |f: fn(u8) -> bool| {
        w.iter()
            .enumerate()
            .fold(0u32, |m, (k, &c)| m | u32::from(f(c)) << k)
    };
    Classes16 {
        alnum: bits(|c| c.is_ascii_alphanumeric()),
        space: bits(|c| c == b' '),
        high_not_c2_e1_e3: bits(|c| c >= 0x80 && !matches!(c, 0xc2 | 0xe1..=0xe3)),
        continuation: bits(|c| (0x80..=0xbf).contains(&c)),
    }
}

#[cfg(not(target_arch = "x86_64"))]
pub(crate) use classes16_portable as classes16;

/// The bytes of `w` equal to `c`, one bit per byte (bit `k` for `w[k]`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn eq16(w: [u8; 16], c: u8) -> u32 {
    use core::arch::x86_64::*;
    // SAFETY: as in `classes16`.
    unsafe {
        let v = _mm_loadu_si128(w.as_ptr().cast());
        _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8))) as u32
    }
}

/// [`eq16`] byte by byte.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
pub(crate) fn eq16_portable(w: [u8; 16], c: u8) -> u32 {
    w.iter()
        .enumerate()
        .fold(0u32, |m, (k, &x)| m | u32::from(x == c) << k)
}

#[cfg(not(target_arch = "x86_64"))]
pub(crate) use eq16_portable as eq16;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes16_is_the_portable_definition() {
        for v in 0..=255u8 {
            for lane in 0..16 {
                for fill in [0u8, b' ', b'a', 0x7f, 0x80, 0xc2, 0xff] {
                    let mut w = [fill; 16];
                    w[lane] = v;
                    assert_eq!(classes16(w), classes16_portable(w), "{w:?}");
                    assert_eq!(eq16(w, b' '), eq16_portable(w, b' '), "{w:?}");
                    assert_eq!(eq16(w, 0xc2), eq16_portable(w, 0xc2), "{w:?}");
                }
            }
        }
    }

    #[test]
    fn block16_keeps_the_line() {
        let b: Vec<u8> = (1..=40).collect();
        for len in 1..=40 {
            for i in 0..len {
                let (w, drop) = block16(&b[..len], i);
                for k in 0..16 - drop as usize {
                    let want = if i + k < len { b[i + k] } else { 0 };
                    assert_eq!(w[drop as usize + k], want, "len {len} i {i} k {k}");
                }
            }
        }
    }
}
