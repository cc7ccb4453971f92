//! The one shape of `_core.BleuRefs`, `ChrfRefs` and `TerRefs`: references converted once
//! from Python streams to the core's [`RefSet`] (grouping, `None` removal, counts, each
//! distinct text once), prepared by the metric, and reused across systems.
//!
//! [`refs_class!`] writes the class of one metric: its constructor and the methods every
//! metric shares, plus the metric's own methods given to it. [`Prepared`] (the core's
//! `metrics::metric::Prepare`) is what a metric's core `PreparedRefs` offers them.

use crate::error::Result;
use crate::parallel::Workers;
use parbleu_core::refset::RefSet;
use pyo3::prelude::*;
use pyo3::types::PyString;

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

/// One metric's references class: `name { options: OptionsClass => |o| extraction options,
/// prepared: core PreparedRefs } { the metric's own methods }`. The class holds `cfg` (the
/// extraction options) and `refs` (the prepared references) for those methods. With
/// `rows: core fn, block: n` after `prepared`, it also has the `extract` method of chrF and
/// TER: the core's statistics rows of every hypothesis (`fn(cfg, block, refs, start,
/// workers)`), `n` segments per GIL release, as little-endian bytes.
macro_rules! refs_class {
    (
        $(#[$doc:meta])*
        $name:ident {
            options: $opt:ty => $cfg_of:expr, prepared: $prep:ty, rows: $rows:path, block: $block:expr
        }
        { $($methods:tt)* }
    ) => {
        $crate::refs::refs_class! {
            $(#[$doc])*
            $name { options: $opt => $cfg_of, prepared: $prep }
            {
                /// Statistics rows as little-endian bytes (int64; TER: float64
                /// `num_edits, ref_length`).
                fn extract<'py>(
                    &self,
                    py: ::pyo3::Python<'py>,
                    hyps: Vec<::pyo3::Bound<'py, ::pyo3::types::PyString>>,
                    workers: $crate::parallel::Workers,
                ) -> $crate::error::Result<::pyo3::Bound<'py, ::pyo3::types::PyBytes>> {
                    let n = $crate::refs::Prepared::segments(&self.refs);
                    let rows = $crate::metrics::batch(py, &hyps, n, $block, |start, block| {
                        $rows(&self.cfg, block, &self.refs, start, workers.0)
                    })?;
                    Ok($crate::convert::le_bytes(py, &rows)?)
                }

                $($methods)*
            }
        }
    };
    (
        $(#[$doc:meta])*
        $name:ident { options: $opt:ty => $cfg_of:expr, prepared: $prep:ty }
        { $($methods:tt)* }
    ) => {
        $(#[$doc])*
        #[::pyo3::pyclass(module = "parbleu._core", frozen)]
        pub(crate) struct $name {
            cfg: <$prep as $crate::refs::Prepared>::Cfg,
            refs: $prep,
        }

        #[::pyo3::pymethods]
        impl $name {
            /// `streams`: reference streams (each one string or None per segment), all the
            /// same length; `options`: the metric's options (their extraction part is used).
            #[new]
            #[pyo3(signature = (streams, options, workers))]
            fn new(
                py: ::pyo3::Python<'_>,
                streams: $crate::refs::Streams<'_>,
                options: &$opt,
                workers: $crate::parallel::Workers,
            ) -> $crate::error::Result<Self> {
                let cfg = ($cfg_of)(options);
                let refs = $crate::refs::prepare(py, &streams, cfg, workers)?;
                Ok($name { cfg, refs })
            }

            fn __len__(&self) -> usize {
                $crate::refs::Prepared::segments(&self.refs)
            }

            /// Distinct reference counts per segment (sorted).
            fn ref_counts(&self) -> Vec<u32> {
                $crate::refs::Prepared::index(&self.refs).ref_counts()
            }

            /// Index of the first segment without any reference, if there is one.
            fn first_segment_without_refs(&self) -> Option<usize> {
                $crate::refs::Prepared::index(&self.refs).first_segment_without_refs()
            }

            /// Number of distinct reference segments (identical ones share one preparation).
            fn distinct_segments(&self) -> usize {
                $crate::refs::Prepared::distinct(&self.refs)
            }

            $($methods)*
        }
    };
}

pub(crate) use refs_class;
