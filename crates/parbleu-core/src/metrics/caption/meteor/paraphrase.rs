//! The paraphrase table: records of three lines (probability, phrase, paraphrase), phrases of
//! normalised, space-separated words. Words are interned, phrases are the terminal nodes of a
//! trie over word ids, and each phrase has the sorted list of its paraphrases (a record pairs
//! its two phrases both ways, as the jar matches them: observed).

use crate::Error;
use rustc_hash::FxHashMap;

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
#[derive(Default)]
pub struct Table {
    /// Word → word id.
    vocab: FxHashMap<Box<str>, u32>,
    /// (node, word id) → child node; node 0 is the root.
    trie: FxHashMap<u64, u32>,
    /// Per node, its paraphrases' nodes (`offsets[n]..offsets[n + 1]` of `targets`, sorted).
    offsets: Vec<u32>,
    targets: Vec<u32>,
    /// Per node, its paraphrases in the file's record order, first phrase to second only
    /// (`fwd_offsets[n]..fwd_offsets[n + 1]` of `fwd_targets`): the order the jar tries them.
    fwd_offsets: Vec<u32>,
    fwd_targets: Vec<u32>,
    /// The same lists sorted by target, each with its rank in record order: which records
    /// pair a phrase with a given one, by binary search.
    fwd_sorted: Vec<u32>,
    fwd_rank: Vec<u32>,
    /// Per node, one bit per [`node_bit`] of its forward targets: most phrase pairs are
    /// ruled out without touching the (large, scattered) target lists.
    fwd_mask: Vec<u64>,
    /// Longest phrase, in words.
    pub(crate) max_len: usize,
}

/// A node's bit in the 64-bit filters of [`Table::emits_mask`].
#[inline]
pub(crate) fn node_bit(node: u32) -> u64 {
    1 << (node.wrapping_mul(0x9E37_79B1) >> 26)
}

fn key(node: u32, word: u32) -> u64 {
    (u64::from(node) << 32) | u64::from(word)
}

impl Table {
    /// The table's id of a word, or [`NONE`].
    pub(crate) fn word(&self, w: &str) -> u32 {
        self.vocab.get(w).copied().unwrap_or(NONE)
    }

    /// The trie node after `word` from `node`, or [`NONE`].
    #[inline]
    pub(crate) fn step(&self, node: u32, word: u32) -> u32 {
        if word == NONE {
            return NONE;
        }
        self.trie.get(&key(node, word)).copied().unwrap_or(NONE)
    }

    /// The paraphrases of the phrase ending at `node` (empty if it is not a phrase).
    #[inline]
    pub(crate) fn paraphrases(&self, node: u32) -> &[u32] {
        let n = node as usize;
        match (self.offsets.get(n), self.offsets.get(n + 1)) {
            (Some(&a), Some(&b)) => &self.targets[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The filter of the targets of `node`: a target's [`node_bit`] is set in it.
    #[inline]
    pub(crate) fn emits_mask(&self, node: u32) -> u64 {
        self.fwd_mask.get(node as usize).copied().unwrap_or(0)
    }

    /// [`Self::emits`] sorted by target node, and each target's rank in record order.
    #[inline]
    pub(crate) fn emits_sorted(&self, node: u32) -> (&[u32], &[u32]) {
        let n = node as usize;
        match (self.fwd_offsets.get(n), self.fwd_offsets.get(n + 1)) {
            (Some(&a), Some(&b)) => {
                let r = a as usize..b as usize;
                (&self.fwd_sorted[r.clone()], &self.fwd_rank[r])
            }
            _ => (&[], &[]),
        }
    }

    fn insert(&mut self, phrase: &str, nodes: &mut u32) -> u32 {
        let mut node = 0u32;
        let mut len = 0;
        for w in phrase.split(' ') {
            len += 1;
            let next = self.vocab.len() as u32;
            let id = match self.vocab.get(w) {
                Some(&id) => id,
                None => {
                    self.vocab.insert(Box::from(w), next);
                    next
                }
            };
            node = *self.trie.entry(key(node, id)).or_insert_with(|| {
                *nodes += 1;
                *nodes
            });
        }
        self.max_len = self.max_len.max(len);
        node
    }

    /// Parse the decompressed `paraphrase-en.gz`.
    pub fn parse(data: &[u8]) -> Result<Self, Error> {
        const WHAT: &str = "data/paraphrase-en.gz";
        let text = std::str::from_utf8(data).map_err(|e| bad(WHAT, format!("not UTF-8: {e}")))?;
        let mut t = Table::default();
        let mut nodes = 0u32;
        let mut edges: Vec<u64> = Vec::new();
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
            let (Some(a), Some(b)) = (lines.next(), lines.next()) else {
                return Err(bad(
                    WHAT,
                    format!("it ends inside the record at line {}", n + 1),
                ));
            };
            if a.is_empty() || b.is_empty() {
                return Err(bad(WHAT, format!("line {}: an empty phrase", n + 2)));
            }
            n += 3;
            let (a, b) = (t.insert(a, &mut nodes), t.insert(b, &mut nodes));
            edges.push(key(a, b));
            edges.push(key(b, a));
        }
        // Forward pairs, stably grouped by first phrase: record order within each group.
        let mut fwd: Vec<u64> = edges.iter().step_by(2).copied().collect();
        fwd.sort_by_key(|e| e >> 32);
        t.fwd_offsets = vec![0; nodes as usize + 2];
        for e in &fwd {
            t.fwd_offsets[(e >> 32) as usize + 1] += 1;
        }
        for k in 1..t.fwd_offsets.len() {
            t.fwd_offsets[k] += t.fwd_offsets[k - 1];
        }
        t.fwd_targets = fwd.iter().map(|e| *e as u32).collect();
        t.fwd_sorted = Vec::with_capacity(t.fwd_targets.len());
        t.fwd_rank = Vec::with_capacity(t.fwd_targets.len());
        t.fwd_mask = Vec::with_capacity(t.fwd_offsets.len());
        for w in t.fwd_offsets.windows(2) {
            let list = &t.fwd_targets[w[0] as usize..w[1] as usize];
            let mut pairs: Vec<(u32, u32)> =
                list.iter().zip(0u32..).map(|(&x, r)| (x, r)).collect();
            pairs.sort_unstable();
            t.fwd_mask
                .push(pairs.iter().fold(0, |m, p| m | node_bit(p.0)));
            t.fwd_sorted.extend(pairs.iter().map(|p| p.0));
            t.fwd_rank.extend(pairs.iter().map(|p| p.1));
        }
        // Not deduplicated: a pair listed twice (or both ways) gives two matches, which then
        // conflict with each other, as the jar's do (observed: such a match is ambiguous).
        edges.sort_unstable();
        t.offsets = vec![0; nodes as usize + 2];
        for e in &edges {
            t.offsets[(e >> 32) as usize + 1] += 1;
        }
        for k in 1..t.offsets.len() {
            t.offsets[k] += t.offsets[k - 1];
        }
        t.targets = edges.iter().map(|e| *e as u32).collect();
        Ok(t)
    }

    /// Whether the table is empty (no paraphrase module).
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }
}
