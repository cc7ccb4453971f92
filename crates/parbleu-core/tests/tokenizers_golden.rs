//! The tokenizers against SacreBLEU 2.6 outputs recorded in `tests/data/tokenizer_cases.tsv`:
//! every `none`/`13a`/`intl`/`char`/`zh` line of `shared/golden/sacrebleu/tokenizers.jsonl`,
//! hand-picked tricky strings (with and without lowercasing) and a WMT21 sample. The fixture is
//! written by `tools/gen_tokenizer_fixture.py`, which runs SacreBLEU itself.

use std::collections::BTreeMap;

use parbleu_core::tokenize::Tokenizer;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/tokenizer_cases.tsv"
);

/// Undo the fixture's escapes: `\\` and `\u{hex}`.
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some('u') => {
                assert_eq!(chars.next(), Some('{'), "bad escape in {s:?}");
                let hex: String = chars.by_ref().take_while(|&h| h != '}').collect();
                let cp = u32::from_str_radix(&hex, 16).expect("hex code point");
                out.push(char::from_u32(cp).expect("scalar value"));
            }
            other => panic!("bad escape \\{other:?} in {s:?}"),
        }
    }
    out
}

struct Case {
    tokenizer: Tokenizer,
    lowercase: bool,
    source: String,
    input: String,
    expected: String,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(FIXTURE).expect("read the fixture");
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 5, "{l:?}");
            Case {
                tokenizer: Tokenizer::from_name(f[0]).expect("tokenizer name"),
                lowercase: match f[1] {
                    "0" => false,
                    "1" => true,
                    other => panic!("lowercase {other:?}"),
                },
                source: f[2].to_owned(),
                input: unescape(f[3]),
                expected: unescape(f[4]),
            }
        })
        .collect()
}

#[test]
fn unescape_roundtrip() {
    assert_eq!(unescape(r"a\\b\u{9}c\u{3000}"), "a\\b\tc\u{3000}");
}

#[test]
fn tokenizers_match_sacrebleu() {
    let cases = cases();
    let mut seen: BTreeMap<(&str, &str, bool), usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for c in &cases {
        let kind = c.source.split(':').next().unwrap_or("");
        let kind = kind.split('#').next().unwrap_or("");
        *seen
            .entry((c.tokenizer.signature(), kind, c.lowercase))
            .or_default() += 1;
        let got = c.tokenizer.preprocess(&c.input, c.lowercase);
        if got != c.expected {
            failures.push(format!(
                "{} {} lowercase={}: {:?}\n  expected {:?}\n  got      {:?}",
                c.source,
                c.tokenizer.signature(),
                c.lowercase,
                c.input,
                c.expected,
                got
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    // Every tokenizer is covered by every kind of case (the golden file: all 532 lines each).
    for name in Tokenizer::NAMES {
        assert_eq!(seen.get(&(name, "golden", false)), Some(&532), "{name}");
        assert!(
            seen.get(&(name, "tricky", false)).is_some_and(|&n| n > 50),
            "{name}"
        );
        assert!(
            seen.get(&(name, "tricky", true)).is_some_and(|&n| n > 50),
            "{name}"
        );
        assert!(
            seen.get(&(name, "wmt21", false)).is_some_and(|&n| n >= 80),
            "{name}"
        );
    }
}
