//! `char`: SacreBLEU's `TokenizerChar`, `" ".join(line)` (every character, spaces included).

/// `TokenizerChar()(line)`.
pub fn tokenize(line: &str) -> String {
    // A right-sized allocation: cheaper than growing an empty string.
    let mut out = String::with_capacity(2 * line.len());
    tokenize_into(line, &mut out);
    out
}

/// [`tokenize`] into `out`, replacing its contents and reusing its allocation.
pub fn tokenize_into(line: &str, out: &mut String) {
    out.clear();
    if out.capacity() < 2 * line.len() {
        *out = String::with_capacity(2 * line.len());
    }
    let mut chars = line.chars();
    if let Some(c) = chars.next() {
        out.push(c);
        for c in chars {
            out.push(' ');
            out.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::tokenize;
    use crate::text::testing::check_cases;

    #[test]
    fn joins_every_character() {
        check_cases(
            tokenize,
            &[
                ("", ""),
                ("a", "a"),
                ("ab c", "a b   c"),
                ("中文。", "中 文 。"),
                (" \t", "  \t"),
                // Characters, not grapheme clusters: the combining mark is its own token.
                ("e\u{301}", "e \u{301}"),
            ],
        );
    }
}
