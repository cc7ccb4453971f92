//! The paraphrase table: records of three lines (probability, phrase, paraphrase), phrases of
//! normalised, space-separated words. Words are interned, phrases are the terminal nodes of a
//! trie over word ids. Each phrase has two lists: what it emits (the second phrase of each
//! record whose first phrase it is, in file record order) and its paraphrases both ways, sorted
//! (a record pairs its two phrases both ways, as the jar matches them: observed).

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
    /// Per node, the nodes it emits (`emit_offsets[n]..emit_offsets[n + 1]` of `emit_targets`,
    /// in record order, forward only).
    emit_offsets: Vec<u32>,
    emit_targets: Vec<u32>,
    /// Per node, the words of the phrase ending there (0 for the root).
    depth: Vec<u32>,
    /// Longest phrase, in words.
    pub(crate) max_len: usize,
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

    /// The second phrases of the records whose first phrase ends at `node`, in file record
    /// order (a pair listed in several records appears that many times); empty if none.
    // For the aligner that replaces `paraphrases` (issue 36).
    #[allow(dead_code)]
    #[inline]
    pub(crate) fn emits(&self, node: u32) -> &[u32] {
        let n = node as usize;
        match (self.emit_offsets.get(n), self.emit_offsets.get(n + 1)) {
            (Some(&a), Some(&b)) => &self.emit_targets[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Words of the phrase ending at `node` (0 for the root or an unknown node).
    // For the aligner that replaces `paraphrases` (issue 36).
    #[allow(dead_code)]
    #[inline]
    pub(crate) fn phrase_len(&self, node: u32) -> usize {
        self.depth.get(node as usize).map_or(0, |&d| d as usize)
    }

    fn insert(&mut self, phrase: &str, nodes: &mut u32) -> u32 {
        let mut node = 0u32;
        let mut len = 0u32;
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
            let depth = &mut self.depth;
            node = *self.trie.entry(key(node, id)).or_insert_with(|| {
                *nodes += 1;
                depth.push(len);
                *nodes
            });
        }
        self.max_len = self.max_len.max(len as usize);
        node
    }

    /// Parse the decompressed `paraphrase-en.gz`.
    pub fn parse(data: &[u8]) -> Result<Self, Error> {
        const WHAT: &str = "data/paraphrase-en.gz";
        let text = std::str::from_utf8(data).map_err(|e| bad(WHAT, format!("not UTF-8: {e}")))?;
        let mut t = Table {
            depth: vec![0],
            ..Table::default()
        };
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
        // Not deduplicated: a pair listed twice (or both ways) gives two matches, which then
        // conflict with each other, as the jar's do (observed: such a match is ambiguous).
        // Forward edges in record order: the even entries, stably bucketed by source node.
        t.emit_offsets = vec![0; nodes as usize + 2];
        for e in edges.iter().step_by(2) {
            t.emit_offsets[(e >> 32) as usize + 1] += 1;
        }
        for k in 1..t.emit_offsets.len() {
            t.emit_offsets[k] += t.emit_offsets[k - 1];
        }
        let mut next = t.emit_offsets.clone();
        t.emit_targets = vec![0; edges.len() / 2];
        for e in edges.iter().step_by(2) {
            let slot = &mut next[(e >> 32) as usize];
            t.emit_targets[*slot as usize] = *e as u32;
            *slot += 1;
        }
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

#[cfg(test)]
#[path = "paraphrase_tests.rs"]
mod tests;
