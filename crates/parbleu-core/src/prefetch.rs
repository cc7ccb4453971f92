//! Cache prefetch hints for loops that know which data they will read next.
//!
//! Batch scoring reads each hypothesis' text and its references' table once per pass, usually
//! from memory (grouped by shared references, hypotheses are visited out of their memory
//! order). Asking for the next pair's data while the current pair is scored hides that
//! latency. A hint never changes results, and is a no-op off x86_64.

/// Bytes per cache line.
const LINE: usize = 64;

/// Hint that the first `max_bytes` bytes of `data` will be read soon.
#[inline(always)]
pub fn prefetch<T>(data: &[T], max_bytes: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let bytes = std::mem::size_of_val(data).min(max_bytes);
        let p = data.as_ptr().cast::<i8>();
        let mut off = 0;
        while off < bytes {
            // SAFETY: a prefetch never faults and reads nothing architecturally; the address
            // stays inside `data`.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.add(off)) };
            off += LINE;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (data, max_bytes);
}
