//! Helpers for the tests of text functions and the tokenizers built on them (here, below
//! `tokenize`, so that both can use them without a module cycle).

/// `assert_eq!(f(input), want)` for every `(input, want)` of `cases`: example tests as tables,
/// naming the input that fails.
pub(crate) fn check_cases(f: impl Fn(&str) -> String, cases: &[(&str, &str)]) {
    for &(input, want) in cases {
        assert_eq!(f(input), want, "{input:?}");
    }
}
