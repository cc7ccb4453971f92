//! Token ids for one (prediction, references) pair without a string allocation per token.
//!
//! Each thread keeps every token it has seen, before stemming, with the id of its final form
//! (so Porter runs once per distinct word, and equal stems share an id); a pair's ids are then
//! renumbered densely from 0 (`local`, reset by a generation stamp), so that per-pair tables
//! can be indexed by id. Only equality of ids within a pair matters, never their values.

use super::porter;
use super::score::Text;
use super::tokenize::RougeTokenizer;
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// Most distinct raw tokens a thread keeps before it starts over (bounds the memory).
const MAX_TOKENS: usize = 1 << 20;

/// An id no token has: a token whose final form is empty (dropped, as rouge-score does).
const DROPPED: u32 = u32::MAX;

#[derive(Default)]
struct Interner {
    /// Raw token -> global id of its final form, one map per stemming option.
    raw: [FxHashMap<Box<str>, u32>; 2],
    /// Final form -> global id.
    finals: FxHashMap<Box<str>, u32>,
    /// Per global id: the generation that last numbered it, and its pair-local id.
    stamp: Vec<u32>,
    local: Vec<u32>,
    generation: u32,
    next_local: u32,
}

impl Interner {
    fn global(&mut self, tok: &RougeTokenizer, raw: &str) -> u32 {
        let map = &mut self.raw[usize::from(tok.stem)];
        if let Some(&g) = map.get(raw) {
            return g;
        }
        let stemmed;
        let fin = if tok.stems(raw) {
            stemmed = porter::stem(raw);
            stemmed.as_str()
        } else {
            raw
        };
        let g = if fin.is_empty() {
            DROPPED
        } else if let Some(&g) = self.finals.get(fin) {
            g
        } else {
            let g = self.finals.len() as u32;
            self.finals.insert(fin.into(), g);
            self.stamp.push(0);
            self.local.push(0);
            g
        };
        self.raw[usize::from(tok.stem)].insert(raw.into(), g);
        g
    }

    fn local(&mut self, g: u32) -> u32 {
        let g = g as usize;
        if self.stamp[g] != self.generation {
            self.stamp[g] = self.generation;
            self.local[g] = self.next_local;
            self.next_local += 1;
        }
        self.local[g]
    }

    fn start_pair(&mut self) {
        if self.raw[0].len() + self.raw[1].len() > MAX_TOKENS {
            *self = Interner::default();
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Stamps of 0 would look current after a wrap-around: clear them.
            self.stamp.iter_mut().for_each(|s| *s = u32::MAX);
            self.generation = 1;
        }
        self.next_local = 0;
    }
}

thread_local! {
    static INTERNER: RefCell<Interner> = RefCell::new(Interner::default());
}

/// Tokenize `texts` line by line (rouge-score's `text.split("\n")`, empty lines dropped) into
/// ids numbered densely from 0 across all of them; returns the texts and the number of ids.
/// Every tokenizer splits at a newline, so the concatenated lines are the tokens of the whole
/// text (rougeN and rougeL's).
pub fn prepare_pair(tok: &RougeTokenizer, texts: &[&str]) -> (Vec<Text>, usize) {
    INTERNER.with(|cell| {
        let mut it = cell.borrow_mut();
        it.start_pair();
        let out = texts
            .iter()
            .map(|text| {
                text_ids(tok, text, |raw| {
                    let g = it.global(tok, raw);
                    (g != DROPPED).then(|| it.local(g))
                })
            })
            .collect();
        (out, it.next_local as usize)
    })
}

/// Every text of a pair table tokenized once, as [`prepare_pair`] does, with ids of one
/// vocabulary shared by all of them (equal final tokens, equal ids); returns the texts and the
/// number of ids. A pair's scores depend only on which of its tokens are equal, so these ids
/// give the scores [`prepare_pair`]'s give.
pub fn prepare_all<S: AsRef<str>>(tok: &RougeTokenizer, texts: &[S]) -> (Vec<Text>, usize) {
    let mut it = Interner::default();
    let out = texts
        .iter()
        .map(|text| {
            text_ids(tok, text.as_ref(), |raw| {
                let g = it.global(tok, raw);
                (g != DROPPED).then_some(g)
            })
        })
        .collect();
    (out, it.finals.len())
}

/// The [`Text`] of `text`: its non-empty lines' tokens, each given its id by `id` (`None`:
/// dropped).
fn text_ids(tok: &RougeTokenizer, text: &str, mut id: impl FnMut(&str) -> Option<u32>) -> Text {
    let mut t = Text::default();
    for line in text.split('\n').filter(|l| !l.is_empty()) {
        tok.raw_tokens(line, &mut |raw| {
            if let Some(i) = id(raw) {
                t.all.push(i);
            }
        });
        t.ends.push(t.all.len() as u32);
    }
    t
}
