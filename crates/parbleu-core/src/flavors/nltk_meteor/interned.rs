//! A batch's words and stems as ids, each distinct token prepared once (`str.lower`, the Porter
//! stem) and each distinct id looked up in WordNet once; the aligner then compares integers.

use super::wordnet::Wordnet;
use crate::metrics::rouge::porter::stem_unicode;
use crate::parallel;
use crate::text::py_lower;
use rustc_hash::FxHashMap;

/// One side of a segment (the hypothesis or one reference): word and stem ids by position.
#[derive(Clone, Debug, Default)]
pub struct Side {
    pub words: Vec<u32>,
    pub stems: Vec<u32>,
}

/// Every distinct word and stem of a batch, and what WordNet says of each.
#[derive(Default)]
pub struct Interned<'w> {
    /// Id -> text.
    pub strs: Vec<String>,
    /// Text -> id.
    pub ids: FxHashMap<String, u32>,
    /// Id -> `wordnet.synsets(text)`, ascending (filled by [`Interned::look_up`]).
    pub synsets: Vec<Vec<u32>>,
    /// Id -> the synsets that have the text as a lemma name, ascending.
    pub named: Vec<&'w [u32]>,
}

impl<'w> Interned<'w> {
    fn intern(&mut self, s: String) -> u32 {
        if let Some(&id) = self.ids.get(&s) {
            return id;
        }
        let id = self.strs.len() as u32;
        self.strs.push(s.clone());
        self.ids.insert(s, id);
        id
    }

    /// The ids of `tokens`: each preprocessed (`lower`: `str.lower`) and stemmed (NLTK's
    /// Porter stemmer, or `stems`: the caller's), through `cache` (token -> ids) when the stems
    /// are the Porter stemmer's.
    pub fn side<'t, S: AsRef<str>>(
        &mut self,
        tokens: &'t [S],
        stems: Option<&[S]>,
        lower: bool,
        cache: &mut FxHashMap<&'t str, (u32, u32)>,
    ) -> Side {
        let word = |t: &str| if lower { py_lower(t) } else { t.to_owned() };
        let mut side = Side {
            words: Vec::with_capacity(tokens.len()),
            stems: Vec::with_capacity(tokens.len()),
        };
        for (k, t) in tokens.iter().enumerate() {
            let t = t.as_ref();
            let (w, s) = match stems {
                Some(st) => {
                    let w = self.intern(word(t));
                    (w, self.intern(st[k].as_ref().to_owned()))
                }
                None => match cache.get(t) {
                    Some(&ids) => ids,
                    None => {
                        let w = word(t);
                        let s = stem_unicode(&w);
                        let ids = (self.intern(w), self.intern(s));
                        cache.insert(t, ids);
                        ids
                    }
                },
            };
            side.words.push(w);
            side.stems.push(s);
        }
        side
    }

    /// Fill [`Self::synsets`] and [`Self::named`] for every id, on `workers` threads.
    pub fn look_up(&mut self, wn: &'w Wordnet, workers: usize) {
        let mut rows: Vec<(Vec<u32>, &'w [u32])> = vec![(Vec::new(), &[]); self.strs.len()];
        let strs = &self.strs;
        parallel::for_each_chunk(workers, &mut rows, 256, |start, chunk| {
            for (k, row) in chunk.iter_mut().enumerate() {
                let s = strs[start + k].as_str();
                // synsets() lowers its argument (a caller's stems may hold capitals).
                if s.chars().any(char::is_uppercase) {
                    wn.synset_ids(&py_lower(s), &mut row.0);
                } else {
                    wn.synset_ids(s, &mut row.0);
                }
                row.1 = wn.named(s);
            }
        });
        (self.synsets, self.named) = rows.into_iter().unzip();
    }
}
