//! The references of a corpus, for every metric: segments × streams, borrowed, with each
//! distinct text found once.
//!
//! A test set is usually scored against many systems, and its reference lists are repeated
//! (one per system, often the very same string objects; or several streams sharing lines):
//! every metric prepares each distinct unit once. [`RefSet`] is the one place where reference
//! streams are regrouped by segment (`None` references removed), counted, and deduplicated:
//! first by address (equal address and length imply equal text, and cost no hashing of the
//! text), then by text. What it keeps after the borrow ends is a [`RefIndex`]: per segment,
//! the ids of its distinct texts, and the queries the metrics' reference objects answer.

use crate::error::{Error, Result};
use crate::parallel;
use rustc_hash::FxHashMap;

/// Reference texts borrowed from the caller, grouped by segment, each distinct text once.
#[derive(Debug, Clone, Default)]
pub struct RefSet<'a> {
    /// The distinct texts, in order of first occurrence (segment by segment, stream by stream).
    texts: Vec<&'a str>,
    index: RefIndex,
}

/// Which distinct texts each segment has: the part of a [`RefSet`] that outlives the borrow.
#[derive(Debug, Clone, Default)]
pub struct RefIndex {
    /// Segment `i`'s references are the texts `items[starts[i]..starts[i + 1]]`.
    starts: Vec<usize>,
    items: Vec<u32>,
    /// Number of distinct texts (ids are `0..n_texts`).
    n_texts: usize,
}

impl<'a> RefSet<'a> {
    /// References given as streams (each one text or `None` per segment), all one length.
    pub fn from_streams<T: AsRef<[Option<&'a str>]>>(streams: &[T]) -> Result<Self> {
        let n = streams.first().map_or(0, |s| s.as_ref().len());
        if let Some(s) = streams.iter().find(|s| s.as_ref().len() != n) {
            return Err(Error::LengthMismatch {
                what: "reference streams (all must have one entry per segment)".into(),
                expected: n,
                found: s.as_ref().len(),
            });
        }
        let mut b = Builder::with_capacity(n, n * streams.len());
        for i in 0..n {
            for s in streams {
                if let Some(t) = s.as_ref()[i] {
                    b.push(t);
                }
            }
            b.end_segment();
        }
        Ok(b.finish())
    }

    /// References given segment by segment.
    pub fn from_segments<S: AsRef<str> + 'a, R: AsRef<[S]>>(segments: &'a [R]) -> Self {
        let total = segments.iter().map(|s| s.as_ref().len()).sum();
        let mut b = Builder::with_capacity(segments.len(), total);
        for seg in segments {
            for t in seg.as_ref() {
                b.push(t.as_ref());
            }
            b.end_segment();
        }
        b.finish()
    }

    /// References given as candidate texts and, per segment, indices into them (`starts` has
    /// one more entry than there are segments; every index is below `texts.len()`).
    pub fn from_indices(texts: &[&'a str], starts: &[usize], items: &[u32]) -> Self {
        let n = starts.len().saturating_sub(1);
        let mut b = Builder::with_capacity(n, items.len());
        for w in starts.windows(2) {
            for &j in &items[w[0]..w[1]] {
                b.push(texts[j as usize]);
            }
            b.end_segment();
        }
        b.finish()
    }

    /// The distinct texts; a segment's references are ids into this list.
    pub fn texts(&self) -> &[&'a str] {
        &self.texts
    }

    /// Which texts each segment has, and the counts.
    pub fn index(&self) -> &RefIndex {
        &self.index
    }

    /// The index without the borrowed texts.
    pub fn into_index(self) -> RefIndex {
        self.index
    }

    /// The texts of segment `i`'s references, in stream order.
    pub fn segment(&self, i: usize) -> impl ExactSizeIterator<Item = &'a str> + '_ {
        self.index.ids(i).iter().map(|&j| self.texts[j as usize])
    }

    /// `f` of every distinct text, in [`RefSet::texts`] order, on `workers` threads
    /// (`chunk` texts per task): what a metric prepares per reference text.
    pub fn prepare_texts<P, F>(&self, workers: usize, chunk: usize, f: F) -> Vec<P>
    where
        P: Default + Send,
        F: Fn(&str) -> P + Sync,
    {
        let mut out: Vec<P> = (0..self.texts.len()).map(|_| P::default()).collect();
        parallel::for_each_chunk(workers, &mut out, chunk, |start, part| {
            for (j, p) in part.iter_mut().enumerate() {
                *p = f(self.texts[start + j]);
            }
        });
        out
    }
}

impl RefIndex {
    /// Number of segments.
    pub fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// No segments.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Ids (into the set's distinct texts) of segment `i`'s references, in stream order.
    #[inline]
    pub fn ids(&self, i: usize) -> &[u32] {
        &self.items[self.starts[i]..self.starts[i + 1]]
    }

    /// Number of references of segment `i`.
    pub fn count(&self, i: usize) -> usize {
        self.starts[i + 1] - self.starts[i]
    }

    /// The distinct per-segment reference counts, sorted.
    pub fn ref_counts(&self) -> Vec<u32> {
        let mut c: Vec<u32> = (0..self.len()).map(|i| self.count(i) as u32).collect();
        c.sort_unstable();
        c.dedup();
        c
    }

    /// Index of the first segment without any reference, if there is one.
    pub fn first_segment_without_refs(&self) -> Option<usize> {
        (0..self.len()).find(|&i| self.count(i) == 0)
    }

    /// Number of distinct reference texts.
    pub fn distinct_texts(&self) -> usize {
        self.n_texts
    }

    /// For each segment, the first segment with the same references (same texts, same
    /// order): the unit of metrics that prepare a whole segment at once.
    pub fn segment_sources(&self) -> Vec<usize> {
        let mut first: FxHashMap<&[u32], usize> = FxHashMap::default();
        (0..self.len())
            .map(|i| *first.entry(self.ids(i)).or_insert(i))
            .collect()
    }

    /// Number of distinct reference segments (see [`RefIndex::segment_sources`]).
    pub fn distinct_segments(&self) -> usize {
        let sources = self.segment_sources();
        sources.iter().enumerate().filter(|&(i, &s)| s == i).count()
    }
}

/// Builds a [`RefSet`] text by text.
struct Builder<'a> {
    by_addr: FxHashMap<(usize, usize), u32>,
    by_text: FxHashMap<&'a str, u32>,
    texts: Vec<&'a str>,
    starts: Vec<usize>,
    items: Vec<u32>,
}

impl<'a> Builder<'a> {
    fn with_capacity(segments: usize, refs: usize) -> Self {
        let mut starts = Vec::with_capacity(segments + 1);
        starts.push(0);
        Builder {
            by_addr: FxHashMap::default(),
            by_text: FxHashMap::default(),
            texts: Vec::new(),
            starts,
            items: Vec::with_capacity(refs),
        }
    }

    /// Add a reference of the current segment.
    #[inline]
    fn push(&mut self, t: &'a str) {
        let (texts, by_text) = (&mut self.texts, &mut self.by_text);
        // Identical strings are usually the same object: the address is looked up first, and
        // only a new address has its text hashed.
        let id = *self
            .by_addr
            .entry((t.as_ptr() as usize, t.len()))
            .or_insert_with(|| {
                *by_text.entry(t).or_insert_with(|| {
                    texts.push(t);
                    // Ids are u32 (half the memory per reference); more distinct texts than
                    // that would not fit in memory as prepared references anyway.
                    u32::try_from(texts.len() - 1).expect("fewer than 2**32 distinct references")
                })
            });
        self.items.push(id);
    }

    fn end_segment(&mut self) {
        self.starts.push(self.items.len());
    }

    fn finish(self) -> RefSet<'a> {
        let n_texts = self.texts.len();
        RefSet {
            texts: self.texts,
            index: RefIndex {
                starts: self.starts,
                items: self.items,
                n_texts,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_by_segment_none_removed_texts_once() {
        let a = String::from("x y");
        let b = String::from("x y"); // equal text, other address
        let c = String::from("z");
        let s1 = vec![Some(a.as_str()), Some(b.as_str()), None, Some(c.as_str())];
        let s2 = vec![Some(c.as_str()), None, None, Some(a.as_str())];
        let set = RefSet::from_streams(&[s1, s2]).unwrap();
        assert_eq!(set.texts(), &["x y", "z"]);
        let ix = set.index();
        assert_eq!(ix.len(), 4);
        assert_eq!(ix.ids(0), &[0, 1]);
        assert_eq!(ix.ids(1), &[0]);
        assert_eq!(ix.ids(2), &[] as &[u32]);
        assert_eq!(ix.ids(3), &[1, 0]);
        assert_eq!(set.segment(3).collect::<Vec<_>>(), vec!["z", "x y"]);
        assert_eq!(ix.ref_counts(), vec![0, 1, 2]);
        assert_eq!(ix.first_segment_without_refs(), Some(2));
        assert_eq!(ix.distinct_texts(), 2);
    }

    #[test]
    fn streams_of_other_lengths_are_refused() {
        let s1 = vec![Some("a"), Some("b")];
        let s2 = vec![Some("a")];
        let e = RefSet::from_streams(&[s1, s2]).unwrap_err();
        assert!(matches!(
            e,
            Error::LengthMismatch {
                expected: 2,
                found: 1,
                ..
            }
        ));
        assert!(RefSet::from_streams::<Vec<Option<&str>>>(&[])
            .unwrap()
            .index()
            .is_empty());
    }

    #[test]
    fn segment_sources_by_address_then_text() {
        let a = String::from("x y");
        let b = String::from("x y");
        let c = String::from("z");
        let segs: Vec<Vec<&str>> = vec![
            vec![&a],
            vec![&b],
            vec![&c],
            vec![&a],
            vec![&a, &c],
            vec![&b, &c],
            vec![&c, &a],
            vec![],
            vec![],
        ];
        let set = RefSet::from_segments(&segs);
        let ix = set.index();
        assert_eq!(ix.segment_sources(), vec![0, 0, 2, 0, 4, 4, 6, 7, 7]);
        assert_eq!(ix.distinct_segments(), 5);
        assert_eq!(ix.first_segment_without_refs(), Some(7));
    }

    proptest::proptest! {
        /// Every construction gives each segment its texts in order, equal texts one id, and
        /// distinct texts distinct ids.
        #[test]
        fn prop_ids_name_texts(
            pool in proptest::collection::vec("[ab]{0,3}", 1..6),
            picks in proptest::collection::vec(proptest::collection::vec(0usize..8, 0..4), 0..12),
        ) {
            let owned: Vec<String> = pool.clone();
            let segs: Vec<Vec<&str>> = picks
                .iter()
                .map(|p| p.iter().map(|&k| owned[k % owned.len()].as_str()).collect())
                .collect();
            let copies: Vec<Vec<String>> =
                segs.iter().map(|s| s.iter().map(|t| t.to_string()).collect()).collect();
            for set in [RefSet::from_segments(&segs), RefSet::from_segments(&copies)] {
                let ix = set.index();
                proptest::prop_assert_eq!(ix.len(), segs.len());
                let mut seen = std::collections::HashSet::new();
                for (i, seg) in segs.iter().enumerate() {
                    let got: Vec<&str> = set.segment(i).collect();
                    proptest::prop_assert_eq!(&got, seg);
                    seen.extend(seg.iter().copied());
                }
                proptest::prop_assert_eq!(ix.distinct_texts(), seen.len());
                proptest::prop_assert_eq!(set.texts().len(), seen.len());
                for (i, &s) in ix.segment_sources().iter().enumerate() {
                    proptest::prop_assert!(s <= i);
                    proptest::prop_assert_eq!(&segs[s], &segs[i]);
                    let first = segs.iter().position(|x| x == &segs[i]).unwrap();
                    proptest::prop_assert_eq!(s, first);
                }
            }
        }
    }
}

/// One reference text as a metric prepares it for a [`TextPool`] (chrF's n-gram tables, TER's
/// tokenized string).
pub trait PreparedText: Default + Send {
    /// The options the text is prepared with.
    type Cfg: Sync;
    /// Texts per parallel task.
    const CHUNK: usize;
    fn prepare(cfg: &Self::Cfg, text: &str) -> Self;
}

impl<P: PreparedText> TextPool<P> {
    /// Prepare references given segment by segment.
    pub fn new<S: AsRef<str>, R: AsRef<[S]>>(
        cfg: &P::Cfg,
        segments: Vec<R>,
        workers: usize,
    ) -> Self {
        Self::from_set(cfg, RefSet::from_segments(&segments), workers)
    }

    /// Prepare each distinct text of `set` once (identical references are common: a test set
    /// scored against many systems, batch sentence scores).
    pub fn from_set(cfg: &P::Cfg, set: RefSet<'_>, workers: usize) -> Self {
        Self::prepare(set, workers, P::CHUNK, |t| P::prepare(cfg, t))
    }
}

/// References prepared text by text: each distinct text of a [`RefSet`] once (`pool`, indexed
/// by the set's text ids), and the [`RefIndex`] saying which texts each segment has. The shape
/// of chrF's and TER's prepared references (a segment's references are scored one by one).
#[derive(Debug, Clone, Default)]
pub struct TextPool<P> {
    pool: Vec<P>,
    index: RefIndex,
}

impl<P: Default + Send> TextPool<P> {
    /// Prepare each distinct text of `set` once with `f`, `chunk` texts per parallel task.
    pub fn prepare<F: Fn(&str) -> P + Sync>(
        set: RefSet<'_>,
        workers: usize,
        chunk: usize,
        f: F,
    ) -> Self {
        let pool = set.prepare_texts(workers, chunk, f);
        TextPool {
            pool,
            index: set.into_index(),
        }
    }
}

impl<P> TextPool<P> {
    /// Which references each segment has (counts, segments without any).
    pub fn index(&self) -> &RefIndex {
        &self.index
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// No segments.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of references of segment `i`.
    pub fn count(&self, i: usize) -> usize {
        self.index.count(i)
    }

    /// The prepared references of segment `i`.
    pub fn refs(&self, i: usize) -> impl ExactSizeIterator<Item = &P> {
        self.index.ids(i).iter().map(|&j| &self.pool[j as usize])
    }
}
