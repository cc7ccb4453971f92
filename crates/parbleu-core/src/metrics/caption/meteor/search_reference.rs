//! The alignment search as it was written first (bits of both sides in pools, 128-bit keys),
//! kept as the oracle of [`super::search`]'s tests: the two must choose the same alignment from
//! any candidate list.

use super::search::{self, Match};

/// Width of the beam (the jar's default `-x 40`).
const BEAM: usize = 40;

/// The candidates in the layout of [`super::search::choose`], and what the old search kept.
pub(crate) fn choose(ms: &[Match], start: &[usize], n1: usize, n2: usize) -> Vec<Match> {
    let mut sc = Scratch {
        ms: ms.to_vec(),
        start: start.to_vec(),
        ..Scratch::default()
    };
    let mut out = Vec::new();
    choose_in(&mut sc, n1, n2, &mut out);
    out
}

#[derive(Default)]
struct Scratch {
    ms: Vec<Match>,
    start: Vec<usize>,
    c1: Vec<u32>,
    c2: Vec<u32>,
    certain: Vec<Option<Match>>,
    pool: Vec<u64>,
    next_pool: Vec<u64>,
    arena: Vec<(Match, u32)>,
    paths: Vec<Path>,
    next: Vec<Path>,
    order: Vec<u128>,
    spare: Vec<Path>,
}

/// A partial alignment: what the search ranks it by, where it stands, and its words in use
/// (`words` u64s at `bits` of the generation's pool).
#[derive(Clone, Copy)]
struct Path {
    /// Weighted matched words of each side, as integers (see [`gain`]).
    w1: i32,
    w2: i32,
    chunks: i32,
    distance: i32,
    /// Next reference position to decide.
    idx: usize,
    /// Test position after the last match of the open chunk, if one is open.
    open: Option<usize>,
    bits: usize,
    /// Last chosen match in the arena.
    chain: u32,
}

const NIL: u32 = u32::MAX;

/// The search's weight of `len` words of `module`: 1 per exact word, 0.5 otherwise, added to
/// an integer running sum and truncated there (so a one-word non-exact match adds nothing and
/// a two-word paraphrase adds one).
fn gain(module: usize, len: usize) -> i32 {
    if module == 0 {
        len as i32
    } else {
        (len / 2) as i32
    }
}

/// The ranking as one integer, smaller first: more weighted matched words, then fewer chunks,
/// then smaller distance; the path's index last keeps equal paths in order (a stable sort).
fn rank_key(p: &Path, index: usize) -> u128 {
    let w = u128::from(u32::MAX - (p.w1 + p.w2) as u32);
    (w << 96)
        | (u128::from(p.chunks as u32) << 64)
        | (u128::from(p.distance as u32) << 32)
        | index as u128
}

/// Sort `paths` by rank, stably, and keep the best `keep`.
fn best_first(paths: &mut Vec<Path>, order: &mut Vec<u128>, spare: &mut Vec<Path>, keep: usize) {
    order.clear();
    order.extend(paths.iter().enumerate().map(|(k, p)| rank_key(p, k)));
    if order.windows(2).all(|w| w[0] >> 32 <= w[1] >> 32) {
        paths.truncate(keep);
        return;
    }
    if order.len() > keep {
        order.select_nth_unstable(keep - 1);
        order.truncate(keep);
    }
    order.sort_unstable();
    spare.clear();
    spare.extend(order.iter().map(|&k| paths[(k as u32) as usize]));
    std::mem::swap(paths, spare);
}

fn bit(bits: &[u64], at: usize, x: usize) -> bool {
    bits[at + x / 64] >> (x % 64) & 1 == 1
}

/// Whether every word of `m` is free in the words at `at` (test words first, then reference).
fn free(bits: &[u64], at: usize, n1: usize, m: &Match) -> bool {
    (m.j..m.j + m.len2).all(|x| !bit(bits, at, n1 + x))
        && (m.i..m.i + m.len1).all(|x| !bit(bits, at, x))
}

fn mark(bits: &mut [u64], at: usize, n1: usize, m: &Match) {
    for x in (m.i..m.i + m.len1).chain(n1 + m.j..n1 + m.j + m.len2) {
        bits[at + x / 64] |= 1 << (x % 64);
    }
}

/// Copy `words` u64s at `at` of `from` to the end of `to`; their new place.
fn copy(to: &mut Vec<u64>, from: &[u64], at: usize, words: usize) -> usize {
    let new = to.len();
    to.extend_from_slice(&from[at..at + words]);
    new
}

/// Extend `p` by match `m` (its words already marked used).
fn take(p: &mut Path, m: &Match) {
    p.w1 += gain(m.module, m.len1);
    p.w2 += gain(m.module, m.len2);
    if p.open.is_some_and(|end| end != m.i) {
        p.chunks += 1;
    }
    p.idx = m.j + m.len2;
    p.open = Some(m.i + m.len1);
}

fn choose_in(sc: &mut Scratch, n1: usize, n2: usize, out: &mut Vec<Match>) {
    out.clear();
    sc.c1.clear();
    sc.c1.resize(n1, 0);
    sc.c2.clear();
    sc.c2.resize(n2, 0);
    for m in &sc.ms {
        sc.c1[m.i..m.i + m.len1].iter_mut().for_each(|x| *x += 1);
        sc.c2[m.j..m.j + m.len2].iter_mut().for_each(|x| *x += 1);
    }
    // Certain: the only match starting at its reference position, and no other match touches
    // its words on either side.
    sc.certain.clear();
    sc.certain.resize(n2, None);
    let mut open = 0usize;
    for j in 0..n2 {
        match &sc.ms[sc.start[j]..sc.start[j + 1]] {
            [m] if (m.i..m.i + m.len1).all(|x| sc.c1[x] == 1)
                && (m.j..m.j + m.len2).all(|x| sc.c2[x] == 1) =>
            {
                sc.certain[j] = Some(*m);
            }
            [] => {}
            _ => open += 1,
        }
    }
    out.extend(sc.certain.iter().flatten());
    if open == 0 {
        return;
    }
    let words = (n1 + n2).div_ceil(64).max(1);
    // Generation pools of used-word bits; the first generation (one path) is in `next_pool`.
    sc.next_pool.clear();
    sc.next_pool.resize(words, 0);
    for m in sc.certain.iter().flatten() {
        mark(&mut sc.next_pool, 0, n1, m);
    }
    sc.arena.clear();
    sc.next.clear();
    sc.next.push(Path {
        w1: 0,
        w2: 0,
        chunks: 0,
        distance: 0,
        idx: 0,
        open: None,
        bits: 0,
        chain: NIL,
    });
    std::mem::swap(&mut sc.paths, &mut sc.next);
    std::mem::swap(&mut sc.pool, &mut sc.next_pool);
    // Whether a key may have changed since the last ranking: a step that changes none keeps
    // the paths in ranked order (at most `BEAM` of them), and ranking them again is a no-op.
    let mut dirty = true;
    for current in 0..=n2 {
        if dirty {
            best_first(&mut sc.paths, &mut sc.order, &mut sc.spare, BEAM);
            dirty = false;
        }
        if current == n2 {
            for p in sc.paths.iter_mut() {
                if p.open.is_some() {
                    p.chunks += 1;
                }
            }
            break;
        }
        let list = &sc.ms[sc.start[current]..sc.start[current + 1]];
        if list.is_empty() || sc.certain[current].is_some() {
            // No path branches here: each waits inside its match, takes the certain match,
            // or skips the position; done in place, the words in use do not change.
            let first = sc.paths[0];
            let (pool, certain) = (&sc.pool, &sc.certain);
            sc.paths.retain_mut(|p| {
                if !bit(pool, p.bits, n1 + current) {
                    if p.open.is_some() {
                        p.chunks += 1;
                        p.open = None;
                        dirty = true;
                    }
                    p.idx += 1;
                    true
                } else if current < p.idx {
                    true
                } else if let Some(m) = certain[p.idx] {
                    take(p, &m);
                    p.distance += m.j.abs_diff(m.i) as i32;
                    dirty = true;
                    true
                } else {
                    false
                }
            });
            if sc.paths.is_empty() {
                // Nothing could continue (the jar warns and keeps its best path).
                sc.paths.push(first);
            }
            continue;
        }
        sc.next.clear();
        sc.next_pool.clear();
        for path in sc.paths.iter() {
            let mut p = *path;
            if bit(&sc.pool, path.bits, n1 + current) {
                if current < p.idx {
                    p.bits = copy(&mut sc.next_pool, &sc.pool, p.bits, words);
                    sc.next.push(p);
                } else if let Some(m) = sc.certain[p.idx] {
                    take(&mut p, &m);
                    p.distance += m.j.abs_diff(m.i) as i32;
                    p.bits = copy(&mut sc.next_pool, &sc.pool, p.bits, words);
                    sc.next.push(p);
                }
                continue;
            }
            for m in list {
                if !free(&sc.pool, path.bits, n1, m) {
                    continue;
                }
                let mut c = p;
                take(&mut c, m);
                c.bits = copy(&mut sc.next_pool, &sc.pool, path.bits, words);
                mark(&mut sc.next_pool, c.bits, n1, m);
                sc.arena.push((*m, p.chain));
                c.chain = (sc.arena.len() - 1) as u32;
                sc.next.push(c);
                // The jar adds each tried match's distance to the path that goes on without
                // it, so a later sibling inherits the distances of the earlier ones.
                p.distance += m.j.abs_diff(m.i) as i32;
            }
            if p.open.is_some() {
                p.chunks += 1;
                p.open = None;
            }
            p.idx += 1;
            p.bits = copy(&mut sc.next_pool, &sc.pool, p.bits, words);
            sc.next.push(p);
        }
        if sc.next.is_empty() {
            // Nothing could continue (the jar warns and keeps its best path).
            let mut p = sc.paths[0];
            p.bits = copy(&mut sc.next_pool, &sc.pool, p.bits, words);
            sc.next.push(p);
        }
        std::mem::swap(&mut sc.paths, &mut sc.next);
        std::mem::swap(&mut sc.pool, &mut sc.next_pool);
        dirty = true;
    }
    best_first(&mut sc.paths, &mut sc.order, &mut sc.spare, 1);
    let mut at = sc.paths[0].chain;
    while at != NIL {
        let (m, parent) = sc.arena[at as usize];
        out.push(m);
        at = parent;
    }
}

/// The search against this first implementation, on random candidate lists.
mod tests {
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

    fn same(n1: usize, n2: usize, ms: &[Match], start: &[usize], s: &mut search::Search) {
        let mut out = Vec::new();
        search::choose(ms, start, n1, n2, s, &mut out);
        assert_eq!(out, choose(ms, start, n1, n2));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// The search chooses what the first implementation chose, on lines short enough for
        /// the 64-bit keys and the one-word bits.
        #[test]
        fn same_as_the_reference_search((n1, n2, ms, start) in lists(64)) {
            same(n1, n2, &ms, &start, &mut search::Search::default());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// And on long test lines: inline bits of 2, 4 and 8 words, and bits in pools.
        #[test]
        fn same_as_the_reference_search_on_long_lines((n1, n2, ms, start) in lists(700)) {
            same(n1, n2, &ms, &start, &mut search::Search::default());
        }

        /// With 128-bit keys (taken when a pair's bounds do not fit 64 bits).
        #[test]
        fn same_as_the_reference_search_with_wide_keys((n1, n2, ms, start) in lists(200)) {
            search::WIDE.set(true);
            same(n1, n2, &ms, &start, &mut search::Search::default());
            search::WIDE.set(false);
        }
    }

    /// One `Search` reused across pairs of every size gives what a fresh one gives.
    #[test]
    fn reused_buffers_change_nothing() {
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let mut s = search::Search::default();
        for _ in 0..300 {
            let (n1, n2, ms, start) = lists(700).new_tree(&mut runner).unwrap().current();
            same(n1, n2, &ms, &start, &mut s);
        }
    }
}
