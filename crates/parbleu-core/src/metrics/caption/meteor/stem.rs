//! The Snowball English ("Porter2") stemmer, written from the published algorithm description
//! (snowballstem.org, revision of 2006 as distributed in libstemmer for Java), the stemmer
//! METEOR 1.5's `stem` module uses. Works on `char`s; any non-ASCII letter is a non-vowel.

fn is_vowel(c: char) -> bool {
    matches!(c, 'a' | 'e' | 'i' | 'o' | 'u' | 'y')
}

/// Whole-word exceptions checked before stemming.
const EXCEPTION1: &[(&str, &str)] = &[
    ("skis", "ski"),
    ("skies", "sky"),
    ("dying", "die"),
    ("lying", "lie"),
    ("tying", "tie"),
    ("idly", "idl"),
    ("gently", "gentl"),
    ("ugly", "ugli"),
    ("early", "earli"),
    ("only", "onli"),
    ("singly", "singl"),
    ("sky", "sky"),
    ("news", "news"),
    ("howe", "howe"),
    ("atlas", "atlas"),
    ("cosmos", "cosmos"),
    ("bias", "bias"),
    ("andes", "andes"),
];

/// Words left alone after step 1a.
const EXCEPTION2: &[&str] = &[
    "inning", "outing", "canning", "herring", "earring", "proceed", "exceed", "succeed",
];

struct Word {
    w: Vec<char>,
    p1: usize,
    p2: usize,
}

impl Word {
    /// Whether the word ends with `s`. Every suffix of the algorithm is ASCII, so its bytes
    /// are its chars (compared from the last, where words differ most).
    fn ends(&self, s: &str) -> bool {
        debug_assert!(s.is_ascii());
        let s = s.as_bytes();
        s.len() <= self.w.len()
            && (self.w.iter().rev().zip(s.iter().rev())).all(|(&c, &b)| c == char::from(b))
    }
    /// Start of suffix `s` (assumed present, ASCII).
    fn start(&self, s: &str) -> usize {
        self.w.len() - s.len()
    }
    fn set_suffix(&mut self, s: &str, to: &str) {
        let at = self.start(s);
        self.w.truncate(at);
        self.w.extend(to.chars());
    }
    fn vowel(&self, i: usize) -> bool {
        is_vowel(self.w[i])
    }
    /// Longest of `list` the word ends with.
    fn longest<'a>(&self, list: &[&'a str]) -> Option<&'a str> {
        list.iter()
            .copied()
            .filter(|s| self.ends(s))
            .max_by_key(|s| s.len())
    }
    /// Longest suffix of `list` the word ends with, and its replacement.
    fn longest_pair<'a>(&self, list: &[(&'a str, &'a str)]) -> Option<(&'a str, &'a str)> {
        list.iter()
            .copied()
            .filter(|(s, _)| self.ends(s))
            .max_by_key(|(s, _)| s.len())
    }
    /// Short syllable ending at `end` (exclusive).
    fn short_syllable_at(&self, end: usize) -> bool {
        let w = &self.w;
        if end == 2 {
            return is_vowel(w[0]) && !is_vowel(w[1]);
        }
        end >= 3
            && !is_vowel(w[end - 3])
            && is_vowel(w[end - 2])
            && !is_vowel(w[end - 1])
            && !matches!(w[end - 1], 'w' | 'x' | 'Y')
    }
    fn is_short(&self) -> bool {
        self.p1 >= self.w.len() && self.short_syllable_at(self.w.len())
    }
    fn has_vowel(&self, end: usize) -> bool {
        self.w[..end].iter().any(|&c| is_vowel(c))
    }
}

fn region_after(w: &[char], from: usize) -> usize {
    let mut i = from;
    while i < w.len() && !is_vowel(w[i]) {
        i += 1;
    }
    while i < w.len() && is_vowel(w[i]) {
        i += 1;
    }
    if i < w.len() {
        i + 1
    } else {
        w.len()
    }
}

/// The stem of a lower-case word.
pub fn stem(word: &str) -> String {
    if word.chars().count() <= 2 {
        return word.to_string();
    }
    if let Some((_, s)) = EXCEPTION1.iter().find(|(w, _)| *w == word) {
        return (*s).to_string();
    }
    let mut w: Vec<char> = word.chars().collect();
    if w[0] == '\'' {
        w.remove(0);
    }
    // Prelude: y at the start or after a vowel is a consonant.
    for i in 0..w.len() {
        if w[i] == 'y' && (i == 0 || is_vowel(w[i - 1])) {
            w[i] = 'Y';
        }
    }
    let starts = |p: &str| w.len() >= p.len() && w.iter().zip(p.chars()).all(|(&a, b)| a == b);
    let p1 = if starts("gener") || starts("arsen") {
        5
    } else if starts("commun") {
        6
    } else {
        region_after(&w, 0)
    };
    let p2 = region_after(&w, p1);
    let mut x = Word { w, p1, p2 };
    step0(&mut x);
    step1a(&mut x);
    if EXCEPTION2.iter().any(|e| x.w.iter().copied().eq(e.chars())) {
        return x.w.iter().collect();
    }
    step1b(&mut x);
    step1c(&mut x);
    step2(&mut x);
    step3(&mut x);
    step4(&mut x);
    step5(&mut x);
    x.w.iter()
        .map(|&c| if c == 'Y' { 'y' } else { c })
        .collect()
}

fn step0(x: &mut Word) {
    if let Some(s) = x.longest(&["'s'", "'s", "'"]) {
        x.set_suffix(s, "");
    }
}

fn step1a(x: &mut Word) {
    let Some(s) = x.longest(&["sses", "ied", "ies", "us", "ss", "s"]) else {
        return;
    };
    match s {
        "sses" => x.set_suffix(s, "ss"),
        "ied" | "ies" => {
            let to = if x.start(s) > 1 { "i" } else { "ie" };
            x.set_suffix(s, to);
        }
        "s" => {
            // A vowel somewhere before the letter preceding the s.
            let at = x.start(s);
            if at >= 2 && x.has_vowel(at - 1) {
                x.set_suffix(s, "");
            }
        }
        _ => {}
    }
}

fn step1b(x: &mut Word) {
    let Some(s) = x.longest(&["eed", "eedly", "ed", "edly", "ing", "ingly"]) else {
        return;
    };
    let at = x.start(s);
    if s == "eed" || s == "eedly" {
        if at >= x.p1 {
            x.set_suffix(s, "ee");
        }
        return;
    }
    if !x.has_vowel(at) {
        return;
    }
    x.w.truncate(at);
    if x.ends("at") || x.ends("bl") || x.ends("iz") {
        x.w.push('e');
    } else if ["bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"]
        .iter()
        .any(|d| x.ends(d))
    {
        x.w.pop();
    } else if x.is_short() {
        x.w.push('e');
    }
}

fn step1c(x: &mut Word) {
    let n = x.w.len();
    if n > 2 && matches!(x.w[n - 1], 'y' | 'Y') && !x.vowel(n - 2) {
        x.w[n - 1] = 'i';
    }
}

fn step2(x: &mut Word) {
    const LIST: &[(&str, &str)] = &[
        ("tional", "tion"),
        ("enci", "ence"),
        ("anci", "ance"),
        ("abli", "able"),
        ("entli", "ent"),
        ("izer", "ize"),
        ("ization", "ize"),
        ("ational", "ate"),
        ("ation", "ate"),
        ("ator", "ate"),
        ("alism", "al"),
        ("aliti", "al"),
        ("alli", "al"),
        ("fulness", "ful"),
        ("ousli", "ous"),
        ("ousness", "ous"),
        ("iveness", "ive"),
        ("iviti", "ive"),
        ("biliti", "ble"),
        ("bli", "ble"),
        ("ogi", "og"),
        ("fulli", "ful"),
        ("lessli", "less"),
        ("li", ""),
    ];
    let Some((s, to)) = x.longest_pair(LIST) else {
        return;
    };
    let at = x.start(s);
    if at < x.p1 {
        return;
    }
    match s {
        "ogi" => {
            if at >= 1 && x.w[at - 1] == 'l' {
                x.set_suffix(s, to);
            }
        }
        "li" => {
            if at >= 1
                && matches!(
                    x.w[at - 1],
                    'c' | 'd' | 'e' | 'g' | 'h' | 'k' | 'm' | 'n' | 'r' | 't'
                )
            {
                x.set_suffix(s, to);
            }
        }
        _ => x.set_suffix(s, to),
    }
}

fn step3(x: &mut Word) {
    const LIST: &[(&str, &str)] = &[
        ("tional", "tion"),
        ("ational", "ate"),
        ("alize", "al"),
        ("icate", "ic"),
        ("iciti", "ic"),
        ("ical", "ic"),
        ("ful", ""),
        ("ness", ""),
        ("ative", ""),
    ];
    let Some((s, to)) = x.longest_pair(LIST) else {
        return;
    };
    let at = x.start(s);
    if at < x.p1 || (s == "ative" && at < x.p2) {
        return;
    }
    x.set_suffix(s, to);
}

fn step4(x: &mut Word) {
    const LIST: &[&str] = &[
        "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ism",
        "ate", "iti", "ous", "ive", "ize", "ion",
    ];
    let Some(s) = x.longest(LIST) else { return };
    let at = x.start(s);
    if at < x.p2 {
        return;
    }
    if s == "ion" && !(at >= 1 && matches!(x.w[at - 1], 's' | 't')) {
        return;
    }
    x.set_suffix(s, "");
}

fn step5(x: &mut Word) {
    let n = x.w.len();
    if n == 0 {
        return;
    }
    let at = n - 1;
    let drop = match x.w[at] {
        'e' => at >= x.p2 || (at >= x.p1 && !x.short_syllable_at(at)),
        'l' => at >= x.p2 && at >= 1 && x.w[at - 1] == 'l',
        _ => false,
    };
    if drop {
        x.w.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::stem;

    #[test]
    fn published_examples() {
        for (w, s) in [
            ("consign", "consign"),
            ("consigned", "consign"),
            ("consigning", "consign"),
            ("consignment", "consign"),
            ("consist", "consist"),
            ("consisted", "consist"),
            ("consistency", "consist"),
            ("consistent", "consist"),
            ("knack", "knack"),
            ("knackered", "knacker"),
            ("knavish", "knavish"),
            ("knights", "knight"),
            ("generously", "generous"),
            ("running", "run"),
            ("cats", "cat"),
            ("hopping", "hop"),
            ("hoping", "hope"),
            ("skies", "sky"),
            ("cry", "cri"),
            ("say", "say"),
            ("happily", "happili"),
            ("communication", "communic"),
        ] {
            assert_eq!(stem(w), s, "{w}");
        }
    }
}
