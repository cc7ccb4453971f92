//! PyO3 binding of parbleu-core: conversion, GIL release, error mapping. Nothing else.
//!
//! One file per core module (`bleu`, `caption`, `chrf`, `ter`, `ids`, `meta`, `pairwise`, `significance`,
//! `flavors/`, `tokenize`, `wordstats`, `pysum`, `parallel`, `interrupt`), each registering its
//! own classes and functions; the helpers they share are `error` (`?` to `parbleu.errors`),
//! `convert`, `named` (options given by name), `options`, `refs` and `metrics`; `prepared` is
//! `_core.Refs`, the one class over every metric's prepared references.

mod bleu;
mod caption;
mod chrf;
mod convert;
mod error;
mod flavors;
mod ids;
mod interrupt;
mod meta;
mod metrics;
mod named;
mod options;
mod pairwise;
mod parallel;
mod prepared;
mod pysum;
mod refs;
mod rouge;
mod significance;
mod ter;
mod tokenize;
mod wordstats;

use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    interrupt::install();
    pysum::register(m)?;
    tokenize::register(m)?;
    parallel::register(m)?;
    options::register(m)?;
    bleu::register(m)?;
    caption::register(m)?;
    chrf::register(m)?;
    ter::register(m)?;
    ids::register(m)?;
    meta::register(m)?;
    pairwise::register(m)?;
    prepared::register(m)?;
    rouge::register(m)?;
    significance::register(m)?;
    flavors::register(m)?;
    wordstats::register(m)?;
    Ok(())
}
