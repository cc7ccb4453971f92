//! The choice of one alignment among the candidate matches: the matches that are certain, then
//! the jar's beam search over reference positions for the others, by the rules docs/captioning.md
//! states in words ("How the jar chooses an alignment"; the order, the integer sums and the
//! distance bookkeeping were learned from the jar's source, the structures here are ours).
//!
//! What makes it cheap: a path keeps only its *test* words in use, inline for lines of up to 512
//! words. Its reference words need no bits: a reference word is in use exactly when it lies
//! inside the path's last match (before `idx`) or inside a certain match, whose words no other
//! candidate touches. Paths are ranked by one integer key, 64 bits wide whenever the pair's
//! bounds allow it.

/// One match: `len1` test words from `i`, `len2` reference words from `j`, by `module`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Match {
    pub i: usize,
    pub len1: usize,
    pub j: usize,
    pub len2: usize,
    pub module: usize,
}

/// Width of the beam (the jar's default `-x 40`).
const BEAM: usize = 40;
/// No match (arena, certain lists) and no open chunk.
const NIL: u32 = u32::MAX;

/// A partial alignment: what the search ranks it by, where it stands, and its test words in use.
#[derive(Clone, Copy)]
pub(super) struct Path<H> {
    used: H,
    /// Weighted matched words of both sides, as an integer (see [`gain`]).
    w: u32,
    chunks: u32,
    /// Wrapping, as the jar's `int`.
    distance: u32,
    /// Next reference position to decide.
    idx: u32,
    /// Test position after the last match of the open chunk, or [`NIL`].
    open: u32,
    /// Last chosen match in the arena, or [`NIL`].
    chain: u32,
}

/// The search's weight of `len` words of `module`: 1 per exact word, 0.5 otherwise, added to an
/// integer running sum and truncated there (so a one-word non-exact match adds nothing and a
/// two-word paraphrase adds one).
fn gain(m: &Match) -> u32 {
    if m.module == 0 {
        (m.len1 + m.len2) as u32
    } else {
        (m.len1 / 2 + m.len2 / 2) as u32
    }
}

fn dist(m: &Match) -> u32 {
    m.j.abs_diff(m.i) as u32
}

/// What the search needs of a candidate, computed once per pair rather than once per path:
/// its weight, distance, where it leaves a path, and its test words as masks of one or two
/// u64s of the bits (`long`: more than 64 words, marked word by word).
#[derive(Clone, Copy)]
pub(super) struct Cand {
    gain: u32,
    dist: u32,
    i: u32,
    end: u32,
    idx: u32,
    word: u32,
    mask: u64,
    spill: u64,
    long: bool,
}

impl Cand {
    fn of(m: &Match) -> Self {
        let (i, end) = (m.i as u32, (m.i + m.len1) as u32);
        let (mut mask, mut spill) = (0u64, 0u64);
        let long = m.len1 > 64;
        if !long {
            let ones = if m.len1 == 64 {
                u64::MAX
            } else {
                (1u64 << m.len1) - 1
            };
            let at = m.i % 64;
            mask = ones << at;
            if at + m.len1 > 64 {
                spill = ones >> (64 - at);
            }
        }
        Cand {
            gain: gain(m),
            dist: dist(m),
            i,
            end,
            idx: (m.j + m.len2) as u32,
            word: (m.i / 64) as u32,
            mask,
            spill,
            long,
        }
    }
}

/// Extend `p` by candidate `c` (its test words marked used).
#[inline]
fn take<H>(p: &mut Path<H>, c: &Cand) {
    p.w += c.gain;
    if p.open != NIL && p.open != c.i {
        p.chunks += 1;
    }
    p.idx = c.idx;
    p.open = c.end;
}

mod words;
use words::{Bufs, Inline, Pooled, Store};

/// A path's rank as one integer, smaller first: more weighted matched words, then fewer chunks,
/// then smaller distance, then its place in the list (so an unstable sort of keys is a stable
/// sort of paths). Fields are packed at widths that the pair's bounds fit ([`Layout`]).
trait Key: Copy + Ord {
    fn pack(p: (u32, u32, u32), index: usize, l: &Layout) -> Self;
    /// The key without the place.
    fn rank(self, l: &Layout) -> Self;
    fn index(self, l: &Layout) -> usize;
}

/// Bit widths of a key's fields: place `bi`, distance `bd`, chunks `bc`, and `wmax`, the most
/// weighted words a path can have (the key holds `wmax - w`).
#[derive(Clone, Copy)]
struct Layout {
    bi: u32,
    bd: u32,
    bc: u32,
    wmax: u32,
}

macro_rules! key {
    ($t:ty) => {
        impl Key for $t {
            #[inline]
            fn pack((w, chunks, distance): (u32, u32, u32), index: usize, l: &Layout) -> Self {
                ((<$t>::from(l.wmax - w) << l.bc | <$t>::from(chunks)) << l.bd
                    | <$t>::from(distance))
                    << l.bi
                    | index as $t
            }
            #[inline]
            fn rank(self, l: &Layout) -> Self {
                self >> l.bi
            }
            #[inline]
            fn index(self, l: &Layout) -> usize {
                (self & ((1 << l.bi) - 1)) as usize
            }
        }
    };
}
key!(u64);
key!(u128);

fn width(x: u64) -> u32 {
    64 - x.leading_zeros()
}

/// Buffers reused from one sentence pair to the next.
#[derive(Default)]
pub(crate) struct Search {
    c1: Vec<u32>,
    c2: Vec<u32>,
    /// Per reference position: the certain match starting there (index in the list), or [`NIL`].
    certain: Vec<u32>,
    /// Per reference position: inside a certain match.
    cover: Vec<bool>,
    /// Chosen matches: (index in the list, the path's previous chosen match).
    arena: Vec<(u32, u32)>,
    /// [`Cand`] of each listed match.
    cands: Vec<Cand>,
    k64: Vec<u64>,
    k128: Vec<u128>,
    s1: Inline<1>,
    s2: Inline<2>,
    s4: Inline<4>,
    s8: Inline<8>,
    pooled: Pooled,
}

/// The alignment chosen among `ms`, candidates listed per reference position
/// (`ms[start[j]..start[j + 1]]`) in the order the search tries them, of a test line of `n1`
/// words and a reference of `n2`: the certain matches, then the best path's, in `out`.
pub(crate) fn choose(
    ms: &[Match],
    start: &[usize],
    n1: usize,
    n2: usize,
    s: &mut Search,
    out: &mut Vec<Match>,
) {
    out.clear();
    s.c1.clear();
    s.c1.resize(n1, 0);
    s.c2.clear();
    s.c2.resize(n2, 0);
    let mut dmax = 0u64;
    for m in ms {
        s.c1[m.i..m.i + m.len1].iter_mut().for_each(|x| *x += 1);
        s.c2[m.j..m.j + m.len2].iter_mut().for_each(|x| *x += 1);
        dmax += u64::from(dist(m));
    }
    // Certain: the only match starting at its reference position, and no other match touches
    // its words on either side.
    s.certain.clear();
    s.certain.resize(n2, NIL);
    s.cover.clear();
    s.cover.resize(n2, false);
    let (mut open, mut widest) = (0usize, 0usize);
    for j in 0..n2 {
        let (a, b) = (start[j], start[j + 1]);
        widest = widest.max(b - a);
        if b - a == 1 {
            let m = &ms[a];
            if (m.i..m.i + m.len1).all(|x| s.c1[x] == 1)
                && (m.j..m.j + m.len2).all(|x| s.c2[x] == 1)
            {
                s.certain[j] = a as u32;
                s.cover[m.j..m.j + m.len2].fill(true);
                out.push(*m);
                continue;
            }
        }
        open += usize::from(b > a);
    }
    if open == 0 {
        return;
    }
    let l = Layout {
        bi: width((BEAM * (widest + 1)) as u64),
        bd: width(dmax).min(32),
        bc: width((n1 + n2 + 1) as u64),
        wmax: (n1 + n2) as u32,
    };
    s.cands.clear();
    s.cands.extend(ms.iter().map(Cand::of));
    let wide = l.bi + l.bd + l.bc + width(u64::from(l.wmax)) > 64 || force_wide();
    let cx = Pair {
        ms,
        start,
        cands: &s.cands,
        certain: &s.certain,
        cover: &s.cover,
        l,
    };
    macro_rules! run {
        ($store:ident) => {
            if wide {
                run(&cx, n1, n2, &mut s.$store, &mut s.k128, &mut s.arena, out)
            } else {
                run(&cx, n1, n2, &mut s.$store, &mut s.k64, &mut s.arena, out)
            }
        };
    }
    match n1 {
        0..=64 => run!(s1),
        65..=128 => run!(s2),
        129..=256 => run!(s4),
        257..=512 => run!(s8),
        _ => run!(pooled),
    }
}

#[cfg(test)]
thread_local! {
    /// Tests run the 128-bit keys on pairs that 64 bits would fit.
    pub(crate) static WIDE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn force_wide() -> bool {
    #[cfg(test)]
    return WIDE.get();
    #[cfg(not(test))]
    false
}

/// The candidates of one pair and what the search knows of them.
struct Pair<'a> {
    ms: &'a [Match],
    start: &'a [usize],
    cands: &'a [Cand],
    certain: &'a [u32],
    cover: &'a [bool],
    l: Layout,
}

/// Rank the paths, whose keys are `keys` (in order), stably, and keep the best `keep`.
fn best_first<H: Copy, K: Key>(b: &mut Bufs<H>, keys: &mut [K], l: &Layout, keep: usize) {
    if keys.windows(2).all(|w| w[0].rank(l) <= w[1].rank(l)) {
        b.paths.truncate(keep);
        return;
    }
    let mut keys = keys;
    if keys.len() > keep {
        keys.select_nth_unstable(keep - 1);
        keys = &mut keys[..keep];
    }
    keys.sort_unstable();
    b.spare.clear();
    b.spare.extend(keys.iter().map(|k| b.paths[k.index(l)]));
    std::mem::swap(&mut b.paths, &mut b.spare);
}

fn key_of<H, K: Key>(p: &Path<H>, index: usize, l: &Layout) -> K {
    K::pack((p.w, p.chunks, p.distance), index, l)
}

/// Rank the paths of `b` (computing their keys) and keep the best `keep`.
fn rank<H: Copy, K: Key>(b: &mut Bufs<H>, keys: &mut Vec<K>, l: &Layout, keep: usize) {
    keys.clear();
    keys.extend(
        b.paths
            .iter()
            .enumerate()
            .map(|(k, p)| key_of::<H, K>(p, k, l)),
    );
    best_first(b, keys, l, keep);
}

/// At a position with no candidate, outside every certain match, where no path waits inside
/// its last match: every path closes its chunk and skips it, and every position after it that
/// is alike (no path has an open chunk there any more, so only the positions change). Done at
/// once for the whole run; the end of the run, or `None` (some path waits: one position at a
/// time).
fn skip_run<H>(
    cx: &Pair,
    b: &mut Bufs<H>,
    current: usize,
    n2: usize,
    dirty: &mut bool,
) -> Option<usize> {
    let cur = current as u32;
    if b.paths.iter().any(|p| cur < p.idx) {
        return None;
    }
    let mut end = current + 1;
    while end < n2 && cx.start[end] == cx.start[end + 1] && cx.certain[end] == NIL && !cx.cover[end]
    {
        end += 1;
    }
    for p in b.paths.iter_mut() {
        if p.open != NIL {
            p.chunks += 1;
            p.open = NIL;
            *dirty = true;
        }
        p.idx = end as u32;
    }
    Some(end)
}

fn run<S: Store, K: Key>(
    cx: &Pair,
    n1: usize,
    n2: usize,
    st: &mut S,
    keys: &mut Vec<K>,
    arena: &mut Vec<(u32, u32)>,
    out: &mut Vec<Match>,
) {
    let (ms, cands, certain, cover, l) = (cx.ms, cx.cands, cx.certain, cx.cover, &cx.l);
    let mut root = st.reset(n1);
    for &c in certain.iter().filter(|&&c| c != NIL) {
        let m = &ms[c as usize];
        for x in m.i..m.i + m.len1 {
            st.set_root(&mut root, x);
        }
    }
    arena.clear();
    {
        let b = st.paths();
        b.paths.clear();
        b.paths.push(Path {
            used: root,
            w: 0,
            chunks: 0,
            distance: 0,
            idx: 0,
            open: NIL,
            chain: NIL,
        });
    }
    // Whether a key may have changed since the last ranking: a step that changes none keeps
    // the paths in ranked order (at most `BEAM` of them), and ranking them again is a no-op.
    // After a branching step the children's keys are computed as they are made.
    let mut dirty = false;
    let mut keyed = false;
    // The end of a run of positions that every path skips alike ([`skip_run`]).
    let mut skip_to = 0;
    for current in 0..=n2 {
        if current < skip_to {
            continue;
        }
        if keyed {
            best_first(st.paths(), keys, l, BEAM);
            keyed = false;
        } else if dirty {
            rank(st.paths(), keys, l, BEAM);
        }
        dirty = false;
        if current == n2 {
            for p in st.paths().paths.iter_mut() {
                if p.open != NIL {
                    p.chunks += 1;
                }
            }
            break;
        }
        let cur = current as u32;
        let (from, to) = (cx.start[current], cx.start[current + 1]);
        // A reference word is in use inside the path's last match or a certain match.
        let covered = cover[current];
        let ref_used = |p: &Path<S::H>| cur < p.idx || covered;
        if from == to && certain[current] == NIL && !covered {
            if let Some(end) = skip_run(cx, st.paths(), current, n2, &mut dirty) {
                skip_to = end;
                continue;
            }
        }
        if from == to || certain[current] != NIL {
            // No path branches here: each waits inside its match, takes the certain match,
            // or skips the position; done in place, the words in use do not change.
            let b = st.paths();
            let first = b.paths[0];
            b.paths.retain_mut(|p| {
                if !ref_used(p) {
                    if p.open != NIL {
                        p.chunks += 1;
                        p.open = NIL;
                        dirty = true;
                    }
                    p.idx += 1;
                    true
                } else if cur < p.idx {
                    true
                } else if let Some(&c) = certain.get(p.idx as usize).filter(|&&c| c != NIL) {
                    let c = &cands[c as usize];
                    take(p, c);
                    p.distance = p.distance.wrapping_add(c.dist);
                    dirty = true;
                    true
                } else {
                    false
                }
            });
            if b.paths.is_empty() {
                // Nothing could continue (the jar warns and keeps its best path).
                b.paths.push(first);
            }
            continue;
        }
        let list = &cands[from..to];
        let mut b = std::mem::take(st.paths());
        b.next.clear();
        keys.clear();
        // At most one child per parent and candidate, and one more per parent.
        let most = b.paths.len() * (list.len() + 1);
        b.next.reserve(most);
        keys.reserve(most);
        arena.reserve(most);
        let l = *l;
        let mut push = |next: &mut Vec<Path<S::H>>, p: Path<S::H>| {
            keys.push(key_of(&p, next.len(), &l));
            next.push(p);
        };
        for path in b.paths.iter() {
            let mut p = *path;
            if ref_used(&p) {
                if cur < p.idx {
                    p.used = st.fork(p.used);
                    push(&mut b.next, p);
                } else if let Some(&c) = certain.get(p.idx as usize).filter(|&&c| c != NIL) {
                    let c = &cands[c as usize];
                    take(&mut p, c);
                    p.distance = p.distance.wrapping_add(c.dist);
                    p.used = st.fork(p.used);
                    push(&mut b.next, p);
                }
                continue;
            }
            for (k, c) in list.iter().enumerate() {
                if !st.free(path.used, c) {
                    continue;
                }
                let mut child = p;
                take(&mut child, c);
                child.used = st.fork(path.used);
                st.mark(&mut child.used, c);
                arena.push(((from + k) as u32, p.chain));
                child.chain = (arena.len() - 1) as u32;
                push(&mut b.next, child);
                // The jar adds each tried match's distance to the path that goes on without
                // it, so a later sibling inherits the distances of the earlier ones.
                p.distance = p.distance.wrapping_add(c.dist);
            }
            if p.open != NIL {
                p.chunks += 1;
                p.open = NIL;
            }
            p.idx += 1;
            p.used = st.fork(p.used);
            push(&mut b.next, p);
        }
        if b.next.is_empty() {
            // Nothing could continue (the jar warns and keeps its best path).
            let mut p = b.paths[0];
            p.used = st.fork(p.used);
            push(&mut b.next, p);
        }
        std::mem::swap(&mut b.paths, &mut b.next);
        *st.paths() = b;
        st.advance();
        keyed = true;
    }
    rank(st.paths(), keys, l, 1);
    let mut at = st.paths().paths[0].chain;
    while at != NIL {
        let (m, parent) = arena[at as usize];
        out.push(ms[m as usize]);
        at = parent;
    }
}

#[cfg(test)]
mod tests;
