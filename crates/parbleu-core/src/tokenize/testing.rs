//! Helpers for the tokenizers' tests: the literal regex passes they are checked against, and
//! exhaustive inputs.

/// One `re.sub` of a two-character pattern `(x)(y)` with `m(x, y)`, non-overlapping left to
/// right; the replacement is `\1 \2 ` (`before == false`) or ` \1 \2` (`before == true`).
pub(crate) fn pair_pass(s: &[char], m: impl Fn(char, char) -> bool, before: bool) -> Vec<char> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if i + 1 < s.len() && m(s[i], s[i + 1]) {
            if before {
                out.extend([' ', s[i], ' ', s[i + 1]]);
            } else {
                out.extend([s[i], ' ', s[i + 1], ' ']);
            }
            i += 2;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    out
}

/// `line` with a space on each side of every character `isolated` accepts.
pub(crate) fn pad(line: &str, isolated: impl Fn(char) -> bool) -> String {
    let mut s = String::new();
    crate::text::push_isolated(&mut s, line.chars(), isolated);
    s
}

/// `f(t)` for every string `t` of 1 to `max_len` characters of `alphabet`.
pub(crate) fn for_all_strings(alphabet: &[char], max_len: usize, mut f: impl FnMut(&str)) {
    let mut cur: Vec<String> = vec![String::new()];
    for _ in 0..max_len {
        let mut next = Vec::new();
        for s in &cur {
            for &c in alphabet {
                let mut t = s.clone();
                t.push(c);
                f(&t);
                next.push(t);
            }
        }
        cur = next;
    }
}

/// `f(t) == reference(t)` for every string `t` of 1 to 5 characters of `alphabet` (an alphabet
/// that covers all the classes a scanner tells apart).
pub(crate) fn agrees_on_short_strings(
    alphabet: &[char],
    f: impl Fn(&str) -> String,
    reference: impl Fn(&str) -> String,
) {
    for_all_strings(alphabet, 5, |t| assert_eq!(f(t), reference(t), "{t:?}"));
}

/// The agreement tests of a scanner `f` against its literal `reference`, in a test module
/// `name`: every string of up to 5 characters of `alphabet` ([`agrees_on_short_strings`]),
/// and long lines drawn from the proptest regex `lines` (the 16-byte fast path and the bytes
/// it leaves to the byte loop).
macro_rules! agrees_with_reference {
    ($name:ident: $f:expr, $reference:expr, alphabet $alphabet:expr, lines $lines:expr) => {
        mod $name {
            use super::*;

            #[test]
            fn all_short_strings() {
                $crate::tokenize::testing::agrees_on_short_strings(&$alphabet, $f, $reference);
            }

            proptest::proptest! {
                #[test]
                fn long_lines(t in $lines) {
                    proptest::prop_assert_eq!(($f)(t.as_str()), ($reference)(t.as_str()));
                }
            }
        }
    };
}
pub(crate) use agrees_with_reference;
