//! fairseq 0.12.2's BLEU scorer (`fairseq-score`): dictionary ids and libbleu's hashed n-grams.
//!
//! Every line pair (system line first, then reference line) is split on whitespace and its
//! words mapped to ids of one growing dictionary (`<s>` 0, `<pad>` 1, `</s>` 2, `<unk>` 3, new
//! words from 4), an end-of-sentence id appended. In the reference, `<unk>` ids become -999
//! (never matched). libbleu then trims leading pads and trailing pads/ends of sentence (never
//! position 0: an empty line keeps its `</s>` and has length 1) and counts n-gram matches by
//! **hash**: FNV-1a over the ids' bytes, each byte read as a *signed* `char` and sign-extended
//! before the XOR, so some different id sequences collide and match. Reproduced exactly.

use crate::text::py_split;
use rustc_hash::FxHashMap;
use std::collections::HashMap;

const PAD: i32 = 1;
const EOS: i32 = 2;
const UNK: i32 = 3;

/// Corpus statistics of the scorer (`bleu_stat` of libbleu), orders 1 to 4.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FairseqStats {
    pub reflen: u64,
    pub predlen: u64,
    pub matches: [u64; 4],
    pub counts: [u64; 4],
}

/// libbleu's `bleu_hash`: FNV-1a over the bytes of `n` ints, bytes as signed chars.
fn bleu_hash(ngram: &[i32]) -> u64 {
    let mut h: u64 = 14_695_981_039_346_656_037;
    let prime: u64 = 0x100_0000_01b3;
    for &x in ngram {
        for b in x.to_le_bytes() {
            h ^= i64::from(b as i8) as u64;
            h = h.wrapping_mul(prime);
        }
    }
    h
}

/// `bleu_trim`: leading pads, then trailing pads and ends of sentence (position 0 is kept).
fn trim(s: &[i32]) -> &[i32] {
    let start = s.iter().position(|&x| x != PAD).unwrap_or(s.len());
    let s = &s[start..];
    if s.is_empty() {
        return s;
    }
    let mut end = s.len() - 1;
    while end > 0 && (s[end] == EOS || s[end] == PAD) {
        end -= 1;
    }
    &s[..=end]
}

fn add_ngram(n: usize, reference: &[i32], pred: &[i32], st: &mut FairseqStats) {
    if pred.len() < n {
        return;
    }
    st.counts[n - 1] += (pred.len() - n + 1) as u64;
    if reference.len() < n {
        return;
    }
    let mut count: FxHashMap<u64, u64> = FxHashMap::default();
    for w in pred.windows(n) {
        *count.entry(bleu_hash(w)).or_insert(0) += 1;
    }
    for w in reference.windows(n) {
        if let Some(c) = count.get_mut(&bleu_hash(w)) {
            if *c > 0 {
                st.matches[n - 1] += 1;
                *c -= 1;
            }
        }
    }
}

/// Scores every `(system line, reference line)` pair of `pairs` as `fairseq-score` does.
pub fn fairseq_stats<S: AsRef<str>>(pairs: &[(S, S)]) -> FairseqStats {
    let mut dict: HashMap<String, i32> = HashMap::new();
    for (i, w) in ["<s>", "<pad>", "</s>", "<unk>"].iter().enumerate() {
        dict.insert((*w).to_owned(), i as i32);
    }
    let mut encode = |line: &str| -> Vec<i32> {
        let mut ids: Vec<i32> = py_split(line)
            .map(|w| {
                let n = dict.len() as i32;
                *dict.entry(w.to_owned()).or_insert(n)
            })
            .collect();
        ids.push(EOS);
        ids
    };
    let mut st = FairseqStats::default();
    for (sys, reference) in pairs {
        let pred = encode(sys.as_ref());
        let mut rref = encode(reference.as_ref());
        for x in &mut rref {
            if *x == UNK {
                *x = -999;
            }
        }
        let (r, p) = (trim(&rref), trim(&pred));
        st.reflen += r.len() as u64;
        st.predlen += p.len() as u64;
        for n in 1..=4 {
            add_ngram(n, r, p, &mut st);
        }
    }
    st
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_lines_keep_their_end_of_sentence() {
        let st = fairseq_stats(&[("", ""), ("a b", "a b")]);
        assert_eq!((st.predlen, st.reflen), (3, 3));
        assert_eq!(st.counts, [3, 1, 0, 0]);
        assert_eq!(st.matches, [3, 1, 0, 0]);
    }

    #[test]
    fn special_tokens_are_trimmed_and_unknowns_never_match() {
        let st = fairseq_stats(&[("<pad> x <unk> </s>", "<pad> x <unk> </s>")]);
        // pred [x, unk] (pads and trailing </s> trimmed), ref [x, -999].
        assert_eq!((st.predlen, st.reflen), (2, 2));
        assert_eq!(st.matches[0], 1);
    }

    #[test]
    fn signed_char_hash_collides() {
        // Bytes 0x80.. are negative chars: (126, 127) and (128, 129) collide as bigrams.
        assert_eq!(bleu_hash(&[126, 127]), bleu_hash(&[128, 129]));
        assert_ne!(bleu_hash(&[4, 5]), bleu_hash(&[5, 4]));
    }
}
