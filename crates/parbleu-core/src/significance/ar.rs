//! Approximate randomization: packed masks, byte-table sums, exact and compatible scores.

use super::{check_rows, Domain, Num, Scorer, SplitMix64, Stat, TASK};
use crate::error::{Error, Result};
use crate::parallel;

/// Bytes of one packed mask: one bit per segment, little-endian within each byte (numpy's
/// `packbits(..., bitorder="little")`).
pub fn mask_bytes(n_seg: usize) -> usize {
    n_seg.div_ceil(8)
}

/// Packed AR masks of trials `first..first + n`: trial `t` takes its bits from stream
/// `(seed, t)`; bit set = the segment's row of system A goes to pseudo-system A.
pub fn ar_masks(seed: u64, first: u64, n: usize, n_seg: usize, workers: usize) -> Vec<u8> {
    let g = mask_bytes(n_seg);
    let mut out = vec![0u8; n * g];
    if g == 0 {
        return out;
    }
    let last = last_group_bits(n_seg);
    parallel::for_each_chunk(workers, &mut out, TASK * 64 * g, |start, chunk| {
        for (k, m) in chunk.chunks_mut(g).enumerate() {
            let mut rng = SplitMix64::stream(seed, Domain::Ar, first + (start / g + k) as u64);
            for bytes in m.chunks_mut(8) {
                let r = rng.next_u64().to_le_bytes();
                bytes.copy_from_slice(&r[..bytes.len()]);
            }
            m[g - 1] &= last;
        }
    });
    out
}

/// Bits of the last mask byte that stand for a segment.
pub(super) fn last_group_bits(n_seg: usize) -> u8 {
    match n_seg % 8 {
        0 => 0xFF,
        r => (1u8 << r) - 1,
    }
}

/// Table memory per block of segment groups.
const TABLE_BYTES: usize = 1 << 21;

/// Per trial, the summed rows of the two pseudo-systems: A takes system A's row where the mask
/// bit is set and system B's elsewhere; B the opposite. Returned as `(a, b)`, `n x w` each.
///
/// Integer sums are exact; float sums are taken group by group (8 segments, index order within
/// a group) in a fixed order, so they never depend on the thread count.
pub fn ar_sums<T: Stat>(
    sc: &Scorer,
    a: &[T],
    b: &[T],
    n_seg: usize,
    masks: &[u8],
    workers: usize,
) -> Result<(Vec<T>, Vec<T>)> {
    check_rows(sc, a, n_seg, "approximate randomization (baseline)")?;
    check_rows(sc, b, n_seg, "approximate randomization (system)")?;
    let w = sc.width();
    let groups = mask_bytes(n_seg);
    let rem = masks.len() % groups;
    if rem > 0 {
        return Err(Error::BadStatsShape {
            expected: groups,
            found: rem,
        });
    }
    let n = masks.len() / groups;
    let valid_last = last_group_bits(n_seg);
    // Per trial: A's sum (and B's, for floats).
    let stride = if T::EXACT { w } else { 2 * w };
    let mut acc = vec![T::default(); n * stride];
    let per_block = (TABLE_BYTES / (256 * w * std::mem::size_of::<T>())).clamp(1, groups);
    let mut table = vec![T::default(); per_block * 256 * w];
    for g0 in (0..groups).step_by(per_block) {
        let g1 = (g0 + per_block).min(groups);
        let tab = &mut table[..(g1 - g0) * 256 * w];
        parallel::for_each_chunk(workers, tab, 256 * w, |start, t| {
            build_group(a, b, w, n_seg, g0 + start / (256 * w), t);
        });
        let tab = &table[..(g1 - g0) * 256 * w];
        parallel::for_each_chunk(workers, &mut acc, TASK * 8 * stride, |start, chunk| {
            let t0 = start / stride;
            for (k, sums) in chunk.chunks_mut(stride).enumerate() {
                let m = &masks[(t0 + k) * groups..(t0 + k + 1) * groups];
                let (sa, sb) = sums.split_at_mut(w);
                for g in g0..g1 {
                    let base = (g - g0) * 256;
                    let e = &tab[(base + m[g] as usize) * w..][..w];
                    for (x, &y) in sa.iter_mut().zip(e) {
                        *x += y;
                    }
                    if !T::EXACT {
                        let valid = if g + 1 == groups { valid_last } else { 0xFF };
                        let e = &tab[(base + (!m[g] & valid) as usize) * w..][..w];
                        for (x, &y) in sb.iter_mut().zip(e) {
                            *x += y;
                        }
                    }
                }
            }
        });
    }
    if T::EXACT {
        let mut total = vec![T::default(); w];
        for rows in [a, b] {
            for r in rows.chunks_exact(w) {
                for (x, &y) in total.iter_mut().zip(r) {
                    *x += y;
                }
            }
        }
        let mut bsum = acc.clone();
        for (bb, aa) in bsum.chunks_mut(w).zip(acc.chunks(w)) {
            for ((x, &y), &t) in bb.iter_mut().zip(aa).zip(&total) {
                *x = t - y;
            }
        }
        Ok((acc, bsum))
    } else {
        let mut sa = Vec::with_capacity(n * w);
        let mut sb = Vec::with_capacity(n * w);
        for sums in acc.chunks(stride) {
            sa.extend_from_slice(&sums[..w]);
            sb.extend_from_slice(&sums[w..]);
        }
        Ok((sa, sb))
    }
}

/// The 256 sums of group `g` (segments `8g..8g+8`): entry `m` adds, for each segment `j` of
/// the group, A's row if bit `j` of `m` is set and B's row otherwise (bits past the last
/// segment add nothing).
fn build_group<T: Stat>(a: &[T], b: &[T], w: usize, n_seg: usize, g: usize, t: &mut [T]) {
    let segs = (n_seg - 8 * g).min(8);
    let (a, b) = (&a[8 * g * w..], &b[8 * g * w..]);
    let row = |from_a: bool, j: usize| {
        let src = if from_a { a } else { b };
        &src[j * w..(j + 1) * w]
    };
    if T::EXACT {
        // Entry 0 is B's rows; each other entry is one already-built entry plus (A - B) of its
        // lowest set bit. Exact for integers.
        t[..w].fill(T::default());
        for j in 0..segs {
            for (x, &y) in t[..w].iter_mut().zip(row(false, j)) {
                *x += y;
            }
        }
        for m in 1..256usize {
            let j = m.trailing_zeros() as usize;
            let prev = m & (m - 1);
            let (done, rest) = t.split_at_mut(m * w);
            let dst = &mut rest[..w];
            dst.copy_from_slice(&done[prev * w..(prev + 1) * w]);
            if j < segs {
                for ((x, &ya), &yb) in dst.iter_mut().zip(row(true, j)).zip(row(false, j)) {
                    *x += ya - yb;
                }
            }
        }
    } else {
        // Direct sums in segment order: float results depend only on the data.
        for m in 0..256usize {
            let dst = &mut t[m * w..(m + 1) * w];
            dst.fill(T::default());
            for j in 0..segs {
                let src = if m >> j & 1 == 1 {
                    row(true, j)
                } else {
                    row(false, j)
                };
                for (x, &y) in dst.iter_mut().zip(src) {
                    *x += y;
                }
            }
        }
    }
}

/// AR scores: per trial, the scores of pseudo-systems A and B (`ar_sums`).
///
/// Exact scores, or with `compat` SacreBLEU's: `metric._aggregate_and_compute(x).score` for
/// every row `x` of `pos_sel @ bl_stats + neg_sel @ sys_stats` (and the opposite), with the
/// int64 / float64 numpy rows that matrix product gives.
// Stays: two systems, their length and the masks are inputs, not options to bundle.
#[allow(clippy::too_many_arguments)]
pub fn ar<T: Stat>(
    sc: &Scorer,
    a: &[T],
    b: &[T],
    n_seg: usize,
    masks: &[u8],
    compat: bool,
    workers: usize,
) -> Result<(Vec<f64>, Vec<f64>)> {
    sc.check()?;
    let (sa, sb) = ar_sums(sc, a, b, n_seg, masks, workers)?;
    Ok(if compat {
        score_pairs(sc, &sa, &sb, workers, |sc, row: &[T]| {
            let nums: Vec<Num> = row.iter().map(|x| x.py()).collect();
            sc.compat(&nums, T::EXACT).value()
        })
    } else {
        score_pairs(sc, &sa, &sb, workers, T::exact)
    })
}

fn score_pairs<T: Stat, F>(
    sc: &Scorer,
    sa: &[T],
    sb: &[T],
    workers: usize,
    f: F,
) -> (Vec<f64>, Vec<f64>)
where
    F: Fn(&Scorer, &[T]) -> f64 + Sync,
{
    let w = sc.width();
    let n = sa.len() / w;
    let mut out = vec![(0.0, 0.0); n];
    parallel::for_each_chunk(workers, &mut out, TASK * 32, |start, chunk| {
        for (k, o) in chunk.iter_mut().enumerate() {
            let t = start + k;
            *o = (
                f(sc, &sa[t * w..(t + 1) * w]),
                f(sc, &sb[t * w..(t + 1) * w]),
            );
        }
    });
    out.into_iter().unzip()
}
