//! The words of a batch, interned once: each distinct word is stemmed, looked up in WordNet,
//! the function-word list and the paraphrase table's vocabulary once per batch, not once per
//! sentence pair.

use super::paraphrase::NONE;
use super::resources::Resources;
use super::stem::stem;
use rustc_hash::FxHashMap;

/// Java's `String.hashCode`: over UTF-16 code units, `h = 31 * h + unit`, wrapping.
pub(crate) fn java_hash(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, u| h.wrapping_mul(31).wrapping_add(i32::from(u)))
}

/// What the matchers need of one word.
pub(crate) struct Info {
    /// Java's `String.hashCode` of the word and of its stem: the jar compares words and stems
    /// by these, so two words with equal hashes match as equal.
    pub jh: i32,
    pub sjh: i32,
    /// Sorted WordNet synset ids.
    pub syn: Box<[u32]>,
    /// The batch's words that share a synset with this one (sorted ids, itself included when
    /// it has synsets), and a filter of them ([`id_bit`]): a synonym test is one bit test, and
    /// a binary search when the bit is set, instead of comparing two synset lists (function
    /// words such as `is` have dozens of synsets, so list comparisons dominated).
    pub near: Box<[u32]>,
    pub near_bits: u64,
    pub func: bool,
    /// The paraphrase table's id of the word, or [`NONE`].
    pub para: u32,
    /// The table's trie node of the word alone (its first step from the root), or [`NONE`]:
    /// looked up once per word, not once per sentence position.
    pub root: u32,
}

/// Distinct words of a batch and their [`Info`].
pub(crate) struct Lexicon<'a> {
    ids: FxHashMap<&'a str, u32>,
    words: Vec<&'a str>,
    pub info: Vec<Info>,
}

impl<'a> Lexicon<'a> {
    pub fn new() -> Self {
        Self {
            ids: FxHashMap::default(),
            words: Vec::new(),
            info: Vec::new(),
        }
    }

    /// Ids of a sentence's words, new words added (their [`Info`] comes with [`Self::finish`]).
    pub fn intern(&mut self, words: impl IntoIterator<Item = &'a str>) -> Vec<u32> {
        words
            .into_iter()
            .map(|w| {
                let next = self.words.len() as u32;
                *self.ids.entry(w).or_insert_with(|| {
                    self.words.push(w);
                    next
                })
            })
            .collect()
    }

    /// Look every word up, on `workers` threads.
    pub fn finish(&mut self, res: &Resources, workers: usize) {
        let mut raw: Vec<(String, Box<[u32]>, bool, u32)> =
            vec![(String::new(), Box::default(), false, NONE); self.words.len()];
        let words = &self.words;
        crate::parallel::for_each_chunk(workers, &mut raw, 512, |start, chunk| {
            for (k, o) in chunk.iter_mut().enumerate() {
                let w = words[start + k];
                *o = (
                    stem(w),
                    res.synsets_of(w).into_boxed_slice(),
                    res.function.contains(w),
                    res.paraphrases.word(w),
                );
            }
        });
        self.info = raw
            .into_iter()
            .zip(words.iter())
            .map(|((s, syn, func, para), w)| Info {
                jh: java_hash(w),
                sjh: java_hash(&s),
                near: Box::default(),
                near_bits: 0,
                syn,
                func,
                root: res.paraphrases.step(0, para),
                para,
            })
            .collect();
        // The batch's words of each synset: (synset, word) pairs packed in a u64 (sorting
        // integers is about twice as fast as sorting pairs), sorted, read as runs.
        let mut pairs: Vec<u64> = (self.info.iter().enumerate())
            .flat_map(|(id, info)| {
                info.syn
                    .iter()
                    .map(move |&x| u64::from(x) << 32 | id as u64)
            })
            .collect();
        pairs.sort_unstable();
        // Each synset's run of pairs, found by one hash lookup (two binary searches per word
        // and synset cost more than the rest of the near lists).
        let mut runs: FxHashMap<u32, (u32, u32)> =
            FxHashMap::with_capacity_and_hasher(pairs.len(), Default::default());
        for (k, &p) in (0u32..).zip(pairs.iter()) {
            runs.entry((p >> 32) as u32).or_insert((k, k)).1 = k + 1;
        }
        let members = |x: u32| {
            let (lo, hi) = runs.get(&x).copied().unwrap_or((0, 0));
            pairs[lo as usize..hi as usize].iter().map(|&p| p as u32)
        };
        crate::parallel::for_each_chunk(workers, &mut self.info, 512, |_, chunk| {
            let mut near: Vec<u32> = Vec::new();
            for info in chunk {
                near.clear();
                for &x in info.syn.iter() {
                    near.extend(members(x));
                }
                near.sort_unstable();
                near.dedup();
                info.near_bits = near.iter().fold(0, |m, &w| m | id_bit(w));
                info.near = near.as_slice().into();
            }
        });
    }
}

/// A word id's bit in the 64-bit filters of [`Info::near_bits`].
#[inline]
pub(crate) fn id_bit(id: u32) -> u64 {
    1 << (id.wrapping_mul(0x9E37_79B1) >> 26)
}
