//! The part of NLTK's `WordNetCorpusReader` that `meteor_score` uses: `wordnet.synsets(word)`
//! (every part of speech, `_morphy` with the exception lists) and the names of each synset's
//! lemmas, read from WordNet's dict files (`index.*`, `data.*`, `*.exc`).
//!
//! Only what a synonym test needs is kept: for each synset, its lemma names without `_`
//! (`meteor_score` drops multiword lemmas), marker-stripped as NLTK's reader strips them.

use crate::{Error, Result};
use rustc_hash::FxHashMap;

/// `POS_LIST` order of `synsets()`: noun, verb, adjective, adverb (with their file suffixes).
pub const POS: [(&str, &str); 4] = [("n", "noun"), ("v", "verb"), ("a", "adj"), ("r", "adv")];

/// `MORPHOLOGICAL_SUBSTITUTIONS` of NLTK 3.10.4, per part of speech in [`POS`] order.
const SUBSTITUTIONS: [&[(&str, &str)]; 4] = [
    &[
        ("s", ""),
        ("ses", "s"),
        ("ves", "f"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ],
    &[
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ],
    &[("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
    &[],
];

/// Synsets of one index entry per part of speech: ranges of [`Wordnet::entry_synsets`].
type Entry = [(u32, u32); 4];

/// WordNet as `synsets()` sees it.
#[derive(Default, Debug)]
pub struct Wordnet {
    /// Index lemma -> its synsets per part of speech (`(0, 0)`: not in that index file).
    index: FxHashMap<Box<str>, Entry>,
    entry_synsets: Vec<u32>,
    /// Synset -> range of [`Self::names`].
    synsets: Vec<(u32, u32)>,
    /// Lemma names without `_`, synset after synset.
    names: Vec<Box<str>>,
    /// `_exception_map` per part of speech: inflected form -> base forms.
    exceptions: [FxHashMap<Box<str>, Vec<Box<str>>>; 4],
    /// Lemma name -> the synsets naming it, ascending: "is `r` a synonym of `w`" becomes
    /// "do `synsets(w)` and `r`'s synsets meet", without listing `w`'s synonyms.
    by_name: FxHashMap<Box<str>, Vec<u32>>,
}

fn bad(file: &str, line: usize, why: &str) -> Error {
    Error::InvalidOption {
        name: "WordNet data".into(),
        value: format!("{file}, line {line}"),
        expected: format!("WordNet 3.0 dict file lines ({why})"),
    }
}

/// NLTK's `re.match(r"(.*?)(\([^()]*\))?$", name)`: a trailing `(marker)` (as `(a)`, `(ip)`)
/// is removed.
fn strip_marker(name: &str) -> &str {
    if let (Some(open), true) = (name.rfind('('), name.ends_with(')')) {
        if !name[open + 1..name.len() - 1].contains([')', '(']) {
            return &name[..open];
        }
    }
    name
}

impl Wordnet {
    /// Read the dict files, given by name (`"index.noun"`, `"data.adj"`, `"verb.exc"`, ...) by
    /// `file`; a missing file or a line NLTK's reader would refuse is an error naming both.
    pub fn from_files<'a>(file: impl Fn(&str) -> Option<&'a str>) -> Result<Self> {
        let need = |name: &str| {
            file(name).ok_or_else(|| Error::InvalidOption {
                name: "WordNet data".into(),
                value: format!("no {name}"),
                expected: "WordNet 3.0's dict files (index.*, data.*, *.exc)".into(),
            })
        };
        let mut wn = Wordnet::default();
        // (part of speech, offset) -> synset id.
        let mut by_offset: [FxHashMap<u64, u32>; 4] = Default::default();
        for (p, (_, suffix)) in POS.iter().enumerate() {
            let name = format!("data.{suffix}");
            for (i, line) in need(&name)?.lines().enumerate() {
                if line.starts_with(' ') || line.is_empty() {
                    continue; // the licence header
                }
                let mut t = line.split_ascii_whitespace();
                let mut next = || t.next().ok_or_else(|| bad(&name, i + 1, "too few fields"));
                let offset: u64 = next()?.parse().map_err(|_| bad(&name, i + 1, "offset"))?;
                next()?; // lexicographer file
                next()?; // synset type
                let n = u32::from_str_radix(next()?, 16).map_err(|_| bad(&name, i + 1, "w_cnt"))?;
                let start = wn.names.len() as u32;
                for _ in 0..n {
                    let lemma = strip_marker(next()?);
                    next()?; // lex_id
                    if !lemma.contains('_') {
                        wn.names.push(lemma.into());
                    }
                }
                by_offset[p].insert(offset, wn.synsets.len() as u32);
                wn.synsets.push((start, wn.names.len() as u32));
            }
        }
        for (suffix, p) in POS.iter().map(|x| x.1).zip(0..) {
            let name = format!("index.{suffix}");
            for (i, line) in need(&name)?.lines().enumerate() {
                if line.starts_with(' ') {
                    continue;
                }
                wn.index_line(line, &by_offset)
                    .map_err(|why| bad(&name, i + 1, why))?;
            }
            let name = format!("{suffix}.exc");
            for (i, line) in need(&name)?.lines().enumerate() {
                let mut t = line.split_whitespace();
                let form = t.next().ok_or_else(|| bad(&name, i + 1, "an empty line"))?;
                // A repeated form: the last line wins, as NLTK's dict assignment.
                wn.exceptions[p].insert(form.into(), t.map(Into::into).collect());
            }
        }
        for (s, &(a, b)) in wn.synsets.iter().enumerate() {
            for n in &wn.names[a as usize..b as usize] {
                let v = wn.by_name.entry(n.clone()).or_default();
                if v.last() != Some(&(s as u32)) {
                    v.push(s as u32);
                }
            }
        }
        Ok(wn)
    }

    fn index_line(
        &mut self,
        line: &str,
        by_offset: &[FxHashMap<u64, u32>; 4],
    ) -> std::result::Result<(), &'static str> {
        let mut t = line.split_ascii_whitespace();
        let mut next = || t.next().ok_or("too few fields");
        let num = |s: &str| s.parse::<usize>().map_err(|_| "a count");
        let lemma = next()?;
        let pos = next()?;
        let n = num(next()?)?;
        for _ in 0..num(next()?)? {
            next()?; // pointer symbols
        }
        if num(next()?)? != n || n == 0 {
            return Err("synset_cnt and sense_cnt differ, or are 0");
        }
        next()?; // tagsense_cnt
        let Some(p) = POS.iter().position(|x| x.0 == pos) else {
            return Ok(()); // a part of speech synsets() never asks for
        };
        let start = self.entry_synsets.len() as u32;
        for _ in 0..n {
            let off: u64 = next()?.parse().map_err(|_| "an offset")?;
            let id = by_offset[p]
                .get(&off)
                .ok_or("an offset with no synset in data")?;
            self.entry_synsets.push(*id);
        }
        let end = self.entry_synsets.len() as u32;
        self.index.entry(lemma.into()).or_default()[p] = (start, end);
        Ok(())
    }

    fn has(&self, form: &str, p: usize) -> Option<(u32, u32)> {
        self.index.get(form).map(|e| e[p]).filter(|r| r.1 > r.0)
    }

    /// `_morphy(form, pos)`: the exception list's base forms when `form` has one, else the
    /// substitution rules applied once; kept if indexed for `pos`, `form` itself first.
    fn morphy(&self, form: &str, p: usize, out: &mut Vec<(u32, u32)>) {
        let push = |f: &str, seen: &mut Vec<(u32, u32)>| {
            if let Some(r) = self.has(f, p) {
                // Two forms never share an entry, so the range identifies the form.
                if !seen.contains(&r) {
                    seen.push(r);
                }
            }
        };
        let mut found = Vec::new();
        push(form, &mut found);
        if let Some(bases) = self.exceptions[p].get(form) {
            for b in bases {
                push(b, &mut found);
            }
        } else {
            let mut buf = String::new();
            for (old, new) in SUBSTITUTIONS[p] {
                if let Some(stem) = form.strip_suffix(old) {
                    buf.clear();
                    buf.push_str(stem);
                    buf.push_str(new);
                    push(&buf, &mut found);
                }
            }
        }
        out.extend(found);
    }

    /// The synsets of `wordnet.synsets(word)`, ascending, without repeats (`word` lowercase).
    pub fn synset_ids(&self, word: &str, out: &mut Vec<u32>) {
        out.clear();
        let mut ranges = Vec::new();
        for p in 0..POS.len() {
            self.morphy(word, p, &mut ranges);
        }
        for (a, b) in ranges {
            out.extend_from_slice(&self.entry_synsets[a as usize..b as usize]);
        }
        out.sort_unstable();
        out.dedup();
    }

    /// The synsets with `name` among their lemma names (without `_`), ascending.
    pub fn named(&self, name: &str) -> &[u32] {
        self.by_name.get(name).map_or(&[], Vec::as_slice)
    }

    /// Call `f` with every lemma name (without `_`) of `wordnet.synsets(word)`; `word` must be
    /// lowercase already (`synsets()` lowers it; callers pass Python-lowered words).
    pub fn for_each_synonym<'s>(&'s self, word: &str, mut f: impl FnMut(&'s str)) {
        let mut ranges = Vec::new();
        for p in 0..POS.len() {
            self.morphy(word, p, &mut ranges);
        }
        for (a, b) in ranges {
            for &s in &self.entry_synsets[a as usize..b as usize] {
                let (x, y) = self.synsets[s as usize];
                for n in &self.names[x as usize..y as usize] {
                    f(n);
                }
            }
        }
    }

    /// The set of synonyms of `word`, sorted: a test and data-check helper.
    pub fn synonyms(&self, word: &str) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        self.for_each_synonym(word, |n| v.push(n.to_owned()));
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Number of index entries and synsets (a size check for the caller).
    pub fn sizes(&self) -> (usize, usize) {
        (self.index.len(), self.synsets.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Wordnet {
        let files: FxHashMap<&str, &str> = [
            ("data.noun", "  1 licence\n00000001 05 n 02 dog 0 domestic_dog 0 000 | x\n00000002 05 n 01 frump 0 000 | y\n"),
            ("index.noun", "dog n 2 0 2 0 00000001 00000002\n"),
            ("noun.exc", "dogi dog\n"),
            ("data.verb", "00000001 30 v 02 chase 0 dog 1 000 | z\n"),
            ("index.verb", "dog v 1 0 1 0 00000001\nchase v 1 0 1 0 00000001\n"),
            ("verb.exc", ""),
            ("data.adj", "00000001 00 s 01 big(a) 0 000 | w\n"),
            ("index.adj", "big a 1 0 1 0 00000001\n"),
            ("adj.exc", "bigger big\n"),
            ("data.adv", ""),
            ("index.adv", ""),
            ("adv.exc", ""),
        ]
        .into_iter()
        .collect();
        Wordnet::from_files(|n| files.get(n).copied()).unwrap()
    }

    #[test]
    fn synsets_with_morphy() {
        let wn = tiny();
        assert_eq!(wn.synonyms("dogs"), ["chase", "dog", "frump"]);
        assert_eq!(wn.synonyms("chases"), ["chase", "dog"]);
        assert_eq!(wn.synonyms("dogi"), ["dog", "frump"]);
        assert_eq!(wn.synonyms("bigger"), ["big"]);
        assert_eq!(wn.synonyms("biggest"), Vec::<String>::new()); // "bigg" is not indexed
        assert_eq!(wn.synonyms("cat"), Vec::<String>::new());
    }

    #[test]
    fn markers_and_errors() {
        assert_eq!(strip_marker("big(a)"), "big");
        assert_eq!(strip_marker("a(b)(ip)"), "a(b)");
        assert_eq!(strip_marker("a(b)c)"), "a(b)c)");
        let e = Wordnet::from_files(|_| None).unwrap_err();
        assert!(e.to_string().contains("data.noun"), "{e}");
        let e = Wordnet::from_files(|n| {
            Some(if n == "index.noun" {
                "dog n 1 0 1 0 7\n"
            } else {
                ""
            })
        })
        .unwrap_err();
        assert!(e.to_string().contains("index.noun, line 1"), "{e}");
    }
}
