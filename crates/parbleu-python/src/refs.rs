//! The one shape of every metric's references behind `_core.Refs`: references converted once
//! from Python streams to the core's [`RefSet`] (grouping, `None` removal, counts, each
//! distinct text once), prepared by the metric, and reused across systems.
//!
//! [`refs_class!`] writes the references of one metric: its constructor and what every
//! metric shares, plus the metric's own methods given to it. [`Prepared`] (the core's
//! `metrics::metric::Prepare`) is what a metric's core `PreparedRefs` offers them.

use crate::convert::{le_bytes, LeBytes};
use crate::error::Result;
use crate::metrics::batch;
use crate::parallel::Workers;
use parbleu_core::metrics::extract::{self, Extract};
use parbleu_core::refset::RefSet;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// Reference streams as the `*Refs` constructors receive them: a list (one per stream) of
/// lists of `str` or `None`, one per segment. PyO3's conversion checks the types (a
/// `TypeError` the Python layer turns into a message naming the item) and holds a reference to
/// every string, so the text borrowed from them stays valid while `Streams` lives.
pub(crate) type Streams<'py> = Vec<Vec<Option<Bound<'py, PyString>>>>;

/// The [`RefSet`] of `streams`: each string's UTF-8 text borrowed, not copied (converting while
/// holding the GIL is serial time), then grouped and deduplicated with the GIL released. Equal
/// strings are usually one object repeated (a reference list scored against every system):
/// the set finds them by address before hashing any text.
pub(crate) fn ref_set<'a>(py: Python<'_>, streams: &'a Streams<'_>) -> Result<RefSet<'a>> {
    let borrowed: Vec<Vec<Option<&'a str>>> = streams
        .iter()
        .map(|s| {
            s.iter()
                .map(|r| r.as_ref().map(|r| r.to_str()).transpose())
                .collect()
        })
        .collect::<PyResult<_>>()?;
    Ok(py.detach(|| RefSet::from_streams(&borrowed))?)
}

/// A metric's references prepared by the core (the core's [`Prepare`] step), as the shared
/// methods of [`refs_class!`] read them.
pub(crate) use parbleu_core::metrics::metric::Prepare as Prepared;

/// `streams` prepared with `cfg` (the GIL released while the core works).
pub(crate) fn prepare<P: Prepared>(
    py: Python<'_>,
    streams: &Streams<'_>,
    cfg: P::Cfg,
    workers: Workers,
) -> Result<P> {
    let set = ref_set(py, streams)?;
    Ok(py.detach(|| P::prepare(&cfg, set, workers.0)))
}

/// One metric's references: `name { prepared: core PreparedRefs } { the metric's own
/// methods }`. The struct holds `cfg` (the extraction options) and `refs` (the prepared
/// references) for those methods; `_core.Refs` (`prepared.rs`) is the one Python class over all
/// of them. With `block: n` after `prepared`, it also has the `extract` method of chrF and TER:
/// [`extract_rows`] (the core's generic block loop over the metric's `Extract`), `n` segments
/// per GIL release.
macro_rules! refs_class {
    (
        $(#[$doc:meta])*
        $name:ident {
            prepared: $prep:ty, block: $block:expr
        }
        { $($methods:tt)* }
    ) => {
        $crate::refs::refs_class! {
            $(#[$doc])*
            $name { prepared: $prep }
            {
                /// Statistics rows as little-endian bytes (int64; TER: float64
                /// `num_edits, ref_length`).
                pub(crate) fn extract<'py>(
                    &self,
                    py: ::pyo3::Python<'py>,
                    hyps: Vec<::pyo3::Bound<'py, ::pyo3::types::PyString>>,
                    workers: $crate::parallel::Workers,
                ) -> $crate::error::Result<::pyo3::Bound<'py, ::pyo3::types::PyBytes>> {
                    $crate::refs::extract_rows(py, &self.refs, &self.cfg, &hyps, $block, workers)
                }

                $($methods)*
            }
        }
    };
    (
        $(#[$doc:meta])*
        $name:ident { prepared: $prep:ty }
        { $($methods:tt)* }
    ) => {
        $(#[$doc])*
        pub(crate) struct $name {
            cfg: <$prep as $crate::refs::Prepared>::Cfg,
            refs: $prep,
        }

        impl $name {
            /// `streams`: reference streams (each one string or None per segment), all the
            /// same length, prepared with the extraction options `cfg`.
            pub(crate) fn new(
                py: ::pyo3::Python<'_>,
                streams: &$crate::refs::Streams<'_>,
                cfg: <$prep as $crate::refs::Prepared>::Cfg,
                workers: $crate::parallel::Workers,
            ) -> $crate::error::Result<Self> {
                let refs = $crate::refs::prepare(py, streams, cfg, workers)?;
                Ok($name { cfg, refs })
            }

            /// The prepared references, as the methods every metric shares read them.
            pub(crate) fn prepared(&self) -> &dyn $crate::refs::Shared {
                &self.refs
            }

            $($methods)*
        }
    };
}

pub(crate) use refs_class;

/// The statistics rows of every hypothesis against `refs` as little-endian bytes: the core's
/// generic block loop ([`extract::extract_block`]), `block` segments per GIL release.
pub(crate) fn extract_rows<'py, E>(
    py: Python<'py>,
    refs: &E,
    cfg: &E::Cfg,
    hyps: &[Bound<'py, PyString>],
    block: usize,
    workers: Workers,
) -> Result<Bound<'py, PyBytes>>
where
    E: Extract,
    E::Cell: LeBytes,
{
    let rows = batch(py, hyps, refs.segments(), block, |start, b| {
        extract::extract_block(refs, cfg, b, start, workers.0)
    })?;
    Ok(le_bytes(py, &rows)?)
}

/// What `_core.Refs` reads of any metric's prepared references (the object-safe part of
/// [`Prepared`]).
pub(crate) trait Shared {
    fn segments(&self) -> usize;
    fn index(&self) -> &parbleu_core::refset::RefIndex;
    fn distinct(&self) -> usize;
}

impl<P: Prepared> Shared for P {
    fn segments(&self) -> usize {
        Prepared::segments(self)
    }
    fn index(&self) -> &parbleu_core::refset::RefIndex {
        Prepared::index(self)
    }
    fn distinct(&self) -> usize {
        Prepared::distinct(self)
    }
}
