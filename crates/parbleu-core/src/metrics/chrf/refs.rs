//! References prepared once (character symbols, word hashes), and the per-hypothesis word ids
//! that reference words are looked up in.

use super::hyp::UNKNOWN_WORD;
use super::score::ChrfExtract;
use super::symbols::{char_symbols, for_each_word_at};
use crate::refset::{PreparedText, TextPool};

/// A word of a reference: its hash and where it is in the reference's text.
#[derive(Debug, Clone, Copy)]
pub(super) struct WordRef {
    pub(super) hash: u64,
    pub(super) start: usize,
    pub(super) end: usize,
}

/// One preprocessed reference: its character symbols and (for chrF++) its (lowercased) text
/// and words.
#[derive(Debug, Clone, Default)]
pub struct PreparedRef {
    pub(super) chars: Vec<u32>,
    pub(super) text: Box<str>,
    pub(super) words: Vec<WordRef>,
}

impl PreparedRef {
    fn new(cfg: &ChrfExtract, r: &str) -> Self {
        let text = cfg.cased(r);
        let mut chars = Vec::new();
        if cfg.score.char_order > 0 {
            char_symbols(&text, cfg.whitespace, &mut chars);
        }
        let mut words = Vec::new();
        if cfg.score.word_order > 0 {
            for_each_word_at(&text, |start, w| {
                words.push(WordRef {
                    hash: word_hash(w.as_bytes()),
                    start,
                    end: start + w.len(),
                });
            });
        }
        PreparedRef {
            chars,
            text: if cfg.score.word_order > 0 {
                text.into()
            } else {
                Box::default()
            },
            words,
        }
    }
}

/// Hash of a word (exactness comes from comparing the bytes on a hash match).
#[inline]
pub(super) fn word_hash(w: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = w.len() as u64;
    let mut chunks = w.chunks_exact(8);
    for c in &mut chunks {
        let x = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h.rotate_left(23) ^ x).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut buf = [0u8; 8];
        buf[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(23) ^ u64::from_le_bytes(buf)).wrapping_mul(K);
    }
    h ^ (h >> 29)
}

/// References of a corpus: the distinct reference texts, prepared once each, and for every
/// segment the ids of its references (`None` references already removed). The unit chrF
/// prepares is the single text (a segment's references are scored one by one).
pub type PreparedRefs = TextPool<PreparedRef>;

impl PreparedText for PreparedRef {
    type Cfg = ChrfExtract;
    const CHUNK: usize = 256;
    fn prepare(cfg: &ChrfExtract, text: &str) -> Self {
        PreparedRef::new(cfg, text)
    }
}

/// Per-hypothesis word ids `1..=k` by content, so reference words are matched by comparing
/// strings within the segment (no corpus-wide vocabulary to build).
#[derive(Default)]
pub(super) struct WordIds {
    /// (hash, start, end, id) per slot; id 0: empty.
    slots: Vec<(u64, usize, usize, u32)>,
    used: Vec<u32>,
    shift: u32,
    n: u32,
}

impl WordIds {
    /// Start a hypothesis of about `expect` distinct words (the table grows if needed).
    pub(super) fn reset(&mut self, expect: usize) {
        for &s in &self.used {
            self.slots[s as usize].3 = 0;
        }
        self.used.clear();
        let want = (2 * expect).next_power_of_two().max(64);
        if self.slots.len() < want || self.slots.len() > 8 * want {
            self.alloc(want);
        }
        self.n = 0;
    }

    fn alloc(&mut self, len: usize) {
        self.slots = vec![(0, 0, 0, 0); len];
        self.shift = 64 - len.trailing_zeros();
    }

    /// Double the table, keeping its words.
    fn grow(&mut self) {
        let old: Vec<_> = self.used.iter().map(|&s| self.slots[s as usize]).collect();
        self.alloc(2 * self.slots.len());
        self.used.clear();
        let mask = self.slots.len() - 1;
        for e in old {
            let mut i = (e.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
            while self.slots[i].3 != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = e;
            self.used.push(i as u32);
        }
    }

    /// The slot of `w` (hash `hash`) or the empty slot where it would go; `text` holds the
    /// words already inserted.
    #[inline]
    fn slot(&self, text: &str, w: &str, hash: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = (hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        loop {
            let (h, start, end, id) = self.slots[i];
            if id == 0 || (h == hash && &text[start..end] == w) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// Id of word `text[start..end]`, a new one if unseen.
    pub(super) fn get_or_insert(&mut self, text: &str, start: usize, end: usize) -> u32 {
        let w = &text[start..end];
        let hash = word_hash(w.as_bytes());
        let i = self.slot(text, w, hash);
        if self.slots[i].3 != 0 {
            return self.slots[i].3;
        }
        self.n += 1;
        self.slots[i] = (hash, start, end, self.n);
        self.used.push(i as u32);
        if 2 * self.used.len() >= self.slots.len() {
            self.grow();
        }
        self.n
    }

    /// Id of a reference word, or `UNKNOWN_WORD`.
    pub(super) fn get(&self, text: &str, w: &str, hash: u64) -> u32 {
        match self.slots[self.slot(text, w, hash)].3 {
            0 => UNKNOWN_WORD,
            id => id,
        }
    }
}
