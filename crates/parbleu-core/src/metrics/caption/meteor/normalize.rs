//! METEOR's `-norm` (tokenise, normalise punctuation) then lower case, as observed on the jar
//! (its `Normalizer` entry point, `-writeAlignments` and `-stdio`; docs/captioning.md, "The
//! native normaliser's rules"). The steps, in the jar's order:
//!
//! 1. the line trimmed as Java's `String.trim` (`-stdio` does it); tab and form feed become
//!    spaces, curly quotes and `` ` `` straight ones, an en dash ` - `; `''` is `"`, `--` is `-`;
//! 2. every character that is not a *word character* (below), a space, `\x0b`, `.`, `'`, `,` or
//!    `-` stands alone; so does a run of two or more periods;
//! 3. a hyphen between a word character (or a period) and a word character is dropped;
//! 4. Moses' comma rules (kept only between ASCII digits) and English apostrophe rules;
//! 5. a word's final period is split off unless the word holds another period and a letter,
//!    is a non-breaking prefix, or the next word starts with `a`-`z` (numeric-only prefixes:
//!    a digit); the periods of an abbreviation such as `e.g.` are removed;
//! 6. wide spaces (words of their own so far) dropped, the line trimmed again, lower case.
//!
//! A *word character* is an ASCII letter or digit, a Latin-1 or Latin Extended-A letter
//! (U+00C0-U+017E but × and ÷), Cyrillic (U+0400-U+0527, U+A640-U+A66E, U+A67E-U+A697) or a
//! phonetic-extension letter (U+1D00-U+1D7F): the jar splits every other character off, so
//! CJK text is one word per character and `ả` (U+1EA3) is a word of its own.

use rustc_hash::FxHashMap;

/// The non-breaking prefixes: `true` for those that hold only before a number.
pub type Prefixes = FxHashMap<String, bool>;

/// Parse `nonbreaking/english.prefixes` (`#` comments; `#NUMERIC_ONLY#` marks numeric ones).
pub fn parse_prefixes(text: &str) -> Prefixes {
    let mut out = Prefixes::default();
    for l in text.lines() {
        let l = l.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        match l.split_once(char::is_whitespace) {
            Some((w, rest)) if rest.contains("#NUMERIC_ONLY#") => {
                out.insert(w.to_string(), true);
            }
            _ => {
                out.insert(l.split_whitespace().next().unwrap_or(l).to_string(), false);
            }
        }
    }
    out
}

/// A word character that is not a digit (the code-point ranges the jar keeps inside words,
/// found by normalising `a{c}a` for every code point).
fn letter(c: char) -> bool {
    matches!(c,
        'A'..='Z' | 'a'..='z'
        | '\u{c0}'..='\u{d6}' | '\u{d8}'..='\u{f6}' | '\u{f8}'..='\u{17e}'
        | '\u{400}'..='\u{527}' | '\u{1d00}'..='\u{1d7f}'
        | '\u{a640}'..='\u{a66e}' | '\u{a67e}'..='\u{a697}')
}

fn digit(c: char) -> bool {
    c.is_ascii_digit()
}

fn word_char(c: char) -> bool {
    // ASCII first: nearly every character is.
    c.is_ascii_alphanumeric() || (!c.is_ascii() && letter(c))
}

/// The wide spaces: symbols until the words are cut, then dropped (observed: `no.\u{2009}www`
/// is `no . www`, the period split off as before a symbol, where `no. www` keeps it).
fn wide_space(c: char) -> bool {
    matches!(
        c,
        '\u{a0}' | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
    )
}

/// A normalised line: its words end to end in one buffer (one allocation per line, not per
/// word), word `k` ending at `ends[k]`.
#[derive(Clone, Debug, Default)]
pub struct Words {
    text: String,
    ends: Vec<usize>,
}

impl Words {
    fn start(&self, k: usize) -> usize {
        if k == 0 {
            0
        } else {
            self.ends[k - 1]
        }
    }

    /// Word `k`.
    pub fn get(&self, k: usize) -> &str {
        &self.text[self.start(k)..self.ends[k]]
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).map(|k| self.get(k))
    }

    /// Close the word written since the last one.
    fn close(&mut self) {
        self.ends.push(self.text.len());
    }
}

/// `-norm` of one line, as lower-case words.
pub fn normalize(line: &str, prefixes: &Prefixes) -> Vec<String> {
    normalize_words(line, prefixes)
        .iter()
        .map(str::to_string)
        .collect()
}

/// [`normalize`] into one buffer.
pub fn normalize_words(line: &str, prefixes: &Prefixes) -> Words {
    let mut a = Vec::with_capacity(line.len() * 2 + 8);
    let mut b = Vec::with_capacity(line.len() * 2 + 8);
    let (comma, apostrophe) = prepare(line, &mut a);
    if comma {
        passes(&mut a, &mut b, ',', &COMMAS);
    }
    if apostrophe {
        passes(&mut a, &mut b, '\'', &APOSTROPHES);
    }
    // The words, cut at spaces (`prepare` ends the line with one, so every word is closed).
    let mut spans: Vec<(usize, usize)> = Vec::with_capacity(a.len() / 4);
    let mut start = None;
    for (i, &c) in a.iter().enumerate() {
        match (c == ' ', start) {
            (true, Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    let mut out = Words {
        text: String::with_capacity(line.len() + 8),
        ends: Vec::with_capacity(spans.len() + 4),
    };
    let mut key = String::new();
    for (k, &(s, e)) in spans.iter().enumerate() {
        let w = &a[s..e];
        if w.iter().all(|&c| wide_space(c)) {
            continue;
        }
        let next = spans.get(k + 1).map(|&(s, _)| a[s]);
        final_period(w, next, prefixes, &mut key, &mut out);
    }
    trim(&mut out);
    out
}

/// The finished line is trimmed as Java's `String.trim` does (every character up to U+0020,
/// so a control character split off at either end goes, one inside stays a word).
fn trim(w: &mut Words) {
    let low = |c: char| c <= ' ';
    while let Some(last) = w.len().checked_sub(1) {
        let start = w.start(last);
        let end = start + w.get(last).trim_end_matches(low).len();
        w.text.truncate(end);
        w.ends[last] = end;
        if end > start {
            break;
        }
        w.ends.pop();
    }
    let lead = w.iter().take_while(|x| x.chars().all(low)).count();
    let first = if lead < w.len() { w.get(lead) } else { "" };
    let cut = w.start(lead) + first.len() - first.trim_start_matches(low).len();
    if cut > 0 {
        w.text.drain(..cut);
        w.ends.drain(..lead);
        w.ends.iter_mut().for_each(|e| *e -= cut);
    }
}

/// Steps 1 to 3 in one pass: the line trimmed, quotes, dashes and tabs normalised, `''` and
/// `--` collapsed, symbols and runs of periods made words of their own, `a-b` and `U.S.-led`
/// losing the hyphen; into `out`, padded with a space at each end for the comma and apostrophe
/// rules (observed: a quote or comma at the start of the line is split off as one between
/// words). Returns whether the result holds a comma and an apostrophe (else their rules are
/// skipped). The passes these steps are in the jar are kept in the tests as the reference.
fn prepare(line: &str, out: &mut Vec<char>) -> (bool, bool) {
    // The jar's `-stdio` trims each field as Java's `String.trim` does (observed:
    // `\x01\x0bvs.` is one word there, `vs.` kept as a prefix, where a file line gives two).
    let line = line.trim_matches(|c: char| c <= ' ');
    let mut w = Writer {
        out,
        dots: 0,
        guard: usize::MAX,
        comma: false,
        apostrophe: false,
    };
    w.out.clear();
    w.out.push(' ');
    // A `'` or `-` waiting to see whether the next character doubles it.
    let mut held: Option<char> = None;
    for ch in line.chars() {
        let mapped = match ch {
            '\u{201c}' | '\u{201d}' => '"',
            '\u{2018}' | '\u{2019}' | '`' => '\'',
            '\t' | '\x0c' => ' ',
            // Never doubled: the spaces around its `-` stop any pair.
            '\u{2013}' => {
                if let Some(h) = held.take() {
                    w.put(h);
                }
                w.put(' ');
                w.put('-');
                w.put(' ');
                continue;
            }
            c => c,
        };
        match held.take() {
            Some(h) if h == mapped => w.put(if h == '-' { '-' } else { '"' }),
            h => {
                if let Some(h) = h {
                    w.put(h);
                }
                if matches!(mapped, '\'' | '-') {
                    held = Some(mapped);
                } else {
                    w.put(mapped);
                }
            }
        }
    }
    if let Some(h) = held {
        w.put(h);
    }
    w.flush_dots();
    w.out.push(' ');
    (w.comma, w.apostrophe)
}

/// The writer of [`prepare`]: isolates symbols, gathers runs of periods, drops hyphens.
struct Writer<'a> {
    out: &'a mut Vec<char>,
    /// Periods read and not yet written (one stays in its word, a run stands alone).
    dots: usize,
    /// Index of the last hyphen match's right character, which cannot start another match.
    guard: usize,
    comma: bool,
    apostrophe: bool,
}

impl Writer<'_> {
    fn flush_dots(&mut self) {
        match self.dots {
            0 => {}
            1 => self.out.push('.'),
            n => {
                self.out.push(' ');
                self.out.extend(std::iter::repeat_n('.', n));
                self.out.push(' ');
            }
        }
        self.dots = 0;
    }

    #[inline]
    fn put(&mut self, x: char) {
        if x == '.' {
            self.dots += 1;
            return;
        }
        self.flush_dots();
        if word_char(x) {
            let n = self.out.len();
            if n >= 2
                && self.out[n - 1] == '-'
                && (word_char(self.out[n - 2]) || self.out[n - 2] == '.')
                && n - 2 != self.guard
            {
                self.out[n - 1] = ' ';
                self.guard = n;
            }
            self.out.push(x);
        } else if matches!(x, ' ' | '\x0b' | '\'' | ',' | '-') {
            self.comma |= x == ',';
            self.apostrophe |= x == '\'';
            self.out.push(x);
        } else {
            self.out.extend([' ', x, ' ']);
        }
    }
}

/// One left-to-right pass of `(x)<mark>(y)` to `x <mark> y` (or `x <mark>y` when `glue`),
/// matches not overlapping, as a regular expression replacement does; from `c` into `out`.
/// Returns false, writing nothing, when nothing matches.
fn rule(
    c: &[char],
    out: &mut Vec<char>,
    mark: char,
    x: fn(char) -> bool,
    y: fn(char) -> bool,
    glue: bool,
) -> bool {
    let hit = |i: usize| c[i + 1] == mark && x(c[i]) && y(c[i + 2]);
    // Before the first match the scan moves one character at a time: the first hit is it.
    let Some(first) = (0..c.len().saturating_sub(2)).find(|&i| hit(i)) else {
        return false;
    };
    out.clear();
    out.extend_from_slice(&c[..first]);
    let mut i = first;
    while i < c.len() {
        if i + 2 < c.len() && hit(i) {
            out.extend([c[i], ' ', mark]);
            if !glue {
                out.push(' ');
            }
            out.push(c[i + 2]);
            i += 3;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    true
}

/// Rule passes, each from `a` into `b`, then the buffers swapped: the result is in `a`.
fn passes(a: &mut Vec<char>, b: &mut Vec<char>, mark: char, rules: &[(Class, Class, bool)]) {
    for &(x, y, glue) in rules {
        if rule(a, b, mark, x, y, glue) {
            std::mem::swap(a, b);
        }
    }
}

type Class = fn(char) -> bool;

/// Step 4a: Moses' three comma rules (a comma stays only between two digits).
const COMMAS: [(Class, Class, bool); 3] = [
    (|a| !digit(a), |b| !digit(b), false),
    (digit, |b| !digit(b), false),
    (|a| !digit(a), digit, false),
];

/// Step 4b: Moses' English apostrophe rules, then `1990's` to `1990 's`.
const APOSTROPHES: [(Class, Class, bool); 5] = [
    (|a| !letter(a), |b| !letter(b), false),
    (|a| !letter(a) && !digit(a), letter, false),
    (letter, |b| !letter(b), false),
    (letter, letter, true),
    (digit, |b| b == 's', true),
];

/// Lower case, as Java's `toLowerCase` of the line (a `Σ` is always a word of its own, so no
/// final-sigma context ever crosses a word).
fn lower(w: &[char], out: &mut String) {
    for &c in w {
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else {
            out.extend(c.to_lowercase());
        }
    }
}

/// Step 5 and 6 for one word: its final period split off or kept, abbreviation periods
/// removed, lower case. `next` is the next word's first character; `key` a scratch buffer.
fn final_period(
    w: &[char],
    next: Option<char>,
    prefixes: &Prefixes,
    key: &mut String,
    out: &mut Words,
) {
    let n = w.len();
    // A run of periods is a word of its own and never loses one.
    if n < 2 || w[n - 1] != '.' || w[..2] == ['.', '.'] {
        lower(w, &mut out.text);
        out.close();
        return;
    }
    let pre = &w[..n - 1];
    if pre.contains(&'.') && pre.iter().any(|&c| letter(c)) {
        for &c in pre.iter().filter(|&&c| c != '.') {
            lower(&[c], &mut out.text);
        }
        out.close();
        return;
    }
    key.clear();
    key.extend(pre);
    let lower_next = next.is_some_and(|c| c.is_ascii_lowercase());
    let keep = match prefixes.get(key.as_str()) {
        Some(false) => true,
        Some(true) => lower_next || next.is_some_and(digit),
        None => lower_next,
    };
    if keep {
        lower(w, &mut out.text);
        out.close();
    } else {
        lower(pre, &mut out.text);
        out.close();
        out.text.push('.');
        out.close();
    }
}

#[cfg(test)]
mod tests;
