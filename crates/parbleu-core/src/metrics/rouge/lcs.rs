//! Bit-parallel longest common subsequence (Allison-Dix 1986, Hyyrö 2004) over token ids, and
//! rouge-score's union-LCS marks read out of the same bit rows.
//!
//! One DP row over the columns `b` is a bit vector `V`: bit `j` is 0 where the row steps up,
//! so `T[i][j] = j - popcount(V_i & low(j))`. Each token `a_i` updates every column at once,
//! `V' = (V + (V & M)) | (V & !M)` with `M` the columns where `b` holds `a_i`, so a pair costs
//! `|a| * ceil(|b| / 64)` word operations instead of `|a| * |b|` cells. The marks read the full
//! table's values back from the stored rows, so they take rouge-score's backtracking path.

/// Word masks of each distinct id in one token sequence: `slot[id]` indexes `masks` in steps of
/// `words` (`u32::MAX`: the id does not occur), so the memory is that of the distinct ids.
pub struct Masks {
    words: usize,
    len: usize,
    slot: Vec<u32>,
    masks: Vec<u64>,
}

impl Masks {
    /// Masks of `b`, whose ids are all below `vocab`.
    pub fn new(b: &[u32], vocab: usize) -> Self {
        let words = b.len().div_ceil(64);
        let mut slot = vec![u32::MAX; vocab];
        let mut masks = Vec::new();
        for (j, &t) in b.iter().enumerate() {
            let s = &mut slot[t as usize];
            if *s == u32::MAX {
                *s = (masks.len() / words.max(1)) as u32;
                masks.resize(masks.len() + words, 0);
            }
            masks[*s as usize * words + j / 64] |= 1u64 << (j % 64);
        }
        Masks {
            words,
            len: b.len(),
            slot,
            masks,
        }
    }

    #[inline]
    fn of(&self, id: u32) -> &[u64] {
        match self.slot.get(id as usize) {
            Some(&s) if s != u32::MAX => {
                let s = s as usize * self.words;
                &self.masks[s..s + self.words]
            }
            _ => &[],
        }
    }

    /// The mask of `id` in a sequence of at most 64 tokens (0 where it does not occur).
    #[inline]
    fn word(&self, id: u32) -> u64 {
        match self.slot.get(id as usize) {
            Some(&s) if s != u32::MAX => self.masks[s as usize],
            _ => 0,
        }
    }
}

/// One row step of the bit-parallel LCS: `v` over `m.len()` words, `m` the match masks.
#[inline]
fn step(v: &mut [u64], m: &[u64]) {
    if m.is_empty() {
        // No column holds this token (or an id beyond the masks): the row is unchanged.
        return;
    }
    let mut carry = false;
    for (x, &mk) in v.iter_mut().zip(m) {
        let u = *x & mk;
        let (s1, c1) = x.overflowing_add(u);
        let (s2, c2) = s1.overflowing_add(u64::from(carry));
        carry = c1 || c2;
        *x = s2 | (*x & !mk);
    }
}

/// Zero bits among the first `len` bits of `v`: the LCS length of a finished row.
fn zeros(v: &[u64], len: usize) -> usize {
    let ones: usize = v.iter().map(|w| w.count_ones() as usize).sum();
    // Bits at `len` and above start as 1 and stay 1 (their masks are 0).
    len - (ones - (v.len() * 64 - len))
}

/// LCS length of `a` against the sequence `masks` were built from.
pub fn lcs_len_masks(a: &[u32], masks: &Masks) -> usize {
    if a.is_empty() || masks.len == 0 {
        return 0;
    }
    let mut v = vec![u64::MAX; masks.words];
    for &t in a {
        step(&mut v, masks.of(t));
    }
    zeros(&v, masks.len)
}

/// Most mask words the bit-parallel LCS of a whole text may take (256 MiB); above, the
/// classic two-row table (linear memory, `|a| * |b|` cells) is used instead.
const MAX_MASK_WORDS: usize = 1 << 25;

/// Whether masks of `b` (ids below `vocab`) would stay within [`MAX_MASK_WORDS`].
pub fn masks_fit(b: &[u32], vocab: usize) -> bool {
    b.len().div_ceil(64).saturating_mul(b.len().min(vocab)) <= MAX_MASK_WORDS
}

/// LCS length of two id sequences whose ids are below `vocab`.
pub fn lcs_len(a: &[u32], b: &[u32], vocab: usize) -> usize {
    if !masks_fit(b, vocab) {
        return lcs_len_table(a, b);
    }
    lcs_len_masks(a, &Masks::new(b, vocab))
}

/// LCS length with two rows of the DP table (rouge-score's `_lcs_table` values).
pub fn lcs_len_table(a: &[u32], b: &[u32]) -> usize {
    let mut prev = vec![0u32; b.len() + 1];
    let mut cur = vec![0u32; b.len() + 1];
    for &x in a {
        for (j, &y) in b.iter().enumerate() {
            cur[j + 1] = if x == y {
                prev[j] + 1
            } else {
                prev[j + 1].max(cur[j])
            };
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()] as usize
}

/// `T[i][j]` of row `v` (the DP value at column prefix length `j`).
#[inline]
fn value(v: &[u64], j: usize) -> usize {
    let (full, rest) = (j / 64, j % 64);
    let mut ones: usize = v[..full].iter().map(|w| w.count_ones() as usize).sum();
    if rest > 0 {
        ones += (v[full] & ((1u64 << rest) - 1)).count_ones() as usize;
    }
    j - ones
}

/// rouge-score's `lcs_ind(ref, can)` as marks: set `marks[i]` for each index `i` of `reff` in
/// the LCS its `_backtrack_norec` reads out of `_lcs_table(ref, can)`. `masks` are `can`'s;
/// `rows` is scratch.
pub fn mark_lcs(reff: &[u32], can: &[u32], masks: &Masks, rows: &mut Vec<u64>, marks: &mut [bool]) {
    let (n, w) = (reff.len(), masks.words);
    if n == 0 || w == 0 {
        return;
    }
    if w == 1 {
        return mark_lcs_word(reff, can, masks, rows, marks);
    }
    rows.clear();
    rows.resize((n + 1) * w, u64::MAX);
    for i in 0..n {
        let (done, next) = rows.split_at_mut((i + 1) * w);
        next[..w].copy_from_slice(&done[i * w..]);
        step(&mut next[..w], masks.of(reff[i]));
    }
    let row = |i: usize| &rows[i * w..(i + 1) * w];
    let (mut i, mut j) = (n, can.len());
    while i > 0 && j > 0 {
        if reff[i - 1] == can[j - 1] {
            marks[i - 1] = true;
            i -= 1;
            j -= 1;
        } else if value(row(i), j - 1) > value(row(i - 1), j) {
            j -= 1;
        } else {
            i -= 1;
        }
    }
}

/// [`mark_lcs`] for a `can` of at most 64 tokens: one word per row.
fn mark_lcs_word(
    reff: &[u32],
    can: &[u32],
    masks: &Masks,
    rows: &mut Vec<u64>,
    marks: &mut [bool],
) {
    rows.clear();
    let mut v = u64::MAX;
    rows.push(v);
    for &t in reff {
        let m = masks.word(t);
        let u = v & m;
        v = v.wrapping_add(u) | (v & !m);
        rows.push(v);
    }
    if v == u64::MAX {
        return; // no common token: an empty LCS marks nothing
    }
    let low = |j: usize| if j >= 64 { u64::MAX } else { (1u64 << j) - 1 };
    // T[i][j] = j - popcount(rows[i] & low(j)).
    let value = |i: usize, j: usize| j - (rows[i] & low(j)).count_ones() as usize;
    let (mut i, mut j) = (reff.len(), can.len());
    while i > 0 && j > 0 {
        if reff[i - 1] == can[j - 1] {
            marks[i - 1] = true;
            i -= 1;
            j -= 1;
        } else if value(i, j - 1) > value(i - 1, j) {
            j -= 1;
        } else {
            i -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn table(a: &[u32], b: &[u32]) -> Vec<Vec<usize>> {
        let mut t = vec![vec![0; b.len() + 1]; a.len() + 1];
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                t[i][j] = if a[i - 1] == b[j - 1] {
                    t[i - 1][j - 1] + 1
                } else {
                    t[i - 1][j].max(t[i][j - 1])
                };
            }
        }
        t
    }

    /// rouge-score's `_lcs_table` + `_backtrack_norec`, cell by cell.
    fn naive_marks(a: &[u32], b: &[u32]) -> Vec<bool> {
        let t = table(a, b);
        let mut marks = vec![false; a.len()];
        let (mut i, mut j) = (a.len(), b.len());
        while i > 0 && j > 0 {
            if a[i - 1] == b[j - 1] {
                marks[i - 1] = true;
                i -= 1;
                j -= 1;
            } else if t[i][j - 1] > t[i - 1][j] {
                j -= 1;
            } else {
                i -= 1;
            }
        }
        marks
    }

    #[test]
    fn small_cases() {
        assert_eq!(lcs_len(&[1, 2, 3, 4], &[2, 4, 3], 5), 2);
        assert_eq!(lcs_len(&[], &[1], 2), 0);
        assert_eq!(lcs_len(&[1], &[], 2), 0);
    }

    proptest! {
        // Lengths across the 64-bit word boundary and small alphabets (many ties).
        #[test]
        fn equals_the_table(
            a in proptest::collection::vec(0u32..4, 0..150),
            b in proptest::collection::vec(0u32..4, 0..150),
        ) {
            let t = table(&a, &b);
            prop_assert_eq!(lcs_len(&a, &b, 4), t[a.len()][b.len()]);
            prop_assert_eq!(lcs_len_table(&a, &b), t[a.len()][b.len()]);
            let masks = Masks::new(&b, 4);
            let mut marks = vec![false; a.len()];
            mark_lcs(&a, &b, &masks, &mut Vec::new(), &mut marks);
            prop_assert_eq!(marks, naive_marks(&a, &b));
        }
    }
}
