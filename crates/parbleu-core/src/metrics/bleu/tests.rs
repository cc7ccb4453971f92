use super::*;

proptest::proptest! {
    /// The one finalize gives the same bits whatever number type holds the counts (i64
    /// rows, f64 sums, u32 pair-table parts), for every smoothing.
    #[test]
    fn finalize_same_bits_for_every_count_type(
        lens in (0u32..60, 0u32..60),
        m in proptest::collection::vec((0u32..30, 0u32..30), 1..6),
        smooth in 0usize..4,
        effective_order: bool,
    ) {
        let n = m.len();
        let correct: Vec<u32> = m.iter().map(|&(a, b)| a.min(b)).collect();
        let total: Vec<u32> = m.iter().map(|&(a, b)| a.max(b)).collect();
        let mut row = vec![i64::from(lens.0), i64::from(lens.1)];
        row.extend(correct.iter().map(|&c| i64::from(c)));
        row.extend(total.iter().map(|&t| i64::from(t)));
        let smooth = [Smooth::None, Smooth::Floor(0.1), Smooth::AddK(1.0), Smooth::Exp][smooth];
        let o = BleuScoreOpts { smooth, effective_order, max_order: n };
        let want = finalize(&row, &o).score;
        let floats: Vec<f64> = row.iter().map(|&x| x as f64).collect();
        proptest::prop_assert_eq!(score_of(&row, &o).to_bits(), want.to_bits());
        proptest::prop_assert_eq!(score_of(&floats, &o).to_bits(), want.to_bits());
        let parts = score_of_parts(lens.0, lens.1, &correct, &total, &o);
        proptest::prop_assert_eq!(parts.to_bits(), want.to_bits());
    }
}

proptest::proptest! {
    #[test]
    fn prop_sentence_scores_equal_finalized_rows(
        pairs in proptest::collection::vec(("[ab. ]{0,12}", "[abc, ]{0,12}"), 1..20),
        order in 1usize..7,
        smooth in 0usize..4,
        effective_order: bool,
    ) {
        let cfg = BleuExtract { tokenizer: Tokenizer::T13a, lowercase: false, max_order: order };
        let o = BleuScoreOpts {
            smooth: [Smooth::None, Smooth::Floor(0.1), Smooth::AddK(1.0), Smooth::Exp][smooth],
            effective_order,
            max_order: order,
        };
        let hyps: Vec<&str> = pairs.iter().map(|p| p.0.as_str()).collect();
        let refs = PreparedRefs::new(&cfg, pairs.iter().map(|p| vec![p.1.as_str()]).collect(), 1);
        let (rows, _) = extract_strs(&cfg, &hyps, &refs.segments, 1).unwrap();
        let (scores, _) = sentence_scores_strs(&cfg, &hyps, &refs.segments, &o, 1).unwrap();
        for (i, s) in scores.iter().enumerate() {
            let want = finalize(&rows[i * cfg.width()..(i + 1) * cfg.width()], &o).score;
            proptest::prop_assert_eq!(s.to_bits(), want.to_bits());
        }
    }
}

proptest::proptest! {
    /// Scoring any list of pairs gives their rows and scores of the plain order, for any
    /// sharing pattern and thread count; the grouped order is a permutation.
    #[test]
    fn prop_pairs_in_any_order_change_nothing(
        pairs in proptest::collection::vec(("[ab. ]{0,10}", 0usize..4), 1..40),
        seed in 0u64..1000,
        workers in 1usize..3,
    ) {
        let cfg = BleuExtract { tokenizer: Tokenizer::T13a, lowercase: false, max_order: 4 };
        let o = BleuScoreOpts { smooth: Smooth::Exp, effective_order: true, max_order: 4 };
        let texts = ["a b", "a . b", "b b a", ""];
        let hyps: Vec<&str> = pairs.iter().map(|p| p.0.as_str()).collect();
        let refs = PreparedRefs::new(&cfg, pairs.iter().map(|p| vec![texts[p.1]]).collect(), 1);
        let n = hyps.len();
        let r = &refs.segments;
        let (rows, periods) = extract_strs(&cfg, &hyps, r, workers).unwrap();
        let (scores, _) = sentence_scores_strs(&cfg, &hyps, r, &o, 1).unwrap();
        let mut lists = vec![(0..n as u32)
            .rev()
            .filter(|i| !(u64::from(*i) + seed).is_multiple_of(3))
            .collect::<Vec<_>>()];
        if let Some(order) = refs.grouped_order() {
            let mut sorted = order.to_vec();
            sorted.sort_unstable();
            proptest::prop_assert_eq!(sorted, (0..n as u32).collect::<Vec<_>>());
            lists.push(order.to_vec());
        }
        for list in &lists {
            let (got, p) = extract_pairs(&cfg, &hyps, r, Pairs::List(list), workers).unwrap();
            let (s, _) = sentence_scores_pairs(&cfg, &hyps, r, Pairs::List(list), &o, workers).unwrap();
            let mut want_p = 0;
            for (k, &i) in list.iter().enumerate() {
                let i = i as usize;
                proptest::prop_assert_eq!(&got[k * 10..(k + 1) * 10], &rows[i * 10..(i + 1) * 10]);
                proptest::prop_assert_eq!(s[k].to_bits(), scores[i].to_bits());
                want_p += usize::from(hyps[i].ends_with(" ."));
            }
            proptest::prop_assert_eq!(p, want_p);
            if list.len() == n {
                proptest::prop_assert_eq!(p, periods);
            }
        }
    }
}

#[test]
fn grouped_order_puts_shared_references_together() {
    let cfg = BleuExtract {
        tokenizer: Tokenizer::None,
        lowercase: false,
        max_order: 4,
    };
    let refs = PreparedRefs::new(
        &cfg,
        ["x", "y", "x", "z", "y", "x"].map(|r| vec![r]).to_vec(),
        1,
    );
    assert_eq!(refs.grouped_order(), Some(&[0, 2, 5, 1, 4, 3][..]));
    assert_eq!(refs.distinct(), 3);
    let distinct = PreparedRefs::new(&cfg, ["x", "y"].map(|r| vec![r]).to_vec(), 1);
    assert_eq!(distinct.grouped_order(), None);
    assert_eq!(distinct.distinct(), 2);
}

#[test]
fn closest_ref_len_ties_to_shorter() {
    assert_eq!(closest_ref_len(5, [4, 6]), 4);
    assert_eq!(closest_ref_len(5, [6, 4]), 4);
    assert_eq!(closest_ref_len(5, []), -1);
}

#[test]
fn perfect_match_scores_100() {
    let cfg = BleuExtract {
        tokenizer: Tokenizer::None,
        lowercase: false,
        max_order: 4,
    };
    let refs = PreparedRefs::new(&cfg, vec![vec!["a b c d e"]], 1);
    let (rows, _) = extract(&cfg, &["a b c d e".into()], &refs.segments, 1).unwrap();
    assert_eq!(rows, vec![5, 5, 5, 4, 3, 2, 5, 4, 3, 2]);
    let o = BleuScoreOpts {
        smooth: Smooth::Exp,
        effective_order: false,
        max_order: 4,
    };
    assert!((finalize(&rows, &o).score - 100.0).abs() < 1e-12);
}
