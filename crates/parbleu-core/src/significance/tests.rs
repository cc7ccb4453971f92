use super::ar::last_group_bits;
use super::*;
use crate::metrics::{bleu, chrf};

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
    assert_eq!(got, vec![sc.exact(&sum)]);
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
    let (a, b) = ar(&sc, &x, &y, 37, &masks, false, 1).unwrap();
    let sum = |r: &[i64]| {
        let mut s = vec![0i64; 10];
        for row in r.chunks(10) {
            for (t, v) in s.iter_mut().zip(row) {
                *t += v;
            }
        }
        s
    };
    assert_eq!(a, vec![sc.exact(&sum(&x))]);
    assert_eq!(b, vec![sc.exact(&sum(&y))]);
}

#[test]
fn compat_on_python_values_is_the_exact_score() {
    let chrf = Scorer::Chrf(chrf::ChrfScoreOpts::new(6, 2, 2.0, false));
    let mut rng = SplitMix64::new(9);
    for _ in 0..500 {
        let row: Vec<i64> = (0..24).map(|_| rng.below(50) as i64).collect();
        let nums: Vec<Num> = row.iter().map(|&v| Num::Py(v as f64)).collect();
        assert_eq!(chrf.compat(&nums, true).value(), chrf.exact(&row));
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
            assert_eq!(sc.compat(&nums, true).value(), sc.exact(row));
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
    let exact = sc.exact(&row);
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

fn mean_scorer(column: usize, scale: f64) -> Scorer {
    Scorer::Mean(crate::metrics::mean::MeanOpts {
        width: 3,
        column,
        scale,
    })
}

/// Mean rows: two score columns and the count column of 1.0.
fn mean_rows(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .flat_map(|_| {
            let a = rng.below(1000) as f64 / 997.0;
            let b = rng.below(1000) as f64 / 31.0;
            [a, b, 1.0]
        })
        .collect()
}

/// A mean metric's resample score is the mean of the drawn segments' scores, summed in drawn
/// order: exactly what a sequential sum over the same indices gives.
#[test]
fn mean_bootstrap_is_the_mean_over_the_resample() {
    let (n_seg, n) = (37, 20);
    let rows = mean_rows(n_seg, 3);
    let mut rng = SplitMix64::new(11);
    let idxs: Vec<i64> = (0..n * n_seg)
        .map(|_| rng.below(n_seg as u64) as i64)
        .collect();
    for (column, scale) in [(0, 1.0), (1, 100.0)] {
        let sc = mean_scorer(column, scale);
        let got = bootstrap_indices(&sc, &[&rows[..]], n_seg, &idxs, 3).unwrap();
        let want: Vec<f64> = idxs
            .chunks(n_seg)
            .map(|idx| {
                let mut s = 0.0;
                for &i in idx {
                    s += rows[i as usize * 3 + column];
                }
                scale * s / n_seg as f64
            })
            .collect();
        assert_eq!(got, want);
        // The seeded entry point: any thread count, same bits.
        let one = bootstrap(&sc, &[&rows[..]], n_seg, 5, 0, 40, 1).unwrap();
        assert_eq!(
            one,
            bootstrap(&sc, &[&rows[..]], n_seg, 5, 0, 40, 4).unwrap()
        );
        let (lo, hi) = one
            .iter()
            .fold((f64::MAX, f64::MIN), |(l, h), &x| (l.min(x), h.max(x)));
        let all: Vec<f64> = rows.chunks(3).map(|r| scale * r[column]).collect();
        let (mn, mx) = all
            .iter()
            .fold((f64::MAX, f64::MIN), |(l, h), &x| (l.min(x), h.max(x)));
        assert!(mn <= lo && hi <= mx && lo < hi);
    }
}

/// AR of a mean metric: each pseudo-system takes every segment once, so its count is n_seg and
/// its score the mean of the segments it took.
#[test]
fn mean_ar_scores_are_means_of_the_swapped_segments() {
    let n_seg = 13;
    let (a, b) = (mean_rows(n_seg, 1), mean_rows(n_seg, 2));
    let sc = mean_scorer(1, 1.0);
    let masks = ar_masks(9, 0, 6, n_seg, 1);
    let g = mask_bytes(n_seg);
    let (sa, sb) = ar(&sc, &a, &b, n_seg, &masks, false, 2).unwrap();
    for (t, m) in masks.chunks(g).enumerate() {
        let from_a = |j: usize| m[j / 8] >> (j % 8) & 1 == 1;
        let want_a: f64 = (0..n_seg)
            .map(|j| {
                if from_a(j) {
                    a[3 * j + 1]
                } else {
                    b[3 * j + 1]
                }
            })
            .sum::<f64>()
            / n_seg as f64;
        let want_b: f64 = (0..n_seg)
            .map(|j| {
                if from_a(j) {
                    b[3 * j + 1]
                } else {
                    a[3 * j + 1]
                }
            })
            .sum::<f64>()
            / n_seg as f64;
        assert!((sa[t] - want_a).abs() < 1e-12 && (sb[t] - want_b).abs() < 1e-12);
    }
    assert!(Rows::float_for(&sc));
    assert!(mean_scorer(2, 1.0).check().is_err());
}
