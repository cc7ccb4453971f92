//! Lines and the words the jar makes of them (`-norm -writeAlignments`, or
//! `edu.cmu.meteor.util.Normalizer en true` then lower case).

use super::*;

fn check(cases: &[(&str, &str)]) {
    let p = parse_prefixes("Mr\nA\nB\nNo #NUMERIC_ONLY#\n");
    for (line, want) in cases {
        assert_eq!(normalize(line, &p).join(" "), *want, "{line:?}");
    }
}

#[test]
fn observed_lines() {
    check(&[
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
    ]);
}

/// Found by tools/meteor_norm_fuzz.py and the code-point scans (docs/captioning.md); each
/// expected line is the jar's `-writeAlignments` output for the input.
#[test]
fn word_characters_are_the_jars_ranges() {
    check(&[
        ("東京タワーに行く。", "東 京 タ ワ ー に 行 く 。"),
        ("Việt Nam ảnh Ɗ", "vi ệ t nam ả nh ɗ"),
        ("café naïve Привет ёЁ ᴀb Ꙁx", "café naïve привет ёё ᴀb ꙁx"),
        ("ſx ×x ÷x Ωmega ﬁne x² ٣", "ſ x × x ÷ x ω mega ﬁ ne x ² ٣"),
        ("😀x 𐐀 e\u{301} ΣΑΣ İx", "😀 x 𐐨 e \u{301} σ α σ i\u{307}x"),
    ]);
}

#[test]
fn hyphens_after_a_period_and_commas_as_moses() {
    check(&[
        ("the U.S.-led war", "the us led war"),
        (
            "x.-y x.-1 1.-2 A.B.-c x..-y a-b-c-d ả-b x-ả",
            "x. y x . 1 1 . 2 ab c x .. -y a b-c d ả -b x- ả",
        ),
        ("a,b,c ,x,", "a , b,c , x,"),
        (
            "1,,2 ,,a x,,y 5, ,5 1,a a,1",
            "1 , , 2 , ,a x , ,y 5 , , 5 1 , a a , 1",
        ),
    ]);
}

#[test]
fn quotes_periods_and_apostrophes() {
    check(&[
        ("‘‘x’’ x'''y `'x „low“", "\" x \" x \" ' y \" x „ low \""),
        (
            "xy. é xy. b 1.C. 1.2. X Mr. X No. 5 No. X",
            "xy . é xy. b 1c 1.2 . x mr. x no. 5 no . x",
        ),
        ("... x.. ..x a ..b. x....", "... x .. .. x a .. b. x ...."),
        ("'s 'S goin' 90's 'til", "' s ' s goin ' 90 's ' til"),
    ]);
}

#[test]
fn spaces_controls_and_trimming() {
    check(&[
        (
            "no.\u{2009}www no.\twww x.  y x.\u{3000}Y",
            "no . www no. www x. y x . y",
        ),
        (
            "a\x01b a\x1cb a\x0bb a\u{1680}b a\u{2028}b a\u{85}b",
            "a \x01 b a \x1c b a\x0bb a \u{1680} b a \u{2028} b a \u{85} b",
        ),
        ("x \x01", "x"),
        ("\u{2007} \x01 a \x01", "a"),
        // -stdio trims the field first: `Mr.` is then the first word and a prefix.
        ("\x01\x0bMr.", "mr."),
        ("", ""),
        ("\u{3000}", ""),
    ]);
}

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Words are never empty and hold no space; the line's ends hold nothing Java's trim
    /// removes; without periods, every letter and digit is kept (only case changes).
    #[test]
    fn words_are_clean_and_nothing_is_lost(line in "[ a-zA-Z0-9.,'`\"\u{2018}\u{2019}\u{2013}\u{3000}\u{1ea3}\u{6771}\x01\x0b\t-]{0,40}") {
        let p = parse_prefixes("Mr\n");
        let words = normalize(&line, &p);
        for w in &words {
            prop_assert!(!w.is_empty() && !w.contains(' ') && !w.contains('\u{3000}'), "{:?}", words);
        }
        if let Some(w) = words.first() {
            prop_assert!(!w.starts_with(|c: char| c <= ' '));
        }
        if let Some(w) = words.last() {
            prop_assert!(!w.ends_with(|c: char| c <= ' '));
        }
        // Periods go from abbreviations; nothing else alphanumeric is ever dropped.
        if !line.contains('.') {
            let got: String = words.concat().chars().filter(|c| c.is_alphanumeric()).collect();
            let want: String = line.chars().filter(|c| c.is_alphanumeric()).collect();
            prop_assert_eq!(got, want.to_lowercase(), "{:?}", words);
        }
    }
}

// The steps 1 to 3 as the jar's separate passes, the reference for the one-pass `prepare`.

/// Reference step 1 (the jar's passes one by one): the line trimmed, quotes, dashes and tabs normalised, `''` and `--` collapsed.
fn ref_punctuation(line: &str) -> Vec<char> {
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

/// Reference step 2: symbols and runs of periods made words of their own.
fn ref_isolate(c: &[char]) -> Vec<char> {
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

/// Reference step 3: `a-b` and `U.S.-led` lose the hyphen; matches do not overlap (`a-b-c` keeps the
/// second).
fn ref_hyphens(c: &[char]) -> Vec<char> {
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

fn ref_prepare(line: &str) -> Vec<char> {
    let s = ref_hyphens(&ref_isolate(&ref_punctuation(line)));
    let mut c = vec![' '];
    c.extend(s);
    c.push(' ');
    c
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// The one pass gives what the passes one by one give.
    #[test]
    fn one_pass_equals_the_passes(line in "[ a.'`,\"\u{2018}\u{2019}\u{201c}\u{2013}\u{2009}\x0b\t1é東-]{0,30}") {
        let mut got = Vec::new();
        let (comma, apostrophe) = prepare(&line, &mut got);
        let want = ref_prepare(&line);
        prop_assert_eq!(&got, &want, "{:?}", line);
        prop_assert_eq!(comma, want.contains(&','));
        prop_assert_eq!(apostrophe, want.contains(&'\''));
    }
}

/// The trimming of the words as lists of strings (before the words shared one buffer).
fn trim_reference(words: &mut Vec<String>) {
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

proptest! {
    /// The trimming in one buffer equals the trimming of a list of strings.
    #[test]
    fn trimming_in_one_buffer_equals_the_list(
        words in prop::collection::vec("[a\x01\x0b\u{2007}é]{1,4}", 0..6),
    ) {
        let mut flat = Words::default();
        for w in &words {
            flat.text.push_str(w);
            flat.close();
        }
        trim(&mut flat);
        let mut list = words.clone();
        trim_reference(&mut list);
        prop_assert_eq!(flat.iter().collect::<Vec<_>>(), list.iter().map(String::as_str).collect::<Vec<_>>());
    }
}
