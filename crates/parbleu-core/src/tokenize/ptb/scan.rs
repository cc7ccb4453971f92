//! The token rules of the PTB tokenizer on one space-free chunk, tried in order at each
//! position: the first rule that matches there gives the token (leftmost-first alternation,
//! as the reference regex `parbleu/metrics/caption/ptb.py` `_TOKEN` does). Each rule is written
//! out by hand with the backtracking its pattern would do; where a greedy run cannot give
//! back anything useful (the next pattern character is outside the run's class) the rule
//! takes the longest run directly.

use super::tables::{ABBREVIATIONS, DECIMAL, WORD};
use crate::text::ranges::in_ranges;

/// Which rule matched: decides the token's post-processing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// A contraction or apostrophe form: its `’` becomes `'`.
    Apostrophe,
    /// A run of periods (`...`) or hyphens (`--`), normalised to three or two.
    Run,
    /// A single character no other rule took (quotes, brackets, symbols).
    Other,
    /// Any other rule: the text as it is.
    Plain,
}

/// A character the jar keeps inside words (letters, digits, marks of the scripts it knows).
#[inline]
pub(super) fn w(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric()
    } else {
        in_ranges(WORD, c as u32)
    }
}

/// Python's `\d` (a decimal digit): every one the jar does not delete is a word character.
#[inline]
fn d(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_digit()
    } else {
        in_ranges(DECIMAL, c as u32)
    }
}

/// A word character that is not a digit.
#[inline]
fn l(c: char) -> bool {
    w(c) && !d(c)
}

#[inline]
fn apos(c: char) -> bool {
    c == '\'' || c == '\u{2019}'
}

/// The chunk and helpers answering "what is at `i`" (`None` past the end).
struct S<'a>(&'a [char]);

impl S<'_> {
    #[inline]
    fn at(&self, i: usize) -> Option<char> {
        self.0.get(i).copied()
    }
    #[inline]
    fn is(&self, i: usize, f: impl Fn(char) -> bool) -> bool {
        self.at(i).is_some_and(f)
    }
    #[inline]
    fn eq(&self, i: usize, c: char) -> bool {
        self.at(i) == Some(c)
    }
    #[inline]
    fn one_of(&self, i: usize, set: &str) -> bool {
        self.at(i).is_some_and(|c| set.contains(c))
    }
    /// `(?!{W})` at `i`: the end, or a character outside words.
    #[inline]
    fn nw(&self, i: usize) -> bool {
        !self.is(i, w)
    }
    /// The end of the run of characters `f` accepts from `i`.
    #[inline]
    fn run(&self, mut i: usize, f: impl Fn(char) -> bool) -> usize {
        while self.is(i, &f) {
            i += 1;
        }
        i
    }
    #[inline]
    fn starts(&self, i: usize, lit: &str) -> bool {
        lit.chars().enumerate().all(|(k, c)| self.eq(i + k, c))
    }
    /// `(?:[seps]\d+)*` from `i` (after a digit run): greedy, so its longest match.
    fn digit_groups(&self, mut i: usize, seps: &str) -> (usize, usize) {
        let mut count = 0;
        while self.one_of(i, seps) && self.is(i + 1, d) {
            i = self.run(i + 1, d);
            count += 1;
        }
        (i, count)
    }
    /// `(?:[A-Za-z]\.)+` from `i`: its end, or `i` when it does not match (measured: `é.`
    /// and `Ä.` lose their period, `e.` keeps it).
    fn acro(&self, mut i: usize) -> usize {
        while self.is(i, |c| c.is_ascii_alphabetic()) && self.eq(i + 1, '.') {
            i += 2;
        }
        i
    }
    /// `(?:ABBR)\.(?!{W})` from `i`: abbreviations are letters, so the one before the period
    /// is the whole word-character run.
    fn abbr(&self, i: usize) -> Option<usize> {
        let j = self.run(i, w);
        if j == i || !self.eq(j, '.') || !self.nw(j + 1) {
            return None;
        }
        let word: String = self.0[i..j].iter().collect();
        ABBREVIATIONS
            .binary_search(&word.as_str())
            .is_ok()
            .then_some(j + 1)
    }
    /// `[^\s<>"]+?(?=[trail]*(?:\s|$))` from `q` (a chunk has no whitespace): the shortest
    /// body after which only `trail` characters are left.
    fn url_body(&self, q: usize, trail: &str) -> Option<usize> {
        let n = self.0.len();
        let mut t = n;
        while t > 0 && trail.contains(self.0[t - 1]) {
            t -= 1;
        }
        let e = t.max(q + 1);
        (e <= n && self.0[q..e].iter().all(|c| !"<>\"".contains(*c))).then_some(e)
    }
    /// `(?!(?:[sSmMdD]|re|RE|ve|VE|ll|LL|em|EM)(?!{W}))` at `q`.
    fn not_contraction(&self, q: usize) -> bool {
        let one = self.one_of(q, "sSmMdD") && self.nw(q + 1);
        let two = ["re", "RE", "ve", "VE", "ll", "LL", "em", "EM"]
            .iter()
            .any(|t| self.starts(q, t) && self.nw(q + 2));
        !(one || two)
    }
}

/// The rule at `p` (`p` < the chunk's length): its end and its kind.
pub(super) fn next(chunk: &[char], p: usize) -> (usize, Kind) {
    let s = S(chunk);
    let rules: [fn(&S, usize) -> Option<usize>; 22] = [
        url, email, sgml, hyph, acro, amp, file, abbr, phd, pdot, no, dot, slash, num, int, cur,
        ntbase, nt, yall, vowel, oclock, word,
    ];
    for (k, rule) in rules.iter().enumerate() {
        if let Some(e) = rule(&s, p) {
            // nt (17) is a contraction; the others keep their text.
            let kind = if k == 17 {
                Kind::Apostrophe
            } else {
                Kind::Plain
            };
            return (e, kind);
        }
    }
    if s.starts(p, "''") || s.starts(p, "``") {
        return (p + 2, Kind::Plain);
    }
    let apostrophe: [fn(&S, usize) -> Option<usize>; 5] = [contr, tis, rn, year, aposword];
    if let Some(e) = apostrophe.iter().find_map(|r| r(&s, p)) {
        return (e, Kind::Apostrophe);
    }
    if let Some(e) = tag(&s, p) {
        return (e, Kind::Plain);
    }
    if let Some(e) = run(&s, p) {
        return (e, Kind::Run);
    }
    (p + 1, Kind::Other)
}

/// URLs (`http://`, `https://`, `ftp://`, `www.`) less their trailing punctuation.
fn url(s: &S, p: usize) -> Option<usize> {
    if !s.one_of(p, "hfw") {
        return None;
    }
    let scheme = ["https://", "http://", "ftp://"]
        .iter()
        .find(|x| s.starts(p, x));
    if let Some(x) = scheme {
        if let Some(e) = s.url_body(p + x.len(), ".,;!?)]\"") {
            return Some(e);
        }
    }
    if s.starts(p, "www.") {
        return s.url_body(p + 4, ".,;:!?)]'\"");
    }
    None
}

/// `{W}+(?:[.+-]{W}+)*@{W}+(?:[.-]{W}+)*[,!?;:']*`
fn email(s: &S, p: usize) -> Option<usize> {
    let mut i = s.run(p, w);
    if i == p {
        return None;
    }
    while s.one_of(i, ".+-") && s.is(i + 1, w) {
        i = s.run(i + 1, w);
    }
    if !s.eq(i, '@') || !s.is(i + 1, w) {
        return None;
    }
    i = s.run(i + 1, w);
    while s.one_of(i, ".-") && s.is(i + 1, w) {
        i = s.run(i + 1, w);
    }
    Some(s.run(i, |c| ",!?;:'".contains(c)))
}

/// `</?[A-Za-z!?][^<>\s]*>`
fn sgml(s: &S, p: usize) -> Option<usize> {
    if !s.eq(p, '<') {
        return None;
    }
    let first = |c: char| c.is_ascii_alphabetic() || c == '!' || c == '?';
    let mut i = p + 1;
    if s.eq(i, '/') && s.is(i + 1, first) {
        i += 1;
    }
    if !s.is(i, first) {
        return None;
    }
    i = s.run(i + 1, |c| c != '<' && c != '>');
    s.eq(i, '>').then_some(i + 1)
}

/// Hyphenated words: `(?:NUMBER|ACRO|{W}+)(?:-(?:ACRO|ABBR\.(?!{W})|{W}+))+`. Each first part
/// can end before a hyphen at one place only, and the parts after it are greedy with nothing
/// after them: the first first-part that has a hyphenated tail gives the match.
fn hyph(s: &S, p: usize) -> Option<usize> {
    let number = || s.is(p, d).then(|| s.digit_groups(s.run(p, d), ".,").0);
    let acronym = || Some(s.acro(p)).filter(|&i| i > p);
    let segment = || Some(s.run(p, w)).filter(|&i| i > p);
    let firsts: [&dyn Fn() -> Option<usize>; 3] = [&number, &acronym, &segment];
    firsts.iter().find_map(|f| {
        let i = f()?;
        if !s.eq(i, '-') {
            return None;
        }
        let mut end = i;
        while s.eq(end, '-') {
            let q = end + 1;
            let a = s.acro(q);
            let part = if a > q {
                Some(a)
            } else {
                s.abbr(q).or_else(|| Some(s.run(q, w)).filter(|&j| j > q))
            };
            match part {
                Some(e) => end = e,
                None => break,
            }
        }
        (end > i).then_some(end)
    })
}

/// `(?:{L}\.)+(?!{W})`: `u.s.`, `p.m.`
fn acro(s: &S, p: usize) -> Option<usize> {
    let i = s.acro(p);
    (i > p && s.nw(i)).then_some(i)
}

/// `[A-Z]+(?:&[A-Z]+)+(?!{W})`: `AT&T`; gives back `&PART`s until a non-word follows.
fn amp(s: &S, p: usize) -> Option<usize> {
    let up = |c: char| c.is_ascii_uppercase();
    if !s.is(p, up) {
        return None;
    }
    let mut i = s.run(p, up);
    let mut ends = Vec::new();
    while s.eq(i, '&') && s.is(i + 1, up) {
        i = s.run(i + 1, up);
        ends.push(i);
    }
    ends.into_iter().rev().find(|&e| s.nw(e))
}

/// File names the jar keeps whole (`123.jpg`) before `.` `,` `!` `?` `)` or the end (measured):
/// `{W}+(?:[-.]{W}+)*\.(?i:EXT)(?=[.,!?)]|$)`, giving back `[-.]{W}+` parts until `.EXT`
/// follows.
fn file(s: &S, p: usize) -> Option<usize> {
    let mut i = s.run(p, w);
    if i == p {
        return None;
    }
    let mut ends = vec![i];
    while s.one_of(i, "-.") && s.is(i + 1, w) {
        i = s.run(i + 1, w);
        ends.push(i);
    }
    ends.into_iter().rev().find_map(|e| {
        let j = s.run(e + 1, w);
        let ends = s.at(j).is_none_or(|c| ".,!?)".contains(c));
        (s.eq(e, '.') && j > e + 1 && ends && is_extension(&s.0[e + 1..j])).then_some(j)
    })
}

/// The extensions the jar keeps after a period, compared as Python's `(?i:...)` does (which
/// also lets `ı`/`İ` match `i`, `K` (Kelvin) `k` and `ſ` `s`).
fn is_extension(word: &[char]) -> bool {
    const EXT: [&str; 34] = [
        "txt", "pdf", "png", "html", "htm", "x", "zip", "gif", "jpg", "jpeg", "doc", "docx", "ppt",
        "mp3", "mov", "wav", "exe", "dll", "xml", "java", "class", "c", "cpp", "h", "py", "pl",
        "php", "sql", "tar", "gz", "bmp", "jar", "bat", "ps",
    ];
    let same = |c: char, x: char| {
        c.to_ascii_lowercase() == x
            || (x == 'i' && matches!(c, '\u{130}' | '\u{131}'))
            || (x == 'k' && c == '\u{212a}')
            || (x == 's' && c == '\u{17f}')
    };
    EXT.iter()
        .any(|e| e.chars().count() == word.len() && e.chars().zip(word).all(|(x, &c)| same(c, x)))
}

/// `(?:ABBR)\.(?!{W})`: `Mr.`, `etc.`
fn abbr(s: &S, p: usize) -> Option<usize> {
    s.abbr(p)
}

/// `[Pp][Hh]\.[Dd]\.`: `Ph.D.` keeps its period (measured).
fn phd(s: &S, p: usize) -> Option<usize> {
    let ok = s.one_of(p, "Pp") && s.one_of(p + 1, "Hh") && s.eq(p + 2, '.');
    (ok && s.one_of(p + 3, "Dd") && s.eq(p + 4, '.')).then_some(p + 5)
}

/// `{L}{W}*(?:\.{W}+)*\.(?=[,;:])`: a word keeps its period before `,` `;` `:` (measured:
/// `dog.,`, `no.:`, `é.;`). Shorter `\.{W}+` parts leave a word character after the period.
fn pdot(s: &S, p: usize) -> Option<usize> {
    if !s.is(p, l) {
        return None;
    }
    let mut i = s.run(p, w);
    while s.eq(i, '.') && s.is(i + 1, w) {
        i = s.run(i + 1, w);
    }
    (s.eq(i, '.') && s.one_of(i + 1, ",;:")).then_some(i + 1)
}

/// `[Nn][Oo][Ss]?\.(?=\d)`: `No.5`, `nos.5`
fn no(s: &S, p: usize) -> Option<usize> {
    if !(s.one_of(p, "Nn") && s.one_of(p + 1, "Oo")) {
        return None;
    }
    let q = p + 2 + usize::from(s.one_of(p + 2, "Ss"));
    // Without the `s`, a period would have to follow `o`: no second chance.
    (s.eq(q, '.') && s.is(q + 1, d)).then_some(q + 1)
}

/// `{L}{W}*(?:[.!?]{L}{W}*)+`: `a.b.c`, `x.com`
fn dot(s: &S, p: usize) -> Option<usize> {
    if !s.is(p, l) {
        return None;
    }
    let mut i = s.run(p, w);
    let start = i;
    while s.one_of(i, ".!?") && s.is(i + 1, l) {
        i = s.run(i + 1, w);
    }
    (i > start).then_some(i)
}

/// `A+(?:-A+)*(?:/A+(?:-A+)*){1,2}` with `A` = `[A-Za-z0-9]`: `and/or`, `1/2/3`
fn slash(s: &S, p: usize) -> Option<usize> {
    let a = |c: char| c.is_ascii_alphanumeric();
    let dashes = |mut i: usize| {
        while s.eq(i, '-') && s.is(i + 1, a) {
            i = s.run(i + 1, a);
        }
        i
    };
    let mut i = s.run(p, a);
    if i == p {
        return None;
    }
    i = dashes(i);
    let mut parts = 0;
    while parts < 2 && s.eq(i, '/') && s.is(i + 1, a) {
        i = dashes(s.run(i + 1, a));
        parts += 1;
    }
    (parts > 0).then_some(i)
}

/// `[-+]\d+(?:[.,:]\d+)*|[-+]?(?:\d+(?:[.,:]\d+)+|[.,:]\d+(?:[.,:]\d+)*)`
fn num(s: &S, p: usize) -> Option<usize> {
    let signed = s.one_of(p, "-+");
    if signed && s.is(p + 1, d) {
        return Some(s.digit_groups(s.run(p + 1, d), ".,:").0);
    }
    let q = p + usize::from(signed);
    if s.is(q, d) {
        let (e, groups) = s.digit_groups(s.run(q, d), ".,:");
        return (groups > 0).then_some(e);
    }
    (s.one_of(q, ".,:") && s.is(q + 1, d)).then(|| s.digit_groups(s.run(q + 1, d), ".,:").0)
}

/// `\d+(?!{W})`
fn int(s: &S, p: usize) -> Option<usize> {
    let i = s.run(p, d);
    (i > p && s.nw(i)).then_some(i)
}

/// `[A-Z]{1,3}\$`: `US$`
fn cur(s: &S, p: usize) -> Option<usize> {
    let i = s.run(p, |c| c.is_ascii_uppercase());
    (i > p && i - p <= 3 && s.eq(i, '$')).then_some(i + 1)
}

/// `n't` ahead at `k`: `[nN]['’][tT](?!{W})`
fn nt_at(s: &S, k: usize) -> bool {
    s.one_of(k, "nN") && s.is(k + 1, apos) && s.one_of(k + 2, "tT") && s.nw(k + 3)
}

/// `{W}+?(?=n't)`: the word before `n't` (`ca` of `can't`)
fn ntbase(s: &S, p: usize) -> Option<usize> {
    let mut k = p + 1;
    while s.is(k - 1, w) {
        if nt_at(s, k) {
            return Some(k);
        }
        k += 1;
    }
    None
}

/// `[nN]['’][tT](?!{W})`
fn nt(s: &S, p: usize) -> Option<usize> {
    nt_at(s, p).then_some(p + 3)
}

/// `[yY]['’](?=all)`
fn yall(s: &S, p: usize) -> Option<usize> {
    (s.one_of(p, "yY") && s.is(p + 1, apos) && s.starts(p + 2, "all")).then_some(p + 2)
}

/// `{W}*[aeiouAEIOU]['’]NOT_CONTRACTION[aeiouAEIOUA-Z]{W}*`: an apostrophe between a vowel
/// and a vowel or capital stays inside the word. The apostrophe is not a word character, so
/// the vowel before it ends the leading run.
fn vowel(s: &S, p: usize) -> Option<usize> {
    let r = s.run(p, w);
    let v = |c: char| "aeiouAEIOU".contains(c);
    let ok = r > p
        && s.is(r - 1, v)
        && s.is(r, apos)
        && s.not_contraction(r + 1)
        && s.is(r + 1, |c| v(c) || c.is_ascii_uppercase());
    ok.then(|| s.run(r + 1, w))
}

/// `{L}['’]NOT_CONTRACTION{W}+`: `o'clock`
fn oclock(s: &S, p: usize) -> Option<usize> {
    let ok = s.is(p, l) && s.is(p + 1, apos) && s.not_contraction(p + 2) && s.is(p + 2, w);
    ok.then(|| s.run(p + 2, w))
}

/// `{W}+(?:_{W}+)*`
fn word(s: &S, p: usize) -> Option<usize> {
    let mut i = s.run(p, w);
    if i == p {
        return None;
    }
    while s.eq(i, '_') && s.is(i + 1, w) {
        i = s.run(i + 1, w);
    }
    Some(i)
}

/// Whether a contraction starts at `p`: `gonna's` stays `gonna 's` (measured), where
/// `gonna'` is `gon na '`.
pub(super) fn contraction_at(chunk: &[char], p: usize) -> bool {
    contr(&S(chunk), p).is_some()
}

/// `['’](?:[sSmMdD]|re|RE|Re|ve|VE|Ve|ll|LL|Ll)(?!{W})`: `'s`, `'ll`
fn contr(s: &S, p: usize) -> Option<usize> {
    if !s.is(p, apos) {
        return None;
    }
    if s.one_of(p + 1, "sSmMdD") && s.nw(p + 2) {
        return Some(p + 2);
    }
    let two = ["re", "RE", "Re", "ve", "VE", "Ve", "ll", "LL", "Ll"];
    two.iter()
        .any(|t| s.starts(p + 1, t) && s.nw(p + 3))
        .then_some(p + 3)
}

/// `['’][tT](?=(?:is|was|IS|WAS)(?!{W}))`: `'t` of `'twas`
fn tis(s: &S, p: usize) -> Option<usize> {
    let q = p + 2;
    let ahead = ["is", "IS", "was", "WAS"]
        .iter()
        .any(|t| s.starts(q, t) && s.nw(q + t.len()));
    (s.is(p, apos) && s.one_of(p + 1, "tT") && ahead).then_some(q)
}

/// `['’][nN]['’]`: `'n'` of `rock'n'roll`
fn rn(s: &S, p: usize) -> Option<usize> {
    (s.is(p, apos) && s.one_of(p + 1, "nN") && s.is(p + 2, apos)).then_some(p + 3)
}

/// `['’]\d\d[sS]?(?!{W}|[.,:]\d)`: `'90s`
fn year(s: &S, p: usize) -> Option<usize> {
    if !(s.is(p, apos) && s.is(p + 1, d) && s.is(p + 2, d)) {
        return None;
    }
    let e = p + 3 + usize::from(s.one_of(p + 3, "sS"));
    // Without the `s`, the `s` itself is a word character that follows: no second chance.
    let blocked = s.is(e, w) || (s.one_of(e, ".,:") && s.is(e + 1, d));
    (!blocked).then_some(e)
}

/// `['’](?:[eE][mM]|[tT][iI][lL]|[cC][aA][uU][sS][eE])(?!{W})`: `'em`, `'til`, `'cause`
fn aposword(s: &S, p: usize) -> Option<usize> {
    if !s.is(p, apos) {
        return None;
    }
    ["em", "til", "cause"].iter().find_map(|t| {
        let n = t.len();
        let same = t
            .chars()
            .enumerate()
            .all(|(k, c)| s.is(p + 1 + k, |x| x.to_ascii_lowercase() == c));
        (same && s.nw(p + 1 + n)).then_some(p + 1 + n)
    })
}

/// `[@#]{L}{W}*`: `@user`, `#tag`
fn tag(s: &S, p: usize) -> Option<usize> {
    (s.one_of(p, "@#") && s.is(p + 1, l)).then(|| s.run(p + 1, w))
}

/// `_+|@+|#+|[!?]+|\.\.\.+|--+|\.|-`
fn run(s: &S, p: usize) -> Option<usize> {
    let c = s.at(p)?;
    match c {
        '_' | '@' | '#' => Some(s.run(p, |x| x == c)),
        '!' | '?' => Some(s.run(p, |x| x == '!' || x == '?')),
        '.' if s.starts(p, "...") => Some(s.run(p, |x| x == '.')),
        '-' if s.starts(p, "--") => Some(s.run(p, |x| x == '-')),
        '.' | '-' => Some(p + 1),
        _ => None,
    }
}

/// `[nN]`, `[oO]`, `[sS]?`, `.` at the end of a chunk, not after a word character: `No.`
/// before a number keeps its period (`_NUMBER_SIGN`). The start of that suffix.
pub(super) fn number_sign(chunk: &[char]) -> Option<usize> {
    let s = S(chunk);
    let n = chunk.len();
    if n < 3 || chunk[n - 1] != '.' {
        return None;
    }
    let start = if n >= 4 && s.one_of(n - 2, "sS") && s.one_of(n - 3, "oO") && s.one_of(n - 4, "Nn")
    {
        n - 4
    } else if s.one_of(n - 2, "oO") && s.one_of(n - 3, "Nn") {
        n - 3
    } else {
        return None;
    };
    (start == 0 || !w(chunk[start - 1])).then_some(start)
}
