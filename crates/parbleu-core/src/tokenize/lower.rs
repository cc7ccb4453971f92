//! PLACEHOLDER: CPython's str.lower(); exact table to come.

pub fn py_lower(s: &str) -> String {
    s.to_lowercase()
}
