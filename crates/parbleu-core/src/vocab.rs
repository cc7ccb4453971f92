//! Dense ids for tokens (words, characters, hashes), given in order of first appearance: the
//! first step of every n-gram counter that compares ids instead of text.

use rustc_hash::FxHashMap;
use std::hash::Hash;

/// Replace `out` with the ids of `items`: an item's id in `vocab`, or for a new item the next
/// one, `first + vocab.len()` (so ids are `first..`; BLEU-style counters start at 1 and keep 0
/// for "absent").
#[inline]
pub(crate) fn push_ids<T: Eq + Hash>(
    vocab: &mut FxHashMap<T, u32>,
    items: impl IntoIterator<Item = T>,
    first: u32,
    out: &mut Vec<u32>,
) {
    out.clear();
    for t in items {
        let next = vocab.len() as u32 + first;
        out.push(*vocab.entry(t).or_insert(next));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_in_order_of_first_appearance() {
        let mut vocab = FxHashMap::default();
        let mut out = vec![9];
        push_ids(&mut vocab, "b a b c a".split(' '), 1, &mut out);
        assert_eq!(out, [1, 2, 1, 3, 2]);
        // The vocabulary carries over: known items keep their ids.
        push_ids(&mut vocab, "c d".split(' '), 1, &mut out);
        assert_eq!(out, [3, 4]);
    }
}
