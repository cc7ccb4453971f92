//! NLTK 3.10.4's `PorterStemmer()` (mode `NLTK_EXTENSIONS`), rule for rule, on ASCII words.
//!
//! rouge-score stems only tokens of its own tokenizer (`[a-z0-9]+`), so the stemmer only ever
//! sees lowercase ASCII: this port works on bytes and leaves any non-ASCII word unchanged (the
//! callers never pass one). Each function names the NLTK method it mirrors; the rule lists are
//! NLTK's, in NLTK's order (the first rule whose suffix matches decides, success or not).

/// NLTK's irregular forms pool (`NLTK_EXTENSIONS`): word -> stem, checked before any rule.
const POOL: [(&str, &str); 16] = [
    ("sky", "sky"),
    ("skies", "sky"),
    ("dying", "die"),
    ("lying", "lie"),
    ("tying", "tie"),
    ("news", "news"),
    ("innings", "inning"),
    ("inning", "inning"),
    ("outings", "outing"),
    ("outing", "outing"),
    ("cannings", "canning"),
    ("canning", "canning"),
    ("howe", "howe"),
    ("proceed", "proceed"),
    ("exceed", "exceed"),
    ("succeed", "succeed"),
];

fn is_vowel(c: u8) -> bool {
    matches!(c, b'a' | b'e' | b'i' | b'o' | b'u')
}

/// `_is_consonant(word, i)`: a `y` is a consonant at the start or after a vowel.
fn is_consonant(w: &[u8], i: usize) -> bool {
    let c = w[i];
    if is_vowel(c) {
        return false;
    }
    if c == b'y' {
        return i == 0 || !is_consonant(w, i - 1);
    }
    true
}

/// `_measure(stem)`: the number of `vc` in the word's consonant/vowel pattern.
fn measure(w: &[u8]) -> usize {
    let mut m = 0;
    let mut prev_vowel = false;
    for i in 0..w.len() {
        let cons = is_consonant(w, i);
        if cons && prev_vowel {
            m += 1;
        }
        prev_vowel = !cons;
    }
    m
}

fn contains_vowel(w: &[u8]) -> bool {
    (0..w.len()).any(|i| !is_consonant(w, i))
}

fn ends_double_consonant(w: &[u8]) -> bool {
    let n = w.len();
    n >= 2 && w[n - 1] == w[n - 2] && is_consonant(w, n - 1)
}

/// `_ends_cvc` with NLTK's extension for two-letter words.
fn ends_cvc(w: &[u8]) -> bool {
    let n = w.len();
    (n >= 3
        && is_consonant(w, n - 3)
        && !is_consonant(w, n - 2)
        && is_consonant(w, n - 1)
        && !matches!(w[n - 1], b'w' | b'x' | b'y'))
        || (n == 2 && !is_consonant(w, 0) && is_consonant(w, 1))
}

/// A rule's condition on the stem left once the suffix is removed.
#[derive(Clone, Copy)]
enum Cond {
    None,
    /// `_has_positive_measure`.
    M0,
    /// `measure > 1`.
    M1,
    /// Step 4's `ion`: `measure > 1` and the stem ends in `s` or `t`.
    Ion,
    /// Step 2's NLTK `logi`: positive measure of the word less its last 3 letters.
    Logi,
}

fn holds(cond: Cond, word: &[u8], stem: &[u8]) -> bool {
    match cond {
        Cond::None => true,
        Cond::M0 => measure(stem) > 0,
        Cond::M1 => measure(stem) > 1,
        Cond::Ion => measure(stem) > 1 && matches!(stem.last(), Some(b's' | b't')),
        Cond::Logi => measure(&word[..word.len() - 3]) > 0,
    }
}

/// `_apply_rule_list` for plain suffix rules: the first matching suffix decides.
fn apply(word: Vec<u8>, rules: &[(&str, &str, Cond)]) -> Vec<u8> {
    for &(suffix, repl, cond) in rules {
        if word.ends_with(suffix.as_bytes()) {
            let stem = &word[..word.len() - suffix.len()];
            if holds(cond, &word, stem) {
                let mut out = stem.to_vec();
                out.extend_from_slice(repl.as_bytes());
                return out;
            }
            return word;
        }
    }
    word
}

fn replace_suffix(word: &[u8], suffix: usize, repl: &str) -> Vec<u8> {
    let mut out = word[..word.len() - suffix].to_vec();
    out.extend_from_slice(repl.as_bytes());
    out
}

#[rustfmt::skip]
const STEP1A: [(&str, &str, Cond); 4] = [
    ("sses", "ss", Cond::None), ("ies", "i", Cond::None), ("ss", "ss", Cond::None),
    ("s", "", Cond::None),
];

fn step1a(word: Vec<u8>) -> Vec<u8> {
    if word.ends_with(b"ies") && word.len() == 4 {
        return replace_suffix(&word, 3, "ie");
    }
    apply(word, &STEP1A)
}

fn step1b(word: Vec<u8>) -> Vec<u8> {
    if word.ends_with(b"ied") {
        let repl = if word.len() == 4 { "ie" } else { "i" };
        return replace_suffix(&word, 3, repl);
    }
    if word.ends_with(b"eed") {
        let stem = &word[..word.len() - 3];
        if measure(stem) > 0 {
            return replace_suffix(&word, 3, "ee");
        }
        return word;
    }
    let mut inter: Option<Vec<u8>> = None;
    for suffix in ["ed", "ing"] {
        if word.ends_with(suffix.as_bytes()) {
            let stem = &word[..word.len() - suffix.len()];
            if contains_vowel(stem) {
                inter = Some(stem.to_vec());
                break;
            }
        }
    }
    let Some(stem) = inter else {
        return word;
    };
    // The rule list of NLTK's step 1b, applied to the intermediate stem.
    for (suffix, repl) in [("at", "ate"), ("bl", "ble"), ("iz", "ize")] {
        if stem.ends_with(suffix.as_bytes()) {
            return replace_suffix(&stem, suffix.len(), repl);
        }
    }
    if ends_double_consonant(&stem) {
        let last = stem[stem.len() - 1];
        let short = &stem[..stem.len() - 2];
        if !matches!(last, b'l' | b's' | b'z') {
            let mut out = short.to_vec();
            out.push(last);
            return out;
        }
        return stem;
    }
    // The `''` suffix matches every word.
    if measure(&stem) == 1 && ends_cvc(&stem) {
        let mut out = stem;
        out.push(b'e');
        return out;
    }
    stem
}

fn step1c(word: Vec<u8>) -> Vec<u8> {
    if word.ends_with(b"y") {
        let stem = &word[..word.len() - 1];
        if stem.len() > 1 && is_consonant(stem, stem.len() - 1) {
            return replace_suffix(&word, 1, "i");
        }
    }
    word
}

#[rustfmt::skip]
const STEP2: [(&str, &str, Cond); 22] = [
    ("ational", "ate", Cond::M0), ("tional", "tion", Cond::M0), ("enci", "ence", Cond::M0),
    ("anci", "ance", Cond::M0), ("izer", "ize", Cond::M0), ("bli", "ble", Cond::M0),
    ("alli", "al", Cond::M0), ("entli", "ent", Cond::M0), ("eli", "e", Cond::M0),
    ("ousli", "ous", Cond::M0), ("ization", "ize", Cond::M0), ("ation", "ate", Cond::M0),
    ("ator", "ate", Cond::M0), ("alism", "al", Cond::M0), ("iveness", "ive", Cond::M0),
    ("fulness", "ful", Cond::M0), ("ousness", "ous", Cond::M0), ("aliti", "al", Cond::M0),
    ("iviti", "ive", Cond::M0), ("biliti", "ble", Cond::M0), ("fulli", "ful", Cond::M0),
    ("logi", "log", Cond::Logi),
];

fn step2(word: Vec<u8>) -> Vec<u8> {
    if word.ends_with(b"alli") && measure(&word[..word.len() - 4]) > 0 {
        return step2(replace_suffix(&word, 4, "al"));
    }
    apply(word, &STEP2)
}

#[rustfmt::skip]
const STEP3: [(&str, &str, Cond); 7] = [
    ("icate", "ic", Cond::M0), ("ative", "", Cond::M0), ("alize", "al", Cond::M0),
    ("iciti", "ic", Cond::M0), ("ical", "ic", Cond::M0), ("ful", "", Cond::M0),
    ("ness", "", Cond::M0),
];

fn step3(word: Vec<u8>) -> Vec<u8> {
    apply(word, &STEP3)
}

#[rustfmt::skip]
const STEP4: [(&str, &str, Cond); 19] = [
    ("al", "", Cond::M1), ("ance", "", Cond::M1), ("ence", "", Cond::M1), ("er", "", Cond::M1),
    ("ic", "", Cond::M1), ("able", "", Cond::M1), ("ible", "", Cond::M1), ("ant", "", Cond::M1),
    ("ement", "", Cond::M1), ("ment", "", Cond::M1), ("ent", "", Cond::M1), ("ion", "", Cond::Ion),
    ("ou", "", Cond::M1), ("ism", "", Cond::M1), ("ate", "", Cond::M1), ("iti", "", Cond::M1),
    ("ous", "", Cond::M1), ("ive", "", Cond::M1), ("ize", "", Cond::M1),
];

fn step5a(word: Vec<u8>) -> Vec<u8> {
    if word.ends_with(b"e") {
        let stem = &word[..word.len() - 1];
        let m = measure(stem);
        if m > 1 || (m == 1 && !ends_cvc(stem)) {
            return stem.to_vec();
        }
    }
    word
}

fn step5b(word: Vec<u8>) -> Vec<u8> {
    if word.ends_with(b"ll") && measure(&word[..word.len() - 1]) > 1 {
        return word[..word.len() - 1].to_vec();
    }
    word
}

/// `PorterStemmer().stem(word)` for an ASCII word (lowercased first, as NLTK does); a word with
/// any non-ASCII character is returned unchanged.
pub fn stem(word: &str) -> String {
    if !word.is_ascii() {
        return word.to_owned();
    }
    let lower = word.to_ascii_lowercase();
    if let Some(&(_, s)) = POOL.iter().find(|(w, _)| *w == lower) {
        return s.to_owned();
    }
    if word.len() <= 2 {
        return lower;
    }
    let mut w = lower.into_bytes();
    w = step1a(w);
    w = step1b(w);
    w = step1c(w);
    w = step2(w);
    w = step3(w);
    w = apply(w, &STEP4);
    w = step5a(w);
    w = step5b(w);
    // Only ASCII bytes were moved around.
    String::from_utf8(w).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::stem;

    #[test]
    fn known_nltk_stems() {
        // Outputs of NLTK 3.10.4's PorterStemmer().stem (the full vocabulary check is in
        // tests/flavors/test_rouge_porter.py, against live NLTK).
        for (w, s) in [
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("ties", "tie"),
            ("cats", "cat"),
            ("agreed", "agre"),
            ("plastered", "plaster"),
            ("motoring", "motor"),
            ("hopping", "hop"),
            ("filing", "file"),
            ("happy", "happi"),
            ("relational", "relat"),
            ("generalization", "gener"),
            ("dying", "die"),
            ("skies", "sky"),
            ("running", "run"),
            ("controll", "control"),
            ("analogi", "analog"),
            ("is", "is"),
        ] {
            assert_eq!(stem(w), s, "{w}");
        }
    }
}
