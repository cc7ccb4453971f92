//! References prepared once: per segment, the reference lengths and one clipping table.

use super::BleuExtract;
use crate::metrics::ref_table::{Builder, RefTable};
use crate::parallel;
use crate::refset::{RefIndex, RefSet};
use std::sync::Arc;

/// The references of one segment, tokenized once and turned into a clipping table. Cheap to
/// clone: segments with identical references share one copy.
#[derive(Debug, Clone, Default)]
pub struct RefSegment(pub(super) Arc<RefData>);

#[derive(Debug, Default)]
pub(super) struct RefData {
    /// Token count of each reference (the closest-length rule).
    pub(super) lens: Vec<u32>,
    /// The common case: maximum reference counts precomputed.
    pub(super) table: Option<RefTable>,
    /// Otherwise (huge segments, high orders): each reference's tokenizer output, split and
    /// matched per hypothesis (one string each, not one per token: such segments are big).
    pub(super) tokenized: Vec<String>,
}

impl RefSegment {
    fn new<S: AsRef<str>>(cfg: &BleuExtract, refs: &[S], b: &mut Builder) -> Self {
        let tok: Vec<String> = refs
            .iter()
            .map(|r| cfg.tokenizer.preprocess(r.as_ref(), cfg.lowercase))
            .collect();
        let split: Vec<Vec<&str>> = tok.iter().map(|t| cfg.tokenizer.split_output(t)).collect();
        let mut seg = RefData {
            lens: split.iter().map(|r| r.len() as u32).collect(),
            table: RefTable::build(&split, cfg.max_order, b),
            tokenized: Vec::new(),
        };
        if seg.table.is_none() {
            drop(split);
            seg.tokenized = tok;
        }
        RefSegment(Arc::new(seg))
    }

    /// Number of references.
    pub fn len(&self) -> usize {
        self.0.lens.len()
    }

    /// Hint the CPU to fetch this segment's header (two pairs ahead of its use).
    #[inline]
    pub(super) fn prefetch_header(&self) {
        crate::prefetch::prefetch(std::slice::from_ref(&*self.0), 128);
    }

    /// Hint the CPU to fetch this segment's lengths and table (one pair ahead of its use).
    #[inline]
    pub(super) fn prefetch(&self) {
        crate::prefetch::prefetch(&self.0.lens, 64);
        if let Some(t) = &self.0.table {
            t.prefetch();
        }
    }

    /// Whether the segment has no reference.
    pub fn is_empty(&self) -> bool {
        self.0.lens.is_empty()
    }
}

/// Preprocessed references, segment by segment (`None` references already removed).
///
/// The unit BLEU prepares is the whole segment, not the single text: a segment's references
/// are merged into one clipping table (the maximum count of each n-gram over them), so two
/// segments share a preparation only if they have the same texts in the same order
/// ([`RefIndex::segment_sources`]).
#[derive(Debug, Clone)]
pub struct PreparedRefs {
    pub segments: Vec<RefSegment>,
    /// See [`PreparedRefs::grouped_order`].
    order: Option<Vec<u32>>,
    /// Number of distinct reference segments.
    distinct: usize,
    index: RefIndex,
}

impl PreparedRefs {
    /// Tokenize references given segment by segment (see [`PreparedRefs::from_set`]).
    pub fn new<S, R>(cfg: &BleuExtract, segments: Vec<R>, workers: usize) -> Self
    where
        S: AsRef<str>,
        R: AsRef<[S]>,
    {
        Self::from_set(cfg, RefSet::from_segments(&segments), workers)
    }

    /// Tokenize the references of `set`; identical segments are tokenized once (test sets
    /// scored against many systems repeat their references).
    pub fn from_set(cfg: &BleuExtract, set: RefSet<'_>, workers: usize) -> Self {
        let source = set.index().segment_sources();
        let mut out = vec![RefSegment::default(); source.len()];
        parallel::for_each_chunk(workers, &mut out, 128, |start, chunk| {
            let mut b = Builder::default();
            let mut refs: Vec<&str> = Vec::new();
            for (j, seg) in chunk.iter_mut().enumerate() {
                let i = start + j;
                if source[i] == i {
                    refs.clear();
                    refs.extend(set.segment(i));
                    *seg = RefSegment::new(cfg, &refs, &mut b);
                }
            }
        });
        for i in 0..out.len() {
            if source[i] != i {
                out[i] = out[source[i]].clone();
            }
        }
        PreparedRefs {
            segments: out,
            order: grouped(&source),
            distinct: source.iter().enumerate().filter(|&(i, &s)| s == i).count(),
            index: set.into_index(),
        }
    }

    /// Number of distinct reference segments (prepared tables).
    pub fn distinct(&self) -> usize {
        self.distinct
    }

    /// Which references each segment has (counts, segments without any).
    pub fn index(&self) -> &RefIndex {
        &self.index
    }

    /// Indices of all segments, ordered so that segments sharing references are scored one
    /// after the other: their table then stays in cache, and their hypotheses (translations
    /// of one source) train the branch predictor for each other, which makes scoring many
    /// systems at once about a third faster. `None` when no two segments share references
    /// (the natural order is then as good).
    pub fn grouped_order(&self) -> Option<&[u32]> {
        self.order.as_deref()
    }
}

/// The segments grouped by their first occurrence `source[i]` (groups in order of their first
/// segment, each in increasing order): a counting sort. `None` if all are distinct (or too
/// many to index with `u32`).
fn grouped(source: &[usize]) -> Option<Vec<u32>> {
    let n = source.len();
    if n >= u32::MAX as usize || source.iter().enumerate().all(|(i, &s)| s == i) {
        return None;
    }
    // next[g]: where the next member of the group first seen at `g` goes.
    let mut next = vec![0u32; n + 1];
    for &s in source {
        next[s + 1] += 1;
    }
    for g in 0..n {
        next[g + 1] += next[g];
    }
    let mut order = vec![0u32; n];
    for (i, &s) in source.iter().enumerate() {
        order[next[s] as usize] = i as u32;
        next[s] += 1;
    }
    Some(order)
}
