//! The search's rank keys.

use super::*;
use proptest::prelude::*;
use proptest::strategy::ValueTree;

/// The 128-bit keys (a pair whose bounds do not fit 64 bits) rank as the 64-bit ones, and both
/// as the ranking itself: more weight, then fewer chunks, then less distance, then the place.
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
        assert_eq!(
            n(w1, c1, d1, i1).cmp(&n(w2, c2, d2, i2)),
            (w2, c1, d1, i1).cmp(&(w1, c2, d2, i2))
        );
        assert_eq!(n(w1, c1, d1, i1).index(&l), i1);
    }
}
