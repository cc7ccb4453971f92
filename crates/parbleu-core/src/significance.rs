//! Significance testing on additive statistics: bootstrap resampling and approximate
//! randomization (AR), parallel over resamples, identical results at any thread count.
//!
//! Two paths share the resampling loops:
//!
//! - **exact**: statistics are summed as integers (TER: float64 in a fixed order), indices and
//!   masks come from a small counter-based PRNG ([`SplitMix64::stream`]): resample `r` always
//!   uses stream `(seed, r)`, whichever thread computes it and however the work is split.
//!   Scores are the metrics' own `finalize` functions, so a resample's score is exactly the
//!   corpus score of the resampled corpus.
//! - **SacreBLEU-compatible**: the caller supplies numpy's draws; bootstrap sums are float32
//!   added in numpy's order and scored with SacreBLEU's mixed float32 / float64 arithmetic
//!   ([`Num`]), so every value is bit-identical to SacreBLEU 2.6's.
//!
//! AR sums use byte tables: for each group of 8 segments, the 256 possible sums of "this row
//! from system A, that row from system B" are tabulated once, so one trial costs one lookup
//! and one vector addition per 8 segments instead of 8.

use crate::error::{Error, Result};
use crate::metrics::{bleu, chrf, ter};
use crate::parallel;
use crate::pysum::{add_my_log, PySum};

// --- PRNG -------------------------------------------------------------------------------------

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function (Stafford's Mix13), a bijection on `u64`.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What a random stream is used for: streams of different domains never coincide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    /// Bootstrap resample indices.
    Bootstrap = 1,
    /// Approximate-randomization masks.
    Ar = 2,
}

/// SplitMix64 (Steele, Lea and Flood 2014): 64 bits of state, passes BigCrush, and cheap to
/// seed, which makes one independent stream per resample practical.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started at `seed` (every `u64`, 0 included, is a distinct seed).
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The stream of resample or trial `index` under `seed`: a pure function of its arguments.
    pub fn stream(seed: u64, domain: Domain, index: u64) -> Self {
        let key = mix64(seed ^ mix64(domain as u64));
        SplitMix64::new(mix64(key ^ mix64(index.wrapping_add(GOLDEN))))
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        mix64(self.state)
    }

    /// A uniform integer in `0..n` (`n > 0`), without modulo bias (Lemire 2019).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        let mut low = m as u64;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
                low = m as u64;
            }
        }
        (m >> 64) as u64
    }
}

// --- SacreBLEU's mixed float32 / float64 arithmetic --------------------------------------------

/// A number as SacreBLEU's significance code holds it: a Python `float` (or a small `int`),
/// or a numpy `float32` scalar.
///
/// numpy (>= 2, NEP 50) computes `float32 op float32` in float32 and converts a Python scalar
/// to float32 before `float32 op python_scalar`; Python scalars among themselves stay float64.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// A Python `float` (or an `int` small enough to be exact in one).
    Py(f64),
    /// A numpy `float32` scalar.
    F32(f32),
}

impl Num {
    /// The value as a float64 (exact).
    #[inline]
    pub fn value(self) -> f64 {
        match self {
            Num::Py(x) => x,
            Num::F32(x) => f64::from(x),
        }
    }

    /// Whether this is a numpy `float32`.
    #[inline]
    pub fn is_f32(self) -> bool {
        matches!(self, Num::F32(_))
    }

    #[inline]
    fn op(self, o: Num, f: fn(f64, f64) -> f64, g: fn(f32, f32) -> f32) -> Num {
        match (self, o) {
            (Num::Py(a), Num::Py(b)) => Num::Py(f(a, b)),
            (Num::F32(a), Num::F32(b)) => Num::F32(g(a, b)),
            (Num::Py(a), Num::F32(b)) => Num::F32(g(a as f32, b)),
            (Num::F32(a), Num::Py(b)) => Num::F32(g(a, b as f32)),
        }
    }
}

impl std::ops::Add for Num {
    type Output = Num;
    #[inline]
    fn add(self, o: Num) -> Num {
        self.op(o, |a, b| a + b, |a, b| a + b)
    }
}

impl std::ops::Mul for Num {
    type Output = Num;
    #[inline]
    fn mul(self, o: Num) -> Num {
        self.op(o, |a, b| a * b, |a, b| a * b)
    }
}

impl std::ops::Div for Num {
    type Output = Num;
    #[inline]
    fn div(self, o: Num) -> Num {
        self.op(o, |a, b| a / b, |a, b| a / b)
    }
}

// --- metrics ----------------------------------------------------------------------------------

/// The finalize step of one metric, with its options.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scorer {
    Bleu(bleu::BleuScoreOpts),
    Chrf(chrf::ChrfScoreOpts),
    Ter,
}

impl Scorer {
    /// Width of a statistics row.
    pub fn width(&self) -> usize {
        match self {
            Scorer::Bleu(o) => 2 + 2 * o.max_order,
            Scorer::Chrf(o) => o.width(),
            Scorer::Ter => 2,
        }
    }

    /// Refuse options no score can be computed with.
    pub fn check(&self) -> Result<()> {
        match self {
            Scorer::Bleu(o) if o.max_order == 0 => Err(Error::InvalidOption {
                name: "max_ngram_order".into(),
                value: "0".into(),
                expected: "an integer >= 1".into(),
            }),
            Scorer::Chrf(o) => o.check(),
            _ => Ok(()),
        }
    }

    /// The exact score of an integer row (the metric's own `finalize`).
    #[inline]
    pub fn exact_i64(&self, row: &[i64]) -> f64 {
        match self {
            Scorer::Bleu(o) => bleu::finalize(row, o).score,
            Scorer::Chrf(o) => chrf::f_score(row, o),
            Scorer::Ter => ter::finalize(row[0] as f64, row[1] as f64),
        }
    }

    /// The exact score of a float row (TER; integer-valued rows of the other metrics).
    #[inline]
    pub fn exact_f64(&self, row: &[f64]) -> f64 {
        match self {
            Scorer::Ter => ter::finalize(row[0], row[1]),
            _ => {
                let ints: Vec<i64> = row.iter().map(|&x| x as i64).collect();
                self.exact_i64(&ints)
            }
        }
    }

    /// SacreBLEU's `_compute_score_from_stats(row).score`, with the row's elements typed as
    /// SacreBLEU holds them: `Num::F32` for a summed float32 bootstrap resample, `Num::Py` for
    /// the int64 / float64 rows of approximate randomization. `int_storage`: the row is an
    /// int64 numpy array, so BLEU's in-place add-k truncates `count + k` to an integer.
    pub fn compat(&self, row: &[Num], int_storage: bool) -> Num {
        match self {
            Scorer::Bleu(o) => bleu_compat(row, o, int_storage),
            Scorer::Chrf(o) => chrf_compat(row, o),
            Scorer::Ter => ter_compat(row[0], row[1]),
        }
    }
}

/// SacreBLEU's `BLEU.compute_bleu` on numpy values (`correct` and `total` are slices of the
/// numpy row, so add-k updates them in place with the row's dtype).
fn bleu_compat(row: &[Num], o: &bleu::BleuScoreOpts, int_storage: bool) -> Num {
    let n_ord = o.max_order;
    // `sys_len=int(stats[0])`: Python ints; their true division is correctly rounded.
    let sys_len = row[0].value().trunc();
    let ref_len = row[1].value().trunc();
    let mut bp = 1.0;
    if sys_len < ref_len {
        bp = if sys_len > 0.0 {
            (1.0 - ref_len / sys_len).exp()
        } else {
            0.0
        };
    }
    let correct = &row[2..2 + n_ord];
    let total = &row[2 + n_ord..2 + 2 * n_ord];
    if correct.iter().all(|c| c.value() == 0.0) {
        return Num::Py(0.0);
    }
    let mut log_sum = PySum::new();
    let mut n_logs = 0usize;
    let mut smooth_mteval = Num::Py(1.0);
    let mut eff_order = n_ord;
    let hundred = Num::Py(100.0);
    for n in 1..=n_ord {
        let (mut c, mut t) = (correct[n - 1], total[n - 1]);
        if let bleu::Smooth::AddK(k) = o.smooth {
            if n > 1 {
                c = c + Num::Py(k);
                t = t + Num::Py(k);
                if int_storage {
                    c = Num::Py(c.value().trunc());
                    t = Num::Py(t.value().trunc());
                }
            }
        }
        if t.value() == 0.0 {
            break;
        }
        if o.effective_order {
            eff_order = n;
        }
        let p = if c.value() == 0.0 {
            match o.smooth {
                bleu::Smooth::Exp => {
                    smooth_mteval = smooth_mteval * Num::Py(2.0);
                    hundred / (smooth_mteval * t)
                }
                bleu::Smooth::Floor(v) => Num::Py(100.0 * v) / t,
                _ => Num::Py(0.0),
            }
        } else {
            hundred * c / t
        };
        if n <= eff_order {
            add_my_log(&mut log_sum, p.value());
            n_logs = n;
        }
    }
    // Orders after a `break` keep precision 0.0: my_log gives -9999999999 for each.
    for _ in n_logs..eff_order {
        add_my_log(&mut log_sum, 0.0);
    }
    Num::Py(bp * (log_sum.value() / eff_order as f64).exp())
}

/// SacreBLEU's `CHRF._compute_f_score` on numpy values.
fn chrf_compat(row: &[Num], o: &chrf::ChrfScoreOpts) -> Num {
    let eps = Num::Py(1e-16);
    let factor = Num::Py(o.factor);
    let one_plus = Num::Py(o.one_plus_factor);
    let mut score = Num::Py(0.0);
    let mut effective_order = 0usize;
    let (mut avg_prec, mut avg_rec) = (Num::Py(0.0), Num::Py(0.0));
    let order = o.order();
    for i in 0..order {
        let (n_hyp, n_ref, n_match) = (row[3 * i], row[3 * i + 1], row[3 * i + 2]);
        let prec = if n_hyp.value() > 0.0 {
            n_match / n_hyp
        } else {
            eps
        };
        let rec = if n_ref.value() > 0.0 {
            n_match / n_ref
        } else {
            eps
        };
        let denom = factor * prec + rec;
        score = score
            + if denom.value() > 0.0 {
                one_plus * prec * rec / denom
            } else {
                eps
            };
        if n_hyp.value() > 0.0 && n_ref.value() > 0.0 {
            avg_prec = avg_prec + prec;
            avg_rec = avg_rec + rec;
            effective_order += 1;
        }
    }
    if o.eps_smoothing {
        return Num::Py(100.0) * score / Num::Py(order as f64);
    }
    if effective_order == 0 {
        avg_prec = Num::Py(0.0);
        avg_rec = Num::Py(0.0);
    } else {
        avg_prec = avg_prec / Num::Py(effective_order as f64);
        avg_rec = avg_rec / Num::Py(effective_order as f64);
    }
    if (avg_prec + avg_rec).value() != 0.0 {
        let mut s = one_plus * avg_prec * avg_rec;
        s = s / ((factor * avg_prec) + avg_rec);
        Num::Py(100.0) * s
    } else {
        Num::Py(0.0)
    }
}

/// SacreBLEU's `TER._compute_score_from_stats` on numpy values.
fn ter_compat(total_edits: Num, sum_ref_lengths: Num) -> Num {
    let score = if sum_ref_lengths.value() > 0.0 {
        total_edits / sum_ref_lengths
    } else if total_edits.value() > 0.0 {
        Num::Py(1.0)
    } else {
        Num::Py(0.0)
    };
    Num::Py(100.0) * score
}

// --- statistics element types -----------------------------------------------------------------

/// An element of a statistics row: `i64` (BLEU, chrF) or `f64` (TER).
pub trait Stat:
    Copy
    + Default
    + Send
    + Sync
    + PartialEq
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::AddAssign
    + 'static
{
    /// Sums are exact in any order (integers): `b = total - a` is then exact too.
    const EXACT: bool;
    /// The metric's exact score of a summed row.
    fn exact(sc: &Scorer, row: &[Self]) -> f64;
    /// The element as SacreBLEU holds it in an int64 / float64 numpy row.
    fn py(self) -> Num;
}

impl Stat for i64 {
    const EXACT: bool = true;
    #[inline]
    fn exact(sc: &Scorer, row: &[i64]) -> f64 {
        sc.exact_i64(row)
    }
    #[inline]
    fn py(self) -> Num {
        Num::Py(self as f64)
    }
}

impl Stat for f64 {
    const EXACT: bool = false;
    #[inline]
    fn exact(sc: &Scorer, row: &[f64]) -> f64 {
        sc.exact_f64(row)
    }
    #[inline]
    fn py(self) -> Num {
        Num::Py(self)
    }
}

fn check_rows<T>(sc: &Scorer, rows: &[T], n_seg: usize, what: &str) -> Result<()> {
    let w = sc.width();
    if n_seg == 0 {
        return Err(Error::InvalidOption {
            name: what.into(),
            value: "0 segments".into(),
            expected: "at least one segment".into(),
        });
    }
    if rows.len() != n_seg * w {
        return Err(Error::LengthMismatch {
            what: format!("{what}: statistics values ({n_seg} segments x {w} columns)"),
            expected: n_seg * w,
            found: rows.len(),
        });
    }
    Ok(())
}

fn check_indices(idxs: &[i64], n_seg: usize) -> Result<usize> {
    let rem = idxs.len() % n_seg;
    if rem > 0 {
        return Err(Error::BadStatsShape {
            expected: n_seg,
            found: rem,
        });
    }
    if let Some(&bad) = idxs.iter().find(|&&i| i < 0 || i as u64 >= n_seg as u64) {
        return Err(Error::InvalidOption {
            name: "resample indices".into(),
            value: bad.to_string(),
            expected: format!("integers in 0..{n_seg}"),
        });
    }
    Ok(idxs.len() / n_seg)
}

/// Resamples (or trials) computed by one task: small enough to balance two to sixty-four
/// threads, large enough that scheduling costs nothing.
const TASK: usize = 8;

// --- bootstrap --------------------------------------------------------------------------------

/// Exact paired bootstrap: resample `r` (`first..first + n`) draws `n_seg` indices from stream
/// `(seed, r)` and scores every system on those same segments.
///
/// Returns `n * systems.len()` scores, resample-major (`out[r * n_sys + s]`).
pub fn bootstrap<T: Stat>(
    sc: &Scorer,
    systems: &[&[T]],
    n_seg: usize,
    seed: u64,
    first: u64,
    n: usize,
    workers: usize,
) -> Result<Vec<f64>> {
    sc.check()?;
    for s in systems {
        check_rows(sc, s, n_seg, "bootstrap")?;
    }
    Ok(resample(sc, systems, n_seg, n, workers, |r, idx| {
        let mut rng = SplitMix64::stream(seed, Domain::Bootstrap, first + r as u64);
        idx.clear();
        idx.extend((0..n_seg).map(|_| rng.below(n_seg as u64) as usize));
    }))
}

/// Exact paired bootstrap on given indices (`idxs`: `n x n_seg`, row-major).
pub fn bootstrap_indices<T: Stat>(
    sc: &Scorer,
    systems: &[&[T]],
    n_seg: usize,
    idxs: &[i64],
    workers: usize,
) -> Result<Vec<f64>> {
    sc.check()?;
    for s in systems {
        check_rows(sc, s, n_seg, "bootstrap")?;
    }
    let n = check_indices(idxs, n_seg)?;
    Ok(resample(sc, systems, n_seg, n, workers, |r, idx| {
        idx.clear();
        idx.extend(idxs[r * n_seg..(r + 1) * n_seg].iter().map(|&i| i as usize));
    }))
}

fn resample<T: Stat, D>(
    sc: &Scorer,
    systems: &[&[T]],
    n_seg: usize,
    n: usize,
    workers: usize,
    draw: D,
) -> Vec<f64>
where
    D: Fn(usize, &mut Vec<usize>) + Sync,
{
    let w = sc.width();
    let n_sys = systems.len();
    let mut out = vec![0.0; n * n_sys];
    if n_sys == 0 {
        return out;
    }
    parallel::for_each_chunk(workers, &mut out, TASK * n_sys, |start, chunk| {
        let mut idx = Vec::with_capacity(n_seg);
        let mut acc = vec![T::default(); w];
        for (k, res) in chunk.chunks_mut(n_sys).enumerate() {
            draw(start / n_sys + k, &mut idx);
            for (s, rows) in systems.iter().enumerate() {
                acc.fill(T::default());
                for &i in &idx {
                    for (a, &x) in acc.iter_mut().zip(&rows[i * w..(i + 1) * w]) {
                        *a += x;
                    }
                }
                res[s] = T::exact(sc, &acc);
            }
        }
    });
    out
}

/// SacreBLEU's bootstrap resample scores: `metric._compute_score_from_stats(
/// stats_f32[idx].sum(0)).score` for every row `idx` of `idxs` (`n x n_seg`, numpy's draws).
///
/// `rows` is SacreBLEU's `np.array(stats, dtype='float32')`; each resample is summed in
/// float32 in index order, as numpy sums a C-contiguous array over axis 0.
pub fn bootstrap_compat(
    sc: &Scorer,
    rows: &[f32],
    n_seg: usize,
    idxs: &[i64],
    workers: usize,
) -> Result<Vec<Num>> {
    sc.check()?;
    check_rows(sc, rows, n_seg, "bootstrap")?;
    let n = check_indices(idxs, n_seg)?;
    let w = sc.width();
    let mut out = vec![Num::Py(0.0); n];
    parallel::for_each_chunk(workers, &mut out, TASK, |start, chunk| {
        let mut acc = vec![0f32; w];
        let mut row = vec![Num::Py(0.0); w];
        for (k, o) in chunk.iter_mut().enumerate() {
            let r = start + k;
            acc.fill(0.0);
            for &i in &idxs[r * n_seg..(r + 1) * n_seg] {
                let i = i as usize;
                for (a, &x) in acc.iter_mut().zip(&rows[i * w..(i + 1) * w]) {
                    *a += x;
                }
            }
            for (v, &a) in row.iter_mut().zip(&acc) {
                *v = Num::F32(a);
            }
            *o = sc.compat(&row, false);
        }
    });
    Ok(out)
}

// --- approximate randomization ---------------------------------------------------------------

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
fn last_group_bits(n_seg: usize) -> u8 {
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

/// Exact AR scores: per trial, the scores of pseudo-systems A and B (`ar_sums`).
pub fn ar<T: Stat>(
    sc: &Scorer,
    a: &[T],
    b: &[T],
    n_seg: usize,
    masks: &[u8],
    workers: usize,
) -> Result<(Vec<f64>, Vec<f64>)> {
    sc.check()?;
    let (sa, sb) = ar_sums(sc, a, b, n_seg, masks, workers)?;
    Ok(score_pairs(sc, &sa, &sb, workers, T::exact))
}

/// SacreBLEU's AR scores: `metric._aggregate_and_compute(x).score` for every row `x` of
/// `pos_sel @ bl_stats + neg_sel @ sys_stats` (and the opposite), with the int64 / float64
/// numpy rows that matrix product gives.
pub fn ar_compat<T: Stat>(
    sc: &Scorer,
    a: &[T],
    b: &[T],
    n_seg: usize,
    masks: &[u8],
    workers: usize,
) -> Result<(Vec<f64>, Vec<f64>)> {
    sc.check()?;
    let (sa, sb) = ar_sums(sc, a, b, n_seg, masks, workers)?;
    Ok(score_pairs(sc, &sa, &sb, workers, |sc, row: &[T]| {
        let nums: Vec<Num> = row.iter().map(|x| x.py()).collect();
        sc.compat(&nums, T::EXACT).value()
    }))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn bleu_opts(smooth: bleu::Smooth) -> Scorer {
        Scorer::Bleu(bleu::BleuScoreOpts {
            smooth,
            effective_order: false,
            max_order: 4,
        })
    }

    /// Synthetic BLEU rows: `hyp_len, ref_len, match_1..4, total_1..4`.
    fn bleu_rows(n: usize, seed: u64) -> Vec<i64> {
        let mut rng = SplitMix64::new(seed);
        let mut rows = Vec::new();
        for _ in 0..n {
            let len = 5 + rng.below(30) as i64;
            let rl = len + rng.below(7) as i64 - 3;
            rows.extend([len, rl.max(1)]);
            let totals: Vec<i64> = (0..4).map(|k| (len - k).max(0)).collect();
            let matches: Vec<i64> = totals
                .iter()
                .map(|&t| rng.below(t as u64 + 1) as i64 / 2)
                .collect();
            rows.extend(matches);
            rows.extend(totals);
        }
        rows
    }

    #[test]
    fn streams_are_pure_functions_of_seed_and_index() {
        let a: Vec<u64> = (0..4)
            .map(|i| SplitMix64::stream(0, Domain::Bootstrap, i).next_u64())
            .collect();
        let b: Vec<u64> = (0..4)
            .map(|i| SplitMix64::stream(0, Domain::Bootstrap, i).next_u64())
            .collect();
        assert_eq!(a, b);
        let c = SplitMix64::stream(1, Domain::Bootstrap, 0).next_u64();
        let d = SplitMix64::stream(0, Domain::Ar, 0).next_u64();
        assert!(!a.contains(&c) && !a.contains(&d));
    }

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut rng = SplitMix64::new(0);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[rng.below(7) as usize] += 1;
        }
        for c in counts {
            assert!((9_500..10_500).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn bootstrap_is_identical_for_any_thread_count_and_split() {
        let sc = bleu_opts(bleu::Smooth::Exp);
        let (x, y) = (bleu_rows(300, 1), bleu_rows(300, 2));
        let sys: Vec<&[i64]> = vec![&x, &y];
        let one = bootstrap(&sc, &sys, 300, 7, 0, 50, 1).unwrap();
        let four = bootstrap(&sc, &sys, 300, 7, 0, 50, 4).unwrap();
        assert_eq!(one, four);
        let mut split = bootstrap(&sc, &sys, 300, 7, 0, 20, 2).unwrap();
        split.extend(bootstrap(&sc, &sys, 300, 7, 20, 30, 3).unwrap());
        assert_eq!(one, split);
        let other_seed = bootstrap(&sc, &sys, 300, 8, 0, 50, 1).unwrap();
        assert_ne!(one, other_seed);
    }

    #[test]
    fn identity_resample_is_the_corpus_score() {
        let sc = bleu_opts(bleu::Smooth::Exp);
        let x = bleu_rows(100, 3);
        let idxs: Vec<i64> = (0..100).collect();
        let got = bootstrap_indices(&sc, &[&x[..]], 100, &idxs, 1).unwrap();
        let mut sum = vec![0i64; 10];
        for r in x.chunks(10) {
            for (s, v) in sum.iter_mut().zip(r) {
                *s += v;
            }
        }
        assert_eq!(got, vec![sc.exact_i64(&sum)]);
    }

    #[test]
    fn ar_tables_equal_direct_sums() {
        for n_seg in [1usize, 7, 8, 9, 64, 131] {
            let sc = bleu_opts(bleu::Smooth::Exp);
            let (x, y) = (bleu_rows(n_seg, 4), bleu_rows(n_seg, 5));
            let masks = ar_masks(11, 0, 40, n_seg, 1);
            let (sa, sb) = ar_sums(&sc, &x, &y, n_seg, &masks, 2).unwrap();
            let xf: Vec<f64> = x.iter().map(|&v| v as f64).collect();
            let yf: Vec<f64> = y.iter().map(|&v| v as f64).collect();
            let (fa, fb) = ar_sums(&sc, &xf, &yf, n_seg, &masks, 3).unwrap();
            let g = mask_bytes(n_seg);
            for t in 0..40 {
                let mut da = vec![0i64; 10];
                let mut db = vec![0i64; 10];
                for i in 0..n_seg {
                    let bit = masks[t * g + i / 8] >> (i % 8) & 1 == 1;
                    let (ra, rb) = (&x[i * 10..i * 10 + 10], &y[i * 10..i * 10 + 10]);
                    let (pa, pb) = if bit { (ra, rb) } else { (rb, ra) };
                    for k in 0..10 {
                        da[k] += pa[k];
                        db[k] += pb[k];
                    }
                }
                assert_eq!(&sa[t * 10..t * 10 + 10], &da[..]);
                assert_eq!(&sb[t * 10..t * 10 + 10], &db[..]);
                let fa_i: Vec<i64> = fa[t * 10..t * 10 + 10].iter().map(|&v| v as i64).collect();
                let fb_i: Vec<i64> = fb[t * 10..t * 10 + 10].iter().map(|&v| v as i64).collect();
                assert_eq!(fa_i, da);
                assert_eq!(fb_i, db);
            }
        }
    }

    #[test]
    fn ar_all_baseline_mask_gives_the_baseline_score() {
        let sc = bleu_opts(bleu::Smooth::Exp);
        let (x, y) = (bleu_rows(37, 6), bleu_rows(37, 7));
        let g = mask_bytes(37);
        let mut masks = vec![0xFFu8; g];
        masks[g - 1] = last_group_bits(37);
        let (a, b) = ar(&sc, &x, &y, 37, &masks, 1).unwrap();
        let sum = |r: &[i64]| {
            let mut s = vec![0i64; 10];
            for row in r.chunks(10) {
                for (t, v) in s.iter_mut().zip(row) {
                    *t += v;
                }
            }
            s
        };
        assert_eq!(a, vec![sc.exact_i64(&sum(&x))]);
        assert_eq!(b, vec![sc.exact_i64(&sum(&y))]);
    }

    #[test]
    fn compat_on_python_values_is_the_exact_score() {
        let chrf = Scorer::Chrf(chrf::ChrfScoreOpts::new(6, 2, 2.0, false));
        let mut rng = SplitMix64::new(9);
        for _ in 0..500 {
            let row: Vec<i64> = (0..24).map(|_| rng.below(50) as i64).collect();
            let nums: Vec<Num> = row.iter().map(|&v| Num::Py(v as f64)).collect();
            assert_eq!(chrf.compat(&nums, true).value(), chrf.exact_i64(&row));
        }
        for smooth in [
            bleu::Smooth::Exp,
            bleu::Smooth::None,
            bleu::Smooth::Floor(0.1),
            bleu::Smooth::AddK(1.0),
        ] {
            let sc = bleu_opts(smooth);
            let rows = bleu_rows(300, 10);
            for row in rows.chunks(10) {
                let nums: Vec<Num> = row.iter().map(|&v| Num::Py(v as f64)).collect();
                assert_eq!(sc.compat(&nums, true).value(), sc.exact_i64(row));
            }
        }
    }

    #[test]
    fn add_k_truncates_on_int64_rows_only() {
        let sc = bleu_opts(bleu::Smooth::AddK(0.5));
        let row = [10i64, 10, 5, 0, 0, 0, 10, 9, 8, 7];
        let nums: Vec<Num> = row.iter().map(|&v| Num::Py(v as f64)).collect();
        // int64 row: 0 + 0.5 is stored as 0, so orders 2-4 have no matches.
        let truncated = sc.compat(&nums, true).value();
        let exact = sc.exact_i64(&row);
        assert_ne!(truncated, exact);
        assert_eq!(sc.compat(&nums, false).value(), exact);
    }

    #[test]
    fn bad_indices_are_refused() {
        let sc = Scorer::Ter;
        let rows = [1.0f32, 2.0, 3.0, 4.0];
        assert!(bootstrap_compat(&sc, &rows, 2, &[0, 2], 1).is_err());
        assert!(bootstrap_compat(&sc, &rows, 2, &[0, 1, 1], 1).is_err());
        assert!(bootstrap_compat(&sc, &rows, 2, &[0, 1, 1, 1], 1).is_ok());
    }
}
