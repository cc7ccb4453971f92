//! PLACEHOLDER: to be replaced by the exact implementation.

pub fn tokenize(line: &str) -> String {
    crate::text::py_split(line).collect::<Vec<_>>().join(" ")
}
