//! Fuzz targets of parbleu-core; the invariants live in `checks.rs`.

mod checks;
pub use checks::*;
