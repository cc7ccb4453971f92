//! METEOR 1.5's English data, parsed from the bytes of the user's installed copy (never shipped
//! with parbleu): the function-word list, WordNet synsets and morphological exceptions (from the
//! jar's `function/` and `synonym/` entries) and the paraphrase table (`paraphrase-en.gz`,
//! decompressed by the caller).

use super::paraphrase::{self, bad};
use crate::Error;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// Function words, synonym sets and paraphrases.
#[derive(Default)]
pub struct Resources {
    pub(crate) function: FxHashSet<String>,
    pub(crate) synsets: FxHashMap<String, Vec<u32>>,
    pub(crate) exceptions: FxHashMap<String, Vec<String>>,
    pub(crate) paraphrases: Arc<paraphrase::Table>,
}

fn text<'a>(what: &str, b: &'a [u8]) -> Result<&'a str, Error> {
    std::str::from_utf8(b).map_err(|e| bad(what, format!("not UTF-8: {e}")))
}

impl Resources {
    /// Parse the four data files; `paraphrase` may be empty (no paraphrase module).
    pub fn new(
        function: &[u8],
        synsets: &[u8],
        exceptions: &[u8],
        paraphrase: &[u8],
    ) -> Result<Self, Error> {
        let table = Arc::new(paraphrase::Table::parse(paraphrase)?);
        Self::with_table(function, synsets, exceptions, table)
    }

    /// Parse the three files of the jar, with a paraphrase table parsed or loaded already.
    pub fn with_table(
        function: &[u8],
        synsets: &[u8],
        exceptions: &[u8],
        paraphrases: Arc<paraphrase::Table>,
    ) -> Result<Self, Error> {
        let function = text("function/english.words", function)?
            .lines()
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty())
            .collect();
        // Sized up front: growing the map as it fills cost a tenth of loading the scorer.
        let entries = synsets.iter().filter(|&&b| b == b'\n').count() / 2;
        let mut syn: FxHashMap<String, Vec<u32>> =
            FxHashMap::with_capacity_and_hasher(entries, Default::default());
        let mut lines = text("synonym/english.synsets", synsets)?.lines();
        let mut n = 0usize;
        while let Some(word) = lines.next() {
            n += 1;
            let Some(ids) = lines.next() else {
                return Err(bad(
                    "synonym/english.synsets",
                    format!("it ends after word line {n} ({word:?}) without its synsets"),
                ));
            };
            let mut v = Vec::new();
            for id in ids.split_whitespace() {
                v.push(id.parse::<u32>().map_err(|_| {
                    bad(
                        "synonym/english.synsets",
                        format!("line {}: {id:?} is not a synset id", n + 1),
                    )
                })?);
            }
            n += 1;
            match syn.get_mut(word) {
                Some(e) => e.extend(v),
                None => {
                    syn.insert(word.to_string(), v);
                }
            }
        }
        let mut exc: FxHashMap<String, Vec<String>> = FxHashMap::default();
        let mut lines = text("synonym/english.exceptions", exceptions)?.lines();
        while let Some(base) = lines.next() {
            let Some(vars) = lines.next() else { break };
            for v in vars.split_whitespace() {
                exc.entry(v.to_string()).or_default().push(base.to_string());
            }
        }
        Ok(Self {
            function,
            synsets: syn,
            exceptions: exc,
            paraphrases,
        })
    }

    /// Synsets of a word: of its own form, and of its base forms: its exception bases when
    /// the exception list has the word, otherwise the first regular-ending base (in
    /// [`DETACH`]'s order) that has synsets, and none for a word of at most two UTF-16 units or
    /// ending in `ss` (observed: `does` is `doe`, never `do`; `as` is not `a`; `owner`, an
    /// exception of itself, is not `own`).
    pub(crate) fn synsets_of(&self, word: &str) -> Vec<u32> {
        let mut out: Vec<u32> = Vec::new();
        if let Some(v) = self.synsets.get(word) {
            out.extend_from_slice(v);
        }
        if let Some(bases) = self.exceptions.get(word) {
            for b in bases {
                if let Some(v) = self.synsets.get(b.as_str()) {
                    out.extend_from_slice(v);
                }
            }
        } else if !(word.ends_with("ss") || word.encode_utf16().count() <= 2) {
            let mut base = String::with_capacity(word.len() + 2);
            for (suf, rep) in DETACH {
                if let Some(stem) = word.strip_suffix(suf) {
                    base.clear();
                    base.push_str(stem);
                    base.push_str(rep);
                    if let Some(v) = self.synsets.get(base.as_str()) {
                        out.extend_from_slice(v);
                        break;
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// WordNet's regular inflection endings (nouns, verbs, adjectives) and their base endings.
const DETACH: &[(&str, &str)] = &[
    ("s", ""),
    ("ses", "s"),
    ("xes", "x"),
    ("zes", "z"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("men", "man"),
    ("ies", "y"),
    ("es", "e"),
    ("es", ""),
    ("ed", "e"),
    ("ed", ""),
    ("ing", "e"),
    ("ing", ""),
    ("er", ""),
    ("est", ""),
    ("er", "e"),
    ("est", "e"),
];
