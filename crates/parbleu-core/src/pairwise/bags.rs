//! N-gram bags of a list of strings: every n-gram interned once in one trie of ids.

use rustc_hash::FxHashMap;

/// Prefix of unigrams of the first level (BLEU tokens, chrF characters).
pub(super) const ROOT_A: u32 = u32::MAX;
/// Prefix of unigrams of the second level (chrF++ words).
pub(super) const ROOT_B: u32 = u32::MAX - 1;

#[inline]
pub(super) fn key(prefix: u32, sym: u32) -> u64 {
    (u64::from(prefix) << 32) | u64::from(sym)
}

/// One distinct n-gram of a string and how often it occurs there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Gram {
    pub(super) id: u32,
    pub(super) count: u32,
}

/// N-gram ids shared by every string of a table.
#[derive(Default)]
pub(super) struct Interner {
    pub(super) trie: FxHashMap<u64, u32>,
}

impl Interner {
    #[inline]
    pub(super) fn id(&mut self, k: u64) -> u32 {
        let next = self.trie.len() as u32;
        *self.trie.entry(k).or_insert(next)
    }

    /// Ids of every n-gram of `syms` for orders `1..=max_order`, appended to `per_order[n-1]`.
    pub(super) fn level(
        &mut self,
        root: u32,
        syms: &[u32],
        max_order: usize,
        per_order: &mut [Vec<u32>],
    ) {
        let mut cur: Vec<u32> = syms.iter().map(|&s| self.id(key(root, s))).collect();
        for n in 1..=max_order.min(syms.len()) {
            if n > 1 {
                let m = syms.len() + 1 - n;
                for i in 0..m {
                    cur[i] = self.id(key(cur[i], syms[i + n - 1]));
                }
                cur.truncate(m);
            }
            per_order[n - 1].extend_from_slice(&cur);
        }
    }
}

/// Bags of n-grams of a list of strings, `orders` slots per string.
pub(super) struct Bags {
    pub(super) orders: usize,
    /// `offs[s * (orders + 1) + k]`: start of slot `k` of string `s` in `grams`.
    pub(super) offs: Vec<usize>,
    pub(super) grams: Vec<Gram>,
    /// `totals[s * orders + k]`: n-grams in slot `k` of string `s`, with repetition.
    pub(super) totals: Vec<u32>,
    /// Units of the first level (BLEU: tokens).
    pub(super) lens: Vec<u32>,
    pub(super) n_ids: usize,
}

impl Bags {
    pub(super) fn new(orders: usize) -> Self {
        Bags {
            orders,
            offs: Vec::new(),
            grams: Vec::new(),
            totals: Vec::new(),
            lens: Vec::new(),
            n_ids: 0,
        }
    }

    pub(super) fn push(&mut self, len: usize, per_order: &mut [Vec<u32>]) {
        for ids in per_order.iter_mut() {
            self.offs.push(self.grams.len());
            self.totals.push(ids.len() as u32);
            ids.sort_unstable();
            let mut k = 0;
            while k < ids.len() {
                let id = ids[k];
                let mut e = k + 1;
                while e < ids.len() && ids[e] == id {
                    e += 1;
                }
                self.grams.push(Gram {
                    id,
                    count: (e - k) as u32,
                });
                k = e;
            }
            ids.clear();
        }
        self.offs.push(self.grams.len());
        self.lens.push(len as u32);
    }

    pub(super) fn len(&self) -> usize {
        self.lens.len()
    }

    #[inline]
    pub(super) fn slot(&self, s: usize, k: usize) -> &[Gram] {
        let base = s * (self.orders + 1);
        &self.grams[self.offs[base + k]..self.offs[base + k + 1]]
    }

    #[inline]
    pub(super) fn all(&self, s: usize) -> &[Gram] {
        let base = s * (self.orders + 1);
        &self.grams[self.offs[base]..self.offs[base + self.orders]]
    }

    #[inline]
    pub(super) fn totals(&self, s: usize) -> &[u32] {
        &self.totals[s * self.orders..(s + 1) * self.orders]
    }

    pub(super) fn scatter(&self, s: usize, dense: &mut [u32]) {
        for g in self.all(s) {
            dense[g.id as usize] = g.count;
        }
    }

    pub(super) fn unscatter(&self, s: usize, dense: &mut [u32]) {
        for g in self.all(s) {
            dense[g.id as usize] = 0;
        }
    }

    /// Clipped matches per slot of string `j` against the scattered bag in `dense`.
    #[inline]
    pub(super) fn matches(&self, dense: &[u32], j: usize, m: &mut [u32]) {
        for (k, mk) in m.iter_mut().enumerate() {
            let mut acc = 0u32;
            for g in self.slot(j, k) {
                acc += dense[g.id as usize].min(g.count);
            }
            *mk = acc;
        }
    }
}
