//! CIDEr-D as pycocoevalcap's `cider/cider_scorer.py`.
//!
//! Document frequencies come from the evaluated set's references; each sentence becomes one
//! tf-idf vector per n-gram order (`tf * (log N - log max(1, df))`), compared to each reference
//! with the clipped dot product, divided by the norms, times the length penalty
//! `e^(-δ²/2σ²)` where δ counts *bigrams* (the original's `length`), summed over references.
//! Every sum runs in the original's order: n-grams in first-occurrence order (its dicts'
//! insertion order). The logs are the caller's (numpy's `np.log`, so they are its bits).

use crate::parallel;
use crate::text::py_split;
use rustc_hash::FxHashMap;
use std::ops::Range;

/// The numbers CIDEr-D needs from numpy: `ref_len = np.log(N)` and
/// `log_df[k] = np.log(max(1.0, k))` for every document frequency `k` in `0..=N`.
pub struct CiderParams<'a> {
    pub n: usize,
    pub sigma: f64,
    pub ref_len: f64,
    pub log_df: &'a [f64],
}

/// Up to this many n-grams a linear scan finds one faster than a hash map.
const SHORT: usize = 24;

/// One sentence's n-grams: per order, `(n-gram id, count)` in first-occurrence order.
type Cooked = Vec<Vec<(u32, u32)>>;

/// Words and n-grams to ids: an n-gram is its (k-1)-gram prefix's id and its last word's id.
#[derive(Default)]
struct Interner<'a> {
    words: FxHashMap<&'a str, u32>,
    grams: FxHashMap<(u32, u32), u32>,
}

impl<'a> Interner<'a> {
    fn cook(&mut self, s: &'a str, n: usize) -> Cooked {
        let words: Vec<u32> = py_split(s)
            .map(|w| {
                let next = u32::try_from(self.words.len()).unwrap_or(u32::MAX);
                *self.words.entry(w).or_insert(next)
            })
            .collect();
        let mut prev: Vec<u32> = vec![u32::MAX; words.len()];
        let mut out = Vec::with_capacity(n);
        for k in 1..=n {
            if words.len() < k {
                out.push(Vec::new());
                continue;
            }
            let m = words.len() - k + 1;
            let mut ids = Vec::with_capacity(m);
            let mut order: Vec<(u32, u32)> = Vec::new();
            // Captions are short: a linear scan beats a hash map up to a few dozen n-grams.
            let mut at: Option<FxHashMap<u32, usize>> = (m > SHORT).then(FxHashMap::default);
            for i in 0..m {
                let next = u32::try_from(self.grams.len()).unwrap_or(u32::MAX);
                let id = *self
                    .grams
                    .entry((prev[i], words[i + k - 1]))
                    .or_insert(next);
                ids.push(id);
                let found = match &at {
                    Some(at) => at.get(&id).copied(),
                    None => order.iter().position(|&(g, _)| g == id),
                };
                match found {
                    Some(p) => order[p].1 += 1,
                    None => {
                        if let Some(at) = &mut at {
                            at.insert(id, order.len());
                        }
                        order.push((id, 1));
                    }
                }
            }
            prev = ids;
            out.push(order);
        }
        out
    }
}

/// A sentence's tf-idf vectors (per order, in first-occurrence order), norms and bigram count.
struct Vector {
    vec: Vec<Vec<(u32, f64)>>,
    norm: Vec<f64>,
    length: i64,
}

fn counts2vec(c: &Cooked, df: &[u32], p: &CiderParams<'_>) -> Vector {
    let mut vec = Vec::with_capacity(c.len());
    let mut norm = Vec::with_capacity(c.len());
    let mut length = 0i64;
    for (n, grams) in c.iter().enumerate() {
        let mut s = 0.0f64;
        let mut v = Vec::with_capacity(grams.len());
        for &(id, tf) in grams {
            let x = f64::from(tf) * (p.ref_len - p.log_df[df[id as usize] as usize]);
            // `pow(x, 2)` on a numpy float is the C library's pow(x, 2.0), which is not always
            // x * x's bits: call pow with an exponent the compiler cannot fold into a multiply.
            s += x.powf(std::hint::black_box(2.0));
            v.push((id, x));
            if n == 1 {
                length += i64::from(tf);
            }
        }
        vec.push(v);
        norm.push(s.sqrt());
    }
    Vector { vec, norm, length }
}

/// `sim(...)` added into `score` (one value per order).
fn add_sim(score: &mut [f64], h: &Vector, r: &Vector, sigma: f64) {
    let delta = (h.length - r.length) as f64;
    let pen = std::f64::consts::E.powf(-(delta * delta) / (2.0 * (sigma * sigma)));
    for (n, total) in score.iter_mut().enumerate() {
        let rv = &r.vec[n];
        // Same values either way (ids are unique within a vector); the scan is for short ones.
        let lookup: Option<FxHashMap<u32, f64>> =
            (rv.len() > SHORT).then(|| rv.iter().copied().collect());
        let mut val = 0.0f64;
        for &(id, vh) in &h.vec[n] {
            let vr = match &lookup {
                Some(l) => l.get(&id).copied(),
                None => rv.iter().find(|&&(g, _)| g == id).map(|&(_, x)| x),
            }
            .unwrap_or(0.0);
            // Python's min(a, b) returns a unless b < a.
            let m = if vr < vh { vr } else { vh };
            val += m * vr;
        }
        if h.norm[n] != 0.0 && r.norm[n] != 0.0 {
            val /= h.norm[n] * r.norm[n];
        }
        val *= pen;
        *total += val;
    }
}

/// A caption set cooked once: every sentence's n-grams and the references' document
/// frequencies, ready to score any range of images ([`Prepared::sums`]).
pub struct Prepared {
    n: usize,
    cooked: Vec<(Cooked, Vec<Cooked>)>,
    df: Vec<u32>,
    max_df: u32,
}

/// Images cooked by one thread, with ids of its own interner.
struct Part<'a> {
    it: Interner<'a>,
    cooked: Vec<(Cooked, Vec<Cooked>)>,
    /// Per local n-gram id: images of this part whose references have it.
    df: Vec<u32>,
}

/// Fewest images per part of the preparation, and fewest threads to cook in parts: merging the
/// parts' n-gram ids costs about what a second thread saves. Measured on 2 cores, one part
/// against parts: 5,000 COCO images 78 ms / 92 ms CPU against 103 ms / 144 ms (parts of
/// 2,048); 40,000 images 529 ms against 713 ms / 1,040 ms CPU (two parts of 20,000). The ids
/// only name n-grams: no number depends on the parts.
const PART: usize = 16_384;
const MIN_PART_WORKERS: usize = 4;

impl<'a> Part<'a> {
    fn cook(hyps: &[&'a str], refs: &[Vec<&'a str>], n: usize) -> Self {
        let mut it = Interner::default();
        let cooked: Vec<(Cooked, Vec<Cooked>)> = hyps
            .iter()
            .zip(refs)
            .map(|(h, rs)| {
                let rc: Vec<Cooked> = rs.iter().map(|r| it.cook(r, n)).collect();
                (it.cook(h, n), rc)
            })
            .collect();
        // Document frequencies: one count per image, as the original's `set()`.
        let mut df = vec![0u32; it.grams.len()];
        let mut seen = vec![u32::MAX; it.grams.len()];
        for (img, (_, rc)) in cooked.iter().enumerate() {
            let img = img as u32;
            for &(id, _) in rc.iter().flatten().flatten() {
                let id = id as usize;
                if seen[id] != img {
                    seen[id] = img;
                    df[id] += 1;
                }
            }
        }
        Part { it, cooked, df }
    }

    /// This part's local ids in `global` (which gets the n-grams it lacks, with their
    /// document frequencies added into `df`). A local n-gram's prefix has a lower local id
    /// (order k-1 is cooked before order k), so it is mapped before it is used.
    fn map_into(&self, global: &mut Interner<'a>, df: &mut Vec<u32>) -> Vec<u32> {
        let mut words = vec![""; self.it.words.len()];
        for (&w, &id) in &self.it.words {
            words[id as usize] = w;
        }
        let mut grams = vec![(0, 0); self.it.grams.len()];
        for (&g, &id) in &self.it.grams {
            grams[id as usize] = g;
        }
        let wmap: Vec<u32> = words
            .iter()
            .map(|&w| {
                let next = global.words.len() as u32;
                *global.words.entry(w).or_insert(next)
            })
            .collect();
        let mut gmap: Vec<u32> = Vec::with_capacity(grams.len());
        for (l, &(prefix, word)) in grams.iter().enumerate() {
            let prefix = if prefix == u32::MAX {
                u32::MAX
            } else {
                gmap[prefix as usize]
            };
            let next = global.grams.len() as u32;
            let g = *global
                .grams
                .entry((prefix, wmap[word as usize]))
                .or_insert(next);
            if g as usize == df.len() {
                df.push(0);
            }
            df[g as usize] += self.df[l];
            gmap.push(g);
        }
        gmap
    }
}

impl Prepared {
    /// Cook every caption up to order `n` and count document frequencies over the
    /// references: with `MIN_PART_WORKERS` threads or more, one part of images per thread
    /// (at least [`PART`] images each) is cooked apart, then the later parts' n-grams take the first part's ids
    /// (new ones in part order) and their counts are added.
    pub fn new(hyps: &[&str], refs: &[Vec<&str>], n: usize, workers: usize) -> Self {
        let part = if workers < MIN_PART_WORKERS {
            hyps.len().max(1)
        } else {
            PART.max(hyps.len().div_ceil(workers))
        };
        Self::in_parts(hyps, refs, n, workers, part)
    }

    fn in_parts(hyps: &[&str], refs: &[Vec<&str>], n: usize, workers: usize, part: usize) -> Self {
        let ranges: Vec<Range<usize>> = (0..hyps.len())
            .step_by(part)
            .map(|s| s..s.saturating_add(part).min(hyps.len()))
            .collect();
        let mut parts: Vec<Option<Part<'_>>> = ranges.iter().map(|_| None).collect();
        parallel::for_each_chunk(workers, &mut parts, 1, |i, slot| {
            let r = ranges[i].clone();
            slot[0] = Some(Part::cook(&hyps[r.clone()], &refs[r], n));
        });
        let mut parts = parts.into_iter().flatten();
        let Some(first) = parts.next() else {
            return Prepared {
                n,
                cooked: Vec::new(),
                df: Vec::new(),
                max_df: 0,
            };
        };
        let Part {
            it: mut global,
            mut cooked,
            mut df,
        } = first;
        let mut rest: Vec<Part<'_>> = parts.collect();
        let maps: Vec<Vec<u32>> = rest
            .iter()
            .map(|p| p.map_into(&mut global, &mut df))
            .collect();
        parallel::for_each_chunk(workers, &mut rest, 1, |i, part| {
            let map = &maps[i];
            for (hc, rc) in &mut part[0].cooked {
                for (id, _) in hc.iter_mut().chain(rc.iter_mut().flatten()).flatten() {
                    *id = map[*id as usize];
                }
            }
        });
        cooked.extend(rest.into_iter().flat_map(|p| p.cooked));
        let max_df = df.iter().copied().max().unwrap_or(0);
        Prepared {
            n,
            cooked,
            df,
            max_df,
        }
    }

    /// Number of images.
    pub fn len(&self) -> usize {
        self.cooked.len()
    }

    /// Whether there is no image.
    pub fn is_empty(&self) -> bool {
        self.cooked.is_empty()
    }

    /// Whether some reference has an n-gram (else the original fails: `max()` of an empty
    /// sequence) and `log_df` covers every document frequency.
    pub fn scorable(&self, p: &CiderParams<'_>) -> bool {
        self.max_df > 0 && p.log_df.len() > self.max_df as usize && p.n == self.n
    }

    /// The CIDEr-D sums of the images in `images`, one value per order (row-major,
    /// `images.len() * n` values): the original's `score` array before `np.mean`,
    /// `/ len(refs)` and `* 10`. Call only when [`Prepared::scorable`].
    pub fn sums(&self, images: Range<usize>, p: &CiderParams<'_>, workers: usize) -> Vec<f64> {
        let n = self.n;
        let mut out = vec![0.0f64; images.len() * n];
        if n == 0 {
            return out;
        }
        let cooked = &self.cooked[images];
        parallel::for_each_chunk(workers, &mut out, 64 * n, |start, chunk| {
            for (k, score) in chunk.chunks_mut(n).enumerate() {
                let (hc, rc) = &cooked[start / n + k];
                let h = counts2vec(hc, &self.df, p);
                for r in rc {
                    add_sim(score, &h, &counts2vec(r, &self.df, p), p.sigma);
                }
            }
        });
        out
    }
}

/// Per image, the CIDEr-D sums over references ([`Prepared::sums`] of every image). Returns
/// `None` if no reference has an n-gram (the original's `max()` of an empty sequence) or if
/// `log_df` is too short for a document frequency.
pub fn sums(
    hyps: &[&str],
    refs: &[Vec<&str>],
    p: &CiderParams<'_>,
    workers: usize,
) -> Option<Vec<f64>> {
    let prep = Prepared::new(hyps, refs, p.n, workers);
    prep.scorable(p)
        .then(|| prep.sums(0..prep.len(), p, workers))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        // Cooked in parts (any size, any thread count) or in one: the same bits.
        #[test]
        fn parts_and_threads_do_not_change_bits(
            caps in proptest::collection::vec(
                (
                    proptest::collection::vec(0u8..6, 0..9),
                    proptest::collection::vec(proptest::collection::vec(0u8..6, 0..9), 1..4),
                ),
                1..40,
            ),
            part in 1usize..9,
            workers in 1usize..4,
        ) {
            let text = |w: &Vec<u8>| w.iter().map(|x| format!("w{x}")).collect::<Vec<_>>().join(" ");
            let hyps: Vec<String> = caps.iter().map(|(h, _)| text(h)).collect();
            let refs: Vec<Vec<String>> =
                caps.iter().map(|(_, rs)| rs.iter().map(text).collect()).collect();
            let h: Vec<&str> = hyps.iter().map(String::as_str).collect();
            let r: Vec<Vec<&str>> =
                refs.iter().map(|v| v.iter().map(String::as_str).collect()).collect();
            let l = logs(caps.len());
            let p = CiderParams { n: 4, sigma: 6.0, ref_len: (caps.len() as f64).ln(), log_df: &l };
            let one = Prepared::in_parts(&h, &r, 4, 1, usize::MAX);
            let many = Prepared::in_parts(&h, &r, 4, workers, part);
            prop_assert_eq!(one.max_df, many.max_df);
            if one.scorable(&p) {
                let a = one.sums(0..one.len(), &p, 1);
                let b = many.sums(0..many.len(), &p, workers);
                prop_assert_eq!(
                    a.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                    b.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
                );
            }
        }
    }

    fn logs(n: usize) -> Vec<f64> {
        (0..=n).map(|k| (k.max(1) as f64).ln()).collect()
    }

    #[test]
    fn no_reference_ngrams_is_none() {
        let l = logs(1);
        let p = CiderParams {
            n: 4,
            sigma: 6.0,
            ref_len: 0.0,
            log_df: &l,
        };
        assert!(sums(&["a b"], &[vec![""]], &p, 1).is_none());
    }

    #[test]
    fn threads_do_not_change_bits() {
        let hyps: Vec<String> = (0..300)
            .map(|i| format!("a dog {} runs {}", i % 7, i % 3))
            .collect();
        let refs: Vec<Vec<String>> = (0..300)
            .map(|i| {
                vec![
                    format!("a dog {} runs", i % 5),
                    format!("the cat {}", i % 4),
                ]
            })
            .collect();
        let h: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let r: Vec<Vec<&str>> = refs
            .iter()
            .map(|v| v.iter().map(String::as_str).collect())
            .collect();
        let l = logs(300);
        let p = CiderParams {
            n: 4,
            sigma: 6.0,
            ref_len: 300f64.ln(),
            log_df: &l,
        };
        let a = sums(&h, &r, &p, 1).unwrap();
        let b = sums(&h, &r, &p, 4).unwrap();
        assert_eq!(
            a.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            b.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
        assert!(a.iter().all(|x| x.is_finite() && *x >= 0.0));
    }
}
