//! The paraphrase table: records of three lines (probability, phrase, paraphrase), phrases of
//! normalised, space-separated words. Words are numbered by their sorted order, phrases are the
//! nodes of a trie over word ids held in flat arrays (breadth first, siblings sorted by word),
//! so that the whole table can be saved and loaded as it is ([`Table::compiled`]). Each phrase
//! keeps what it emits (the second phrase of each record whose first phrase it is), sorted by
//! target with each one's record rank, and a 64-bit filter of the targets.

use crate::Error;
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

#[path = "paraphrase_compiled.rs"]
mod compiled;
pub use compiled::FORMAT;

// Lives here, below `resources` (which reads this table), so the two modules form no cycle.
/// The error for a damaged data file `what`.
pub(crate) fn bad(what: &str, why: String) -> Error {
    Error::InvalidOption {
        name: "METEOR data".into(),
        value: what.into(),
        expected: format!(
            "METEOR 1.5's file as pycocoevalcap installs it ({why}; reinstall pycocoevalcap)"
        ),
    }
}

/// No word or no phrase.
pub(crate) const NONE: u32 = u32::MAX;

/// Phrase trie and paraphrase lists (a paraphrase appears once per record that pairs them).
///
/// Every list below is checked on load (see `compiled`), so no lookup can index out of bounds.
#[derive(Default, Debug)]
pub struct Table {
    /// The words in byte order, concatenated: word `i` ends at `ends[i]`.
    text: Vec<u8>,
    ends: Vec<u32>,
    /// Per node (0 is the root), its last word; the root's is [`NONE`].
    node_word: Vec<u32>,
    /// The children of node `n` are the nodes `first_child[n]..first_child[n + 1]`.
    first_child: Vec<u32>,
    /// Per node, the nodes it emits (the second phrase of each record whose first phrase it
    /// is), as `emit_offsets[n]..emit_offsets[n + 1]` of `emit_sorted` (sorted by node, then
    /// record) and `emit_rank` (each one's place in record order within the node's list).
    emit_offsets: Vec<u32>,
    emit_sorted: Vec<u32>,
    emit_rank: Vec<u32>,
    /// One bit per node (bit `n % 32` of word `n / 32`): whether it emits a phrase or is
    /// emitted by one.
    paired: Vec<u32>,
    // Derived on load, never saved:
    /// The same lists in record order: built on first use (the aligner reads the sorted ones).
    // Record-order lists are read by the tests only; the aligner uses the sorted ones.
    #[cfg_attr(not(test), allow(dead_code))]
    emit_targets: OnceLock<Vec<u32>>,

    /// Per word, the root's child for it, or [`NONE`] (the root has most of the children,
    /// and every sentence position starts there).
    root: Vec<u32>,
    /// The first node of each phrase length from 1 (breadth first, a length's nodes are a
    /// range), then the number of nodes.
    levels: Vec<u32>,
    /// Longest phrase, in words.
    pub(crate) max_len: usize,
}

/// Tables are equal when what they save is.
impl PartialEq for Table {
    fn eq(&self, o: &Self) -> bool {
        (self.text == o.text && self.ends == o.ends)
            && (self.node_word == o.node_word && self.first_child == o.first_child)
            && (self.emit_offsets == o.emit_offsets && self.emit_sorted == o.emit_sorted)
            && (self.emit_rank == o.emit_rank && self.paired == o.paired)
    }
}

/// A CSR list `off[n]..off[n + 1]` of `items`, empty when `n` is out of range.
#[inline]
#[cfg_attr(not(test), allow(dead_code))]
fn list<'a>(off: &[u32], items: &'a [u32], n: u32) -> &'a [u32] {
    let n = n as usize;
    match (off.get(n), off.get(n + 1)) {
        (Some(&a), Some(&b)) => &items[a as usize..b as usize],
        _ => &[],
    }
}

impl Table {
    fn word_at(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.text[start..self.ends[i] as usize]
    }

    /// The table's id of a word, or [`NONE`].
    pub(crate) fn word(&self, w: &str) -> u32 {
        let (mut lo, mut hi) = (0, self.ends.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.word_at(mid).cmp(w.as_bytes()) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return mid as u32,
            }
        }
        NONE
    }

    /// The trie node after `word` from `node`, or [`NONE`].
    #[inline]
    pub(crate) fn step(&self, node: u32, word: u32) -> u32 {
        if word == NONE {
            return NONE;
        }
        if node == 0 {
            return self.root.get(word as usize).copied().unwrap_or(NONE);
        }
        let n = node as usize;
        let (Some(&a), Some(&b)) = (self.first_child.get(n), self.first_child.get(n + 1)) else {
            return NONE;
        };
        match self.node_word[a as usize..b as usize].binary_search(&word) {
            Ok(i) => a + i as u32,
            Err(_) => NONE,
        }
    }

    /// The second phrases of the records whose first phrase ends at `node`, in file record
    /// order (a pair listed in several records appears that many times); empty if none.
    #[cfg(test)]
    pub(crate) fn emits(&self, node: u32) -> &[u32] {
        let targets = self.emit_targets.get_or_init(|| {
            // Record order back from the ranks (`check` made each rank fit its list).
            let mut out = vec![0; self.emit_sorted.len()];
            for w in self.emit_offsets.windows(2) {
                let a = w[0] as usize;
                for k in a..w[1] as usize {
                    out[a + self.emit_rank[k] as usize] = self.emit_sorted[k];
                }
            }
            out
        });
        list(&self.emit_offsets, targets, node)
    }

    /// [`Self::emits`] sorted by node (then record), and the place of each in record order.
    #[allow(dead_code)]
    #[inline]
    pub(crate) fn emits_sorted(&self, node: u32) -> (&[u32], &[u32]) {
        let n = node as usize;
        match (self.emit_offsets.get(n), self.emit_offsets.get(n + 1)) {
            (Some(&a), Some(&b)) => {
                let r = a as usize..b as usize;
                (&self.emit_sorted[r.clone()], &self.emit_rank[r])
            }
            _ => (&[], &[]),
        }
    }

    /// Whether the phrase ending at `node` has a paraphrase either way (what
    /// `!paraphrases(node).is_empty()` says, without building the both-ways lists).
    #[allow(dead_code)]
    #[inline]
    pub(crate) fn paired(&self, node: u32) -> bool {
        let n = node as usize;
        self.paired
            .get(n / 32)
            .is_some_and(|&w| w >> (n % 32) & 1 == 1)
    }

    /// Words of the phrase ending at `node` (0 for the root or an unknown node).
    #[allow(dead_code)]
    #[inline]
    pub(crate) fn phrase_len(&self, node: u32) -> usize {
        let nodes = self.levels.last().copied().unwrap_or(0);
        if node == 0 || node >= nodes {
            return 0;
        }
        self.levels.partition_point(|&s| s <= node)
    }

    /// Number of trie nodes, the root included.
    pub(crate) fn nodes(&self) -> usize {
        self.node_word.len()
    }

    /// Whether the table is empty (no paraphrase module).
    pub fn is_empty(&self) -> bool {
        self.emit_sorted.is_empty()
    }

    /// Parse the decompressed `paraphrase-en.gz`.
    pub fn parse(data: &[u8]) -> Result<Self, Error> {
        const WHAT: &str = "data/paraphrase-en.gz";
        let text = std::str::from_utf8(data).map_err(|e| bad(WHAT, format!("not UTF-8: {e}")))?;
        let mut b = Builder::with_capacity(data.len());
        let mut recs: Vec<(u32, u32)> = Vec::with_capacity(data.len() / 50);
        let mut lines = text.split('\n');
        let mut n = 0usize;
        while let Some(p) = lines.next() {
            if p.is_empty() && n > 0 {
                // The final newline.
                if lines.next().is_none() {
                    break;
                }
                return Err(bad(WHAT, format!("line {}: an empty probability", n + 1)));
            }
            if p.is_empty() {
                break;
            }
            if p.trim().parse::<f64>().is_err() {
                return Err(bad(
                    WHAT,
                    format!("line {}: {p:.40?} is not a probability", n + 1),
                ));
            }
            let (Some(a), Some(c)) = (lines.next(), lines.next()) else {
                return Err(bad(
                    WHAT,
                    format!("it ends inside the record at line {}", n + 1),
                ));
            };
            if a.is_empty() || c.is_empty() {
                return Err(bad(WHAT, format!("line {}: an empty phrase", n + 2)));
            }
            n += 3;
            recs.push((b.insert(a), b.insert(c)));
        }
        if recs.is_empty() {
            return Ok(Table::default());
        }
        let mut t = b.finish(&mut recs);
        // Not deduplicated: a pair listed twice (or both ways) gives two matches, which then
        // conflict with each other, as the jar's do (observed: such a match is ambiguous).
        let (offsets, targets) = csr(t.node_word.len(), recs.iter().copied());
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        t.emit_sorted = Vec::with_capacity(targets.len());
        t.emit_rank = Vec::with_capacity(targets.len());
        for w in offsets.windows(2) {
            pairs.clear();
            pairs.extend(
                targets[w[0] as usize..w[1] as usize]
                    .iter()
                    .copied()
                    .zip(0u32..),
            );
            pairs.sort_unstable();
            t.emit_sorted.extend(pairs.iter().map(|p| p.0));
            t.emit_rank.extend(pairs.iter().map(|p| p.1));
        }
        t.paired = vec![0; t.node_word.len().div_ceil(32)];
        for w in offsets.windows(2).enumerate().filter(|(_, w)| w[1] > w[0]) {
            t.paired[w.0 / 32] |= 1 << (w.0 % 32);
        }
        for &x in &targets {
            t.paired[x as usize / 32] |= 1 << (x % 32);
        }
        t.emit_offsets = offsets;
        t.derive();
        Ok(t)
    }

    /// Fill in what is derived, never saved: the root's children by word, and phrase lengths.
    /// Breadth first, the nodes of one length are a range, and the first child of the first
    /// node of a range starts the next one.
    fn derive(&mut self) {
        self.root = vec![NONE; self.ends.len()];
        let nodes = self.node_word.len() as u32;
        self.levels = Vec::new();
        let mut start = 1u32;
        while start < nodes {
            self.levels.push(start);
            // Past the last range, or a damaged list (`check` refuses it): stop.
            start = self.first_child[start as usize].clamp(start + 1, nodes);
        }
        self.max_len = self.levels.len();
        self.levels.push(nodes);
        if let (Some(&a), Some(&b)) = (self.first_child.first(), self.first_child.get(1)) {
            for c in a..b {
                self.root[self.node_word[c as usize] as usize] = c;
            }
        }
    }
}

/// Bucket `(source, target)` pairs by source, each bucket in the pairs' order.
fn csr(nodes: usize, pairs: impl Iterator<Item = (u32, u32)> + Clone) -> (Vec<u32>, Vec<u32>) {
    let mut off = vec![0u32; nodes + 1];
    for (a, _) in pairs.clone() {
        off[a as usize + 1] += 1;
    }
    for k in 1..off.len() {
        off[k] += off[k - 1];
    }
    let mut next = off.clone();
    let mut items = vec![0u32; off[nodes] as usize];
    for (a, c) in pairs {
        let slot = &mut next[a as usize];
        items[*slot as usize] = c;
        *slot += 1;
    }
    (off, items)
}

/// The table while it is read: words and nodes numbered as first seen.
#[derive(Default)]
struct Builder<'a> {
    /// Words of at most 15 bytes (nearly all), packed with their length into a key that
    /// hashes and compares fast; the longer ones.
    short: FxHashMap<u128, u32>,
    long: FxHashMap<&'a str, u32>,
    words: Vec<&'a str>,
    /// Per word, the root's child for it (or [`NONE`]): the root has most of the children.
    root: Vec<u32>,
    /// (node, word id) → child node, below the root.
    trie: FxHashMap<u64, u32>,
    /// Per node but the root, (parent, word id, depth).
    nodes: Vec<(u32, u32, u32)>,
}

impl<'a> Builder<'a> {
    fn with_capacity(bytes: usize) -> Self {
        // About 80 bytes of text per trie node in METEOR's table: fewer rehashes.
        let nodes = bytes / 80;
        Builder {
            trie: FxHashMap::with_capacity_and_hasher(nodes, Default::default()),
            nodes: Vec::with_capacity(nodes),
            ..Builder::default()
        }
    }

    fn word_id(&mut self, w: &'a str) -> u32 {
        let next = self.words.len() as u32;
        let b = w.as_bytes();
        let id = if b.len() < 16 {
            let key = b
                .iter()
                .rev()
                .fold(b.len() as u128, |k, &x| (k << 8) | u128::from(x));
            *self.short.entry(key).or_insert(next)
        } else {
            *self.long.entry(w).or_insert(next)
        };
        if id == next {
            self.words.push(w);
            self.root.push(NONE);
        }
        id
    }

    fn child(&mut self, node: u32, id: u32, len: u32) -> u32 {
        let nodes = &mut self.nodes;
        let mut new = || {
            nodes.push((node, id, len));
            nodes.len() as u32
        };
        if node == 0 {
            let slot = &mut self.root[id as usize];
            if *slot == NONE {
                *slot = new();
            }
            return *slot;
        }
        let key = (u64::from(node) << 32) | u64::from(id);
        *self.trie.entry(key).or_insert_with(new)
    }

    fn insert(&mut self, phrase: &'a str) -> u32 {
        let (mut node, mut len, mut start) = (0u32, 1u32, 0usize);
        // Split at spaces by hand: words are short, and a search call per word costs more.
        for (i, &c) in phrase.as_bytes().iter().enumerate() {
            if c == b' ' {
                let id = self.word_id(&phrase[start..i]);
                node = self.child(node, id, len);
                (start, len) = (i + 1, len + 1);
            }
        }
        let id = self.word_id(&phrase[start..]);
        self.child(node, id, len)
    }

    /// Number words by byte order and nodes breadth first (siblings by word), renumbering
    /// `recs` to match; the paraphrase lists are left to the caller.
    fn finish(self, recs: &mut [(u32, u32)]) -> Table {
        let mut order: Vec<u32> = (0..self.words.len() as u32).collect();
        order.sort_unstable_by_key(|&i| self.words[i as usize]);
        let mut rank = vec![0u32; order.len()];
        let mut t = Table::default();
        for (r, &i) in order.iter().enumerate() {
            rank[i as usize] = r as u32;
            t.text.extend_from_slice(self.words[i as usize].as_bytes());
            t.ends.push(t.text.len() as u32);
        }
        drop((self.short, self.long, self.root, self.trie));
        // Breadth first: a level's nodes sorted by (new parent, word) take the next numbers.
        let max_len = self.nodes.iter().map(|n| n.2).max().unwrap_or(0) as usize;
        let mut levels: Vec<Vec<u32>> = vec![Vec::new(); max_len + 1];
        for (k, n) in self.nodes.iter().enumerate() {
            levels[n.2 as usize].push(k as u32 + 1);
        }
        let total = self.nodes.len() + 1;
        let mut new = vec![0u32; total];
        t.node_word = Vec::with_capacity(total);
        t.node_word.push(NONE);
        let mut children = vec![0u32; total + 1];
        for level in levels.iter().skip(1) {
            let mut keys: Vec<(u64, u32)> = level
                .iter()
                .map(|&k| {
                    let (parent, word, _) = self.nodes[k as usize - 1];
                    let key =
                        (u64::from(new[parent as usize]) << 32) | u64::from(rank[word as usize]);
                    (key, k)
                })
                .collect();
            keys.sort_unstable();
            for (key, k) in keys {
                new[k as usize] = t.node_word.len() as u32;
                t.node_word.push(key as u32);
                children[(key >> 32) as usize + 1] += 1;
            }
        }
        children[0] = 1;
        for k in 1..children.len() {
            children[k] += children[k - 1];
        }
        t.first_child = children;
        for r in recs.iter_mut() {
            *r = (new[r.0 as usize], new[r.1 as usize]);
        }
        t
    }
}

#[cfg(test)]
#[path = "paraphrase_tests.rs"]
mod tests;
