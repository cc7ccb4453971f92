//! `none`: the line as it is.

pub fn tokenize(line: &str) -> String {
    line.to_owned()
}

/// [`tokenize`] into `out`, replacing its contents and reusing its allocation.
pub fn tokenize_into(line: &str, out: &mut String) {
    out.clear();
    out.push_str(line);
}
