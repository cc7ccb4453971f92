//! Invariants checked by the fuzz targets, shared with the core's proptest suite
//! (`crates/parbleu-core/tests/fuzz_invariants.rs` includes this file) so that CI checks the
//! same properties without cargo-fuzz, and replays every saved crash input.
//!
//! Each `check_*` function takes arbitrary bytes, decodes options and a small corpus from them,
//! and panics if an invariant breaks: no panic inside the core, no overflow (the fuzz build has
//! overflow checks on), statistics that add up over any split of the corpus, and finite scores
//! in range.

use parbleu_core::error::{check_order, MAX_ORDER};
use parbleu_core::metrics::{bleu, chrf, ter};
use parbleu_core::parallel;
use parbleu_core::text::py_split;
use parbleu_core::tokenize::Tokenizer;

const TOKENIZERS: [Tokenizer; 5] = [
    Tokenizer::None,
    Tokenizer::T13a,
    Tokenizer::Intl,
    Tokenizer::Char,
    Tokenizer::Zh,
];

/// Scores are computed as SacreBLEU computes them, rounding included: `exp(ln(100))` is
/// `100.00000000000004`, so ranges are checked with this slack.
const SLACK: f64 = 1e-9;

/// Whether a score is finite and within `[0, 100]` (up to rounding).
fn in_range(x: f64) -> bool {
    x.is_finite() && (-SLACK..=100.0 + SLACK).contains(&x)
}

/// A small corpus decoded from fuzz bytes.
struct Corpus {
    hyps: Vec<String>,
    /// References segment by segment (`None` references already removed, as the binding does).
    refs: Vec<Vec<String>>,
    /// Where to split the corpus in two for the additivity check.
    split: usize,
}

/// Two option bytes, then lossy UTF-8 text: lines grouped as `hyp, ref_1..ref_k` per segment;
/// a reference line equal to `\u{1}` stands for `None` (no reference).
fn decode(data: &[u8]) -> ([u8; 3], Corpus) {
    let mut opts = [0u8; 3];
    for (o, b) in opts.iter_mut().zip(data) {
        *o = *b;
    }
    let rest = data.get(3..).unwrap_or_default();
    let text = String::from_utf8_lossy(rest);
    let n_refs = 1 + usize::from(opts[2] % 3);
    let lines: Vec<&str> = text.split('\n').collect();
    let mut hyps = Vec::new();
    let mut refs = Vec::new();
    for seg in lines.chunks(1 + n_refs) {
        hyps.push(seg[0].to_owned());
        refs.push(
            seg[1..]
                .iter()
                .filter(|r| **r != "\u{1}")
                .map(|r| (*r).to_owned())
                .collect(),
        );
    }
    let split = usize::from(opts[2] / 3) % (hyps.len() + 1);
    (opts, Corpus { hyps, refs, split })
}

/// Column sums without overflow.
fn col_sums(rows: &[i64], width: usize) -> Vec<i64> {
    let mut sum = vec![0i64; width];
    for row in rows.chunks_exact(width) {
        for (s, v) in sum.iter_mut().zip(row) {
            *s = s.checked_add(*v).expect("statistics sum overflows");
        }
    }
    sum
}

/// The rows `extract` gives for the whole corpus, after checking that there are `width` per
/// segment and that they are the rows of its two halves (split at `c.split`) put together.
fn split_invariant_rows<T: Clone + PartialEq + std::fmt::Debug>(
    c: &Corpus,
    width: usize,
    extract: impl Fn(&[String], &[Vec<String>]) -> Vec<T>,
) -> Vec<T> {
    let whole = extract(&c.hyps, &c.refs);
    assert_eq!(whole.len(), c.hyps.len() * width);
    let (a, b) = (
        extract(&c.hyps[..c.split], &c.refs[..c.split]),
        extract(&c.hyps[c.split..], &c.refs[c.split..]),
    );
    assert_eq!(
        [a, b].concat(),
        whole,
        "rows depend on how the corpus is split"
    );
    whole
}

/// A tokenizer never panics, and its output splits into the same tokens whichever way the
/// metrics split it.
pub fn check_tokenizer(tok: Tokenizer, data: &[u8]) {
    let line = String::from_utf8_lossy(data);
    let out = tok.tokenize(&line);
    let fast = tok.split_output(&out);
    let slow: Vec<&str> = py_split(&out).collect();
    assert_eq!(
        fast, slow,
        "split_output disagrees with str.split() for {tok:?}"
    );
    let _ = tok.preprocess(&line, true);
}

/// The TER (Tercom) tokenizer never panics with any options, and its output is normalized
/// (single spaces, no leading or trailing whitespace).
pub fn check_ter_tokenizer(data: &[u8]) {
    let flags = data.first().copied().unwrap_or(0);
    let o = ter::TercomOpts {
        normalized: flags & 1 != 0,
        no_punct: flags & 2 != 0,
        asian_support: flags & 4 != 0,
        case_sensitive: flags & 8 != 0,
    };
    let line = String::from_utf8_lossy(data.get(1..).unwrap_or_default());
    let out = ter::tokenizer::preprocess(&line, &o);
    let joined = py_split(&out).collect::<Vec<_>>().join(" ");
    assert_eq!(
        out, joined,
        "TER tokenizer output is not single-space joined"
    );
}

/// BLEU: rows are sane, extraction of a split corpus gives the same rows (hence the same
/// sums), and every finalize gives a finite score in [0, 100].
pub fn check_bleu(data: &[u8]) {
    let (opts, c) = decode(data);
    let cfg = bleu::BleuExtract {
        tokenizer: TOKENIZERS[usize::from(opts[0] % 5)],
        lowercase: opts[0] & 0x80 != 0,
        max_order: 1 + usize::from(opts[1] % 6),
    };
    let smooth = match (opts[1] / 6) % 4 {
        0 => bleu::Smooth::None,
        1 => bleu::Smooth::Floor(0.1),
        2 => bleu::Smooth::AddK(1.0),
        _ => bleu::Smooth::Exp,
    };
    let so = bleu::BleuScoreOpts {
        smooth,
        effective_order: opts[1] & 0x80 != 0,
        max_order: cfg.max_order,
    };
    let w = cfg.width();
    let extract = |hyps: &[String], refs: &[Vec<String>]| {
        let prepared = bleu::PreparedRefs::new(&cfg, refs.to_vec(), 1);
        bleu::extract(&cfg, hyps, &prepared.segments, 1)
            .expect("equal lengths")
            .0
    };
    let whole = split_invariant_rows(&c, w, extract);
    let n = cfg.max_order;
    for row in whole.chunks_exact(w) {
        // ref_len is -1 for a segment without references (SacreBLEU's closest length).
        assert!(row[0] >= 0 && row[1] >= -1, "bad lengths {row:?}");
        assert!(
            row[2..].iter().all(|&x| x >= 0),
            "negative statistic: {row:?}"
        );
        for k in 0..n {
            assert!(
                row[2 + k] <= row[2 + n + k],
                "matches exceed totals: {row:?}"
            );
        }
        let s = bleu::finalize(row, &so);
        assert!(in_range(s.score), "{s:?}");
    }
    let s = bleu::finalize(&col_sums(&whole, w), &so);
    assert!(in_range(s.score), "{s:?}");
}

/// chrF / chrF++: same properties as BLEU, for any orders, beta and flags.
pub fn check_chrf(data: &[u8]) {
    let (opts, c) = decode(data);
    let score = chrf::ChrfScoreOpts::new(
        usize::from(opts[0] % 7),
        usize::from((opts[0] / 7) % 3),
        f64::from(opts[1] % 4),
        opts[1] & 0x40 != 0,
    );
    let cfg = chrf::ChrfExtract {
        score,
        lowercase: opts[1] & 0x80 != 0,
        whitespace: opts[1] & 0x20 != 0,
    };
    if score.check().is_err() {
        return;
    }
    let extract = |hyps: &[String], refs: &[Vec<String>]| {
        let prepared = chrf::PreparedRefs::new(&cfg, refs.to_vec(), 1);
        chrf::extract(&cfg, hyps, &prepared, 1).expect("valid options")
    };
    let w = cfg.width();
    let whole = split_invariant_rows(&c, w, extract);
    for row in whole.chunks_exact(w) {
        for t in row.chunks_exact(3) {
            assert!(t.iter().all(|&x| x >= 0), "negative statistic: {row:?}");
            assert!(
                t[2] <= t[0] && t[2] <= t[1],
                "matches exceed counts: {row:?}"
            );
        }
    }
    let per_row = chrf::finalize_many(&whole, &score, 1).expect("valid options");
    let total = chrf::f_score(&col_sums(&whole, w), &score);
    for f in per_row.iter().chain([&total]) {
        assert!(in_range(*f), "chrF {f}");
    }
}

/// TER: rows are finite and non-negative, split-invariant, and the score is finite.
pub fn check_ter(data: &[u8]) {
    let (opts, c) = decode(data);
    let o = ter::TercomOpts {
        normalized: opts[0] & 1 != 0,
        no_punct: opts[0] & 2 != 0,
        asian_support: opts[0] & 4 != 0,
        case_sensitive: opts[0] & 8 != 0,
    };
    let extract = |hyps: &[String], refs: &[Vec<String>]| {
        let prepared = ter::PreparedRefs::new(&o, refs.to_vec(), 1);
        ter::extract(&o, hyps, &prepared, 1).expect("equal lengths")
    };
    let whole = split_invariant_rows(&c, ter::WIDTH, extract);
    assert!(
        whole.iter().all(|x| x.is_finite() && *x >= 0.0),
        "{whole:?}"
    );
    let per_row = ter::finalize_many(&whole, 1).expect("width 2");
    let [e, r] = ter::sum_rows(&whole);
    for t in per_row.iter().chain([&ter::finalize(e, r)]) {
        assert!(t.is_finite() && *t >= 0.0, "TER {t}");
    }
}

/// Options, not text: any 64-bit order or thread count is either refused before anything is
/// allocated or used at a cost bounded by the input (orders above the longest segment give
/// zero columns), and thread counts never exceed the cores.
pub fn check_options(data: &[u8]) {
    let mut word = [0u8; 8];
    for (w, b) in word.iter_mut().zip(data) {
        *w = *b;
    }
    let raw = u64::from_le_bytes(word);
    // Half the inputs: a small order, so that the accepted path runs often.
    let order = if data.get(8).is_some_and(|b| b & 1 == 0) {
        raw % (MAX_ORDER as u64 + 8)
    } else {
        raw
    };
    let workers = parallel::resolve(raw as i64);
    assert!(
        workers >= 1 && workers <= parallel::available(),
        "{raw}: {workers} threads"
    );
    let Ok(n) = check_order("order", order) else {
        assert!(order > MAX_ORDER as u64, "order {order} refused");
        return;
    };
    assert!(n <= MAX_ORDER);
    let (_, c) = decode(data.get(9..).unwrap_or_default());
    if n >= 1 {
        let cfg = bleu::BleuExtract {
            tokenizer: Tokenizer::T13a,
            lowercase: false,
            max_order: n,
        };
        let prepared = bleu::PreparedRefs::new(&cfg, c.refs.clone(), 1);
        let rows = bleu::extract(&cfg, &c.hyps, &prepared.segments, 1)
            .expect("equal lengths")
            .0;
        let w = cfg.width();
        assert_eq!(rows.len(), c.hyps.len() * w);
        for row in rows.chunks_exact(w) {
            // Orders above the hypothesis length have no n-grams at all.
            let len = usize::try_from(row[0]).expect("length");
            for k in len..n {
                assert_eq!(
                    (row[2 + k], row[2 + n + k]),
                    (0, 0),
                    "order {} of {row:?}",
                    k + 1
                );
            }
        }
    }
    let score = chrf::ChrfScoreOpts::new(n, n % 3, 2.0, false);
    if score.check().is_ok() {
        let cfg = chrf::ChrfExtract {
            score,
            lowercase: false,
            whitespace: false,
        };
        let prepared = chrf::PreparedRefs::new(&cfg, c.refs.clone(), 1);
        let rows = chrf::extract(&cfg, &c.hyps, &prepared, 1).expect("valid options");
        assert_eq!(rows.len(), c.hyps.len() * cfg.width());
    }
}
