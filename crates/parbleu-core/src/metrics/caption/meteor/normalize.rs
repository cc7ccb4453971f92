//! METEOR's `-norm`, as observed on the jar: punctuation normalised (curly and doubled quotes to
//! straight ones, en dash and `--` to `-`, a hyphen between letters or digits dropped), then a
//! Moses-style English tokenisation (symbols split off, commas except between digits, the
//! apostrophe rules, a final period split unless the word holds another period, is a
//! non-breaking prefix, or the next word starts lower-case), periods removed from
//! abbreviations such as `e.g.`, then lower case.

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

fn alnum(c: char) -> bool {
    c.is_alphanumeric()
}

/// `-norm` of one line, as words.
pub fn normalize(line: &str, prefixes: &Prefixes) -> Vec<String> {
    // An en dash stands alone, never joins two words as `-` does (observed: `18–20` is
    // `18 - 20`, `18-20` is `18 20`).
    let s: String = line
        .replace('\u{2013}', " \u{2013} ")
        .replace("``", "\"")
        .replace("''", "\"")
        .chars()
        .map(|c| match c {
            '\u{201c}' | '\u{201d}' => '"',
            '\u{2018}' | '\u{2019}' | '`' => '\'',
            '\u{2013}' => '-',
            c if c.is_whitespace() => ' ',
            c => c,
        })
        .filter(|&c| (c as u32) >= 32)
        .collect();
    let s = s.replace("--", "-");
    let s = join_hyphens(&s);
    // Split every symbol but . ' , - from its neighbours.
    let mut t = String::with_capacity(s.len() * 2);
    for c in s.chars() {
        if !alnum(c) && !matches!(c, ' ' | '.' | '\'' | ',' | '-') {
            t.push(' ');
            t.push(c);
            t.push(' ');
        } else {
            t.push(c);
        }
    }
    let t = commas(&t);
    // The line is padded with a space at each end first (as Moses does), so an apostrophe at
    // the start or end of the line is split off like one between words (observed).
    let t = apostrophes(&format!(" {t} "));
    let words: Vec<&str> = t.split(' ').filter(|w| !w.is_empty()).collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    for (k, w) in words.iter().enumerate() {
        for piece in split_dots(w, words.get(k + 1).copied(), prefixes) {
            out.push(piece.to_lowercase());
        }
    }
    out
}

/// `a-b` to `a b` between letters or digits (matches do not overlap: `a-b-c` keeps the second).
fn join_hyphens(s: &str) -> String {
    let c: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < c.len() {
        if i + 2 < c.len() && alnum(c[i]) && c[i + 1] == '-' && alnum(c[i + 2]) {
            out.push(c[i]);
            out.push(' ');
            out.push(c[i + 2]);
            i += 3;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// Commas split off unless between digits (two passes, as Moses: before, then after).
fn commas(s: &str) -> String {
    let c: Vec<char> = s.chars().collect();
    let num = |x: Option<&char>| x.is_some_and(|c| c.is_numeric());
    // Pass 1: a comma after a non-digit.
    let mut a: Vec<char> = Vec::with_capacity(c.len() + 8);
    let mut i = 0;
    while i < c.len() {
        if i + 1 < c.len() && !c[i].is_numeric() && c[i + 1] == ',' {
            a.extend([c[i], ' ', ',', ' ']);
            i += 2;
        } else {
            a.push(c[i]);
            i += 1;
        }
    }
    // Pass 2: a comma before a non-digit.
    let mut b = String::with_capacity(a.len() + 8);
    let mut i = 0;
    while i < a.len() {
        if a[i] == ',' && i + 1 < a.len() && !num(a.get(i + 1)) {
            b.push_str(" , ");
            b.push(a[i + 1]);
            i += 2;
        } else {
            b.push(a[i]);
            i += 1;
        }
    }
    b
}

/// Moses' English apostrophe rules, each a left-to-right pass without overlap.
fn apostrophes(s: &str) -> String {
    let mut c: Vec<char> = s.chars().collect();
    type Rule = (fn(char) -> bool, fn(char) -> bool, bool, bool);
    let rules: [Rule; 4] = [
        (|x| !x.is_alphabetic(), |x| !x.is_alphabetic(), true, true),
        (
            |x| !x.is_alphabetic() && !x.is_numeric(),
            |x| x.is_alphabetic(),
            true,
            true,
        ),
        (|x| x.is_alphabetic(), |x| !x.is_alphabetic(), true, true),
        (|x| x.is_alphabetic(), |x| x.is_alphabetic(), true, false),
    ];
    for (before, after, sp1, sp2) in rules {
        let mut out = Vec::with_capacity(c.len() + 8);
        let mut i = 0;
        while i < c.len() {
            if i + 2 < c.len() && c[i + 1] == '\'' && before(c[i]) && after(c[i + 2]) {
                out.push(c[i]);
                if sp1 {
                    out.push(' ');
                }
                out.push('\'');
                if sp2 {
                    out.push(' ');
                }
                out.push(c[i + 2]);
                i += 3;
            } else {
                out.push(c[i]);
                i += 1;
            }
        }
        c = out;
    }
    // A digit then 's: 1990's -> 1990 's.
    let mut out = Vec::with_capacity(c.len() + 8);
    let mut i = 0;
    while i < c.len() {
        if i + 2 < c.len() && c[i].is_numeric() && c[i + 1] == '\'' && c[i + 2] == 's' {
            out.extend([c[i], ' ', '\'', 's']);
            i += 3;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out.into_iter().collect()
}

/// A word's final period split off or kept (Moses' rule), then abbreviation periods removed;
/// runs of periods become their own word.
fn split_dots(w: &str, next: Option<&str>, prefixes: &Prefixes) -> Vec<String> {
    // Runs of two or more periods are one word: "end..." -> "end ...".
    if let Some(p) = w.find("..") {
        let mut out = Vec::new();
        let (a, rest) = w.split_at(p);
        let run = rest.len() - rest.trim_start_matches('.').len();
        if !a.is_empty() {
            out.extend(split_dots(a, Some(&rest[..run]), prefixes));
        }
        out.push(rest[..run].to_string());
        let tail = &rest[run..];
        if !tail.is_empty() {
            out.extend(split_dots(tail, next, prefixes));
        }
        return out;
    }
    let Some(pre) = w.strip_suffix('.') else {
        return vec![w.to_string()];
    };
    if pre.is_empty() {
        return vec![w.to_string()];
    }
    let abbrev = pre.contains('.') && pre.chars().any(char::is_alphabetic);
    if abbrev {
        return vec![w.replace('.', "")];
    }
    let keep = prefixes.get(pre) == Some(&false)
        || next.is_some_and(|n| n.chars().next().is_some_and(char::is_lowercase))
        || (prefixes.get(pre) == Some(&true)
            && next.is_some_and(|n| n.chars().next().is_some_and(|c| c.is_ascii_digit())));
    if keep {
        vec![w.to_string()]
    } else {
        vec![pre.to_string(), ".".to_string()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines and the jar's normalised output, observed with `-norm -writeAlignments`.
    #[test]
    fn observed_lines() {
        let p = parse_prefixes("Mr\nNo #NUMERIC_ONLY#\n");
        for (line, want) in [
            (
                "Hello, World! It's a \"test\" (really) -- isn't it? Mr. Smith's dog; e.g. U.S.A. 3.14 1,000 $5 50% a/b a-b",
                "hello , world ! it 's a \" test \" ( really ) - isn 't it ? mr. smith 's dog ; eg usa 3.14 1,000 $ 5 50 % a / b a b",
            ),
            ("The cat sat.  A  dog   ran.\tTab here. End...", "the cat sat . a dog ran . tab here . end ..."),
            (
                "5-3 -5 a- -a a--b a - b x---y well-known 1990-2000 A-1 ---",
                "5 3 -5 a- -a a b a - b x--y well known 1990 2000 a 1 --",
            ),
            ("No. 5 no. 5 p.m. Then", "no. 5 no . 5 pm then"),
            ("'Of course it is.'", "' of course it is . '"),
            ("a\u{2013}b 1\u{2013}2 x \u{2013} y at 18\u{2013}20.", "a - b 1 - 2 x - y at 18 - 20 ."),
            (
                "O'Neil rock'n'roll 'quote' goin' 90's ``quoted''",
                "o 'neil rock 'n'roll ' quote ' goin ' 90 's \" quoted \"",
            ),
        ] {
            assert_eq!(normalize(line, &p).join(" "), want, "{line}");
        }
    }
}
