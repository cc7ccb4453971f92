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
    digit(c) || letter(c)
}

/// The wide spaces: symbols until the words are cut, then dropped (observed: `no.\u{2009}www`
/// is `no . www`, the period split off as before a symbol, where `no. www` keeps it).
fn wide_space(c: char) -> bool {
    matches!(
        c,
        '\u{a0}' | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
    )
}

/// `-norm` of one line, as lower-case words.
pub fn normalize(line: &str, prefixes: &Prefixes) -> Vec<String> {
    let s = punctuation(line);
    let s = isolate(&s);
    let s = hyphens(&s);
    // The comma and apostrophe rules see the line padded with a space at each end (observed:
    // a quote or comma at the start of the line is split off as one between words).
    let mut c = Vec::with_capacity(s.len() + 2);
    c.push(' ');
    c.extend(s);
    c.push(' ');
    let c = commas(&c);
    let c = apostrophes(&c);
    let line: String = c.into_iter().collect();
    let words: Vec<&str> = line.split(' ').filter(|w| !w.is_empty()).collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len() + 4);
    for (k, w) in words.iter().enumerate() {
        if w.chars().all(wide_space) {
            continue;
        }
        final_period(w, words.get(k + 1).copied(), prefixes, &mut out);
    }
    trim(&mut out);
    out
}

/// The finished line is trimmed as Java's `String.trim` does (every character up to U+0020,
/// so a control character split off at either end goes, one inside stays a word).
fn trim(words: &mut Vec<String>) {
    let low = |c: char| c <= ' ';
    while let Some(w) = words.last_mut() {
        let t = w.trim_end_matches(low).len();
        w.truncate(t);
        if !w.is_empty() {
            break;
        }
        words.pop();
    }
    let lead = words.iter().take_while(|w| w.chars().all(low)).count();
    words.drain(..lead);
    if let Some(w) = words.first_mut() {
        let t = w.trim_start_matches(low);
        if t.len() != w.len() {
            *w = t.to_string();
        }
    }
}

/// Step 1: the line trimmed, quotes, dashes and tabs normalised, `''` and `--` collapsed.
fn punctuation(line: &str) -> Vec<char> {
    // The jar's `-stdio` trims each field as Java's `String.trim` does (observed:
    // `\x01\x0bvs.` is one word there, `vs.` kept as a prefix, where a file line gives two).
    let line = line.trim_matches(|c: char| c <= ' ');
    let mut c: Vec<char> = Vec::with_capacity(line.len() + 8);
    for ch in line.chars() {
        match ch {
            '\u{201c}' | '\u{201d}' => c.push('"'),
            '\u{2018}' | '\u{2019}' | '`' => c.push('\''),
            '\u{2013}' => c.extend([' ', '-', ' ']),
            '\t' | '\x0c' => c.push(' '),
            ch => c.push(ch),
        }
    }
    let mut out = Vec::with_capacity(c.len());
    let mut i = 0;
    while i < c.len() {
        let pair = i + 1 < c.len() && c[i + 1] == c[i];
        match c[i] {
            '\'' if pair => out.push('"'),
            '-' if pair => out.push('-'),
            x => {
                out.push(x);
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    out
}

/// Step 2: symbols and runs of periods made words of their own.
fn isolate(c: &[char]) -> Vec<char> {
    let mut out = Vec::with_capacity(c.len() * 2);
    let mut i = 0;
    while i < c.len() {
        let x = c[i];
        if x == '.' && c.get(i + 1) == Some(&'.') {
            let run = c[i..].iter().take_while(|&&d| d == '.').count();
            out.push(' ');
            out.extend(&c[i..i + run]);
            out.push(' ');
            i += run;
            continue;
        }
        if word_char(x) || matches!(x, ' ' | '\x0b' | '.' | '\'' | ',' | '-') {
            out.push(x);
        } else {
            out.extend([' ', x, ' ']);
        }
        i += 1;
    }
    out
}

/// Step 3: `a-b` and `U.S.-led` lose the hyphen; matches do not overlap (`a-b-c` keeps the
/// second).
fn hyphens(c: &[char]) -> Vec<char> {
    let mut out = Vec::with_capacity(c.len());
    let mut i = 0;
    while i < c.len() {
        if i + 2 < c.len()
            && c[i + 1] == '-'
            && (word_char(c[i]) || c[i] == '.')
            && word_char(c[i + 2])
        {
            out.extend([c[i], ' ', c[i + 2]]);
            i += 3;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// One left-to-right pass of `(x)<mark>(y)` to `x <mark> y` (or `x <mark>y` when `glue`),
/// matches not overlapping, as a regular expression replacement does.
fn rule(c: &[char], mark: char, x: fn(char) -> bool, y: fn(char) -> bool, glue: bool) -> Vec<char> {
    let mut out = Vec::with_capacity(c.len() + 8);
    let mut i = 0;
    while i < c.len() {
        if i + 2 < c.len() && c[i + 1] == mark && x(c[i]) && y(c[i + 2]) {
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
    out
}

/// Step 4a: Moses' three comma rules (a comma stays only between two digits).
fn commas(c: &[char]) -> Vec<char> {
    let c = rule(c, ',', |a| !digit(a), |b| !digit(b), false);
    let c = rule(&c, ',', digit, |b| !digit(b), false);
    rule(&c, ',', |a| !digit(a), digit, false)
}

/// Step 4b: Moses' English apostrophe rules, then `1990's` to `1990 's`.
fn apostrophes(c: &[char]) -> Vec<char> {
    let c = rule(c, '\'', |a| !letter(a), |b| !letter(b), false);
    let c = rule(&c, '\'', |a| !letter(a) && !digit(a), letter, false);
    let c = rule(&c, '\'', letter, |b| !letter(b), false);
    let c = rule(&c, '\'', letter, letter, true);
    rule(&c, '\'', digit, |b| b == 's', true)
}

/// Step 5 and 6 for one word: its final period split off or kept, abbreviation periods
/// removed, lower case.
fn final_period(w: &str, next: Option<&str>, prefixes: &Prefixes, out: &mut Vec<String>) {
    let pre = match w.strip_suffix('.') {
        Some(p) if !p.is_empty() && !w.starts_with("..") => p,
        _ => {
            out.push(w.to_lowercase());
            return;
        }
    };
    let starts = |f: fn(char) -> bool| next.and_then(|n| n.chars().next()).is_some_and(f);
    if pre.contains('.') && pre.chars().any(letter) {
        out.push(pre.replace('.', "").to_lowercase());
        return;
    }
    let keep = match prefixes.get(pre) {
        Some(false) => true,
        Some(true) => starts(|c| c.is_ascii_lowercase()) || starts(digit),
        None => starts(|c| c.is_ascii_lowercase()),
    };
    if keep {
        out.push(w.to_lowercase());
    } else {
        out.push(pre.to_lowercase());
        out.push(".".to_string());
    }
}

#[cfg(test)]
mod tests;
