//! What the speed examples share.

/// The lines of the file at `path` (panics if it cannot be read: these are benchmarks).
pub fn read_lines(path: &str) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .map(str::to_owned)
        .collect()
}
