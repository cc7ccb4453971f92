//! The paraphrase table: records of three lines (probability, phrase, paraphrase), phrases of
//! normalised, space-separated words. Phrases are interned; the table maps a phrase to its
//! paraphrases.

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

/// Phrase → paraphrases, both as interned ids; `words[id]` is the phrase's words.
#[derive(Default)]
pub struct Table {
    ids: FxHashMap<Box<str>, u32>,
    pub(crate) words: Vec<Box<[Box<str>]>>,
    pub(crate) para: FxHashMap<u32, Vec<u32>>,
    /// Longest phrase, in words.
    pub(crate) max_len: usize,
}

impl Table {
    fn intern(&mut self, phrase: &str) -> u32 {
        if let Some(&id) = self.ids.get(phrase) {
            return id;
        }
        let id = self.words.len() as u32;
        let w: Vec<Box<str>> = phrase.split(' ').map(Box::from).collect();
        self.max_len = self.max_len.max(w.len());
        self.words.push(w.into_boxed_slice());
        self.ids.insert(Box::from(phrase), id);
        id
    }

    /// Id of a phrase given as words.
    pub(crate) fn lookup(&self, words: &[&str]) -> Option<u32> {
        self.ids.get(words.join(" ").as_str()).copied()
    }

    /// Parse the decompressed `paraphrase-en.gz`.
    pub fn parse(data: &[u8]) -> Result<Self, Error> {
        const WHAT: &str = "data/paraphrase-en.gz";
        let text = std::str::from_utf8(data).map_err(|e| bad(WHAT, format!("not UTF-8: {e}")))?;
        let mut t = Table::default();
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
            // Observed: the jar matches a record in both directions.
            let (a, b) = (t.intern(a), t.intern(b));
            t.para.entry(a).or_default().push(b);
            t.para.entry(b).or_default().push(a);
        }
        Ok(t)
    }

    /// Whether the table is empty (no paraphrase module).
    pub fn is_empty(&self) -> bool {
        self.para.is_empty()
    }
}
