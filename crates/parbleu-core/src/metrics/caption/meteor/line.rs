//! A line as the matchers see it, prepared once per distinct line of a batch: its words' hashes
//! in position order and sorted (so a reference word finds its exact and stem partners by binary
//! search), and the paraphrase table's phrases in it, in position order and by trie node (so a
//! phrase of the other line finds its paraphrases here by binary search). A line is compared
//! with several others (a test line with each reference, a reference with every system's line),
//! so none of this is redone per sentence pair.

use super::lexicon::{id_bit, Lexicon};
use super::paraphrase::{Table, NONE};

/// A phrase of the table found in a line: start, length, trie node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Phrase {
    pub start: u32,
    pub len: u32,
    pub node: u32,
}

/// What the matchers need of one line.
#[derive(Default)]
pub(crate) struct Line {
    /// Word ids of the batch's [`Lexicon`].
    pub words: Vec<u32>,
    /// Per word: Java hash of the word and of its stem, and its id's filter bit ([`id_bit`]).
    pub hashes: Vec<(i32, i32, u64)>,
    /// Per word: the filter of its synonym partners ([`super::lexicon::Info::near_bits`]).
    pub near_bits: Vec<u64>,
    /// The positions of each word hash and of each stem hash.
    pub by_word: Positions,
    pub by_stem: Positions,
    /// Union of the words' id bits.
    pub ids: u64,
    /// The table's phrases by start then length, and as (node, start, length) sorted.
    pub phrases: Vec<Phrase>,
    pub by_node: Vec<(u32, u32, u32)>,
    /// A 512-bit filter of the phrases' nodes ([`node_slot`]).
    pub nodes: [u64; 8],
    /// Per phrase, what it paraphrases (`emits[emit_at[k]..emit_at[k + 1]]` for phrase `k`) as
    /// (node, record rank), sorted; only the nodes found in some line of the batch
    /// ([`Line::link`]), so a pair looks at few and touches no table memory.
    pub emits: Vec<(u32, u32)>,
    pub emit_at: Vec<u32>,
}

/// A node's bit in [`Line::nodes`].
#[inline]
fn node_slot(node: u32) -> usize {
    (node.wrapping_mul(0x9E37_79B1) >> 23) as usize
}

impl Line {
    /// Prepare the line of word ids `words`.
    pub fn new(words: Vec<u32>, lex: &Lexicon, table: &Table) -> Self {
        let mut l = Line::of_words(words);
        l.prepare(lex, table);
        l
    }

    /// The line of word ids `words`, not yet prepared ([`Line::prepare`]).
    pub fn of_words(words: Vec<u32>) -> Self {
        Line {
            words,
            ..Line::default()
        }
    }

    /// Everything but the paraphrase links ([`Line::link`]).
    pub fn prepare(&mut self, lex: &Lexicon, table: &Table) {
        let words = std::mem::take(&mut self.words);
        *self = Line {
            hashes: words
                .iter()
                .map(|&w| (lex.info[w as usize].jh, lex.info[w as usize].sjh, id_bit(w)))
                .collect(),
            near_bits: words
                .iter()
                .map(|&w| lex.info[w as usize].near_bits)
                .collect(),
            phrases: phrases(&words, lex, table),
            ..Line::default()
        };
        let l = self;
        l.ids = l.hashes.iter().fold(0, |m, h| m | h.2);
        l.by_word = Positions::new(l.hashes.iter().map(|h| h.0));
        l.by_stem = Positions::new(l.hashes.iter().map(|h| h.1));
        l.by_node = l.phrases.iter().map(|p| (p.node, p.start, p.len)).collect();
        l.by_node.sort_unstable();
        for p in &l.phrases {
            let s = node_slot(p.node);
            l.nodes[s / 64] |= 1 << (s % 64);
        }
        l.words = words;
    }

    /// Keep of each phrase's paraphrases those whose node is in `batch` ([`Line::nodes_of`]).
    pub fn link(&mut self, table: &Table, batch: &[u64]) {
        self.emits.clear();
        self.emit_at.clear();
        self.emit_at.push(0);
        for p in &self.phrases {
            let (targets, ranks) = table.emits_sorted(p.node);
            for (&x, &r) in targets.iter().zip(ranks) {
                if batch
                    .get(x as usize / 64)
                    .is_some_and(|w| w >> (x % 64) & 1 == 1)
                {
                    self.emits.push((x, r));
                }
            }
            self.emit_at.push(self.emits.len() as u32);
        }
    }

    /// What phrase `k` paraphrases among the batch's phrases, as (node, record rank).
    #[inline]
    pub fn emits_of(&self, k: usize) -> &[(u32, u32)] {
        &self.emits[self.emit_at[k] as usize..self.emit_at[k + 1] as usize]
    }

    /// The set of the trie nodes of the phrases of `lines`, one bit per node of `table`.
    pub fn nodes_of<'a>(lines: impl IntoIterator<Item = &'a Line>, table: &Table) -> Vec<u64> {
        let mut set = vec![0u64; table.nodes().div_ceil(64)];
        for p in lines.into_iter().flat_map(|l| &l.phrases) {
            set[p.node as usize / 64] |= 1 << (p.node % 64);
        }
        set
    }

    /// Whether a phrase with trie node `node` may be in the line (no false negatives).
    #[inline]
    pub fn may_hold(&self, node: u32) -> bool {
        let s = node_slot(node);
        self.nodes[s / 64] >> (s % 64) & 1 == 1
    }

    /// The phrases of the line with trie node `node`, by start.
    #[inline]
    pub fn with_node(&self, node: u32) -> &[(u32, u32, u32)] {
        let lo = self.by_node.partition_point(|e| e.0 < node);
        let n = self.by_node[lo..].partition_point(|e| e.0 == node);
        &self.by_node[lo..lo + n]
    }
}

/// A small hash table from a key (a Java hash) to the positions holding it, ascending: a
/// reference word finds its partners in the test line in a probe or two.
#[derive(Default)]
pub(crate) struct Positions {
    /// Open addressing, a power of two at least twice the positions: (key, first position),
    /// [`EMPTY`] where free.
    slots: Vec<(i32, u32)>,
    /// Per position, the next position with the same key, or [`EMPTY`].
    next: Vec<u32>,
    shift: u32,
}

const EMPTY: u32 = u32::MAX;

impl Positions {
    fn new(keys: impl ExactSizeIterator<Item = i32> + DoubleEndedIterator) -> Self {
        let n = keys.len();
        let size = (2 * n).next_power_of_two().max(8);
        let mut p = Positions {
            slots: vec![(0, EMPTY); size],
            next: vec![EMPTY; n],
            shift: 32 - size.trailing_zeros(),
        };
        // From the last position back, each put in front: the lists come out ascending.
        for (k, key) in keys.enumerate().rev() {
            let at = p.slot(key);
            let s = &mut p.slots[at];
            p.next[k] = if s.1 == EMPTY { EMPTY } else { s.1 };
            *s = (key, k as u32);
        }
        p
    }

    /// The slot of `key`: where it is, or the free one where it would go.
    #[inline]
    fn slot(&self, key: i32) -> usize {
        let mask = self.slots.len() - 1;
        let mut at = ((key as u32).wrapping_mul(0x9E37_79B1) >> self.shift) as usize;
        loop {
            let s = self.slots[at];
            if s.1 == EMPTY || s.0 == key {
                return at;
            }
            at = (at + 1) & mask;
        }
    }

    /// The positions of `key`, ascending.
    #[inline]
    pub fn of(&self, key: i32) -> impl Iterator<Item = u32> + '_ {
        let mut k = if self.slots.is_empty() {
            EMPTY
        } else {
            self.slots[self.slot(key)].1
        };
        std::iter::from_fn(move || {
            let here = k;
            if here != EMPTY {
                k = self.next[here as usize];
                return Some(here);
            }
            None
        })
    }
}

/// Every phrase of the table in a line of word ids, by start then length.
pub(crate) fn phrases(s: &[u32], lex: &Lexicon, table: &Table) -> Vec<Phrase> {
    let mut out = Vec::new();
    if table.is_empty() {
        return out;
    }
    for i in 0..s.len() {
        let mut node = 0;
        for (n, &w) in s[i..].iter().take(table.max_len).enumerate() {
            let info = &lex.info[w as usize];
            node = if n == 0 {
                info.root
            } else {
                table.step(node, info.para)
            };
            if node == NONE {
                break;
            }
            if table.paired(node) {
                out.push(Phrase {
                    start: i as u32,
                    len: n as u32 + 1,
                    node,
                });
            }
        }
    }
    out
}
