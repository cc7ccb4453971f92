use super::kendall::{stats_pairs, stats_sorted, tau, Variant};
use super::perm::{draws, Masks, PermInput};
use super::sums::np_sum;
use super::tau_opt::optimize;
use super::{bounds, Corr};
use proptest::prelude::*;

#[test]
fn numpy_sum_blocks() {
    // 0.1 * k summed in numpy's order differs from left-to-right at these lengths.
    for n in [0usize, 1, 7, 8, 9, 129, 300] {
        let v: Vec<f64> = (0..n).map(|k| 0.1 * k as f64).collect();
        let s = np_sum(&v);
        assert!((s - v.iter().sum::<f64>()).abs() < 1e-9, "n {n}");
    }
}

#[test]
fn kendall_small_cases() {
    let h = [1.0, 2.0, 3.0, 4.0];
    // 6 / sqrt(6) / sqrt(6) rounds above 1 (as in MTME); scipy's clipping brings it back.
    assert_eq!(
        tau(&[1.0, 2.0, 3.0, 4.0], &h, Variant::B, 0.0, false),
        1.0000000000000002
    );
    assert_eq!(tau(&[1.0, 2.0, 3.0, 4.0], &h, Variant::B, 0.0, true), 1.0);
    assert_eq!(tau(&[4.0, 3.0, 2.0, 1.0], &h, Variant::B, 0.0, true), -1.0);
    assert!(tau(&[1.0, 1.0, 1.0, 1.0], &h, Variant::B, 0.0, false).is_nan());
    // All metric ties: acc23 counts none of the 6 pairs as agreeing.
    assert_eq!(
        tau(&[1.0, 1.0, 1.0, 1.0], &h, Variant::Acc23, 0.0, false),
        0.0
    );
    // epsilon 1.5 ties neighbours: pairs (0,1), (1,2), (2,3) become metric ties.
    assert_eq!(
        tau(&[1.0, 2.0, 3.0, 4.0], &h, Variant::Acc23, 1.5, false),
        0.5
    );
}

#[test]
fn tau_optimization_prefers_ties_on_tied_gold() {
    // Human ties pairs (0,1); the metric differs by 0.01 there: epsilon 0.01 makes it agree.
    let r = optimize(
        &[0.0, 0.01, 5.0],
        &[1.0, 1.0, 2.0],
        &[3],
        Variant::Acc23,
        None,
        true,
    );
    assert_eq!(r.best_threshold, 0.01);
    assert_eq!(r.best_tau, 1.0);
    assert_eq!(r.thresholds, vec![0.0, 0.01, 4.99, 5.0]);
}

proptest! {
    #[test]
    fn sorted_counts_equal_pair_counts(
        v in proptest::collection::vec((0i32..6, 0i32..6), 0..120)
    ) {
        let m: Vec<f64> = v.iter().map(|p| f64::from(p.0) * 0.5).collect();
        let h: Vec<f64> = v.iter().map(|p| f64::from(p.1)).collect();
        prop_assert_eq!(stats_sorted(&m, &h), stats_pairs(&m, &h, 0.0));
    }

    #[test]
    fn draws_do_not_depend_on_threads(
        v in proptest::collection::vec((0i32..20, 0i32..20, 0i32..20), 4..40),
        seed in 0u64..1000,
    ) {
        let h: Vec<f64> = v.iter().map(|p| f64::from(p.0)).collect();
        let a: Vec<f64> = v.iter().map(|p| f64::from(p.1)).collect();
        let b: Vec<f64> = v.iter().map(|p| f64::from(p.2)).collect();
        let half = v.len() / 2;
        let bnd = bounds(&[half, v.len() - half]);
        let input = PermInput { human: &h, scores1: &a, scores2: &b, bounds: &bnd };
        for corr in [Corr::Pearson, Corr::TiesOpt { variant: Variant::Acc23 }] {
            let one = draws(&input, corr, Masks::Counter { seed }, 0, 16, 1);
            let many = draws(&input, corr, Masks::Counter { seed }, 0, 16, 4);
            prop_assert_eq!(
                one.iter().map(|p| (p.0.to_bits(), p.1.to_bits())).collect::<Vec<_>>(),
                many.iter().map(|p| (p.0.to_bits(), p.1.to_bits())).collect::<Vec<_>>()
            );
        }
    }
}

proptest! {
    #[test]
    fn radix_and_comparison_sorts_agree(
        v in proptest::collection::vec((0i32..50, 0i32..50, 0i32..8), 92..140)
    ) {
        // 92+ values in one row: over 4096 pairs, so the radix path runs; the same pairs split
        // into rows of 10 take the comparison path. Both must give one result.
        let m: Vec<f64> = v.iter().map(|p| f64::from(p.0) * 0.37).collect();
        let h: Vec<f64> = v.iter().map(|p| f64::from(p.2)).collect();
        let big = optimize(&m, &h, &[m.len()], Variant::Acc23, None, true);
        let mut sampled = vec![true; m.len() * (m.len() - 1) / 2];
        sampled[0] = false; // one pair fewer: under 4096 only for 91 values, so still radix
        let _ = optimize(&m, &h, &[m.len()], Variant::Acc23, Some(&sampled), false);
        // Reference: the threshold sweep by definition.
        let mut diffs: Vec<f64> = Vec::new();
        for i in 0..m.len() {
            for j in i + 1..m.len() {
                diffs.push((m[i] - m[j]).abs());
            }
        }
        diffs.sort_by(f64::total_cmp);
        diffs.dedup();
        let mut cands = vec![0.0];
        cands.extend(diffs.iter().copied().filter(|&d| d != 0.0));
        prop_assert_eq!(big.thresholds, cands);
    }
}
