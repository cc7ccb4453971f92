//! A reference segment's clipping table, built once so that scoring a hypothesis costs only
//! the hypothesis' own n-grams.
//!
//! SacreBLEU caches each reference's n-gram counts for the same reason. Here the references'
//! distinct tokens get segment-local ids `1..=d` (found through a small open-addressed table),
//! and every reference n-gram of order >= 2 is packed into a `u64` with `bits` bits per id.
//! Ids are never 0, so a key's highest set bit tells its order and one hash table holds all
//! orders, with the maximum count over references per key. A hypothesis n-gram is then one
//! lookup, and since every prefix of a reference n-gram is itself a reference n-gram, extending
//! a hypothesis n-gram stops at the first miss.

/// Bytes that must be readable after the last token given to [`RefTable::match_tokens`].
pub const PAD: usize = 16;

/// Precomputed maximum reference counts of one segment (see the module documentation).
#[derive(Debug)]
pub struct RefTable {
    /// Bits per local id in a packed key.
    bits: u32,
    /// Highest order with keys in the table.
    max_order: usize,
    /// `64 - log2(keys.len())`: the multiplicative hash keeps the top bits.
    key_shift: u32,
    /// Open-addressed token lookup (`tok_cap` slots: local id, 0 if empty), then the maximum
    /// count of each local id (index 0 unused), then the maximum count of each key slot.
    small: Box<[u16]>,
    tok_cap: usize,
    /// Distinct tokens, concatenated; local id `i + 1` is `text[tok_end[i - 1]..tok_end[i]]`.
    text: Box<[u8]>,
    tok_end: Box<[u32]>,
    /// The first 16 bytes of local id `i + 1`, zero-padded (see [`head`]).
    heads: Box<[u128]>,
    /// Open-addressed packed keys of orders >= 2 (0 for an empty slot).
    keys: Box<[u64]>,
}

/// Reusable buffers for [`RefTable::build`] (one per thread: building is per segment, and
/// allocation would otherwise dominate it).
#[derive(Default)]
pub struct Builder {
    slots: Vec<u16>,
    text: Vec<u8>,
    tok_end: Vec<u32>,
    heads: Vec<u128>,
    ids: Vec<u16>,
    ends: Vec<usize>,
    count: Vec<u16>,
    uni_max: Vec<u16>,
    keys: Vec<u64>,
    key_max: Vec<u16>,
    key_cur: Vec<u16>,
    key_ref: Vec<u32>,
}

/// Reusable per-thread buffers for [`RefTable::match_tokens`].
#[derive(Default)]
pub struct TableScratch {
    ids: Vec<u16>,
    uni: Vec<u16>,
    counts: Vec<u16>,
    touched: Vec<u32>,
}

/// A token's first 16 bytes (zero-padded) from a 16-byte window starting at it: with its
/// length, all a lookup compares for tokens of up to 16 bytes, in two words and no call.
#[inline(always)]
fn head(window: [u8; 16], len: usize) -> u128 {
    let w = u128::from_le_bytes(window);
    if len >= 16 {
        w
    } else {
        w & ((1u128 << (8 * len)) - 1)
    }
}

/// [`head`] of a token that is not followed by padding (building).
fn head_of(tok: &[u8]) -> u128 {
    let mut w = [0u8; 16];
    let n = tok.len().min(16);
    w[..n].copy_from_slice(&tok[..n]);
    head(w, n)
}

/// Hash of a token from its head and length: fixed cost (a byte-wise hash has a loop whose
/// length varies with the token, and so mispredicted branches).
#[inline(always)]
fn hash(head: u128, len: usize) -> usize {
    let p = u128::from((head as u64) ^ 0x243F_6A88_85A3_08D3)
        * u128::from(((head >> 64) as u64) ^ (len as u64) ^ 0x1319_8A2E_0370_7344);
    ((p as u64) ^ ((p >> 64) as u64)) as usize
}

/// Find the token (`tok`, with [`head`] `hd`) in an open-addressed table; `Err(slot)` is the
/// empty slot where it would go.
#[inline(always)]
fn probe(
    slots: &[u16],
    heads: &[u128],
    text: &[u8],
    tok_end: &[u32],
    hd: u128,
    tok: &[u8],
) -> Result<u16, usize> {
    let mask = slots.len() - 1;
    let mut i = hash(hd, tok.len()) & mask;
    loop {
        match slots[i] {
            0 => return Err(i),
            id => {
                let k = usize::from(id) - 1;
                let start = if k == 0 { 0 } else { tok_end[k - 1] as usize };
                let len = tok_end[k] as usize - start;
                // Longer tokens also compare the rest (rare).
                if heads[k] == hd
                    && len == tok.len()
                    && (len <= 16 || &text[start..start + len] == tok)
                {
                    return Ok(id);
                }
                i = (i + 1) & mask;
            }
        }
    }
}

/// Find packed key `k` (never 0) in an open-addressed key table.
#[inline]
fn probe_key(keys: &[u64], shift: u32, k: u64) -> Result<usize, usize> {
    let mask = keys.len() - 1;
    let mut i = (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize;
    loop {
        match keys[i] {
            0 => return Err(i),
            x if x == k => return Ok(i),
            _ => i = (i + 1) & mask,
        }
    }
}

impl RefTable {
    /// The table of `refs` for orders up to `max_order`, or `None` where ids or counts would not
    /// fit (65,535 reference tokens or more, or keys wider than 64 bits): the caller then
    /// matches token by token.
    pub fn build<'t, R: AsRef<[&'t str]>>(
        refs: &[R],
        max_order: usize,
        b: &mut Builder,
    ) -> Option<Self> {
        let total: usize = refs.iter().map(|r| r.as_ref().len()).sum();
        let bytes: usize = refs.iter().flat_map(|r| r.as_ref()).map(|t| t.len()).sum();
        if total >= usize::from(u16::MAX) || bytes > u32::MAX as usize || max_order == 0 {
            return None;
        }
        // Distinct tokens are at most `total`: a load factor of at most 1/2.
        let tok_cap = (2 * total).next_power_of_two().max(2);
        b.slots.clear();
        b.slots.resize(tok_cap, 0);
        b.text.clear();
        b.tok_end.clear();
        b.heads.clear();
        b.ids.clear();
        b.ends.clear();
        for r in refs {
            for tok in r.as_ref() {
                let tok = tok.as_bytes();
                let hd = head_of(tok);
                let id = match probe(&b.slots, &b.heads, &b.text, &b.tok_end, hd, tok) {
                    Ok(id) => id,
                    Err(slot) => {
                        b.text.extend_from_slice(tok);
                        b.tok_end.push(b.text.len() as u32);
                        b.heads.push(hd);
                        let id = b.tok_end.len() as u16;
                        b.slots[slot] = id;
                        id
                    }
                };
                b.ids.push(id);
            }
            b.ends.push(b.ids.len());
        }
        let d = b.tok_end.len();
        let bits = usize::BITS - d.leading_zeros();
        if bits as usize * max_order > 64 && max_order > 1 {
            return None;
        }
        // Unigrams: per reference counts, max over references.
        b.uni_max.clear();
        b.uni_max.resize(d + 1, 0);
        b.count.clear();
        b.count.resize(d + 1, 0);
        let mut start = 0;
        for &end in &b.ends {
            let ids = &b.ids[start..end];
            start = end;
            for &id in ids {
                b.count[id as usize] += 1;
            }
            for &id in ids {
                let c = std::mem::take(&mut b.count[id as usize]);
                let m = &mut b.uni_max[id as usize];
                *m = (*m).max(c);
            }
        }
        // Orders >= 2: count per reference (`key_cur`, valid while `key_ref` is that
        // reference), keep the maximum. At most one key per n-gram: load factor <= 1/2.
        let n_grams: usize = refs
            .iter()
            .map(|r| {
                (2..=max_order)
                    .map(|n| (r.as_ref().len() + 1).saturating_sub(n))
                    .sum::<usize>()
            })
            .sum();
        let key_cap = (2 * n_grams).next_power_of_two().max(2);
        let key_shift = 64 - key_cap.trailing_zeros();
        b.keys.clear();
        b.keys.resize(key_cap, 0);
        b.key_max.clear();
        b.key_max.resize(key_cap, 0);
        b.key_cur.clear();
        b.key_cur.resize(key_cap, 0);
        b.key_ref.clear();
        b.key_ref.resize(key_cap, u32::MAX);
        let mut start = 0;
        for (r, &end) in b.ends.iter().enumerate() {
            let ids = &b.ids[start..end];
            start = end;
            for i in 0..ids.len() {
                let mut k = u64::from(ids[i]);
                for n in 2..=max_order.min(ids.len() - i) {
                    k = (k << bits) | u64::from(ids[i + n - 1]);
                    let slot = match probe_key(&b.keys, key_shift, k) {
                        Ok(slot) => slot,
                        Err(slot) => {
                            b.keys[slot] = k;
                            slot
                        }
                    };
                    if b.key_ref[slot] != r as u32 {
                        b.key_ref[slot] = r as u32;
                        b.key_cur[slot] = 0;
                    }
                    b.key_cur[slot] += 1;
                    b.key_max[slot] = b.key_max[slot].max(b.key_cur[slot]);
                }
            }
        }
        let mut small = Vec::with_capacity(tok_cap + d + 1 + key_cap);
        small.extend_from_slice(&b.slots);
        small.extend_from_slice(&b.uni_max);
        small.extend_from_slice(&b.key_max);
        Some(RefTable {
            bits,
            max_order,
            key_shift,
            small: small.into_boxed_slice(),
            tok_cap,
            text: b.text.as_slice().into(),
            tok_end: b.tok_end.as_slice().into(),
            heads: b.heads.as_slice().into(),
            keys: b.keys.as_slice().into(),
        })
    }

    /// Hint the CPU to fetch the table's first cache lines (see [`crate::cache`]).
    #[inline]
    pub fn prefetch(&self) {
        crate::prefetch::prefetch(&self.small, 1024);
        crate::prefetch::prefetch(&self.keys, 4096);
        crate::prefetch::prefetch(&self.heads, 1024);
        crate::prefetch::prefetch(&self.tok_end, 256);
    }

    #[inline]
    fn uni_max(&self) -> &[u16] {
        &self.small[self.tok_cap..self.tok_cap + self.tok_end.len() + 1]
    }

    #[inline]
    fn key_max(&self) -> &[u16] {
        &self.small[self.tok_cap + self.tok_end.len() + 1..]
    }

    /// Local id of the token `line[off..off + len]`, 0 if no reference has it; `line` has
    /// [`PAD`] bytes after the token.
    #[inline]
    fn lookup(&self, line: &[u8], off: usize, len: usize) -> u16 {
        let mut w = [0u8; 16];
        w.copy_from_slice(&line[off..off + 16]);
        let slots = &self.small[..self.tok_cap];
        let (heads, text, ends) = (&self.heads, &self.text, &self.tok_end);
        probe(
            slots,
            heads,
            text,
            ends,
            head(w, len),
            &line[off..off + len],
        )
        .unwrap_or(0)
    }

    /// Clipped matches of the hypothesis' tokens for orders `1..=matches.len()` (at most the
    /// table's order); returns the number of tokens. Tokens are given one by one (no token
    /// list is built), each a slice of `line`, which has [`PAD`] readable bytes after the last
    /// token.
    pub fn match_tokens<'a>(
        &self,
        line: &'a [u8],
        hyp: impl Iterator<Item = &'a str>,
        s: &mut TableScratch,
        matches: &mut [u64],
    ) -> usize {
        matches.fill(0);
        s.ids.clear();
        if self.tok_end.is_empty() {
            return hyp.count();
        }
        let base = line.as_ptr() as usize;
        s.ids
            .extend(hyp.map(|t| self.lookup(line, t.as_ptr() as usize - base, t.len())));
        let hyp_len = s.ids.len();
        let uni_max = self.uni_max();
        if s.uni.len() < uni_max.len() {
            s.uni.resize(uni_max.len(), 0);
        }
        let mut m1 = 0;
        for &id in &s.ids {
            if id != 0 {
                let c = &mut s.uni[id as usize];
                m1 += u64::from(*c < uni_max[id as usize]);
                *c += 1;
            }
        }
        for &id in &s.ids {
            s.uni[id as usize] = 0;
        }
        matches[0] = m1;

        let top = matches.len().min(self.max_order);
        if top < 2 {
            return hyp_len;
        }
        if s.counts.len() < self.keys.len() {
            s.counts.resize(self.keys.len(), 0);
        }
        let key_max = self.key_max();
        let ids = &s.ids;
        for i in 0..ids.len() {
            if ids[i] == 0 {
                continue;
            }
            let mut k = u64::from(ids[i]);
            for n in 2..=top.min(ids.len() - i) {
                let id = ids[i + n - 1];
                if id == 0 {
                    break;
                }
                k = (k << self.bits) | u64::from(id);
                // A miss ends the extension: a longer n-gram would contain this one.
                let Ok(p) = probe_key(&self.keys, self.key_shift, k) else {
                    break;
                };
                let c = &mut s.counts[p];
                if *c == 0 {
                    s.touched.push(p as u32);
                }
                matches[n - 1] += u64::from(*c < key_max[p]);
                *c += 1;
            }
        }
        for &p in &s.touched {
            s.counts[p as usize] = 0;
        }
        s.touched.clear();
        hyp_len
    }
}

/// [`PAD`] bytes to append to a tokenized line before [`RefTable::match_tokens`].
pub const PADDING: &str = "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0";
const _: () = assert!(PADDING.len() == PAD);

#[cfg(test)]
mod tests {
    use super::super::ngram::{match_counts, Scratch};
    use super::*;

    fn check(
        hyp: &[&str],
        refs: &[Vec<&str>],
        order: usize,
        s: &mut TableScratch,
        b: &mut Builder,
    ) {
        let mut want = vec![0; order];
        let mut totals = vec![0; order];
        match_counts(
            hyp,
            refs,
            order,
            &mut Scratch::default(),
            &mut want,
            &mut totals,
        );
        let Some(t) = RefTable::build(refs, order, b) else {
            return;
        };
        // The tokens joined into one padded line, as the extractor gives them.
        let mut line = String::new();
        let mut spans = Vec::new();
        for tok in hyp {
            spans.push((line.len(), tok.len()));
            line.push_str(tok);
            line.push(' ');
        }
        line.push_str(PADDING);
        let toks = spans.iter().map(|&(o, n)| &line[o..o + n]);
        let mut got = vec![7; order];
        assert_eq!(
            t.match_tokens(line.as_bytes(), toks, s, &mut got),
            hyp.len()
        );
        assert_eq!(got, want, "hyp {hyp:?} refs {refs:?} order {order}");
    }

    #[test]
    fn clips_by_the_best_reference() {
        let (hyp, refs) = crate::metrics::ngram::clipping_example();
        let (mut s, mut b) = (TableScratch::default(), Builder::default());
        for order in 1..=9 {
            check(&hyp, &refs, order, &mut s, &mut b);
        }
        assert!(RefTable::build(&refs, 4, &mut Builder::default()).is_some());
    }

    #[test]
    fn declines_what_does_not_fit() {
        let words: Vec<String> = (0..70_000).map(|i| format!("w{i}")).collect();
        let r: Vec<&str> = words.iter().map(String::as_str).collect();
        assert!(RefTable::build(&[r], 4, &mut Builder::default()).is_none());
        // 300 distinct ids need 9 bits: order 8 does not fit in 64 bits, order 7 does.
        let r: Vec<&str> = words[..300].iter().map(String::as_str).collect();
        assert!(RefTable::build(std::slice::from_ref(&r), 8, &mut Builder::default()).is_none());
        assert!(RefTable::build(&[r], 7, &mut Builder::default()).is_some());
        assert!(RefTable::build(&[vec!["a", "b", "c"]], 30, &mut Builder::default()).is_some());
    }

    /// Tokens that differ only past 16 bytes, or only by length with NUL padding.
    const TRICKY_WORDS: [&str; 11] = [
        "a",
        "b",
        "c",
        "d",
        "é",
        "",
        "a\0",
        "0123456789abcdef",
        "0123456789abcdefX",
        "0123456789abcdefY",
        "0123456789abcde",
    ];

    proptest::proptest! {
        #[test]
        fn prop_equals_token_matching(
            (hyp, refs) in crate::metrics::ngram::segment_strategy(&TRICKY_WORDS, 14),
            order in 1usize..8,
        ) {
            let (mut s, mut b) = (TableScratch::default(), Builder::default());
            // Twice with the same buffers: state must be fully reset.
            check(&hyp, &refs, order, &mut s, &mut b);
            check(&hyp, &refs, order, &mut s, &mut b);
        }
    }
}
