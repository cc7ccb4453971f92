//! The search against its first implementation ([`super::super::search_reference`]) on random
//! candidate lists.
use super::super::search_reference;
use super::*;
use proptest::prelude::*;
use proptest::strategy::ValueTree;

/// Candidate lists as the matchers make them: per reference position, one-word matches and
/// paraphrases of up to three words on either side, in any order, repeats allowed.
fn lists(max_n1: usize) -> impl Strategy<Value = (usize, usize, Vec<Match>, Vec<usize>)> {
    (1..max_n1, 1usize..30).prop_flat_map(|(n1, n2)| {
        let one = (0..n1, 0..n2, 0usize..4, 1usize..4, 1usize..4).prop_map(
            move |(i, j, module, a, b)| {
                let (len1, len2) = if module == 3 { (a, b) } else { (1, 1) };
                Match {
                    i: i.min(n1 - len1.min(n1)),
                    len1: len1.min(n1),
                    j: j.min(n2 - len2.min(n2)),
                    len2: len2.min(n2),
                    module,
                }
            },
        );
        (Just(n1), Just(n2), prop::collection::vec(one, 0..80)).prop_map(|(n1, n2, mut ms)| {
            ms.sort_by_key(|m| m.j);
            let mut start = vec![0; n2 + 1];
            for m in &ms {
                start[m.j + 1] += 1;
            }
            for j in 0..n2 {
                start[j + 1] += start[j];
            }
            (n1, n2, ms, start)
        })
    })
}

fn same(n1: usize, n2: usize, ms: &[Match], start: &[usize], s: &mut Search) {
    let mut out = Vec::new();
    choose(ms, start, n1, n2, s, &mut out);
    assert_eq!(out, search_reference::choose(ms, start, n1, n2));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// The search chooses what the first implementation chose, on lines short enough for
    /// the 64-bit keys and the one-word bits.
    #[test]
    fn same_as_the_reference_search((n1, n2, ms, start) in lists(64)) {
        same(n1, n2, &ms, &start, &mut Search::default());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// And on long test lines: inline bits of 2, 4 and 8 words, and bits in pools.
    #[test]
    fn same_as_the_reference_search_on_long_lines((n1, n2, ms, start) in lists(700)) {
        same(n1, n2, &ms, &start, &mut Search::default());
    }

    /// With 128-bit keys (taken when a pair's bounds do not fit 64 bits).
    #[test]
    fn same_as_the_reference_search_with_wide_keys((n1, n2, ms, start) in lists(200)) {
        WIDE.set(true);
        same(n1, n2, &ms, &start, &mut Search::default());
        WIDE.set(false);
    }
}

/// One `Search` reused across pairs of every size gives what a fresh one gives.
#[test]
fn reused_buffers_change_nothing() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut s = Search::default();
    for _ in 0..300 {
        let (n1, n2, ms, start) = lists(700).new_tree(&mut runner).unwrap().current();
        same(n1, n2, &ms, &start, &mut s);
    }
}

/// The 128-bit keys (a pair whose bounds do not fit 64 bits) rank as the 64-bit ones.
#[test]
fn wide_and_narrow_keys_agree() {
    let l = Layout {
        bi: 8,
        bd: 12,
        bc: 7,
        wmax: 100,
    };
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let field = (0u32..=100, 0u32..128, 0u32..4096, 0usize..256);
    for _ in 0..2000 {
        let (a, b) = (field.clone(), field.clone());
        let ((w1, c1, d1, i1), (w2, c2, d2, i2)) = (a, b).new_tree(&mut runner).unwrap().current();
        let n = |w, c, d, i| u64::pack((w, c, d), i, &l);
        let x = |w, c, d, i| u128::pack((w, c, d), i, &l);
        assert_eq!(
            n(w1, c1, d1, i1).cmp(&n(w2, c2, d2, i2)),
            x(w1, c1, d1, i1).cmp(&x(w2, c2, d2, i2))
        );
        assert_eq!(n(w1, c1, d1, i1).index(&l), i1);
    }
}
